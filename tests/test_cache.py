"""The result LRU (bound, eviction order, threads) and the ETag / 304 helpers."""

from __future__ import annotations

import threading

import pytest
from flask import Flask, Response

from sudoku_web.core.solver import SolveResult, solve
from sudoku_web.web import cache

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_lru_keeps_at_most_maxsize_entries_and_evicts_the_least_recent() -> None:
    lru: cache.ResultCache[str, int] = cache.ResultCache(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "a" is now the most recent, so "b" goes first
    lru.put("c", 3)
    assert len(lru) == 2
    assert "b" not in lru
    assert lru.get("a") == 1 and lru.get("c") == 3


def test_put_on_an_existing_key_refreshes_it() -> None:
    lru: cache.ResultCache[str, int] = cache.ResultCache(2)
    lru.put("a", 1)
    lru.put("b", 2)
    lru.put("a", 10)
    lru.put("c", 3)
    assert lru.get("a") == 10 and "b" not in lru


def test_counters_count_hits_and_misses() -> None:
    lru: cache.ResultCache[str, int] = cache.ResultCache(4)
    assert lru.get("x") is None
    lru.put("x", 1)
    lru.get("x")
    lru.get("x")
    assert lru.stats() == cache.CacheStats(hits=2, misses=1, size=1, maxsize=4)
    lru.clear()
    assert lru.stats() == cache.CacheStats(hits=0, misses=0, size=0, maxsize=4)


def test_size_zero_disables_the_cache() -> None:
    lru: cache.ResultCache[str, int] = cache.ResultCache(0)
    calls = []
    for _ in range(3):
        lru.get_or_compute("k", lambda: calls.append(1) or 7)
    assert len(calls) == 3 and len(lru) == 0


def test_negative_size_is_rejected() -> None:
    with pytest.raises(ValueError):
        cache.ResultCache(-1)


def test_get_or_compute_computes_once_and_honours_store_if() -> None:
    lru: cache.ResultCache[str, int] = cache.ResultCache(8)
    calls: list[str] = []

    def compute() -> int:
        calls.append("x")
        return 5

    assert lru.get_or_compute("k", compute) == 5
    assert lru.get_or_compute("k", compute) == 5
    assert calls == ["x"]
    lru.get_or_compute("skip", compute, store_if=lambda v: False)
    assert "skip" not in lru


def test_threads_hammering_the_cache_keep_it_bounded_and_consistent() -> None:
    lru: cache.ResultCache[int, int] = cache.ResultCache(50)
    errors: list[BaseException] = []

    def worker(seed: int) -> None:
        try:
            for i in range(2000):
                key = (seed * 7919 + i) % 200
                value = lru.get_or_compute(key, lambda k=key: k * 2)
                assert value == key * 2
        except BaseException as exc:  # surfaced below; a thread's assert is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    stats = lru.stats()
    assert stats.size <= 50
    assert stats.hits + stats.misses == 8 * 2000


def test_solve_key_is_hashable_and_names_the_whole_request() -> None:
    key = cache.solve_key("1" * 81, variant="x", regions=None, budget=(1000, 50.0))
    assert key == cache.SolveKey("1" * 81, "x", None, (1000, 50.0))
    assert {key: 1}[cache.solve_key("1" * 81, variant="x", budget=(1000, 50.0))] == 1
    assert key != cache.solve_key("1" * 81, budget=(1000, 50.0))


def test_only_deadline_give_ups_are_nondeterministic() -> None:
    assert cache.is_deterministic(solve(TOP95_FIRST))
    by_nodes = SolveResult("gave_up", None, reason="nodes")
    by_deadline = SolveResult("gave_up", None, reason="deadline")
    assert cache.is_deterministic(by_nodes)
    assert not cache.is_deterministic(by_deadline)


# --- app integration -------------------------------------------------------------------------


def make_app(**config: object) -> tuple[Flask, list[int]]:
    """A tiny app with one cached route; ``builds`` counts how often the page was built."""
    app = Flask(__name__)
    app.config.from_mapping(config)
    cache.init_app(app)
    builds: list[int] = []

    @app.get("/p/<puzzle>")
    def page(puzzle: str) -> Response:
        def build() -> Response:
            builds.append(1)
            result = cache.get_cache().get_or_compute(
                cache.solve_key(puzzle), lambda: solve(puzzle), store_if=cache.is_deterministic
            )
            return Response(result.status)

        return cache.conditional(cache.etag_for("page", cache.solve_key(puzzle)), build)

    @app.get("/flaky")
    def flaky() -> Response:
        def build() -> Response:
            response = Response("gave up at the deadline")
            response.cache_control.no_store = True
            return response

        return cache.conditional(cache.etag_for("flaky"), build)

    @app.get("/missing")
    def missing() -> Response:
        return cache.conditional(cache.etag_for("m"), lambda: Response("no", status=404))

    return app, builds


def test_init_app_sizes_the_cache_from_config() -> None:
    app, _ = make_app(RESULT_CACHE_SIZE=3)
    assert cache.get_cache(app).maxsize == 3
    assert app.extensions["sudoku_cache"] is cache.get_cache(app)
    assert cache.get_cache(make_app()[0]).maxsize == cache.CONFIG_DEFAULTS["RESULT_CACHE_SIZE"]


def test_an_app_without_init_gets_a_disabled_cache() -> None:
    app = Flask(__name__)
    with app.app_context():
        assert cache.get_cache().maxsize == 0


def test_cacheable_response_gets_strong_etag_and_public_max_age() -> None:
    app, _ = make_app(HTTP_CACHE_MAX_AGE=600)
    response = app.test_client().get(f"/p/{TOP95_FIRST}")
    assert response.status_code == 200
    assert response.data == b"solved"
    etag = response.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert set(response.headers["Cache-Control"].split(", ")) == {"public", "max-age=600"}


def test_matching_if_none_match_answers_304_without_building() -> None:
    app, builds = make_app()
    client = app.test_client()
    etag = client.get(f"/p/{TOP95_FIRST}").headers["ETag"]
    assert builds == [1]
    for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = client.get(f"/p/{TOP95_FIRST}", headers={"If-None-Match": header})
        assert again.status_code == 304, header
        assert again.data == b""
        assert again.headers["ETag"] == etag
        assert "max-age" in again.headers["Cache-Control"]
    assert builds == [1]


def test_stale_if_none_match_rebuilds() -> None:
    app, builds = make_app()
    response = app.test_client().get(f"/p/{TOP95_FIRST}", headers={"If-None-Match": '"stale"'})
    assert response.status_code == 200 and builds == [1]


def test_result_cache_serves_repeat_requests() -> None:
    app, _ = make_app()
    client = app.test_client()
    client.get(f"/p/{TOP95_FIRST}")
    client.get(f"/p/{TOP95_FIRST}")
    stats = cache.get_cache(app).stats()
    assert (stats.hits, stats.misses, stats.size) == (1, 1, 1)


def test_etag_changes_with_request_and_salt() -> None:
    app, _ = make_app()
    salty, _ = make_app(ETAG_SALT="v2")
    with app.app_context():
        one, two = cache.etag_for("page", "1"), cache.etag_for("page", "2")
        assert one != two and one == cache.etag_for("page", "1")
    with salty.app_context():
        assert cache.etag_for("page", "1") != one


def test_no_store_and_errors_get_no_validators() -> None:
    app, _ = make_app()
    client = app.test_client()
    flaky = client.get("/flaky")
    assert "ETag" not in flaky.headers and "no-store" in flaky.headers["Cache-Control"]
    missing = client.get("/missing")
    assert missing.status_code == 404 and "ETag" not in missing.headers


def test_debug_mode_disables_http_caching() -> None:
    app, builds = make_app(DEBUG=True)
    client = app.test_client()
    first = client.get(f"/p/{TOP95_FIRST}")
    assert "ETag" not in first.headers and "no-cache" in first.headers["Cache-Control"]
    client.get(f"/p/{TOP95_FIRST}", headers={"If-None-Match": "*"})
    assert builds == [1, 1]


def make_page_app(**config: object) -> tuple[Flask, list[str]]:
    """An app whose page route keeps whole responses in the LRU."""
    from sudoku_web.web import security

    app = Flask(__name__)
    app.config.from_mapping(config)
    cache.init_app(app)
    builds: list[str] = []

    @app.get("/page/<name>")
    def page(name: str) -> Response:
        def build() -> Response:
            builds.append(name)
            status = 404 if name == "missing" else 200
            response = Response(f"<p>{name} on {app.name}</p>", status=status)
            response.headers["X-View"] = "yes"
            if name == "flaky":
                response.cache_control.no_store = True
            return response

        return cache.cached_response(("page", name), build)

    security.init_app(app)
    return app, builds


def test_cached_response_serves_the_same_page_without_building() -> None:
    app, builds = make_page_app()
    client = app.test_client()
    first, second = client.get("/page/a"), client.get("/page/a")
    assert builds == ["a"]
    assert second.data == first.data and second.status_code == 200
    assert second.headers["X-View"] == "yes"
    assert second.headers["Content-Type"] == first.headers["Content-Type"]
    assert int(second.headers["Content-Length"]) == len(first.data)
    assert "default-src 'self'" in second.headers["Content-Security-Policy"]  # hooks still run


@pytest.mark.parametrize("name", ["flaky", "missing"])
def test_cached_response_keeps_only_cacheable_200s(name: str) -> None:
    app, builds = make_page_app()
    client = app.test_client()
    client.get(f"/page/{name}")
    client.get(f"/page/{name}")
    assert builds == [name, name]


def test_cached_response_keys_on_the_host() -> None:
    app, builds = make_page_app()
    client = app.test_client()
    client.get("/page/a", base_url="http://one.example")
    client.get("/page/a", base_url="http://two.example")
    assert builds == ["a", "a"]


def test_cached_response_with_cache_off_always_builds() -> None:
    app, builds = make_page_app(RESULT_CACHE_SIZE=0)
    client = app.test_client()
    client.get("/page/a")
    client.get("/page/a")
    assert builds == ["a", "a"]
