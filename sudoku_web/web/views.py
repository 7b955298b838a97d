"""The HTML pages: the puzzle form, its POST, and the share-link result page.

Each view reads the request through the form or :mod:`sudoku_web.web.service`, calls the core,
and renders; no parsing or solving happens here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    has_request_context,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from ..core.board import Geometry, InvalidPuzzle, PuzzleError, parse_puzzle
from ..core.doctor import Diagnosis
from ..core.solver import SolveResult
from . import cache, variants
from .forms import JigsawForm, PuzzleForm, puzzle_form
from .preview import HEIGHT, WIDTH, render_png
from .service import (
    BoardView,
    Budget,
    DoctorBudget,
    Reading,
    board_view,
    canonical,
    diagnose_result,
    differing_cells,
    is_canonical_text,
    reached_grid,
    read,
    solution_rows_html,
    suggest_for,
)
from .skeleton import Skeletons
from .teach import TEACH_PAGES, links_for

bp = Blueprint("web", __name__)

# Template links that depend on nothing but the request's host and script root (the static
# files, the index, the API): built once per worker instead of on every page (~6 µs each).
# Bounded, since the Host header comes from the client: past the bound, links are just built.
URL_CACHE_SIZE = 64


#: ``app.extensions`` key of the app's :class:`~sudoku_web.web.skeleton.Skeletons`.
SKELETONS = "sudoku_skeletons"


@bp.record_once
def _cache_template_urls(state: BlueprintSetupState) -> None:
    state.app.jinja_env.globals["url_for"] = cached_url_for
    if state.app.config.get("PAGE_SKELETONS", True):
        state.app.extensions[SKELETONS] = Skeletons()


def cached_url_for(endpoint: str, **values: Any) -> str:
    """``url_for`` for templates, remembered when the link takes no request-specific values.

    Only argument-free endpoints and ``static`` with just a ``filename`` are remembered; any
    other call (``_external``, query arguments, puzzles) goes straight to ``url_for``.
    """
    if not has_request_context() or (
        values and (endpoint != "static" or len(values) != 1 or "filename" not in values)
    ):
        return url_for(endpoint, **values)
    urls: dict[tuple[str, str, str, object], str] = current_app.extensions.setdefault(
        "sudoku_urls", {}
    )
    key = (request.host, request.script_root, endpoint, values.get("filename"))
    url = urls.get(key)
    if url is None:
        url = url_for(endpoint, **values)
        if len(urls) < URL_CACHE_SIZE:
            urls[key] = url
    return url


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

# One example per other variant, opened in the form: (picker key, puzzle, regions or "").
VARIANT_EXAMPLES: dict[str, tuple[str, str]] = {
    "x": (
        "000060000250000000000301000000050000804020050030000000000692000790000000008100000",
        "",
    ),
    "hyper": (
        "004030000210000000000001000000070000705020060000500000000082070300050000008100300",
        "",
    ),
    "jigsaw": (
        "000000020040001900300009000800010600900000000000000000003000000405090003000000006",
        variants.DEFAULT_JIGSAW,
    ),
    "4x4": ("0140402012000000", ""),
    "6x6": ("003000410003020004640000000100006030", ""),
    "16x16": (
        "0804030D2BG50000AD070020E09300F50E2000A0840000000G900014000CB00000E0200B30010706000B"
        "60D0G70005C0307D01005A240F080C000000680B009004000E007012CG001B5A7C02F08D3000E03G0050"
        "000AF0000200B03140E00807504E008F1C30000G20B000C70D00E08F7AD802G0BE500C01CF01460E9000"
        "003D",
        "",
    ),
}

# Headings and picture captions per solver outcome.
HEADINGS = {
    "solved": "Solved",
    "unsolvable": "Impossible: this puzzle has no solution",
    "multiple": "More than one solution",
    "gave_up": "The solver gave up",
}

ResponseValue = BaseResponse | str | tuple[str, int]


def _examples(picked: variants.Choice) -> list[tuple[str, str]]:
    """(label, form URL) of the examples under the form of this variant."""
    if picked.key == "":
        return [(label, url_for(".index", p=puzzle)) for label, puzzle in EXAMPLES]
    if picked.key not in VARIANT_EXAMPLES or picked.size != 9 and picked.variant == "jigsaw":
        return []
    puzzle, regions = VARIANT_EXAMPLES[picked.key]
    args: dict[str, Any] = {"v": picked.key, "p": puzzle}
    if regions:
        args["r"] = regions
    return [(f"An example {picked.label} puzzle", url_for(".index", **args))]


def _render_form(
    form: PuzzleForm, picked: variants.Choice, status: int = 200, givens: str | None = None
) -> tuple[str, int]:
    page = render_template(
        "index.html",
        form=form,
        givens=givens,
        board=form.board(),
        examples=_examples(picked),
        picked=picked,
        choices=variants.CHOICES,
        jigsaw=isinstance(form, JigsawForm),
    )
    return page, status


def _map_rows(text: str, size: int) -> str:
    """A region map laid out as N lines of N letters, as people read (and edit) it."""
    labels = variants.region_labels(text)
    return "\n".join("".join(labels[r * size : (r + 1) * size]) for r in range(size))


@bp.get("/")
def index() -> ResponseValue:
    """The empty form of a variant (``?v=x`` ...), or with ``?p=PUZZLE`` opened on a puzzle.

    A jigsaw form also takes its region map as ``?r=`` (and a size as ``?n=``).
    """
    picked = variants.choice(request.args.get("v"), request.args.get("n"))
    regions = request.args.get("r", "")[: 4 * 256]
    geometry = variants.form_geometry(picked, regions)
    form = puzzle_form(geometry)()
    form.geometry = geometry  # the map this form opens on (jigsaw); the class has a default
    if isinstance(form, JigsawForm):
        sketch = variants.region_sketch(regions) if regions else None
        if sketch is not None and sketch.size == picked.size and sketch != geometry:
            # A map that is not valid yet (from "Edit this puzzle" on a 422): show it as typed.
            form.sketch = sketch
            form.regions.data = _map_rows(regions, picked.size)
        else:
            form.regions.data = _map_rows(variants.canonical_regions(geometry), geometry.size)
    givens = form.prefill(text) if (text := request.args.get("p", "")) else None
    return _render_form(form, picked, givens=givens)


@bp.post("/")
def submit() -> ResponseValue:
    """A valid puzzle goes to its share link (303); anything else comes back marked (422)."""
    picked = variants.choice(request.form.get("v"), request.form.get("n"))
    form = puzzle_form(variants.form_geometry(picked))(request.form)
    if form.validate() and form.canonical is not None:
        return redirect(variants.page_url(form.geometry, form.canonical), 303)
    return _render_form(form, picked, 422)


# ---- Share links: one route per variant, the same pages for all -----------------------------


@bp.get("/p/<puzzle>")  # a share link as built: matched without the path converter's regex
@bp.get("/p/<path:puzzle>")  # pasted spellings with slashes, redirected to the one above
def puzzle(puzzle: str) -> ResponseValue:
    """Classic boxed grids (4x4, 6x6, 9x9, 16x16 by length): the puzzle's result page."""
    return _page("standard", puzzle)


@bp.get("/x/<path:puzzle>")
def x_puzzle(puzzle: str) -> ResponseValue:
    """X-sudoku: the result page."""
    return _page("x", puzzle)


@bp.get("/hyper/<path:puzzle>")
def hyper_puzzle(puzzle: str) -> ResponseValue:
    """Hyper (windoku): the result page."""
    return _page("hyper", puzzle)


@bp.get("/jigsaw/<regions>/<path:puzzle>")
def jigsaw_puzzle(regions: str, puzzle: str) -> ResponseValue:
    """Jigsaw: the result page of a region map (N*N letters) and a puzzle."""
    return _page("jigsaw", puzzle, regions)


@bp.get("/p/<puzzle>.png")
def puzzle_png(puzzle: str) -> ResponseValue:
    """The link-preview picture of a classic puzzle."""
    return _png("standard", puzzle)


@bp.get("/x/<puzzle>.png")
def x_puzzle_png(puzzle: str) -> ResponseValue:
    """The link-preview picture of an X-sudoku."""
    return _png("x", puzzle)


@bp.get("/hyper/<puzzle>.png")
def hyper_puzzle_png(puzzle: str) -> ResponseValue:
    """The link-preview picture of a hyper puzzle."""
    return _png("hyper", puzzle)


@bp.get("/jigsaw/<regions>/<puzzle>.png")
def jigsaw_puzzle_png(regions: str, puzzle: str) -> ResponseValue:
    """The link-preview picture of a jigsaw."""
    return _png("jigsaw", puzzle, regions)


def _read_link(variant: str, puzzle: str, regions: str | None) -> tuple[Geometry, Reading]:
    """The geometry and reading of a share link; InvalidPuzzle for a bad region map."""
    geometry = variants.geometry_of(variant, puzzle, regions)
    return geometry, read(puzzle, geometry)


def _is_canonical(geometry: Geometry, reading: Reading, puzzle: str, regions: str | None) -> bool:
    if puzzle != reading.canonical:
        return False
    return geometry.variant != "jigsaw" or regions == variants.canonical_regions(geometry)


def _page(variant: str, puzzle: str, regions: str | None = None) -> ResponseValue:
    """A share link's result page at its one canonical URL (301 from any other spelling)."""
    try:
        geometry = variants.geometry_of(variant, puzzle, regions)
    except InvalidPuzzle as exc:
        return _bad_map_page(regions or "", puzzle, exc.errors)
    canonical_map = geometry.variant != "jigsaw" or regions == variants.canonical_regions(geometry)
    parsed: tuple[int, ...] | None = None
    if canonical_map and is_canonical_text(puzzle, geometry):
        # The link every page links to: no second parse here (the engine reads it, and
        # answers conflicting givens with the reader's own messages).
        givens = puzzle
    else:
        reading = read(puzzle, geometry)
        if not reading.ok or reading.canonical is None:
            return _invalid_page(geometry, reading.grid, reading.errors)
        if not _is_canonical(geometry, reading, puzzle, regions):
            # One URL per puzzle: dots, separators, lower case and other region labels.
            return redirect(variants.page_url(geometry, reading.canonical), 301)
        givens, parsed = reading.canonical, reading.grid
    # 304 / the worker's page LRU / ETag + Cache-Control: the page depends on nothing but the
    # puzzle, its geometry and the two budgets (see cache.cacheable).
    config = current_app.config
    solve_key = cache.key_for(givens, geometry, config)
    key = (solve_key, DoctorBudget.from_config(config))
    return cache.cacheable("page", key, lambda: _result_page(geometry, givens, parsed, solve_key))


def _result_page(
    geometry: Geometry,
    givens: str,
    parsed: tuple[int, ...] | None = None,
    key: cache.SolveKey | None = None,
) -> Response:
    """Solve (within the request's budget) and render the page for any solver outcome.

    ``parsed`` is the grid the link was read into (so it is not parsed a second time), and
    ``key`` its solve's cache key. A solved puzzle's page, the common case, is filled into
    its shape's skeleton (:mod:`sudoku_web.web.skeleton`); the other outcomes are rendered by
    Jinja.
    """
    result = cache.cached_solve(givens, geometry, key)
    if result.status == "invalid":  # the engine disagrees with the board checks: still a 422
        grid = parsed if parsed is not None else tuple(parse_puzzle(givens, geometry))
        page, status = _invalid_page(geometry, grid, result.errors)
        return make_response(page, status)
    links = variants.result_links(geometry, givens)
    if result.status == "solved":
        slots = _slots(geometry, givens, result, links, None)
        slots["grid"] = solution_rows_html(geometry, givens, result.solutions[0])
        shape = ("result", "solved", cache.geometry_key(geometry), request.script_root)
        page = _skeleton_render(shape, slots, _solved_renderer(geometry))
        return Response(page, content_type=_HTML)  # given, not derived from a mimetype
    return _unsolved_page(geometry, givens, parsed, result, links)


def _solved_renderer(geometry: Geometry) -> Callable[[Mapping[str, Markup]], str]:
    def render(slots: Mapping[str, Markup]) -> str:
        board = PresetBoard(geometry, slots["grid"])
        return _render_result(geometry, "solved", None, slots, boards=[board])

    return render


def _unsolved_page(
    geometry: Geometry,
    givens: str,
    parsed: tuple[int, ...] | None,
    result: SolveResult,
    links: variants.Links,
) -> Response:
    """The page of an impossible, multiple-solution or given-up puzzle (with the doctor)."""
    grid = list(parsed) if parsed is not None else parse_puzzle(givens, geometry)
    doctor_budget = DoctorBudget.from_config(current_app.config)
    diagnosis = diagnose_result(result, doctor_budget)
    suggestion = suggest_for(result, doctor_budget)
    fixes = []
    if diagnosis is not None:
        fixes = [
            (fix.describe(geometry), variants.page_url(geometry, canonical(fix.apply(grid))))
            for fix in diagnosis.fixes
        ]
    suggested = None
    if suggestion is not None:
        suggested = (
            f"{geometry.cell_name(suggestion.cell)}: {geometry.symbol(suggestion.value)}",
            variants.page_url(geometry, canonical(suggestion.apply(grid))),
        )
    page = _render_result(
        geometry,
        result.status,
        result.reason,
        _slots(geometry, givens, result, links, diagnosis),
        boards=_boards(geometry, givens, result, diagnosis),
        budget=Budget.from_config(current_app.config),
        diagnosis=diagnosis,
        conflict_summary=diagnosis.summary(geometry) if diagnosis else "",
        fixes=fixes,
        suggested=suggested,
    )
    response = make_response(page)
    if diagnosis is not None and not diagnosis.complete:
        # The doctor stopped at its deadline: another try (less load) may say more, so this
        # page must not be reused by caches (cache.conditional leaves no-store alone).
        response.cache_control.no_store = True
    return response


def _slots(
    geometry: Geometry,
    givens: str,
    result: SolveResult,
    links: variants.Links,
    diagnosis: Diagnosis | None,
) -> dict[str, Markup]:
    """The values a result page prints as they are (escaped): its skeleton's slots."""
    stats = result.stats
    name = variants.describe(geometry)
    slots = {
        "board_name": escape(name),
        "share_url": escape(links.share),
        "edit_url": escape(links.edit),
        # Link previews (Open Graph, Twitter); every share link's picture is <link>.png.
        "preview_title": escape(f"{HEADINGS.get(result.status, 'Result')} · {name}"),
        "preview_description": escape(_description(geometry, givens, result, diagnosis)),
        "preview_image": escape(links.share + ".png"),
        # The same puzzle to play, without the solution (sudoku_web.web.play).
        "play_url": escape(links.share + "/play"),
        "reduce_passes": Markup(stats.reduce_passes),  # counts: digits only
        "guesses": Markup(stats.guesses),
        "backtracks": Markup(stats.backtracks),
        "elapsed_ms": Markup(f"{stats.elapsed_ms:.1f}"),
    }
    if result.status == "solved":
        for page, url in links_for(links.page).items():
            slots[f"{page}_url"] = escape(url)
    return slots


def _render_result(
    geometry: Geometry,
    status: str,
    reason: str | None,
    slots: Mapping[str, Markup],
    **extra: Any,
) -> str:
    """``result.html``: the outcome and geometry decide its flow, ``slots`` what it prints."""
    teach_links = None
    if "steps_url" in slots:
        teach_links = {page: slots[f"{page}_url"] for page in TEACH_PAGES}
    return render_template(
        "result.html",
        status=status,
        reason=reason,
        geometry=geometry,
        board_name=slots["board_name"],
        share_url=slots["share_url"],
        play_url=slots["play_url"],
        edit_url=slots["edit_url"],
        preview={
            "title": slots["preview_title"],
            "description": slots["preview_description"],
            "image": slots["preview_image"],
            "url": slots["share_url"],
            "width": WIDTH,
            "height": HEIGHT,
        },
        stats={name: slots[name] for name in _STAT_SLOTS},
        teach_links=teach_links,
        **extra,
    )


_HTML = "text/html; charset=utf-8"
_STAT_SLOTS = ("reduce_passes", "guesses", "backtracks", "elapsed_ms")


def _skeleton_render(
    shape: Hashable, slots: Mapping[str, Markup], render: Callable[[Mapping[str, Markup]], str]
) -> str:
    """``render(slots)`` through the app's skeletons (off in debug mode: templates reload)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    store = app.extensions.get(SKELETONS)
    if not isinstance(store, Skeletons) or app.debug:
        return render(slots)
    return store.render(shape, slots, render)


@dataclass(frozen=True)
class PresetBoard:
    """A read-only board whose rows are already drawn (for the ``grid`` macro)."""

    geometry: Geometry
    rows: Markup

    def rows_html(self) -> Markup:
        """The drawn rows (see :meth:`sudoku_web.web.service.BoardView.rows_html`)."""
        return self.rows


def _boards(
    geometry: Geometry, givens: str, result: SolveResult, diagnosis: Diagnosis | None
) -> list[BoardView]:
    """The grids a result page shows (two for ``multiple``)."""
    if result.status == "solved":
        return [board_view(geometry, givens, result.solutions[0])]
    if result.status == "multiple":
        first, second = result.solutions[:2]
        diff = differing_cells(first, second)
        return [board_view(geometry, givens, s, differs=diff) for s in (first, second)]
    if result.status == "gave_up":
        return [board_view(geometry, givens, reached_grid(result))]
    conflict = diagnosis.conflict if diagnosis is not None else ()
    return [board_view(geometry, givens, invalid=conflict)]


def _givens_count(givens: str) -> int:
    return len(givens) - givens.count("0")


def _description(
    geometry: Geometry, givens: str, result: SolveResult, diagnosis: Diagnosis | None
) -> str:
    """One line for link previews: what the puzzle is and what became of it."""
    head = f"A {variants.describe(geometry)} with {_givens_count(givens)} givens"
    if result.status == "solved":
        return f"{head}, solved: see the solution."
    if result.status == "multiple":
        return f"{head}. It has more than one solution; see two of them."
    if result.status == "gave_up":
        return f"{head}. The solver gave up within its limits."
    if diagnosis is not None and diagnosis.fixes:
        n = len(diagnosis.fixes)
        return f"{head}. It has no solution; {n} one-cell fix{'es' if n > 1 else ''} suggested."
    return f"{head}. It has no solution."


# ---- Link-preview pictures -------------------------------------------------------------------


def _png(variant: str, puzzle: str, regions: str | None = None) -> ResponseValue:
    """The preview PNG of a share link; cached like a page (ETag, Cache-Control, 304)."""
    try:
        geometry, reading = _read_link(variant, puzzle, regions)
    except InvalidPuzzle:
        abort(404)
    if reading.grid is None or reading.canonical is None:
        abort(404)  # nothing to draw
    if not _is_canonical(geometry, reading, puzzle, regions):
        return redirect(variants.page_url(geometry, reading.canonical, png=True), 301)
    givens = reading.canonical
    doctor_budget = DoctorBudget.from_config(current_app.config)
    key = (cache.key_for(givens, geometry), doctor_budget)

    def build() -> Response:
        if not reading.ok:
            marked = {c for e in reading.errors for c in e.cells}
            image = render_png(
                list(reading.grid or ()),
                None,
                geometry,
                "Not a valid puzzle",
                marked=sorted(marked),
            )
            return _png_response(image)
        result = cache.cached_solve(givens, geometry)  # flags a deadline result no-store
        diagnosis = diagnose_result(result, doctor_budget)
        image = render_png(*_picture(geometry, givens, result, diagnosis))
        response = _png_response(image)
        if diagnosis and not diagnosis.complete:
            response.cache_control.no_store = True
        return response

    return cache.cacheable("png", key, build)


def _png_response(image: bytes) -> Response:
    return Response(image, mimetype="image/png")


def _picture(
    geometry: Geometry, givens: str, result: SolveResult, diagnosis: Diagnosis | None
) -> tuple[list[int], str | None, Geometry, str]:
    """render_png's arguments for a result: givens, solution, geometry, status words."""
    grid = parse_puzzle(givens, geometry)
    if result.status == "solved":
        return grid, result.solutions[0], geometry, "Solved"
    if result.status == "multiple":
        return grid, result.solutions[0], geometry, "More than one solution (one shown)"
    if result.status == "gave_up":
        return grid, None, geometry, "The solver gave up"
    if diagnosis is not None and diagnosis.conflict:
        words = f"Impossible: these {len(diagnosis.conflict)} givens cannot all be right"
        return grid, None, geometry, words
    return grid, None, geometry, "Impossible: no solution"


def _invalid_page(
    geometry: Geometry, grid: tuple[int, ...] | None, errors: tuple[PuzzleError, ...]
) -> tuple[str, int]:
    """422: the same messages as the form, and the grid with its offending cells marked."""
    board = None
    edit_url = variants.edit_url(geometry)
    if grid is not None:
        givens = canonical(grid)
        marked = {c for e in errors for c in e.cells}
        board = board_view(geometry, givens, invalid=marked)
        edit_url = variants.edit_url(geometry, givens)
    page = render_template("invalid.html", errors=errors, board=board, edit_url=edit_url)
    return page, 422


def _bad_map_page(regions: str, puzzle: str, errors: tuple[PuzzleError, ...]) -> tuple[str, int]:
    """422 for a jigsaw link whose region map is wrong: the map drawn, its bad cells marked."""
    sketch = variants.region_sketch(regions)
    board = None
    args: dict[str, Any] = {"v": "jigsaw", "r": regions[: 4 * 256], "p": puzzle[: 4 * 256]}
    if sketch is not None:
        marked = {c for e in errors for c in e.cells}
        givens = puzzle if len(puzzle) == sketch.cells else ""
        board = board_view(sketch, givens, invalid=marked)
        if sketch.size != 9:
            args["n"] = str(sketch.size)
    edit_url = url_for("web.index", **args)  # also called from the play pages
    page = render_template("invalid.html", errors=errors, board=board, edit_url=edit_url)
    return page, 422
