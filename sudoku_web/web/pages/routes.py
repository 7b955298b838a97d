"""The HTML pages: the puzzle form, its POST, its photo's POST, a share link's result page,
its picture and its "Open in f-puzzles" redirect (``<share link>/fpuzzles``).

Each view reads the request through the form or :mod:`sudoku_web.web.puzzles.request_path`,
calls the core through :mod:`sudoku_web.web.runtime.solving` (within the budgets, through the
cache), and renders; the only parsing here turns a link's canonical givens back into a grid
to draw. The share-link routes come from the variant registry
(:func:`~sudoku_web.web.puzzles.request_path.add_link_pages` and ``add_share_routes``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import Geometry, InvalidPuzzle, parse_puzzle, region_labels
from ...core.doctor import Diagnosis
from ...core.rules import spelling as rule_spelling
from ...core.rules.board import attach
from ...core.solver import SolveResult
from ...core.variants import VariantInfo, variant_of
from ..puzzles import pasted_rules, photo_upload, sum_doctor, urls
from ..puzzles.core_names import core_name, words_filter
from ..puzzles.forms import CAGES_MAX, RULES_MAX, JigsawForm, PuzzleForm, form_for, unmapped
from ..puzzles.puzzle_text import canonical, read
from ..puzzles.request_path import (
    ShareLink,
    add_link_pages,
    add_share_routes,
    invalid_page,
    is_canonical_link,
    link_reading,
    redirect_kept,
)
from ..render import drawing, exports
from ..render.boards import BoardView, PresetBoard, board_view, differing_cells, reached_grid
from ..render.preview import HEIGHT, WIDTH, render_png
from ..runtime import cache, languages, solving, speedups

bp = Blueprint("pages", __name__)

# What every template asks about a board: its registry entry, the form of its kind, and
# whether it is the plain 9x9 (pages name every other board).
bp.add_app_template_global(variant_of, "variant_info")
bp.add_app_template_global(urls.form_url, "form_url")
bp.add_app_template_global(urls.is_classic, "is_classic")
# Every grid draws its board's rules, and pages say them in words (render.drawing).
bp.add_app_template_global(drawing.overlay, "rules_overlay")
bp.add_app_template_global(drawing.rule_words, "rule_words")

# Headings and picture captions per solver outcome.
HEADINGS = {
    "solved": "Solved",
    "unsolvable": "Impossible: this puzzle has no solution",
    "multiple": "More than one solution",
    "gave_up": "The solver gave up",
}

ResponseValue = BaseResponse | str | tuple[str, int]


def _examples(picked: urls.Choice) -> list[tuple[str, str]]:
    """(label, form URL) of the registry's examples for the form of this variant and size."""
    out = []
    for example in picked.info.examples:
        if example.size != picked.size:
            continue
        args: dict[str, Any] = {"p": example.puzzle}
        if picked.key:
            args = {"v": picked.key, **args}
        if example.regions:
            args["r"] = example.regions
        if example.cages:
            args["k"] = example.cages
        label = core_name(example.label) if example.label else ""
        label = label or gettext("An example %(variant)s puzzle", variant=picked.label)
        out.append((label, url_for(".index", **args)))
    return out


def _render_form(
    form: PuzzleForm,
    picked: urls.Choice,
    status: int = 200,
    givens: str | None = None,
    photo: photo_upload.PhotoPanel | None = None,
) -> tuple[str, int]:
    page = render_template(
        "index.html",
        form=form,
        photo=photo or photo_upload.panel(form.geometry),
        givens=givens,
        board=form.board(givens or ""),  # "Edit this puzzle": later entries drawn apart
        examples=_examples(picked),
        picked=picked,
        choices=urls.CHOICES,
        jigsaw=isinstance(form, JigsawForm),
        example_map_url=_example_map_url(picked) if isinstance(form, JigsawForm) else "",
    )
    return page, status


def _example_map_url(picked: urls.Choice) -> str:
    """The region-map form opened on the example map of its size."""
    return urls.edit_url(urls.jigsaw_geometry(urls.default_regions(picked.size)))


def _map_rows(text: str, size: int) -> str:
    """A region map laid out as N lines of N letters, as people read (and edit) it."""
    labels = region_labels(text)
    return "\n".join("".join(labels[r * size : (r + 1) * size]) for r in range(size))


@bp.get("/")
def index() -> ResponseValue:
    """The empty form of a variant (``?v=x`` ...), or with ``?p=PUZZLE`` opened on a puzzle.

    A jigsaw form also takes its region map as ``?r=`` (and a size as ``?n=``), any form its
    cages as ``?k=`` (their link spelling) and its rules as ``?rules=`` (their spelling).
    """
    picked = urls.choice(request.args.get("v"), request.args.get("n"))
    regions = request.args.get("r", "")[: 4 * 256]
    geometry = urls.form_geometry(picked, regions)
    form = form_for(picked, geometry)
    form.geometry = geometry  # the map this form opens on (jigsaw); the class has a default
    if cages := request.args.get("k", "")[:CAGES_MAX]:
        try:
            form.show_cages(urls.with_link_cages(geometry, cages))
        except InvalidPuzzle:
            form.cages.data = cages  # shown as it came, to be fixed; Solve says what is wrong
    if rules := request.args.get("rules", "")[:RULES_MAX]:
        try:
            form.show_rules(attach(geometry, rule_spelling.parse(rules, geometry.size)))
        except InvalidPuzzle:
            form.rules.data = rules  # shown as it came, to be fixed; Solve says what is wrong
    if isinstance(form, JigsawForm):
        sketch = urls.region_sketch(regions) if regions else None
        if sketch is not None and sketch.size == picked.size and sketch != geometry:
            # A map that is not valid yet (from "Edit this puzzle" on a 422): show it as typed.
            form.sketch = sketch
            form.regions.data = _map_rows(regions, picked.size)
        elif regions:
            form.regions.data = _map_rows(urls.canonical_regions(geometry), geometry.size)
        else:
            # No silent example: the person sets the regions (or picks the labelled example).
            form.sketch = unmapped(picked.size)
    givens = form.prefill(text) if (text := request.args.get("p", "")) else None
    return _render_form(form, picked, givens=givens)


@bp.post("/")
def submit() -> ResponseValue:
    """A valid puzzle goes to its share link (303); anything else comes back marked (422)."""
    if pasted_rules.is_fpuzzles_paste(pasted := request.form.get("paste", "")):
        return pasted_rules.open_paste(pasted)  # an f-puzzles or SudokuPad puzzle: its rules page
    picked = urls.choice(request.form.get("v"), request.form.get("n"))
    form = form_for(picked, urls.form_geometry(picked), request.form)
    if form.validate() and form.canonical is not None:
        if "print" in request.form:  # the form's "Print the puzzle" button
            edit = urls.edit_url(form.geometry, form.canonical)
            return redirect(urls.print_url(edit), 303)
        return redirect(urls.page_url(form.geometry, form.canonical), 303)
    return _render_form(form, picked, 422)


@bp.post("/read")
def read_photo() -> Response:
    """The form's "Read a photo" without JavaScript: the classic form filled with what was
    read, the doubtful cells marked, for the person to check before Solve (200); or the empty
    form saying why nothing was read (the status of :mod:`~sudoku_web.web.puzzles.photo_upload`)."""
    answer = photo_upload.read_upload()
    picked = urls.choice(None, None)
    form = form_for(picked, photo_upload.PHOTO_GEOMETRY)
    if answer.reading is not None:
        checked = read(answer.reading.puzzle, form.geometry)
        if checked.grid is not None:
            form.fill(checked.grid)
        # Givens read twice in a house are shown as on a typed puzzle (never solved as is).
        form.puzzle_errors = list(checked.errors)
        form.invalid_cells = {c for e in checked.errors for c in e.cells}
    page, status = _render_form(
        form, picked, answer.status, photo=photo_upload.panel(form.geometry, answer)
    )
    response = make_response(page, status)
    cache.no_store(response)
    if status == 429:
        response.headers["Retry-After"] = str(photo_upload.RETRY_AFTER_S)
    return response


# ---- Share links: the result page ------------------------------------------------------------


def result_page(link: ShareLink) -> ResponseValue:
    """A share link's result page at its one canonical URL (301 from any other spelling)."""
    # 304 / the stored page / ETag + Cache-Control: the page depends on nothing but the
    # puzzle, its geometry and the two budgets.
    key = cache.solve_key(link.givens, link.geometry)
    etag_key = cache.text_key(key.text, solving.doctor_budget().key)
    return cache.cacheable("page", etag_key, lambda: _result_page(link, key))


add_link_pages(bp, "", "", result_page, trust_engine=True)


def _result_page(link: ShareLink, key: cache.SolveKey) -> Response:
    """Solve (within the request's budget) and render the page for any solver outcome.

    A solved puzzle's page, the common case, goes through the speedups' skeletons; the other
    outcomes are rendered by Jinja.
    """
    geometry, givens = link.geometry, link.givens
    result = solving.cached_solve(givens, geometry, key)
    if result.status == "invalid":  # the engine found conflicting givens: the 422 page
        grid = link.grid if link.grid is not None else tuple(parse_puzzle(givens, geometry))
        return invalid_page(result.errors, geometry, grid)
    links = speedups.result_links(geometry, givens)
    if result.status == "solved":
        slots = _slots(geometry, givens, result, links, None)
        slots["grid"] = speedups.solved_rows(geometry, givens, result.solutions[0])
        # A killer may have no given digit: the legend then speaks of its cage sums only.
        has_givens = givens.strip("0.") != ""
        board_key = cache.geometry_key(geometry)
        language = languages.current()  # the skeleton holds the page's words
        shape = ("result", "solved", board_key, request.script_root, has_givens, language)
        page = speedups.render(shape, slots, _solved_renderer(geometry, has_givens))
        return Response(page, content_type="text/html; charset=utf-8")
    return _unsolved_page(link, key, result, links)


def _solved_renderer(geometry: Geometry, has_givens: bool) -> Callable[[Mapping[str, Markup]], str]:
    def render(slots: Mapping[str, Markup]) -> str:
        board = PresetBoard(geometry, slots["grid"])
        return _render_result(
            geometry, "solved", None, slots, boards=[board], has_givens=has_givens
        )

    return render


def _unsolved_page(
    link: ShareLink, key: cache.SolveKey, result: SolveResult, links: urls.Links
) -> Response:
    """The page of an impossible, multiple-solution or given-up puzzle (with the doctor)."""
    geometry, givens = link.geometry, link.givens
    grid = list(link.grid) if link.grid is not None else parse_puzzle(givens, geometry)
    diagnosis = solving.cached_diagnosis(result, key)
    answer = solving.cached_suggestion(result, key)
    suggestion = answer.suggestion if answer is not None else None
    fixes = []
    if diagnosis is not None:
        fixes = [
            (words_filter(fix.words(geometry)), urls.page_url(geometry, canonical(fix.apply(grid))))
            for fix in diagnosis.fixes
        ]
    # A board with cages: which cage's sum was probably mistyped (web.puzzles.sum_doctor).
    sums = sum_doctor.advice(geometry, givens) if result.status == "unsolvable" else None
    suggested = None
    if suggestion is not None:
        suggested = (
            f"{geometry.cell_name(suggestion.cell)}: {geometry.symbol(suggestion.value)}",
            urls.page_url(geometry, canonical(suggestion.apply(grid))),
        )
    page = _render_result(
        geometry,
        result.status,
        result.reason,
        _slots(geometry, givens, result, links, diagnosis),
        boards=_boards(geometry, givens, result, diagnosis),
        budget=key.budget,
        diagnosis=diagnosis,
        conflict_summary=words_filter(diagnosis.summary_words(geometry)) if diagnosis else "",
        fixes=fixes,
        suggested=suggested,
        suggestion_cut=answer is not None and answer.cut_short,
        sum_fixes=sums.links() if sums else [],
        sum_cut=sums is not None and not sums.complete,
    )
    return make_response(page)


def _slots(
    geometry: Geometry,
    givens: str,
    result: SolveResult,
    links: urls.Links,
    diagnosis: Diagnosis | None,
) -> dict[str, Markup]:
    """The values a result page prints as they are (escaped): its skeleton's slots."""
    stats = result.stats
    name = urls.describe(geometry)
    number = languages.number_writer()
    slots = {
        "board_name": escape(urls.board_name(geometry)),
        "share_url": escape(links.share),
        "edit_url": escape(links.edit),
        "print_url": escape(links.print),
        # Link previews (Open Graph, Twitter); every share link's picture is <link>.png.
        "preview_title": escape(f"{HEADINGS.get(result.status, 'Result')} · {name}"),
        "preview_description": escape(_description(name, geometry, givens, result, diagnosis)),
        "preview_image": escape(links.picture),
        # The same puzzle to play, without the solution (sudoku_web.web.play.routes).
        "play_url": escape(links.play),
        # Its f-puzzles link (drawn only where f-puzzles holds the board: _render_result).
        "fpuzzles_url": escape(links.fpuzzles),
        # Where the language picker sends the visitor back: the share link's path, the same
        # for every request of this page (a page from the skeletons or the store holds it).
        "here": escape(links.page),
        # Counts and time as the request's language writes numbers: digits, separators.
        "reduce_passes": Markup(number(stats.reduce_passes)),
        "guesses": Markup(number(stats.guesses)),
        "backtracks": Markup(number(stats.backtracks)),
        "elapsed_ms": Markup(number(round(stats.elapsed_ms, 1), "#,##0.0")),
    }
    if result.status == "solved":
        for page in urls.TEACH_PAGES:  # the teaching routes sit at <share link>/<page>
            slots[f"{page}_url"] = escape(getattr(links, page))
    return slots


_STAT_SLOTS = ("reduce_passes", "guesses", "backtracks", "elapsed_ms")


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
        teach_links = {page: slots[f"{page}_url"] for page in urls.TEACH_PAGES}
    return render_template(
        "result.html",
        status=status,
        reason=reason,
        geometry=geometry,
        board_name=slots["board_name"],
        share_url=slots["share_url"],
        play_url=slots["play_url"],
        fpuzzles_url=slots["fpuzzles_url"] if exports.written_whole(geometry) else None,
        edit_url=slots["edit_url"],
        print_url=slots["print_url"],
        here=slots["here"],
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


def _boards(
    geometry: Geometry, givens: str, result: SolveResult, diagnosis: Diagnosis | None
) -> list[BoardView]:
    """The grids a result page shows (two for ``multiple``)."""
    words = languages.cell_words()
    if result.status == "solved":
        return [board_view(geometry, givens, result.solutions[0], words=words)]
    if result.status == "multiple":
        first, second = result.solutions[:2]
        diff = differing_cells(first, second)
        return [board_view(geometry, givens, s, differs=diff, words=words) for s in (first, second)]
    if result.status == "gave_up":
        return [board_view(geometry, givens, reached_grid(result), words=words)]
    conflict = diagnosis.conflict if diagnosis is not None else ()
    return [board_view(geometry, givens, invalid=conflict, words=words)]


def _description(
    name: str, geometry: Geometry, givens: str, result: SolveResult, diagnosis: Diagnosis | None
) -> str:
    """One line for link previews: what the puzzle is (``name``: :func:`urls.describe` of
    its board) and what became of it."""
    described = urls.with_article(name, capital=True)
    head = f"{described} with {urls.givens_words(geometry, givens)}"
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


def picture(
    info: VariantInfo,
    puzzle: str,
    regions: str | None,
    cages: str | None = None,
    rules: str | None = None,
) -> ResponseValue:
    """The preview PNG of a share link; cached like a page (ETag, Cache-Control, 304).

    404 when there is nothing to draw; a puzzle that parsed but is not valid is drawn with
    its offending cells marked.
    """
    try:
        geometry, reading = link_reading(info, puzzle, regions, cages, rules)
    except InvalidPuzzle:
        abort(404)
    if reading.grid is None or reading.canonical is None:
        abort(404)  # nothing to draw
    givens = reading.canonical
    if not is_canonical_link(geometry, givens, puzzle, regions, cages, rules):
        return redirect_kept(urls.page_url(geometry, givens, png=True))
    key = cache.solve_key(givens, geometry)
    grid = list(reading.grid)

    def build() -> Response:
        if not reading.ok:
            marked = sorted({c for e in reading.errors for c in e.cells})
            image = render_png(grid, None, geometry, "Not a valid puzzle", marked=marked)
            return Response(image, mimetype="image/png")
        result = solving.cached_solve(givens, geometry, key)
        diagnosis = solving.cached_diagnosis(result, key)
        grid_, solution, _, words, conflict = _picture(geometry, grid, result, diagnosis)
        image = render_png(grid_, solution, geometry, words, marked=conflict)
        return Response(image, mimetype="image/png")

    return cache.cacheable("png", cache.text_key(key.text, solving.doctor_budget().key), build)


add_share_routes(bp, "png", ".png", picture)


# ---- Share links: Open in f-puzzles ----------------------------------------------------------


def open_in_fpuzzles_url(geometry: Geometry, puzzle: str) -> str | None:
    """The page's "Open in f-puzzles" link: ``<share link>/fpuzzles``, which redirects to
    f-puzzles' ``?load=`` link of the puzzle (its givens, ``0`` or ``.`` blank); None when
    f-puzzles could not hold the board whole. The ``?load=`` text is LZString-compressed one
    bit at a time by the library, a third of a cold result page: it is made when a person
    follows the link, not on every page that offers it."""
    if exports.fpuzzles_givens(geometry, puzzle) is None:
        return None
    return urls.share_url(geometry, puzzle.replace(".", "0"), "fpuzzles")


def open_in_fpuzzles(link: ShareLink) -> ResponseValue:
    """``<share link>/fpuzzles``: a redirect to the puzzle in f-puzzles (``?load=``, its
    JSON compressed); 404 when f-puzzles could not hold the board whole."""
    target = exports.fpuzzles_url(link.geometry, link.givens)
    if target is None:
        abort(404)
    response = redirect(target, 302)
    response.cache_control.public = True
    response.cache_control.max_age = int(current_app.config["HTTP_CACHE_MAX_AGE"])
    return response


add_link_pages(bp, "fpuzzles", "/fpuzzles", open_in_fpuzzles)
bp.add_app_template_global(open_in_fpuzzles_url, "fpuzzles_url")


def _picture(
    geometry: Geometry, grid: list[int], result: SolveResult, diagnosis: Diagnosis | None
) -> tuple[list[int], str | None, Geometry, str, tuple[int, ...]]:
    """render_png's arguments for a result: givens, solution, geometry, status words, and
    for an impossible puzzle the doctor's conflict (tinted, as on the page)."""
    if result.status == "solved":
        return grid, result.solutions[0], geometry, "Solved", ()
    if result.status == "multiple":
        return grid, result.solutions[0], geometry, "More than one solution (one shown)", ()
    if result.status == "gave_up":
        return grid, None, geometry, "The solver gave up", ()
    if diagnosis is not None and diagnosis.conflict:
        words = f"Impossible: these {len(diagnosis.conflict)} givens cannot all be right"
        return grid, None, geometry, words, tuple(diagnosis.conflict)
    return grid, None, geometry, "Impossible: no solution", ()
