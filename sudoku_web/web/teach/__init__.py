"""The teaching pages: a puzzle's steps, the engine's search, its difficulty, and the form's
hint. One blueprint, ``teach``."""

from .routes import bp

__all__ = ["bp"]
