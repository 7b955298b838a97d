"""What a request's budgets count: its own work, not the wait for a core (the work clock,
sudoku_web/web/runtime/work_clock.py), read by the core's ladder through the clock it is
given (sudoku_web/core/techniques/clock.py); and the server recycling a worker whose
private memory has grown past its bound after a costly request (sudoku_web/hosting/serve.py).
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from typing import Any

import pytest
from app_config import ROOMY
from shipped_server import serve_shipped_master

from benchmarks.loadtest import _children
from sudoku_web import create_app
from sudoku_web.core.board import standard
from sudoku_web.core.logic import explain, grade
from sudoku_web.core.techniques import clock
from sudoku_web.hosting import serve
from sudoku_web.hosting.serve import WARM_UP_PUZZLE
from sudoku_web.web.runtime import solving, work_clock

# Line 45 of top95: its explanation climbs the ladder to forcing chains.
HARD = WARM_UP_PUZZLE
# Line 93 of top1465: Hard (a skyscraper), a few ms of CPU to explain; past its deadline
# the cheap rungs alone cannot finish it, so the explanation guesses and says it was cut.
SKYSCRAPER = "103700005000604000800000000000810000090000700060000090020000400500030000000000020"
# Line 4 of top95 (fiendish): a server has not drawn its pages while warming up.
FIENDISH = "480300000000000071020000000705000060000200800000000000001076000300000400000050000"
NINE = standard(9)


def _jumping(step: float) -> Iterator[float]:
    now = 0.0
    while True:
        now += step
        yield now


def test_the_ladder_reads_the_clock_it_is_given() -> None:
    # A clock that never moves: no deadline ever passes, however small.
    with clock.measured_by(lambda: 0.0):
        assert not explain(HARD, NINE, deadline_ms=0.001).cut_short
        assert not grade(HARD, NINE, deadline_ms=0.001).cut_short
    # A clock a second further on at every look: the deadline passes at once.
    ticks = _jumping(1.0)
    with clock.measured_by(lambda: next(ticks)):
        cut = explain(HARD, NINE, deadline_ms=500)
        assert cut.cut_short and cut.guesses
        assert grade(HARD, NINE, deadline_ms=500).cut_short
    # Outside the block, the wall clock again: no deadline, the whole explanation.
    assert clock.now() == pytest.approx(time.perf_counter(), abs=1.0)
    whole = explain(HARD, NINE)
    assert not whole.cut_short and whole.solved_by_logic


def test_the_work_clock_counts_cpu_and_a_share_of_the_waiting() -> None:
    now = work_clock.since(time.thread_time(), time.perf_counter())
    time.sleep(0.3)  # waiting: a third of it counts (WALL_SHARE)
    waited = now()
    assert 0.3 / work_clock.WALL_SHARE <= waited < 0.3
    started = time.thread_time()
    while time.thread_time() - started < 0.15:  # working: all of it counts
        pass
    assert now() - waited >= 0.15 - 0.3 / work_clock.WALL_SHARE


def _app(**config: Any) -> Any:
    # The shipped request deadline, with no reserve, and the answer caches off.
    settings = {**ROOMY, "REQUEST_DEADLINE_MS": 200, "RENDER_RESERVE_MS": 0}
    settings.update(EXPLAIN_DEADLINE_MS=150, CACHE_MAX_BYTES=0, EXPLANATION_CACHE_BYTES=0)
    return create_app({**settings, **config})


def _warm_and_waiting(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Any:
    """A client of an app that has explained once (the ladder's tables built: the first run
    in a process costs several times a later one), whose explanations then start after
    ``seconds`` of waiting, as a request does while the worker's other thread runs."""
    client = _app().test_client()
    assert client.get(f"/p/{SKYSCRAPER}/steps").status_code == 200
    explain_result = solving.explain_result

    def late(*args: Any) -> Any:
        time.sleep(seconds)
        return explain_result(*args)

    monkeypatch.setattr(solving, "explain_result", late)
    return client


def test_waiting_does_not_spend_a_requests_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # 300 ms of waiting in a 200 ms request: by the wall clock nothing would be left to
    # explain with, and the steps page would guess; by the work clock the budget is there,
    # and the explanation (a few ms of CPU) is whole. The wall-clock share is set
    # aside here (a busy test box gives this thread less than a third of a core): this test
    # is about the CPU, the next about the share.
    monkeypatch.setattr(work_clock, "WALL_SHARE", 1000.0)
    answer = _warm_and_waiting(monkeypatch, 0.3).get(f"/p/{SKYSCRAPER}/steps")
    assert answer.status_code == 200
    assert "no-store" not in answer.headers.get("Cache-Control", "")


def test_a_request_starved_of_the_cpu_still_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    # 700 ms of waiting: a third of it is past the 200 ms budget, so the page is cut short
    # (and says so: not stored) whatever CPU it had.
    answer = _warm_and_waiting(monkeypatch, 0.7).get(f"/p/{SKYSCRAPER}/steps")
    assert answer.status_code == 200
    assert "no-store" in answer.headers["Cache-Control"]


def test_a_requests_work_is_left_in_its_environ_for_the_server() -> None:
    from werkzeug.test import EnvironBuilder

    app = _app()
    environ = EnvironBuilder(path=f"/p/{HARD}/difficulty").get_environ()
    body = b"".join(app(environ, lambda *_: None))
    assert body and environ[work_clock.WORK_MS_KEY] > 0
    # and the ladder has its wall clock back
    assert clock.now() == pytest.approx(time.perf_counter(), abs=1.0)


class _Worker:
    def __init__(self) -> None:
        self.alive, self.pid, self.said = True, 1234, ""
        self.log = self

    def info(self, message: str, *args: Any) -> None:
        self.said = message % args


@pytest.mark.parametrize(
    ("work_ms", "private", "recycled"),
    [(5.0, 500.0, False), (30.0, 10.0, False), (30.0, 500.0, True)],
)
def test_a_worker_grown_past_its_bound_after_a_costly_request_is_recycled(
    monkeypatch: pytest.MonkeyPatch, work_ms: float, private: float, recycled: bool
) -> None:
    looked: list[bool] = []

    def private_mb() -> float:
        looked.append(True)
        return private

    monkeypatch.setattr(serve, "private_mb", private_mb)
    worker = _Worker()
    serve.recycle_if_large(worker, None, {work_clock.WORK_MS_KEY: work_ms}, None)
    assert worker.alive is not recycled
    assert bool(looked) is (work_ms >= serve.COSTLY_WORK_MS)  # cheap requests are not looked at
    if recycled:
        assert "500 MB private" in worker.said


def test_private_memory_is_read_from_the_kernel() -> None:
    assert serve.private_mb() > 1
    assert serve.private_mb(2**30) == 0.0  # no such process


def _workers(master: int) -> set[int]:
    return set(_children(master))


def _get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.parametrize("threads", ["2", "1"])  # gunicorn's gthread worker (shipped), sync
def test_the_shipped_server_replaces_a_worker_past_its_memory_bound(threads: str) -> None:
    # A bound of 1 MB: every worker is past it, so the first costly request (the steps page
    # of a fiendish puzzle, not among the pages the server drew while warming up) ends its
    # worker's life once answered, and a new one, forked from the warm master, answers the
    # next; a cheap one (/healthz) does not.
    bound = {"SUDOKU_WEB_WORKER_MAX_PRIVATE_MB": "1", "SUDOKU_WEB_THREADS": threads}
    with serve_shipped_master(workers=1, env_extra=bound) as (port, master):
        first = _workers(master.pid)
        assert _get(port, "/healthz") == 200
        assert _workers(master.pid) == first
        assert _get(port, f"/p/{FIENDISH}/steps") == 200
        deadline = time.monotonic() + 30
        while _workers(master.pid) in (first, set()) and time.monotonic() < deadline:
            time.sleep(0.1)
        replaced = _workers(master.pid)
        assert replaced and replaced.isdisjoint(first)
        assert _get(port, f"/p/{HARD}") == 200
