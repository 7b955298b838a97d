"""A diagonal as one more house: its digits are all different.

f-puzzles ``diagonal+`` (the positive diagonal, bottom left to top right) and ``diagonal-``
(top left to bottom right), each ``true``. Our spelling: ``dg_p`` and ``dg_m``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..board import Geometry, House
from ..wording import N_, Words
from .base import Drawing, Line, Reading, Rule, global_flag, refused

_FIELD = {"p": "diagonal+", "m": "diagonal-"}


@dataclass(frozen=True)
class MainDiagonal(Rule):
    """The positive (``p``) or negative (``m``) main diagonal as a house."""

    KEY = "dg"
    NAME = N_("diagonal")
    FPUZZLES = ("diagonal+", "diagonal-")
    WORDS = N_("Digits do not repeat on a marked diagonal.")

    slope: Literal["p", "m"]

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        if not global_flag(name, value):
            return []
        return [cls("p" if name == "diagonal+" else "m")]

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        out[_FIELD[self.slope]] = True

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if args not in (["p"], ["m"]):
            raise refused(N_("A diagonal is dg_p (bottom left to top right) or dg_m."))
        return cls("p" if args == ["p"] else "m")

    def spell(self, size: int) -> str:
        return self.slope

    def cells_on(self, size: int) -> tuple[int, ...]:
        """The diagonal's cells, from the top row down."""
        if self.slope == "m":
            return tuple(i * size + i for i in range(size))
        return tuple(i * size + size - 1 - i for i in range(size))

    def houses(self, geometry: Geometry) -> tuple[House, ...]:
        # The index matches the board's own diagonals: 0 the main, 1 the anti-diagonal.
        index = 0 if self.slope == "m" else 1
        return (House("diagonal", index, self.cells_on(geometry.size)),)

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        values = [grid[c] for c in self.cells_on(geometry.size)]
        return len(set(values)) == len(values)

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(lines=(Line(self.cells_on(geometry.size), "blue", "dashed"),))

    def describe(self, geometry: Geometry) -> Words:
        return Words(
            N_("Digits do not repeat on the diagonal from bottom left to top right.")
            if self.slope == "p"
            else N_("Digits do not repeat on the diagonal from top left to bottom right.")
        )
