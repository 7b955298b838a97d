"""The ladder's clock: what its deadlines count, and a deadline the costly rungs look at.

**What a deadline counts.** :func:`explain`, :func:`grade` and the hint
(:mod:`sudoku_web.core.logic`, :mod:`sudoku_web.core.hints`) read the time from :func:`now`:
``time.perf_counter`` (wall-clock seconds) unless the caller chose another source with
:func:`measured_by`. A server may measure a request's work that way (its own thread's CPU
time, say), so a request that shares the CPU with its neighbours is given the same work as
one alone, rather than cut short by the wait.

**Inside a rung's search.** The ladder checks its caller's deadline before each step; a
single call of a costly rung (a forcing net on a hard 9x9 can take 100 ms) would otherwise
run on past it. Inside :func:`within`, :func:`check` raises :class:`OutOfTime` once the
deadline has passed; the ladder catches it, drops the step that rung was looking for, and
goes on as past any deadline: only the cheap rungs, then a guess, the result marked
``cut_short``. Outside :func:`within` (or with no deadline) :func:`check` never raises, so a
search that finishes in time finds exactly what it finds without the clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# The time source the deadlines are read from (seconds, any origin, never going back).
_source: ContextVar[Callable[[], float]] = ContextVar("_source", default=time.perf_counter)
# The now() value past which a search stops, or None for no limit.
_deadline: ContextVar[float | None] = ContextVar("_deadline", default=None)


class OutOfTime(Exception):
    """A rung's search stopped because the explanation's deadline passed."""


def now() -> float:
    """The time the ladder's deadlines are measured in (see :func:`measured_by`)."""
    return _source.get()()


def after(deadline_ms: float | None) -> float | None:
    """The :func:`now` value ``deadline_ms`` from now (None: no deadline)."""
    return None if deadline_ms is None else now() + deadline_ms / 1000


@contextmanager
def measured_by(source: Callable[[], float]) -> Iterator[None]:
    """Within the block (this thread or task only), :func:`now` reads ``source``."""
    token = _source.set(source)
    try:
        yield
    finally:
        _source.reset(token)


@contextmanager
def within(deadline: float | None) -> Iterator[None]:
    """Let :func:`check` raise :class:`OutOfTime` once :func:`now` passes ``deadline``."""
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


def check() -> None:
    """Raise :class:`OutOfTime` when the deadline of the enclosing :func:`within` has passed."""
    deadline = _deadline.get()
    if deadline is not None and now() > deadline:
        raise OutOfTime
