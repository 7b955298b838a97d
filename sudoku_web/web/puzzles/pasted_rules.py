"""A pasted f-puzzles or SudokuPad puzzle, opened at its rules page: shared by the form
(:mod:`sudoku_web.web.pages.routes`) and the rules pages (:mod:`sudoku_web.web.pages.rules`)."""

from __future__ import annotations

import re

from flask import current_app, redirect
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import InvalidPuzzle, PuzzleError
from ...core.rules import fpuzzles
from ..runtime.languages import format_number
from . import urls
from .puzzle_text import canonical
from .request_path import invalid_page

# What makes a paste an f-puzzles or SudokuPad puzzle rather than a grid of digits.
_FPUZZLES_PASTE = re.compile(r"^\s*\{|f-puzzles\.com|sudokupad|puzzleid=|[?&]load=|^\s*N4Ig")


def is_fpuzzles_paste(text: str) -> bool:
    """True when a pasted text is an f-puzzles JSON, link or load string, or a SudokuPad link."""
    return bool(_FPUZZLES_PASTE.search(text[:200]))


def open_paste(text: str) -> BaseResponse:
    """A pasted f-puzzles puzzle: a 303 to its share link, or the 422 page saying why not
    (among them a link longer than the app takes, ``MAX_URL_LENGTH``: the 303 would lead to
    a 414)."""
    try:
        imported = fpuzzles.load(text)
    except InvalidPuzzle as exc:
        return invalid_page(exc.errors)
    link = urls.page_url(imported.geometry, canonical(imported.givens))
    limit = int(current_app.config["MAX_URL_LENGTH"] or 0)
    if limit and len(link) > limit:
        message = gettext(
            "This puzzle's link would be %(length)s characters long, more than the %(limit)s"
            " a link may have here, so its pages cannot be opened by link. POST /api/solve"
            ' or /api/explain take it whole, as "fpuzzles".',
            length=format_number(len(link)),
            limit=format_number(limit),
        )
        return invalid_page((PuzzleError("rule", message),))
    return redirect(link, 303)
