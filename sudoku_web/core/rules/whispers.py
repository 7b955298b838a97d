"""German whispers: neighbours on the line differ by at least 5 (or the line's value).

f-puzzles ``whispers``: ``[{"lines": [[...]], "value": "5"}]`` (the value optional). Our
spelling: ``wh_`` and the cells, then ``_`` and the difference when it is not 5.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Geometry, PuzzleError
from ..wording import Value, Words, capital, listing, words
from .base import (
    N_,
    LineRule,
    Reading,
    Relation,
    Rule,
    cells_token,
    fp_items,
    fp_lines,
    fp_name,
    fp_number,
    names,
    parse_cells,
    parse_number,
    problem,
    refused,
)
from .pairs import PairRule, table

DEFAULT_GAP = 5


@dataclass(frozen=True)
class Whispers(LineRule, PairRule):
    """Neighbouring cells on the line differ by at least ``gap``."""

    KEY = "wh"
    NAME = N_("whispers line")
    WHERE = N_("the whispers line from {cell}")
    FPUZZLES = ("whispers",)
    WORDS = N_("On a German whispers line, neighbouring digits differ by at least 5.")
    COLOUR = "green"

    STEP = N_("German whispers")

    cells: tuple[int, ...]
    gap: int = DEFAULT_GAP

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        out: list[Rule] = []
        for item in fp_items(value, name):
            gap = fp_number(item.get("value"), words(N_("A whispers line")))
            for line in fp_lines(item, reading.size):
                out.append(cls(line, DEFAULT_GAP if gap is None else gap))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        item: dict[str, Any] = {"lines": [[fp_name(c, size) for c in self.cells]]}
        if self.gap != DEFAULT_GAP:
            item["value"] = str(self.gap)
        out.setdefault("whispers", []).append(item)

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) not in (1, 2):
            raise refused(N_("A whispers line is wh_, its cells, and _gap if not 5."))
        gap = parse_number(args[1], Words(cls.NAME)) if len(args) == 2 else DEFAULT_GAP
        return cls(parse_cells(args[0], size, Words(cls.NAME)), gap)

    def spell(self, size: int) -> str:
        cells = cells_token(self.cells, size)
        return cells if self.gap == DEFAULT_GAP else f"{cells}_{self.gap}"

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        out = super().errors(geometry)
        if not 1 <= self.gap < geometry.size:
            message = words(
                N_("{line} asks a difference of {gap}."),
                line=capital(self.where(geometry)),
                gap=self.gap,
            )
            out.append(problem(message, self.cells))
        return out

    def relation(self, geometry: Geometry) -> Relation:
        gap = self.gap
        pairs = tuple(zip(self.cells, self.cells[1:], strict=False))
        return pairs, table(geometry.size, lambda a, b: abs(a - b) >= gap)

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        n, gap = geometry.size, self.gap
        lonely = [d for d in range(1, n + 1) if d - gap < 1 and d + gap > n]
        parts: list[Value] = [
            words(
                N_("on the whispers line from {cell} neighbours differ by at least {gap}"),
                cell=geometry.cell_name(self.cells[0]),
                gap=str(gap),
            )
        ]
        if lonely and any(removed[c] & sum(1 << (d - 1) for d in lonely) for c in removed):
            parts.append(
                words(
                    N_("{digits} has no digit {gap} or more away, so never sits on the line"),
                    digits=listing(map(str, lonely), "or"),
                    gap=str(gap),
                )
            )
        parts.append(
            words(
                N_(
                    "a cell keeps only digits that some candidate of each neighbour on the line "
                    "is far enough from (a low digit's neighbours are high, a high digit's low)"
                )
            )
        )
        return words(N_("{reasons}"), reasons=listing(parts, ";"))

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Whispers {cells}: neighbouring digits on the line differ by at least {gap}."),
            cells=names(self.cells, geometry),
            gap=self.gap,
        )
