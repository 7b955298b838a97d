"""The assembled app (create_app): config sources, /healthz, security headers on every kind of
response, HTTP caching of share links and API GETs, the worker's LRU, and the request limits.

test_security.py and test_cache.py test those modules on tiny apps; this file checks that
create_app wires them so they hold for the real routes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_puzzles import CONFLICT, EASY, TWO_SOLUTIONS

from sudoku_web import create_app
from sudoku_web.core import solver
from sudoku_web.core.board import standard
from sudoku_web.core.solver import SolveResult
from sudoku_web.web.runtime import budgets, cache, solving

TOP95_FILE = Path(__file__).resolve().parent / "data" / "top95.txt"
TOP95 = [line.strip() for line in TOP95_FILE.read_text().splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No SUDOKU_WEB_* / FLASK_* variables from the shell leak into these apps."""
    import os

    for name in list(os.environ):
        if name.startswith(("SUDOKU_WEB_", "FLASK_")):
            monkeypatch.delenv(name)
    yield


def _assert_security_headers(response: Any) -> None:
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"]
    assert "camera=()" in response.headers["Permissions-Policy"]


# ---- Configuration ---------------------------------------------------------------------------


def test_production_safe_defaults() -> None:
    app = create_app()
    assert app.debug is False and not app.config.get("TESTING")
    assert app.config["SECRET_KEY"]  # random per process, never a literal
    assert app.config["MAX_CONTENT_LENGTH"] == 16 * 1024
    # One request holds a worker a fraction of a second at most.
    assert app.config["SOLVE_MAX_NODES"] == solver.DEFAULT_MAX_NODES
    assert app.config["SOLVE_DEADLINE_MS"] <= 500


def test_sudoku_web_prefix_configures_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_WEB_SOLVE_DEADLINE_MS", "100")
    monkeypatch.setenv("SUDOKU_WEB_CACHE_MAX_BYTES", "7000")
    app = create_app()
    assert app.config["SOLVE_DEADLINE_MS"] == 100
    store = cache.get_store(app)
    assert isinstance(store, cache.MemoryStore) and store.max_bytes == 7000
    assert budgets.Budget.from_config(app.config).deadline_ms == 100


def test_flask_prefix_works_and_sudoku_web_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLASK_SOLVE_MAX_NODES", "1000")
    monkeypatch.setenv("FLASK_MAX_URL_LENGTH", "500")
    monkeypatch.setenv("SUDOKU_WEB_MAX_URL_LENGTH", "600")
    app = create_app()
    assert app.config["SOLVE_MAX_NODES"] == 1000
    assert app.config["MAX_URL_LENGTH"] == 600


def test_test_mapping_overrides_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_WEB_SOLVE_MAX_NODES", "1000")
    assert create_app({"SOLVE_MAX_NODES": 5}).config["SOLVE_MAX_NODES"] == 5


@pytest.mark.parametrize("flag", ["SUDOKU_WEB_DEBUG", "FLASK_DEBUG"])
def test_debug_in_production_refuses_to_start(monkeypatch: pytest.MonkeyPatch, flag: str) -> None:
    monkeypatch.setenv("SUDOKU_WEB_ENV", "production")
    monkeypatch.setenv(flag, "true")
    with pytest.raises(RuntimeError, match="debug"):
        create_app()


def test_testing_in_production_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_WEB_ENV", "production")
    with pytest.raises(RuntimeError, match="TESTING"):
        create_app({"TESTING": True})


def test_production_without_debug_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_WEB_ENV", "production")
    app = create_app()
    assert app.test_client().get("/healthz").status_code == 200


def test_debug_and_testing_outside_production_are_allowed() -> None:
    assert create_app({"DEBUG": True, "TESTING": True}).debug


# ---- /healthz and headers --------------------------------------------------------------------


def test_healthz_answers_ok_uncached(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok\n"
    assert response.headers["Cache-Control"] == "no-store"
    _assert_security_headers(response)


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/", 200),
        ("GET", f"/p/{EASY}", 200),
        ("GET", f"/p/{EASY.replace('0', '.')}", 301),
        ("GET", f"/p/{CONFLICT}", 422),
        ("GET", f"/api/solve?puzzle={EASY}", 200),
        ("GET", "/api/solve", 400),
        ("GET", "/static/sudoku.css", 200),
        ("GET", "/static/sudoku.js", 200),
        ("GET", "/nowhere", 404),
        ("GET", "/api/nowhere", 404),
        ("DELETE", f"/p/{EASY}", 405),
        ("PUT", "/api/solve", 405),
        ("GET", "/p/" + "1" * 3000, 414),
        ("GET", "/healthz", 200),
    ],
)
def test_every_response_carries_the_security_headers(
    client: Any, method: str, path: str, status: int
) -> None:
    response = client.open(path, method=method)
    response.close()  # static files are streamed from an open file
    assert response.status_code == status
    _assert_security_headers(response)


def test_error_pages_carry_the_security_headers(client: Any) -> None:
    big = client.post("/", data={"paste": "1" * 20_000})
    assert big.status_code == 413
    _assert_security_headers(big)
    api = client.post("/api/solve", data="x" * 20_000, content_type="application/json")
    assert api.status_code == 413
    _assert_security_headers(api)


def test_a_crash_is_a_500_page_with_the_headers(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object, **kwargs: object) -> SolveResult:
        raise ZeroDivisionError("no")

    monkeypatch.setattr(solving, "solve_puzzle", boom)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client = app.test_client()
    page = client.get(f"/p/{EASY}")
    assert page.status_code == 500 and page.mimetype == "text/html"
    assert "ZeroDivisionError" not in page.get_data(as_text=True)  # nothing internal leaks
    _assert_security_headers(page)
    api = client.get(f"/api/solve?puzzle={EASY}")
    assert api.status_code == 500 and api.get_json()["code"] == 500
    _assert_security_headers(api)


# ---- HTTP caching ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [f"/p/{EASY}", f"/api/solve?puzzle={EASY}", f"/p/{TWO_SOLUTIONS}"])
def test_deterministic_gets_send_etag_and_public_max_age(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["ETag"].startswith('"')
    assert response.headers["Cache-Control"] == "public, max-age=86400"


@pytest.mark.parametrize("path", [f"/p/{EASY}", f"/api/solve?puzzle={EASY}"])
def test_if_none_match_answers_304_with_headers(client: Any, path: str) -> None:
    etag = client.get(path).headers["ETag"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag
    assert "max-age=86400" in again.headers["Cache-Control"]
    _assert_security_headers(again)
    stale = client.get(path, headers={"If-None-Match": '"something-else"'})
    assert stale.status_code == 200


def test_page_and_api_etags_differ(client: Any) -> None:
    page = client.get(f"/p/{EASY}").headers["ETag"]
    api = client.get(f"/api/solve?puzzle={EASY}").headers["ETag"]
    assert page != api


def test_post_and_errors_are_not_marked_cacheable(client: Any) -> None:
    post = client.post("/api/solve", json={"puzzle": EASY})
    assert post.status_code == 200 and "ETag" not in post.headers
    assert "public" not in post.headers.get("Cache-Control", "")
    invalid = client.get(f"/p/{CONFLICT}")
    assert invalid.status_code == 422 and "ETag" not in invalid.headers


def test_max_age_is_configurable() -> None:
    client = create_app({"TESTING": True, "HTTP_CACHE_MAX_AGE": 60}).test_client()
    assert client.get(f"/p/{EASY}").headers["Cache-Control"] == "public, max-age=60"


def test_debug_pages_are_never_cached() -> None:
    client = create_app({"DEBUG": True}).test_client()
    response = client.get(f"/p/{EASY}")
    assert "ETag" not in response.headers
    assert "no-cache" in response.headers["Cache-Control"]


# ---- The worker's LRU ------------------------------------------------------------------------


_REAL_SOLVE = solving.solve_puzzle


class _CountingSolver:
    """Stands in for solving.solve_puzzle inside cache.cached_solve, counting calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, puzzle: str, budget: budgets.Budget, geometry: Any = None) -> SolveResult:
        self.calls += 1
        return _REAL_SOLVE(puzzle, budget, geometry)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> _CountingSolver:
    solver_ = _CountingSolver()
    monkeypatch.setattr(solving, "solve_puzzle", solver_)
    return solver_


def test_a_hot_link_costs_one_solve_per_worker(client: Any, counting: _CountingSolver) -> None:
    for _ in range(5):
        assert client.get(f"/p/{EASY}").status_code == 200
    assert client.get(f"/api/solve?puzzle={EASY}").status_code == 200
    assert client.post("/api/solve", json={"puzzle": EASY}).status_code == 200
    assert counting.calls == 1


def test_spellings_share_one_cache_entry(client: Any, counting: _CountingSolver) -> None:
    client.get(f"/api/solve?puzzle={EASY}")
    client.post("/api/solve", json={"puzzle": EASY.replace("0", ".")})
    assert counting.calls == 1


def test_the_lru_stays_bounded(counting: _CountingSolver) -> None:
    app = create_app({"TESTING": True, "CACHE_MAX_BYTES": 60_000})
    client = app.test_client()
    for puzzle in TOP95[:20]:
        assert client.get(f"/p/{puzzle.replace('.', '0')}").status_code == 200
    store = cache.get_store(app)
    assert isinstance(store, cache.MemoryStore)
    assert 0 < store.bytes <= 60_000 and len(store) < 20 * 3  # result, page, URL per link
    assert counting.calls == 20


def test_cache_size_zero_solves_every_time(counting: _CountingSolver) -> None:
    client = create_app({"TESTING": True, "CACHE_MAX_BYTES": 0}).test_client()
    for _ in range(3):
        client.get(f"/p/{EASY}")
    assert counting.calls == 3


def test_a_deadline_result_is_honest_and_never_cached(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["SOLVE_DEADLINE_MS"] = budgets.DEFAULT_DEADLINE_MS  # the shipped one, named
    client = app.test_client()
    calls = []

    def deadline(puzzle: str, budget: budgets.Budget, geometry: Any = None) -> SolveResult:
        # A stand-in: whether a real puzzle hits the deadline depends on the machine.
        calls.append(puzzle)
        return SolveResult("gave_up", standard(9), puzzle, reason="deadline")

    monkeypatch.setattr(solving, "solve_puzzle", deadline)
    hard = TOP95[0].replace(".", "0")
    for path in (f"/p/{hard}", f"/api/solve?puzzle={hard}"):
        response = client.get(path)
        assert response.status_code == 200
        assert "no-store" in response.headers["Cache-Control"]
        assert "ETag" not in response.headers
    page = client.get(f"/p/{hard}").get_data(as_text=True)
    assert "The solver gave up" in page and "time limit of 250 ms" in page
    assert client.get(f"/api/solve?puzzle={hard}").get_json()["reason"] == "deadline"
    assert len(calls) == 4  # nothing was kept


# ---- Limits ----------------------------------------------------------------------------------


def test_overlong_url_is_a_414_page(client: Any) -> None:
    response = client.get("/p/" + "1" * 3000)
    assert response.status_code == 414 and response.mimetype == "text/html"
    assert "too long" in response.get_data(as_text=True)


def test_overlong_api_url_is_414_json(client: Any) -> None:
    response = client.get("/api/solve?puzzle=" + "1" * 3000)
    assert response.status_code == 414 and response.mimetype == "application/json"
    body = json.loads(response.get_data(as_text=True))
    assert body["status"] == "error" and body["code"] == 414


def test_long_text_under_the_url_cap_is_the_readers_422(client: Any) -> None:
    # Between the reader's 2,000 characters and the URL cap: the puzzle-level message.
    response = client.get("/api/solve?puzzle=" + "1" * 2010)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "length"


def test_the_longest_legitimate_links_fit_under_the_cap(app: Flask) -> None:
    # A 16x16 jigsaw link: 256-letter map and 256-symbol puzzle.
    assert len("/jigsaw/" + "A" * 256 + "/" + "0" * 256) < app.config["MAX_URL_LENGTH"]


def test_body_over_max_content_length_is_413(client: Any) -> None:
    page = client.post("/", data={"paste": "1" * 20_000})
    assert page.status_code == 413 and page.mimetype == "text/html"
    api = client.post("/api/solve", data="1" * 20_000, content_type="text/plain")
    assert api.status_code == 413 and api.get_json()["code"] == 413


def test_a_hot_url_is_answered_without_reading_the_puzzle(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sudoku_web.web.puzzles import request_path

    first = client.get(f"/p/{EASY}")
    calls = []
    for name in ("read", "is_canonical_text"):  # the slow and the fast way to read a link
        real = getattr(request_path, name)
        monkeypatch.setattr(
            request_path, name, lambda *a, _f=real, **k: calls.append(a) or _f(*a, **k)
        )
    again = client.get(f"/p/{EASY}")
    assert again.status_code == 200 and calls == []
    assert again.get_data() == first.get_data()
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    _assert_security_headers(again)
    not_modified = client.get(f"/p/{EASY}", headers={"If-None-Match": first.headers["ETag"]})
    assert not_modified.status_code == 304 and not_modified.headers["ETag"] == first.headers["ETag"]
    head = client.head(f"/p/{EASY}")
    assert head.status_code == 200 and head.get_data() == b""
    # Another host is another URL (pages hold absolute share links).
    other = client.get(f"/p/{EASY}", base_url="http://other.example/")
    assert "http://other.example/p/" in other.get_data(as_text=True)
    assert calls  # that one was built
