"""Non-consecutive: digits in orthogonally neighbouring cells never differ by 1.

As f-puzzles reads it, a pair carrying a dot or letter follows its mark instead.
f-puzzles ``nonconsecutive: true``. Our spelling: ``nc``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Geometry
from .pairs import PairsRule, table, unmarked_orthogonal


def _allow(size: int) -> tuple[int, ...]:
    return table(size, lambda a, b: abs(a - b) != 1)


@dataclass(frozen=True)
class Nonconsecutive(PairsRule):
    """No two orthogonal neighbours (without a mark) hold consecutive digits."""

    KEY = "nc"
    NAME = "non-consecutive"
    FPUZZLES = ("nonconsecutive",)
    WORDS = "Non-consecutive: digits in cells that share an edge never differ by 1."

    STEP = "Non-consecutive"

    def pairs(self, geometry: Geometry) -> tuple[tuple[int, int], ...]:
        return unmarked_orthogonal(geometry)

    def allow(self, geometry: Geometry) -> tuple[int, ...]:
        return _allow(geometry.size)
