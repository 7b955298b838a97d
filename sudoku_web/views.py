"""The HTML pages: the puzzle form, its POST, and the share-link result page.

Each view reads the request through the form or :mod:`sudoku_web.service`, calls the core,
and renders; no parsing or solving happens here.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .board import Geometry, PuzzleError, standard
from .forms import PuzzleForm, puzzle_form
from .service import (
    Budget,
    board_view,
    canonical,
    differing_cells,
    reached_grid,
    read,
    solve_puzzle,
)

bp = Blueprint("web", __name__)

# Example puzzles offered under the form: (label, canonical puzzle).
EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        "An easy one",
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
    ),
    (
        "A hard one",
        "850002400720000009004000000000107002305000900040000000000080070017000000000036040",
    ),
    (
        "One with two solutions",
        "403921057907345021251876493548132976729564138136798245372689514814253769695417382",
    ),
)

ResponseValue = Response | str | tuple[str, int]


def _render_form(form: PuzzleForm, status: int = 200) -> tuple[str, int]:
    page = render_template("index.html", form=form, board=form.board(), examples=EXAMPLES)
    return page, status


@bp.get("/")
def index() -> ResponseValue:
    """The empty form, or with ``?p=PUZZLE`` the form opened on that puzzle."""
    form = puzzle_form(standard(9))()
    if text := request.args.get("p", ""):
        form.prefill(text)
    return _render_form(form)


@bp.post("/")
def submit() -> ResponseValue:
    """A valid puzzle goes to its share link (303); anything else comes back marked (422)."""
    form = puzzle_form(standard(9))(request.form)
    if form.validate() and form.canonical is not None:
        return redirect(url_for(".puzzle", puzzle=form.canonical), 303)
    return _render_form(form, 422)


@bp.get("/p/<path:puzzle>")
def puzzle(puzzle: str) -> ResponseValue:
    """The share link: the puzzle's result page, at its one canonical (digits-only) URL."""
    geometry = standard(9)
    reading = read(puzzle, geometry)
    if not reading.ok or reading.canonical is None:
        return _invalid_page(geometry, reading.grid, reading.errors)
    if puzzle != reading.canonical:
        # One URL per puzzle: dots, separators and pretty-printed grids all land here.
        return redirect(url_for(".puzzle", puzzle=reading.canonical), 301)
    result = solve_puzzle(reading.canonical, Budget.from_config(current_app.config), geometry)
    if result.status == "invalid":  # the engine disagrees with the board checks: still a 422
        return _invalid_page(geometry, reading.grid, result.errors)
    givens = reading.canonical
    boards = []
    if result.status == "solved":
        boards.append(board_view(geometry, givens, result.solutions[0]))
    elif result.status == "multiple":
        first, second = result.solutions[:2]
        diff = differing_cells(first, second)
        boards += [board_view(geometry, givens, s, differs=diff) for s in (first, second)]
    elif result.status == "gave_up":
        boards.append(board_view(geometry, givens, reached_grid(result)))
    else:
        boards.append(board_view(geometry, givens))
    share_url = url_for(".puzzle", puzzle=givens, _external=True)
    return render_template(
        "result.html",
        result=result,
        boards=boards,
        puzzle=givens,
        share_url=share_url,
        edit_url=url_for(".index", p=givens),
        budget=Budget.from_config(current_app.config),
    )


def _invalid_page(
    geometry: Geometry, grid: tuple[int, ...] | None, errors: tuple[PuzzleError, ...]
) -> tuple[str, int]:
    """422: the same messages as the form, and the grid with its offending cells marked."""
    board = None
    edit_url = url_for(".index")
    if grid is not None:
        givens = canonical(grid)
        marked = {c for e in errors for c in e.cells}
        board = board_view(geometry, givens, invalid=marked)
        edit_url = url_for(".index", p=givens)
    page = render_template("invalid.html", errors=errors, board=board, edit_url=edit_url)
    return page, 422
