"""Renban: the digits on the line are a set of consecutive digits, in any order.

f-puzzles ``renban``: ``[{"lines": [[...]]}]``. Our spelling: ``rb_`` and the cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..board import Geometry, PuzzleError
from ..cage_rule import sees_bits
from ..wording import Words, capital, listing, words
from .base import N_, LineRule, Propagator, digits, names, problem
from .needed import confine


@dataclass(frozen=True)
class Renban(LineRule):
    """Different digits on the line forming a run of consecutive digits."""

    KEY = "rb"
    NAME = N_("renban line")
    WHERE = N_("the renban line from {cell}")
    FPUZZLES = ("renban",)
    WORDS = N_("A renban line holds different digits that form a run, in any order.")
    COLOUR = "purple"
    MIN_CELLS = 1

    STEP = N_("Renban")
    STEP_GRADE = "Medium"

    cells: tuple[int, ...]

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        out = super().errors(geometry)
        if len(set(self.cells)) > geometry.size:
            message = words(
                N_(
                    "{line} has {count} cells; different digits 1 to {size} cannot fill"
                    " more than {size}."
                ),
                line=capital(self.where(geometry)),
                count=len(self.cells),
                size=geometry.size,
            )
            out.append(problem(message, self.cells))
        return out

    def propagator(self, geometry: Geometry) -> Propagator:
        cells = tuple(dict.fromkeys(self.cells))
        k = len(cells)
        size = geometry.size
        run = (1 << k) - 1
        windows = tuple(run << s for s in range(size - k + 1))

        memo: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
        sees = sees_bits(geometry.base)

        def narrow(m: list[int]) -> bool:
            key = tuple(m[c] for c in cells)
            found = memo.get(key)
            if found is None:
                found = _narrow(key, windows)
                if len(memo) > 20_000:
                    memo.clear()
                memo[key] = found
            new, needed = found
            changed = new != key
            if changed:
                for c, kept in zip(cells, new, strict=True):
                    m[c] = kept
            # A digit the line needs leaves every cell that sees all its places on the line.
            return confine(m, cells, needed, sees) or changed

        return narrow

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        values = {grid[c] for c in self.cells}
        return len(values) == len(set(self.cells)) and max(values) - min(values) == len(values) - 1

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        cells = tuple(dict.fromkeys(self.cells))
        k = len(cells)
        runs = [
            f"{low}-{low + k - 1}"
            for low in range(1, geometry.size - k + 2)
            if all(any(low <= d < low + k for d in digits(masks[c])) for c in cells)
        ]
        return words(
            N_(
                "the renban {cells} holds {count} different consecutive digits; with the "
                "candidates left the run can only be {runs}, and a digit outside every run that "
                "fits (or placed elsewhere on the line) cannot stay"
            ),
            cells=names(cells, geometry),
            count=str(k),
            runs=listing(runs, "or") if runs else words(N_("none")),
        )

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Renban {cells}: different digits forming a run of {count}, in any order."),
            cells=names(self.cells, geometry),
            count=len(set(self.cells)),
        )


def _narrow(masks: tuple[int, ...], windows: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The line's masks keeping the digits of the runs (``windows``) that still fit, placed
    digits out of the other cells, and a digit every run needs in its only possible cell;
    and the digits every run needs that are not placed yet (in two or more cells)."""
    placed = 0
    union = 0
    for mask in masks:
        union |= mask
        if not mask & (mask - 1):
            if mask & placed:
                return (0,) * len(masks), 0  # one digit twice on the line
            placed |= mask
    allowed = 0
    needed = -1
    for w in windows:
        if placed & ~w or union & w != w:
            continue
        if all(mask & w for mask in masks):
            allowed |= w
            needed &= w
    if not allowed:
        return (0,) * len(masks), 0
    out = [mask & allowed if not mask & (mask - 1) else mask & allowed & ~placed for mask in masks]
    needed &= ~placed
    shared = 0
    rest = needed
    while rest > 0:
        low = rest & -rest
        rest ^= low
        holders = [i for i, mask in enumerate(out) if mask & low]
        if len(holders) == 1:
            out[holders[0]] = low
        elif not holders:
            return (0,) * len(masks), 0
        else:
            shared |= low
    return tuple(out), shared
