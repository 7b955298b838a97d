"""Thermometer: digits strictly increase along the line from its bulb.

f-puzzles ``thermometer``: ``[{"lines": [["R1C1", "R1C2", ...], ...]}]`` (each line a
thermometer from the shared bulb). Our spelling: ``th_`` and the cells from the bulb.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..board import Geometry, PuzzleError
from ..wording import Words, capital, words
from .base import N_, Bulb, Drawing, LineRule, Propagator, digits, names, problem


@dataclass(frozen=True)
class Thermometer(LineRule):
    """Cells from the bulb whose digits strictly increase."""

    KEY = "th"
    NAME = N_("thermometer")
    WHERE = N_("the thermometer from {cell}")
    FPUZZLES = ("thermometer",)
    WORDS = N_("Along a thermometer, digits strictly increase from the bulb.")

    COLOUR = "grey"
    STEP = N_("Thermometer")
    cells: tuple[int, ...]

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        where = self.where(geometry)
        out = super().errors(geometry)
        if len(self.cells) > geometry.size:
            out.append(
                problem(
                    words(
                        N_(
                            "{line} has {count} cells ({cells}); digits 1 to {size} cannot"
                            " strictly increase over more than {size}."
                        ),
                        line=capital(where),
                        count=len(self.cells),
                        cells=names(self.cells, geometry),
                        size=geometry.size,
                    ),
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
        return super().drawing(geometry) + Drawing(
            bulbs=(Bulb(self.cells[:1], "grey", filled=True),)
        )

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        lows = [digits(masks[c])[0] for c in self.cells]
        highs = [digits(masks[c])[-1] for c in self.cells]
        return words(
            N_(
                "the thermometer from {cell} ({count} cells) climbs from its bulb: each cell is "
                "above the smallest digit the cell before it can take and below the largest the "
                "cell after it can take (here at least {lows} and at most {highs} along it)"
            ),
            cell=geometry.cell_name(self.cells[0]),
            count=str(len(self.cells)),
            lows="-".join(map(str, _climb(lows))),
            highs="-".join(map(str, _fall(highs, geometry.size))),
        )

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Thermometer {cells}: digits strictly increase from the bulb at {bulb}."),
            cells=names(self.cells, geometry),
            bulb=geometry.cell_name(self.cells[0]),
        )


def _climb(lows: Sequence[int]) -> list[int]:
    """Per cell, the smallest digit the climb allows from the bulb."""
    out, floor = [], 0
    for low in lows:
        floor = max(floor + 1, low)
        out.append(floor)
    return out


def _fall(highs: Sequence[int], size: int) -> list[int]:
    """Per cell, the largest digit the climb allows toward the tip."""
    out, ceiling = [], size + 1
    for high in reversed(highs):
        ceiling = min(ceiling - 1, high)
        out.append(ceiling)
    return out[::-1]
