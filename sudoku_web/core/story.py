"""The engine's search told as a story: the words for what :mod:`.solver` records.

The solver's recorder (``solve(..., record=200)``) decodes its own bits into cells, houses
and symbols and hands them to a :class:`StoryWriter`; this module only words them. There is
no second search here: every line is a step the engine took, under its budget and deadline,
and the totals on any page come from the same run's :class:`~.solver.SolveStats`.

Vocabulary:

event
    One line of the story (:class:`StoryEvent`) at a depth of the search tree (0: the root).
reduce
    The engine's reduce after the givens or after a guess: singles placed in batches and
    locked candidates, repeated until nothing changes. It *settles* the cells it fills.
guess
    Where a reduce stalls, the engine branches (see ``solver._Search.choose``): on a cell with two
    candidates that has the most open peers, else on a symbol with two places left in a
    house, else on a cell with the fewest candidates. On a board with rules, on the cell with
    the fewest candidates for the rules that read it (:data:`RULES_GUESS`).
try
    One branch of a guess: a placement, followed by a reduce.
fail
    A branch whose reduce empties a group: a cell with no candidate left, or a symbol with no
    place left in a house. Each is one backtrack of the engine's statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .board import Geometry

EventKind = Literal["reduce", "guess", "try", "fail", "solved", "stop"]

# A page of about this many lines stays readable; top95 needs more only on its worst puzzles.
DEFAULT_MAX_EVENTS = 200


@dataclass(frozen=True)
class StoryEvent:
    """One line of the search story; cells 0-based row-major, symbols 1..N."""

    depth: int
    kind: EventKind
    sentence: str
    cell: int | None = None  # try / fail: the cell placed; guess on a cell: that cell
    value: int | None = None  # try / fail: the symbol placed; guess in a house: its symbol
    candidates: tuple[int, ...] = ()  # guess on a cell: the symbols it could hold
    places: tuple[int, ...] = ()  # guess in a house: the cells the symbol could go in
    house: str | None = None  # guess in a house: which one ("row 3")
    settled: int = 0  # reduce / try: cells the reduce filled


@dataclass(frozen=True)
class SearchStory:
    """The recorded events in order, and whether the cap cut them (the search went on)."""

    events: tuple[StoryEvent, ...]
    truncated: bool


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# Why the search on a board with rules guesses where it does (``solver._RuleSearch.choose``).
RULES_GUESS = "a cell with the fewest candidates for the rules that read it"


@dataclass
class StoryWriter:
    """Collects events up to ``max_events``; past the cap it only flags the story as cut."""

    geometry: Geometry
    max_events: int
    events: list[StoryEvent] = field(default_factory=list)
    truncated: bool = False
    # Why a cell is guessed, when the search chooses by another rule than the plain one.
    cell_reason: str | None = None

    @property
    def full(self) -> bool:
        """True once no more events are kept (the recorder then skips its decoding)."""
        return len(self.events) >= self.max_events

    def add(self, event: StoryEvent) -> None:
        """Keep ``event`` unless the story is full."""
        if self.full:
            self.truncated = True
        else:
            self.events.append(event)

    def story(self) -> SearchStory:
        """The story so far."""
        return SearchStory(tuple(self.events), self.truncated)

    def givens(self, count: int, settled: int) -> None:
        """The root: the givens placed, then the first reduce."""
        tail = f"; the reduce then settles {_count(settled, 'cell', 'cells')}" if settled else ""
        self.add(StoryEvent(0, "reduce", f"Place the {count} givens{tail}.", settled=settled))

    def guess_cell(self, depth: int, cell: int, symbols: tuple[int, ...]) -> None:
        """A guess on a cell's candidates."""
        geo = self.geometry
        listed = ", ".join(geo.symbol(v) for v in symbols)
        why = self.cell_reason or (
            "a cell with two candidates and the most open peers"
            if len(symbols) == 2
            else "no cell has two candidates and no symbol two places in a house, so a cell "
            "with the fewest candidates"
        )
        sentence = f"Stuck: guess at {geo.cell_name(cell)} ({listed}), {why}."
        self.add(StoryEvent(depth, "guess", sentence, cell=cell, candidates=symbols))

    def guess_house(self, depth: int, house: str, symbol: int, places: tuple[int, ...]) -> None:
        """A guess on the places of a symbol in a house."""
        geo = self.geometry
        where = " or ".join(geo.cell_name(c) for c in places)
        sentence = (
            f"Stuck, and no cell has two candidates: guess where {geo.symbol(symbol)} goes "
            f"in {house} ({where})."
        )
        self.add(StoryEvent(depth, "guess", sentence, value=symbol, places=places, house=house))

    def tried(self, depth: int, cell: int, value: int, settled: int) -> None:
        """One branch: the placement and what its reduce settled."""
        geo = self.geometry
        name = f"{geo.cell_name(cell)} = {geo.symbol(value)}"
        more = _count(settled, "more cell", "more cells")
        tail = f"; the reduce settles {more}" if settled else ""
        self.add(StoryEvent(depth, "try", f"Try {name}{tail}.", cell, value, settled=settled))

    def failed(self, depth: int, cell: int | None, value: int | None, why: str) -> None:
        """A contradiction: the branch (or, at the root, the givens) cannot stand."""
        geo = self.geometry
        if cell is None or value is None:
            self.add(StoryEvent(depth, "fail", f"The givens contradict each other: {why}."))
            return
        name = f"{geo.cell_name(cell)} = {geo.symbol(value)}"
        self.add(StoryEvent(depth, "fail", f"{name} fails: {why}.", cell, value))

    def empty_cell(self, cell: int) -> str:
        """Why: a cell lost every candidate."""
        return f"{self.geometry.cell_name(cell)} has no candidate left"

    def empty_house(self, house: str, symbol: int) -> str:
        """Why: a symbol lost every place in a house."""
        return f"{self.geometry.symbol(symbol)} has no place left in {house}"

    def solved(self, depth: int, number: int) -> None:
        """A solution; the first one sends the search on to prove it is the only one."""
        if number == 1:
            sentence = "Every cell is settled: a solution. The search goes on to rule out another."
        else:
            sentence = "Every cell is settled again: a second solution, so it is not unique."
        self.add(StoryEvent(depth, "solved", sentence))

    def finished(self, status: str) -> None:
        """The search's end, when it ran out of branches rather than budget."""
        if status == "solved":
            self.add(StoryEvent(0, "solved", "No branch is left to try: the solution is unique."))
        elif status == "unsolvable":
            self.add(StoryEvent(0, "fail", "No branch is left to try: there is no solution."))

    def stopped(self, depth: int, reason: str, guesses: int) -> None:
        """The budget ran out here."""
        if reason == "deadline":
            sentence = "The time limit is reached here; the search stops unfinished."
        else:
            sentence = f"The work limit ({_count(guesses, 'guess', 'guesses')}) is reached here."
        self.add(StoryEvent(depth, "stop", sentence))
