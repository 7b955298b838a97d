"""Non-consecutive: digits in orthogonally neighbouring cells never differ by 1.

As f-puzzles reads it, a pair carrying a dot or letter follows its mark instead.
f-puzzles ``nonconsecutive: true``. Our spelling: ``nc``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Geometry
from .base import N_, GlobalRule, Relation
from .pairs import PairRule, table, unmarked_orthogonal


@dataclass(frozen=True)
class Nonconsecutive(GlobalRule, PairRule):
    """No two orthogonal neighbours (without a mark) hold consecutive digits."""

    KEY = "nc"
    NAME = N_("non-consecutive")
    FPUZZLES = ("nonconsecutive",)
    WORDS = N_("Non-consecutive: digits in cells that share an edge never differ by 1.")
    REASON = N_("non-consecutive: digits in cells that share an edge never differ by 1")

    STEP = N_("Non-consecutive")
    BY_CELL = True

    def relation(self, geometry: Geometry) -> Relation:
        allow = table(geometry.size, lambda a, b: abs(a - b) != 1)
        return unmarked_orthogonal(geometry), allow
