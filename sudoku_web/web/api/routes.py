"""The JSON API: ``/api/solve`` and ``/api/explain``, asked by ``GET ?puzzle=…`` or ``POST``
with a JSON object ``{"puzzle": "…", "variant": "x", "regions": "…"}``; and ``POST
/api/read``, a photo of a puzzle (multipart, file field ``photo``) read into its givens by
:mod:`sudoku_web.web.puzzles.photo_upload` (its docstring has that route's status codes).

Same core path as the HTML pages (:mod:`sudoku_web.web.puzzles.request_path` reads the request,
:mod:`sudoku_web.web.runtime.solving` calls the core); only the presentation differs. Status codes:
200 for any solver outcome (solved, multiple, unsolvable, gave_up), 400 for a malformed
request, 422 for an invalid puzzle, 413 for a body over ``MAX_CONTENT_LENGTH``.

A GET is a pure function of its URL: ETag, ``Cache-Control: public``, 304 and the stored
response. A POST is never marked cacheable, but its solve, doctor and explanation still come
from the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext
from werkzeug.http import HTTP_STATUS_CODES

from ...core.board import Geometry, InvalidPuzzle, parse_puzzle
from ...core.cages import SumsMismatch
from ...core.logic import pencil_marks
from ...core.rules import spelling as rule_spelling
from ...core.solver import SolveResult
from ..puzzles import photo_upload, sum_doctor, urls
from ..puzzles.core_names import said
from ..puzzles.puzzle_text import Reading, read
from ..puzzles.request_path import API_PREFIX, error_json, invalid_json, read_api_request
from ..render import teaching_display
from ..runtime import cache, solving

bp = Blueprint("api", __name__, url_prefix=API_PREFIX)

#: The empty fields of each endpoint's 422 answer, in its order (``errors`` is filled in).
_INVALID_FIELDS: dict[str, dict[str, Any]] = {
    "solve": {"solution": None, "solutions": [], "errors": [], "stats": {}, "share_url": None},
    "explain": {"errors": [], "steps": []},
}


def _read(endpoint: str) -> tuple[Geometry, str] | Response:
    """The request's geometry and canonical puzzle, or the 400/422 answer."""
    asked = read_api_request(f"{API_PREFIX}/{endpoint}")
    if isinstance(asked, Response):
        return asked
    variant = {"variant": asked.variant} if endpoint == "solve" else {}
    try:
        geometry = asked.geometry()
    except InvalidPuzzle as exc:
        fields = variant | _INVALID_FIELDS[endpoint]
        if isinstance(exc, SumsMismatch) and endpoint == "solve":  # which sum was mistyped
            sums = sum_doctor.for_mismatch(exc, asked.variant, asked.puzzle, asked.regions)
            if sums is not None:
                fields = fields | {"doctor": sums.as_dict()}
        return invalid_json(Reading(None, exc.errors), None, fields)
    reading = read(asked.givens(geometry), geometry)
    if not reading.ok or reading.canonical is None:
        if endpoint == "solve":
            variant = {"variant": geometry.variant}
        return invalid_json(reading, geometry, variant | _INVALID_FIELDS[endpoint])
    return geometry, reading.canonical


def _answer(kind: str, key: str, build: Callable[[], Response]) -> Response:
    if request.method != "GET":
        return cache.no_store_if_marked(build())
    return cache.cacheable(kind, key, build)


@bp.route("/solve", methods=["GET", "POST"])
def solve() -> Response:
    """Solve the puzzle of the request and answer with the result as JSON.

    The size follows from the puzzle's length; ``variant`` picks the houses (any key of the
    variant registry, with ``regions`` for a jigsaw). Unsolvable results carry the typo
    doctor's answer, ``multiple`` ones a suggested extra given. On a board with cages the
    doctor's answer also has ``sum_fixes``, the sums that would make the puzzle proper, in an
    unsolvable result and in the 422 of cages whose sums miss the grid's total.
    """
    found = _read("solve")
    if isinstance(found, Response):
        return found
    geometry, puzzle = found
    key = cache.solve_key(puzzle, geometry)

    def build() -> Response:
        result = solving.cached_solve(puzzle, geometry, key)
        share_url = urls.page_url(geometry, puzzle, external=True)
        body = result_json(result, share_url, geometry)
        diagnosis = solving.cached_diagnosis(result, key)
        if diagnosis is not None:
            body["doctor"] = diagnosis.as_dict(geometry)
        sums = sum_doctor.advice(geometry, puzzle) if result.status == "unsolvable" else None
        if sums is not None:  # a board with cages: which cage's sum was probably mistyped
            doctor = body.setdefault("doctor", {"complete": True})
            doctor.update(sum_fixes=sums.as_dict()["sum_fixes"])
            doctor["complete"] = doctor["complete"] and sums.complete
        if result.status == "multiple":
            answer = solving.cached_suggestion(result, key)
            suggestion = answer.suggestion if answer is not None else None
            body["suggestion"] = None if suggestion is None else suggestion.as_dict(geometry)
        return jsonify(body)

    return _answer("api", cache.text_key(key.text, solving.doctor_budget().key), build)


def result_json(result: SolveResult, share_url: str | None, geometry: Geometry) -> dict[str, Any]:
    """The answer for a solve: status, canonical puzzle, variant (and a jigsaw's regions),
    solution(s), errors, stats, share link."""
    body: dict[str, Any] = {
        "status": result.status,
        "puzzle": result.puzzle.replace(".", "0") if result.puzzle else None,
    }
    body.update(variant_json(geometry))
    body.update(
        solution=result.solution,
        solutions=list(result.solutions),
        errors=error_json(result.errors, result.geometry),
        stats=stats_json(result),
        share_url=share_url,
    )
    if result.reason:
        body["reason"] = result.reason
    return body


def variant_json(geometry: Geometry) -> dict[str, Any]:
    """A board's fields in an answer: variant, a region map, cages and rules when it has them."""
    out: dict[str, Any] = {"variant": geometry.variant}
    if geometry.regions is not None:
        out["regions"] = urls.canonical_regions(geometry)
    if geometry.cages:
        out["cages"] = urls.cages_json(geometry)
    if geometry.rules:
        out["rules"] = rule_spelling.spell(geometry.rules, geometry.size)
    return out


def stats_json(result: SolveResult) -> dict[str, Any]:
    """The solver's statistics as a JSON object (every field the engine reports)."""
    stats = result.stats
    fields = getattr(stats, "__dataclass_fields__", {})
    return {name: getattr(stats, name) for name in fields}


@bp.route("/explain", methods=["GET", "POST"])
def explain() -> Response:
    """The logic solver's steps, grades and technique counts for a puzzle, as JSON, with the
    pencil marks after the first reduce and the engine's (capped) search story.

    Asked like ``/api/solve`` (``puzzle``, ``variant``, ``regions``; GET or a JSON body).
    """
    found = _read("explain")
    if isinstance(found, Response):
        return found
    geometry, puzzle = found
    key = cache.solve_key(puzzle, geometry)
    text = cache.text_key(key.text, solving.teach_budget().key)
    return _answer("api-explain", text, lambda: jsonify(explanation_body(geometry, puzzle, key)))


def explanation_body(geometry: Geometry, puzzle: str, key: cache.SolveKey) -> dict[str, Any]:
    """``/api/explain``'s answer: outcome, steps and grades, links, pencil marks, search."""
    result = solving.cached_solve(puzzle, geometry, key)
    body: dict[str, Any] = {"status": result.status, "puzzle": puzzle}
    body.update(variant_json(geometry))
    explanation = solving.explain_result(result, geometry)
    if explanation is None:
        body.update(logic=None, grade=None, technique_counts={}, steps=[])
        body["message"] = gettext("Steps are shown for puzzles with exactly one solution.")
    else:
        body.update(teaching_display.explanation_json(explanation, result.stats, said))
    body["steps_url"] = urls.teach_url("steps", geometry, puzzle, _external=True)
    grid = parse_puzzle(puzzle, geometry)
    marks = pencil_marks(grid, geometry, reduce=True)
    body["candidates"] = teaching_display.candidates_json(geometry, marks)
    body["search"] = teaching_display.trace_json(
        solving.search_story(grid, geometry), geometry, said
    )
    return body


@bp.post("/read")
def read_photo() -> Response:
    """The givens read from a photo, for a person to check: ``200`` with ``puzzle`` and the
    cells to check (``uncertain``, ``changed``); ``422`` ``unreadable`` when no grid was found;
    otherwise the error (``400``, ``413``, ``415``, ``429``) with ``reason`` naming it."""
    answer = photo_upload.read_upload()
    if answer.reading is not None:
        response = jsonify(photo_upload.reading_json(answer.reading))
    elif answer.status == 422:
        response = jsonify(
            {"status": "unreadable", "reason": answer.code, "message": answer.message}
        )
        response.status_code = 422
    else:  # the API's error shape, plus the reason (a PhotoError code, no_photo, busy ...)
        body: dict[str, Any] = {
            "status": "error",
            "code": answer.status,
            "error": HTTP_STATUS_CODES.get(answer.status, "Error"),
            "message": answer.message,
            "reason": answer.code,
        }
        response = jsonify(body)
        response.status_code = answer.status
    cache.no_store(response)
    if answer.status == 429:
        response.headers["Retry-After"] = str(photo_upload.RETRY_AFTER_S)
    return response
