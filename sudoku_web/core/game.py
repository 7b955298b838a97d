"""A person's game: their digits and pencil marks over a puzzle, judged against its one
solution, and what Check and Hint answer. No web here: the play page, ``/api/check``,
``/api/hint`` and the solver form's Hint parse the request, call these, and render the answer.

Vocabulary:

entries
    The person's digits: a grid with 0 where they wrote nothing (givens may be repeated).
marks
    Pencil marks: per cell, a bit mask of the digits the person noted as still possible
    (bit ``d - 1`` for digit ``d``); 0 where they noted nothing.
playable
    The engine found exactly one solution (within the request's budget). Only then can entries
    be judged right or wrong.
position
    The candidates the person sees (:func:`position`): those the digits leave, narrowed by
    their pencil marks.
panel
    The answer to Check or Hint (:class:`Panel`): which entries or marks are wrong (cells
    only, never their digits), solved, right so far, or the next hint. Over givens without
    one solution (the solver form takes any grid) entries cannot be judged against a
    solution: a contradiction the hint's steps reach, or the doctor, names the cells instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .board import BLANKS, Geometry, PuzzleError, find_conflicts, parse_puzzle, puzzle_error
from .doctor import Diagnosis
from .hints import Hint, hint_steps
from .logic import Candidates, pencil_marks
from .solver import SolveResult
from .wording import N_, words


@dataclass
class Entries:
    """The person's digits and pencil marks over a puzzle, and any problems reading them."""

    geometry: Geometry
    givens: tuple[int, ...]
    values: list[int] = field(default_factory=list)  # the person's digits (0 elsewhere)
    marks: list[int] = field(default_factory=list)
    errors: list[PuzzleError] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.geometry.cells
        self.values = self.values or [0] * n
        self.marks = self.marks or [0] * n

    @property
    def grid(self) -> list[int]:
        """Givens and entries together."""
        return [g or v for g, v in zip(self.givens, self.values, strict=True)]

    def add_marks(self, cell: int, text: str) -> None:
        """Note ``text`` (symbols) as the pencil marks of ``cell``, reporting bad symbols."""
        mask = 0
        for ch in text:
            value = symbol_value(self.geometry, ch)
            if value is None:
                self.refuse(cell, text)
                return
            if value:
                mask |= 1 << (value - 1)
        if not self.givens[cell]:
            self.marks[cell] = mask

    def add_text(self, cell: int, text: str) -> None:
        """A form cell: one symbol is a digit, several are pencil marks, a blank is blank."""
        text = "".join(ch for ch in text if not ch.isspace() and ch != ",")
        if len(text) > 1:
            self.add_marks(cell, text)
            return
        value = symbol_value(self.geometry, text) if text else 0
        if value is None:
            self.refuse(cell, text)
        elif not self.givens[cell]:
            self.values[cell] = value

    def refuse(self, cell: int, text: str) -> None:
        """Report what was typed into ``cell`` as not a symbol (nor pencil marks) of the grid."""
        geo = self.geometry
        message = words(
            N_(
                "{cell} holds {text}; type one symbol ({first}-{last}), or several for"
                " pencil marks."
            ),
            cell=geo.cell_name(cell),
            text=repr(text[:20]),
            first=geo.symbols[0],
            last=geo.symbols[-1],
        )
        self.errors.append(puzzle_error("symbol", message, (cell,)))

    def position(self) -> Candidates:
        """The candidates the person sees (:func:`position` of their grid and marks)."""
        return position(self.grid, self.marks, self.geometry)

    def wrong(self, solution: Sequence[int]) -> list[int]:
        """Cells whose digit differs from the solution (names and digits never leave here)."""
        return [c for c, v in enumerate(self.values) if v and v != solution[c]]

    def wrong_marks(self, solution: Sequence[int]) -> list[int]:
        """Open cells whose pencil marks leave out the solution's digit."""
        return [
            c
            for c, m in enumerate(self.marks)
            if m and not self.values[c] and not m >> (solution[c] - 1) & 1
        ]

    def filled(self) -> int:
        """Cells holding a digit, givens included."""
        return sum(1 for v in self.grid if v)


def position(grid: Sequence[int], marks: Sequence[int], geometry: Geometry) -> Candidates:
    """The candidates a person sees: those ``grid``'s digits leave (a placed digit leaves its
    peers' candidates, a cell without a digit or marks has every symbol its peers allow),
    narrowed by their pencil marks (a mask per cell, 0 where they noted nothing)."""
    base = pencil_marks(grid, geometry)
    masks = tuple(m & marks[c] if marks[c] else m for c, m in enumerate(base.masks))
    return Candidates(base.values, masks)


def symbol_value(geometry: Geometry, ch: str) -> int | None:
    """1..N for a symbol (either case), 0 for a blank (the reader's: ``. 0 _ x * ? -``),
    None otherwise."""
    if len(ch) == 1 and ch in BLANKS:
        return 0
    index = geometry.symbols.find(ch.upper())
    return index + 1 if index >= 0 and len(ch) == 1 else None


@dataclass(frozen=True)
class Game:
    """A puzzle read for play: its geometry, canonical givens and grid, and the solver's
    outcome (the web layer's cached solve of the share link)."""

    geometry: Geometry
    givens: str
    grid: tuple[int, ...]
    result: SolveResult

    @property
    def playable(self) -> bool:
        """Exactly one solution: entries can be judged."""
        return self.result.status == "solved" and bool(self.result.solutions)

    @property
    def solution(self) -> list[int]:
        """The solution's values (only for a playable game; never sent whole)."""
        return parse_puzzle(self.result.solutions[0], self.geometry)


@dataclass(frozen=True)
class Panel:
    """The answer to Check or Hint, for the page and the JSON alike.

    ``kind``: ``solved``, ``right`` (no entry wrong yet), ``wrong`` (entries), ``marks``
    (pencil marks that leave out the right digit), ``next`` (a hint) or ``stuck`` (no technique
    applies: the next move would be a guess).
    """

    kind: str
    cells: tuple[int, ...] = ()  # wrong entries or marks
    filled: int = 0
    total: int = 0
    hint: Hint | None = None
    # wrong: False when the givens have no solution and the cells are only the doctor's
    # likeliest (one of them is probably wrong), or none could be named
    certain: bool = True
    multiple: bool = False  # next/stuck: the givens allow more than one solution


def check_panel(game: Game, entries: Entries) -> Panel:
    """Check: which entries are wrong (cells only), or solved, or right so far."""
    wrong = entries.wrong(game.solution)
    filled, total = entries.filled(), game.geometry.cells
    if wrong:
        return Panel("wrong", tuple(wrong), filled, total)
    if filled == total:
        return Panel("solved", (), filled, total)
    bad_marks = entries.wrong_marks(game.solution)
    if bad_marks:
        return Panel("marks", tuple(bad_marks), filled, total)
    return Panel("right", (), filled, total)


#: The typo doctor for a grid with no solution, as the caller runs it (within its budget):
#: the likeliest wrong cells, or None when it finds the grid solvable after all.
Doctor = Callable[[Sequence[int]], Diagnosis | None]


def hint_panel(
    game: Game, entries: Entries, deadline_ms: float | None = None, doctor: Doctor | None = None
) -> Panel:
    """Hint: wrong entries or marks first (a step from them would mislead), else the steps
    from the person's own position (digits and marks) to the next placement, looked for
    until ``deadline_ms`` (None: no deadline; the hint then says it was cut short).

    Over givens without one solution the entries cannot be checked: a full grid without
    conflicts is solved; else a contradiction the steps reach names its cells, and when the
    givens have no solution at all ``doctor`` names the likeliest (``certain`` False).
    """
    geo = game.geometry
    filled, total = entries.filled(), geo.cells
    if game.playable:
        checked = check_panel(game, entries)
        if checked.kind != "right":
            return checked
    elif filled == total and not find_conflicts(entries.grid, geo):
        return Panel("solved", (), filled, total)
    unsolvable = game.result.status == "unsolvable"
    # The person's own pencil marks are the start (the same call as a pasted candidate grid).
    # Checked entries (a playable game) count as placed while solving.
    hint = hint_steps(
        entries.grid,
        geo,
        unique=game.playable,
        start=None if unsolvable else entries.position(),
        givens=entries.givens if game.playable else None,
        deadline_ms=deadline_ms,
    )
    if hint.last is not None and hint.last.technique == "Contradiction":
        return Panel("wrong", tuple(hint.last.cells), filled, total)
    if unsolvable:
        return _doctored(entries.grid, doctor, filled, total)
    kind = "stuck" if hint.stuck else "next"
    multiple = game.result.status == "multiple"
    return Panel(kind, (), filled, total, hint, multiple=multiple)


def _doctored(grid: Sequence[int], doctor: Doctor | None, filled: int, total: int) -> Panel:
    """A grid with no solution and no contradiction in reach: the doctor's likeliest cells."""
    diagnosis = doctor(grid) if doctor is not None else None
    if diagnosis is None:
        return Panel("wrong", (), filled, total, certain=False)
    fixable = sorted({fix.cell for fix in diagnosis.fixes})
    return Panel("wrong", tuple(fixable or diagnosis.conflict), filled, total, certain=False)
