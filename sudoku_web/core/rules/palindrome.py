"""Palindrome: the line reads the same from either end.

f-puzzles ``palindrome``: ``[{"lines": [[...]]}]``. Our spelling: ``pd_`` and the cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..board import Geometry, PuzzleError
from ..wording import Words, capital, words
from .base import N_, LineRule, Relation, names, problem
from .pairs import PairRule, table


@dataclass(frozen=True)
class Palindrome(LineRule, PairRule):
    """The i-th cell from either end hold the same digit."""

    KEY = "pd"
    NAME = N_("palindrome line")
    WHERE = N_("the palindrome line from {cell}")
    FPUZZLES = ("palindrome",)
    WORDS = N_("A palindrome line reads the same from either end.")
    COLOUR = "grey"
    STYLE = "thin"

    STEP = N_("Palindrome")

    cells: tuple[int, ...]

    def _pairs(self) -> tuple[tuple[int, int], ...]:
        cells = self.cells
        return tuple((cells[i], cells[-1 - i]) for i in range(len(cells) // 2))

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        out = super().errors(geometry)
        for a, b in self._pairs():
            if b in geometry.peers[a]:
                message = words(
                    N_(
                        "{line} needs {first} and {second} to hold the same digit, but they"
                        " share a house."
                    ),
                    line=capital(self.where(geometry)),
                    first=geometry.cell_name(a),
                    second=geometry.cell_name(b),
                )
                out.append(problem(message, (a, b)))
        return out

    def relation(self, geometry: Geometry) -> Relation:
        return self._pairs(), table(geometry.size, int.__eq__)

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        mirrored = [
            f"{geometry.cell_name(a)} = {geometry.cell_name(b)}"
            for a, b in self._pairs()
            if a in removed or b in removed
        ]
        return words(
            N_(
                "the palindrome from {cell} reads the same from either end, so mirrored cells "
                "hold the same digit ({pairs}) and each keeps only the candidates the two share"
            ),
            cell=geometry.cell_name(self.cells[0]),
            pairs=", ".join(mirrored),
        )

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Palindrome {cells}: it reads the same from either end."),
            cells=names(self.cells, geometry),
        )
