"""The store (byte budget, eviction order, threads, backends) and the ETag / 304 helpers."""

from __future__ import annotations

import threading

import pytest
from flask import Flask, Response

from sudoku_web import create_app
from sudoku_web.core.board import x_sudoku
from sudoku_web.core.solver import SolveResult, solve
from sudoku_web.web.runtime import budgets, cache

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_store_keeps_at_most_its_byte_budget_and_evicts_the_least_recent() -> None:
    store = cache.MemoryStore(3_000)
    for n in range(10):
        store.set(f"k{n}", b"x" * 900)
    assert store.bytes <= 3_000 and len(store) == 3
    assert store.get("k0") is None and store.get("k9") == b"x" * 900
    store.get("k7")  # now the most recent
    store.set("k10", b"y" * 900)
    assert store.get("k7") is not None and store.get("k8") is None


def test_store_charges_objects_their_pickled_size() -> None:
    store = cache.MemoryStore(1_000_000)
    result = solve(TOP95_FIRST)
    store.set("r", result)
    assert store.get("r") is result  # kept as the object: a hit costs no unpickling
    assert 300 < store.bytes < 2_000  # its geometry (shared, megabytes with tables) by reference


def test_a_stored_page_is_charged_at_least_its_pickled_size() -> None:
    app = create_app({"TESTING": True})
    client = app.test_client()
    for path in (f"/p/{TOP95_FIRST}", f"/p/{TOP95_FIRST}/steps", "/healthz"):
        response = client.get(path)
        headers = tuple(response.headers.items())
        stored = cache.StoredResponse(response.status_code, response.get_data(), headers)
        assert len(cache.dumps(stored)) <= stored.nbytes <= len(cache.dumps(stored)) + 1024
        store = cache.MemoryStore(10_000_000)
        store.set("page", stored)
        assert store.bytes == stored.nbytes + len("page")


def test_an_item_over_its_limit_is_not_kept() -> None:
    store = cache.MemoryStore(100_000, max_item_bytes=1_000)
    assert store.set("small", b"x" * 500) and not store.set("big", b"x" * 5_000)
    assert store.get("big") is None and store.bytes < 1_000


def test_counters_count_hits_and_misses() -> None:
    store = cache.MemoryStore(10_000)
    store.set("a", 1)
    store.get("a"), store.get("a"), store.get("b")
    assert (store.hits, store.misses) == (2, 1)
    store.clear()
    assert (store.hits, store.misses, store.bytes, len(store)) == (0, 0, 0, 0)


def test_budget_zero_keeps_nothing_and_negative_is_refused() -> None:
    store = cache.MemoryStore(0)
    assert not store.set("a", 1) and store.get("a") is None
    assert not cache.enabled(store)
    with pytest.raises(ValueError):
        cache.MemoryStore(-1)


def test_threads_hammering_the_store_keep_it_bounded_and_consistent() -> None:
    store = cache.MemoryStore(20_000)

    def worker(seed: int) -> None:
        for n in range(500):
            key = f"k{(seed * 7 + n) % 120}"
            value = store.get(key)
            assert value is None or value == key.encode() * 10
            store.set(key, key.encode() * 10)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert 0 < store.bytes <= 20_000
    assert store.bytes == sum(size for _, size in store.entries._data.values())


def test_solve_key_names_the_whole_request() -> None:
    app = Flask(__name__)
    app.config.from_mapping(budgets.CONFIG_DEFAULTS)
    with app.app_context():
        plain = cache.solve_key("1" * 81)
        x = cache.solve_key("1" * 81, x_sudoku(9))
        assert plain.text != x.text and plain == cache.solve_key("1" * 81)
        tight = cache.solve_key("1" * 81, config={**app.config, "SOLVE_MAX_NODES": 5})
        assert tight.text != plain.text


def test_a_shared_store_that_cannot_be_reached_is_a_miss() -> None:
    store = cache.make_store({"CACHE_BACKEND": "redis", "CACHE_URL": "redis://127.0.0.1:9/0"})
    assert store.get("k") is None and store.set("k", b"v") is False


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(RuntimeError, match="CACHE_BACKEND"):
        cache.make_store({"CACHE_BACKEND": "floppy"})


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
            result = cache.remembered(puzzle, lambda: solve(puzzle), cache.is_deterministic)
            return Response(result.status)

        return cache.conditional(cache.etag_for("page", puzzle), build)

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


def test_init_app_sizes_the_store_from_config() -> None:
    app, _ = make_app(CACHE_MAX_BYTES=3_000)
    store = cache.get_store(app)
    assert isinstance(store, cache.MemoryStore) and store.max_bytes == 3_000
    assert app.extensions["sudoku_cache"] is store
    default = cache.get_store(make_app()[0])
    assert isinstance(default, cache.MemoryStore)
    assert default.max_bytes == cache.CONFIG_DEFAULTS["CACHE_MAX_BYTES"]


def test_an_app_without_init_gets_a_disabled_store() -> None:
    app = Flask(__name__)
    with app.app_context():
        assert not cache.enabled(cache.get_store())


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
    store = cache.get_store(app)
    assert isinstance(store, cache.MemoryStore)
    assert (store.hits, store.misses, len(store)) == (1, 1, 1)


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
    from sudoku_web.web.runtime import security

    app = Flask(__name__)
    app.config.from_mapping({**security.CONFIG_DEFAULTS, **config})
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

        return cache.cached_response(f"page|{name}", build)

    security.init_app(app)
    app.after_request(security.header_hook(app))
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
    app, builds = make_page_app(CACHE_MAX_BYTES=0)
    client = app.test_client()
    client.get("/page/a")
    client.get("/page/a")
    assert builds == ["a", "a"]
