"""Uniqueness: the avoidable rectangle, types 1 and 2.

A deadly pattern (see :mod:`.uniqueness`) needs four cells that are not givens; it does not
care whether they are still open. So cells placed while solving count too, which is what
sets the avoidable rectangle apart: it is the one technique that asks which placed cells
were givens (:attr:`.base.Candidates.deduced`; a position that does not know gets none).

type 1
    Three corners were placed while solving, a / b / b, and the fourth, diagonal to the a,
    is open: it cannot be a.
type 2
    Two corners on one side were placed while solving, a and b; the two open corners across
    from them hold just b and c, and just a and c: one of them is c, so c leaves every cell
    that sees both.

Sound only for a puzzle known to have exactly one solution, and only where the swap of the
two digits keeps every house valid (the same check as the unique rectangle's).
"""

from __future__ import annotations

from ..board import Geometry
from ..wording import N_, Listing, listing, words
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _step,
    digit_boards,
    removals,
    set_bits,
)
from .uniqueness import _boxes, _swappable, _two_solutions


def avoidable_rectangle(cand: Candidates, t: Tables) -> Step | None:
    """Placed a, b, b (not givens) and an open fourth corner: it cannot be a."""
    values = cand.values
    for corner, across, down, far in _corners(cand, t):
        a, b = values[corner], values[across]
        # down holds b, placed while solving (not just a candidate); far is open with a.
        if not values[down] or not _swappable(t, corner, across, down, far):
            continue
        geo = t.geometry
        elims = [(far, a)]
        placed = (corner, across, down)
        sentence = words(
            N_(
                "{placed} were placed while solving, not given, and with {far} they form a "
                "rectangle over {boxes}. If {far} were {digit}, none of the four would be a "
                "given: {swap}; it has one, so remove {removals}."
            ),
            placed=_placed(geo, values, placed),
            far=geo.cell_name(far),
            boxes=_boxes(geo),
            digit=geo.symbol(a),
            swap=_two_solutions(geo, (1 << (a - 1)) | (1 << (b - 1))),
            removals=removals(geo, elims),
        )
        return _step(
            "Avoidable rectangle", sentence, cand, cells=sorted((*placed, far)), eliminations=elims
        )
    return None


def avoidable_rectangle_2(cand: Candidates, t: Tables) -> Step | None:
    """Placed a and b (not givens) on one side, the open side across {b,c} and {a,c}: one of
    those is c, so c leaves the cells that see both."""
    values, masks = cand.values, cand.masks
    for corner, across, down, far in _corners(cand, t):
        # The placed side is corner-across (a row or a column): down and far are open.
        a, b = values[corner], values[across]
        if values[down]:  # down is open with b (and far open with a)
            continue
        extra = masks[down] & ~(1 << (b - 1))
        if masks[down] != extra | 1 << (b - 1) or extra.bit_count() != 1:
            continue
        if masks[far] != extra | 1 << (a - 1) or not _swappable(t, corner, across, down, far):
            continue
        step = _type_2_step(cand, t, (corner, across), (down, far), extra)
        if step is not None:
            return step
    return None


def _type_2_step(
    cand: Candidates, t: Tables, placed: tuple[Cell, Cell], roof: tuple[Cell, Cell], extra: int
) -> Step | None:
    geo = t.geometry
    values, masks = cand.values, cand.masks
    corners = (*placed, *roof)
    digit = extra.bit_length()
    seeing = t.peer_sets[roof[0]] & t.peer_sets[roof[1]]
    elims = [(c, digit) for c in sorted(seeing) if masks[c] & extra and c not in corners]
    if not elims:
        return None
    a, b = values[placed[0]], values[placed[1]]
    sym = geo.symbol(digit)
    sentence = words(
        N_(
            "{placed} were placed while solving, not given; across from them {first} holds just "
            "{b} and {digit}, and {second} just {a} and {digit}, a rectangle over {boxes}. If "
            "neither were {digit}, none of the four would be a given: {swap}; it has one, so one "
            "of them is {digit}: remove {removals}."
        ),
        placed=_placed(geo, values, placed),
        first=geo.cell_name(roof[0]),
        second=geo.cell_name(roof[1]),
        a=geo.symbol(a),
        b=geo.symbol(b),
        digit=sym,
        boxes=_boxes(geo),
        swap=_two_solutions(geo, (1 << (a - 1)) | (1 << (b - 1))),
        removals=removals(geo, elims),
    )
    return _step(
        "Avoidable rectangle type 2", sentence, cand, cells=sorted(corners), eliminations=elims
    )


def _corners(cand: Candidates, t: Tables) -> list[tuple[Cell, Cell, Cell, Cell]]:
    """Every (corner, across, down, far) that may close a deadly pattern: the corner (a) and
    ``across`` (b) placed while solving on a line through the corner (its row, then its
    column); ``down`` on the other line through the corner, placed b while solving or open
    with b; ``far`` opposite the corner, open with a. The two types check the rest."""
    deduced, values, masks = cand.deduced, cand.values, cand.masks
    if deduced.bit_count() < 2:
        return []
    n = t.geometry.size
    boards = digit_boards(cand)
    placed = [0] * n  # per digit, the cells placed while solving that hold it
    for c in set_bits(deduced):
        placed[values[c] - 1] |= 1 << c
    out = []
    for corner in set_bits(deduced):
        a, row, col = values[corner], corner // n, corner % n
        lines = (t.house_bits[t.rows[row]], t.house_bits[t.cols[col]])
        for line, other in ((lines[0], lines[1]), (lines[1], lines[0])):
            for across in set_bits(deduced & line & ~(1 << corner)):
                b = values[across] - 1
                for down in set_bits(other & (placed[b] | boards[b])):
                    far = across + down - corner
                    if masks[far] >> (a - 1) & 1:
                        out.append((corner, across, down, far))
    return out


def _placed(geo: Geometry, values: tuple[int, ...], cells: tuple[Cell, ...]) -> Listing:
    """``r1c1 (3), r1c5 (7) and r2c1 (7)``: placed cells with their digits."""
    return listing(f"{geo.cell_name(c)} ({geo.symbol(values[c])})" for c in cells)
