"""Chains: XY-chains and alternating inference chains (X-chains when one digit), between
single candidates; grouped chains and nice loops are in :mod:`.aic`."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..wording import N_, Np_, Value, counted, listing, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Link,
    Losses,
    Node,
    Step,
    Tables,
    _seeing_both,
    _step,
    bits_to_digits,
    cell_list,
    digit_boards,
    holds,
    removals,
    searched_in_vain,
    set_bits,
    still_vain,
)

# Chains longer than this read poorly and add almost nothing on top95.
MAX_CHAIN_CELLS = 12


def xy_chain(cand: Candidates, t: Tables) -> Step | None:
    """A chain of two-candidate cells: if the first is not z, the last is z; cells seeing both
    ends lose z. The shortest chain with an elimination is shown."""
    if still_vain("XY-chain", cand, t, _no_new_bivalue):
        return None
    step = _xy_chain(cand, t)
    if step is None:
        searched_in_vain("XY-chain", cand)
    return step


def _no_new_bivalue(before: Candidates, cand: Candidates, t: Tables, losses: Losses) -> bool:
    """No cell that lost candidates is left with two (or fewer): the two-candidate cells are
    the earlier position's, with the same candidates, so every chain of them was there too,
    with more to remove."""
    masks = cand.masks
    return all(masks[cell].bit_count() > 2 for cell, _ in losses)


def _no_new_strong_link(before: Candidates, cand: Candidates, t: Tables, losses: Losses) -> bool:
    """No strong link that the earlier position lacked: no cell that lost candidates is left
    with two, and no digit it lost is left with two places in one of its houses. Then every
    chain here was a chain there, with more to remove; and a start and end that were strongly
    linked there (a chain of two, which removes nothing new) still are."""
    if not _no_new_bivalue(before, cand, t, losses):
        return False
    boards = digit_boards(cand)
    for cell, lost in losses:
        for x in set_bits(lost):
            on = boards[x]
            for house in t.house_bits:
                if house >> cell & 1 and (on & house).bit_count() == 2:
                    return False
    return True


def _xy_chain(cand: Candidates, t: Tables) -> Step | None:
    masks = cand.masks
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    board = 0
    for c in bivalue:
        board |= 1 << c
    near = {c: set_bits(t.peer_bits[c] & board) for c in bivalue}
    lengths = _xy_lengths(cand, t, bivalue, near)
    best: _XYChain | None = None
    for start in bivalue:
        for z in bits_to_digits(masks[start]):
            limit = len(best[0]) if best is not None else MAX_CHAIN_CELLS + 1
            if lengths.get((start, z), limit) >= limit:
                continue  # _xy_from would find nothing: most starts, at a stall
            found = _xy_from(cand, t, near, start, z, limit)
            if found is not None:
                best = found
    return None if best is None else _xy_step(cand, t, *best)


def _xy_lengths(
    cand: Candidates, t: Tables, bivalue: list[Cell], near: dict[Cell, list[Cell]]
) -> dict[tuple[Cell, Digit], int]:
    """For each start and digit z where :func:`_xy_from` (with no tighter limit) finds a
    chain, the number of cells in it: the same breadth-first search, on bitsets.

    Each two-candidate cell has two states, one per digit it would hold (a bit each). A
    state leads to the states of the cells it sees that hold its digit: they hold their
    other one. The states a breadth-first search reaches at each level do not depend on the
    order it finds them in, so bitsets tell at which level it first reaches a chain's end.
    """
    masks, peer_bits, boards = cand.masks, t.peer_bits, digit_boards(cand)
    state: dict[tuple[Cell, int], int] = {}  # (cell, bit of the digit it holds) -> its bit
    holding: dict[int, list[Cell]] = {}  # digit bit -> the two-candidate cells holding it
    for i, c in enumerate(bivalue):
        low = masks[c] & -masks[c]
        for k, vbit in enumerate((low, masks[c] ^ low)):
            state[c, vbit] = 1 << (2 * i + k)
            holding.setdefault(vbit, []).append(c)
    moves: dict[int, int] = {}  # state bit -> the states it leads to
    for (c, vbit), bit in state.items():
        to = 0
        for n in near[c]:
            if masks[n] & vbit:
                to |= state[n, masks[n] & ~vbit]
        moves[bit] = to
    lengths: dict[tuple[Cell, Digit], int] = {}
    for (start, zbit), start_z in state.items():
        # The chain's possible ends: other cells holding z that see a place of z start sees.
        targets = peer_bits[start] & boards[zbit.bit_length() - 1]
        goal = 0
        for n in holding[zbit]:
            if n != start and peer_bits[n] & targets:
                goal |= state[n, zbit]
        frontier = state[start, masks[start] & ~zbit]
        seen = frontier | start_z  # start is never entered again
        length = 1
        while frontier and goal & ~seen and length + 1 <= MAX_CHAIN_CELLS:
            length += 1
            following = 0
            while frontier:
                low = frontier & -frontier
                following |= moves[low]
                frontier ^= low
            following &= ~seen
            if length >= 3 and following & goal:
                lengths[start, zbit.bit_length()] = length
                break
            seen |= following
            frontier = following
    return lengths


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
    links: list[Value] = [
        words(
            N_("if {cell} is not {digit}, it is {other}"),
            cell=geo.cell_name(start),
            digit=sym,
            other=geo.symbol(chain[0][1]),
        )
    ]
    links += [holds(geo, c, v) for c, v in chain[1:]]
    elims = [(c, z) for c in targets]
    sentence = counted(
        Np_(
            "Along the chain of two-candidate cells, {links}. So {start} or {end} is {digit}, "
            "and {digit} is removed from {removed}, which sees both.",
            "Along the chain of two-candidate cells, {links}. So {start} or {end} is {digit}, "
            "and {digit} is removed from {removed}, which see both.",
        ),
        len(targets),
        links=listing(links, "so"),
        start=geo.cell_name(start),
        end=geo.cell_name(end),
        digit=sym,
        removed=cell_list(geo, targets),
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


def alternating_chain(cand: Candidates, t: Tables) -> Step | None:
    """An alternating inference chain: strong and weak links in turn between candidates.

    Assume the first candidate false; each strong link then makes the next true and each weak
    link (same cell, or same digit in cells that see each other) the next false. The chain
    ends on a true candidate, so the first or the last is true, and whatever contradicts both
    goes. Only candidates with a strong link can carry the chain, which keeps the search
    small. The shortest chain with an elimination is shown; all one digit is an X-chain.

    Most calls find nothing (every stall before forcing logic asks), so one breadth-first
    pass from every start at once (:func:`_first_start`) first says whether any chain has an
    effect, and if so the first start whose chain is shortest; only that start is then
    searched for the chain to show.
    """
    if still_vain("X-chain", cand, t, _no_new_strong_link):
        return None
    graph = _ChainGraph(cand, t)
    start = _first_start(cand, t, graph)
    if start is None:
        searched_in_vain("X-chain", cand)
        return None
    found = _first_chain(cand, t, graph, start)
    return None if found is None else _chain_step(cand, t, *found)


class _ChainGraph:
    """The candidates with a strong link, numbered in sorted order, and their links as
    lists of numbers: strong (two digits of a two-candidate cell, a digit's two places in a
    house), then weak (same cell, then same digit in a peer; see :meth:`weak_of`)."""

    def __init__(self, cand: Candidates, t: Tables) -> None:
        self.cand, self.t = cand, t
        masks, boards = cand.masks, digit_boards(cand)
        one = two = three = 0  # cells with at least one, two, three candidates
        for board in boards:
            three |= two & board
            two |= one & board
            one |= board
        bivalue = set_bits(two & ~three)
        # Per digit, in house order: the houses where it has two places, as (a, b) cells.
        pairs: list[list[tuple[Cell, Cell]]] = []
        # Per digit: the cells where it has a strong link.
        self.linked = linked = [board & two & ~three for board in boards]
        for d, board in enumerate(boards):
            found = []
            for house in t.house_bits:
                x = board & house
                rest = x & (x - 1)
                if rest and not rest & (rest - 1):
                    found.append((x ^ rest, rest))
                    linked[d] |= x
            pairs.append(found)
        per_cell = [0] * len(masks)  # cell -> the digits (bits) with a strong link there
        for d, cells in enumerate(linked):
            for c in set_bits(cells):
                per_cell[c] |= 1 << d
        self.nodes: list[Node] = []
        # Per digit: cell -> its node's number.
        self.at: list[dict[Cell, int]] = [{} for _ in range(len(boards) + 1)]
        for c, m in enumerate(per_cell):
            while m:
                low = m & -m
                self.at[low.bit_length()][c] = len(self.nodes)
                self.nodes.append((c, low.bit_length()))
                m ^= low
        at = self.at
        self.strong: list[list[int]] = [[] for _ in self.nodes]
        for c in bivalue:
            a, b = bits_to_digits(masks[c])
            self.strong[at[a][c]].append(at[b][c])
            self.strong[at[b][c]].append(at[a][c])
        for d, found in enumerate(pairs, start=1):
            of_d = at[d]
            for x, y in found:
                a, b = of_d[x.bit_length() - 1], of_d[y.bit_length() - 1]
                self.strong[a].append(b)
                self.strong[b].append(a)
        self._per_cell = per_cell
        self._weak: list[list[int] | None] = [None] * len(self.nodes)

    def weak_of(self, n: int) -> list[int]:
        """Node ``n``'s weak links in the order the chain search tries them: the cell's other
        digits ascending, then the digit in the cell's peers (in ``peer_sets`` order)."""
        out = self._weak[n]
        if out is None:
            cell, d = self.nodes[n]
            here = self._per_cell[cell] & ~(1 << (d - 1))
            at = self.at
            out = [at[e][cell] for e in bits_to_digits(here)]
            of_d, linked = at[d], self.linked[d - 1]
            out += [of_d[p] for p in self.t.peer_sets[cell] if linked >> p & 1]
            self._weak[n] = out
        return out

    def weak_sets(self) -> list[list[int]]:
        """Every node's weak links, in no particular order (what a search of all starts at
        once needs)."""
        peer_bits, at, linked, per_cell = self.t.peer_bits, self.at, self.linked, self._per_cell
        out = []
        for cell, d in self.nodes:
            near = [at[e + 1][cell] for e in set_bits(per_cell[cell] & ~(1 << (d - 1)))]
            of_d = at[d]
            near += [of_d[p] for p in set_bits(peer_bits[cell] & linked[d - 1])]
            out.append(near)
        return out


def _first_start(cand: Candidates, t: Tables, g: _ChainGraph) -> int | None:
    """The first start (in node order) of a shortest chain with an effect, or None when no
    chain has one: the first reaches of every start, taken a length at a time for all starts
    at once (bit ``s`` of ``layer[k]``: start ``s`` first reaches node ``k`` at this length),
    and the same ends checked as :func:`_first_chain` checks them (see :func:`_effect`)."""
    count = len(g.nodes)
    weak = g.weak_sets()
    everyone = (1 << count) - 1
    unseen = [everyone ^ 1 << n for n in range(count)]
    fresh = (unseen, unseen.copy())  # per truth, per node: the starts not there yet
    layer = [1 << n for n in range(count)]
    frontier = list(range(count))
    effect = _effect(cand, t, g)
    length = 1
    while frontier and length < MAX_CHAIN_CELLS:
        true = length % 2 == 0  # the frontier's truth
        length += 1
        links = weak if true else g.strong
        new = [0] * count
        for m in frontier:
            starts = layer[m]
            for k in links[m]:
                new[k] |= starts
        left = fresh[0] if true else fresh[1]
        frontier = []
        for k, starts in enumerate(new):
            if starts:
                starts &= left[k]
                new[k] = starts
                if starts:
                    left[k] ^= starts
                    frontier.append(k)
        if not true and length >= 4:
            first = _lowest_with_effect(frontier, new, effect)
            if first is not None:
                return first
        layer = new
    return None


def _lowest_with_effect(
    frontier: list[int], new: list[int], effect: Callable[[int, int], bool]
) -> int | None:
    """The lowest start ``s`` of ``new[k]`` (over the nodes ``k`` of the frontier) with
    ``effect(s, k)``, or None."""
    first: int | None = None
    for k in frontier:
        starts = new[k]
        while starts:
            low = starts & -starts
            s = low.bit_length() - 1
            if first is not None and s >= first:
                break  # ascending: no lower start left at this node
            if effect(s, k):
                first = s
                break
            starts ^= low
    return first


def _effect(cand: Candidates, t: Tables, g: _ChainGraph) -> Callable[[int, int], bool]:
    """Whether a chain from node ``a`` to node ``b`` removes something: whether
    :func:`_chain_eliminations` finds anything, told with a few bit operations."""
    masks, peer_bits, boards = cand.masks, t.peer_bits, digit_boards(cand)
    cells = [c for c, _ in g.nodes]
    bits = [1 << (d - 1) for _, d in g.nodes]

    def effect(a: int, b: int) -> bool:
        ca, cb, ba, bb = cells[a], cells[b], bits[a], bits[b]
        if ba == bb:  # two cells (a node is one candidate): a third sees both
            return bool(peer_bits[ca] & peer_bits[cb] & boards[ba.bit_length() - 1])
        if ca == cb:
            return bool(masks[ca] & ~(ba | bb))
        return bool(peer_bits[ca] >> cb & 1 and (masks[ca] & bb or masks[cb] & ba))

    return effect


def _first_chain(
    cand: Candidates, t: Tables, g: _ChainGraph, s: int
) -> tuple[list[Node], list[tuple[Cell, Digit]]] | None:
    """The shortest chain with an elimination from start ``s``, the first found breadth
    first; with what it removes.

    Taking every start in order and keeping the first shortest chain finds the same one
    from the start :func:`_first_start` names: no earlier start has a chain as short.
    """
    count = len(g.nodes)
    # Per truth, per node: the node it was reached from (-1 for the start, -2 unseen).
    parent = ([-2] * count, [-2] * count)
    parent[0][s] = -1
    frontier = [s]
    length = 1
    while frontier and length < MAX_CHAIN_CELLS:
        true = length % 2 == 0
        length += 1
        seen = parent[0] if true else parent[1]
        following = []
        for node in frontier:
            for nxt in g.weak_of(node) if true else g.strong[node]:
                if seen[nxt] != -2 or nxt == s:
                    continue
                seen[nxt] = node
                following.append(nxt)
                if true or length < 4:
                    continue  # a chain ends on a strong link, after at least one weak
                elims = _chain_eliminations(cand, t, g.nodes[s], g.nodes[nxt])
                if elims:
                    return [g.nodes[n] for n in _traced(parent, nxt)], elims
        frontier = following
    return None


def _traced(parent: tuple[list[int], list[int]], end: int) -> list[int]:
    """The chain from its start to ``end`` (reached true), following parents back."""
    chain = [end]
    node, truth = end, 1
    while (back := parent[truth][node]) != -1:
        chain.append(back)
        node, truth = back, truth ^ 1
    return chain[::-1]


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
    parts = [holds(geo, *node, i % 2 == 1) for i, node in enumerate(chain[1:], start=1)]
    single_digit = len({d for _, d in chain}) == 1
    name = "X-chain" if single_digit else "Alternating chain"
    first, last = chain[0], chain[-1]
    sentence = words(
        N_(
            "Following strong and weak links in turn: if {start}, then {links}. So {first} or "
            "{last}, and whatever contradicts both goes: remove {removals}."
        ),
        start=holds(geo, *first, False),
        links=listing(parts, "so"),
        first=holds(geo, *first),
        last=holds(geo, *last),
        removals=removals(geo, elims),
    )
    # The start is assumed false, so the chain opens with a strong link, then alternates.
    links = [(a, b, i % 2 == 0) for i, (a, b) in enumerate(itertools.pairwise(chain))]
    return _step(name, sentence, cand, cells=[c for c, _ in chain], eliminations=elims, links=links)
