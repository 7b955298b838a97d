"""Uniqueness: unique rectangle type 1 and BUG+1 (only for puzzles known to have one solution)."""

from __future__ import annotations

from itertools import combinations

from ..board import Geometry
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _cells,
    _digits,
    _removals,
    _step,
    bits_to_digits,
)
from .wings import _pair


def unique_rectangle(cand: Candidates, t: Tables) -> Step | None:
    """Three corners of a rectangle are {a,b}: the fourth must not be a or b alone.

    Sound only for a puzzle with exactly one solution, and only where swapping a and b in
    the four cells keeps every house valid: each house touching a corner must hold exactly
    two corners on one side of the rectangle (so two boxes/regions, not one or four).
    """
    geo = t.geometry
    masks = cand.masks
    n = geo.size
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    for p, q in combinations(bivalue, 2):
        if masks[p] != masks[q] or t.row_of[p] != t.row_of[q]:
            continue
        pair = masks[p]
        c1, c2 = t.col_of[p], t.col_of[q]
        for r2 in range(n):
            if r2 == t.row_of[p]:
                continue
            u, v = r2 * n + c1, r2 * n + c2
            mu, mv = masks[u], masks[v]
            for same, extra, m_extra in ((u, v, mv), (v, u, mu)):
                if masks[same] != pair or m_extra & pair != pair or m_extra == pair:
                    continue
                corners = (p, q, u, v)
                if not _swappable(t, p, q, u, v):
                    continue
                elims = [(extra, dd) for dd in bits_to_digits(pair)]
                sentence = (
                    f"{_cells(geo, sorted(corners))} form a rectangle over two {_boxes(geo)}, "
                    f"and three of them are {_pair(geo, pair)}. If {geo.cell_name(extra)} were "
                    f"just that too, the four cells could swap "
                    f"{_digits(geo, bits_to_digits(pair))} and the puzzle would have two "
                    "solutions; it has one, so "
                    f"{geo.cell_name(extra)} is neither: remove {_removals(geo, elims)}."
                )
                return _step(
                    "Unique rectangle",
                    sentence,
                    cand,
                    cells=sorted(corners),
                    eliminations=elims,
                )
    return None


def _boxes(geo: Geometry) -> str:
    return "regions" if geo.variant == "jigsaw" else "boxes"


def _swappable(t: Tables, p: Cell, q: Cell, u: Cell, v: Cell) -> bool:
    """True when every house touching the corners holds exactly two, on one side."""
    # p, q share a row; u is under p and v under q. Sides: (p, q), (u, v), (p, u), (q, v).
    sides = {frozenset((p, q)), frozenset((u, v)), frozenset((p, u)), frozenset((q, v))}
    corners = (p, q, u, v)
    touched = {h for c in corners for h in t.geometry.cell_houses[c]}
    for h in touched:
        inside = frozenset(c for c in corners if c in t.house_cells[h])
        if inside not in sides:
            return False
    return True


def bug_plus_one(cand: Candidates, t: Tables) -> Step | None:
    """Bivalue universal grave + 1: all open cells have two candidates but one, which has
    three; unless it takes the digit that has three places in its houses, the puzzle would
    have no solution or two. Only on classic boxed grids (where the BUG argument is known)."""
    geo = t.geometry
    if geo.variant != "standard":
        return None
    masks = cand.masks
    odd = [c for c, m in enumerate(masks) if m and m.bit_count() != 2]
    if len(odd) != 1 or masks[odd[0]].bit_count() != 3:
        return None
    cell = odd[0]
    for d in bits_to_digits(masks[cell]):
        bit = 1 << (d - 1)
        trial = list(masks)
        trial[cell] &= ~bit
        if all(
            sum(1 for c in cells if trial[c] & (1 << (k - 1))) in (0, 2)
            for cells in t.house_cells
            for k in range(1, geo.size + 1)
        ):
            sentence = (
                f"Every open cell but {geo.cell_name(cell)} has two candidates. If "
                f"{geo.cell_name(cell)} were not {geo.symbol(d)}, every digit would have "
                "exactly two places in each house that still needs it, a deadly pattern "
                f"with no solution or two; the puzzle has one, so {geo.cell_name(cell)} is "
                f"{geo.symbol(d)}."
            )
            return _step("BUG+1", sentence, cand, cells=[cell], placements=[(cell, d)])
    return None
