"""Thermometer: digits strictly increase along the line from its bulb.

f-puzzles ``thermometer``: ``[{"lines": [["R1C1", "R1C2", ...], ...]}]`` (each line a
thermometer from the shared bulb). Our spelling: ``th_`` and the cells from the bulb.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Geometry, PuzzleError
from .base import (
    Bulb,
    Drawing,
    Line,
    Propagator,
    Reading,
    Rule,
    RuleError,
    cells_token,
    fp_items,
    fp_lines,
    fp_name,
    names,
    parse_cells,
    path_errors,
    problem,
)


@dataclass(frozen=True)
class Thermometer(Rule):
    """Cells from the bulb whose digits strictly increase."""

    KEY = "th"
    NAME = "thermometer"
    FPUZZLES = ("thermometer",)
    WORDS = "Along a thermometer, digits strictly increase from the bulb."

    cells: tuple[int, ...]

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        return [
            cls(line) for item in fp_items(value, name) for line in fp_lines(item, reading.size)
        ]

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        line = [fp_name(c, size) for c in self.cells]
        out.setdefault("thermometer", []).append({"lines": [line]})

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 1:
            raise RuleError([problem("A thermometer is th_ and its cells from the bulb.")])
        return cls(parse_cells(args[0], size, "thermometer"))

    def spell(self, size: int) -> str:
        return cells_token(self.cells, size)

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        where = f"thermometer from {geometry.cell_name(self.cells[0])}"
        out = path_errors(self.cells, geometry, where)
        if len(self.cells) < 2:
            out.append(problem(f"The {where} has no cell past its bulb.", self.cells))
        if len(self.cells) > geometry.size:
            out.append(
                problem(
                    f"The {where} has {len(self.cells)} cells ({names(self.cells, geometry)}); "
                    f"digits 1 to {geometry.size} cannot strictly increase over more than "
                    f"{geometry.size}.",
                    self.cells,
                )
            )
        return out

    def propagator(self, geometry: Geometry) -> Propagator:
        cells = self.cells
        full = (1 << geometry.size) - 1

        def narrow(m: list[int]) -> bool:
            changed = False
            # Forward: each cell above the smallest candidate of the one before.
            floor = 0  # digits not allowed: bits up to the previous cell's smallest
            for c in cells:
                mask = m[c]
                kept = mask & ~floor
                if kept != mask:
                    m[c] = kept
                    changed = True
                if not kept:
                    return True
                low = kept & -kept
                floor = (low << 1) - 1
            # Backward: each cell below the largest candidate of the one after.
            ceiling = full
            for c in reversed(cells):
                mask = m[c]
                kept = mask & ceiling
                if kept != mask:
                    m[c] = kept
                    changed = True
                if not kept:
                    return True
                ceiling = (1 << (kept.bit_length() - 1)) - 1
            return changed

        return narrow

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        values = [grid[c] for c in self.cells]
        return all(a < b for a, b in zip(values, values[1:], strict=False))

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(
            lines=(Line(self.cells, "thermometer"),),
            bulbs=(Bulb(self.cells[:1], "thermometer"),),
        )

    def describe(self, geometry: Geometry) -> str:
        return (
            f"Thermometer {names(self.cells, geometry)}: digits strictly increase from the "
            f"bulb at {geometry.cell_name(self.cells[0])}."
        )
