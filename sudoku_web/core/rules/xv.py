"""XV: the two digits beside an X add up to 10, beside a V to 5.

f-puzzles ``xv``: ``[{"cells": ["R1C1", "R1C2"], "value": "X"}]``. Our spelling: ``xv_x_`` or
``xv_v_`` then the two cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..board import Geometry, PuzzleError
from ..wording import Words, words
from .base import (
    N_,
    Dot,
    Drawing,
    Mark,
    Reading,
    Relation,
    Rule,
    cells_token,
    fp_cells,
    fp_items,
    fp_name,
    orthogonal,
    parse_cells,
    problem,
    refused,
)
from .pairs import PairRule, pair_reason, table

TOTALS = {"x": 10, "v": 5}


@dataclass(frozen=True)
class XV(PairRule):
    """An X (sum 10) or a V (sum 5) between two neighbours."""

    KEY = "xv"
    NAME = N_("XV letter")
    FPUZZLES = ("xv",)
    WORDS = N_("Digits joined by an X add up to 10; digits joined by a V add up to 5.")

    STEP = N_("XV pair")

    letter: Literal["x", "v"]
    cells: tuple[int, int]

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        out: list[Rule] = []
        for item in fp_items(value, name):
            cells = fp_cells(item.get("cells"), reading.size)
            letter = str(item.get("value", "")).strip().lower()
            if len(cells) != 2 or letter not in TOTALS:
                raise refused(
                    N_("An xv mark must join two cells with X or V, not {letter}."),
                    letter=repr(letter),
                )
            out.append(cls("x" if letter == "x" else "v", (min(cells), max(cells))))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        item = {"cells": [fp_name(c, size) for c in self.cells], "value": self.letter.upper()}
        out.setdefault("xv", []).append(item)

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 2 or args[0] not in TOTALS:
            raise refused(N_("An XV mark is xv_x_ or xv_v_ and two cells."))
        cells = parse_cells(args[1], size, words(N_("XV mark")))
        if len(cells) != 2:
            raise refused(N_("An XV mark joins exactly two cells."))
        return cls("x" if args[0] == "x" else "v", (min(cells), max(cells)))

    def spell(self, size: int) -> str:
        return f"{self.letter}_{cells_token(self.cells, size)}"

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        a, b = self.cells
        if a != b and orthogonal(a, b, geometry.size):
            return []
        said = words(
            N_("The {letter} between {first} and {second} joins cells that do not share an edge."),
            letter=self.letter.upper(),
            first=geometry.cell_name(a),
            second=geometry.cell_name(b),
        )
        return [problem(said, self.cells)]

    def relation(self, geometry: Geometry) -> Relation:
        total = TOTALS[self.letter]
        return (self.cells,), table(geometry.size, lambda a, b: a + b == total)

    def marks(self) -> tuple[Mark, ...]:
        return (Mark(self.cells, "xv", TOTALS[self.letter]),)

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(dots=(Dot(self.cells, "white", self.letter.upper(), letter=True),))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        a, b = (geometry.cell_name(c) for c in self.cells)
        said = words(
            N_("{letter}: {a} and {b} add up to {total}"),
            letter=self.letter.upper(),
            a=a,
            b=b,
            total=str(TOTALS[self.letter]),
        )
        return pair_reason(said, self.cells, masks, geometry)

    def describe(self, geometry: Geometry) -> Words:
        a, b = (geometry.cell_name(c) for c in self.cells)
        return words(
            N_("{letter}: {first} and {second} add up to {total}."),
            letter=self.letter.upper(),
            first=a,
            second=b,
            total=TOTALS[self.letter],
        )
