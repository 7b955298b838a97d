"""A pasted f-puzzles or SudokuPad puzzle, opened at its rules page: shared by the form
(:mod:`sudoku_web.web.pages.routes`) and the rules pages (:mod:`sudoku_web.web.pages.rules`)."""

from __future__ import annotations

import re

from flask import redirect
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import InvalidPuzzle
from ...core.rules import fpuzzles
from . import urls
from .puzzle_text import canonical
from .request_path import invalid_page

# What makes a paste an f-puzzles or SudokuPad puzzle rather than a grid of digits.
_FPUZZLES_PASTE = re.compile(r"^\s*\{|f-puzzles\.com|sudokupad|puzzleid=|[?&]load=|^\s*N4Ig")


def is_fpuzzles_paste(text: str) -> bool:
    """True when a pasted text is an f-puzzles JSON, link or load string, or a SudokuPad link."""
    return bool(_FPUZZLES_PASTE.search(text[:200]))


def open_paste(text: str) -> BaseResponse:
    """A pasted f-puzzles puzzle: a 303 to its share link, or the 422 page saying why not."""
    try:
        imported = fpuzzles.load(text)
    except InvalidPuzzle as exc:
        return invalid_page(exc.errors)
    givens = canonical(imported.givens)
    return redirect(urls.page_url(imported.geometry, givens), 303)
