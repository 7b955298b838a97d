"""The teaching pages: a puzzle's steps, the engine's search, hints, and ``/api/explain``.

Routes (each variant's share link plus a suffix, so every page of a puzzle shares its URL
scheme, see :mod:`sudoku_web.web.variants`):

========================================  =========================================================
``GET <share link>/steps?step=N``         the logic solver's steps, a page of ``STEPS_PER_PAGE``
                                          at a time (the one holding step N), ``#step-N`` anchors
``GET <share link>/search``               the engine's search story and the pencil marks after
                                          its first reduce
``GET <share link>/difficulty``           the difficulty panel (human and machine grades) as a
                                          small page: a result page embeds it (fetched by
                                          sudoku.js, or an ``<iframe>`` without JavaScript)
``POST /hint``                            the form's Hint button (``formaction``): the next step
                                          for the grid as typed, never the solution
``GET|POST /api/explain``                 the steps, grades and technique counts as JSON
========================================  =========================================================

The result view asks :func:`links_for` for a puzzle's teaching links. The grade is not
computed for the result page itself: it costs ~7 ms on a hard puzzle against ~0.3 ms for the
solve, so the result page stays a cheap, always-cacheable answer and the panel arrives as its
own request (issue 4's uncached page throughput; link-preview fetchers never load it).
Like every view here, these parse through :mod:`sudoku_web.web.service` / the form, call the
core within the budgets from the config (``EXPLAIN_DEADLINE_MS``, ``EXPLAIN_MAX_STEPS``,
``TRACE_MAX_EVENTS``; the search story runs the engine with the result page's own budget,
``SOLVE_MAX_NODES`` / ``SOLVE_DEADLINE_MS``) and render; nothing is solved without a bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response

from ..core.board import Geometry, InvalidPuzzle, PuzzleError, parse_puzzle
from ..core.doctor import diagnose
from ..core.logic import Explanation, explain, grade, pencil_marks
from ..core.solver import SolveResult
from . import cache, lessons, security, variants
from .api import json_error
from .forms import JigsawForm, PuzzleForm, puzzle_form
from .lessons import Difficulty, Hint
from .service import (
    Budget,
    DoctorBudget,
    Reading,
    board_view,
    canonical,
    error_json,
    read,
    solve_puzzle,
)

bp = Blueprint("teach", __name__)

#: Config defaults (set with ``setdefault`` when the blueprint is registered, so the
#: environment, ``SUDOKU_WEB_EXPLAIN_DEADLINE_MS=500``, and test configs win).
CONFIG_DEFAULTS: dict[str, Any] = {
    # A 9x9 explanation takes 10 ms on average and 50 ms at worst over top95; a minimal 16x16
    # one can take seconds, so past this many ms only the cheap techniques are tried before a
    # guess (the grade is then marked as an upper bound).
    "EXPLAIN_DEADLINE_MS": 800,
    # The difficulty panel (<share link>/difficulty) grades with logic.grade() (top95: a
    # few ms on average; see benchmarks/RESULTS.md) within this bound, so no request holds a
    # worker for long; past it the grade is an upper bound ("at most") and the panel is sent
    # no-store (the result page itself never waits for a grade).
    "GRADE_DEADLINE_MS": 150,
    "EXPLAIN_MAX_STEPS": 3000,
    "TRACE_MAX_EVENTS": 200,
    # Steps per page: each has its own grid of candidates (~10 KB of HTML for 9x9).
    "STEPS_PER_PAGE": 20,
}

ResponseValue = Response | str | tuple[str, int]


@bp.record_once
def _config_defaults(state: BlueprintSetupState) -> None:
    for name, value in CONFIG_DEFAULTS.items():
        state.app.config.setdefault(name, value)


@dataclass(frozen=True)
class ExplainBudget:
    """How much work one explanation may do (part of cache keys, so it is frozen)."""

    deadline_ms: float | None
    max_steps: int

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ExplainBudget:
        """The budget named by ``EXPLAIN_DEADLINE_MS`` / ``EXPLAIN_MAX_STEPS``."""
        deadline = config.get("EXPLAIN_DEADLINE_MS", CONFIG_DEFAULTS["EXPLAIN_DEADLINE_MS"])
        steps = config.get("EXPLAIN_MAX_STEPS", CONFIG_DEFAULTS["EXPLAIN_MAX_STEPS"])
        return cls(None if deadline is None else float(deadline), int(steps))


def _budget() -> ExplainBudget:
    return ExplainBudget.from_config(current_app.config)


def explain_result(result: SolveResult, geometry: Geometry) -> Explanation | None:
    """The logic solver's explanation of a ``solved`` result (None for other outcomes).

    The engine's solution is passed in, so no second solve happens and the uniqueness
    techniques may be used (the puzzle is known to have one solution).
    """
    if result.status != "solved" or not result.solutions:
        return None
    budget = _budget()
    return explain(
        result.puzzle.replace(".", "0"),
        geometry,
        solution=parse_puzzle(result.solutions[0], geometry),
        max_steps=budget.max_steps,
        deadline_ms=budget.deadline_ms,
    )


def teach_difficulty(geometry: Geometry, result: SolveResult) -> Difficulty | None:
    """The difficulty panel's data, None unless the puzzle was solved.

    Only the grade is shown, so :func:`~sudoku_web.core.logic.grade` computes it (the same
    answer as the steps page's explanation, without building its steps) within
    ``GRADE_DEADLINE_MS``. A grade cut short by that deadline depends on the load, so the
    page is then marked uncacheable (no ``public`` max-age, not kept in the LRU).
    """
    if result.status != "solved" or not result.solutions:
        return None
    graded = grade(
        result.puzzle.replace(".", "0"),
        geometry,
        solution=parse_puzzle(result.solutions[0], geometry),
        max_steps=_budget().max_steps,
        deadline_ms=_grade_deadline(),
    )
    if graded.cut_short:
        cache.mark_uncacheable()
    return lessons.difficulty(graded, result.stats)


@bp.app_template_global("teach_url")
def teach_url(page: str, geometry: Geometry, puzzle: str, **args: Any) -> str:
    """The URL of a puzzle's ``steps`` or ``search`` page, in its variant's link scheme."""
    endpoint = f"teach.{variants.ENDPOINTS[geometry.variant]}_{page}"
    if geometry.variant == "jigsaw":
        args["regions"] = variants.canonical_regions(geometry)
    return url_for(endpoint, puzzle=puzzle, **args)


TEACH_PAGES = ("steps", "search", "difficulty")


def links_for(page_url: str) -> dict[str, str]:
    """A solved puzzle's teaching URLs (``steps``, ``search`` and ``difficulty``, the panel its
    result page embeds) from its result page's URL: :func:`_routes` puts each page at
    ``<share link>/<page>``, and a result page builds them by concatenation (one ``url_for``
    per link was a tenth of an uncached page's cost)."""
    return {page: f"{page_url}/{page}" for page in TEACH_PAGES}


# ---- The steps and search pages, one route per variant -------------------------------------


def _routes(page: str) -> None:
    """Register ``<share link>/<page>`` for every variant (``puzzle_steps``, ...)."""
    view = {"steps": _steps, "search": _search, "difficulty": _difficulty}[page]
    for variant, name in variants.ENDPOINTS.items():
        prefix = {"standard": "/p", "x": "/x", "hyper": "/hyper"}.get(variant)
        rule = f"{prefix}/<puzzle>/{page}" if prefix else f"/jigsaw/<regions>/<puzzle>/{page}"

        def endpoint(puzzle: str, regions: str | None = None, variant: str = variant) -> Any:
            return _teach_page(page, view, variant, puzzle, regions)

        endpoint.__doc__ = f"The {page} page of a {variants.NAMES[variant]} share link."
        bp.add_url_rule(rule, f"{name}_{page}", endpoint, methods=["GET"])


def _teach_page(page: str, view: Any, variant: str, puzzle: str, regions: str | None) -> Any:
    """Read the link; 422 for a bad puzzle, 301 to the canonical spelling, else the page."""
    try:
        geometry = variants.geometry_of(variant, puzzle, regions)
    except InvalidPuzzle as exc:
        return _invalid(None, None, exc.errors)
    reading = read(puzzle, geometry)
    if not reading.ok or reading.canonical is None:
        return _invalid(geometry, reading, reading.errors)
    canonical_map = geometry.variant != "jigsaw" or regions == variants.canonical_regions(geometry)
    if puzzle != reading.canonical or not canonical_map:
        return redirect(teach_url(page, geometry, reading.canonical, **request.args), 301)
    return view(geometry, reading.canonical)


def _invalid(
    geometry: Geometry | None, reading: Reading | None, errors: tuple[PuzzleError, ...]
) -> tuple[str, int]:
    """422 with the form's messages, the grid with its offending cells marked when it parsed."""
    board = None
    edit_url = url_for("web.index")
    if geometry is not None and reading is not None and reading.grid is not None:
        givens = canonical(reading.grid)
        marked = {c for e in errors for c in e.cells}
        board = board_view(geometry, givens, invalid=marked)
        edit_url = variants.edit_url(geometry, givens)
    page = render_template("invalid.html", errors=errors, board=board, edit_url=edit_url)
    return page, 422


def _steps(geometry: Geometry, givens: str) -> Response:
    """The steps page: one page of steps (``?step=N`` picks the page holding step N)."""
    per_page = max(1, int(current_app.config["STEPS_PER_PAGE"]))
    wanted = request.args.get("step", "1")
    if not wanted.isdigit() or int(wanted) < 1:
        abort(404)
    number = int(wanted)
    key = ("steps", cache.key_for(givens, geometry), _budget(), per_page, number)

    def build() -> Response:
        result = cache.cached_solve(givens, geometry)
        explanation = explain_result(result, geometry)
        total = len(explanation.steps) if explanation else 0
        if explanation is not None and number > max(total, 1):
            abort(404)
        first = (number - 1) // per_page * per_page
        pages = [(start + 1, min(start + per_page, total)) for start in range(0, total, per_page)]
        page = render_template(
            "steps.html",
            geometry=geometry,
            puzzle=givens,
            result=result,
            explanation=explanation,
            level=lessons.difficulty(explanation, result.stats) if explanation else None,
            steps=lessons.step_views(explanation, first, first + per_page) if explanation else [],
            pages=pages,
            current=first + 1,
            total=total,
            board_name=variants.describe(geometry),
            page_url=variants.page_url(geometry, givens),
            search_url=teach_url("search", geometry, givens),
            **_common(geometry, givens),
        )
        response = make_response(page)
        if explanation is not None and explanation.cut_short:
            response.cache_control.no_store = True  # the deadline depends on the load
        return response

    return cache.cacheable("page", key, build)


def _search(geometry: Geometry, givens: str) -> Response:
    """The engine's search story and the pencil marks after its first reduce."""
    max_events = int(current_app.config["TRACE_MAX_EVENTS"])
    key = ("search", cache.key_for(givens, geometry), max_events)

    def build() -> str:
        grid = parse_puzzle(givens, geometry)
        search = _recorded_search(givens, geometry, max_events)
        reduced = pencil_marks(grid, geometry, reduce=True)
        return render_template(
            "search.html",
            geometry=geometry,
            puzzle=givens,
            trace=search,
            events=lessons.event_views(search),
            marks=lessons.pencil_grid(geometry, reduced, grid),
            open_cells=reduced.open_cells,
            max_events=max_events,
            board_name=variants.describe(geometry),
            page_url=variants.page_url(geometry, givens),
            steps_url=teach_url("steps", geometry, givens),
            **_common(geometry, givens),
        )

    return cache.cacheable("page", key, build)


def _recorded_search(givens: str, geometry: Geometry, max_events: int) -> lessons.SearchView:
    """The engine's own run with its story, under the result page's budget (so the
    guesses and backtracks agree with it); a deadline-cut run is not cached."""
    budget = Budget.from_config(current_app.config)
    result = solve_puzzle(givens, budget, geometry, record=max_events)
    if not cache.is_deterministic(result):
        cache.mark_uncacheable()
    return lessons.search_view(result)


def _difficulty(geometry: Geometry, givens: str) -> Response:
    """The difficulty panel as a small page of its own (see the module docstring): 200 with
    both grades for a solved puzzle, 404 with a sentence for any other outcome.

    It may be framed by the site's own pages only (``frame-ancestors 'self'``), as the result
    page's ``<iframe>`` does without JavaScript; every other page refuses framing.
    """
    embedded = request.args.get("embed") == "1"  # the result page's frame: no link back
    key = ("difficulty", cache.key_for(givens, geometry), _grade_deadline(), _budget(), embedded)

    def build() -> Response:
        result = cache.cached_solve(givens, geometry)
        level = teach_difficulty(geometry, result)
        page = render_template(
            "difficulty.html",
            level=level,
            status=result.status,
            page_url=variants.page_url(geometry, givens),
            embedded=embedded,
        )
        response = make_response(page, 200 if level is not None else 404)
        return security.allow_same_origin_framing(response, current_app)  # kept in the LRU

    # Again after cacheable, so a 304 says the same: browsers apply a 304's CSP to their copy.
    response = cache.cacheable("page", key, build)
    return security.allow_same_origin_framing(response, current_app)


def _grade_deadline() -> float | None:
    deadline = current_app.config.get("GRADE_DEADLINE_MS", CONFIG_DEFAULTS["GRADE_DEADLINE_MS"])
    return None if deadline is None else float(deadline)


def _common(geometry: Geometry, givens: str) -> dict[str, Any]:
    return {"edit_url": variants.edit_url(geometry, givens)}


_routes("steps")
_routes("search")
_routes("difficulty")


# ---- Hint -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HintPage:
    """What the hint panel says. ``kind``: next, stuck, wrong, complete or many."""

    kind: str
    hint: Hint | None = None
    wrong: tuple[str, ...] = ()  # cells that do not fit (names only, never the digit)
    certain: bool = True  # wrong: the cells are surely wrong (vs. "one of these")
    multiple: bool = False  # the givens allow more than one solution


@bp.post("/hint")
def hint() -> ResponseValue:
    """The form's Hint button: the next step for the grid as typed, or what is wrong with it.

    The grid comes back in the form so the user carries on from it; ``givens`` (a hidden
    field) remembers the grid of the first hint, so later entries can be checked against the
    puzzle's solution. An invalid grid is a 422 with the form's own messages.
    """
    picked = variants.choice(request.form.get("v"), request.form.get("n"))
    form = puzzle_form(variants.form_geometry(picked))(request.form)
    if not form.validate() or form.grid is None:
        return _hint_page(form, picked, None, request.form.get("givens", "")[:300], 422)
    geometry = form.geometry
    grid = form.grid
    givens = _posted_givens(request.form.get("givens", ""), geometry, grid)
    panel = _hint_for(grid, givens, geometry)
    return _hint_page(form, picked, panel, canonical(givens), 200)


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


def _hint_for(grid: list[int], givens: list[int], geometry: Geometry) -> HintPage:
    """Decide what the hint panel says for a grid (entries) over its puzzle (givens)."""
    if all(grid):
        # The form refused conflicts, so a full grid breaks no rule: it is a solution.
        return HintPage("complete")
    result = cache.cached_solve(canonical(givens), geometry)
    if result.status == "unsolvable":
        return _wrong_somewhere(grid, geometry)
    if result.status == "solved" and givens != grid:
        # Entries over a known puzzle: check each against its solution, naming cells only.
        solution = parse_puzzle(result.solutions[0], geometry)
        wrong = [c for c, v in enumerate(grid) if v and not givens[c] and v != solution[c]]
        if wrong:
            return HintPage("wrong", wrong=tuple(geometry.cell_name(c) for c in wrong))
    unique = result.status == "solved"
    hint = lessons.hint_steps(grid, geometry, unique=unique)
    if hint.last is not None and hint.last.technique == "Contradiction":
        return HintPage("wrong", wrong=tuple(geometry.cell_name(c) for c in hint.last.cells))
    return HintPage(
        "stuck" if hint.stuck else "next", hint=hint, multiple=result.status == "multiple"
    )


def _wrong_somewhere(grid: list[int], geometry: Geometry) -> HintPage:
    """The grid has no solution: name the cells to check (never the digits)."""
    hint = lessons.hint_steps(grid, geometry, unique=False)
    if hint.last is not None and hint.last.technique == "Contradiction":
        return HintPage("wrong", wrong=tuple(geometry.cell_name(c) for c in hint.last.cells))
    budget = DoctorBudget.from_config(current_app.config)
    try:
        diagnosis = diagnose(
            canonical(grid), geometry, max_nodes=budget.max_nodes, deadline_ms=budget.deadline_ms
        )
    except ValueError:
        return HintPage("wrong", certain=False)
    fixable = sorted({fix.cell for fix in diagnosis.fixes})
    cells = fixable or list(diagnosis.conflict)
    return HintPage("wrong", wrong=tuple(geometry.cell_name(c) for c in cells), certain=False)


def _hint_page(
    form: PuzzleForm,
    picked: variants.Choice,
    panel: HintPage | None,
    givens: str,
    status: int,
) -> tuple[str, int]:
    geometry = form.geometry
    hint = panel.hint if panel else None
    grid = None
    if hint is not None and hint.steps and hint.last is not None:
        # The grid of the last step: its cells and houses marked, the digit not revealed.
        marked = [int(ch != "0") for ch in givens]  # truthy per given: drawn bold
        grid = lessons.pencil_grid(geometry, hint.before, marked, hint.last, reveal=False)
    page = render_template(
        "hint.html",
        form=form,
        board=form.board(),
        examples=[],
        picked=picked,
        choices=variants.CHOICES,
        jigsaw=isinstance(form, JigsawForm),
        panel=panel,
        hint_grid=grid,
        hint_steps=[lessons.step_view(i + 1, s, geometry, ()) for i, s in enumerate(hint.steps)]
        if hint
        else [],
        stuck_guess=hint.stuck_guess if hint else "",
        givens=givens,
    )
    return page, status


# ---- JSON ---------------------------------------------------------------------------------------


@bp.route("/api/explain", methods=["GET", "POST"])
def api_explain() -> Response:
    """The logic solver's steps, grades and technique counts for a puzzle, as JSON, with the
    pencil marks after the first reduce and the engine's (capped) search story.

    Asked like ``/api/solve`` (``puzzle``, ``variant``, ``regions``; GET or a JSON body).
    """
    if request.method == "GET":
        args: Mapping[str, Any] = request.args
    else:
        body = request.get_json(force=True, silent=True)
        if not isinstance(body, dict):
            return json_error(400, "Bad Request", 'Send a JSON object such as {"puzzle": "…"}.')
        args = body
    text, variant, regions = (args.get(k) for k in ("puzzle", "variant", "regions"))
    if not isinstance(text, str):
        return json_error(400, "Bad Request", "Add the puzzle: /api/explain?puzzle=…")
    if not all(v is None or isinstance(v, str) for v in (variant, regions)):
        return json_error(400, "Bad Request", '"variant" and "regions" must be strings.')
    try:
        geometry = variants.geometry_of(variant, text, regions)
    except InvalidPuzzle as exc:
        return _invalid_json(None, exc.errors, None)
    reading = read(text, geometry)
    if not reading.ok or reading.canonical is None:
        return _invalid_json(reading.canonical, reading.errors, geometry)
    puzzle = reading.canonical

    def build() -> Response:
        result = cache.cached_solve(puzzle, geometry)
        explanation = explain_result(result, geometry)
        body: dict[str, Any] = {"status": result.status, "puzzle": puzzle}
        body["variant"] = geometry.variant
        if geometry.variant == "jigsaw":
            body["regions"] = variants.canonical_regions(geometry)
        if explanation is None:
            body.update(logic=None, grade=None, technique_counts={}, steps=[])
            body["message"] = "Steps are shown for puzzles with exactly one solution."
        else:
            body.update(lessons.explanation_json(explanation, result.stats))
        body["steps_url"] = url_for(
            f"teach.{variants.ENDPOINTS[geometry.variant]}_steps",
            puzzle=puzzle,
            _external=True,
            **(
                {"regions": variants.canonical_regions(geometry)}
                if geometry.variant == "jigsaw"
                else {}
            ),
        )
        grid = parse_puzzle(puzzle, geometry)
        config = current_app.config
        body["candidates"] = lessons.candidates_json(
            geometry, pencil_marks(grid, geometry, reduce=True)
        )
        search = _recorded_search(puzzle, geometry, int(config["TRACE_MAX_EVENTS"]))
        body["search"] = lessons.trace_json(search, geometry)
        response = jsonify(body)
        if explanation is not None and explanation.cut_short:
            response.cache_control.no_store = True
        return response

    if request.method != "GET":
        return build()
    return cache.cacheable("api-explain", (cache.key_for(puzzle, geometry), _budget()), build)


def _invalid_json(
    puzzle: str | None, errors: tuple[PuzzleError, ...], geometry: Geometry | None
) -> Response:
    response = jsonify(
        {
            "status": "invalid",
            "puzzle": puzzle,
            "errors": error_json(errors, geometry),
            "steps": [],
        }
    )
    response.status_code = 422
    return response
