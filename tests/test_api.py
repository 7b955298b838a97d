"""The JSON API: /api/solve by GET and POST, its status codes, and JSON-only errors."""

from __future__ import annotations

from typing import Any

import pytest
from web_puzzles import CONFLICT, EASY, EASY_SOLUTION, IMPOSSIBLE, TWO_SOLUTIONS

from sudoku_web import create_app

FIELDS = {"status", "puzzle", "solution", "solutions", "errors", "stats", "share_url"}


def test_get_solves_and_returns_every_documented_field(client: Any) -> None:
    response = client.get("/api/solve", query_string={"puzzle": EASY.replace("0", ".")})
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert FIELDS <= body.keys()
    assert body["status"] == "solved"
    assert body["puzzle"] == EASY  # canonical, whatever the spelling sent
    assert body["solution"] == EASY_SOLUTION
    assert body["solutions"] == [EASY_SOLUTION]
    assert body["errors"] == []
    assert {"reduce_passes", "guesses", "backtracks", "elapsed_ms"} <= body["stats"].keys()
    assert body["share_url"] == f"http://localhost/p/{EASY}"


def test_post_json_body(client: Any) -> None:
    response = client.post("/api/solve", json={"puzzle": EASY})
    assert response.status_code == 200
    assert response.get_json()["solution"] == EASY_SOLUTION


def test_post_without_a_json_content_type_is_still_read_as_json(client: Any) -> None:
    response = client.post("/api/solve", data=f'{{"puzzle": "{EASY}"}}')
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("puzzle", "status", "check"),
    [
        (IMPOSSIBLE, "unsolvable", lambda b: b["solution"] is None and b["reason"]),
        (TWO_SOLUTIONS, "multiple", lambda b: len(b["solutions"]) == 2 and b["solution"] is None),
    ],
)
def test_every_solver_outcome_is_200(client: Any, puzzle: str, status: str, check: Any) -> None:
    response = client.get("/api/solve", query_string={"puzzle": puzzle})
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == status
    assert check(body)


def test_gave_up_is_200_with_the_reason() -> None:
    client = create_app({"TESTING": True, "SOLVE_MAX_NODES": 1}).test_client()
    body = client.get("/api/solve", query_string={"puzzle": "0" * 80 + "1"}).get_json()
    assert body["status"] == "gave_up"
    assert body["reason"] == "nodes"


@pytest.mark.parametrize(
    ("puzzle", "code", "cells", "canonical"),
    [
        ("123", "length", [], None),
        ("y" + EASY[1:], "symbol", ["r1c1"], None),
        (CONFLICT, "conflict", ["r1c1", "r1c2"], CONFLICT),
        ("." * 81, "empty", [], "0" * 81),
    ],
)
def test_invalid_puzzle_is_422_with_precise_errors(
    client: Any, puzzle: str, code: str, cells: list[str], canonical: str | None
) -> None:
    response = client.post("/api/solve", json={"puzzle": puzzle})
    assert response.status_code == 422
    body = response.get_json()
    assert body["status"] == "invalid"
    assert body["puzzle"] == canonical
    assert body["share_url"] is None
    error = body["errors"][0]
    assert error["code"] == code
    assert error["cells"] == cells
    assert error["message"]


def test_overlong_puzzle_is_one_422_message_not_one_per_character(client: Any) -> None:
    # In a body: a URL this long is refused earlier, with 414 (see test_app.py).
    body = client.post("/api/solve", json={"puzzle": "x" * 3000}).get_json()
    assert body["status"] == "invalid"
    assert [e["code"] for e in body["errors"]] == ["length"]


def test_conflict_message_names_both_cells_and_the_house(client: Any) -> None:
    body = client.get("/api/solve", query_string={"puzzle": CONFLICT}).get_json()
    assert body["errors"][0]["message"] == "r1c1 and r1c2 both hold 5 in row 1 and box 1."


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"data": "not json"}, "JSON object"),
        ({"json": ["a list"]}, "JSON object"),
        ({"json": {}}, '"puzzle"'),
        ({"json": {"puzzle": 5}}, '"puzzle"'),
    ],
    ids=["not-json", "not-an-object", "missing-field", "not-a-string"],
)
def test_malformed_post_is_400_json(client: Any, kwargs: dict[str, Any], fragment: str) -> None:
    response = client.post("/api/solve", **kwargs)
    assert response.status_code == 400
    body = response.get_json()
    assert body["status"] == "error" and body["code"] == 400
    assert fragment in body["message"]


def test_get_without_puzzle_is_400_json(client: Any) -> None:
    response = client.get("/api/solve")
    assert response.status_code == 400
    assert response.get_json()["status"] == "error"


def test_oversized_body_is_413_json(client: Any) -> None:
    response = client.post("/api/solve", json={"puzzle": "1" * 100_000})
    assert response.status_code == 413
    assert response.mimetype == "application/json"
    assert response.get_json()["code"] == 413


@pytest.mark.parametrize(
    ("method", "path", "status"), [("get", "/api/nope", 404), ("put", "/api/solve", 405)]
)
def test_errors_under_api_are_json_never_html(
    client: Any, method: str, path: str, status: int
) -> None:
    response = getattr(client, method)(path)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    assert response.get_json()["code"] == status


def test_500_under_api_is_json() -> None:
    app = create_app({"TESTING": False})

    @app.get("/api/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    app.logger.disabled = True
    response = app.test_client().get("/api/boom")
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    assert "secret internals" not in response.get_data(as_text=True)
