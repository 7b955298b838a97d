"""Puzzles with rules: their result page and the way in from a pasted f-puzzles or
SudokuPad link. One blueprint, ``rules``."""

from .routes import bp

__all__ = ["bp"]
