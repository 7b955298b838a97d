"""Several app servers sharing one cache through Redis (``CACHE_BACKEND=redis``), against a
real ``redis-server`` (Debian's package) that this module starts on a free loopback port with
its own config and directory, and stops.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_config import ROOMY
from web_puzzles import EASY, EASY_TYPO, JIGSAW_PUZZLE, JIGSAW_REGIONS, SIXTEEN_PUZZLE

from sudoku_web import create_app
from sudoku_web.core.board import standard
from sudoku_web.web.runtime import cache, solving

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
pytestmark = pytest.mark.skipif(
    not Path(REDIS).exists(), reason="redis-server is not installed (make test installs it)"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of our own: loopback only, no persistence, a byte budget with LRU."""
    home = tmp_path_factory.mktemp("redis")
    port = _free_port()
    (home / "redis.conf").write_text(
        f'bind 127.0.0.1\nport {port}\ndir {home}\nsave ""\nappendonly no\n'
        "maxmemory 16mb\nmaxmemory-policy allkeys-lru\nprotected-mode yes\n"
    )
    proc = subprocess.Popen(
        [REDIS, str(home / "redis.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _node(redis_url: str) -> Any:
    """One app server of several (its own process state; only the Redis store is shared)."""
    app = create_app({**ROOMY, "CACHE_BACKEND": "redis", "CACHE_URL": redis_url})
    cache.get_store(app).clear()
    return app


class _Counting:
    def __init__(self) -> None:
        self.calls = 0
        self.real = solving.solve_puzzle

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.real(*args, **kwargs)


def test_two_nodes_share_results_and_pages(redis_url: str, monkeypatch: Any) -> None:
    counting = _Counting()
    monkeypatch.setattr(solving, "solve_puzzle", counting)
    one, two = _node(redis_url).test_client(), _node(redis_url).test_client()
    first = one.get(f"/p/{EASY}")
    second = two.get(f"/p/{EASY}")
    assert first.status_code == second.status_code == 200
    assert second.get_data() == first.get_data()
    assert second.headers["ETag"] == first.headers["ETag"]
    assert two.get(f"/api/solve?puzzle={EASY}").get_json()["status"] == "solved"
    assert counting.calls == 1  # one solve for both servers and both representations


def test_every_variant_round_trips_through_redis(redis_url: str) -> None:
    app = _node(redis_url)
    client = app.test_client()
    for path in (f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}", f"/p/{SIXTEEN_PUZZLE}"):
        fresh = client.get(path)
        again = _node_client_sharing(redis_url).get(path)
        assert fresh.status_code == again.status_code == 200
        assert again.get_data() == fresh.get_data()


def _node_client_sharing(redis_url: str) -> Any:
    app = create_app({**ROOMY, "CACHE_BACKEND": "redis", "CACHE_URL": redis_url})
    return app.test_client()


def test_results_travel_without_their_geometry_tables(redis_url: str) -> None:
    app = _node(redis_url)
    with app.test_request_context():
        solving.cached_solve(SIXTEEN_PUZZLE.replace(".", "0"), standard(16))
    keys = cache.get_store(app).inner._write_client.keys("sudoku-web:solve|*")
    sizes = [len(cache.get_store(app).inner._write_client.get(k)) for k in keys]
    assert sizes and max(sizes) < 4_000  # a 16x16 geometry with its tables is megabytes


def test_the_doctor_runs_once_for_all_nodes(redis_url: str, monkeypatch: Any) -> None:
    calls = []
    real = solving.diagnose

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(solving, "diagnose", counted)
    for _ in range(2):
        response = _node_client_sharing(redis_url).post("/api/solve", json={"puzzle": EASY_TYPO})
        assert response.get_json()["status"] == "unsolvable"
    # The second node found the first one's answer (unless the doctor hit its deadline, which
    # depends on the machine's load, and such an answer is never stored).
    if response.get_json()["doctor"]["complete"]:
        assert len(calls) == 1


def test_an_unreachable_redis_serves_pages_uncached() -> None:
    app = create_app(
        {
            "TESTING": True,
            "CACHE_BACKEND": "redis",
            "CACHE_URL": f"redis://127.0.0.1:{_free_port()}/0",
        }
    )
    client = app.test_client()
    for _ in range(2):
        response = client.get(f"/p/{EASY}")
        assert response.status_code == 200 and "Solved" in response.get_data(as_text=True)
