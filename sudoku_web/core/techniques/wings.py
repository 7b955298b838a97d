"""Wings: XY-wing, XYZ-wing, W-wing."""

from __future__ import annotations

from itertools import combinations

from ..board import Geometry
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _or,
    _removal_of,
    _seeing_both,
    _step,
    _strong_links,
    _which,
    bits_to_digits,
    lost_since_vain,
    searched_in_vain,
)


def _pair(geo: Geometry, mask: int) -> str:
    return _or([geo.symbol(d) for d in bits_to_digits(mask)])


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
            sym = geo.symbol(z.bit_length())
            x1, y1 = (ma & pm).bit_length(), (mb & pm).bit_length()
            reason = (
                f"{geo.cell_name(pivot)} is {_pair(geo, pm)}. If it is {geo.symbol(x1)}, "
                f"{geo.cell_name(a)} ({_pair(geo, ma)}) is {sym}; if it is {geo.symbol(y1)}, "
                f"{geo.cell_name(b)} ({_pair(geo, mb)}) is {sym}. Either way one of them is "
                f"{sym}"
            )
            return _wing_step("XY-wing", cand, t, (pivot, a, b), z, targets, reason)
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
    geo = t.geometry
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
            reason = (
                f"{geo.cell_name(pivot)} is {_pair(geo, pm)}, {geo.cell_name(a)} is "
                f"{_pair(geo, ma)} and {geo.cell_name(b)} is {_pair(geo, mb)}. Whatever "
                f"{geo.cell_name(pivot)} holds, one of the three is {geo.symbol(z.bit_length())}"
            )
            return _wing_step("XYZ-wing", cand, t, (pivot, a, b), z, targets, reason)
    return None


def _wing_step(
    name: str,
    cand: Candidates,
    t: Tables,
    cells: tuple[Cell, Cell, Cell],
    z: int,
    targets: list[Cell],
    reason: str,
) -> Step:
    """A wing's step: pivot and pincers, the digit (bit ``z``) the targets lose, and why."""
    geo = t.geometry
    d = z.bit_length()
    elims = [(x, d) for x in targets]
    seen = "both" if name == "XY-wing" else "all three"
    sentence = f"{reason}, so {_removal_of(geo, d, elims)}, {_which(elims)} {seen}."
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
                    sx, sy = geo.symbol(x), geo.symbol(y)
                    sentence = (
                        f"{geo.cell_name(a)} and {geo.cell_name(b)} are both "
                        f"{_pair(geo, masks[a])}. In {houses[h].name}, {sx} must go in "
                        f"{geo.cell_name(c)} or {geo.cell_name(e)}; {geo.cell_name(c)} sees "
                        f"{geo.cell_name(a)} and {geo.cell_name(e)} sees {geo.cell_name(b)}, so "
                        f"one of {geo.cell_name(a)} and {geo.cell_name(b)} is not {sx} and is "
                        f"{sy}: {_removal_of(geo, y, elims)}, {_which(elims)} both."
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
