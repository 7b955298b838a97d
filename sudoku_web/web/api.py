"""The JSON API: ``GET /api/solve?puzzle=…`` and ``POST /api/solve`` with ``{"puzzle": "…"}``.

Same core path as the HTML pages (:mod:`sudoku_web.web.service`); only the presentation differs.
Status codes: 200 for any solver outcome (solved, multiple, unsolvable, gave_up), 400 for a
malformed request, 422 for an invalid puzzle, 413 for a body over ``MAX_CONTENT_LENGTH``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from ..core.board import Geometry, InvalidPuzzle
from . import cache, variants
from .service import (
    DoctorBudget,
    Reading,
    diagnose_result,
    error_json,
    read,
    result_json,
    suggest_for,
)

API_PREFIX = "/api"

bp = Blueprint("api", __name__, url_prefix=API_PREFIX)


def json_error(code: int, name: str, message: str) -> Response:
    """A JSON error body for a non-puzzle failure (400, 404, 405, 413, 500...)."""
    response = jsonify({"status": "error", "code": code, "error": name, "message": message})
    response.status_code = code
    return response


@dataclass(frozen=True)
class SolveRequest:
    """What a request asks to solve: the puzzle text, the variant and a jigsaw's regions."""

    puzzle: str
    variant: str | None = None
    regions: str | None = None


def _optional_str(body: dict[str, Any], name: str) -> str | None | Response:
    value = body.get(name)
    if value is None or isinstance(value, str):
        return value
    return json_error(400, "Bad Request", f'"{name}" must be a string when given.')


def _solve_request() -> SolveRequest | Response:
    """The request's puzzle, variant and regions, or a 400 response saying what is wrong."""
    if request.method == "GET":
        text = request.args.get("puzzle")
        if text is None:
            return json_error(400, "Bad Request", "Add the puzzle: /api/solve?puzzle=…")
        return SolveRequest(text, request.args.get("variant"), request.args.get("regions"))
    # force: curl -d without a Content-Type header is still JSON; silent: a parse failure is
    # ours to report as a 400 in JSON, not Werkzeug's HTML.
    body: Any = request.get_json(force=True, silent=True)
    if not isinstance(body, dict):
        return json_error(400, "Bad Request", 'Send a JSON object such as {"puzzle": "…"}.')
    text = body.get("puzzle")
    if not isinstance(text, str):
        return json_error(400, "Bad Request", 'The JSON object needs a "puzzle" string.')
    variant = _optional_str(body, "variant")
    if isinstance(variant, Response):
        return variant
    regions = _optional_str(body, "regions")
    if isinstance(regions, Response):
        return regions
    return SolveRequest(text, variant, regions)


@bp.route("/solve", methods=["GET", "POST"])
def solve() -> Response:
    """Solve the puzzle of the request and answer with the result as JSON.

    The size follows from the puzzle's length; ``variant`` picks the houses (``standard``,
    ``x``, ``hyper``, ``jigsaw`` with ``regions``). Unsolvable results carry the typo
    doctor's answer, ``multiple`` ones a suggested extra given.
    """
    asked = _solve_request()
    if isinstance(asked, Response):
        return asked
    try:
        geometry = variants.geometry_of(asked.variant, asked.puzzle, asked.regions)
    except InvalidPuzzle as exc:
        return _invalid(Reading(None, exc.errors), asked.variant)
    reading = read(asked.puzzle, geometry)
    if not reading.ok or reading.canonical is None:
        return _invalid(reading, geometry.variant, geometry)
    puzzle = reading.canonical
    doctor_budget = DoctorBudget.from_config(current_app.config)

    def build() -> Response:
        result = cache.cached_solve(puzzle, geometry)  # flags a deadline result no-store
        share_url = variants.page_url(geometry, puzzle, external=True)
        body = _with_variant(result_json(result, share_url), geometry)
        diagnosis = diagnose_result(result, doctor_budget)
        if diagnosis is not None:
            body["doctor"] = diagnosis.as_dict(geometry)
        if result.status == "multiple":
            suggestion = suggest_for(result, doctor_budget)
            body["suggestion"] = None if suggestion is None else suggestion.as_dict(geometry)
        response = jsonify(body)
        if diagnosis is not None and not diagnosis.complete:
            response.cache_control.no_store = True  # the doctor's deadline: load-dependent
        return response

    if request.method != "GET":
        return build()  # POST: never marked cacheable, but solved results come from the LRU
    # A GET is a pure function of its URL: ETag, Cache-Control: public, 304, response LRU.
    key = (cache.key_for(puzzle, geometry), doctor_budget)
    return cache.cacheable("api", key, build)


def _with_variant(body: dict[str, Any], geometry: Geometry) -> dict[str, Any]:
    """The body with ``variant`` (and a jigsaw's canonical ``regions``) after ``puzzle``."""
    out: dict[str, Any] = {}
    for key, value in body.items():
        out[key] = value
        if key == "puzzle":
            out["variant"] = geometry.variant
            if geometry.variant == "jigsaw":
                out["regions"] = variants.canonical_regions(geometry)
    return out


def _invalid(reading: Reading, variant: str | None, geometry: Geometry | None = None) -> Response:
    """422 with every problem; ``puzzle`` is the canonical givens when the text parsed."""
    body: dict[str, Any] = {
        "status": "invalid",
        "puzzle": reading.canonical,
        "variant": geometry.variant if geometry is not None else variant,
        "solution": None,
        "solutions": [],
        "errors": error_json(reading.errors, geometry),
        "stats": {},
        "share_url": None,
    }
    response = jsonify(body)
    response.status_code = 422
    return response
