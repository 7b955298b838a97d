"""Grouped chains and nice loops: alternating inference chains whose nodes may be groups of
cells, and the loops such chains close.

Vocabulary (on top of :mod:`.base`):

node
    "This digit is in one of these cells": a single candidate, or a *grouped node*, two or
    more places of a digit inside the overlap of two houses (a box and a row, on a jigsaw a
    region and a line), true when one of its cells holds the digit.
strong link
    Of two nodes at least one is true: the two digits of a two-candidate cell, or the places
    of a digit in a house split into two nodes (two cells, a cell and a group, two groups).
weak link
    Of two nodes at most one is true: two digits of one cell, or one digit in nodes whose
    cells all see each other.
AIC
    An alternating inference chain: strong and weak links in turn, first and last link
    strong. Assume its first node false and every node after it follows, so its first or its
    last node is true; whatever contradicts both goes.
continuous nice loop
    An AIC whose last node is weakly linked back to its first. Around the loop every other
    node is true, so each link has exactly one true end, and whatever contradicts both ends
    of any link goes.
discontinuous nice loop
    A chain from a candidate back to itself that contradicts the assumption it started from:
    assumed true, the candidate comes back false, so it goes. That is an AIC that removes a
    single candidate, told as the loop through it, as HoDoKu tells it: the reader follows one
    assumption to its contradiction. The other kind (assumed false, it comes back true, so
    it is placed) never comes first: every strong link here is also weak, so such a loop
    holds a shorter AIC that removes candidates, and the placement follows from those.

One search finds them all, breadth first from every node at once (a set of starts per node
and layer, so a layer costs one pass over the links whatever the number of starts); the
first layer where a chain has an effect holds the shortest, and among those the one that
removes most is shown. The chain rung in :mod:`.chains` has already looked for chains
without groups (up to :data:`~.chains.MAX_CHAIN_CELLS` cells). Chains here hold at most
:data:`MAX_CHAIN_NODES` nodes, as HoDoKu's do: of the 20 puzzles HoDoKu finishes with
grouped chains and ALSs where this ladder needed forcing logic, five hold a grouped chain or
loop of more than twelve nodes (the ungrouped chains' limit) and at most sixteen at their
first forcing stall, and the longer search cost no more CPU over a 100-puzzle top1465 sample
(a chain found spares the forcing search after it; benchmarks/RESULTS.md).

Roads not taken: HoDoKu searches nice loops from each candidate and AICs separately; here a
loop is an AIC whose ends are weakly linked, and a one-candidate elimination is read as a
loop after the fact, so one search serves all four names. A walk per start (as the ungrouped
chains do) cost three times as much on top95's positions. A grouped node is the places of a
digit in one house overlap, all of them but for the one cell at the other end of its strong
link (any subset would be sound, but a person spots a group as "the 5s of box 1 in row 2").
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from ..wording import N_, Words, listing, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Group,
    Link,
    Losses,
    Node,
    Step,
    Tables,
    _step,
    boards_of,
    digit_boards,
    holds,
    removals,
    searched_in_vain,
    set_bits,
    still_vain,
)
from .chains import _no_new_bivalue

# The longest grouped chain or loop, in nodes (see the module docstring).
MAX_CHAIN_NODES = 16

# Past this many links followed, a search gives up (a big jigsaw or 16x16 position can hold
# thousands of nodes, and a page must answer within its deadline). Measured: a 9x9 search
# follows at most about 6,000 (top95's stalls), a 16x16 one about 10,000.
MAX_LINKS_FOLLOWED = 200_000


class _Graph:
    """The nodes of a position and their links, as node sets (bit ``n`` for node ``n``).

    Both kinds of link are symmetric, which lets a chain be traced back from its end. Nodes
    are numbered as they are made: the two digits of each two-candidate cell, then each
    digit's house links (the search's ties go to lower numbers, so the order is part of what
    a step shows).
    """

    def __init__(self, cand: Candidates, t: Tables) -> None:
        self.cand = cand
        self.t = t
        self.boards = digit_boards(cand)
        self.bits: list[int] = []  # node -> bitboard of its cells
        self.digit: list[Digit] = []
        self.strong: list[int] = []  # node -> the nodes strongly linked to it
        # The same links as lists, each once (what the search follows).
        self.strong_lists: list[list[int]] = []
        self._bivalue_links()
        self._house_links()
        peer_bits = t.peer_bits
        # node -> bitboard of the cells that see all of its cells
        self.seen = [
            peer_bits[b.bit_length() - 1] if not b & (b - 1) else _seen_by_all(b, peer_bits)
            for b in self.bits
        ]
        self._weak_links()

    # -- building ------------------------------------------------------------------------

    def _bivalue_links(self) -> None:
        """The two digits of each two-candidate cell: the first nodes, in cell order."""
        masks = self.cand.masks
        one = two = three = 0  # cells with at least one, two, three candidates
        for board in self.boards:
            three |= two & board
            two |= one & board
            one |= board
        n = 0
        for cell in set_bits(two & ~three):
            m = masks[cell]
            self.bits += (1 << cell, 1 << cell)
            self.digit += ((m & -m).bit_length(), m.bit_length())
            self.strong += (1 << (n + 1), 1 << n)
            self.strong_lists += ([n + 1], [n])
            n += 2

    def _house_links(self) -> None:
        """Each digit's splits of each house (see :func:`_splits`), nodes made as met."""
        bits, digit, strong, strong_lists = self.bits, self.digit, self.strong, self.strong_lists
        house_bits = self.t.house_bits
        # Per digit, its nodes so far (bitboard -> node): first its two-candidate cells.
        ats: list[dict[int, int]] = [{} for _ in range(len(self.boards) + 1)]
        for n, b in enumerate(bits):
            ats[digit[n]][b] = n
        for d, on in enumerate(self.boards, start=1):
            at = ats[d]
            for split in _digit_splits(on, house_bits):
                for place in split:  # a node for each side not met before, in this order
                    if place not in at:
                        at[place] = len(bits)
                        bits.append(place)
                        digit.append(d)
                        strong.append(0)
                        strong_lists.append([])
                na, nb = at[split[0]], at[split[1]]
                if not strong[na] >> nb & 1:
                    strong[na] |= 1 << nb
                    strong[nb] |= 1 << na
                    strong_lists[na].append(nb)
                    strong_lists[nb].append(na)

    def _weak_links(self) -> None:
        """The tables the weak links and effects are read from, and each node's weak links."""
        bits, digit, seen, boards = self.bits, self.digit, self.seen, self.boards
        size, cells = len(boards), len(self.cand.masks)
        self._of_digit = of_digit = [0] * (size + 1)  # digit -> its nodes
        self._in_cell = in_cell = [0] * cells  # cell -> its single-candidate nodes
        # Per digit, per cell: the nodes of that digit whose cells all see the cell.
        self._seeing = seeing = [[0] * cells for _ in range(size + 1)]
        for n, b in enumerate(bits):
            bit = 1 << n
            d = digit[n]
            of_digit[d] |= bit
            if not b & (b - 1):
                in_cell[b.bit_length() - 1] |= bit
            row = seeing[d]
            x = seen[n] & boards[d - 1]
            while x:  # every cell holding d that sees all of the node's cells
                high = x.bit_length() - 1
                row[high] |= bit
                x ^= 1 << high
        self._weak: list[int] = []
        for n, b in enumerate(bits):
            row = seeing[digit[n]]
            if b & (b - 1):  # a group: the digit's nodes that see each of its cells
                out = of_digit[digit[n]]
                while b:
                    low = b & -b
                    out &= row[low.bit_length() - 1]
                    b ^= low
                self._weak.append(out)
            else:  # one cell: those that see it, and the cell's other digits
                cell = b.bit_length() - 1
                self._weak.append(row[cell] | in_cell[cell] & ~(1 << n))

    # -- links and effects -----------------------------------------------------------------

    def weak(self, n: int) -> int:
        """The nodes weakly linked to node ``n``: at most one of the two is true."""
        return self._weak[n]

    def ends(self, s: int) -> int:
        """The nodes ``m`` for which a chain from ``s`` to ``m`` may have an effect: some
        candidate contradicts both (see :meth:`both`), or ``m`` is weakly linked back to ``s``
        (a loop may close)."""
        d, bits = self.digit[s], self.bits[s]
        out = self._weak[s]
        row, in_cell = self._seeing[d], self._in_cell
        near = 0  # the single-candidate nodes in those cells
        x = self.boards[d - 1] & self.seen[s]
        while x:  # each candidate of d that s removes if true: the nodes that see it
            c = x.bit_length() - 1
            out |= row[c]
            near |= in_cell[c]
            x ^= 1 << c
        out |= near & ~self._of_digit[d]  # and the other digits' nodes in its cell
        if not bits & (bits - 1):
            cell = bits.bit_length() - 1
            mask = self.cand.masks[cell]
            seeing = self._seeing
            for e in set_bits(mask & ~(1 << (d - 1))):
                out |= seeing[e + 1][cell]
            if mask.bit_count() > 2:
                out |= self._in_cell[cell]
        return out & ~(1 << s)

    def weakly_linked(self, a: int, b: int) -> bool:
        """True when at most one of nodes ``a`` and ``b`` can be true."""
        return bool(self._weak[a] >> b & 1)

    def both(self, a: int, b: int) -> list[tuple[Cell, Digit]]:
        """The candidates that contradict node ``a`` and node ``b`` (one of them is true)."""
        da, db = self.digit[a], self.digit[b]
        if da == db:
            return [(c, da) for c in set_bits(self.boards[da - 1] & self.seen[a] & self.seen[b])]
        # Different digits: only a single candidate's cell can contradict the other digit.
        masks = self.cand.masks
        ba, bb = self.bits[a], self.bits[b]
        one_a, one_b = not ba & (ba - 1), not bb & (bb - 1)
        if one_a and ba == bb:
            cell = ba.bit_length() - 1
            keep = (1 << (da - 1)) | (1 << (db - 1))
            return [(cell, e + 1) for e in set_bits(masks[cell] & ~keep)]
        out: list[tuple[Cell, Digit]] = []
        if one_a and masks[ba.bit_length() - 1] >> (db - 1) & 1 and self.seen[b] & ba:
            out.append((ba.bit_length() - 1, db))
        if one_b and masks[bb.bit_length() - 1] >> (da - 1) & 1 and self.seen[a] & bb:
            out.append((bb.bit_length() - 1, da))
        return out

    def node(self, n: int) -> Node | Group:
        """Node ``n`` as a step's links name it."""
        cells = set_bits(self.bits[n])
        return (cells[0], self.digit[n]) if len(cells) == 1 else (tuple(cells), self.digit[n])


def _seen_by_all(bits: int, peer_bits: tuple[int, ...]) -> int:
    """The cells that see every cell of ``bits`` (a bitboard)."""
    seen = -1
    while bits:
        low = bits & -bits
        seen &= peer_bits[low.bit_length() - 1]
        bits ^= low
    return seen


# A digit's splits by its places: an explanation asks the rung again and again while most
# digits keep their places. Bounded: emptied when full.
_SPLITS: dict[tuple[tuple[int, ...], int], tuple[tuple[int, int], ...]] = {}
_SPLITS_KEPT = 2048


def _digit_splits(on: int, house_bits: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The splits (see :func:`_splits`) of a digit's places ``on`` in every house, in
    house order."""
    key = (house_bits, on)
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) >= _SPLITS_KEPT:
            _SPLITS.clear()
        pieces = _overlaps(house_bits)
        found = tuple(
            split
            for house, overlaps in zip(house_bits, pieces, strict=True)
            for split in _splits(on & house, overlaps)
        )
        _SPLITS[key] = found
    return found


def _splits(places: int, overlaps: tuple[int, ...]) -> list[tuple[int, int]]:
    """A digit's places in one house (a bitboard), split into two nodes: its strong links.

    A node is one cell or a *piece*: all the places (two or more) inside one overlap of
    the house with another (``overlaps``). So a split is a piece and the one cell outside it,
    two pieces, or (all places in one piece) a cell and the rest.
    """
    rest = places & (places - 1)
    if not rest:
        return []  # none or one place
    if not rest & (rest - 1):  # two places
        return [(places ^ rest, rest)]
    splits = []
    pieces = [x for o in overlaps if (x := places & o) & (x - 1)]
    for piece in pieces:
        outside = places ^ piece
        if not outside:
            splits += [(1 << c, places ^ 1 << c) for c in set_bits(places)]
        elif not outside & (outside - 1) or outside in pieces:
            splits.append((piece, outside))
    return splits


def _no_new_strong_link(before: Candidates, cand: Candidates, t: Tables, losses: Losses) -> bool:
    """No strong link (grouped nodes included) that the earlier position lacked: no cell that
    lost candidates is left with two, and in each house of such a cell, each digit it lost
    splits only as it split before. Then every node and link here was there too, with more
    to remove (see :func:`grouped_chain`)."""
    if not _no_new_bivalue(before, cand, t, losses):
        return False
    overlaps = _overlaps(t.house_bits)
    was = boards_of(before.masks)  # not kept: the graph about to be built asks for ``now``
    now = digit_boards(cand)
    for cell, lost in losses:
        for x in set_bits(lost):
            for house, pieces in zip(t.house_bits, overlaps, strict=True):
                if house >> cell & 1:
                    old = _splits(was[x] & house, pieces)
                    if any(split not in old for split in _splits(now[x] & house, pieces)):
                        return False
    return True


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
def _overlaps(house_bits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per house, the bitboards of its overlaps (two cells or more) with other houses."""
    per: list[set[int]] = [set() for _ in house_bits]
    for a, ha in enumerate(house_bits):
        for b in range(a + 1, len(house_bits)):
            both = ha & house_bits[b]
            if both.bit_count() >= 2 and both not in (ha, house_bits[b]):
                per[a].add(both)
                per[b].add(both)
    return tuple(tuple(sorted(p)) for p in per)


# ---------------------------------------------------------------------------------------------
# The search


@dataclass(frozen=True)
class _Found:
    """A chain with an effect: its nodes in reading order, the first assumed false.

    ``kind`` is "aic" (the first or the last node is true) or "loop" (the last node is
    weakly linked back to the first).
    """

    kind: str
    chain: tuple[int, ...]
    eliminations: tuple[tuple[Cell, Digit], ...] = ()


def grouped_chain(cand: Candidates, t: Tables) -> Step | None:
    """The shortest grouped AIC or nice loop with an effect (see the module's vocabulary).

    Inside :func:`.base.remembering`, a position that only lost candidates since a search
    here found nothing, and gained no strong link by it (:func:`_no_new_strong_link`), is
    skipped: each of its chains was a chain then, and what a chain of two removes (its ends
    are strongly linked) stays out of reach. That holds when the search in vain met no
    candidate end at all (its judging of traced chains could otherwise go another way).
    """
    if still_vain("Grouped X-chain", cand, t, _no_new_strong_link):
        return None
    graph = _Graph(cand, t)
    found, proof = _search(graph)
    if found is None:
        if proof:
            searched_in_vain("Grouped X-chain", cand)
        return None
    return _tell(graph, found)


def _search(g: _Graph) -> tuple[_Found | None, bool]:
    """Breadth first from every node at once, a layer at a time: layer 0 is every node
    assumed false; odd layers are reached along strong links (true), even ones along weak
    links (false). ``layers[j][k]`` is the set of starts whose chains first reach node ``k``
    at layer ``j``; the first layer where a chain has an effect holds the shortest.

    With the chain found (or None), whether finding none proves that no start reaches an
    end it could have an effect with: no such pair met and the whole length searched.
    """
    count = len(g.bits)
    strong = g.strong_lists
    weak = [set_bits(b) for b in g._weak]
    # Links per node, to count what a layer follows in one sum (the budget).
    degrees = ([len(x) for x in weak], [len(x) for x in strong])
    ends: list[int] = [-1] * count  # found on demand: -1 until then
    # Per truth, per node: the starts that have not reached it yet. A start counts as
    # reached at its own node both ways, so no chain comes back to its start.
    everyone = (1 << count) - 1
    unseen = [everyone ^ 1 << n for n in range(count)]
    fresh = (unseen, unseen.copy())
    layers = [[1 << n for n in range(count)]]
    frontier = list(range(count))
    budget = MAX_LINKS_FOLLOWED
    met = False  # a start met an end it may have an effect with
    while frontier and len(layers) < MAX_CHAIN_NODES and budget > 0:
        true = len(layers) % 2
        links = strong if true else weak
        budget -= sum(map(degrees[true].__getitem__, frontier))
        last = layers[-1]
        new = [0] * count
        for m in frontier:
            starts = last[m]
            for k in links[m]:
                new[k] |= starts
        left = fresh[true]
        frontier = []
        for k, starts in enumerate(new):
            if starts:
                starts &= left[k]
                if starts:
                    left[k] ^= starts
                    frontier.append(k)
                new[k] = starts
        layers.append(new)
        if true and len(layers) >= 4:
            hits = _hits(g, frontier, new, ends)
            if hits:
                met = True
                found = _best(g, layers, hits, ends)
                if found is not None:
                    return found, False
    return None, not met and budget > 0


def _hits(g: _Graph, frontier: list[int], new: list[int], ends: list[int]) -> list[int]:
    """The nodes of a true layer whose new starts may make a chain with an effect (``ends``
    is filled in on demand: -1 until asked)."""
    hits = []
    for k in frontier:
        if ends[k] < 0:
            ends[k] = g.ends(k)
        if new[k] & ends[k]:
            hits.append(k)
    return hits


def _best(g: _Graph, layers: list[list[int]], hits: list[int], ends: list[int]) -> _Found | None:
    """The chain with the most eliminations among those the last layer completes."""
    found: list[_Found] = []
    depth = len(layers) - 1
    for end in hits:
        for start in set_bits(layers[depth][end] & ends[end]):
            chain = _trace(g, layers, start, end, depth)
            if len(set(chain)) == len(chain):
                judged = _judge(g, chain)
                if judged is not None:
                    found.append(judged)
    return max(found, key=lambda f: len(f.eliminations), default=None)


def _trace(
    g: _Graph, layers: list[list[int]], start: int, node: int, depth: int
) -> tuple[int, ...]:
    """The chain from ``start`` to ``node``, reached at layer ``depth``: one node per layer,
    each linked to the next (links are symmetric, so they are followed backwards)."""
    chain = [node]
    for j in range(depth, 0, -1):
        links = g.strong[node] if j % 2 else g.weak(node)
        node = next(p for p in set_bits(links) if layers[j - 1][p] >> start & 1)
        chain.append(node)
    return tuple(reversed(chain))


def _judge(g: _Graph, chain: tuple[int, ...]) -> _Found | None:
    """The effect of a chain from its start (false) to its end (true), if it has one."""
    start, end = chain[0], chain[-1]
    if g.weakly_linked(end, start):
        elims: set[tuple[Cell, Digit]] = set()
        for i, node in enumerate(chain):
            elims.update(g.both(node, chain[i + 1] if i + 1 < len(chain) else start))
        return _Found("loop", chain, tuple(sorted(elims))) if elims else None
    found = g.both(start, end)
    return _Found("aic", chain, tuple(sorted(found))) if found else None


# ---------------------------------------------------------------------------------------------
# Telling


def _say(t: Tables, node: Node | Group, true: bool) -> Words:
    """A node in words: "r1c2 is 5", "5 is in r1c2 or r1c3", or their negations."""
    geo = t.geometry
    cells, digit = node
    if isinstance(cells, int):
        return holds(geo, cells, digit, true)
    sym = geo.symbol(digit)
    names = [geo.cell_name(c) for c in cells]
    if true:
        return words(N_("{digit} is in {cells}"), digit=sym, cells=listing(names, "or"))
    if len(names) == 2:
        return words(
            N_("{digit} is in neither {first} nor {second}"),
            digit=sym,
            first=names[0],
            second=names[1],
        )
    return words(N_("{digit} is in none of {cells}"), digit=sym, cells=listing(names))


def _tell(g: _Graph, found: _Found) -> Step:
    """The step for a chain found: a loop, a single removal told as a loop through the
    candidate it removes (if that stays within the length a person follows), else an AIC."""
    nodes = [g.node(n) for n in found.chain]
    if found.kind == "loop":
        return _loop_step(g, nodes, found.eliminations)
    if len(found.eliminations) == 1 and len(nodes) < MAX_CHAIN_NODES:
        target = found.eliminations[0]
        if target not in nodes:
            return _elimination_loop_step(g, nodes, target)
    return _aic_step(g, nodes, found.eliminations)


def _cells(nodes: list[Node | Group]) -> list[Cell]:
    """The cells of the nodes, each once, in chain order."""
    out: list[Cell] = []
    for cells, _ in nodes:
        for c in (cells,) if isinstance(cells, int) else cells:
            if c not in out:
                out.append(c)
    return out


def _alternating(nodes: list[Node | Group], strong_first: bool = True) -> list[Link]:
    """Links along the nodes, strong and weak in turn."""
    return [
        (a, b, (i % 2 == 0) == strong_first) for i, (a, b) in enumerate(itertools.pairwise(nodes))
    ]


def _grouped(nodes: list[Node | Group]) -> bool:
    return any(not isinstance(cells, int) for cells, _ in nodes)


def _aic_step(g: _Graph, nodes: list[Node | Group], elims: tuple[tuple[Cell, Digit], ...]) -> Step:
    t = g.t
    one_digit = len({d for _, d in nodes}) == 1
    if _grouped(nodes):
        name = "Grouped X-chain" if one_digit else "Grouped AIC"
    else:
        name = "X-chain" if one_digit else "Alternating chain"
    parts = [_say(t, node, i % 2 == 1) for i, node in enumerate(nodes[1:], start=1)]
    # A grouped first node ("5 is in r1c2 or r1c3") takes a comma before the "or" that follows.
    template = (
        N_(
            "Following strong and weak links in turn: if {start}, then {links}. So either "
            "{first}, or {last}, and whatever contradicts both goes: remove {removals}."
        )
        if _grouped(nodes[:1])
        else N_(
            "Following strong and weak links in turn: if {start}, then {links}. So either "
            "{first} or {last}, and whatever contradicts both goes: remove {removals}."
        )
    )
    sentence = words(
        template,
        start=_say(t, nodes[0], False),
        links=listing(parts, "so"),
        first=_say(t, nodes[0], True),
        last=_say(t, nodes[-1], True),
        removals=removals(t.geometry, elims),
    )
    return _step(
        name, sentence, g.cand, cells=_cells(nodes), eliminations=elims, links=_alternating(nodes)
    )


def _loop_step(g: _Graph, nodes: list[Node | Group], elims: tuple[tuple[Cell, Digit], ...]) -> Step:
    t = g.t
    loop = [*nodes, nodes[0]]
    parts = [_say(t, node, i % 2 == 1) for i, node in enumerate(loop[1:], start=1)]
    sentence = words(
        N_(
            "Strong and weak links in turn close a loop: if {start}, then {links} again. Around "
            "such a loop every other node is true, so each link has exactly one true end, and "
            "whatever contradicts both ends of a link goes: remove {removals}."
        ),
        start=_say(t, nodes[0], False),
        links=listing(parts, "so"),
        removals=removals(t.geometry, elims),
    )
    return _step(
        "Continuous nice loop",
        sentence,
        g.cand,
        cells=_cells(nodes),
        eliminations=elims,
        links=_alternating(loop),
    )


def _elimination_loop_step(g: _Graph, nodes: list[Node | Group], target: Node) -> Step:
    """An AIC that removes one candidate, told as the loop from that candidate back to it."""
    t = g.t
    loop: list[Node | Group] = [target, *nodes, target]
    parts = [_say(t, node, i % 2 == 0) for i, node in enumerate(loop[1:], start=1)]
    cell, digit = target
    sentence = words(
        N_(
            "Following weak and strong links in turn: if {start}, then {links} after all. The "
            "assumption contradicts itself, so {end}."
        ),
        start=_say(t, target, True),
        links=listing(parts, "so"),
        end=holds(t.geometry, cell, digit, False),
    )
    return _step(
        "Discontinuous nice loop",
        sentence,
        g.cand,
        cells=_cells(loop),
        eliminations=[target],
        links=_alternating(loop, strong_first=False),
    )
