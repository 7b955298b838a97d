"""Wings: XY-wing, XYZ-wing, W-wing."""

from __future__ import annotations

from itertools import combinations

from ..board import Geometry
from ..wording import Listing, Np_, Value, counted
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _seeing_both,
    _step,
    _strong_links,
    bits_to_digits,
    cell_list,
    digit_list,
    lost_since_vain,
    searched_in_vain,
)


def _pair(geo: Geometry, mask: int) -> Listing:
    return digit_list(geo, bits_to_digits(mask), "or")


def xy_wing(cand: Candidates, t: Tables) -> Step | None:
    """A pivot {x,y} seeing {x,z} and {y,z}: one pincer is z, so cells seeing both lose z.

    Inside :func:`.base.remembering`, after a call in vain only the wings with a cell that
    lost candidates since are looked at (see :func:`.base.lost_since_vain`).
    """
    step = _xy_wing(cand, t, _hot("XY-wing", cand))
    if step is None:
        searched_in_vain("XY-wing", cand)
    return step


def _hot(name: str, cand: Candidates) -> int:
    """The cells a wing must touch to be new (all of them, -1, when not known)."""
    lost = lost_since_vain(name, cand)
    return -1 if lost is None else lost


def _xy_wing(cand: Candidates, t: Tables, hot: int) -> Step | None:
    geo = t.geometry
    masks = cand.masks
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    peer_bits = t.peer_bits
    for pivot in bivalue:
        peers = peer_bits[pivot]
        if not (peers | 1 << pivot) & hot:
            continue  # a new wing has a cell that lost candidates: pivot or a peer of it
        pm = masks[pivot]
        wings = [c for c in bivalue if peers >> c & 1 and (masks[c] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            ma, mb = masks[a], masks[b]
            z = ma & ~pm
            if z != mb & ~pm or (ma & pm) == (mb & pm):
                continue
            if not (1 << pivot | 1 << a | 1 << b) & hot:
                continue
            targets = [x for x in _seeing_both(cand, t, z, a, b) if x != pivot]
            if not targets:
                continue
            x1, y1 = (ma & pm).bit_length(), (mb & pm).bit_length()
            forms = Np_(
                "{pivot} is {pivot_digits}. If it is {x}, {a} ({a_digits}) is {digit}; if it is "
                "{y}, {b} ({b_digits}) is {digit}. Either way one of them is {digit}, so {digit} "
                "is removed from {removed}, which sees both.",
                "{pivot} is {pivot_digits}. If it is {x}, {a} ({a_digits}) is {digit}; if it is "
                "{y}, {b} ({b_digits}) is {digit}. Either way one of them is {digit}, so {digit} "
                "is removed from {removed}, which see both.",
            )
            said: dict[str, Value] = {"x": geo.symbol(x1), "y": geo.symbol(y1)}
            return _wing_step("XY-wing", cand, t, (pivot, a, b), z, targets, forms, said)
    return None


def xyz_wing(cand: Candidates, t: Tables) -> Step | None:
    """A pivot {x,y,z} seeing {x,z} and {y,z}: one of the three is z.

    Inside :func:`.base.remembering`, after a call in vain only the wings with a cell that
    lost candidates since are looked at (see :func:`.base.lost_since_vain`).
    """
    step = _xyz_wing(cand, t, _hot("XYZ-wing", cand))
    if step is None:
        searched_in_vain("XYZ-wing", cand)
    return step


def _xyz_wing(cand: Candidates, t: Tables, hot: int) -> Step | None:
    masks = cand.masks
    for pivot, pm in enumerate(masks):
        if pm.bit_count() != 3 or not (t.peer_bits[pivot] | 1 << pivot) & hot:
            continue
        wings = [c for c in t.peer_sets[pivot] if masks[c].bit_count() == 2 and masks[c] & ~pm == 0]
        for a, b in combinations(sorted(wings), 2):
            ma, mb = masks[a], masks[b]
            if ma | mb != pm or ma == mb or not (1 << pivot | 1 << a | 1 << b) & hot:
                continue
            z = ma & mb
            targets = [x for x in _seeing_both(cand, t, z, a, b) if x != pivot and t.sees(x, pivot)]
            if not targets:
                continue
            forms = Np_(
                "{pivot} is {pivot_digits}, {a} is {a_digits} and {b} is {b_digits}. Whatever "
                "{pivot} holds, one of the three is {digit}, so {digit} is removed from "
                "{removed}, which sees all three.",
                "{pivot} is {pivot_digits}, {a} is {a_digits} and {b} is {b_digits}. Whatever "
                "{pivot} holds, one of the three is {digit}, so {digit} is removed from "
                "{removed}, which see all three.",
            )
            return _wing_step("XYZ-wing", cand, t, (pivot, a, b), z, targets, forms, {})
    return None


def _wing_step(
    name: str,
    cand: Candidates,
    t: Tables,
    cells: tuple[Cell, Cell, Cell],
    z: int,
    targets: list[Cell],
    forms: tuple[str, str],
    said: dict[str, Value],
) -> Step:
    """A wing's step: pivot and pincers, the digit (bit ``z``) the targets lose, and the
    sentence's forms (by how many targets) with the values only it names."""
    geo = t.geometry
    d = z.bit_length()
    elims = [(x, d) for x in targets]
    pivot, a, b = cells
    masks = cand.masks
    sentence = counted(
        forms,
        len(targets),
        pivot=geo.cell_name(pivot),
        pivot_digits=_pair(geo, masks[pivot]),
        a=geo.cell_name(a),
        a_digits=_pair(geo, masks[a]),
        b=geo.cell_name(b),
        b_digits=_pair(geo, masks[b]),
        digit=geo.symbol(d),
        removed=cell_list(geo, targets),
        **said,
    )
    return _step(name, sentence, cand, cells=cells, eliminations=elims)


def w_wing(cand: Candidates, t: Tables) -> Step | None:
    """Two far-apart {x,y} cells joined by a strong link on x: one of them is y.

    Inside :func:`.base.remembering`, after a call in vain only the wings with a cell, or a
    link in a house, that lost candidates since are looked at (see
    :func:`.base.lost_since_vain`).
    """
    step = _w_wing(cand, t, _hot("W-wing", cand))
    if step is None:
        searched_in_vain("W-wing", cand)
    return step


def _w_wing(cand: Candidates, t: Tables, hot: int) -> Step | None:
    geo = t.geometry
    masks = cand.masks
    houses = geo.houses
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    links_by_bit: dict[int, tuple[tuple[int, Cell, Cell], ...]] = {}
    for a, b in combinations(bivalue, 2):
        if masks[a] != masks[b] or t.sees(a, b):
            continue
        for x in bits_to_digits(masks[a]):
            xbit = 1 << (x - 1)
            ybit = masks[a] & ~xbit
            y = ybit.bit_length()
            if xbit not in links_by_bit:
                links_by_bit[xbit] = _strong_links(cand, t, xbit)
            for h, p, q in links_by_bit[xbit]:
                if not (1 << a | 1 << b | t.house_bits[h]) & hot:
                    continue
                for c, e in ((p, q), (q, p)):
                    if c in (a, b) or e in (a, b) or not (t.sees(c, a) and t.sees(e, b)):
                        continue
                    targets = _seeing_both(cand, t, ybit, a, b)
                    if not targets:
                        continue
                    elims = [(z, y) for z in targets]
                    sentence = counted(
                        Np_(
                            "{a} and {b} are both {digits}. In {house}, {x} must go in {c} or "
                            "{e}; {c} sees {a} and {e} sees {b}, so one of {a} and {b} is not "
                            "{x} and is {y}: {y} is removed from {removed}, which sees both.",
                            "{a} and {b} are both {digits}. In {house}, {x} must go in {c} or "
                            "{e}; {c} sees {a} and {e} sees {b}, so one of {a} and {b} is not "
                            "{x} and is {y}: {y} is removed from {removed}, which see both.",
                        ),
                        len(targets),
                        a=geo.cell_name(a),
                        b=geo.cell_name(b),
                        digits=_pair(geo, masks[a]),
                        house=houses[h].words,
                        x=geo.symbol(x),
                        y=geo.symbol(y),
                        c=geo.cell_name(c),
                        e=geo.cell_name(e),
                        removed=cell_list(geo, targets),
                    )
                    return _step(
                        "W-wing",
                        sentence,
                        cand,
                        houses=[houses[h]],
                        cells=[a, c, e, b],
                        eliminations=elims,
                    )
    return None
