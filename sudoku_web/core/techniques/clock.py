"""A deadline the costly rungs look at while they search, not only between steps.

The ladder checks its caller's deadline before each step; a single call of a costly rung (a
forcing net on a hard 9x9 can take 100 ms) would otherwise run on past it. Inside
:func:`within`, :func:`check` raises :class:`OutOfTime` once the deadline has passed; the
ladder (:mod:`sudoku_web.core.logic`) catches it, drops the step that rung was looking for,
and goes on as past any deadline: only the cheap rungs, then a guess, the result marked
``cut_short``. Outside :func:`within` (or with no deadline) :func:`check` never raises, so a
search that finishes in time finds exactly what it finds without the clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# The perf_counter() value past which a search stops, or None for no limit.
_deadline: ContextVar[float | None] = ContextVar("_deadline", default=None)


class OutOfTime(Exception):
    """A rung's search stopped because the explanation's deadline passed."""


@contextmanager
def within(deadline: float | None) -> Iterator[None]:
    """Let :func:`check` raise :class:`OutOfTime` once ``perf_counter()`` passes ``deadline``."""
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


def check() -> None:
    """Raise :class:`OutOfTime` when the deadline of the enclosing :func:`within` has passed."""
    deadline = _deadline.get()
    if deadline is not None and time.perf_counter() > deadline:
        raise OutOfTime
