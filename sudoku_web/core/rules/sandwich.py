"""Sandwich: a clue beside a row or column gives the sum of the digits between its
smallest and largest digit (1 and 9 on a 9x9; 1 and N on an NxN, as f-puzzles reads it).

A sum of 0 means the two are next to each other. f-puzzles ``sandwichsum``: ``[{"cell":
"R0C3", "value": "15"}]``: above column 3 (``R0``) or left of row 3 (``C0``). Our
spelling: ``sw_c_3_15`` (column 3) or ``sw_r_3_15`` (row 3), 1-based.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..board import Geometry, PuzzleError, house_words
from ..wording import Value, Words, listing, words
from . import sums
from .base import (
    N_,
    Clue,
    Deduction,
    Drawing,
    Propagator,
    Reading,
    Rule,
    fp_items,
    fp_number,
    fp_position,
    memoised,
    parse_number,
    problem,
    refused,
    settle,
)


@dataclass(frozen=True)
class Sandwich(Rule):
    """The sum between the smallest and largest digit of row or column ``index``."""

    KEY = "sw"
    NAME = N_("sandwich clue")
    FPUZZLES = ("sandwichsum",)
    WORDS = N_(
        "A number beside a row or column gives the sum of the digits between its smallest "
        "and its largest digit (1 and 9 on a 9x9 grid)."
    )

    STEP = N_("Sandwich sum")
    STEP_GRADE = "Medium"

    line: Literal["r", "c"]
    index: int  # 0-based row or column
    total: int

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        n = reading.size
        out: list[Rule] = []
        for item in fp_items(value, name):
            total = fp_number(item.get("value"), words(N_("A sandwich clue")))
            if total is None:
                continue
            row, col = fp_position(item.get("cell"))
            if row in (-1, n) and 0 <= col < n:
                out.append(cls("c", col, total))
            elif col in (-1, n) and 0 <= row < n:
                out.append(cls("r", row, total))
            else:
                raise refused(
                    N_("The sandwich clue at {cell} is not beside the grid."),
                    cell=f"R{row + 1}C{col + 1}",
                )
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        cell = f"R0C{self.index + 1}" if self.line == "c" else f"R{self.index + 1}C0"
        out.setdefault("sandwichsum", []).append({"cell": cell, "value": str(self.total)})

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 3 or args[0] not in ("r", "c"):
            raise refused(N_("A sandwich clue is sw_r_ or sw_c_, its number, _total."))
        index = parse_number(args[1], Words(cls.NAME)) - 1
        if not 0 <= index < size:
            raise refused(
                N_("A sandwich clue names line {line} of {size}."), line=index + 1, size=size
            )
        total = parse_number(args[2], words(N_("sandwich")))
        return cls("r" if args[0] == "r" else "c", index, total)

    def spell(self, size: int) -> str:
        return f"{self.line}_{self.index + 1}_{self.total}"

    def cells_on(self, size: int) -> tuple[int, ...]:
        """The row's or column's cells, in order."""
        if self.line == "r":
            return tuple(self.index * size + c for c in range(size))
        return tuple(r * size + self.index for r in range(size))

    def _name(self) -> Words:
        return house_words("row" if self.line == "r" else "column", self.index)

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        n = geometry.size
        most = n * (n + 1) // 2 - 1 - n
        if not 0 <= self.total <= most or not 0 <= self.index < n:
            message = words(
                N_("The sandwich clue {total} of {line} cannot be made."),
                total=self.total,
                line=self._name(),
            )
            return [problem(message, self.cells_on(n) if 0 <= self.index < n else ())]
        return []

    def propagator(self, geometry: Geometry) -> Propagator:
        cells = self.cells_on(geometry.size)
        total, n = self.total, geometry.size
        return memoised(cells, lambda key: _narrow(key, total, n))

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        values = [grid[c] for c in self.cells_on(geometry.size)]
        if 1 not in values or geometry.size not in values:
            return False
        a, b = sorted((values.index(1), values.index(geometry.size)))
        return sum(values[a + 1 : b]) == self.total

    def drawing(self, geometry: Geometry) -> Drawing:
        at = (-1, self.index) if self.line == "c" else (self.index, -1)
        return Drawing(clues=(Clue(at, str(self.total)),))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells_on(geometry.size)

    def deduce(
        self, masks: Sequence[int], geometry: Geometry, propagate: Propagator
    ) -> Deduction | None:
        """The propagator's eliminations, and where the 1 and the largest digit can stand:
        as many cells apart as some filling of different digits between them has (a
        row's digits differ, which the propagator's sums do not know)."""
        after = settle(propagate, masks)
        if after is None:
            return None
        n = geometry.size
        cells = self.cells_on(n)
        gaps = {k + 1 for k in widths(self.total, n)}
        line = [after[c] for c in cells]
        for digit, other in ((1, n), (n, 1)):
            bit, partner = 1 << (digit - 1), 1 << (other - 1)
            for i, c in enumerate(cells):
                if after[c] & bit and not any(
                    0 <= i + s * g < n and line[i + s * g] & partner for g in gaps for s in (-1, 1)
                ):
                    after[c] &= ~bit
        return self.deduction(masks, after, geometry)

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        n = geometry.size
        fits = fillings(self.total, n)
        shown: list[Value] = [
            "{" + ", ".join(map(str, f)) + "}" if f else words(N_("nothing")) for f in fits[:6]
        ]
        if len(fits) > 6:
            shown.append(words(N_("{count} more"), count=str(len(fits) - 6)))
        return words(
            N_(
                "the sandwich {total} of {line}: the digits between its 1 and its {n} are "
                "{fillings}, so the 1 and the {n} have {counts} cells between them, and only "
                "digits that fit such a filling with the candidates left can stay"
            ),
            total=str(self.total),
            line=house_words("row" if self.line == "r" else "column", self.index),
            n=str(n),
            fillings=listing(shown, ";"),
            counts=listing(map(str, sorted(widths(self.total, n))), "or"),
        )

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Sandwich: in {line}, the digits between 1 and {size} add up to {total}."),
            line=self._name(),
            size=geometry.size,
            total=self.total,
        )


def _narrow(masks: Sequence[int], total: int, n: int) -> tuple[int, ...]:
    """The line's masks keeping what some placement of 1 and N with the sum between allows."""
    one, top = 1, 1 << (n - 1)
    middle = ~(one | top)
    k = len(masks)
    kept = [0] * k
    inner = [m & middle for m in masks]
    ones = [i for i, m in enumerate(masks) if m & one]
    tops = [i for i, m in enumerate(masks) if m & top]
    for i in ones:
        for j in tops:
            if i == j:
                continue
            a, b = (i, j) if i < j else (j, i)
            between = inner[a + 1 : b]
            if any(not m for m in between):
                continue
            narrowed, hit = sums.narrow(between, 1 << total)
            if not hit:
                continue
            if any(not inner[x] for x in range(k) if x < a or x > b):
                continue
            kept[i] |= one
            kept[j] |= top
            for x, mask in enumerate(narrowed, start=a + 1):
                kept[x] |= mask
            for x in range(k):
                if x < a or x > b:
                    kept[x] |= inner[x]
    return tuple(m & k_ for m, k_ in zip(masks, kept, strict=True))


# The most sets :func:`fillings` lists (a 16x16 sandwich has thousands; a sentence shows six).
MAX_FILLINGS = 64


def fillings(total: int, size: int) -> list[tuple[int, ...]]:
    """The sets of different digits strictly between 1 and ``size`` adding up to ``total``,
    smallest sets first (at most :data:`MAX_FILLINGS`)."""
    out: list[tuple[int, ...]] = []

    def extend(start: int, left: int, chosen: list[int]) -> None:
        if len(out) >= MAX_FILLINGS * 4:
            return
        if left == 0:
            out.append(tuple(chosen))
            return
        for d in range(start, min(left, size - 1) + 1):
            chosen.append(d)
            extend(d + 1, left - d, chosen)
            chosen.pop()

    extend(2, total, [])
    out.sort(key=lambda f: (len(f), f))
    return out[:MAX_FILLINGS]


def widths(total: int, size: int) -> set[int]:
    """How many different digits strictly between 1 and ``size`` can add up to ``total``."""
    reach = {(0, 0)}
    for d in range(2, size):
        reach |= {(s + d, k + 1) for s, k in reach if s + d <= total}
    return {k for s, k in reach if s == total}
