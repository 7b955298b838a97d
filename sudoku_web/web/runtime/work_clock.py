"""A request's work clock: what its budgets count.

A budget (``REQUEST_DEADLINE_MS``, the explanation's, the grade's, the hint's: see
:mod:`sudoku_web.web.runtime.budgets`) bounds what one request may cost the server. Read from
the wall clock it would also count the time the request waits for a core while the
neighbours run (a worker's threads, and the other workers, share the machine's cores), so
under load a page would be cut short after less work, and which pages were cut would depend on
the neighbours. So the work clock counts the request thread's own CPU time
(``time.thread_time``), but never less than ``1 / WALL_SHARE`` of the wall-clock time since
the request started, so that a request starved of the CPU still ends: a 150 ms budget ends
after 150 ms of the thread's CPU or 450 ms of wall-clock time, whichever comes first.

:func:`start` (the first ``before_request`` hook) starts it and lets the core's ladder read
it (:func:`sudoku_web.core.techniques.clock.measured_by`) for the rest of the request;
:func:`stop` (``teardown_request``) gives the ladder back its wall clock. The engine's own
``SOLVE_DEADLINE_MS``, the doctor's, live generation's and the photo reader's deadlines stay
wall-clock times (they are given what is left of the request's budget, in milliseconds).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Final

from flask import g, request

from ...core.techniques import clock

#: Past this many times a budget in wall-clock time, the budget is spent whatever the CPU.
#: Three: as shipped on two cores, three workers of two threads each, a thread that gets its
#: fair share of a saturated machine gets a third of a core, so its budget is counted in CPU
#: time; one starved below that share is stopped by the wall clock.
WALL_SHARE: Final = 3.0
#: The WSGI environ key of the request's work in milliseconds, set at its end.
WORK_MS_KEY: Final = "sudoku_web.work_ms"


def since(cpu: float, wall: float) -> Callable[[], float]:
    """The work clock started at thread CPU time ``cpu`` and ``perf_counter`` time ``wall``:
    seconds of work since then (it never goes back)."""

    def now() -> float:
        return max(time.thread_time() - cpu, (time.perf_counter() - wall) / WALL_SHARE)

    return now


def start() -> None:
    """``before_request``: the request's work clock starts, and the ladder reads it."""
    now = since(time.thread_time(), time.perf_counter())
    stack = ExitStack()
    stack.enter_context(clock.measured_by(now))
    g.sudoku_work = now
    g.sudoku_work_stack = stack


def stop(_error: BaseException | None = None) -> None:
    """``teardown_request``: the ladder reads the wall clock again, and the request's work
    goes into its WSGI environ as ``WORK_MS_KEY`` (the server's ``post_request`` hook looks
    at a worker's memory after a costly request: :mod:`sudoku_web.hosting.serve`)."""
    stack: ExitStack | None = g.pop("sudoku_work_stack", None)
    if stack is not None:
        stack.close()
        request.environ[WORK_MS_KEY] = spent_ms()


def spent_ms() -> float:
    """The request's work so far, in milliseconds (0 outside a request's hooks)."""
    now: Callable[[], float] | None = g.get("sudoku_work")
    return 0.0 if now is None else now() * 1000
