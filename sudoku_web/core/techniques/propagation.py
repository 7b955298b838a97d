"""Fast "what follows if this cell is 3": singles (and locked candidates) to a fixpoint.

The forcing techniques ask that question for every candidate of a position, so it must be
cheap. This module answers it on a whole-board bit state, the representation the engine's
reduce uses (see :mod:`sudoku_web.core.solver`), written here on its own so the teaching
side never depends on the engine's private tables:

group
    N candidates of which exactly one must be true: the N digits of a cell, or the N places
    of a digit in a house. Every group owns a field of N+1 bits in ``X``: N candidate bits
    and a zero *guard* bit on top. A candidate appears once in every group holding it.
settled
    ``D`` holds the guard bit of each group a placed value settles. A placement empties all
    its groups (the candidates they held are ruled out), so along a branch a settled group
    is an empty one and the branch only counts them: more empty groups than settled ones
    is a contradiction. Candidates a value rules out are left out of ``X`` for the same
    reason.
scan
    ``T = (X | G) - LOW`` turns each field into ``x - 1`` and clears the guard of empty
    fields (the guard stops a borrow at its field): empty groups (contradictions) and groups
    with one candidate (singles, naked or hidden) come out of a dozen big-int operations.
    As ``X`` has no guard bit set, it is one addition: ``X + (G - LOW)``.
placements
    ``P``: the candidates placed since the assumption, as cell-group bits (bit
    ``cell * (N + 1) + digit - 1``), which is also how conclusions are compared.

Roads not taken: per-cell masks with house counts cost about 0.5 ms a propagation in
Python; this state costs about a tenth, which is what lets a forcing search try every
candidate of a 9x9 position within a few tens of milliseconds. Counting settled groups
instead of keeping ``D`` up to date saves a big-int operation per placement, and placing a
round's singles highest bit first (``bit_length`` finds it; lowest first needs a negation
and a mask) two more; placements are most of the work, so together they take about a
fifth off a propagation. Lowest first stays the rule for what a round places: the order
only matters when two singles of a round clash, the round then ends the branch, and only
that round is placed again (see :class:`Branch`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..board import Geometry


@dataclass(frozen=True)
class NetTables:
    """Masks for one geometry (see :func:`net_tables`)."""

    size: int
    width: int  # N + 1 bits per group
    guards: int  # G: the guard bit of every group
    lows: int  # LOW: the lowest bit of every group
    fill: int  # G - LOW, every candidate bit (see scan)
    cell_fields: int  # every candidate bit of the cell groups
    keep: tuple[int, ...]  # per candidate i = cell * N + d - 1: X &= keep[i] places it
    done: tuple[int, ...]  # per candidate: the guard bits of the groups it settles
    every: tuple[int, ...]  # per candidate: its bits in all its groups
    spans: tuple[int, ...]  # per candidate: how many groups hold it (and its placement settles)
    groups: int  # how many groups there are
    own: tuple[int, ...]  # per candidate: its bit in its cell's group (how P holds it)
    who: tuple[int, ...]  # per bit position of X: the candidate index it stands for
    # Per house A: where its groups start in X, and per intersection (A, house B) A's groups'
    # bits inside and outside the overlap, A's guards and lows, all four counted from that
    # start (small numbers, cheap to mask), and per digit the bits of that digit in B outside
    # the overlap (in X).
    slots: tuple[tuple[int, tuple[tuple[int, int, int, int, tuple[int, ...]], ...]], ...]


@functools.lru_cache(maxsize=16)  # bounded: jigsaw geometries come from user input
def net_tables(geo: Geometry) -> NetTables:
    """The (cached) masks of a geometry."""
    n = geo.size
    w = n + 1
    cells = n * n
    houses = [h.cells for h in geo.houses]
    positions = _positions(geo)
    every = [_bits(p) for p in positions]
    who = [0] * ((cells + len(houses) * n) * w)
    for i, p in enumerate(positions):
        for pos in p:
            who[pos] = i
    guards = _bits((g + 1) * w - 1 for g in range(cells + len(houses) * n))
    lows = _bits(g * w for g in range(cells + len(houses) * n))
    full = (1 << len(who)) - 1
    keep, done = [], []
    for c in range(cells):
        for d in range(n):
            kill = 0
            for e in range(n):
                kill |= every[c * n + e]
            for q in geo.peers[c]:
                kill |= every[q * n + d]
            keep.append(full & ~kill)
            settle = 1 << (c * w + n)
            for h in geo.cell_houses[c]:
                settle |= 1 << ((cells + h * n + d) * w + n)
            done.append(settle)
    return NetTables(
        size=n,
        width=w,
        guards=guards,
        lows=lows,
        fill=guards - lows,
        cell_fields=_bits(c * w + d for c in range(cells) for d in range(n)),
        keep=tuple(keep),
        done=tuple(done),
        every=tuple(every),
        spans=tuple(len(p) for p in positions),
        groups=cells + len(houses) * n,
        own=tuple(1 << p[0] for p in positions),
        who=tuple(who),
        slots=_slots(geo, every),
    )


def _positions(geo: Geometry) -> list[list[int]]:
    """Per candidate ``cell * N + digit - 1``, its bit in each of its groups (cell first)."""
    n, w, cells = geo.size, geo.size + 1, geo.size * geo.size
    positions: list[list[int]] = [[c * w + d] for c in range(cells) for d in range(n)]
    for h, house in enumerate(geo.houses):
        for k, c in enumerate(house.cells):
            for d in range(n):
                positions[c * n + d].append((cells + h * n + d) * w + k)
    return positions


def _slots(
    geo: Geometry, every: list[int]
) -> tuple[tuple[int, tuple[tuple[int, int, int, int, tuple[int, ...]], ...]], ...]:
    n = geo.size
    cells = n * n
    w = n + 1
    houses = [h.cells for h in geo.houses]
    out = []
    for a, members in enumerate(houses):
        start = (cells + a * n) * w
        slots = []
        for b, others in enumerate(houses):
            common = set(members) & set(others)
            if a == b or len(common) < 2 or not set(others) - common:
                continue
            inside = outside = guard = low = 0
            for d in range(n):
                base = d * w
                guard |= 1 << (base + n)
                low |= 1 << base
                for k, c in enumerate(members):
                    if c in common:
                        inside |= 1 << (base + k)
                    else:
                        outside |= 1 << (base + k)
            beyond = tuple(
                _bits_of(every, (c * n + d for c in others if c not in common)) for d in range(n)
            )
            slots.append((inside, outside, guard, low, beyond))
        if slots:
            out.append((start, tuple(slots)))
    return tuple(out)


def _bits(positions: Iterable[int]) -> int:
    out = 0
    for p in positions:
        out |= 1 << p
    return out


def _bits_of(every: Sequence[int], candidates: Iterable[int]) -> int:
    out = 0
    for i in candidates:
        out |= every[i]
    return out


def state_of(nt: NetTables, values: Sequence[int], masks: Sequence[int]) -> tuple[int, int]:
    """``(X, D)`` for a position: its candidates, and the groups its placed values settle."""
    n = nt.size
    x = d = 0
    for c, (v, m) in enumerate(zip(values, masks, strict=True)):
        if v:
            d |= nt.done[c * n + v - 1]
        while m:
            low = m & -m
            x |= nt.every[c * n + low.bit_length() - 1]
            m ^= low
    return x & ~(d - (d >> n)), d  # a settled group holds no candidate


@dataclass(frozen=True)
class Outcome:
    """What one assumption leads to, round by round (a round places every single found)."""

    broken: bool  # the assumption led to a contradiction
    placed: tuple[int, ...]  # P (cell-group bits) after each round, the assumption first
    left: tuple[int, ...]  # the cell-group candidate bits after each round


def propagate(nt: NetTables, x: int, d: int, i: int, locked: bool) -> Outcome:
    """Place candidate ``i`` on state ``(x, d)`` and follow singles (and, with ``locked``,
    locked candidates) until nothing changes or a group runs empty."""
    branch = Branch(nt, x, d, i, locked)
    fields = nt.cell_fields
    placed = [branch.placed]
    left = [branch.x & fields]
    while branch.advance():
        placed.append(branch.placed)
        left.append(branch.x & fields)
    return Outcome(branch.broken, tuple(placed), tuple(left))


class Branch:
    """One assumption followed a round at a time: :func:`propagate` follows it to its end,
    and a caller after the cheapest contradiction among many can leave the rest half-way.

    ``broken`` is known as soon as a round ends (a contradiction is checked for on the state
    a round leaves), so ``placed`` after the round that breaks is the branch's final count.
    """

    __slots__ = ("broken", "locked", "nt", "open", "placed", "settled", "t", "x")

    def __init__(self, nt: NetTables, x: int, d: int, i: int, locked: bool) -> None:
        self.nt = nt
        self.locked = locked
        self.x = x & nt.keep[i]
        self.settled = (d | nt.done[i]).bit_count()
        self.placed = nt.own[i]  # P
        self._check()

    def _check(self) -> None:
        """Scan the state: ``t`` for the next round, and whether a group ran empty."""
        nt = self.nt
        t = self.x + nt.fill  # a field's guard survives when it has a candidate
        self.t = t
        self.open = nt.guards & t  # the groups with a candidate left
        self.broken = nt.groups - self.open.bit_count() != self.settled

    def advance(self) -> bool:
        """One round; False once the branch has ended, at a contradiction (``broken``) or
        where nothing changes (``placed`` then no longer grows)."""
        if self.broken:
            return False
        nt = self.nt
        x, t = self.x, self.t
        z = (x & t) + nt.fill  # ... and here when it has two
        single = self.open & ~z
        if not single:
            if self.locked:
                narrowed = _locked(nt, x)
                if narrowed != x:
                    self.x = narrowed
                    self._check()
                    return True
            return False
        found = x & (single - (single >> nt.size))  # a single field's one candidate
        settled, p = self.settled, self.placed
        self.x, self.settled, self.placed = _place_highest_first(nt, x, settled, p, found)
        self._check()
        if self.broken:
            # Two singles of this round clashed, and which one got placed depends on the
            # order: the count is the one of placing them lowest bit first.
            self.x, self.settled, self.placed = _place_lowest_first(nt, x, settled, p, found)
        return True


# Both place the candidates of ``found`` (bits of X) one by one, skipping any that an
# earlier one ruled out; ``found &= x`` also drops a candidate's own bits in its other
# groups. Highest first finds each bit without a big-int negation (bit_length is free),
# which makes it the cheaper loop; it reaches the same state as lowest first unless two
# singles clash, and then the round ends the branch with a contradiction either way (the
# one left out leaves its group empty), so only that last round is placed again.


def _place_highest_first(
    nt: NetTables, x: int, settled: int, p: int, found: int
) -> tuple[int, int, int]:
    keep, spans, own, who = nt.keep, nt.spans, nt.own, nt.who
    while found:
        j = who[found.bit_length() - 1]
        x &= keep[j]
        settled += spans[j]
        p |= own[j]
        found &= x
    return x, settled, p


def _place_lowest_first(
    nt: NetTables, x: int, settled: int, p: int, found: int
) -> tuple[int, int, int]:
    keep, spans, own, who = nt.keep, nt.spans, nt.own, nt.who
    while found:
        j = who[(found & -found).bit_length() - 1]
        x &= keep[j]
        settled += spans[j]
        p |= own[j]
        found &= x
    return x, settled, p


def _locked(nt: NetTables, x: int) -> int:
    """``x`` after every locked-candidates elimination of one pass (a settled group, being
    empty, confines nothing)."""
    n = nt.size
    for start, slots in nt.slots:
        # House A's groups, shifted down: what B removes lies outside A, so this stays
        # A's part of ``x`` over all of A's intersections.
        own = x >> start
        for inside, outside, guard, low, beyond in slots:
            out = ((own & outside) | guard) - low
            into = ((own & inside) | guard) - low
            confined = guard & ~out & into
            while confined:
                top = confined & -confined
                confined ^= top
                x &= ~beyond[(top.bit_length() - 1) // (n + 1)]
    return x
