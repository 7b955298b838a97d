"""Forcing chains and nets: the last logical resort before a guess.

Vocabulary (on top of :mod:`sudoku_web.core.techniques`):

branch
    "If r1c1 is 3, then ...": one assumption and what singles (and, in a net, locked
    candidates) make of it, told as the placements it needs, each with its reason.
by contradiction
    A branch that ends with a cell or a house with nothing left: the assumption is false,
    so that candidate goes.
verity
    Every branch of a set that must hold one true assumption reaches the same conclusion:
    the digits of one cell (*cell forcing*) or the places of a digit in one house (*unit
    forcing*). The conclusion holds whichever branch is true.
chain / net
    A *forcing chain* follows singles only; a *forcing net* also uses locked candidates
    (pointing and box/line reduction) inside its branches, the way HoDoKu's forcing nets
    let a branch combine several facts.

How: every candidate's branch is followed on the whole-board bit state of
:mod:`sudoku_web.core.techniques.propagation` (about a tenth of a millisecond each), the
conclusions are compared there, and only the one shown, the shortest found, is followed
again with its reasons recorded (:class:`_Record`) to write the sentence. Only grids up to
9x9: a 16x16 position has a thousand candidates to try, which does not fit a page's deadline,
so big grids keep the guess (honestly named) instead.

Within an explanation the contradictions found but not shown are remembered, and the next
search re-checks those first (:func:`_known_broken`), cheapest first. A hard puzzle stalls
at forcing a dozen times or more, and nearly every stall is answered from memory: on
top95's seven slowest puzzles, 119 of the grade's 127 forcing searches.

Roads not taken: the re-check used to follow every remembered branch to its end and keep
the cheapest; advancing them a round at a time, the cheapest so far first, and stopping
at the first that breaks does about half the rounds (those 127 searches: 89 ms before,
52 ms after, same steps). It relies on a contradiction staying one as candidates shrink,
which holds for singles and locked candidates (more facts only help them); the branch
that is shown is still followed to its contradiction, never trusted. The memo keys are
built once per grid size (:func:`_memo_keys`, a few sizes up to 9x9, so bounded).
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..board import Geometry
from ..wording import N_, Np_, Value, Words, counted, listing, words
from . import clock
from .base import (
    Candidates,
    Step,
    Tables,
    _failed,
    _step,
    _telling,
    bits_to_digits,
    cell_list,
    digit_list,
    holds,
    house_uniques,
)
from .propagation import Branch, NetTables, Outcome, net_tables, propagate, state_of

# Larger grids keep the guess: see the module docstring.
MAX_SIZE = 9

Node = tuple[int, int]  # (cell, digit)


@dataclass(frozen=True)
class _Found:
    """A conclusion and the branches that prove it, with a rough length (for choosing)."""

    cost: int
    kind: str  # "contradiction", "cell" or "unit"
    branches: tuple[Node, ...]
    placement: Node | None
    elimination: Node | None


def forcing_chain(cand: Candidates, t: Tables) -> Step | None:
    """A forcing chain: branches followed with singles only."""
    return _forcing(cand, t, locked=False)


def forcing_net(cand: Candidates, t: Tables) -> Step | None:
    """A forcing net: branches followed with singles and locked candidates."""
    return _forcing(cand, t, locked=True)


def _forcing(cand: Candidates, t: Tables, locked: bool) -> Step | None:
    geo = t.geometry
    if geo.size > MAX_SIZE or cand.solved:
        return None
    found = _search(cand, t, net_tables(geo), locked)
    if found is None:
        return None
    if not _telling.get():  # only what it does (see base.untold)
        return _step(
            _NAMES[(found.kind, locked)],
            "",
            cand,
            placements=[found.placement] if found.placement else [],
            eliminations=[found.elimination] if found.elimination else [],
        )
    return _explain(cand, t, found, locked)


def _search(cand: Candidates, t: Tables, nt: NetTables, locked: bool) -> _Found | None:
    """The cheapest conclusion of any kind, or None.

    Inside :func:`remembering`, the contradictions found but not shown are kept, and the
    next search of the same explanation first follows those again: candidates only shrink
    along an explanation, so a branch that broke usually still breaks (each is re-checked
    here, never trusted), and a full search is only needed when none is left.
    """
    x, d = state_of(nt, cand.values, cand.masks)
    memo = _failed.get()
    if memo is not None:
        best = _known_broken(cand, nt, x, d, locked, memo)
        if best is not None:
            return best
    start = x & nt.cell_fields
    outcomes: dict[int, Outcome] = {}
    broken: list[_Found] = []
    for c, m in enumerate(cand.masks):
        if m:
            clock.check()  # a net can take 100 ms: stop at the explanation's deadline
        for digit in bits_to_digits(m):
            i = c * nt.size + digit - 1
            outcome = outcomes[i] = propagate(nt, x, d, i, locked)
            if outcome.broken:
                node = (c, digit)
                cost = outcome.placed[-1].bit_count()
                broken.append(_Found(cost, "contradiction", (node,), None, node))
    best = min(broken, key=lambda f: f.cost, default=None)
    for kind, branches in _branch_sets(cand, t):
        found = _verity(nt, outcomes, start, kind, branches, best)
        if found is not None:
            best = found
    if memo is not None:
        memo.update(("Forcing", locked, f.branches[0]) for f in broken if f is not best)
    return best


def _known_broken(
    cand: Candidates,
    nt: NetTables,
    x: int,
    d: int,
    locked: bool,
    memo: set[tuple[str, int, object]],
) -> _Found | None:
    """The cheapest contradiction among those a previous search found, or None.

    Cheapest first: the branches advance a round at a time, always the one with the fewest
    placements so far (then the first in the grid), and the first that breaks is the
    cheapest, since a branch only ever adds placements. The others stay remembered
    unfinished: a contradiction found on a position stays one as candidates shrink (the
    search is unit propagation, which more facts only help), so they would all break again.
    """
    n = nt.size
    keys = _memo_keys(len(cand.masks), n, locked)
    heap: list[tuple[int, int, Branch]] = []
    for c, m in enumerate(cand.masks):
        while m:
            low = m & -m
            m ^= low
            i = c * n + low.bit_length() - 1
            if keys[i] in memo:
                heap.append((1, i, Branch(nt, x, d, i, locked)))
    heapq.heapify(heap)
    while heap:
        cost, i, branch = heap[0]
        if branch.advance():
            heapq.heapreplace(heap, (branch.placed.bit_count(), i, branch))
            continue
        heapq.heappop(heap)
        memo.discard(keys[i])
        if branch.broken:
            node = (i // n, i % n + 1)
            return _Found(cost, "contradiction", (node,), None, node)
    return None


@functools.lru_cache(maxsize=8)  # a few grid sizes, each at most 9x9 (MAX_SIZE)
def _memo_keys(cells: int, size: int, locked: bool) -> tuple[tuple[str, int, Node], ...]:
    """Per candidate ``cell * size + digit - 1``, its key in the memo of
    :func:`remembering` (built once: the lookups run for every candidate at every stall)."""
    return tuple(
        ("Forcing", locked, (c, digit)) for c in range(cells) for digit in range(1, size + 1)
    )


def _branch_sets(cand: Candidates, t: Tables) -> Iterator[tuple[str, tuple[Node, ...]]]:
    """Sets of assumptions one of which is true: a cell's digits, a digit's places in a house."""
    masks = cand.masks
    for c, m in enumerate(masks):
        if m:
            yield "cell", tuple((c, digit) for digit in bits_to_digits(m))
    for cells in t.house_cells:
        seen = 0
        for c in cells:
            seen |= masks[c]
        for digit in bits_to_digits(seen):
            bit = 1 << (digit - 1)
            places = tuple((c, digit) for c in cells if masks[c] & bit)
            if len(places) >= 2:
                yield "unit", places


def _verity(
    nt: NetTables,
    outcomes: dict[int, Outcome],
    start: int,
    kind: str,
    branches: tuple[Node, ...],
    beat: _Found | None,
) -> _Found | None:
    """The cheapest conclusion every branch reaches if it is cheaper than ``beat``, else
    None (also when one branch breaks)."""
    n, w = nt.size, nt.width
    ends = [outcomes[c * n + digit - 1] for c, digit in branches]
    if any(o.broken for o in ends):
        return None  # that branch is a contradiction step of its own
    placed = gone = -1
    for o in ends:
        placed &= o.placed[-1]
        gone &= start & ~o.left[-1] & ~o.placed[-1]
    best = beat
    for bits, is_placement in ((placed, True), (gone, False)):
        while bits:
            low = bits & -bits
            bits ^= low
            cost = 0
            for o in ends:
                cost += _cost(o, low, is_placement)
                if best is not None and cost >= best.cost:
                    break  # it cannot be the cheapest: leave the other branches
            else:
                pos = low.bit_length() - 1
                node = (pos // w, pos % w + 1)
                best = _Found(
                    cost,
                    kind,
                    branches,
                    node if is_placement else None,
                    None if is_placement else node,
                )
    return None if best is beat else best


def _cost(outcome: Outcome, bit: int, placement: bool) -> int:
    """How many placements a branch makes before it reaches ``bit`` (placed, or gone)."""
    for placed, left in zip(outcome.placed, outcome.left, strict=True):
        if (placed if placement else ~left & ~placed) & bit:
            return placed.bit_count()
    return outcome.placed[-1].bit_count()


# ---------------------------------------------------------------------------------------------
# Writing it down: the branches followed again, each fact with its reason.


@dataclass(frozen=True)
class _Fact:
    kind: str  # "place", "elim" (from a placement), "locked" (an elimination), "broken"
    cell: int
    digit: int
    reason: Value
    since: tuple[int, ...]  # the facts it rests on


class _Record:
    """One branch followed with singles (and locked candidates), every fact's reason kept."""

    def __init__(self, cand: Candidates, t: Tables, locked: bool) -> None:
        self.t = t
        self.geo: Geometry = t.geometry
        self.start = cand.masks
        self.masks = list(cand.masks)
        self.values = list(cand.values)
        self.locked = locked
        self.facts: list[_Fact] = []
        self.placed_by: dict[Node, int] = {}
        self.removed_by: dict[Node, int] = {}

    def add(self, fact: _Fact) -> int:
        self.facts.append(fact)
        return len(self.facts) - 1

    def follow(self, cell: int, digit: int) -> int | None:
        """Assume ``cell`` holds ``digit``; the contradiction's fact, or None at a fixpoint."""
        pending = [(cell, digit, self.add(_Fact("place", cell, digit, "assumed", ())))]
        while True:
            for c, e, fact in pending:
                broken = self._place(c, e, fact)
                if broken is not None:
                    return broken
            broken = self._broken()
            if broken is not None:
                return broken
            pending = self._singles()
            if not pending and not (self.locked and self._locked()):
                return None

    def _remove(self, cell: int, digit: int, fact: int) -> None:
        self.masks[cell] &= ~(1 << (digit - 1))
        self.removed_by.setdefault((cell, digit), fact)

    def _place(self, cell: int, digit: int, fact: int) -> int | None:
        geo = self.geo
        if self.values[cell]:
            if self.values[cell] == digit:
                return None
            other = self.placed_by[(cell, self.values[cell])]
            held = geo.symbol(self.values[cell])
            why = words(
                N_("{cell} would hold both {held} and {digit}"),
                cell=geo.cell_name(cell),
                held=held,
                digit=geo.symbol(digit),
            )
            return self.add(_Fact("broken", cell, digit, why, (other, fact)))
        bit = 1 << (digit - 1)
        if not self.masks[cell] & bit:
            why = self._clash(cell, digit)
            return self.add(
                _Fact("broken", cell, digit, why, (fact, self.removed_by[(cell, digit)]))
            )
        self.placed_by[(cell, digit)] = fact
        for e in bits_to_digits(self.masks[cell] & ~bit):
            self._remove(cell, e, fact)
        self.values[cell] = digit
        self.masks[cell] = 0
        for q in geo.peers[cell]:
            if self.masks[q] & bit:
                self._remove(q, digit, fact)
        return None

    def _clash(self, cell: int, digit: int) -> Words:
        """Why ``cell`` cannot take ``digit`` after all: another cell of a house took it."""
        geo = self.geo
        cause = self.facts[self.removed_by[(cell, digit)]]
        if cause.kind == "place" and cause.digit == digit and cause.cell != cell:
            house = geo.shared_houses(cause.cell, cell)[0]
            return words(
                N_("{digit} would be twice in {house} ({cells})"),
                digit=geo.symbol(digit),
                house=house.words,
                cells=cell_list(geo, (cause.cell, cell)),
            )
        return words(
            N_("{cell} would be {digit}, already ruled out there"),
            cell=geo.cell_name(cell),
            digit=geo.symbol(digit),
        )

    def _why_gone(self, cells: Sequence[int], digit: int) -> tuple[int, ...]:
        bit = 1 << (digit - 1)
        return tuple(self.removed_by[(c, digit)] for c in cells if self.start[c] & bit)

    def _broken(self) -> int | None:
        geo = self.geo
        for c, (v, m) in enumerate(zip(self.values, self.masks, strict=True)):
            if not v and not m:
                since = tuple(self.removed_by[(c, e)] for e in bits_to_digits(self.start[c]))
                why = words(N_("{cell} has no digit left"), cell=geo.cell_name(c))
                return self.add(_Fact("broken", c, 0, why, since))
        for house in geo.houses:
            have = 0
            for c in house.cells:
                have |= self.masks[c] | (1 << (self.values[c] - 1) if self.values[c] else 0)
            missing = ((1 << geo.size) - 1) & ~have
            if missing:
                digit = bits_to_digits(missing)[0]
                since = self._why_gone(house.cells, digit)
                why = words(
                    N_("{digit} has no place left in {house}"),
                    digit=geo.symbol(digit),
                    house=house.words,
                )
                return self.add(_Fact("broken", house.cells[0], digit, why, since))
        return None

    def _singles(self) -> list[tuple[int, int, int]]:
        geo = self.geo
        out: list[tuple[int, int, int]] = []
        seen: set[Node] = set()
        for c, m in enumerate(self.masks):
            if m and not m & (m - 1):
                e = m.bit_length()
                since = tuple(
                    self.removed_by[(c, f)] for f in bits_to_digits(self.start[c]) if f != e
                )
                out.append((c, e, self.add(_Fact("place", c, e, _NAKED_SINGLE, since))))
                seen.add((c, e))
        for house in geo.houses:
            for e in bits_to_digits(house_uniques(self.masks, house.cells)):
                bit = 1 << (e - 1)
                c = next(c for c in house.cells if self.masks[c] & bit)
                if (c, e) in seen:
                    continue
                seen.add((c, e))
                others = [o for o in house.cells if o != c]
                reason = words(N_("hidden single in {house}"), house=house.words)
                fact = self.add(_Fact("place", c, e, reason, self._why_gone(others, e)))
                out.append((c, e, fact))
        return out

    def _locked(self) -> bool:
        """One locked-candidates elimination (the first found); True when one was made."""
        geo, t = self.geo, self.t
        for (a, b, _common), (a_in, a_out, b_out) in zip(
            t.intersections, t.intersection_parts, strict=True
        ):
            inside = outside = beyond = 0
            for c in a_in:
                inside |= self.masks[c]
            for c in a_out:
                outside |= self.masks[c]
            for c in b_out:
                beyond |= self.masks[c]
            for e in bits_to_digits(inside & ~outside & beyond):
                bit = 1 << (e - 1)
                if any(self.values[c] == e for c in geo.houses[a].cells):
                    continue
                since = self._why_gone(a_out, e)
                ha, hb = geo.houses[a], geo.houses[b]
                targets = [c for c in b_out if self.masks[c] & bit]
                why = counted(
                    Np_(
                        "the {digit} of {house} is then in {other}, so {cells} is not {digit}",
                        "the {digit} of {house} is then in {other}, so {cells} are not {digit}",
                    ),
                    len(targets),
                    digit=geo.symbol(e),
                    house=ha.words,
                    other=hb.words,
                    cells=cell_list(geo, targets),
                )
                fact = self.add(_Fact("locked", targets[0], e, why, since))
                for c in targets:
                    self._remove(c, e, fact)
                return True
        return False

    def story(self, last: int) -> list[_Fact]:
        """The facts ``last`` rests on, in the order they were found (assumption first)."""
        needed: set[int] = set()
        todo = [last]
        while todo:
            f = todo.pop()
            if f in needed:
                continue
            needed.add(f)
            todo.extend(self.facts[f].since)
        return [self.facts[f] for f in sorted(needed)]


def _says(geo: Geometry, fact: _Fact) -> Value:
    if fact.kind == "place":
        return words(
            N_("{cell} is {digit} ({reason})"),
            cell=geo.cell_name(fact.cell),
            digit=geo.symbol(fact.digit),
            reason=fact.reason,
        )
    return fact.reason


def _branch(
    cand: Candidates, t: Tables, locked: bool, node: Node, goal: Node | None, placement: bool
) -> tuple[Words, list[int]] | None:
    """One branch's sentence up to ``goal`` (or to its contradiction), and its cells."""
    geo = t.geometry
    record = _Record(cand, t, locked)
    broken = record.follow(*node)
    if goal is None:
        last = broken
    elif broken is not None:
        return None
    else:
        last = (record.placed_by if placement else record.removed_by).get(goal)
    if last is None:
        return None
    facts = record.story(last)
    steps = [_says(geo, f) for f in facts[1:] if f.kind != "broken"]
    final: Value | None = None  # what the branch ends on, when no listed fact says it
    if goal is None:
        final = facts[-1].reason
    elif not placement and facts[-1].kind != "locked":
        final = holds(geo, *goal, False)
    if steps and final is not None:
        template = (
            N_("If {cell} is {digit}, then {steps}; then {last}.")
            if goal is None
            else N_("If {cell} is {digit}, then {steps}, so {last}.")
        )
    elif len(steps) > 1:
        template = N_("If {cell} is {digit}, then {steps}, so {last}.")
        final, steps = steps[-1], steps[:-1]
    else:
        template = N_("If {cell} is {digit}, then {last}.")
        final, steps = (steps[0] if steps else final or ""), []
    values: dict[str, Value] = {"cell": geo.cell_name(node[0]), "digit": geo.symbol(node[1])}
    if steps:
        values["steps"] = listing(steps, ",")
    sentence = words(template, last=final, **values)
    cells = sorted({f.cell for f in facts if f.kind == "place"})
    return sentence, cells


#: A fact's reason: a naked single.
_NAKED_SINGLE = words(N_("naked single"))

_NAMES = {
    ("contradiction", False): "Forcing chain by contradiction",
    ("cell", False): "Cell forcing chain",
    ("unit", False): "Unit forcing chain",
    ("contradiction", True): "Forcing net by contradiction",
    ("cell", True): "Cell forcing net",
    ("unit", True): "Unit forcing net",
}

# Every name a forcing step can carry, in ladder order.
FORCING_NAMES: tuple[str, ...] = tuple(_NAMES[k] for k in sorted(_NAMES, key=lambda k: k[1]))


def _explain(cand: Candidates, t: Tables, found: _Found, locked: bool) -> Step | None:
    geo = t.geometry
    name = _NAMES[(found.kind, locked)]
    goal = found.placement or found.elimination
    assert goal is not None
    target = holds(geo, *goal, found.placement is not None)
    parts: list[Value] = []
    cells: set[int] = set()
    for node in found.branches:
        told = _branch(
            cand,
            t,
            locked,
            node,
            None if found.kind == "contradiction" else goal,
            found.placement is not None,
        )
        if told is None:
            return None  # the record disagrees with the fast search: show nothing rather
        parts.append(told[0])
        cells.update(told[1])
    if found.kind == "contradiction":
        closing = words(N_("That cannot be, so {target}."), target=target)
    elif found.kind == "cell":
        closing = words(
            N_("{cell} is {digits}: either way {target}."),
            cell=geo.cell_name(found.branches[0][0]),
            digits=digit_list(geo, [digit for _, digit in found.branches], "or"),
            target=target,
        )
    else:
        spots = [c for c, _ in found.branches]
        house = next(h for h in geo.houses if set(spots) <= set(h.cells))
        closing = words(
            N_("The {digit} of {house} is in {places}: either way {target}."),
            digit=geo.symbol(found.branches[0][1]),
            house=house.words,
            places=listing((geo.cell_name(c) for c in spots), "or"),
            target=target,
        )
    sentence = listing([*parts, closing], " ")
    return _step(
        name,
        sentence,
        cand,
        cells=sorted(cells),
        placements=[found.placement] if found.placement else [],
        eliminations=[found.elimination] if found.elimination else [],
    )
