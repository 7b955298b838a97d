"""The engine's search, told as a story: reduce passes, guesses, and why branches fail.

Vocabulary:

pass
    One sweep of the reduce: every house is checked for hidden singles and each placement
    removes its digit from the peers (which may leave naked singles, placed at once). A pass
    *settles* the cells it fills.
guess
    When a reduce stalls, branch on the open cell with the fewest candidates (the first such
    cell, as the engine does) and try its candidates in ascending order.
event
    One line of the story (:class:`TraceEvent`), with its depth in the search tree.

This is a small instrumented copy of the classic reduce-and-guess method rather than hooks in
:mod:`sudoku_web.core.solver`: the fast engine stays free of bookkeeping, and this copy only needs
to be clear. It stops at the first solution (uniqueness is the engine's business) and keeps
at most ``max_events`` events, flagging the trace as cut beyond that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .board import Geometry, House

EventKind = Literal["reduce", "guess", "try", "fail", "solved"]

# A page of about this many lines stays readable; top95 needs more only on its worst puzzles.
DEFAULT_MAX_EVENTS = 200
# Bounds the work however large the tree: the engine's own default budget.
DEFAULT_MAX_NODES = 20_000


@dataclass(frozen=True)
class TraceEvent:
    """One line of the search story."""

    depth: int
    kind: EventKind
    sentence: str
    cell: int | None = None
    value: int | None = None
    candidates: tuple[int, ...] = ()  # guess: the digits the cell could hold
    settled: int = 0  # reduce: cells this pass filled


@dataclass(frozen=True)
class SearchTrace:
    """The recorded search: events in order, whether they were cut, and the totals."""

    events: tuple[TraceEvent, ...]
    truncated: bool
    outcome: Literal["solved", "unsolvable", "gave_up"]
    guesses: int
    backtracks: int
    solution: tuple[int, ...] | None


class _Contradiction(Exception):
    """Raised inside a branch; the message says why it failed."""


class _Budget(Exception):
    """Raised when the node budget runs out."""


def trace_search(
    grid: Sequence[int],
    geometry: Geometry,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> SearchTrace:
    """Run reduce + guess on ``grid`` and record it; never raises for an unsolvable grid."""
    return _Tracer(geometry, max_events, max_nodes).run(list(grid))


class _Tracer:
    def __init__(self, geo: Geometry, max_events: int, max_nodes: int) -> None:
        self.geo = geo
        self.full = (1 << geo.size) - 1
        self.max_events = max_events
        self.max_nodes = max_nodes
        self.events: list[TraceEvent] = []
        self.truncated = False
        self.guesses = 0
        self.backtracks = 0

    def note(self, event: TraceEvent) -> None:
        """Record an event unless the story is already full."""
        if len(self.events) < self.max_events:
            self.events.append(event)
        else:
            self.truncated = True

    def run(self, grid: list[int]) -> SearchTrace:
        """Place the givens, reduce, then search; return the trace."""
        masks = [self.full] * self.geo.cells
        solution: list[int] | None = None
        outcome: Literal["solved", "unsolvable", "gave_up"] = "unsolvable"
        try:
            for cell, value in enumerate(grid):
                if value:
                    self.place(masks, cell, 1 << (value - 1))
            settled = self.settled(masks) - sum(1 for v in grid if v)
            givens = sum(1 for v in grid if v)
            self.note(
                TraceEvent(
                    0,
                    "reduce",
                    f"Place the {givens} givens{_forcing(settled)}.",
                    settled=settled,
                )
            )
            self.reduce(masks, 0)
            solution = self.search(masks, 0)
            outcome = "solved" if solution else "unsolvable"
        except _Contradiction as why:
            self.note(TraceEvent(0, "fail", f"The givens contradict each other: {why}"))
        except _Budget:
            outcome = "gave_up"
        return SearchTrace(
            tuple(self.events),
            self.truncated,
            outcome,
            self.guesses,
            self.backtracks,
            tuple(solution) if solution else None,
        )

    def settled(self, masks: Sequence[int]) -> int:
        """How many cells have a single candidate."""
        return sum(1 for m in masks if not m & (m - 1))

    def place(self, masks: list[int], cell: int, bit: int) -> None:
        """Set ``cell`` to ``bit`` and clear it from the peers, cascading naked singles."""
        geo = self.geo
        if not masks[cell] & bit:
            raise _Contradiction(f"{geo.cell_name(cell)} cannot be {geo.symbol(bit.bit_length())}.")
        masks[cell] = bit
        for peer in geo.peers[cell]:
            m = masks[peer]
            if m & bit:
                m &= ~bit
                masks[peer] = m
                if not m:
                    raise _Contradiction(f"{geo.cell_name(peer)} has no candidate left.")
                if not m & (m - 1):
                    self.place(masks, peer, m)

    def reduce(self, masks: list[int], depth: int) -> None:
        """Hidden-single passes until one settles nothing; one event per productive pass."""
        geo = self.geo
        number = 0
        while True:
            before = self.settled(masks)
            for house in geo.houses:
                self.hidden_singles(masks, house)
            settled = self.settled(masks) - before
            if not settled:
                return
            number += 1
            self.note(
                TraceEvent(
                    depth,
                    "reduce",
                    f"Reduce pass {number} settles {settled} "
                    f"{'cell' if settled == 1 else 'cells'}.",
                    settled=settled,
                )
            )

    def hidden_singles(self, masks: list[int], house: House) -> None:
        """Place every digit of ``house`` that has one place left; raise if one has none."""
        geo = self.geo
        once = twice = 0
        for cell in house.cells:
            m = masks[cell]
            twice |= once & m
            once |= m
        if once != self.full:
            missing = (self.full & ~once).bit_length()
            raise _Contradiction(f"{geo.symbol(missing)} has nowhere to go in {house.name}.")
        only = once & ~twice
        for cell in house.cells:
            bit = masks[cell] & only
            if bit and masks[cell] != bit:
                if bit & (bit - 1):
                    raise _Contradiction(
                        f"two digits can only go in {geo.cell_name(cell)} ({house.name})."
                    )
                self.place(masks, cell, bit)

    def search(self, masks: list[int], depth: int) -> list[int] | None:
        """Guess on the first cell with fewest candidates; the first solution found, or None."""
        geo = self.geo
        best, count = -1, geo.size + 1
        for cell, m in enumerate(masks):
            if m & (m - 1) and m.bit_count() < count:
                best, count = cell, m.bit_count()
        if best < 0:
            self.note(TraceEvent(depth, "solved", "Every cell is settled: solved."))
            return [m.bit_length() for m in masks]
        self.guesses += 1
        if self.guesses > self.max_nodes:
            self.note(TraceEvent(depth, "fail", "The search budget ran out here."))
            raise _Budget
        digits = tuple(d for d in range(1, geo.size + 1) if masks[best] >> (d - 1) & 1)
        listed = ", ".join(geo.symbol(d) for d in digits)
        self.note(
            TraceEvent(
                depth,
                "guess",
                f"Stuck: guess at {geo.cell_name(best)}, the cell with fewest candidates "
                f"({listed}).",
                cell=best,
                candidates=digits,
            )
        )
        for d in digits:
            trial = masks.copy()
            name = f"{geo.cell_name(best)} = {geo.symbol(d)}"
            before = self.settled(trial)
            try:
                self.place(trial, best, 1 << (d - 1))
                forced = self.settled(trial) - before - 1
                self.note(
                    TraceEvent(
                        depth + 1,
                        "try",
                        f"Try {name}{_forcing(forced)}.",
                        cell=best,
                        value=d,
                        settled=forced,
                    )
                )
                self.reduce(trial, depth + 1)
            except _Contradiction as why:
                self.backtracks += 1
                self.note(TraceEvent(depth + 1, "fail", f"{name} fails: {why}", cell=best, value=d))
                continue
            found = self.search(trial, depth + 1)
            if found:
                return found
            self.backtracks += 1
            self.note(
                TraceEvent(
                    depth + 1,
                    "fail",
                    f"{name} fails: every branch under it ends in a contradiction.",
                    cell=best,
                    value=d,
                )
            )
        return None


def _forcing(n: int) -> str:
    """`` (which forces 3 cells by naked singles)`` or nothing."""
    if n <= 0:
        return ""
    return f", which forces {n} {'cell' if n == 1 else 'cells'} by naked singles"
