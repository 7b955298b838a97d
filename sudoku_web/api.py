"""The JSON API: ``GET /api/solve?puzzle=…`` and ``POST /api/solve`` with ``{"puzzle": "…"}``.

Same core path as the HTML pages (:mod:`sudoku_web.service`); only the presentation differs.
Status codes: 200 for any solver outcome (solved, multiple, unsolvable, gave_up), 400 for a
malformed request, 422 for an invalid puzzle, 413 for a body over ``MAX_CONTENT_LENGTH``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from .board import standard
from .service import Budget, Reading, error_json, read, result_json, solve_puzzle

API_PREFIX = "/api"

bp = Blueprint("api", __name__, url_prefix=API_PREFIX)


def json_error(code: int, name: str, message: str) -> Response:
    """A JSON error body for a non-puzzle failure (400, 404, 405, 413, 500...)."""
    response = jsonify({"status": "error", "code": code, "error": name, "message": message})
    response.status_code = code
    return response


def _puzzle_text() -> str | Response:
    """The puzzle text of the request, or a 400 response saying what is wrong with it."""
    if request.method == "GET":
        text = request.args.get("puzzle")
        if text is None:
            return json_error(400, "Bad Request", "Add the puzzle: /api/solve?puzzle=…")
        return text
    # force: curl -d without a Content-Type header is still JSON; silent: a parse failure is
    # ours to report as a 400 in JSON, not Werkzeug's HTML.
    body: Any = request.get_json(force=True, silent=True)
    if not isinstance(body, dict):
        return json_error(400, "Bad Request", 'Send a JSON object such as {"puzzle": "…"}.')
    text = body.get("puzzle")
    if not isinstance(text, str):
        return json_error(400, "Bad Request", 'The JSON object needs a "puzzle" string.')
    return text


@bp.route("/solve", methods=["GET", "POST"])
def solve() -> Response:
    """Solve the puzzle of the request and answer with the result as JSON."""
    text = _puzzle_text()
    if isinstance(text, Response):
        return text
    geometry = standard(9)
    reading = read(text, geometry)
    if not reading.ok or reading.canonical is None:
        return _invalid(reading)
    puzzle = reading.canonical
    result = solve_puzzle(puzzle, Budget.from_config(current_app.config), geometry)
    share_url = url_for("web.puzzle", puzzle=puzzle, _external=True)
    return jsonify(result_json(result, share_url))


def _invalid(reading: Reading) -> Response:
    """422 with every problem; ``puzzle`` is the canonical givens when the text parsed."""
    body: dict[str, Any] = {
        "status": "invalid",
        "puzzle": reading.canonical,
        "solution": None,
        "solutions": [],
        "errors": error_json(reading.errors),
        "stats": {},
        "share_url": None,
    }
    response = jsonify(body)
    response.status_code = 422
    return response
