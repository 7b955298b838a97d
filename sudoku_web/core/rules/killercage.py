"""Killer cage: digits in a cage are all different and, when it has a total, add up to it.

A cage with a total is also one of the board's cages (:attr:`Geometry.cages`), which the
engine's cage rule narrows (:mod:`sudoku_web.core.cage_rule`, with the 45 rule); a cage
without one only keeps its digits different. f-puzzles ``killercage``: ``[{"cells": [...],
"value": "15"}]`` (the value optional). Our spelling: ``kc_`` the cells, ``_`` the total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Cage, Geometry, PuzzleError
from ..cage_rule import sees_bits
from ..wording import Words, words
from .base import (
    N_,
    Deduction,
    Drawing,
    Outline,
    Propagator,
    Reading,
    Relation,
    Rule,
    cells_token,
    fp_cells,
    fp_items,
    fp_name,
    fp_number,
    names,
    parse_cells,
    parse_number,
    problem,
    refused,
)
from .needed import confine
from .pairs import differ, narrow_pairs, pair_deduction, unseen


@dataclass(frozen=True)
class KillerCage(Rule):
    """Cells (ascending) with different digits adding up to ``total`` (None: any)."""

    KEY = "kc"
    NAME = N_("killer cage")
    FPUZZLES = ("killercage",)
    WORDS = N_(
        "Digits in a cage are all different and add up to the small number in its corner, "
        "when it has one."
    )

    STEP = N_("Killer cage")

    cells: tuple[int, ...]
    total: int | None = None

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        out: list[Rule] = []
        for item in fp_items(value, name):
            cells = tuple(sorted(set(fp_cells(item.get("cells"), reading.size))))
            out.append(cls(cells, fp_number(item.get("value"), words(N_("A killer cage")))))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        item: dict[str, Any] = {"cells": [fp_name(c, size) for c in self.cells]}
        if self.total is not None:
            item["value"] = str(self.total)
        out.setdefault("killercage", []).append(item)

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) not in (1, 2):
            raise refused(N_("A killer cage is kc_, its cells, and _total if it has one."))
        cells = tuple(sorted(set(parse_cells(args[0], size, Words(cls.NAME)))))
        total = parse_number(args[1], Words(cls.NAME)) if len(args) == 2 else None
        return cls(cells, total)

    def spell(self, size: int) -> str:
        cells = cells_token(self.cells, size)
        return cells if self.total is None else f"{cells}_{self.total}"

    def cage(self) -> Cage | None:
        return None if self.total is None else Cage(self.total, self.cells)

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        # A cage with a total is checked with the board's cages (cages.cage_errors).
        if self.total is None and len(self.cells) > geometry.size:
            message = words(
                N_(
                    "The killer cage {cells} has {count} cells; different digits cannot fill"
                    " more than {size}."
                ),
                cells=names(self.cells, geometry),
                count=len(self.cells),
                size=geometry.size,
            )
            return [problem(message, self.cells)]
        return []

    def propagator(self, geometry: Geometry) -> Propagator | None:
        relation = self.relation(geometry)
        if relation is None:
            return None  # a total: the engine's cage rule carries it
        apart = narrow_pairs(*relation)
        cells = self.cells
        if len(cells) < geometry.size:
            return apart
        # A cage of N cells holds every digit once, like a house.
        every, sees = (1 << geometry.size) - 1, sees_bits(geometry.base)

        def narrow(m: list[int]) -> bool:
            return apart(m) | confine(m, cells, every, sees)

        return narrow

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        values = [grid[c] for c in self.cells]
        distinct = len(set(values)) == len(values)
        return distinct and (self.total is None or sum(values) == self.total)

    def drawing(self, geometry: Geometry) -> Drawing:
        label = "" if self.total is None else str(self.total)
        return Drawing(outlines=(Outline(self.cells, label),))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells

    def relation(self, geometry: Geometry) -> Relation | None:
        if self.total is not None:
            return None  # a sum too: not a relation between pairs
        cells = self.cells
        pairs = [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]
        return unseen(pairs, geometry), differ(geometry.size)

    def deduce(
        self, masks: Sequence[int], geometry: Geometry, propagate: Propagator
    ) -> Deduction | None:
        relation = self.relation(geometry)
        return None if relation is None else pair_deduction(self, masks, geometry, *relation)

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        return words(
            N_("no digit repeats in the killer cage {cells}"), cells=names(self.cells, geometry)
        )

    def describe(self, geometry: Geometry) -> Words:
        cells = names(self.cells, geometry)
        if self.total is None:
            return words(N_("Killer cage {cells}: different digits."), cells=cells)
        return words(
            N_("Killer cage {cells}: different digits, adding up to {total}."),
            cells=cells,
            total=self.total,
        )
