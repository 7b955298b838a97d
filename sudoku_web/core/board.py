"""Board geometry and puzzle text: the data every other module builds on.

Vocabulary (used across the package):

cell
    An index 0 .. N*N-1, row-major. Shown to people as ``r4c7`` (1-based row and column).
symbol
    A value 1 .. N stored in a grid; shown as ``1``-``9`` then ``A``-``G`` (16x16).
grid
    A list of N*N ints, 0 for a blank cell.
house
    A set of N cells that must hold N distinct symbols: a row, column, box, diagonal,
    window (hyper / windoku) or jigsaw region.
peers
    The other cells that share at least one house with a cell.
geometry
    A size N plus its houses. Variants (X, hyper, jigsaw, 4x4 ... 16x16) differ only here:
    the solver never looks at rows or boxes, only at the house tables built once per geometry.
cage
    Cells whose symbols are all different and add up to a sum (killer sudoku). Cages are one
    more rule on any geometry (:attr:`Geometry.cages`); :mod:`sudoku_web.core.cages` reads,
    writes and checks them.

Text at the edges only: :func:`parse_puzzle` and :func:`format_puzzle` are a matched pair.
Problems with a puzzle are :class:`PuzzleError` values whose messages name the cells and
houses involved, collected in a :class:`InvalidPuzzle` exception by the parser.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .wording import N_, Np_, Value, Words, abridged, capital, counted, listing, words

if TYPE_CHECKING:
    from .rules.base import Rule

SYMBOLS = "123456789ABCDEFG"
# Blank cells as people write them. ``-`` is a blank too, except in a drawn rule (a line such
# as ``------+-------+------``), see :func:`clean_cells`.
BLANKS = ".0_xX*?-"
# Characters of pretty-printed grids between cells; they are never cells.
LAYOUT = frozenset(" \t\r\n|+")
# Layout of region maps (labels may be any character but these).
IGNORED = frozenset(" \t\r\n|-+")
# What a drawn rule line is made of (HoDoKu draws ``.---.``, ``:---+---:`` and ``'---'``).
_RULE_CHARS = frozenset("-=+|:.'`* \t\r")

# The boards' own variants (their houses); the registry (core/variants.py) says the rest.
Variant = Literal["standard", "x", "hyper", "jigsaw"]
# Box shape (rows, columns) for the boxed sizes.
BOX_SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}
JIGSAW_SIZES = range(4, 17)

HouseKind = Literal["row", "column", "box", "diagonal", "window", "region"]


@dataclass(frozen=True)
class House:
    """A set of cells that must hold distinct symbols."""

    kind: HouseKind
    index: int  # 0-based within its kind
    cells: tuple[int, ...]

    @functools.cached_property
    def name(self) -> str:
        """A human name such as ``row 4``, ``box 5`` or ``the main diagonal``."""
        return self.words.english()

    @functools.cached_property
    def words(self) -> Words:
        """:attr:`name` as a catalog template and its number, for sentences said in any
        language (its English is :attr:`name`)."""
        return house_words(self.kind, self.index)


def house_words(kind: HouseKind, index: int) -> Words:
    """The name of house ``index`` (0-based) of ``kind`` as a catalog template and its number
    (:attr:`House.words`; ``row 4``)."""
    if kind == "diagonal":
        return Words(_DIAGONALS[index])
    return Words(_HOUSE_NAMES[kind], (("number", str(index + 1)),))


#: The houses' names as the catalog holds them (English: ``row 4``).
_HOUSE_NAMES: dict[str, str] = {
    "row": N_("row {number}"),
    "column": N_("column {number}"),
    "box": N_("box {number}"),
    "window": N_("window {number}"),
    "region": N_("region {number}"),
}
_DIAGONALS = (N_("the main diagonal"), N_("the anti-diagonal"))


@dataclass(frozen=True, order=True)
class Cage:
    """Cells whose digits are all different and add up to ``total``."""

    total: int
    cells: tuple[int, ...]  # ascending cell indices (row-major, 0-based), at least one


@dataclass(frozen=True)
class PuzzleError:
    """One problem with a puzzle: a machine code, a sentence for people, the cells involved."""

    code: Literal["length", "symbol", "conflict", "empty", "regions", "variant", "cage", "rule"]
    message: str
    cells: tuple[int, ...] = ()
    #: The sentence as a :class:`~sudoku_web.core.wording.Words` (``message`` is its
    #: English), for the web layer to say in the visitor's language; None where a problem
    #: is said in English only so far.
    said: Words | None = field(default=None, compare=False)


def puzzle_error(
    code: Literal["length", "symbol", "conflict", "empty", "regions", "variant", "cage", "rule"],
    message: Words,
    cells: tuple[int, ...] = (),
) -> PuzzleError:
    """A :class:`PuzzleError` said by ``message`` (its English the error's ``message``)."""
    return PuzzleError(code, str(message), cells, message)


class InvalidPuzzle(ValueError):
    """Raised by the parsers; carries every :class:`PuzzleError` found, not just the first."""

    def __init__(self, errors: Sequence[PuzzleError]) -> None:
        super().__init__("; ".join(e.message for e in errors))
        self.errors: tuple[PuzzleError, ...] = tuple(errors)


@dataclass(frozen=True)
class Geometry:
    """A board: size N, its houses, its cages, and per-cell lookup tables derived once.

    ``variant`` names the house layout; cages are one more rule on any layout (a killer is
    ``standard`` plus cages). ``cell_houses`` and ``peers`` come from the houses alone: a
    cage's cells must differ too, but that is the cage rule's to enforce. Tables and caches
    that depend only on the houses key on :attr:`base`, so a stream of killers shares them.
    """

    size: int
    variant: Variant
    houses: tuple[House, ...]
    box_shape: tuple[int, int] | None = None
    regions: tuple[int, ...] | None = None  # jigsaw only: region index per cell
    cages: tuple[Cage, ...] = ()  # sorted; use with_cages() to add them
    # Every rule of the board (sorted by spelling; use with_rules()): the cages and houses
    # some of them add are in ``cages`` and ``houses`` too (see sudoku_web.core.rules).
    rules: tuple[Rule, ...] = ()
    cell_houses: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    peers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    # The hash, computed once: geometries key many caches (tables, board views, regions),
    # and the generated hash would walk every house's cells on each lookup.
    _hash: int = field(init=False, repr=False, compare=False)
    _base: Geometry | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(self._key()))
        object.__setattr__(self, "_base", None)
        n_cells = self.size * self.size
        per_cell: list[list[int]] = [[] for _ in range(n_cells)]
        for h, house in enumerate(self.houses):
            for cell in house.cells:
                per_cell[cell].append(h)
        peers: list[tuple[int, ...]] = []
        for cell in range(n_cells):
            near = {c for h in per_cell[cell] for c in self.houses[h].cells}
            near.discard(cell)
            peers.append(tuple(sorted(near)))
        object.__setattr__(self, "cell_houses", tuple(tuple(h) for h in per_cell))
        object.__setattr__(self, "peers", tuple(peers))

    def _key(self) -> tuple[object, ...]:
        """The compared fields (what ``==`` looks at), so equal geometries hash alike."""
        return (
            self.size,
            self.variant,
            self.houses,
            self.box_shape,
            self.regions,
            self.cages,
            self.rules,
        )

    def __hash__(self) -> int:
        return self._hash

    def __getstate__(self) -> dict[str, object]:
        # String hashes differ between processes: never carry the hash across a pickle.
        state = dict(self.__dict__)
        state.pop("_hash", None)
        state["_base"] = None
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_hash", hash(self._key()))

    @property
    def base(self) -> Geometry:
        """The same board without its cages and rules (itself when it has none); its houses
        stay, those a rule adds (a diagonal) included."""
        if not self.cages and not self.rules:
            return self
        if self._base is None:
            plain = dataclasses.replace(self, cages=(), rules=())
            object.__setattr__(self, "_base", plain)
            return plain
        return self._base

    def without_cages(self) -> Geometry:
        """The same board without its cages: :attr:`base`."""
        return self.base

    def with_cages(self, cages: Iterable[Cage]) -> Geometry:
        """The same board with ``cages`` (sorted) as its cages, in place of any it had.

        Checks nothing: :func:`sudoku_web.core.cages.cage_errors` says what is wrong with them.
        """
        ordered = tuple(sorted(cages))
        base = self.base
        if not ordered and not self.rules:
            return base
        caged = dataclasses.replace(base, cages=ordered, rules=self.rules)
        object.__setattr__(caged, "_base", base)
        return caged

    def with_rules(self, rules: Iterable[Rule]) -> Geometry:
        """The same board with ``rules`` (kept in the given order) in place of any it had.

        Checks nothing and adds no house or cage: :func:`sudoku_web.core.rules.board.build`
        makes a board from its rules.
        """
        ruled = dataclasses.replace(self, rules=tuple(rules))
        object.__setattr__(ruled, "_base", self.base)
        return ruled

    @property
    def cells(self) -> int:
        """Number of cells, N*N."""
        return self.size * self.size

    @property
    def symbols(self) -> str:
        """The symbol characters for this size, value 1 first."""
        return SYMBOLS[: self.size]

    def cell_name(self, cell: int) -> str:
        """``r4c7`` style name of a cell (1-based)."""
        row, col = divmod(cell, self.size)
        return f"r{row + 1}c{col + 1}"

    def symbol(self, value: int) -> str:
        """The character for a symbol value (1-based); 0 is shown as ``.``."""
        return SYMBOLS[value - 1] if value else "."

    def shared_houses(self, a: int, b: int) -> list[House]:
        """The houses that contain both cells."""
        common = set(self.cell_houses[a]) & set(self.cell_houses[b])
        return [self.houses[h] for h in sorted(common)]

    @property
    def box_index(self) -> tuple[int, ...]:
        """Box (or jigsaw region) of each cell, for drawing thick borders."""
        if self.regions is not None:
            return self.regions
        return _box_index(self.size, self.box_shape)


@functools.cache
def _box_index(size: int, shape: tuple[int, int] | None) -> tuple[int, ...]:
    if shape is None:
        return tuple(0 for _ in range(size * size))
    br, bc = shape
    per_row = size // bc
    return tuple((r // br) * per_row + c // bc for r in range(size) for c in range(size))


def _lines(size: int) -> list[House]:
    rows = [House("row", r, tuple(r * size + c for c in range(size))) for r in range(size)]
    cols = [House("column", c, tuple(r * size + c for r in range(size))) for c in range(size)]
    return rows + cols


def _boxes(size: int, shape: tuple[int, int]) -> list[House]:
    index = _box_index(size, shape)
    return [
        House("box", b, tuple(cell for cell in range(size * size) if index[cell] == b))
        for b in range(size)
    ]


def _diagonals(size: int) -> list[House]:
    return [
        House("diagonal", 0, tuple(i * size + i for i in range(size))),
        House("diagonal", 1, tuple(i * size + size - 1 - i for i in range(size))),
    ]


def _windows() -> list[House]:
    # Hyper / windoku: four extra 3x3 windows at rows 2-4 / 6-8 x columns 2-4 / 6-8 (1-based).
    houses = []
    for w, (top, left) in enumerate([(1, 1), (1, 5), (5, 1), (5, 5)]):
        cells = tuple((top + r) * 9 + left + c for r in range(3) for c in range(3))
        houses.append(House("window", w, cells))
    return houses


@functools.cache
def standard(size: int = 9) -> Geometry:
    """Classic boxed grid: 4x4 (2x2 boxes), 6x6 (2x3), 9x9 (3x3) or 16x16 (4x4)."""
    shape = _box_shape(size)
    return Geometry(size, "standard", tuple(_lines(size) + _boxes(size, shape)), shape)


@functools.cache
def x_sudoku(size: int = 9) -> Geometry:
    """Boxed grid plus both main diagonals as houses."""
    shape = _box_shape(size)
    houses = _lines(size) + _boxes(size, shape) + _diagonals(size)
    return Geometry(size, "x", tuple(houses), shape)


@functools.cache
def hyper() -> Geometry:
    """9x9 grid plus the four shaded windows (windoku)."""
    shape = BOX_SHAPES[9]
    return Geometry(9, "hyper", tuple(_lines(9) + _boxes(9, shape) + _windows()), shape)


# Bounded by count, not bytes: region maps arrive from users' URLs, so an unbounded cache would
# grow forever; 128 geometries (each with its peer lists, at most a 16x16's) are kept.
@functools.lru_cache(maxsize=128)
def jigsaw(regions: str) -> Geometry:
    """Rows, columns and irregular regions given as an N*N map of region labels.

    Labels are any characters (commonly digits or letters), one per cell, row-major;
    whitespace and ``| - +`` are ignored. Raises :class:`InvalidPuzzle` unless the map has
    N regions of exactly N cells each, each region connected.
    """
    labels = region_labels(regions)
    n_cells = len(labels)
    size = _isqrt_exact(n_cells)
    if size is None or size not in JIGSAW_SIZES:
        raise InvalidPuzzle(
            [
                puzzle_error(
                    "regions",
                    words(
                        N_(
                            "The region map has {count} cells; a jigsaw map needs N*N cells for N"
                            " from {low} to {high} (16, 25, 36, ... 256)."
                        ),
                        count=n_cells,
                        low=JIGSAW_SIZES.start,
                        high=JIGSAW_SIZES.stop - 1,
                    ),
                )
            ]
        )
    order: dict[str, list[int]] = {}
    for cell, label in enumerate(labels):
        order.setdefault(label, []).append(cell)
    errors: list[PuzzleError] = []
    if len(order) != size:
        errors.append(
            puzzle_error(
                "regions",
                words(
                    N_(
                        "The region map has {count} regions; a {size}x{size} jigsaw needs"
                        " exactly {size}."
                    ),
                    count=len(order),
                    size=size,
                ),
            )
        )
    for label, cells in order.items():
        if len(cells) != size:
            errors.append(
                puzzle_error(
                    "regions",
                    words(
                        N_("Region {label} has {count} cells; every region needs exactly {size}."),
                        label=repr(label),
                        count=len(cells),
                        size=size,
                    ),
                    tuple(cells),
                )
            )
        elif not _connected(cells, size):
            errors.append(
                puzzle_error(
                    "regions",
                    words(
                        N_(
                            "Region {label} is not connected: its {size} cells must touch"
                            " side by side."
                        ),
                        label=repr(label),
                        size=size,
                    ),
                    tuple(cells),
                )
            )
    if errors:
        raise InvalidPuzzle(errors)
    region_of = [0] * n_cells
    houses = _lines(size)
    for index, cells in enumerate(order.values()):
        for cell in cells:
            region_of[cell] = index
        houses.append(House("region", index, tuple(cells)))
    return Geometry(size, "jigsaw", tuple(houses), None, tuple(region_of))


def region_labels(text: str) -> list[str]:
    """A region map's labels, one per cell, row-major: every character but the layout
    (whitespace and ``| - +``). The one reading of a map, for the engine and the pages."""
    return [ch for ch in text if ch not in IGNORED]


# Canonical region labels: region k (numbered by first appearance) is REGION_LETTERS[k].
REGION_LETTERS = "ABCDEFGHIJKLMNOP"


def region_text(index: Sequence[int]) -> str:
    """A region map as letters, relabelled ``A``, ``B``, ... in reading order (the share
    links' spelling)."""
    number: dict[int, int] = {}
    return "".join(REGION_LETTERS[number.setdefault(r, len(number))] for r in index)


def neighbours(cell: int, n: int) -> list[int]:
    """The cells side by side with ``cell`` on an n x n grid."""
    row, col = divmod(cell, n)
    out = []
    if row:
        out.append(cell - n)
    if row < n - 1:
        out.append(cell + n)
    if col:
        out.append(cell - 1)
    if col < n - 1:
        out.append(cell + 1)
    return out


def piece_of(start: int, cells: Collection[int], n: int) -> set[int]:
    """The cells of ``cells`` reached from ``start`` (one of them) by side-by-side steps
    within ``cells`` on an n x n grid."""
    piece = {start}
    todo = [start]
    while todo:
        for nb in neighbours(todo.pop(), n):
            if nb in cells and nb not in piece:
                piece.add(nb)
                todo.append(nb)
    return piece


def _connected(cells: list[int], size: int) -> bool:
    members = set(cells)
    return len(piece_of(cells[0], members, size)) == len(members)


def _box_shape(size: int) -> tuple[int, int]:
    try:
        return BOX_SHAPES[size]
    except KeyError:
        sizes = ", ".join(f"{n}x{n}" for n in BOX_SHAPES)
        said = words(
            N_("Boxed grids come in {sizes}; {size}x{size} is not one."), sizes=sizes, size=size
        )
        raise InvalidPuzzle([puzzle_error("length", said)]) from None


def _isqrt_exact(n: int) -> int | None:
    root = int(n**0.5 + 0.5)
    return root if root * root == n else None


def _is_rule(line: str) -> bool:
    """A drawn rule such as ``------+-------+------`` or HoDoKu's ``.---.`` / ``:---+---:``."""
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= _RULE_CHARS and ("--" in stripped or "=" in stripped)


def _readings(text: str) -> Iterator[list[str]]:
    """The ways to cut a text into cell characters, most likely first."""
    lines = text.splitlines() or [text]
    # Drawn rules dropped, any other ``-`` a blank cell.
    yield [ch for line in lines if not _is_rule(line) for ch in line if ch not in LAYOUT]
    if "-" in text:
        yield [ch for ch in text if ch not in LAYOUT]  # every ``-`` a blank (a row "---------")
        yield [ch for ch in text if ch not in IGNORED]  # every ``-`` a line (``1-2-3``)


def clean_cells(text: str, cells: int | None = None) -> list[str]:
    """The cell characters of a puzzle text: everything but whitespace, ``|``, ``+`` and
    drawn rules.

    ``-`` is ambiguous (a blank, or part of a drawn line): the reading whose count is
    ``cells`` wins (without ``cells``: a count of N*N for a supported N), else the first.
    """
    first: list[str] | None = None
    for chars in _readings(text):
        if first is None:
            first = chars
        n = len(chars)
        if n == cells if cells is not None else _isqrt_exact(n) in JIGSAW_SIZES:
            return chars
    return first or []


def infer_size(text: str) -> int | None:
    """The N of a puzzle text whose cell count is N*N for a supported N, else None."""
    # A share link's text has nothing to clean: skip the per-character pass.
    cells = len(text) if text.isalnum() else len(clean_cells(text))
    size = _isqrt_exact(cells)
    return size if size is not None and size in JIGSAW_SIZES else None


@functools.cache
def _value_table(size: int) -> dict[str, int]:
    """Character -> value for an N x N grid: symbols in either case, every blank 0."""
    value_of = {ch: v for v, ch in enumerate(SYMBOLS[:size], start=1)}
    value_of.update({ch.lower(): v for ch, v in list(value_of.items())})
    for blank in BLANKS:
        value_of.setdefault(blank, 0)  # 0 is a blank, never a symbol
    return value_of


def parse_puzzle(text: str, geometry: Geometry | None = None) -> list[int]:
    """Parse puzzle text into a grid (list of ints, 0 blank) for ``geometry`` (default 9x9).

    Row-major; symbols are case-insensitive; ``. 0 _ x * ? -`` are blanks. Whitespace, ``|``,
    ``+`` and drawn rule lines are skipped, so a pasted pretty-printed grid parses. When the
    whole text is not a grid, a grid inside it (after a label such as ``Puzzle #12:``, in a
    link's ``?bd=``) is taken if exactly one stretch of the text reads as one.

    Raises :class:`InvalidPuzzle`: a wrong cell count, and the characters that are neither
    symbols nor blanks (one message naming their cells); conflicting givens are reported by
    :func:`find_conflicts`, not here, so callers can show a parsed grid with its conflicts.
    """
    geo = geometry or standard(9)
    value_of = _value_table(geo.size)
    chars = clean_cells(text, geo.cells)
    grid = [value_of.get(ch, -1) for ch in chars]
    if len(grid) == geo.cells and -1 not in grid:
        return grid
    found = _grids_inside(text, geo)
    if len(found) == 1:
        return list(found.pop())
    errors = _symbol_errors(chars, grid, geo)
    if len(chars) != geo.cells:
        errors.insert(
            0,
            puzzle_error(
                "length",
                words(
                    N_("Found {found} cells, expected {cells} ({size} rows of {size})."),
                    found=len(chars),
                    cells=geo.cells,
                    size=geo.size,
                ),
            ),
        )
    if len(found) > 1:
        errors.append(
            puzzle_error(
                "length",
                words(
                    N_(
                        "The text holds {grids} different grids of {cells} cells; paste"
                        " one puzzle at a time."
                    ),
                    grids=len(found),
                    cells=geo.cells,
                ),
            )
        )
    raise InvalidPuzzle(errors)


def _symbol_range(geo: Geometry) -> str:
    syms = geo.symbols
    if geo.size <= 9:
        return f"1-{syms[-1]}"
    return f"1-9 or A-{syms[-1]}"


_BLANKS_SHOWN = " ".join(dict.fromkeys(BLANKS.replace("X", "")))


def _symbol_errors(chars: Sequence[str], grid: Sequence[int], geo: Geometry) -> list[PuzzleError]:
    """One error for every character that is neither a symbol nor a blank, naming its cells."""
    bad = [i for i, v in enumerate(grid) if v < 0]
    if not bad:
        return []
    allowed = words(
        N_("a symbol {symbols} or a blank ({blanks})")
        if geo.size <= 9
        else N_("a symbol 1-9 or {symbols} or a blank ({blanks})"),
        symbols=f"1-{geo.symbols[-1]}" if geo.size <= 9 else f"A-{geo.symbols[-1]}",
        blanks=_BLANKS_SHOWN,
    )
    cells = tuple(i for i in bad if i < geo.cells)
    if len(bad) == 1 and bad[0] < geo.cells:
        (index,) = bad
        said = words(
            N_(
                "Position {position} ({cell}) holds {char}, which is not a symbol"
                " {symbols} or a blank ({blanks})."
            )
            if geo.size <= 9
            else N_(
                "Position {position} ({cell}) holds {char}, which is not a symbol"
                " 1-9 or {symbols} or a blank ({blanks})."
            ),
            position=index + 1,
            cell=geo.cell_name(index),
            char=repr(chars[index]),
            symbols=f"1-{geo.symbols[-1]}" if geo.size <= 9 else f"A-{geo.symbols[-1]}",
            blanks=_BLANKS_SHOWN,
        )
        return [puzzle_error("symbol", said, cells)]
    if len(bad) == 1:
        (index,) = bad
        message = words(
            N_("Position {position} (cell {position}) holds {char}, which is not {allowed}."),
            position=index + 1,
            char=repr(chars[index]),
            allowed=allowed,
        )
    else:
        by_char: dict[str, list[int]] = {}
        for index in bad:
            by_char.setdefault(chars[index], []).append(index)
        parts: list[Value] = [
            words(N_("{char} at {cells}"), char=repr(ch), cells=_positions(cells, geo))
            for ch, cells in list(by_char.items())[:4]
        ]
        if len(by_char) > 4:
            more = len(by_char) - 4
            parts.append(
                counted(Np_("{count} more character", "{count} more characters"), more, count=more)
            )
        message = (
            words(
                N_("{count} characters are not {allowed}: {parts}."),
                count=len(bad),
                allowed=allowed,
                parts=listing(parts, ";"),
            )
            if len(by_char) > 1
            else words(
                N_("{char} is not {allowed}; it is at {cells}."),
                char=repr(chars[bad[0]]),
                allowed=allowed,
                cells=_positions(bad, geo),
            )
        )
    return [puzzle_error("symbol", message, cells)]


def _positions(indices: Sequence[int], geo: Geometry, shown: int = 4) -> Value:
    """``r1c1, r1c2 and 7 more``: cell names (positions past the grid by number)."""
    names: list[Value] = [
        geo.cell_name(i) if i < geo.cells else words(N_("position {number}"), number=i + 1)
        for i in indices
    ]
    return abridged(names, shown)


# How many whitespace-separated words a label or a trailing remark may take around a grid.
_TRIM_WORDS = 3


def _grids_inside(text: str, geo: Geometry) -> set[tuple[int, ...]]:
    """The distinct grids found in stretches of ``text`` that read as a whole grid.

    A stretch is a run of symbols, blanks and layout between other characters (the label
    ``Puzzle #12:`` or a link's ``?bd=`` end one), optionally without a few words at either
    end (``Puzzle 12 003020600...``). The caller takes the grid only when there is one.
    """
    value_of = _value_table(geo.size)
    allowed = set(value_of) | LAYOUT
    found: set[tuple[int, ...]] = set()
    run: list[str] = []
    for ch in text + "\0":
        if ch in allowed:
            run.append(ch)
            continue
        if run:
            piece = "".join(run)
            run = []
            words = [m.span() for m in re.finditer(r"\S+", piece)]
            for a in range(min(_TRIM_WORDS, len(words) - 1) + 1):
                for b in range(min(_TRIM_WORDS, len(words) - 1 - a) + 1):
                    chars = clean_cells(piece[words[a][0] : words[-1 - b][1]], geo.cells)
                    if len(chars) == geo.cells:
                        found.add(tuple(value_of[ch] for ch in chars))
    return found


@dataclass(frozen=True)
class PencilMarks:
    """A position with the solver's candidates: what a person has after pencilling in.

    ``values``: the symbol of each placed cell (0 open); ``masks``: each open cell's candidates
    (bit ``d - 1`` for symbol ``d``), 0 for placed cells.
    """

    values: tuple[int, ...]
    masks: tuple[int, ...]


def parse_candidates(text: str, geometry: Geometry | None = None) -> PencilMarks | None:
    """Read a candidate grid (pencil marks), or None when ``text`` is not one.

    Three spellings: N*N*N characters, N per cell, each a symbol (a candidate) or a blank
    (729 for 9x9); a pretty-printed grid with one word of candidate symbols per cell, as
    HoDoKu and SudokuWiki print them (``| 4 1679 12679 | ...``); SudokuWiki's 162-character
    board string (two base-32 digits per cell). A cell with one candidate is placed. A
    candidate that a placed peer rules out is dropped (the bookkeeping people skip).
    Raises :class:`InvalidPuzzle` for a cell with no candidate at all.
    """
    geo = geometry or standard(9)
    sets = _candidate_sets(text, geo)
    if sets is None:
        return None
    values = [bits_to_value(mask) for mask in sets]
    empty = [cell for cell, mask in enumerate(sets) if not mask]
    if empty:
        said = counted(
            Np_(
                "{cells} has no candidates: each cell needs at least one.",
                "{cells} have no candidates: each cell needs at least one.",
            ),
            len(empty),
            cells=_positions(empty, geo),
        )
        raise InvalidPuzzle([puzzle_error("symbol", capital(said), tuple(empty))])
    masks = []
    for cell, mask in enumerate(sets):
        if values[cell]:
            masks.append(0)
            continue
        for peer in geo.peers[cell]:
            if values[peer]:
                mask &= ~(1 << (values[peer] - 1))
        masks.append(mask)
    return PencilMarks(tuple(values), tuple(masks))


def bits_to_value(mask: int) -> int:
    """The symbol value of a one-candidate mask, else 0."""
    return mask.bit_length() if mask and not mask & (mask - 1) else 0


_SUDOKUWIKI = re.compile(r"(?<![0-9A-Za-z])[0-9a-v]{162}(?![0-9A-Za-z])")


def _candidate_sets(text: str, geo: Geometry) -> list[int] | None:
    """Candidate masks per cell for the three spellings of :func:`parse_candidates`."""
    n = geo.size
    full = (1 << n) - 1
    value_of = _value_table(n)
    chars = clean_cells(text, geo.cells * n)
    if len(chars) == geo.cells * n and all(ch in value_of for ch in chars):
        sets = []
        for cell in range(geo.cells):
            mask = 0
            for ch in chars[cell * n : (cell + 1) * n]:
                if value_of[ch]:
                    mask |= 1 << (value_of[ch] - 1)
            sets.append(mask)
        return sets
    if n == 9 and (match := _SUDOKUWIKI.search(text)):
        code = match.group()
        # Per cell: the candidates as bits (1 for 1, 2 for 2, 4 for 3, ...), shifted left
        # once for a flag that marks a clue, in two base-32 digits.
        return [int(code[i : i + 2], 32) >> 1 & full for i in range(0, 162, 2)]
    lines = [line for line in text.splitlines() if not _is_rule(line)]
    words = re.findall(r"[^\s|+]+", "\n".join(lines))
    if len(words) != geo.cells or all(len(w) == 1 for w in words):
        return None
    sets = []
    for word in words:
        mask = 0
        for ch in word:
            if ch not in value_of:
                return None  # not a word of candidates: not a candidate grid
            value = value_of[ch]
            if value:
                mask |= 1 << (value - 1)
        sets.append(mask)
    return sets


def find_conflicts(grid: Sequence[int], geometry: Geometry) -> list[PuzzleError]:
    """Every pair of equal givens that share a house, naming both cells and the house."""
    errors: list[PuzzleError] = []
    seen: set[tuple[int, int]] = set()
    for house in geometry.houses:
        first: dict[int, int] = {}
        for cell in house.cells:
            value = grid[cell]
            if not value:
                continue
            if value in first:
                a, b = first[value], cell
                if (a, b) in seen:
                    continue  # same pair in two houses (e.g. a row that is also a region)
                seen.add((a, b))
                said = words(
                    N_("{first} and {second} both hold {digit} in {houses}."),
                    first=geometry.cell_name(a),
                    second=geometry.cell_name(b),
                    digit=geometry.symbol(value),
                    houses=listing(h.words for h in geometry.shared_houses(a, b)),
                )
                errors.append(puzzle_error("conflict", said, (a, b)))
            else:
                first[value] = cell
    return errors


def format_puzzle(grid: Iterable[int], blank: str = ".") -> str:
    """The one-line text of a grid: symbols, and ``blank`` for empty cells."""
    return "".join(SYMBOLS[v - 1] if v else blank for v in grid)


def pretty(grid: Sequence[int], geometry: Geometry) -> str:
    """A multi-line drawing of a boxed grid (``|`` and ``-`` between boxes); it parses back."""
    size = geometry.size
    br, bc = geometry.box_shape or (size, size)
    lines: list[str] = []
    for row in range(size):
        if row and row % br == 0:
            lines.append("-+-".join("-" * (2 * bc - 1) for _ in range(size // bc)))
        parts = []
        for start in range(0, size, bc):
            chunk = grid[row * size + start : row * size + start + bc]
            parts.append(" ".join(geometry.symbol(v) for v in chunk))
        lines.append(" | ".join(parts))
    return "\n".join(lines)
