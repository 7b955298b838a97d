"""Subsets: naked and hidden pairs, triples and quads in any house."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from .base import (
    Candidates,
    Digit,
    Step,
    Tables,
    _cells,
    _digits,
    _failed,
    _removals,
    _step,
    bits_to_digits,
)

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked_subset(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def naked(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        masks = cand.masks
        memo = _failed.get()
        for h, house in enumerate(geo.houses):
            key = None if memo is None else (f"Naked {size}", h, t.house_masks[h](masks))
            if memo is not None and key in memo:
                continue  # searched in vain before: same candidates
            open_cells = [c for c in house.cells if masks[c]]
            if len(open_cells) <= size:
                continue
            small = [c for c in open_cells if masks[c].bit_count() <= size]
            for group in combinations(small, size):
                union = 0
                for c in group:
                    union |= masks[c]
                if union.bit_count() != size:
                    continue
                elims = [
                    (c, d)
                    for c in open_cells
                    if c not in group
                    for d in bits_to_digits(masks[c] & union)
                ]
                if not elims:
                    continue
                digits = bits_to_digits(union)
                sentence = (
                    f"In {house.name}, {_cells(geo, group)} can only hold {_digits(geo, digits)} "
                    f"between them, so no other cell of {house.name} can: remove "
                    f"{_removals(geo, elims)}."
                )
                return _step(
                    f"Naked {_SUBSET_NAMES[size]}",
                    sentence,
                    cand,
                    houses=[house],
                    cells=group,
                    eliminations=elims,
                )
            if memo is not None and key is not None:
                memo.add(key)  # nothing in this house with these candidates
        return None

    naked.__doc__ = f"{size} cells of a house holding only {size} digits keep them to themselves."
    return naked


def _hidden_subset(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def hidden(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        masks = cand.masks
        memo = _failed.get()
        for h, house in enumerate(geo.houses):
            key = None if memo is None else (f"Hidden {size}", h, t.house_masks[h](masks))
            if memo is not None and key in memo:
                continue  # searched in vain before: same candidates
            open_cells = [c for c in house.cells if masks[c]]
            if len(open_cells) <= size:
                continue
            # Bit-sliced counts of each digit's places (at least 1, 2, ..., size + 1): the
            # digits with at most ``size`` places are known before any list is built.
            counts = [0] * (size + 1)
            for c in open_cells:
                carry = masks[c]
                for k in range(size + 1):
                    carry, counts[k] = counts[k] & carry, counts[k] | carry
                    if not carry:
                        break
            few_bits = counts[0] & ~counts[size]
            if few_bits.bit_count() < size:
                continue
            few = bits_to_digits(few_bits)
            where: dict[Digit, int] = {}  # digit -> bitmask over positions in open_cells
            for d in few:
                bit = 1 << (d - 1)
                spread = 0
                for i, c in enumerate(open_cells):
                    if masks[c] & bit:
                        spread |= 1 << i
                where[d] = spread
            for digits in combinations(few, size):
                spots = 0
                for d in digits:
                    spots |= where[d]
                if spots.bit_count() != size:
                    continue
                keep = sum(1 << (d - 1) for d in digits)
                group = [c for i, c in enumerate(open_cells) if spots >> i & 1]
                elims = [(c, d) for c in group for d in bits_to_digits(masks[c] & ~keep)]
                if not elims:
                    continue
                sentence = (
                    f"In {house.name}, {_digits(geo, digits)} can only go in "
                    f"{_cells(geo, group)}, so those cells hold nothing else: remove "
                    f"{_removals(geo, elims)}."
                )
                return _step(
                    f"Hidden {_SUBSET_NAMES[size]}",
                    sentence,
                    cand,
                    houses=[house],
                    cells=group,
                    eliminations=elims,
                )
            if memo is not None and key is not None:
                memo.add(key)  # nothing in this house with these candidates
        return None

    hidden.__doc__ = f"{size} digits confined to {size} cells of a house fill those cells."
    return hidden


naked_pair = _naked_subset(2)
naked_triple = _naked_subset(3)
naked_quad = _naked_subset(4)
hidden_pair = _hidden_subset(2)
hidden_triple = _hidden_subset(3)
hidden_quad = _hidden_subset(4)
