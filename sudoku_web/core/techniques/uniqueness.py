"""Uniqueness: unique rectangle type 1, BUG+1, and the rectangles the other uniqueness
techniques share (only for puzzles known to have one solution).

Vocabulary:

deadly pattern
    Four cells on two rows and two columns holding two digits crosswise (a, b / b, a) where
    swapping the two digits keeps every house valid; if none of the four is a given, the
    puzzle would have a second solution. Puzzles with one solution never reach one.
rectangle
    Four open corners that all still hold the same two digits, one of them nothing else,
    where the swap would keep every house valid (:func:`rectangles`). Its corners come in
    reading order: top-left, top-right, bottom-left, bottom-right.
floor, roof
    Two corners on one side holding just the two digits (the floor), and the opposite two
    (the roof), which must between them keep the pattern from closing.

The unique rectangle types 2-6 and the hidden rectangle are in :mod:`.rectangles`, the
avoidable rectangle (which needs to know which placed cells were not givens) in
:mod:`.avoidable`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..board import Geometry
from ..variants import CLASSIC, variant_of
from ..wording import N_, Words, words
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _step,
    bits_to_digits,
    cell_list,
    digit_list,
    removals,
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
    for pair, corners in rectangles(cand, t):
        more = [c for c in corners if masks[c] != pair]
        if len(more) != 1:
            continue
        extra = more[0]
        elims = [(extra, d) for d in bits_to_digits(pair)]
        sentence = words(
            N_(
                "{corners} form a rectangle over {boxes}, and three of them are {digits}. If "
                "{extra} were just that too, {swap}; it has one, so {extra} is neither: remove "
                "{removals}."
            ),
            corners=cell_list(geo, corners),
            boxes=_boxes(geo),
            digits=_pair(geo, pair),
            extra=geo.cell_name(extra),
            swap=_two_solutions(geo, pair),
            removals=removals(geo, elims),
        )
        return _step("Unique rectangle", sentence, cand, cells=corners, eliminations=elims)
    return None


def _boxes(geo: Geometry) -> Words:
    """``two boxes`` (``two regions`` on a jigsaw), as a rectangle lies over them."""
    return words(N_("two boxes")) if geo.regions is None else words(N_("two regions"))


# A rectangle: the two digits' bits, then the corners top-left, top-right, bottom-left,
# bottom-right (so corners 0-1 and 2-3 share a row, 0-2 and 1-3 a column).
Rectangle = tuple[int, tuple[Cell, Cell, Cell, Cell]]
# The four sides as corner indices; side ``s ^ 1`` is opposite side ``s``.
SIDES = ((0, 1), (2, 3), (0, 2), (1, 3))
# The corner diagonally opposite each corner.
OPPOSITE = (3, 2, 1, 0)

# One slot: the rungs of the uniqueness family ask for the same position's rectangles one
# after another. The whole tuple is swapped in at once, so threads never see a mixed pair.
_last_rectangles: tuple[tuple[int, ...], Tables | None, tuple[Rectangle, ...]] = ((), None, ())


def rectangles(cand: Candidates, t: Tables) -> tuple[Rectangle, ...]:
    """Every rectangle of the position: four open corners on two rows and two columns all
    holding the same two digits, at least one corner holding nothing else, where swapping
    the two digits would keep every house valid (see :func:`_swappable`). In reading order.
    """
    global _last_rectangles
    masks, tables, found = _last_rectangles
    if masks is cand.masks and tables is t:
        return found
    found = _find_rectangles(cand.masks, t)
    _last_rectangles = (cand.masks, t, found)
    return found


def _find_rectangles(masks: Sequence[int], t: Tables) -> tuple[Rectangle, ...]:
    n = t.geometry.size
    seen: set[Rectangle] = set()
    for p, pair in enumerate(masks):
        if pair.bit_count() != 2:
            continue
        row, col = divmod(p, n)
        across = [q for q in range(row * n, row * n + n) if q != p and masks[q] & pair == pair]
        if not across:
            continue
        down = [u for u in range(col, n * n, n) if u != p and masks[u] & pair == pair]
        for q in across:
            for u in down:
                v = u - col + q % n
                if masks[v] & pair == pair:
                    a, b, c, d = sorted((p, q, u, v))
                    seen.add((pair, (a, b, c, d)))
    return tuple(sorted((r for r in seen if _swappable(t, *r[1])), key=lambda r: (r[1], r[0])))


def _rectangle_words(geo: Geometry, rect: Rectangle) -> Words:
    """``r1c1, r1c5, r3c1 and r3c5 form a rectangle over two boxes with 3 and 7 in each``."""
    pair, corners = rect
    return words(
        N_("{corners} form a rectangle over {boxes} with {digits} in each"),
        corners=cell_list(geo, corners),
        boxes=_boxes(geo),
        digits=digit_list(geo, bits_to_digits(pair)),
    )


def _two_solutions(geo: Geometry, pair: int) -> Words:
    """The deadly pattern's consequence, in words."""
    return words(
        N_("the four cells could swap {digits} and the puzzle would have two solutions"),
        digits=digit_list(geo, bits_to_digits(pair)),
    )


def _swappable(t: Tables, p: Cell, q: Cell, u: Cell, v: Cell) -> bool:
    """True when every house touching the corners holds exactly two, on one side."""
    # p, q share a row; u is under p and v under q. Sides: (p, q), (u, v), (p, u), (q, v).
    bp, bq, bu, bv = 1 << p, 1 << q, 1 << u, 1 << v
    sides = (bp | bq, bu | bv, bp | bu, bq | bv)
    corners = bp | bq | bu | bv
    house_bits = t.house_bits
    cell_houses = t.geometry.cell_houses
    for c in (p, q, u, v):
        for h in cell_houses[c]:
            if house_bits[h] & corners not in sides:
                return False
    return True


def bug_plus_one(cand: Candidates, t: Tables) -> Step | None:
    """Bivalue universal grave + 1: all open cells have two candidates but one, which has
    three; unless it takes the digit that has three places in its houses, the puzzle would
    have no solution or two. Only on classic boxed grids (where the BUG argument is known)."""
    geo = t.geometry
    if variant_of(geo) is not CLASSIC:
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
            sentence = words(
                N_(
                    "Every open cell but {cell} has two candidates. If {cell} were not {digit}, "
                    "every digit would have exactly two places in each house that still needs "
                    "it, a deadly pattern with no solution or two; the puzzle has one, so "
                    "{cell} is {digit}."
                ),
                cell=geo.cell_name(cell),
                digit=geo.symbol(d),
            )
            return _step("BUG+1", sentence, cand, cells=[cell], placements=[(cell, d)])
    return None
