"""Chains: XY-chains and alternating inference chains (X-chains when one digit), between
single candidates; grouped chains and nice loops are in :mod:`.aic`."""

from __future__ import annotations

import itertools

from .base import (
    Candidates,
    Cell,
    Digit,
    Link,
    Node,
    Step,
    Tables,
    _removal_of,
    _removals,
    _seeing_both,
    _step,
    _strong_links,
    _which,
    bits_to_digits,
)

# Chains longer than this read poorly and add almost nothing on top95.
MAX_CHAIN_CELLS = 12


def xy_chain(cand: Candidates, t: Tables) -> Step | None:
    """A chain of two-candidate cells: if the first is not z, the last is z; cells seeing both
    ends lose z. The shortest chain with an elimination is shown."""
    masks = cand.masks
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    near = {c: [n for n in bivalue if t.sees(c, n)] for c in bivalue}
    best: _XYChain | None = None
    for start in bivalue:
        for z in bits_to_digits(masks[start]):
            limit = len(best[0]) if best is not None else MAX_CHAIN_CELLS + 1
            found = _xy_from(cand, t, near, start, z, limit)
            if found is not None:
                best = found
    return None if best is None else _xy_step(cand, t, *best)


# An XY-chain found: its (cell, value if the previous cell is not its other digit) in order,
# the digit z, and the cells that lose z.
_XYChain = tuple[list[tuple[Cell, Digit]], Digit, list[Cell]]


def _xy_from(
    cand: Candidates, t: Tables, near: dict[Cell, list[Cell]], start: Cell, z: Digit, limit: int
) -> _XYChain | None:
    """The shortest XY-chain (fewer than ``limit`` cells) from ``start`` assumed not ``z``,
    whose ends are both ``z`` with a cell seeing both that loses it; breadth first."""
    masks = cand.masks
    zbit = 1 << (z - 1)
    x = (masks[start] & ~zbit).bit_length()
    parent: dict[tuple[Cell, Digit], tuple[Cell, Digit] | None] = {(start, x): None}
    frontier = [(start, x)]
    length = 1
    while frontier and length + 1 < limit:
        length += 1
        following = []
        for cell, val in frontier:
            vbit = 1 << (val - 1)
            for n in near[cell]:
                if n == start or not masks[n] & vbit:
                    continue
                key = (n, (masks[n] & ~vbit).bit_length())
                if key in parent:
                    continue
                parent[key] = (cell, val)
                following.append(key)
                if key[1] != z or length < 3:
                    continue
                targets = _seeing_both(cand, t, zbit, start, n)
                if targets:
                    chain = [key]
                    back = parent[key]
                    while back is not None:
                        chain.append(back)
                        back = parent[back]
                    return chain[::-1], z, targets
        frontier = following
    return None


def _xy_step(
    cand: Candidates, t: Tables, chain: list[tuple[Cell, Digit]], z: Digit, targets: list[Cell]
) -> Step:
    geo = t.geometry
    start, end = chain[0][0], chain[-1][0]
    sym = geo.symbol(z)
    links = [f"if {geo.cell_name(start)} is not {sym}, it is {geo.symbol(chain[0][1])}"]
    links += [f"{geo.cell_name(c)} is {geo.symbol(v)}" for c, v in chain[1:]]
    elims = [(c, z) for c in targets]
    sentence = (
        f"Along the chain of two-candidate cells, {', so '.join(links)}. So "
        f"{geo.cell_name(start)} or {geo.cell_name(end)} is {sym}, and "
        f"{_removal_of(geo, z, elims)}, {_which(elims)} both."
    )
    return _step(
        "XY-chain",
        sentence,
        cand,
        cells=[c for c, _ in chain],
        eliminations=elims,
        links=_xy_links(chain, z),
    )


def _xy_links(chain: list[tuple[Cell, Digit]], z: Digit) -> list[Link]:
    """The XY-chain's links: strong inside each cell, weak between cells on a shared digit."""
    links: list[Link] = []
    before = z
    for i, (cell, value) in enumerate(chain):
        if i:
            links.append(((chain[i - 1][0], before), (cell, before), False))
        links.append(((cell, before), (cell, value), True))
        before = value
    return links


def _strong_graph(cand: Candidates, t: Tables) -> dict[Node, list[Node]]:
    """Strong links between candidates: one of the two must be true.

    Two digits of a two-candidate cell, and a digit's two places in a house.
    """
    masks = cand.masks
    strong: dict[Node, list[Node]] = {}
    for cell, m in enumerate(masks):
        if m.bit_count() == 2:
            a, b = bits_to_digits(m)
            strong.setdefault((cell, a), []).append((cell, b))
            strong.setdefault((cell, b), []).append((cell, a))
    for d in range(1, t.geometry.size + 1):
        for _h, a, b in _strong_links(cand, t, 1 << (d - 1)):
            strong.setdefault((a, d), []).append((b, d))
            strong.setdefault((b, d), []).append((a, d))
    return strong


def alternating_chain(cand: Candidates, t: Tables) -> Step | None:
    """An alternating inference chain: strong and weak links in turn between candidates.

    Assume the first candidate false; each strong link then makes the next true and each weak
    link (same cell, or same digit in cells that see each other) the next false. The chain
    ends on a true candidate, so the first or the last is true, and whatever contradicts both
    goes. Only candidates with a strong link can carry the chain, which keeps the search
    small. The shortest chain with an elimination is shown; all one digit is an X-chain.
    """
    masks = cand.masks
    strong = _strong_graph(cand, t)
    weak: dict[Node, list[Node]] = {}
    for cell, d in strong:
        near = [(cell, e) for e in bits_to_digits(masks[cell]) if e != d and (cell, e) in strong]
        near += [(p, d) for p in t.peer_sets[cell] if (p, d) in strong]
        weak[(cell, d)] = near
    best: list[Node] | None = None
    best_elims: list[tuple[Cell, Digit]] = []
    for start in sorted(strong):
        # parent links, keyed by (node, is_true); the start is assumed false.
        parent: dict[tuple[Node, bool], tuple[Node, bool] | None] = {(start, False): None}
        frontier = [(start, False)]
        length = 1
        while frontier and length < MAX_CHAIN_CELLS:
            if best is not None and length + 1 >= len(best):
                break
            length += 1
            following: list[tuple[Node, bool]] = []
            for node, true in frontier:
                for nxt in weak[node] if true else strong[node]:
                    key = (nxt, not true)
                    if key in parent or nxt == start:
                        continue
                    parent[key] = (node, true)
                    following.append(key)
                    if true or length < 4:
                        continue  # a chain ends on a strong link, after at least one weak
                    elims = _chain_eliminations(cand, t, start, nxt)
                    if elims and (best is None or length < len(best)):
                        chain = [nxt]
                        back = parent[key]
                        while back is not None:
                            chain.append(back[0])
                            back = parent[back]
                        best, best_elims = chain[::-1], elims
            frontier = following
    if best is None:
        return None
    return _chain_step(cand, t, best, best_elims)


def _chain_eliminations(cand: Candidates, t: Tables, a: Node, b: Node) -> list[tuple[Cell, Digit]]:
    """What contradicts both ends of a chain, one of which is true."""
    masks = cand.masks
    (ca, da), (cb, db) = a, b
    if da == db and ca != cb:
        return [(c, da) for c in _seeing_both(cand, t, 1 << (da - 1), ca, cb)]
    if ca == cb:
        keep = (1 << (da - 1)) | (1 << (db - 1))
        return [(ca, d) for d in bits_to_digits(masks[ca] & ~keep)]
    if t.sees(ca, cb):
        out = []
        if masks[ca] >> (db - 1) & 1:
            out.append((ca, db))
        if masks[cb] >> (da - 1) & 1:
            out.append((cb, da))
        return out
    return []


def _chain_step(
    cand: Candidates, t: Tables, chain: list[Node], elims: list[tuple[Cell, Digit]]
) -> Step:
    geo = t.geometry

    def says(node: Node, true: bool) -> str:
        cell, d = node
        return f"{geo.cell_name(cell)} {'is' if true else 'is not'} {geo.symbol(d)}"

    parts = [says(node, i % 2 == 1) for i, node in enumerate(chain[1:], start=1)]
    single_digit = len({d for _, d in chain}) == 1
    name = "X-chain" if single_digit else "Alternating chain"
    first, last = chain[0], chain[-1]
    sentence = (
        f"Following strong and weak links in turn: if {says(chain[0], False)}, then "
        f"{', so '.join(parts)}. So "
        f"{says(first, True)} or {says(last, True)}, and whatever contradicts both goes: "
        f"remove {_removals(geo, elims)}."
    )
    # The start is assumed false, so the chain opens with a strong link, then alternates.
    links = [(a, b, i % 2 == 0) for i, (a, b) in enumerate(itertools.pairwise(chain))]
    return _step(name, sentence, cand, cells=[c for c, _ in chain], eliminations=elims, links=links)
