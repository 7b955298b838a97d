"""What every rule kind is: the :class:`Rule` protocol, its drawing, and shared helpers.

A rule kind is one module in this package holding one :class:`Rule` subclass (a frozen
dataclass): its data and validation (:meth:`Rule.errors`, messages naming cells like
``r4c7``), its share-link spelling (:attr:`Rule.KEY`, :meth:`Rule.spell`, :meth:`Rule.parse`),
its f-puzzles reading and writing (:attr:`Rule.FPUZZLES`, :meth:`Rule.read_fpuzzles`,
:meth:`Rule.write_fpuzzles`), its eliminations in the engine's reduce
(:meth:`Rule.propagator`), its check of a finished grid (:meth:`Rule.check`), what to draw
(:meth:`Rule.drawing`), its rule in words (:attr:`Rule.WORDS`, :meth:`Rule.describe`) and
its explanation steps (:attr:`Rule.STEP`, :meth:`Rule.deduce`, :meth:`Rule.reason`: what the
rule alone rules out at a position, named and said the way a solver says it).
:mod:`.registry` lists the kinds, once each.

Candidate masks are the engine's: bit ``v - 1`` set when symbol ``v`` is still possible.
A propagator narrows a list of them in place (one mask per cell, row-major) and never
removes a digit that some solution keeps there; a rule nothing satisfies empties a cell,
which the engine's next scan reports as a contradiction.

Cells are 0-based indices ``row * N + col``; positions outside the grid (an outside clue)
are ``(row, col)`` pairs with ``-1`` or ``N`` on the outer side.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..board import Cage, Geometry, House, InvalidPuzzle, PuzzleError
from ..wording import N_ as N_  # the kinds mark their step names with it
from ..wording import Np_, Value, Words, capital, clause, counted, listing, words

# A propagator narrows candidate masks in place; True when it removed something. What it
# removes is decided by the masks of the cells it reads when every cell is full (it may
# remove candidates elsewhere too): the engine runs it again only when one of those changed.
Propagator = Callable[[list[int]], bool]
# Pairs of cells (a, b) and the allow table they keep: allow[v - 1] holds the symbols b may
# take when a holds v (the relations here are symmetric). See :mod:`.pairs`.
Relation = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]

# The grades a rule's own steps may carry (the ladder's scale; :mod:`..techniques` grades).
StepGrade = Literal["Easy", "Medium", "Hard"]

# How many rounds of its own propagator a rule's step may take (each round removes a
# candidate or ends it, so a line of N cells settles far sooner; the bound is for safety).
MAX_ROUNDS = 200

# Hard bounds on one puzzle's rules, whatever the input (checked before any work).
MAX_RULES = 2000
MAX_RULE_CELLS = 20_000  # cells over all rules


class RuleError(InvalidPuzzle):
    """A rule that cannot be read or does not fit its board; carries every problem found
    (an :class:`~sudoku_web.core.board.InvalidPuzzle`: callers answer it the same way)."""


def problem(said: Words, cells: Iterable[int] = ()) -> PuzzleError:
    """A :class:`PuzzleError` of code ``"rule"`` said by ``said`` (its English the error's
    ``message``), naming ``cells`` (each once)."""
    return PuzzleError("rule", said.english(), tuple(dict.fromkeys(cells)), said)


def refused(template: str, /, **values: Value) -> RuleError:
    """A :class:`RuleError` of one problem naming no cells: ``template`` (marked with ``N_``)
    filled with ``values``."""
    return RuleError([problem(words(template, **values))])


@dataclass(frozen=True)
class Mark:
    """A dot or letter between two cells: its family (``"w"`` white dot, ``"b"`` black dot,
    ``"xv"`` a letter) and the value it stands for (a difference, a ratio, a sum)."""

    cells: tuple[int, int]
    family: str
    value: int


# --- drawing -------------------------------------------------------------------------------

# Drawing styles are visual, never a rule kind's name: a page draws what it is told.
Colour = Literal["grey", "green", "purple", "orange", "blue"]
LineStyle = Literal["thick", "thin", "dashed"]
DotFill = Literal["white", "black"]
ShadeStyle = Literal["circle", "square"]


@dataclass(frozen=True)
class Line:
    """A line through cell centres, in order; ``arrowhead``: an arrow's head at its end."""

    cells: tuple[int, ...]
    colour: Colour
    style: LineStyle = "thick"
    arrowhead: bool = False


@dataclass(frozen=True)
class Bulb:
    """A round bulb (one cell) or a pill (2-3 cells in a line) over cells: ``filled`` (a
    thermometer's bulb, the line's colour) or ``outlined`` (an arrow's circle)."""

    cells: tuple[int, ...]
    colour: Colour
    filled: bool


@dataclass(frozen=True)
class Dot:
    """A mark on the edge between two orthogonal neighbours: a kropki dot or a letter (X or V).

    ``label`` is the text written in or as the mark ("" for a plain dot, "X", "V", "3").
    """

    cells: tuple[int, int]
    fill: DotFill
    label: str = ""
    letter: bool = False  # a letter (X or V), drawn as text on the edge rather than a dot


@dataclass(frozen=True)
class Clue:
    """A number outside the grid at ``(row, col)`` (one of them -1 or N).

    ``toward`` is the first cell it points at (a little-killer diagonal's arrow), else None.
    """

    at: tuple[int, int]
    text: str
    toward: tuple[int, int] | None = None


@dataclass(frozen=True)
class Shade:
    """A grey shape in a cell behind its digit: a circle or a square."""

    cell: int
    style: ShadeStyle


@dataclass(frozen=True)
class Outline:
    """A dashed cage outline around cells, ``label`` in its first cell's corner ("" none)."""

    cells: tuple[int, ...]
    label: str = ""


@dataclass(frozen=True)
class Drawing:
    """What a rule adds to a picture of the board, in cell coordinates.

    Pages (SVG) and the link-preview PNG both draw from this; ``notes`` are the global
    rules (anti-knight ...) that have no mark, said in words beside the grid.
    """

    lines: tuple[Line, ...] = ()
    bulbs: tuple[Bulb, ...] = ()
    dots: tuple[Dot, ...] = ()
    clues: tuple[Clue, ...] = ()
    shaded: tuple[Shade, ...] = ()
    outlines: tuple[Outline, ...] = ()
    notes: tuple[Words, ...] = ()

    def __add__(self, other: Drawing) -> Drawing:
        return Drawing(
            self.lines + other.lines,
            self.bulbs + other.bulbs,
            self.dots + other.dots,
            self.clues + other.clues,
            self.shaded + other.shaded,
            self.outlines + other.outlines,
            self.notes + other.notes,
        )


# --- explanation steps -------------------------------------------------------------------------


@dataclass(frozen=True)
class Deduction:
    """What one rule alone rules out at a position: for an explanation step.

    ``technique`` names the step (the kind's :attr:`Rule.STEP`), ``reason`` says why as a
    clause a sentence goes on from ("the thermometer from r1c1 climbs from its bulb: ..."),
    ``cells`` are the cells the reasoning reads (highlighted), ``eliminations`` the
    (cell, digit) pairs it removes, each from an open cell.
    """

    technique: str
    reason: Words
    cells: tuple[int, ...]
    eliminations: tuple[tuple[int, int], ...]


def settle(propagate: Propagator, masks: Sequence[int]) -> list[int] | None:
    """``masks`` narrowed by ``propagate`` until it removes nothing more (at most
    :data:`MAX_ROUNDS` rounds), or None when a cell runs out of candidates."""
    out = list(masks)
    for _ in range(MAX_ROUNDS):
        if not propagate(out):
            break
        if not all(out):
            return None
    return out if all(out) else None


def removed_masks(before: Sequence[int], after: Sequence[int]) -> dict[int, int]:
    """Per cell that lost candidates, the lost ones (a mask)."""
    return {
        c: was & ~now for c, (was, now) in enumerate(zip(before, after, strict=True)) if was != now
    }


def as_eliminations(removed: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    """``removed`` (cell -> lost mask) as sorted (cell, digit) pairs."""
    return tuple((c, d) for c in sorted(removed) for d in digits(removed[c]))


# --- the protocol ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """What an f-puzzles reader needs besides its field: the board size."""

    size: int


class Rule:
    """One rule on a board. Subclasses are frozen dataclasses, one per kind module.

    ``KEY`` is the kind's token in our spelling (URL-safe, lower case letters); ``NAME`` its
    name in words; ``FPUZZLES`` the f-puzzles fields it reads; ``WORDS`` the rule in words.
    """

    KEY: ClassVar[str]
    NAME: ClassVar[str]
    FPUZZLES: ClassVar[tuple[str, ...]]
    WORDS: ClassVar[str]
    # The name of this kind's explanation steps ("" : it has none, its houses or cages are
    # the ladder's) and the grade they imply.
    STEP: ClassVar[str] = ""
    STEP_GRADE: ClassVar[StepGrade] = "Easy"

    # reading and writing
    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        """The rules of f-puzzles field ``name`` (raises :class:`RuleError`)."""
        raise NotImplementedError

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        """Add this rule to an f-puzzles puzzle being written."""
        raise NotImplementedError

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        """The rule from the parts of its spelling after ``KEY`` (raises :class:`RuleError`)."""
        raise NotImplementedError

    def spell(self, size: int) -> str:
        """The parts after ``KEY`` in our spelling, joined by ``_`` ("" for a global rule)."""
        raise NotImplementedError

    # meaning
    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        """What is wrong with this rule on ``geometry`` (empty when it fits)."""
        return []

    def propagator(self, geometry: Geometry) -> Propagator | None:
        """The rule's eliminations on candidate masks (None: the board's houses or cages
        already carry it)."""
        return None

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        """True when a complete grid keeps this rule."""
        raise NotImplementedError

    def drawing(self, geometry: Geometry) -> Drawing:
        """What to draw for this rule."""
        return Drawing()

    def describe(self, geometry: Geometry) -> Words:
        """This rule in words, naming its cells (a sentence)."""
        return Words(self.WORDS)

    # explanation
    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        """The cells this rule reads, outlined with its steps (a global rule: none)."""
        return ()

    def deduce(
        self, masks: Sequence[int], geometry: Geometry, propagate: Propagator
    ) -> Deduction | None:
        """What this rule alone rules out in ``masks`` (the engine's masks: a placed cell
        holds its digit's bit), or None when it rules out nothing or empties a cell (a
        contradiction, named elsewhere). ``propagate`` is :meth:`propagator`'s, built once.

        The step is sound as the propagator is: it keeps every digit some solution keeps.
        By default, the propagator runs until it settles and :meth:`reason` says why.
        """
        after = settle(propagate, masks)
        return None if after is None else self.deduction(masks, after, geometry)

    def deduction(
        self, masks: Sequence[int], after: Sequence[int], geometry: Geometry
    ) -> Deduction | None:
        """The step from ``masks`` to ``after`` (narrowed by this rule), said by
        :meth:`reason`; None when nothing went or a cell was emptied."""
        removed = removed_masks(masks, after)
        if not removed or not all(after):
            return None
        return Deduction(
            self.STEP,
            self.reason(geometry, masks, removed),
            self.cells_read(geometry),
            as_eliminations(removed),
        )

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        """Why the rule removes ``removed`` (cell -> lost digits as a mask) from ``masks``:
        a clause naming the rule, which the step's sentence goes on from."""
        return words(
            N_("{rule}: no other digit there fits it"), rule=clause(self.describe(geometry))
        )

    # parts of the board
    def houses(self, geometry: Geometry) -> tuple[House, ...]:
        """Houses this rule adds to the board (a diagonal)."""
        return ()

    def cage(self) -> Cage | None:
        """The killer cage this rule is, when the engine's cage rule carries it."""
        return None

    def marks(self) -> tuple[Mark, ...]:
        """The marks (a dot or letter) this rule puts between cells: negative rules skip
        the pairs and read the values."""
        return ()

    def relation(self, geometry: Geometry) -> Relation | None:
        """The pairs of cells and the relation they keep, for a rule that is exactly that
        (a dot, a whisper, anti-knight ...); None for any other rule."""
        return None


# --- shared helpers ----------------------------------------------------------------------------

_FP_CELL = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)
# Our spelling: a cell is two characters, row then column, from this alphabet (1-based).
COORDS = "123456789abcdefghijklmnopqrstuvwxyz"


def fp_position(text: object) -> tuple[int, int]:
    """``"R4C7"`` as 0-based (row, col), which may lie outside the grid (``R0C3``)."""
    if not isinstance(text, str) or not (m := _FP_CELL.fullmatch(text.strip())):
        raise refused(N_("{text} is not a cell name like R4C7."), text=repr(text))
    return int(m[1]) - 1, int(m[2]) - 1


def fp_cell(text: object, size: int) -> int:
    """``"R4C7"`` as a cell index of a board of ``size`` (raises outside it)."""
    row, col = fp_position(text)
    if not (0 <= row < size and 0 <= col < size):
        raise refused(N_("{cell} is outside the {size}x{size} grid."), cell=str(text), size=size)
    return row * size + col


def fp_name(cell: int, size: int) -> str:
    """A cell index as f-puzzles names it: ``R4C7``."""
    row, col = divmod(cell, size)
    return f"R{row + 1}C{col + 1}"


def fp_cells(items: object, size: int) -> tuple[int, ...]:
    """A list of f-puzzles cell names as cell indices."""
    if not isinstance(items, list) or not items:
        raise refused(N_("A rule lists no cells."))
    return tuple(fp_cell(item, size) for item in items)


def fp_items(value: object, name: str) -> list[Mapping[str, Any]]:
    """An f-puzzles field that is a list of objects."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise refused(N_("The f-puzzles field {name} is not a list of objects."), name=repr(name))
    return value


def fp_lines(item: Mapping[str, Any], size: int) -> list[tuple[int, ...]]:
    """The ``lines`` of an f-puzzles line element, as cell tuples."""
    lines = item.get("lines")
    if not isinstance(lines, list) or not lines:
        raise refused(N_("A line element has no lines."))
    return [fp_cells(line, size) for line in lines]


def fp_number(value: object, what: Value) -> int | None:
    """An f-puzzles number given as text or int ("" or missing: None)."""
    if value is None or value == "":
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise refused(
            N_("{what} has the value {value}, not a whole number."), what=what, value=repr(value)
        ) from None
    if not -10_000 <= number <= 10_000:
        raise refused(N_("{what} has the value {value}, too large."), what=what, value=str(number))
    return number


def cell_token(cell: int, size: int) -> str:
    """A cell in our spelling: two characters, row then column."""
    row, col = divmod(cell, size)
    return COORDS[row] + COORDS[col]


def cells_token(cells: Iterable[int], size: int) -> str:
    """Cells in our spelling, concatenated."""
    return "".join(cell_token(c, size) for c in cells)


def parse_cells(text: str, size: int, what: Value) -> tuple[int, ...]:
    """Cells from our spelling (pairs of characters); raises naming ``what``."""
    if not text or len(text) % 2:
        raise refused(
            N_("{what}: {text} is not a list of cells (two characters each)."),
            what=what,
            text=repr(text),
        )
    out = []
    for i in range(0, len(text), 2):
        row, col = COORDS.find(text[i]), COORDS.find(text[i + 1])
        if not (0 <= row < size and 0 <= col < size):
            raise refused(
                N_("{what}: {text} is not a cell of this grid."),
                what=what,
                text=repr(text[i : i + 2]),
            )
        out.append(row * size + col)
    return tuple(out)


def parse_number(text: str, what: Value) -> int:
    """A whole number of our spelling (``m`` for minus)."""
    negative = text.startswith("m")
    digits = text[1:] if negative else text
    if not digits.isdigit() or len(digits) > 5:
        raise refused(N_("{what}: {text} is not a number."), what=what, text=repr(text))
    return -int(digits) if negative else int(digits)


def number_token(value: int) -> str:
    """A whole number in our spelling (``m`` for minus: URL-safe)."""
    return f"m{-value}" if value < 0 else str(value)


def names(cells: Iterable[int], geometry: Geometry, shown: int = 6) -> Value:
    """Cell names for a message, at most ``shown`` of them then "...": ``r1c1, r1c2``, or
    ``r1c1, ... r1c6 ... (9 cells)`` (words: the count is said in the language)."""
    cells = list(cells)
    text = ", ".join(geometry.cell_name(c) for c in cells[:shown])
    if len(cells) <= shown:
        return text
    return counted(
        Np_("{cells} ... ({count} cell)", "{cells} ... ({count} cells)"),
        len(cells),
        cells=text,
        count=len(cells),
    )


def path_errors(cells: Sequence[int], geometry: Geometry, what: Words) -> list[PuzzleError]:
    """A line's problems: a cell twice, or a step that is not to a neighbour (8 ways)."""
    out = []
    if len(set(cells)) != len(cells):
        twice = sorted({c for c in cells if cells.count(c) > 1})
        out.append(
            problem(
                words(
                    N_("{line} passes {cells} twice."),
                    line=capital(what),
                    cells=names(twice, geometry),
                ),
                twice,
            )
        )
    n = geometry.size
    for a, b in zip(cells, cells[1:], strict=False):
        if max(abs(a // n - b // n), abs(a % n - b % n)) != 1:
            out.append(
                problem(
                    words(
                        N_("{line} jumps from {first} to {second}, which do not touch."),
                        line=capital(what),
                        first=geometry.cell_name(a),
                        second=geometry.cell_name(b),
                    ),
                    (a, b),
                )
            )
            break
    return out


def orthogonal(a: int, b: int, size: int) -> bool:
    """True when cells ``a`` and ``b`` share an edge."""
    ra, ca = divmod(a, size)
    rb, cb = divmod(b, size)
    return abs(ra - rb) + abs(ca - cb) == 1


def memoised(
    cells: Sequence[int], narrow: Callable[[tuple[int, ...]], tuple[int, ...]]
) -> Propagator:
    """A propagator over ``cells`` from ``narrow`` (their masks in, their narrowed masks
    out: a pure function), remembered per input (a bounded memo: a search revisits
    positions)."""
    memo: dict[tuple[int, ...], tuple[int, ...]] = {}
    # The cells' masks as a tuple, in one call for two cells or more.
    read: Callable[[list[int]], tuple[int, ...]] = (
        operator.itemgetter(*cells) if len(cells) > 1 else lambda m: tuple(m[c] for c in cells)
    )

    def propagate(m: list[int]) -> bool:
        key = read(m)
        new = memo.get(key)
        if new is None:
            new = narrow(key)
            if len(memo) > 20_000:
                memo.clear()
            memo[key] = new
        if new == key:
            return False
        for c, kept in zip(cells, new, strict=True):
            m[c] = kept
        return True

    return propagate


def digits(mask: int) -> list[int]:
    """The symbols (1-based) of a candidate mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length())
    return out


def mask_words(mask: int) -> Value:
    """A candidate mask in words: ``5``, ``4 or 6``, ``one of 1, 2, 3``."""
    ds = [str(d) for d in digits(mask)]
    if len(ds) <= 2:
        return listing(ds, "or")
    return words(N_("one of {digits}"), digits=", ".join(ds))


def global_flag(name: str, value: object) -> bool:
    """An f-puzzles global rule's flag (``true``/``false``)."""
    if not isinstance(value, bool):
        raise refused(N_("The f-puzzles field {name} is not true or false."), name=repr(name))
    return value


def no_parts(args: list[str], key: str) -> None:
    """A global rule's spelling has no parts."""
    if args:
        raise refused(
            N_("The rule {key} takes no cells, not {parts}."), key=key, parts=repr("_".join(args))
        )


class GlobalRule(Rule):
    """A rule over the whole grid, with no cells of its own: an f-puzzles flag
    (``"antiknight": true``) and a spelling of its ``KEY`` alone."""

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        return [cls()] if global_flag(name, value) else []

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        out[self.FPUZZLES[0]] = True

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        no_parts(args, cls.KEY)
        return cls()

    def spell(self, size: int) -> str:
        return ""

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(notes=(self.describe(geometry),))


@dataclass(frozen=True)
class LineRule(Rule):
    """A rule along a line of cells, in order (f-puzzles ``{"lines": [[...]]}``, one rule
    per line; our spelling: the cells). Subclasses are dataclasses with a ``cells`` field
    first; ``MIN_CELLS`` is the shortest line that means something."""

    cells: tuple[int, ...]
    MIN_CELLS: ClassVar[int] = 2
    #: The line named by its first cell, as a sentence's subject: ``the renban line from
    #: {cell}`` (marked with ``N_``).
    WHERE: ClassVar[str]
    COLOUR: ClassVar[Colour]
    STYLE: ClassVar[LineStyle] = "thick"

    @classmethod
    def read_fpuzzles(cls, name: str, value: object, reading: Reading) -> list[Rule]:
        return [
            cls(line) for item in fp_items(value, name) for line in fp_lines(item, reading.size)
        ]

    def write_fpuzzles(self, out: dict[str, Any], size: int) -> None:
        line = [fp_name(c, size) for c in self.cells]
        out.setdefault(self.FPUZZLES[0], []).append({"lines": [line]})

    @classmethod
    def parse(cls, args: list[str], size: int) -> Rule:
        if len(args) != 1:
            raise refused(
                N_("A {rule} is {key}_ and its cells in order."), rule=Words(cls.NAME), key=cls.KEY
            )
        return cls(parse_cells(args[0], size, Words(cls.NAME)))

    def spell(self, size: int) -> str:
        return cells_token(self.cells, size)

    def where(self, geometry: Geometry) -> Words:
        """``the renban line from r1c1`` (the kind's :attr:`WHERE`)."""
        return words(self.WHERE, cell=geometry.cell_name(self.cells[0]))

    def errors(self, geometry: Geometry) -> list[PuzzleError]:
        out = path_errors(self.cells, geometry, self.where(geometry))
        if len(self.cells) < self.MIN_CELLS:
            said = words(N_("{line} is too short."), line=capital(self.where(geometry)))
            out.append(problem(said, self.cells))
        return out

    def drawing(self, geometry: Geometry) -> Drawing:
        return Drawing(lines=(Line(self.cells, self.COLOUR, self.STYLE),))

    def cells_read(self, geometry: Geometry) -> tuple[int, ...]:
        return self.cells
