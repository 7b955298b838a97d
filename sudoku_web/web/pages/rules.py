"""Puzzles with rules (thermometers, arrows, dots ...): their result page.

``GET /rules/<givens>/<rules>[/<regions>]`` is a rules puzzle's canonical share link (see
:mod:`sudoku_web.core.rules.links`; any other spelling of it is a 301 there). The form's
paste box opens a pasted f-puzzles puzzle there
(:mod:`sudoku_web.web.puzzles.pasted_rules`), and ``POST /rules`` does the same for a form of
its own field ``fpuzzles``. The core reads, checks and solves; this module parses the
request, calls and renders. Its routes join the ``pages`` blueprint.
"""

from __future__ import annotations

from flask import Response, abort, redirect, render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import InvalidPuzzle
from ...core.rules import links
from ..puzzles import pasted_rules, urls
from ..puzzles.puzzle_text import read
from ..puzzles.request_path import invalid_page
from ..render.boards import board_view
from ..render.preview import HEIGHT, WIDTH, render_png
from ..runtime import cache, solving
from .routes import bp


@bp.post("/rules")
def rules_submit() -> BaseResponse:
    """A form whose ``fpuzzles`` field holds a puzzle, link or JSON: its rules page (303) or
    the 422 page saying why not."""
    return pasted_rules.open_paste(request.form.get("fpuzzles", ""))


@bp.get("/rules/<puzzle>/<rules>")
def rules_page(puzzle: str, rules: str) -> BaseResponse:
    """A rules puzzle's result page."""
    return _page(puzzle, rules, None)


@bp.get("/rules/<puzzle>/<rules>/<regions>")
def rules_mapped_page(puzzle: str, rules: str, regions: str) -> BaseResponse:
    """A rules puzzle's result page on a board with a region map."""
    return _page(puzzle, rules, regions)


# The status in a rules page's link preview, in the page's language.
PAGE_WORDS = {
    "solved": _l("Solved"),
    "multiple": _l("More than one solution"),
    "gave_up": _l("The solver gave up"),
    "unsolvable": _l("Impossible: no solution"),
}

# The status under a rules puzzle's link-preview picture (one picture for every language, in
# English as the result pages' pictures are).
PICTURE_WORDS = {
    "solved": "Solved",
    "multiple": "More than one solution",
    "gave_up": "The solver gave up",
    "unsolvable": "Impossible: no solution",
}


@bp.get("/rules/<puzzle>/<rules>/preview.png", defaults={"regions": None})
@bp.get("/rules/<puzzle>/<rules>/<regions>/preview.png")
def rules_picture(puzzle: str, rules: str, regions: str | None) -> BaseResponse:
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
        edit_url=urls.edit_url(geometry, givens),
        print_url=urls.print_url(urls.edit_url(geometry, givens)),
        preview={
            "url": urls.rules_url(geometry, givens, external=True),
            "title": str(PAGE_WORDS.get(result.status, _l("Result"))),
            "description": gettext("A sudoku with rules, drawn and solved by sudoku-web."),
            "image": urls.rules_url(geometry, givens, external=True) + "/preview.png",
            "width": WIDTH,
            "height": HEIGHT,
        },
        stats=result.stats,
    )
    return Response(page, content_type="text/html; charset=utf-8")
