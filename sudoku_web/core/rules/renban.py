"""Renban: the digits on the line are a set of consecutive digits, in any order.

f-puzzles ``renban``: ``[{"lines": [[...]]}]``. Our spelling: ``rb_`` and the cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..board import Geometry, PuzzleError
from .base import LineRule, Propagator, digits, names, problem


@dataclass(frozen=True)
class Renban(LineRule):
    """Different digits on the line forming a run of consecutive digits."""

    KEY = "rb"
    NAME = "renban line"
    FPUZZLES = ("renban",)
    WORDS = "A renban line holds different digits that form a run, in any order."
    STYLE = "renban"
    MIN_CELLS = 1

    STEP = "Renban"
    STEP_GRADE = "Medium"

    cells: tuple[int, ...]

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        out = super().errors(geometry)
        if len(set(self.cells)) > geometry.size:
            message = (
                f"The {self.where(geometry)} has {len(self.cells)} cells; different digits "
                f"1 to {geometry.size} cannot fill more than {geometry.size}."
            )
            out.append(problem(message, self.cells))
        return out

    def propagator(self, geometry: Geometry) -> Propagator:
        cells = tuple(dict.fromkeys(self.cells))
        k = len(cells)
        size = geometry.size
        run = (1 << k) - 1
        windows = tuple(run << s for s in range(size - k + 1))

        def narrow(m: list[int]) -> bool:
            masks = [m[c] for c in cells]
            placed = 0
            union = 0
            for mask in masks:
                union |= mask
                if not mask & (mask - 1):
                    if mask & placed:
                        m[cells[0]] = 0  # one digit twice on the line
                        return True
                    placed |= mask
            allowed = 0
            for w in windows:
                if placed & ~w or union & w != w:
                    continue
                if all(mask & w for mask in masks):
                    allowed |= w
            changed = False
            for c, mask in zip(cells, masks, strict=True):
                kept = mask & allowed
                if mask & (mask - 1):
                    kept &= ~placed
                if kept != mask:
                    m[c] = kept
                    changed = True
            return changed

        return narrow

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        values = {grid[c] for c in self.cells}
        return len(values) == len(set(self.cells)) and max(values) - min(values) == len(values) - 1

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> str:
        cells = tuple(dict.fromkeys(self.cells))
        k = len(cells)
        runs = [
            f"{low}-{low + k - 1}"
            for low in range(1, geometry.size - k + 2)
            if all(any(low <= d < low + k for d in digits(masks[c])) for c in cells)
        ]
        return (
            f"the renban {names(cells, geometry)} holds {k} different consecutive digits; with "
            f"the candidates left the run can only be {' or '.join(runs) or 'none'}, and a digit "
            "outside every run that fits (or placed elsewhere on the line) cannot stay"
        )

    def describe(self, geometry: Geometry) -> str:
        return (
            f"Renban {names(self.cells, geometry)}: different digits forming a run of "
            f"{len(set(self.cells))}, in any order."
        )
