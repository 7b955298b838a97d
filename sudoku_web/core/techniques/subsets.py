"""Subsets: naked and hidden pairs, triples and quads in any house."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

from ..wording import N_, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    Technique,
    _step,
    bits_to_digits,
    cell_list,
    digit_list,
    per_house,
    removals,
)

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


# A subset found in a house: its cells, its digits, and what it removes.
_Found = tuple[list[Cell], tuple[Digit, ...], list[tuple[Cell, Digit]]]


def _naked_group(masks: Sequence[int], open_cells: list[Cell], size: int) -> _Found | None:
    """The first ``size`` open cells holding ``size`` digits between them that removes
    something from the house's other cells."""
    small = [c for c in open_cells if masks[c].bit_count() <= size]
    for group in combinations(small, size):
        union = 0
        for c in group:
            union |= masks[c]
        if union.bit_count() != size:
            continue
        elims = [
            (c, d) for c in open_cells if c not in group for d in bits_to_digits(masks[c] & union)
        ]
        if elims:
            return list(group), bits_to_digits(union), elims
    return None


def _rare_digits(open_cells: list[Cell], masks: Sequence[int], size: int) -> int:
    """The digits (as bits) with between 1 and ``size`` places among ``open_cells``.

    Bit-sliced counts of each digit's places (at least 1, 2, ..., size + 1), so the digits
    with at most ``size`` places are known before any list is built.
    """
    counts = [0] * (size + 1)
    for c in open_cells:
        carry = masks[c]
        for k in range(size + 1):
            carry, counts[k] = counts[k] & carry, counts[k] | carry
            if not carry:
                break
    return counts[0] & ~counts[size]


def _places(few: Sequence[Digit], open_cells: list[Cell], masks: Sequence[int]) -> dict[Digit, int]:
    """digit -> bitmask over positions in ``open_cells`` where it is a candidate."""
    where: dict[Digit, int] = {}
    for d in few:
        bit = 1 << (d - 1)
        spread = 0
        for i, c in enumerate(open_cells):
            if masks[c] & bit:
                spread |= 1 << i
        where[d] = spread
    return where


def _hidden_group(masks: Sequence[int], open_cells: list[Cell], size: int) -> _Found | None:
    """The first ``size`` digits confined to ``size`` open cells that removes other digits
    from those cells."""
    few_bits = _rare_digits(open_cells, masks, size)
    if few_bits.bit_count() < size:
        return None
    few = bits_to_digits(few_bits)
    where = _places(few, open_cells, masks)
    for digits in combinations(few, size):
        spots = 0
        for d in digits:
            spots |= where[d]
        if spots.bit_count() != size:
            continue
        keep = sum(1 << (d - 1) for d in digits)
        group = [c for i, c in enumerate(open_cells) if spots >> i & 1]
        elims = [(c, d) for c in group for d in bits_to_digits(masks[c] & ~keep)]
        if elims:
            return group, digits, elims
    return None


_FINDERS = {"Naked": _naked_group, "Hidden": _hidden_group}


def _subset_in(kind: str, size: int, cand: Candidates, t: Tables, h: int) -> Step | None:
    """The first naked (hidden) subset of ``size`` in house ``h`` that removes something."""
    geo = t.geometry
    house = geo.houses[h]
    masks = cand.masks
    open_cells = [c for c in house.cells if masks[c]]
    if len(open_cells) <= size:
        return None
    found = _FINDERS[kind](masks, open_cells, size)
    if found is None:
        return None
    group, digits, elims = found
    template = (
        N_(
            "In {house}, {cells} can only hold {digits} between them, so no other cell of "
            "{house} can: remove {removals}."
        )
        if kind == "Naked"
        else N_(
            "In {house}, {digits} can only go in {cells}, so those cells hold nothing else: "
            "remove {removals}."
        )
    )
    sentence = words(
        template,
        house=house.words,
        cells=cell_list(geo, group),
        digits=digit_list(geo, digits),
        removals=removals(geo, elims),
    )
    name = f"{kind} {_SUBSET_NAMES[size]}"
    return _step(name, sentence, cand, houses=[house], cells=group, eliminations=elims)


_DOCS = {
    "Naked": "{n} cells of a house holding only {n} digits keep them to themselves.",
    "Hidden": "{n} digits confined to {n} cells of a house fill those cells.",
}


def _subset(kind: str, size: int) -> Technique:
    search = functools.partial(_subset_in, kind, size)
    return per_house(f"{kind} {_SUBSET_NAMES[size]}", search, _DOCS[kind].format(n=size))


naked_pair = _subset("Naked", 2)
naked_triple = _subset("Naked", 3)
naked_quad = _subset("Naked", 4)
hidden_pair = _subset("Hidden", 2)
hidden_triple = _subset("Hidden", 3)
hidden_quad = _subset("Hidden", 4)
