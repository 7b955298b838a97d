"""Arrow: the digits on the arrow's line add up to the number in its bulb.

The bulb is one cell, or a "pill" of two or three cells read as one number in reading order
(row by row, left to right), as f-puzzles reads it. Digits on the line may repeat unless a
house forbids it. f-puzzles ``arrow``: ``[{"cells": [bulb cells], "lines": [[bulb cell, line
cells ...], ...]}]``; each line is an arrow of its own from the shared bulb. Our spelling:
``ar_`` the bulb's cells, ``_`` the line (from the bulb).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..board import Geometry, PuzzleError
from ..wording import Words, capital, words
from . import sums
from .base import (
    N_,
    Bulb,
    Drawing,
    Line,
    Propagator,
    Reading,
    Rule,
    cells_token,
    digits,
    fp_cells,
    fp_items,
    fp_lines,
    fp_name,
    memoised,
    names,
    parse_cells,
    path_errors,
    problem,
    refused,
)

MAX_PILL = 3


@dataclass(frozen=True)
class Arrow(Rule):
    """A bulb (its cells in reading order) and the line drawn from it."""

    KEY = "ar"
    NAME = N_("arrow")
    FPUZZLES = ("arrow",)
    WORDS = N_(
        "Digits on an arrow add up to the number in its circle; a circle of two or three "
        "cells reads them as one number, left to right and top to bottom."
    )

    STEP = N_("Arrow sum")
    STEP_GRADE = "Medium"

    bulb: tuple[int, ...]
    line: tuple[int, ...]

    @property
    def shaft(self) -> tuple[int, ...]:
        """The cells on the line outside the bulb, in order."""
        bulb = set(self.bulb)
        return tuple(c for c in self.line if c not in bulb)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.bulb + self.shaft

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        out: list[Rule] = []
        for item in fp_items(value, name):
            bulb = tuple(sorted(fp_cells(item.get("cells"), reading.size)))
            out.extend(cls(bulb, line) for line in fp_lines(item, reading.size))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        out.setdefault("arrow", []).append(
            {
                "cells": [fp_name(c, size) for c in self.bulb],
                "lines": [[fp_name(c, size) for c in self.line]],
            }
        )

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 2:
            raise refused(N_("An arrow is ar_, its bulb's cells, then _ and its line."))
        bulb = tuple(sorted(parse_cells(args[0], size, words(N_("arrow bulb")))))
        return cls(bulb, parse_cells(args[1], size, words(N_("arrow line"))))

    def spell(self, size: int) -> str:
        return f"{cells_token(self.bulb, size)}_{cells_token(self.line, size)}"

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        where = words(N_("the arrow from {cell}"), cell=geometry.cell_name(self.bulb[0]))
        arrow = capital(where)
        out: list[PuzzleError] = []
        if len(self.bulb) > MAX_PILL or len(set(self.bulb)) != len(self.bulb):
            said = words(
                N_("{arrow} has a bulb of {count} cells; at most 3."),
                arrow=arrow,
                count=len(self.bulb),
            )
            out.append(problem(said, self.bulb))
            return out
        if len(self.bulb) > 1 and geometry.size > 9:
            said = words(
                N_(
                    "{arrow} has a bulb of {count} cells, read as a number; that needs digits"
                    " 1-9, not a grid larger than 9x9."
                ),
                arrow=arrow,
                count=len(self.bulb),
            )
            out.append(problem(said, self.bulb))
        out.extend(path_errors(self.line, geometry, where))
        shaft = self.shaft
        if not shaft:
            said = words(N_("{arrow} has no cell on its line."), arrow=arrow)
            out.append(problem(said, self.bulb))
        largest = int(str(geometry.size) * len(self.bulb)) if geometry.size <= 9 else geometry.size
        if len(shaft) > largest:
            out.append(
                problem(
                    words(
                        N_(
                            "{arrow} has {count} cells on its line ({cells}): their sum is at"
                            " least {count}, more than its bulb can show."
                        ),
                        arrow=arrow,
                        count=len(shaft),
                        cells=names(shaft, geometry),
                    ),
                    shaft,
                )
            )
        return out

    def propagator(self, geometry: Geometry) -> Propagator:
        split = len(self.bulb)
        groups = sums.groups_of(self.shaft, geometry.peers)
        return memoised(
            self.bulb + self.shaft, lambda key: _narrow(key[:split], key[split:], groups)
        )

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        return _number([grid[c] for c in self.bulb]) == sum(grid[c] for c in self.shaft)

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(
            lines=(Line(self.line, "grey", "thin", arrowhead=True),),
            bulbs=(Bulb(self.bulb, "grey", filled=False),),
        )

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        shaft = self.shaft
        return words(
            N_(
                "the arrow from {bulb} adds up {cells} to its bulb: with the candidates left the "
                "line makes between {low} and {high}, so the bulb must be a number the line can "
                "make, and each line cell no more than the bulb allows beside the smallest the "
                "others can add"
            ),
            bulb=names(self.bulb, geometry),
            cells=names(shaft, geometry),
            low=str(sum(digits(masks[c])[0] for c in shaft)),
            high=str(sum(digits(masks[c])[-1] for c in shaft)),
        )

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Arrow: {cells} add up to the bulb {bulb} (read as one number).")
            if len(self.bulb) > 1
            else N_("Arrow: {cells} add up to the bulb {bulb}."),
            cells=names(self.shaft, geometry),
            bulb=names(self.bulb, geometry),
        )


def _number(values: Sequence[int]) -> int:
    """A bulb's digits read as one number (a single cell: its digit)."""
    out = 0
    for v in values:
        out = out * 10 + v if len(values) > 1 else v
    return out


def _narrow(
    bulb: Sequence[int], shaft: Sequence[int], groups: Sequence[tuple[int, ...]]
) -> tuple[int, ...]:
    """The bulb's and the line's masks keeping only what some (bulb number, line sum) allows;
    the line cells of each group (they share a house) differ."""
    reach = sums.reachable(shaft)
    if len(bulb) == 1:
        values = bulb[0] & (reach >> 1)  # bulb digit v needs line total v (bit v)
        new_shaft, hit = sums.narrow_groups(shaft, values << 1, groups)
        return (values & (hit >> 1), *new_shaft)
    kept = [0] * len(bulb)
    targets = 0
    for combo in product(*(digits(m) for m in bulb)):
        value = _number(combo)
        if reach >> value & 1:
            targets |= 1 << value
            for i, d in enumerate(combo):
                kept[i] |= 1 << (d - 1)
    new_shaft, hit = sums.narrow_groups(shaft, targets, groups)
    if hit != targets:
        kept = [0] * len(bulb)
        for combo in product(*(digits(m) for m in bulb)):
            if hit >> _number(combo) & 1:
                for i, d in enumerate(combo):
                    kept[i] |= 1 << (d - 1)
    return (*kept, *new_shaft)
