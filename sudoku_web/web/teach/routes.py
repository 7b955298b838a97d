"""The teaching pages: a puzzle's steps, the engine's search, its difficulty, and hints.

Routes (each variant's share link plus a suffix, registered from the variant registry by
:func:`~sudoku_web.web.puzzles.request_path.add_link_pages`):

========================================  =========================================================
``GET <share link>/steps?step=N``         the logic solver's steps, a page of ``STEPS_PER_PAGE``
                                          at a time (fewer where their grids pass
                                          ``STEPS_PAGE_CELLS``: teaching_display.step_pages),
                                          the one holding step N, ``#step-N`` anchors
``GET <share link>/search``               the engine's search story and the pencil marks after
                                          its first reduce
``GET <share link>/difficulty``           the difficulty panel (human and machine grades) as a
                                          small page: a result page embeds it (fetched by
                                          static/js/fragment.js, or an ``<iframe>`` without JS)
``POST /hint``                            the form's Hint button (``formaction``): the next step
                                          for the grid as typed, never the solution
========================================  =========================================================

The grade is not computed for the result page itself: on a hard puzzle it costs many times
the solve, so the result page stays a cheap, always-cacheable answer and the panel arrives as
its own request (link-preview fetchers never load it). What these pages draw is built by
:mod:`sudoku_web.web.render.teaching_display`; the core is called through
:mod:`sudoku_web.web.runtime.solving`, within the budgets from the config (the hint is the
core's game, :func:`sudoku_web.core.game.hint_panel`, as on the play page, within
:func:`~sudoku_web.web.runtime.solving.hint_deadline`).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, current_app, make_response, render_template, request
from werkzeug.wrappers import Response

from ...core.board import Geometry, parse_puzzle
from ...core.game import Doctor, Entries, Panel, hint_panel
from ...core.hints import Hint
from ...core.logic import pencil_marks
from ..puzzles import urls
from ..puzzles.forms import JigsawForm, PuzzleForm, form_for
from ..puzzles.games import game_for
from ..puzzles.puzzle_text import canonical, read
from ..puzzles.request_path import ShareLink, add_link_pages
from ..render import teaching_display
from ..runtime import cache, security, solving
from ..runtime.languages import cell_words

bp = Blueprint("teach", __name__)

ResponseValue = Response | str | tuple[str, int]

bp.add_app_template_global(urls.teach_url, "teach_url")


def _page_number(text: str) -> int:
    """``?step=N`` as a number; 404 for anything but ASCII digits >= 1."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
        abort(404)
    return int(text)


def steps_page(link: ShareLink) -> ResponseValue:
    """The steps page: one page of steps (``?step=N`` picks the page holding step N)."""
    number = _page_number(request.args.get("step", "1"))
    budget = solving.teach_budget()
    key = cache.solve_key(link.givens, link.geometry)
    return cache.cacheable(
        "page",
        cache.text_key("steps", key.text, budget.key, number),
        lambda: _steps(link, key, number),
    )


def _steps(link: ShareLink, key: cache.SolveKey, number: int) -> Response:
    geometry, givens = link.geometry, link.givens
    budget = solving.teach_budget()
    result = solving.cached_solve(givens, geometry, key)
    explanation = solving.explain_result(result, geometry)
    total = len(explanation.steps) if explanation else 0
    if explanation is not None and number > max(total, 1):
        abort(404)
    bounds = [(0, 0)]  # no steps: one empty page
    if explanation:
        pages_of = teaching_display.step_pages
        bounds = pages_of(explanation, budget.steps_per_page, budget.steps_page_cells) or bounds
    first, stop = next((a, b) for a, b in bounds if a < number <= b or b == a)
    pages = [(a + 1, b) for a, b in bounds if b > a]
    page = render_template(
        "steps.html",
        geometry=geometry,
        puzzle=givens,
        result=result,
        explanation=explanation,
        level=teaching_display.difficulty(explanation, result.stats) if explanation else None,
        steps=teaching_display.step_views(explanation, first, stop, cell_words())
        if explanation
        else [],
        pages=pages,
        current=first + 1,
        total=total,
        board_name=urls.board_name(geometry),
        page_url=urls.page_url(geometry, givens),
        search_url=urls.teach_url("search", geometry, givens),
        edit_url=urls.edit_url(geometry, urls.link_puzzle(geometry, givens)),
        has_givens=bool(urls.link_puzzle(geometry, givens)),
    )
    return make_response(page)


def search_page(link: ShareLink) -> ResponseValue:
    """The engine's search story and the pencil marks after its first reduce."""
    key = cache.solve_key(link.givens, link.geometry)
    budget = solving.teach_budget()
    return cache.cacheable(
        "page", cache.text_key("search", key.text, budget.key), lambda: _search(link)
    )


def _search(link: ShareLink) -> str:
    geometry, givens = link.geometry, link.givens
    grid = parse_puzzle(givens, geometry)
    trace = solving.search_story(grid, geometry)
    reduced = pencil_marks(grid, geometry, reduce=True)
    return render_template(
        "search.html",
        geometry=geometry,
        puzzle=givens,
        trace=trace,
        events=teaching_display.event_views(trace),
        marks=teaching_display.pencil_grid(geometry, reduced, grid, words=cell_words()),
        open_cells=reduced.open_cells,
        max_events=solving.teach_budget().trace_max_events,
        board_name=urls.board_name(geometry),
        page_url=urls.page_url(geometry, givens),
        steps_url=urls.teach_url("steps", geometry, givens),
        edit_url=urls.edit_url(geometry, givens),
    )


def difficulty_page(link: ShareLink) -> ResponseValue:
    """The difficulty panel as a small page of its own (see the module docstring): 200 with
    both grades for a solved puzzle, 404 with a sentence for any other outcome.

    It may be framed by the site's own pages only (``frame-ancestors 'self'``), as the result
    page's ``<iframe>`` does without JavaScript; every other page refuses framing.
    """
    embedded = request.args.get("embed") == "1"  # the result page's frame: no link back
    key = cache.solve_key(link.givens, link.geometry)
    budget = solving.teach_budget()
    text = cache.text_key("difficulty", key.text, budget.key, int(embedded))
    response = cache.cacheable("page", text, lambda: _difficulty(link, key, embedded))
    # Again after cacheable, so a 304 says the same: browsers apply a 304's CSP to their copy.
    return security.allow_same_origin_framing(response, current_app)


def _difficulty(link: ShareLink, key: cache.SolveKey, embedded: bool) -> Response:
    geometry, givens = link.geometry, link.givens
    result = solving.cached_solve(givens, geometry, key)
    graded = solving.grade_result(result, geometry)
    level = teaching_display.difficulty(graded, result.stats) if graded is not None else None
    page = render_template(
        "difficulty.html",
        level=level,
        geometry=geometry,
        status=result.status,
        page_url=urls.page_url(geometry, givens),
        embedded=embedded,
    )
    response = make_response(page, 200 if level is not None else 404)
    return security.allow_same_origin_framing(response, current_app)  # kept in the store


add_link_pages(bp, "steps", "/steps", steps_page)
add_link_pages(bp, "search", "/search", search_page)
add_link_pages(bp, "difficulty", "/difficulty", difficulty_page)


# ---- Hint -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HintPage:
    """What the hint panel says, in the template's words: the core's :class:`Panel` with its
    cells named. ``kind``: next, stuck, wrong or complete."""

    kind: str
    hint: Hint | None = None
    wrong: tuple[str, ...] = ()  # cells that do not fit (names only, never the digit)
    certain: bool = True  # wrong: the cells are surely wrong (vs. "one of these")
    multiple: bool = False  # the givens allow more than one solution
    cells: tuple[int, ...] = ()  # wrong: the same cells, to mark in the grid
    pencil: bool = False  # wrong: a cell's pencil marks lack its digit (not an entry)

    @classmethod
    def of(cls, panel: Panel, geometry: Geometry) -> HintPage:
        """The panel of :func:`~sudoku_web.core.game.hint_panel` for the hint page."""
        if panel.kind == "solved":
            return cls("complete")
        if panel.kind in ("wrong", "marks"):
            names = tuple(geometry.cell_name(c) for c in panel.cells)
            pencil = panel.kind == "marks"
            return cls(
                "wrong", wrong=names, certain=panel.certain, cells=panel.cells, pencil=pencil
            )
        return cls(panel.kind, hint=panel.hint, multiple=panel.multiple)


@bp.post("/hint")
def hint() -> ResponseValue:
    """The form's Hint button: the next step for the grid as typed, or what is wrong with it
    (the same game as the play page's: :func:`sudoku_web.core.game.hint_panel`).

    The grid comes back in the form so the user carries on from it; ``givens`` (a hidden
    field) remembers the grid of the first hint, so later entries can be checked against the
    puzzle's solution. An invalid grid is a 422 with the form's own messages.
    """
    picked = urls.choice(request.form.get("v"), request.form.get("n"))
    form = form_for(picked, urls.form_geometry(picked), request.form)
    if not form.validate() or form.grid is None:
        return _hint_page(form, picked, None, request.form.get("givens", "")[:300], 422)
    geometry = form.geometry
    grid = form.grid
    givens = _posted_givens(request.form.get("givens", ""), geometry, grid)
    entries = Entries(
        geometry,
        tuple(givens),
        values=[0 if g else v for g, v in zip(givens, grid, strict=True)],
        marks=list(form.pencil.masks) if form.pencil else [],
    )
    game = game_for(geometry, canonical(givens), givens)
    panel = hint_panel(game, entries, solving.hint_deadline(), doctor=_doctor(geometry))
    return _hint_page(form, picked, HintPage.of(panel, geometry), canonical(givens), 200)


def _doctor(geometry: Geometry) -> Doctor:
    """The typo doctor for the hint, within the request's budget and through the cache."""
    return lambda grid: solving.diagnose_puzzle(canonical(grid), geometry)


def _posted_givens(text: str, geometry: Geometry, grid: list[int]) -> list[int]:
    """The puzzle's givens from the hidden field, if every one is still in the grid.

    Otherwise (first hint, another puzzle typed over, a given changed) the grid itself is
    taken as the puzzle.
    """
    reading = read(text[: geometry.cells * 2], geometry) if text else None
    if reading is None or not reading.ok or reading.grid is None:
        return list(grid)
    kept = all(not g or g == v for g, v in zip(reading.grid, grid, strict=True))
    return list(reading.grid) if kept else list(grid)


def _hint_page(
    form: PuzzleForm,
    picked: urls.Choice,
    panel: HintPage | None,
    givens: str,
    status: int,
) -> tuple[str, int]:
    geometry = form.geometry
    hint = panel.hint if panel else None
    page = render_template(
        "hint.html",
        form=form,
        board=form.board(givens),
        wrong_cells=set(panel.cells) if panel else set(),
        examples=[],
        picked=picked,
        choices=urls.CHOICES,
        jigsaw=isinstance(form, JigsawForm),
        panel=panel,
        givens=givens,
        **teaching_display.hint_display(hint, geometry, givens, cell_words()),
    )
    return page, status
