"""Little killer: the digits on a diagonal, from an outside clue, add up to the clue.

Digits may repeat unless a house forbids it. f-puzzles ``littlekillersum``: ``[{"cell":
"R0C4", "direction": "DL", "value": "17", "cells": [...]}]``: the clue's place outside the
grid and the direction of its arrow (UL, UR, DL, DR); the cells are those of the diagonal.
Our spelling: ``lk_`` the clue's place (row, column; ``0`` is the outside top or left
line), the direction in lower case, and the total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Geometry, PuzzleError
from ..wording import Np_, Words, counted, words
from . import sums
from .base import (
    COORDS,
    N_,
    Clue,
    Drawing,
    Propagator,
    Reading,
    Rule,
    fp_items,
    fp_name,
    fp_number,
    fp_position,
    memoised,
    names,
    parse_number,
    problem,
    refused,
)

STEPS = {"ul": (-1, -1), "ur": (-1, 1), "dl": (1, -1), "dr": (1, 1)}
_PLACES = "0" + COORDS  # an outside place: row or column -1 .. N as one character


@dataclass(frozen=True)
class LittleKiller(Rule):
    """A clue at ``at`` (outside the grid) summing the diagonal it points along."""

    KEY = "lk"
    NAME = N_("little killer clue")
    FPUZZLES = ("littlekillersum",)
    WORDS = N_(
        "A number outside the grid with an arrow gives the sum of the digits on that "
        "diagonal; digits may repeat."
    )

    STEP = N_("Little killer sum")
    STEP_GRADE = "Medium"

    at: tuple[int, int]
    direction: str
    total: int

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        out: list[Rule] = []
        for item in fp_items(value, name):
            total = fp_number(item.get("value"), words(N_("A little killer clue")))
            if total is None:
                continue  # a clue without a number says nothing
            direction = str(item.get("direction", "")).lower()
            if direction not in STEPS:
                raise refused(
                    N_("A little killer clue points {direction}."), direction=repr(direction)
                )
            out.append(cls(fp_position(item.get("cell")), direction, total))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        row, col = self.at
        out.setdefault("littlekillersum", []).append(
            {
                "cell": f"R{row + 1}C{col + 1}",
                "cells": [fp_name(c, size) for c in self.cells_on(size)],
                "direction": self.direction.upper(),
                "value": str(self.total),
            }
        )

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 3 or len(args[0]) != 2 or args[1] not in STEPS:
            raise refused(N_("A little killer clue is lk_, its place, _ul/ur/dl/dr, _total."))
        row, col = (_PLACES.find(ch) - 1 for ch in args[0])
        return cls((row, col), args[1], parse_number(args[2], Words(cls.NAME)))

    def spell(self, size: int) -> str:
        place = "".join(_PLACES[v + 1] for v in self.at)
        return f"{place}_{self.direction}_{self.total}"

    def cells_on(self, size: int) -> tuple[int, ...]:
        """The diagonal's cells from the clue."""
        dr, dc = STEPS[self.direction]
        row, col = self.at[0] + dr, self.at[1] + dc
        out = []
        while 0 <= row < size and 0 <= col < size:
            out.append(row * size + col)
            row, col = row + dr, col + dc
        return tuple(out)

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        n = geometry.size
        row, col = self.at
        outside = not (0 <= row < n and 0 <= col < n) and -1 <= row <= n and -1 <= col <= n
        cells = self.cells_on(n) if outside else ()
        at = f"R{row + 1}C{col + 1}"
        if not cells:
            said = words(
                N_(
                    "The little killer clue {total} at {cell} does not point into the grid from"
                    " outside it."
                ),
                total=self.total,
                cell=at,
            )
            return [problem(said)]
        if not len(cells) <= self.total <= len(cells) * n:
            message = counted(
                Np_(
                    "The little killer clue {total} at {cell} sums {cells}: {count} digit"
                    " cannot add up to {total}.",
                    "The little killer clue {total} at {cell} sums {cells}: {count} digits"
                    " cannot add up to {total}.",
                ),
                len(cells),
                total=self.total,
                cell=at,
                cells=names(cells, geometry),
                count=len(cells),
            )
            return [problem(message, cells)]
        return []

    def propagator(self, geometry: Geometry) -> Propagator:
        cells = self.cells_on(geometry.size)
        target = 1 << self.total
        groups = sums.groups_of(cells, geometry.peers)
        return memoised(cells, lambda key: tuple(sums.narrow_groups(key, target, groups)[0]))

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        return sum(grid[c] for c in self.cells_on(geometry.size)) == self.total

    def drawing(self, geometry: Geometry) -> Drawing:
        dr, dc = STEPS[self.direction]
        toward = (self.at[0] + dr, self.at[1] + dc)
        return Drawing(clues=(Clue(self.at, str(self.total), toward),))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells_on(geometry.size)

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        return words(
            N_(
                "the little killer {total} says {cells} add up to {total} (a digit may repeat on "
                "the diagonal); with the candidates left, a digit that is in no filling making "
                "that total cannot stay"
            ),
            total=str(self.total),
            cells=names(self.cells_on(geometry.size), geometry),
        )

    def describe(self, geometry: Geometry) -> Words:
        cells = self.cells_on(geometry.size)
        return words(
            N_("Little killer: {cells} add up to {total}."),
            cells=names(cells, geometry),
            total=self.total,
        )
