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
from typing import Any, Literal

from .board import Geometry, House
from .wording import N_, Np_, Words, counted, listing, words

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
    # The sentence as a catalog template and its values (``sentence`` is its English).
    words: Words | None = None


@dataclass(frozen=True)
class SearchStory:
    """The recorded events in order, and whether the cap cut them (the search went on)."""

    events: tuple[StoryEvent, ...]
    truncated: bool


# Why the search on a board with rules guesses where it does (``solver._RuleSearch.choose``).
RULES_GUESS = words(N_("a cell with the fewest candidates for the rules that read it"))
#: Why the plain search guesses on a cell.
TWO_CANDIDATES = words(N_("a cell with two candidates and the most open peers"))
FEWEST_CANDIDATES = words(N_("a cell with the fewest candidates"))


def _event(depth: int, kind: EventKind, said: Words, **details: Any) -> StoryEvent:
    """An event whose sentence is ``said`` (kept beside its English)."""
    return StoryEvent(depth, kind, said.english(), words=said, **details)


@dataclass
class StoryWriter:
    """Collects events up to ``max_events``; past the cap it only flags the story as cut."""

    geometry: Geometry
    max_events: int
    events: list[StoryEvent] = field(default_factory=list)
    truncated: bool = False
    # Why a cell is guessed, when the search chooses by another rule than the plain one.
    cell_reason: Words | None = None

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
        if settled:
            said = counted(
                Np_(
                    "Place the {count} givens; the reduce then settles {settled} cell.",
                    "Place the {count} givens; the reduce then settles {settled} cells.",
                ),
                settled,
                count=str(count),
                settled=str(settled),
            )
        else:
            said = words(N_("Place the {count} givens."), count=str(count))
        self.add(_event(0, "reduce", said, settled=settled))

    def guess_cell(self, depth: int, cell: int, symbols: tuple[int, ...]) -> None:
        """A guess on a cell's candidates."""
        geo = self.geometry
        why = self.cell_reason or (
            TWO_CANDIDATES
            if len(symbols) == 2
            else words(
                N_(
                    "no cell has two candidates and no symbol two places in a house, so a cell "
                    "with the fewest candidates"
                )
            )
        )
        said = words(
            N_("Stuck: guess at {cell} ({candidates}), {why}."),
            cell=geo.cell_name(cell),
            candidates=", ".join(geo.symbol(v) for v in symbols),
            why=why,
        )
        self.add(_event(depth, "guess", said, cell=cell, candidates=symbols))

    def guess_house(self, depth: int, house: House, symbol: int, places: tuple[int, ...]) -> None:
        """A guess on the places of a symbol in a house."""
        geo = self.geometry
        said = words(
            N_(
                "Stuck, and no cell has two candidates: guess where {digit} goes in {house} "
                "({places})."
            ),
            digit=geo.symbol(symbol),
            house=house.words,
            places=listing((geo.cell_name(c) for c in places), "or"),
        )
        self.add(_event(depth, "guess", said, value=symbol, places=places, house=house.name))

    def tried(self, depth: int, cell: int, value: int, settled: int) -> None:
        """One branch: the placement and what its reduce settled."""
        geo = self.geometry
        if settled:
            said = counted(
                Np_(
                    "Try {cell} = {digit}; the reduce settles {settled} more cell.",
                    "Try {cell} = {digit}; the reduce settles {settled} more cells.",
                ),
                settled,
                cell=geo.cell_name(cell),
                digit=geo.symbol(value),
                settled=str(settled),
            )
        else:
            said = words(
                N_("Try {cell} = {digit}."), cell=geo.cell_name(cell), digit=geo.symbol(value)
            )
        self.add(_event(depth, "try", said, cell=cell, value=value, settled=settled))

    def failed(self, depth: int, cell: int | None, value: int | None, why: Words) -> None:
        """A contradiction: the branch (or, at the root, the givens) cannot stand."""
        geo = self.geometry
        if cell is None or value is None:
            said = words(N_("The givens contradict each other: {why}."), why=why)
            self.add(_event(depth, "fail", said))
            return
        said = words(
            N_("{cell} = {digit} fails: {why}."),
            cell=geo.cell_name(cell),
            digit=geo.symbol(value),
            why=why,
        )
        self.add(_event(depth, "fail", said, cell=cell, value=value))

    def empty_cell(self, cell: int) -> Words:
        """Why: a cell lost every candidate."""
        return words(N_("{cell} has no candidate left"), cell=self.geometry.cell_name(cell))

    def empty_house(self, house: House, symbol: int) -> Words:
        """Why: a symbol lost every place in a house."""
        return words(
            N_("{digit} has no place left in {house}"),
            digit=self.geometry.symbol(symbol),
            house=house.words,
        )

    def solved(self, depth: int, number: int) -> None:
        """A solution; the first one sends the search on to prove it is the only one."""
        if number == 1:
            said = words(
                N_("Every cell is settled: a solution. The search goes on to rule out another.")
            )
        else:
            said = words(N_("Every cell is settled again: a second solution, so it is not unique."))
        self.add(_event(depth, "solved", said))

    def finished(self, status: str) -> None:
        """The search's end, when it ran out of branches rather than budget."""
        if status == "solved":
            said = words(N_("No branch is left to try: the solution is unique."))
            self.add(_event(0, "solved", said))
        elif status == "unsolvable":
            said = words(N_("No branch is left to try: there is no solution."))
            self.add(_event(0, "fail", said))

    def stopped(self, depth: int, reason: str, guesses: int) -> None:
        """The budget ran out here."""
        if reason == "deadline":
            said = words(N_("The time limit is reached here; the search stops unfinished."))
        else:
            said = counted(
                Np_(
                    "The work limit ({guesses} guess) is reached here.",
                    "The work limit ({guesses} guesses) is reached here.",
                ),
                guesses,
                guesses=str(guesses),
            )
        self.add(_event(depth, "stop", said))
