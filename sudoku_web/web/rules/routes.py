"""Puzzles with rules (thermometers, arrows, dots ...): their result page and the way in from
a pasted f-puzzles or SudokuPad link.

``GET /rules/<givens>/<rules>[/<regions>]`` is a rules puzzle's canonical share link (see
:mod:`sudoku_web.core.rules.links`; any other spelling of it is a 301 there); the form's
paste box hands a pasted f-puzzles puzzle to
:func:`~sudoku_web.web.puzzles.pastes.open_paste`, and ``POST /rules`` does the
same for a form of its own field ``fpuzzles``. The core reads, checks and solves; this module
parses the request, calls and renders.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import InvalidPuzzle
from ...core.rules import links
from ..puzzles import urls
from ..puzzles.pastes import open_paste
from ..puzzles.puzzle_text import read
from ..puzzles.request_path import invalid_page
from ..render.boards import board_view
from ..render.preview import HEIGHT, WIDTH, render_png
from ..runtime import cache, solving

bp = Blueprint("rules", __name__)


@bp.post("/rules")
def submit() -> BaseResponse:
    """A form whose ``fpuzzles`` field holds a puzzle, link or JSON (see :func:`open_paste`)."""
    return open_paste(request.form.get("fpuzzles", ""))


@bp.get("/rules/<puzzle>/<rules>")
def page(puzzle: str, rules: str) -> BaseResponse:
    """A rules puzzle's result page."""
    return _page(puzzle, rules, None)


@bp.get("/rules/<puzzle>/<rules>/<regions>")
def mapped_page(puzzle: str, rules: str, regions: str) -> BaseResponse:
    """A rules puzzle's result page on a board with a region map."""
    return _page(puzzle, rules, regions)


# The status under a rules puzzle's link-preview picture.
PICTURE_WORDS = {
    "solved": "Solved",
    "multiple": "More than one solution",
    "gave_up": "The solver gave up",
    "unsolvable": "Impossible: no solution",
}


@bp.get("/rules/<puzzle>/<rules>/preview.png", defaults={"regions": None})
@bp.get("/rules/<puzzle>/<rules>/<regions>/preview.png")
def picture(puzzle: str, rules: str, regions: str | None) -> BaseResponse:
    """A rules puzzle's link-preview PNG (on a board with a region map: its map before
    ``preview.png``): its rules drawn as on its page, solved or not."""
    try:
        geometry = links.board(puzzle, rules, regions)
    except InvalidPuzzle:
        abort(404)
    reading = read(puzzle, geometry)
    if not reading.ok or reading.grid is None or reading.canonical is None:
        abort(404)  # the page says what is wrong; there is no puzzle to draw
    result = solving.cached_solve(
        reading.canonical, geometry, cache.solve_key(reading.canonical, geometry)
    )
    solution = result.solutions[0] if result.status == "solved" else None
    words = PICTURE_WORDS.get(result.status, "Not a valid puzzle")
    image = render_png(list(reading.grid), solution, geometry, words)
    return Response(image, mimetype="image/png")


def _page(puzzle: str, rules: str, regions: str | None) -> BaseResponse:
    try:
        geometry = links.board(puzzle, rules, regions)
    except InvalidPuzzle as exc:
        return invalid_page(exc.errors)
    reading = read(puzzle, geometry)
    if not reading.ok or reading.grid is None or reading.canonical is None:
        return invalid_page(reading.errors, geometry, reading.grid)
    target = urls.rules_url(geometry, reading.canonical)
    if target != request.path:
        return redirect(target, 301)
    givens = reading.canonical
    key = cache.solve_key(givens, geometry)
    result = solving.cached_solve(givens, geometry, key)
    if result.status == "invalid":
        return invalid_page(result.errors, geometry, reading.grid)
    solution = result.solutions[0] if result.status == "solved" else None
    page = render_template(
        "rules_result.html",
        status=result.status,
        reason=result.reason,
        board=board_view(geometry, givens, solution),
        share_url=urls.rules_url(geometry, givens, external=True),
        preview={
            "url": urls.rules_url(geometry, givens, external=True),
            "title": PICTURE_WORDS.get(result.status, "Result"),
            "description": "A sudoku with rules, drawn and solved by sudoku-web.",
            "image": urls.rules_url(geometry, givens, external=True) + "/preview.png",
            "width": WIDTH,
            "height": HEIGHT,
        },
        edit_url=urls.edit_url(geometry, givens),
        print_url=urls.print_url(urls.edit_url(geometry, givens)),
        stats=result.stats,
    )
    return Response(page, content_type="text/html; charset=utf-8")
