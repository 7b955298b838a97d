"""Kropki dots between two orthogonal neighbours.

White (f-puzzles ``difference``): the digits differ by the dot's value (1 unless given).
Black (f-puzzles ``ratio``): one digit is the value times the other (2 unless given).
``[{"cells": ["R1C1", "R1C2"], "value": "3"}]``. Our spelling: ``kr_w_`` or ``kr_b_`` then
the two cells, then ``_`` and the value when it is not the default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..board import Geometry, PuzzleError
from ..wording import Words, capital, words
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
    fp_number,
    orthogonal,
    parse_cells,
    parse_number,
    problem,
    refused,
)
from .pairs import PairRule, pair_reason, table

DEFAULT = {"w": 1, "b": 2}
_FIELD = {"w": "difference", "b": "ratio"}


def related(colour: Literal["w", "b"], value: int) -> Any:
    """The relation of a dot: ``(a, b) -> bool``."""
    if colour == "w":
        return lambda a, b: abs(a - b) == value
    return lambda a, b: a == b * value or b == a * value


@dataclass(frozen=True)
class Kropki(PairRule):
    """A white (difference) or black (ratio) dot between two neighbours."""

    KEY = "kr"
    NAME = N_("kropki dot")
    FPUZZLES = ("difference", "ratio")
    WORDS = N_(
        "Digits joined by a white dot differ by its value (1 unless shown); digits joined by a "
        "black dot are in the ratio of its value (2 unless shown): one is that many times the "
        "other."
    )

    STEP = N_("Kropki dot")

    colour: Literal["w", "b"]
    cells: tuple[int, int]
    value: int

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        colour: Literal["w", "b"] = "w" if name == "difference" else "b"
        out: list[Rule] = []
        for item in fp_items(value, name):
            a, b, *rest = fp_cells(item.get("cells"), reading.size) + (-1,)
            if rest != [-1]:
                raise refused(N_("A {field} dot must join exactly two cells."), field=name)
            number = fp_number(item.get("value"), words(N_("A {field} dot"), field=name))
            cells = (min(a, b), max(a, b))
            out.append(cls(colour, cells, DEFAULT[colour] if number is None else number))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        item: dict[str, Any] = {"cells": [fp_name(c, size) for c in self.cells]}
        if self.value != DEFAULT[self.colour]:
            item["value"] = str(self.value)
        out.setdefault(_FIELD[self.colour], []).append(item)

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) not in (2, 3) or args[0] not in DEFAULT:
            raise refused(N_("A kropki dot is kr_w_ or kr_b_, two cells, and _value."))
        colour: Literal["w", "b"] = "w" if args[0] == "w" else "b"
        cells = parse_cells(args[1], size, Words(cls.NAME))
        if len(cells) != 2:
            raise refused(N_("A kropki dot joins exactly two cells."))
        value = parse_number(args[2], Words(cls.NAME)) if len(args) == 3 else DEFAULT[colour]
        return cls(colour, (min(cells), max(cells)), value)

    def spell(self, size: int) -> str:
        parts = [self.colour, cells_token(self.cells, size)]
        if self.value != DEFAULT[self.colour]:
            parts.append(str(self.value))
        return "_".join(parts)

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        a, b = self.cells
        where = words(
            N_("the white dot between {first} and {second}")
            if self.colour == "w"
            else N_("the black dot between {first} and {second}"),
            first=geometry.cell_name(a),
            second=geometry.cell_name(b),
        )
        out = []
        if a == b or not orthogonal(a, b, geometry.size):
            said = words(N_("{mark} joins cells that do not share an edge."), mark=capital(where))
            out.append(problem(said, self.cells))
        if self.value < (0 if self.colour == "w" else 1) or self.value >= geometry.size * 2:
            said = words(N_("{mark} has the value {value}."), mark=capital(where), value=self.value)
            out.append(problem(said, self.cells))
        return out

    def relation(self, geometry: Geometry) -> Relation:
        return (self.cells,), table(geometry.size, related(self.colour, self.value))

    def marks(self) -> tuple[Mark, ...]:
        return (Mark(self.cells, self.colour, self.value),)

    def drawing(self, geometry: Geometry) -> Drawing:
        label = "" if self.value == DEFAULT[self.colour] else str(self.value)
        fill: Literal["white", "black"] = "white" if self.colour == "w" else "black"
        return Drawing(dots=(Dot(self.cells, fill, label),))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        a, b = (geometry.cell_name(c) for c in self.cells)
        template = (
            N_("white dot: {a} and {b} differ by {value}")
            if self.colour == "w"
            else N_("black dot: one of {a} and {b} is {value} times the other")
        )
        said = words(template, a=a, b=b, value=str(self.value))
        return pair_reason(said, self.cells, masks, geometry)

    def _words(self) -> str:
        return "white dot" if self.colour == "w" else "black dot"

    def describe(self, geometry: Geometry) -> Words:
        a, b = (geometry.cell_name(c) for c in self.cells)
        if self.colour == "w":
            return words(
                N_("White dot: {first} and {second} differ by {value}."),
                first=a,
                second=b,
                value=self.value,
            )
        return words(
            N_("Black dot: one of {first} and {second} is {value} times the other."),
            first=a,
            second=b,
            value=self.value,
        )
