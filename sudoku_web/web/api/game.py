"""The play page's JSON: ``POST /api/check`` and ``POST /api/hint``.

==================================  ===============================================================
``POST /api/check``                 which entries are wrong, whether the grid is complete, and
                                    (``reveal``) one cell's digit
``POST /api/hint``                  the next logical step from the person's digits *and* pencil
                                    marks
==================================  ===============================================================

The game (entries, pencil marks, what Check and Hint answer) is the core's
(:mod:`sudoku_web.core.game`); this module reads a JSON request into it and answers in JSON.
Nothing is kept on the server: each request sends the entries it asks about. A reveal is a
field of ``/api/check`` (one cell's digit per request, never more).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from flask import Response, jsonify, request
from flask_babel import gettext, ngettext

from ...core.board import Geometry, InvalidPuzzle, PuzzleError, parse_puzzle
from ...core.game import Entries, Game, Panel, check_panel, hint_panel
from ..puzzles import urls
from ..puzzles.core_names import core_name, core_name_in_text, problem_text, said
from ..puzzles.games import NOT_PLAYABLE, game_for
from ..puzzles.puzzle_text import MAX_TEXT, Reading, read
from ..puzzles.request_path import ApiRequest, error_json, json_error, rules_problem
from ..render import teaching_display
from ..runtime import cache, solving
from ..runtime.languages import format_number
from .routes import bp, variant_json

# A request's entries and marks are reported with at most this many problems (a grid of
# stray characters would otherwise get one line per cell).
MAX_ERRORS: Final = 20


@dataclass(frozen=True)
class PlayRequest:
    """A JSON request about a game: the game, and what the person has written."""

    game: Game
    entries: Entries
    body: Mapping[str, Any]


def _play_request() -> PlayRequest | Response:
    """Read ``{"puzzle", "variant", "regions", "cages", "rules", "fpuzzles", "entries",
    "marks"}`` (the board as :class:`~sudoku_web.web.puzzles.request_path.ApiRequest` reads
    it); a response naming the problem otherwise (400/422, or 200 ``gave_up``)."""
    body = _json_object()
    if isinstance(body, Response):
        return body
    asked = ApiRequest(
        body["puzzle"],
        body.get("variant"),
        body.get("regions"),
        body.get("cages"),
        body.get("rules"),
        body.get("fpuzzles"),
    )
    try:
        geometry = asked.geometry()
        puzzle = asked.givens(geometry)
    except InvalidPuzzle as exc:
        return _unprocessable(Reading(None, exc.errors), None)
    reading = read(puzzle, geometry)
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
            message = ngettext(
                "… and %(count)s more problem like these.",
                "… and %(count)s more problems like these.",
                more,
                count=format_number(more),
            )
            errors.append(PuzzleError("symbol", message))
        return _unprocessable(Reading(reading.grid, tuple(errors)), geometry)
    game = game_for(geometry, reading.canonical, reading.grid)
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
        return json_error(
            400, "Bad Request", gettext("Send a JSON object such as %(example)s.", example=example)
        )
    if body.get("puzzle") is None and body.get("fpuzzles"):
        body["puzzle"] = ""  # the f-puzzles puzzle's own givens
    if problem := rules_problem(body.get("rules"), body.get("fpuzzles"), body.get("cages")):
        return json_error(400, "Bad Request", problem)
    if not isinstance(body.get("puzzle"), str):
        return json_error(
            400, "Bad Request", gettext("The JSON object needs a %(key)s string.", key='"puzzle"')
        )
    for key in ("variant", "regions", "entries"):
        if body.get(key) is not None and not isinstance(body[key], str):
            return json_error(
                400, "Bad Request", gettext("%(key)s must be a string when given.", key=f'"{key}"')
            )
    if body.get("cages") is not None and not isinstance(body["cages"], str | list):
        message = gettext(
            "%(key)s must be a list such as %(example)s.",
            key='"cages"',
            example='[{"sum": 15, "cells": ["r1c1", "r1c2"]}]',
        )
        return json_error(400, "Bad Request", message)
    if body.get("marks") is not None and not isinstance(body["marks"], dict):
        message = gettext(
            "%(key)s must be an object such as %(example)s when given.",
            key='"marks"',
            example='{"r1c1": "137"}',
        )
        return json_error(400, "Bad Request", message)
    return body


def _not_playable(game: Game) -> Response:
    """Why the puzzle cannot be played: 422 for a puzzle without exactly one solution; 200
    when the solver gave up within its bounds (as ``/api/solve`` answers ``gave_up``: a
    bound reached by design, not a fault of the server or of the puzzle)."""
    response = jsonify(
        {
            "status": game.result.status,
            "puzzle": game.givens,
            **variant_json(game.geometry),
            "message": str(NOT_PLAYABLE[game.result.status]),
            "share_url": urls.page_url(game.geometry, game.givens, external=True),
        }
    )
    response.status_code = 200 if game.result.status == "gave_up" else 422
    return response


def _read_entry_text(entries: Entries, text: str) -> None:
    """``entries`` as grid text (like a puzzle: ``0`` or ``.`` blank); givens must match."""
    geo = entries.geometry
    # One message, not one per stray character (as puzzle_text.read does).
    if len(text) > MAX_TEXT:
        message = gettext(
            "entries: %(length)s characters is too long for a grid.",
            length=format_number(len(text)),
        )
        entries.errors.append(PuzzleError("length", message))
        return
    try:
        grid = parse_puzzle(text, geo)
    except InvalidPuzzle as exc:
        for error in exc.errors:
            message = gettext("entries: %(problem)s", problem=problem_text(error))
            entries.errors.append(PuzzleError(error.code, message, error.cells))
        return
    changed = [
        c for c, (g, v) in enumerate(zip(entries.givens, grid, strict=True)) if g and v != g and v
    ]
    if changed:
        names = ", ".join(geo.cell_name(c) for c in changed)
        message = gettext(
            "The entries change the givens at %(cells)s; givens are locked.", cells=names
        )
        entries.errors.append(PuzzleError("conflict", message, tuple(changed)))
    entries.values = [0 if g else v for g, v in zip(entries.givens, grid, strict=True)]


def _read_marks(entries: Entries, name: Any, value: Any) -> None:
    geo = entries.geometry
    cell = _cell_index(geo, name)
    if cell is None:
        shown = str(name)[:20]
        message = gettext(
            "marks: %(name)s is not a cell of this grid (use names like r1c1).", name=repr(shown)
        )
        entries.errors.append(PuzzleError("symbol", message))
    elif not isinstance(value, str) or len(value) > 2 * geo.size:
        message = gettext(
            "marks: %(cell)s needs a short string of symbols, such as %(example)s.",
            cell=geo.cell_name(cell),
            example='"137"',
        )
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
        **variant_json(geo),
        "kind": panel.kind,
        "wrong": _cells_json(geo, wrong),
        "wrong_marks": _cells_json(geo, wrong_marks),
        "filled": panel.filled,
        "cells": panel.total,
        "complete": panel.filled == panel.total,
        "solved": panel.kind == "solved",
    }


@bp.post("/check")
def check() -> Response:
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
            message = gettext(
                "%(key)s must name a cell, such as %(example)s.", key='"reveal"', example='"r3c4"'
            )
            return json_error(400, "Bad Request", message)
        if game.grid[cell]:
            message = gettext(
                "%(cell)s is a given: there is nothing to reveal.", cell=geo.cell_name(cell)
            )
            return json_error(400, "Bad Request", message)
        digit = geo.symbol(game.solution[cell])
        body["revealed"] = {"cell": geo.cell_name(cell), "index": cell, "digit": digit}
    return cache.no_store(jsonify(body))


@bp.post("/hint")
def hint() -> Response:
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
        body["steps"] = [
            _step_words(teaching_display.step_json(i + 1, s, geo, said))
            for i, s in enumerate(hint.steps)
        ]
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


def _step_words(step: dict[str, Any]) -> dict[str, Any]:
    """A hint step's JSON with its names in the request's language, as the play page's
    script shows them: ``technique_name`` as a heading writes it, ``technique_in_text`` and
    ``grade_in_text`` as a sentence does (``technique`` and ``grade`` stay the core's own)."""
    step["technique_name"] = core_name(step["technique"])
    step["technique_in_text"] = core_name_in_text(step["technique"])
    step["grade_in_text"] = core_name_in_text(step["grade"])
    return step
