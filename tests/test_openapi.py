"""``docs/openapi.json`` describes the JSON API the app serves: the same ``/api/*`` routes with
the same methods, each status code a request gets listed for its route, and the answers' keys
(nested ones included) the ones its response schema lists, required keys present.

The check is structural (types, keys, enums, ``oneOf``, ``$ref``), enough to hold the
description to the code without a schema library as a dependency."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from sudoku_web import create_app

ROOT = Path(__file__).resolve().parent.parent
SPEC: dict[str, Any] = json.loads((ROOT / "docs/openapi.json").read_text(encoding="utf-8"))

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MULTIPLE = "123456789" + "0" * 72
UNSOLVABLE = "12345678" + "0" * 18 + "9" + "0" * 54  # r1c9 can hold nothing
CONFLICT = "55" + "0" * 79
JIGSAW = "ABBBBBAAABCDAEEECDAEFCCDEEFCCDFFFFDD"
PHOTO = ROOT / "tests/data/photos/image109.jpg"
# A published puzzle with rules (arrows, thermometers, anti-king): its f-puzzles load= string,
# and the same board in sudoku-web's rules spelling with its givens.
_RULES_ROW = json.loads((ROOT / "tests/data/variants_fpuzzles.jsonl").read_text().split("\n")[0])
FPUZZLES = _RULES_ROW["load"]
RULES_PUZZLE = "0" * 22 + "6" + "0" * 15 + "5010400" + "0" * 13 + "3" + "0" * 22
RULES = (
    "ar_25_25364748.ar_54_54433222.ar_56_56677888.ar_73_738495.ar_85_85746362.ki."
    "th_45362728.th_52433424.th_58677686.th_65748382"
)

TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
}


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        schema = SPEC["components"]["schemas"][name]
    return schema


def mismatches(value: Any, schema: dict[str, Any], where: str = "$") -> Iterator[str]:
    """Where ``value`` does not have the shape ``schema`` describes (empty when it does)."""
    schema = _resolve(schema)
    if "oneOf" in schema:
        tries = [list(mismatches(value, option, where)) for option in schema["oneOf"]]
        if all(tries):
            yield f"{where}: fits no option ({min(tries, key=len)})"
        return
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        is_bool = isinstance(value, bool)
        if not any(isinstance(value, TYPES[t]) and (t == "boolean" or not is_bool) for t in names):
            yield f"{where}: {type(value).__name__} is not {types}"
            return
    if "const" in schema and value != schema["const"]:
        yield f"{where}: {value!r} is not {schema['const']!r}"
    if "enum" in schema and value not in schema["enum"]:
        yield f"{where}: {value!r} is not one of {schema['enum']}"
    if isinstance(value, dict):
        yield from _object_mismatches(value, schema, where)
    if isinstance(value, list) and "items" in schema:
        for n, item in enumerate(value):
            yield from mismatches(item, schema["items"], f"{where}[{n}]")


def _object_mismatches(value: dict[str, Any], schema: dict[str, Any], where: str) -> Iterator[str]:
    """Required keys missing, keys not described (when it allows none), and each key's value."""
    props = schema.get("properties", {})
    yield from (f"{where}: no {key!r}" for key in schema.get("required", ()) if key not in value)
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in props:
            yield from mismatches(item, props[key], f"{where}.{key}")
        elif extra is False:
            yield f"{where}: {key!r} is not in the description"
        elif isinstance(extra, dict):
            yield from mismatches(item, extra, f"{where}.{key}")


def _app_routes(app: Flask) -> dict[str, set[str]]:
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            methods = (rule.methods or set()) - {"HEAD", "OPTIONS"}
            routes.setdefault(rule.rule, set()).update(m.lower() for m in methods)
    return routes


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_the_description_is_openapi_3_1() -> None:
    assert SPEC["openapi"].startswith("3.1")
    assert all(path.startswith("/api/") for path in SPEC["paths"])


def test_every_api_route_is_described_with_its_methods_and_nothing_else(app: Flask) -> None:
    described = {path: set(ops) for path, ops in SPEC["paths"].items()}
    assert described == _app_routes(app)


def test_every_reference_resolves() -> None:
    text = json.dumps(SPEC)
    names = {part.split('"')[0] for part in text.split("#/components/schemas/")[1:]}
    assert names <= set(SPEC["components"]["schemas"])


def _check(response: TestResponse, path: str, method: str) -> dict[str, Any]:
    """The answer, after checking that the description lists its status and shape."""
    responses = SPEC["paths"][path][method]["responses"]
    status = str(response.status_code)
    assert status in responses, f"{method.upper()} {path} answered {status}, not described"
    body = response.get_json()
    schema = responses[status]["content"]["application/json"]["schema"]
    problems = list(mismatches(body, schema))
    assert not problems, f"{method.upper()} {path} {status}: {problems}"
    return body


# (method, path, how to ask, the status and answer expected): the outcomes the docs describe.
CASES: list[tuple[str, str, dict[str, Any], int, str]] = [
    ("get", "/api/solve", {"query_string": {"puzzle": PUZZLE}}, 200, "solved"),
    ("post", "/api/solve", {"json": {"puzzle": HARD}}, 200, "solved"),
    ("post", "/api/solve", {"json": {"puzzle": MULTIPLE}}, 200, "multiple"),
    ("post", "/api/solve", {"json": {"puzzle": UNSOLVABLE}}, 200, "unsolvable"),
    ("post", "/api/solve", {"json": {"puzzle": CONFLICT}}, 422, "invalid"),
    ("post", "/api/solve", {"json": {"puzzle": PUZZLE, "variant": "nope"}}, 422, "invalid"),
    ("post", "/api/solve", {"json": {"puzzle": 5}}, 400, "error"),
    ("get", "/api/solve", {}, 400, "error"),
    (
        "get",
        "/api/solve",
        {"query_string": {"variant": "jigsaw", "regions": JIGSAW, "puzzle": "3" + "0" * 35}},
        200,
        "multiple",
    ),
    ("get", "/api/explain", {"query_string": {"puzzle": HARD}}, 200, "solved"),
    ("post", "/api/explain", {"json": {"puzzle": MULTIPLE}}, 200, "multiple"),
    ("post", "/api/explain", {"json": {"puzzle": CONFLICT}}, 422, "invalid"),
    (
        "get",
        "/api/generate",
        {"query_string": {"variant": "x", "grade": "Hard", "seed": "42"}},
        200,
        "ok",
    ),
    ("get", "/api/generate", {"query_string": {"variant": "jigsaw", "seed": "1"}}, 200, "ok"),
    ("get", "/api/generate", {"query_string": {"variant": "nope"}}, 400, "error"),
    ("get", "/api/generate", {"query_string": {"variant": "4x4", "grade": "Hard"}}, 422, "error"),
    (
        "post",
        "/api/check",
        {
            "json": {
                "puzzle": PUZZLE,
                "entries": "5" + PUZZLE[1:],
                "marks": {"r1c2": "18"},
                "reveal": "r1c4",
            }
        },
        200,
        "solved",
    ),
    ("post", "/api/check", {"json": {"puzzle": PUZZLE, "reveal": "r1c3"}}, 400, "error"),
    ("post", "/api/check", {"json": {"puzzle": PUZZLE, "entries": "zz"}}, 422, "invalid"),
    ("post", "/api/check", {"json": {"puzzle": MULTIPLE}}, 422, "multiple"),
    ("post", "/api/hint", {"json": {"puzzle": HARD}}, 200, "solved"),
    ("post", "/api/hint", {"json": {"puzzle": PUZZLE, "entries": "5" + PUZZLE[1:]}}, 200, "solved"),
    ("post", "/api/hint", {"data": "not json"}, 400, "error"),
    (
        "post",
        "/api/check",
        {"json": {"puzzle": RULES_PUZZLE, "rules": RULES, "entries": "1" + RULES_PUZZLE[1:]}},
        200,
        "solved",
    ),
    ("post", "/api/check", {"json": {"puzzle": RULES_PUZZLE, "rules": "th_11"}}, 422, "invalid"),
    ("post", "/api/hint", {"json": {"fpuzzles": FPUZZLES}}, 200, "solved"),
    ("post", "/api/hint", {"json": {"puzzle": RULES_PUZZLE, "rules": 5}}, 400, "error"),
    (
        "post",
        "/api/solve",
        {"data": "x" * 20_000, "content_type": "application/json"},
        413,
        "error",
    ),
    ("get", "/api/generate", {"query_string": {"seed": "x" * 3_000}}, 414, "error"),
]


@pytest.mark.parametrize(("method", "path", "ask", "status", "outcome"), CASES)
def test_answers_have_the_described_shape(
    client: FlaskClient, method: str, path: str, ask: dict[str, Any], status: int, outcome: str
) -> None:
    response = getattr(client, method)(path, **ask)
    assert response.status_code == status
    assert _check(response, path, method)["status"] == outcome


def test_the_optional_parts_of_an_answer_are_described(client: FlaskClient) -> None:
    """The doctor, the suggestion, a hint's steps and a reveal each appear in a real answer."""
    unsolvable = _check(
        client.post("/api/solve", json={"puzzle": UNSOLVABLE}), "/api/solve", "post"
    )
    assert unsolvable["doctor"]["conflict"]
    assert "suggestion" in _check(
        client.post("/api/solve", json={"puzzle": MULTIPLE}), "/api/solve", "post"
    )
    hint = _check(client.post("/api/hint", json={"puzzle": HARD}), "/api/hint", "post")
    assert hint["kind"] == "next" and hint["steps"]
    asked = {"puzzle": PUZZLE, "reveal": "r1c1"}
    check = _check(client.post("/api/check", json=asked), "/api/check", "post")
    assert check["revealed"]["cell"] == "r1c1"
    # A board with rules is named in the answer by its rules.
    asked = {"puzzle": RULES_PUZZLE, "rules": RULES}
    check = _check(client.post("/api/check", json=asked), "/api/check", "post")
    assert check["rules"] == RULES and check["puzzle"] == RULES_PUZZLE


def test_a_solve_that_gave_up_is_described_for_check_and_hint() -> None:
    """The solver's bound reached is a 200 ``gave_up`` on every route, as /api/solve's."""
    client = create_app({"TESTING": True, "SOLVE_MAX_NODES": 1}).test_client()
    no_singles = "008400030000300000900001574790008000000007005140000020009060002050000400000090056"
    for path in ("/api/solve", "/api/check", "/api/hint"):
        response = client.post(path, json={"puzzle": no_singles})
        assert response.status_code == 200
        assert _check(response, path, "post")["status"] == "gave_up"


def test_a_photo_is_read_and_a_non_image_refused(client: FlaskClient) -> None:
    def send(data: bytes, name: str) -> TestResponse:
        files = {"photo": (io.BytesIO(data), name)}
        return client.post("/api/read", data=files, content_type="multipart/form-data")

    assert _check(send(PHOTO.read_bytes(), "p.jpg"), "/api/read", "post")["status"] == "read"
    assert _check(send(b"hello", "p.txt"), "/api/read", "post")["reason"] == "not_image"
    assert _check(client.post("/api/read", data={}), "/api/read", "post")["reason"] == "no_photo"
    small = create_app({"TESTING": True, "PHOTO_MAX_PIXELS": 100_000}).test_client()
    files = {"photo": (io.BytesIO(PHOTO.read_bytes()), "p.jpg")}
    refused = small.post("/api/read", data=files, content_type="multipart/form-data")
    assert _check(refused, "/api/read", "post")["reason"] == "too_large"


def test_a_check_detects_a_key_the_description_does_not_list() -> None:
    answer = {"status": "error", "code": 400, "error": "Bad Request", "message": "m", "x": 1}
    assert list(mismatches(answer, {"$ref": "#/components/schemas/Error"}))
    del answer["x"], answer["message"]
    assert list(mismatches(answer, {"$ref": "#/components/schemas/Error"}))
