"""Intersections: pointing and box/line reduction, for any two overlapping houses."""

from __future__ import annotations

from collections.abc import Iterable

from ..wording import N_, words
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _places,
    _step,
    bits_to_digits,
    cell_list,
    changed_since_vain,
    searched_in_vain,
)

# Per pair of houses (A, B): A's cells inside the overlap and outside it, B's outside it.
_Parts = tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[Cell, ...]]


def intersection(cand: Candidates, t: Tables) -> Step | None:
    """When a digit's places in house A all lie in house B too, B's other cells lose it.

    Every step re-asks this rung, so inside :func:`.base.remembering`, after a call in vain,
    only the pairs of houses holding a cell that changed since are looked at (the others
    are as they were).
    """
    pairs: Iterable[tuple[tuple[int, int, frozenset[Cell]], _Parts]] = zip(
        t.intersections, t.intersection_parts, strict=True
    )
    changed = changed_since_vain("Pointing", cand)
    if changed is not None:
        bits = t.house_bits
        pairs = (p for p in pairs if (bits[p[0][0]] | bits[p[0][1]]) & changed)
    step = _intersection(cand, t, pairs)
    if step is None:
        searched_in_vain("Pointing", cand)
    return step


def _intersection(
    cand: Candidates,
    t: Tables,
    pairs: Iterable[tuple[tuple[int, int, frozenset[Cell]], _Parts]],
) -> Step | None:
    geo = t.geometry
    houses = geo.houses
    masks = cand.masks
    for (a, b, common), (a_in, a_out, b_out) in pairs:
        inside = 0
        for cell in a_in:
            inside |= masks[cell]
        if not inside:
            continue
        outside = 0
        for cell in a_out:
            outside |= masks[cell]
        only_inside = inside & ~outside
        if not only_inside:
            continue
        beyond = 0
        for cell in b_out:
            beyond |= masks[cell]
        if not only_inside & beyond:
            continue  # nothing to remove in B (the loop below would find no targets)
        for d in bits_to_digits(only_inside):
            bit = 1 << (d - 1)
            targets = [c for c in t.house_cells[b] if c not in common and masks[c] & bit]
            if not targets:
                continue
            ha, hb = houses[a], houses[b]
            line = ("row", "column")
            name = "Box/line reduction" if ha.kind in line else "Pointing"
            spots = _places(cand, sorted(common), bit)
            elims = [(c, d) for c in targets]
            sentence = words(
                N_(
                    "In {house}, {digit} can only go in {cells}, all in {other}; so the {digit} "
                    "of {other} is one of them, and {digit} is removed from {removed}."
                ),
                house=ha.words,
                digit=geo.symbol(d),
                cells=cell_list(geo, spots),
                other=hb.words,
                removed=cell_list(geo, targets),
            )
            return _step(name, sentence, cand, houses=[ha, hb], cells=spots, eliminations=elims)
    return None
