"""Odd and even cells: a circled cell holds an odd digit, a squared cell an even one.

f-puzzles ``odd`` and ``even``: ``[{"cell": "R1C1"}, ...]``, read as one rule per field.
Our spelling: ``oe_o_`` or ``oe_e_`` and the cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..board import Geometry, PuzzleError
from ..wording import Np_, Words, counted, words
from .base import (
    N_,
    Drawing,
    Propagator,
    Reading,
    Rule,
    Shade,
    cells_token,
    fp_cell,
    fp_items,
    fp_name,
    names,
    parse_cells,
    problem,
    refused,
)

_FIELD = {"o": "odd", "e": "even"}


@dataclass(frozen=True)
class Parity(Rule):
    """Cells that hold odd (``o``) or even (``e``) digits."""

    KEY = "oe"
    NAME = N_("odd or even cell")
    FPUZZLES = ("odd", "even")
    WORDS = N_("A grey circle holds an odd digit; a grey square holds an even digit.")

    STEP = N_("Odd/even")

    parity: Literal["o", "e"]
    cells: tuple[int, ...]

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        cells = sorted({fp_cell(item.get("cell"), reading.size) for item in fp_items(value, name)})
        return [cls("o" if name == "odd" else "e", tuple(cells))] if cells else []

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        items = out.setdefault(_FIELD[self.parity], [])
        items.extend({"cell": fp_name(c, size)} for c in self.cells)

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 2 or args[0] not in _FIELD:
            raise refused(N_("Odd or even cells are oe_o_ or oe_e_ and the cells."))
        cells = tuple(sorted(set(parse_cells(args[1], size, words(N_("odd/even cells"))))))
        return cls("o" if args[0] == "o" else "e", cells)

    def spell(self, size: int) -> str:
        return f"{self.parity}_{cells_token(self.cells, size)}"

    def _mask(self, size: int) -> int:
        first = 0 if self.parity == "o" else 1  # bit v-1: odd digits are bits 0, 2, 4 ...
        return sum(1 << b for b in range(first, size, 2))

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        if self.parity == "e" and geometry.size < 2:
            return [problem(words(N_("A 1x1 grid has no even digit.")), self.cells)]
        return []

    def propagator(self, geometry: Geometry) -> Propagator:
        keep = self._mask(geometry.size)
        cells = self.cells

        def narrow(m: list[int]) -> bool:
            changed = False
            for c in cells:
                if m[c] & ~keep:
                    m[c] &= keep
                    changed = True
            return changed

        return narrow

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        odd = self.parity == "o"
        return all((grid[c] % 2 == 1) == odd for c in self.cells)

    def drawing(self, geometry: Geometry) -> Drawing:
        style: Literal["circle", "square"] = "circle" if self.parity == "o" else "square"
        return Drawing(shaded=tuple(Shade(c, style) for c in self.cells))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        forms = (
            Np_("{cells} is odd", "{cells} are odd")
            if self.parity == "o"
            else Np_("{cells} is even", "{cells} are even")
        )
        return counted(forms, len(removed), cells=names(sorted(removed), geometry))

    def describe(self, geometry: Geometry) -> Words:
        return words(
            N_("Odd digits in {cells}.") if self.parity == "o" else N_("Even digits in {cells}."),
            cells=names(self.cells, geometry),
        )
