"""Play a shared puzzle without spoilers: ``<share link>/play`` and the JSON it talks to.

Routes (each variant's share link plus a suffix, like the teaching pages; see
:mod:`sudoku_web.web.variants` for the share links themselves):

==================================  ===============================================================
``GET <share link>/play``           the givens locked, every other cell for the person; the page
                                    holds no digit of the solution (``static/play.js`` plays it)
``POST <share link>/play``          the same page as a plain form (no JavaScript): ``action=check``
                                    marks wrong entries, ``action=hint`` gives the next step
``GET <share link>/play.png``       the link-preview picture: the givens only
``POST /api/check``                 JSON: which entries are wrong, whether the grid is complete,
                                    and (``reveal``) one cell's digit
``POST /api/hint``                  JSON: the next logical step from the person's digits *and*
                                    pencil marks
==================================  ===============================================================

The game itself (entries, pencil marks, what Check and Hint answer) is the core's
(:mod:`sudoku_web.core.game`); this module reads requests into it and renders its answers.
A puzzle that is not playable (no single solution) gets a page that says why and links to
the result.

Nothing is kept on the server: the person's progress lives in their browser (localStorage,
keyed by variant, region map and puzzle), and each check sends the entries it asks about.
Decisions: a reveal is a field of ``/api/check`` (one cell's digit per request, never more);
without JavaScript a cell holding several digits is read as pencil marks, so the hint by form
also starts from the person's marks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from flask import (
    Blueprint,
    Response,
    jsonify,
    make_response,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ..core.board import Geometry, InvalidPuzzle, PuzzleError, parse_puzzle
from ..core.game import Entries, Game, Panel, check_panel, hint_panel
from ..core.variants import VariantInfo
from . import cache, solving, variants
from . import teaching_display as lessons
from .boards import board_view
from .preview import HEIGHT, WIDTH, render_png
from .reading import MAX_TEXT, Reading, read
from .request_path import (
    API_PREFIX,
    ShareLink,
    add_share_routes,
    error_json,
    json_error,
    read_share_link,
)

bp = Blueprint("play", __name__)

ResponseValue = BaseResponse | str | tuple[str, int]

# A request's entries and marks are reported with at most this many problems (a grid of
# stray characters would otherwise get one line per cell).
MAX_ERRORS: Final = 20

# Why a puzzle cannot be played, per solver outcome (page and API say the same).
NOT_PLAYABLE: Final = {
    "multiple": "This puzzle has more than one solution, so entries cannot be checked against "
    "the solution: a proper Sudoku has exactly one.",
    "unsolvable": "This puzzle has no solution: some given is wrong, so it cannot be played.",
    "gave_up": "The solver could not finish this puzzle within its limits, so entries cannot be "
    "checked. Try again in a moment.",
}


# ---- Reading what the person wrote -------------------------------------------------------------


def form_entries(form: Mapping[str, str], geometry: Geometry, givens: Sequence[int]) -> Entries:
    """The play form's cells (``c<index>``, open cells only) as entries and marks."""
    entries = Entries(geometry, tuple(givens))
    limit = 2 * geometry.size  # room for every symbol with separators; more is not a cell
    for cell in range(geometry.cells):
        if givens[cell]:
            continue
        text = form.get(f"c{cell}", "")
        if len(text) > limit:
            entries.refuse(cell, text)
        elif text.strip():
            entries.add_text(cell, text.strip())
    return entries


# ---- The game's facts, from one solve ----------------------------------------------------------


def _game(geometry: Geometry, givens: str, grid: Sequence[int]) -> Game:
    return Game(geometry, givens, tuple(grid), solving.cached_solve(givens, geometry))


def play_url(geometry: Geometry, puzzle: str, *, png: bool = False, external: bool = False) -> str:
    """The play page (or its preview picture) of a canonical puzzle."""
    return variants.share_url(geometry, puzzle, "play_png" if png else "play", external=external)


# ---- Routes: one per variant, from the registry (request_path.add_share_routes) ---------------


def play_page(
    info: VariantInfo, puzzle: str, regions: str | None, cages: str | None = None
) -> ResponseValue:
    """``<share link>/play`` (POST: the form's Check and Hint)."""
    link = read_share_link(info, puzzle, regions, cages, suffix="/play")
    if not isinstance(link, ShareLink):
        return link
    return _page(link.geometry, link.givens, _grid(link))


def play_picture(
    info: VariantInfo, puzzle: str, regions: str | None, cages: str | None = None
) -> ResponseValue:
    """``<share link>/play.png``: the link preview of the play page, the givens only."""
    link = read_share_link(info, puzzle, regions, cages, suffix="/play.png")
    if not isinstance(link, ShareLink):
        return link
    return _png(link.geometry, link.givens, _grid(link))


def _grid(link: ShareLink) -> tuple[int, ...]:
    """The link's grid (read_share_link has it unless the engine was trusted to read it)."""
    return link.grid if link.grid is not None else tuple(parse_puzzle(link.givens, link.geometry))


add_share_routes(bp, "play", "/play", play_page, methods=("GET", "POST"))
add_share_routes(bp, "play_png", "/play.png", play_picture)


def _page(geometry: Geometry, givens: str, grid: tuple[int, ...]) -> ResponseValue:
    """GET: the fresh page (cacheable: it depends on the puzzle only). POST: the form's
    Check or Hint over the posted entries."""
    if request.method == "GET":
        if request.args.get("from") == "pool":
            # "New puzzle" says where a puzzle came from: the note belongs to this
            # one visit, so that page is drawn apart from the puzzle's cached page.
            return _render(_game(geometry, givens, grid), from_pool=True)
        key = cache.text_key("play", cache.solve_key(givens, geometry).text)
        return cache.cacheable("page", key, lambda: _render(_game(geometry, givens, grid)))
    game = _game(geometry, givens, grid)
    entries = form_entries(request.form, geometry, grid)
    if entries.errors:
        return _render(game, entries, status=422)
    if not game.playable:
        return _render(game, entries)
    action = request.form.get("action", "check")
    panel = (
        hint_panel(game, entries, solving.hint_deadline())
        if action == "hint"
        else check_panel(game, entries)
    )
    return _render(game, entries, panel)


# ---- What Check and Hint say -------------------------------------------------------------------


# ---- Rendering ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayCell:
    """One cell of the play grid, as the template draws it."""

    index: int
    name: str  # r1c1
    label: str  # "Row 1, column 1"
    given: str  # the given's symbol, "" for an open cell
    value: str  # what the form field holds (a digit, or several for pencil marks)
    classes: str
    wrong: bool = False
    sum_html: Markup = Markup()  # a cage's sum, drawn in its first cell


def _cells(game: Game, entries: Entries | None, panel: Panel | None) -> list[list[PlayCell]]:
    """The grid's cells row by row: givens locked, open cells with what the person typed."""
    geo = game.geometry
    marked = set(panel.cells) if panel is not None else set()
    last = panel.hint.last if panel is not None and panel.hint is not None else None
    hinted = set(last.cells) if last is not None else set()
    houses = {c for h in last.houses for c in h.cells} if last is not None else set()
    rows: list[list[PlayCell]] = []
    for cell in board_view(geo, game.givens).cells:
        text = _typed(geo, entries, cell.index) if entries is not None and not cell.text else ""
        extra = []
        if not cell.text:
            extra += ["open", "pencil" if len(text) > 1 else "entry" if text else ""]
        extra += [
            "wrong" if cell.index in marked else "",
            "hint-house" if cell.index in houses else "",
            "hint-cell" if cell.index in hinted else "",
        ]
        classes = " ".join(c for c in [cell.classes, *extra] if c)
        if cell.index % geo.size == 0:
            rows.append([])
        name = geo.cell_name(cell.index)
        wrong = cell.index in marked
        rows[-1].append(
            PlayCell(cell.index, name, cell.label, cell.text, text, classes, wrong, cell.sum_html)
        )
    return rows


def _typed(geometry: Geometry, entries: Entries, cell: int) -> str:
    """What the form field of an open cell holds: its digit, or its pencil marks."""
    value, mask = entries.values[cell], entries.marks[cell]
    if value:
        return geometry.symbol(value)
    return "".join(geometry.symbol(d) for d in range(1, geometry.size + 1) if mask >> (d - 1) & 1)


def _render(
    game: Game,
    entries: Entries | None = None,
    panel: Panel | None = None,
    status: int = 200,
    from_pool: bool = False,
) -> Response:
    """The play page: the form grid (or, for an unplayable puzzle, why, and the givens)."""
    geo = game.geometry
    name = variants.describe(geo)
    hint = panel.hint if panel is not None else None
    page = render_template(
        "play.html",
        geometry=geo,
        board_name=name,
        givens=game.givens,
        playable=game.playable,
        not_playable=NOT_PLAYABLE.get(game.result.status, ""),
        rows=_cells(game, entries, panel) if game.playable else [],
        board=None if game.playable else board_view(geo, game.givens),
        houses=_houses_attr(geo),
        regions=variants.canonical_regions(geo) if geo.regions is not None else "",
        cages=variants.canonical_cages(geo),
        play_url=play_url(geo, game.givens),
        share_play_url=play_url(geo, game.givens, external=True),
        result_url=variants.page_url(geo, game.givens),
        difficulty_url=variants.share_url(geo, game.givens, "difficulty"),
        edit_url=variants.edit_url(geo, game.givens),
        check_url=url_for("play.api_check"),
        hint_url=url_for("play.api_hint"),
        preview={
            "title": f"Play this {name}",
            "description": f"A {name} with {variants.givens_words(geo, game.givens)} and one "
            "solution to find. "
            "The solution stays hidden.",
            "image": play_url(geo, game.givens, png=True, external=True),
            "url": play_url(geo, game.givens, external=True),
            "width": WIDTH,
            "height": HEIGHT,
        },
        problems=entries.errors if entries is not None else [],
        from_pool=from_pool,
        panel=panel,
        names=[geo.cell_name(c) for c in panel.cells] if panel is not None else [],
        hint_steps=[lessons.step_json(i + 1, s, geo) for i, s in enumerate(hint.steps)]
        if hint is not None
        else [],
        hint_cut=hint is not None and hint.cut_short,
        stuck_cell=geo.cell_name(hint.stuck_cell)
        if hint is not None and hint.stuck_cell is not None
        else "",
    )
    return make_response(page, status)


def _houses_attr(geometry: Geometry) -> str:
    """Every house's cells, for play.js (conflicts, highlights): ``0 1 2;9 10 11;...``.

    Geometry only, the same for every puzzle of the board: no digit of any solution.
    """
    return ";".join(" ".join(map(str, h.cells)) for h in geometry.houses)


def _png(geometry: Geometry, givens: str, grid: tuple[int, ...]) -> ResponseValue:
    """The play page's preview: the givens, never the solution; cached like every picture."""
    key = cache.text_key("play", cache.solve_key(givens, geometry).text)

    def build() -> Response:
        result = solving.cached_solve(givens, geometry)
        count = len(givens) - givens.count("0")
        if result.status == "solved":
            words = f"Your turn: {count} givens, one solution"
        else:
            words = "Not playable: " + {
                "multiple": "more than one solution",
                "unsolvable": "no solution",
            }.get(result.status, "the solver gave up")
        return Response(render_png(list(grid), None, geometry, words), mimetype="image/png")

    return cache.cacheable("png", key, build)


# ---- JSON: /api/check and /api/hint ------------------------------------------------------------


@dataclass(frozen=True)
class PlayRequest:
    """A JSON request about a game: the game, and what the person has written."""

    game: Game
    entries: Entries
    body: Mapping[str, Any]


def _play_request() -> PlayRequest | Response:
    """Read ``{"puzzle", "variant", "regions", "cages", "entries", "marks"}``; a 400/422/503
    response naming the problem otherwise."""
    body = _json_object()
    if isinstance(body, Response):
        return body
    try:
        geometry = variants.geometry_of(
            body.get("variant"), body["puzzle"], body.get("regions"), body.get("cages")
        )
    except InvalidPuzzle as exc:
        return _unprocessable(Reading(None, exc.errors), None)
    reading = read(body["puzzle"], geometry)
    if not reading.ok or reading.canonical is None or reading.grid is None:
        return _unprocessable(reading, geometry)
    entries = Entries(geometry, reading.grid)
    if body.get("entries"):
        _read_entry_text(entries, body["entries"])
    for cell_name, value in (body.get("marks") or {}).items():
        _read_marks(entries, cell_name, value)
    if entries.errors:
        errors = entries.errors[:MAX_ERRORS]
        if len(entries.errors) > MAX_ERRORS:
            more = len(entries.errors) - MAX_ERRORS
            errors.append(PuzzleError("symbol", f"… and {more} more problems like these."))
        return _unprocessable(Reading(reading.grid, tuple(errors)), geometry)
    game = _game(geometry, reading.canonical, reading.grid)
    if not game.playable:
        return _not_playable(game)
    return PlayRequest(game, entries, body)


def _json_object() -> dict[str, Any] | Response:
    """The request's JSON object with its fields' types checked, or a 400 saying what is wrong."""
    try:
        # force: curl -d without a Content-Type is still JSON; silent: a parse failure is ours
        # to answer in JSON.
        body: Any = request.get_json(force=True, silent=True)
    except RecursionError:  # [[[[…]]]] nested past the parser's depth: not a request
        body = None
    if not isinstance(body, dict):
        example = '{"puzzle": "…", "entries": "…"}'
        return json_error(400, "Bad Request", f"Send a JSON object such as {example}.")
    if not isinstance(body.get("puzzle"), str):
        return json_error(400, "Bad Request", 'The JSON object needs a "puzzle" string.')
    for key in ("variant", "regions", "entries"):
        if body.get(key) is not None and not isinstance(body[key], str):
            return json_error(400, "Bad Request", f'"{key}" must be a string when given.')
    if body.get("cages") is not None and not isinstance(body["cages"], str | list):
        message = '"cages" must be a list such as [{"sum": 15, "cells": ["r1c1", "r1c2"]}].'
        return json_error(400, "Bad Request", message)
    if body.get("marks") is not None and not isinstance(body["marks"], dict):
        message = '"marks" must be an object such as {"r1c1": "137"} when given.'
        return json_error(400, "Bad Request", message)
    return body


def _not_playable(game: Game) -> Response:
    """422 (503 when the solver gave up: another try may do) saying why it cannot be played."""
    response = jsonify(
        {
            "status": game.result.status,
            "puzzle": game.givens,
            **_variant_fields(game.geometry),
            "message": NOT_PLAYABLE[game.result.status],
            "share_url": variants.page_url(game.geometry, game.givens, external=True),
        }
    )
    response.status_code = 503 if game.result.status == "gave_up" else 422
    return response


def _read_entry_text(entries: Entries, text: str) -> None:
    """``entries`` as grid text (like a puzzle: ``0`` or ``.`` blank); givens must match."""
    geo = entries.geometry
    # One message, not one per stray character (as reading.read does).
    if len(text) > MAX_TEXT:
        message = f"entries: {len(text):,} characters is too long for a grid."
        entries.errors.append(PuzzleError("length", message))
        return
    try:
        grid = parse_puzzle(text, geo)
    except InvalidPuzzle as exc:
        for error in exc.errors:
            entries.errors.append(PuzzleError(error.code, "entries: " + error.message, error.cells))
        return
    changed = [
        c for c, (g, v) in enumerate(zip(entries.givens, grid, strict=True)) if g and v != g and v
    ]
    if changed:
        names = ", ".join(geo.cell_name(c) for c in changed)
        message = f"The entries change the givens at {names}; givens are locked."
        entries.errors.append(PuzzleError("conflict", message, tuple(changed)))
    entries.values = [0 if g else v for g, v in zip(entries.givens, grid, strict=True)]


def _read_marks(entries: Entries, name: Any, value: Any) -> None:
    geo = entries.geometry
    cell = _cell_index(geo, name)
    if cell is None:
        shown = str(name)[:20]
        message = f"marks: {shown!r} is not a cell of this grid (use names like r1c1)."
        entries.errors.append(PuzzleError("symbol", message))
    elif not isinstance(value, str) or len(value) > 2 * geo.size:
        message = f'marks: {geo.cell_name(cell)} needs a short string of symbols, such as "137".'
        entries.errors.append(PuzzleError("symbol", message, (cell,)))
    else:
        entries.add_marks(cell, value.replace(" ", "").replace(",", ""))


def _cell_index(geometry: Geometry, name: Any) -> int | None:
    """The index of a cell named ``r4c7`` (either case), or None."""
    if not isinstance(name, str) or len(name) > 8:
        return None
    text = name.strip().lower()
    row, sep, col = text[1:].partition("c")
    if not text.startswith("r") or not sep or not row.isdigit() or not col.isdigit():
        return None
    r, c = int(row), int(col)
    if not (1 <= r <= geometry.size and 1 <= c <= geometry.size):
        return None
    return (r - 1) * geometry.size + c - 1


def _variant_fields(geometry: Geometry) -> dict[str, str]:
    fields: dict[str, str] = {"variant": geometry.variant}
    if geometry.regions is not None:
        fields["regions"] = variants.canonical_regions(geometry)
    return fields


def _unprocessable(reading: Reading, geometry: Geometry | None) -> Response:
    """422 with every problem, naming the cells (like ``/api/solve``'s invalid answer)."""
    response = jsonify(
        {
            "status": "invalid",
            "puzzle": reading.canonical,
            "errors": error_json(reading.errors, geometry),
        }
    )
    response.status_code = 422
    return response


def _cells_json(geometry: Geometry, cells: Sequence[int]) -> list[dict[str, Any]]:
    return [{"cell": geometry.cell_name(c), "index": c} for c in cells]


def _answer(asked: PlayRequest, panel: Panel) -> dict[str, Any]:
    """The fields every answer shares: the game, the verdict, progress."""
    game, geo = asked.game, asked.game.geometry
    wrong = panel.cells if panel.kind == "wrong" else ()
    wrong_marks = panel.cells if panel.kind == "marks" else ()
    return {
        "status": game.result.status,  # "solved": as in /api/solve, the puzzle's outcome
        "puzzle": game.givens,
        **_variant_fields(geo),
        "kind": panel.kind,
        "wrong": _cells_json(geo, wrong),
        "wrong_marks": _cells_json(geo, wrong_marks),
        "filled": panel.filled,
        "cells": panel.total,
        "complete": panel.filled == panel.total,
        "solved": panel.kind == "solved",
    }


@bp.post(API_PREFIX + "/check")
def api_check() -> Response:
    """Which entries are wrong (cells, never digits), whether the grid is complete and right.

    ``reveal`` (a cell name such as ``r3c4``) adds that one cell's digit: the "Reveal a cell"
    button. Bounded like ``/api/solve``: one budgeted solve (cached), linear checks.
    """
    asked = _play_request()
    if isinstance(asked, Response):
        return asked
    game, geo = asked.game, asked.game.geometry
    body = _answer(asked, check_panel(game, asked.entries))
    reveal = asked.body.get("reveal")
    if reveal is not None:
        cell = _cell_index(geo, reveal)
        if cell is None:
            return json_error(400, "Bad Request", '"reveal" must name a cell, such as "r3c4".')
        if game.grid[cell]:
            message = f"{geo.cell_name(cell)} is a given: there is nothing to reveal."
            return json_error(400, "Bad Request", message)
        digit = geo.symbol(game.solution[cell])
        body["revealed"] = {"cell": geo.cell_name(cell), "index": cell, "digit": digit}
    return cache.no_store(jsonify(body))


@bp.post(API_PREFIX + "/hint")
def api_hint() -> Response:
    """The next logical step from the person's position (digits and pencil marks).

    Wrong entries or marks come first (``kind`` ``wrong`` / ``marks``: a step from them would
    mislead); ``next`` gives the steps up to the next placement (the last one places),
    ``stuck`` the cell the engine would guess at.
    """
    asked = _play_request()
    if isinstance(asked, Response):
        return asked
    game, geo = asked.game, asked.game.geometry
    panel = hint_panel(game, asked.entries, solving.hint_deadline())
    body = _answer(asked, panel)
    hint = panel.hint
    if hint is not None:
        body["steps"] = [lessons.step_json(i + 1, s, geo) for i, s in enumerate(hint.steps)]
        body["cut_short"] = hint.cut_short
        last = hint.last
        stuck = [hint.stuck_cell] if hint.stuck_cell is not None else []
        body["highlight"] = {
            "cells": list(last.cells) if last else stuck,
            "houses": sorted({c for h in last.houses for c in h.cells}) if last else [],
        }
        if hint.stuck_cell is not None:
            body["stuck"] = {
                "cell": geo.cell_name(hint.stuck_cell),
                "index": hint.stuck_cell,
                "candidates": "".join(geo.symbol(d) for d in hint.before.digits(hint.stuck_cell)),
            }
    return cache.no_store(jsonify(body))
