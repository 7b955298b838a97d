"""Non-consecutive: digits in orthogonally neighbouring cells never differ by 1.

As f-puzzles reads it, a pair carrying a dot or letter follows its mark instead.
f-puzzles ``nonconsecutive: true``. Our spelling: ``nc``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Geometry
from .base import GlobalRule, Propagator
from .pairs import narrow_pairs, pairs_hold, table, unmarked_orthogonal


def _allow(size: int) -> tuple[int, ...]:
    return table(size, lambda a, b: abs(a - b) != 1)


@dataclass(frozen=True)
class Nonconsecutive(GlobalRule):
    """No two orthogonal neighbours (without a mark) hold consecutive digits."""

    KEY = "nc"
    NAME = "non-consecutive"
    FPUZZLES = ("nonconsecutive",)
    WORDS = "Non-consecutive: digits in cells that share an edge never differ by 1."

    def propagator(self, geometry: Geometry) -> Propagator:
        return narrow_pairs(unmarked_orthogonal(geometry), _allow(geometry.size))

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        return pairs_hold(grid, unmarked_orthogonal(geometry), _allow(geometry.size))
