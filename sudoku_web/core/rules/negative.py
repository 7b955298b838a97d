"""The negative constraint: where no dot or letter is shown, its relation does not hold.

f-puzzles ``negative``: a list of ``"difference"`` (no white dot: neighbours do not differ
by 1, nor by any white dot's value), ``"ratio"`` (no black dot: neither is 2 times the
other, nor any black dot's value times), ``"xv"`` (no X or V: neighbours add up to neither
10 nor 5). A pair carrying any dot or letter follows its mark instead. Our spelling:
``ng_w``, ``ng_b``, ``ng_xv``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..board import Geometry
from ..wording import Words, listing, words
from .base import N_, Drawing, Reading, Relation, Rule, refused
from .pairs import PairRule, table, unmarked_orthogonal

Which = Literal["w", "b", "xv"]
# The relations a mark of each family stands for when the puzzle shows none with a value:
# a white dot differs by 1, a black dot doubles, a letter adds up to 10 or 5.
DEFAULTS: dict[str, tuple[int, ...]] = {"w": (1,), "b": (2,), "xv": (10, 5)}
_FIELDS: dict[str, Which] = {"difference": "w", "ratio": "b", "xv": "xv"}
_WORDS = {
    "w": N_("no white dot: digits in neighbouring cells do not differ by {values}"),
    "b": N_("no black dot: neither digit of two neighbours is {values} times the other"),
    "xv": N_("no X or V: digits in neighbouring cells do not add up to {values}"),
}


@dataclass(frozen=True)
class Negative(PairRule):
    """Where no mark of its kind is shown, the mark's relation does not hold."""

    KEY = "ng"
    NAME = N_("negative constraint")
    FPUZZLES = ("negative",)
    WORDS = N_("All dots (or letters) are shown: where none is, its relation does not hold.")

    STEP = N_("Negative constraint")
    BY_CELL = True

    which: Which

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        if not isinstance(value, list):
            raise refused(N_("The f-puzzles field 'negative' is not a list."))
        out: list[Rule] = []
        for item in value:
            which = _FIELDS.get(str(item))
            if which is None:
                raise refused(
                    N_(
                        "This puzzle has a negative constraint on {item}, which sudoku-web does"
                        " not know yet."
                    ),
                    item=repr(item),
                )
            out.append(cls(which))
        return out

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        field = next(k for k, v in _FIELDS.items() if v == self.which)
        out.setdefault("negative", []).append(field)

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 1 or args[0] not in _WORDS:
            raise refused(N_("A negative constraint is ng_w, ng_b or ng_xv."))
        which: Which = "w" if args[0] == "w" else "b" if args[0] == "b" else "xv"
        return cls(which)

    def spell(self, size: int) -> str:
        return self.which

    def _values(self, geometry: Geometry) -> list[int]:
        """The values of this family's marks on the board, with the family's defaults."""
        shown = {
            mark.value
            for rule in geometry.rules
            for mark in rule.marks()
            if mark.family == self.which
        }
        return sorted(shown | set(DEFAULTS[self.which]))

    def _relation(self, geometry: Geometry) -> Callable[[int, int], bool]:
        values = self._values(geometry)
        if self.which == "xv":
            return lambda a, b: a + b not in values
        if self.which == "w":
            return lambda a, b: abs(a - b) not in values
        return lambda a, b: not any(a == b * v or b == a * v for v in values)

    def relation(self, geometry: Geometry) -> Relation:
        return unmarked_orthogonal(geometry), table(geometry.size, self._relation(geometry))

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        template = _WORDS[self.which]
        relation = (
            words(template, values=listing(map(str, self._values(geometry)), "or"))
            if "{values}" in template
            else words(template)
        )
        return words(N_("where {relation}"), relation=relation)

    def _words(self, geometry: Geometry) -> str:
        values = " or ".join(map(str, self._values(geometry))) if self.which != "xv" else ""
        return _WORDS[self.which].format(values=values)

    def describe(self, geometry: Geometry) -> Words:
        values = listing(map(str, self._values(geometry)), "or")
        return words(
            N_("Negative constraint: {rule}."), rule=words(_WORDS[self.which], values=values)
        )

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(notes=(self.describe(geometry),))
