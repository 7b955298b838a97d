"""The puzzle form: one input per cell plus a paste box, validated by the board parser.

Validation lives here, not in the view: :meth:`PuzzleForm.validate` reads the grid (or the
paste box, see below), calls :func:`sudoku_web.web.puzzles.puzzle_text.read` (the board parser, the
conflict check and the empty-grid check), and leaves behind either ``grid`` /
``canonical`` or ``puzzle_errors`` / ``invalid_cells`` for the template. The view only
branches on ``validate()``.

One source of truth: the grid. A paste fills the grid, and the grid is what is read, so a
digit typed after a paste counts. The paste box is read instead only when it is news: the
grid is empty, the box changed since the page was drawn (``pasted``, a digest of the box as
drawn), or the grid is exactly what the server filled in from the box (``filled``), so a
fixed typo in the box counts too. A candidate grid (pencil marks) cannot live in the grid's
cells; it stays in the box and the grid's later entries are placed over it
(:attr:`PuzzleForm.pencil`).

Cages: the ``cages`` box (any spelling :func:`sudoku_web.core.cages.parse_cages` reads) is
read first, since cages are part of the board; ``static/cages.js`` draws them and writes the
same box. With cages an empty grid is a puzzle; a killer's form (:func:`form_for`) needs them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, Form, HiddenField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length

from ...core.board import (
    LAYOUT,
    Geometry,
    InvalidPuzzle,
    PencilMarks,
    PuzzleError,
    jigsaw,
    parse_candidates,
    region_labels,
    standard,
)
from ...core.cages import MAX_TEXT as CAGES_TEXT_MAX
from ...core.cages import format_cages, parse_cages
from ...core.game import position
from ...core.rules import spelling as rule_spelling
from ...core.rules.board import attach
from ...core.variants import variant_of
from ..render.boards import BoardView, board_view
from ..runtime.languages import cell_words
from ..runtime.memo import byte_cache
from .puzzle_text import MAX_TEXT, canonical, read
from .urls import Choice, default_regions, jigsaw_geometry, region_sketch, sketch

# The paste box takes what the reader takes (see puzzle_text.MAX_TEXT), the cages box what the
# cage reader takes.
PASTE_MAX = MAX_TEXT
CAGES_MAX = CAGES_TEXT_MAX
RULES_MAX = rule_spelling.MAX_SPELLING

# What the paste box reads (board.parse_puzzle / parse_candidates), said on the form. The
# form's words are lazy strings: the classes are built once, each request reads them in its
# own language.
FORMATS = _l(
    "81 characters row by row, with . 0 _ x * ? or - for blanks; a pretty-printed grid "
    "(spaces, | and drawn lines are skipped); a puzzle inside a label or a link (SudokuWiki's "
    "?bd=); or your pencil marks, to get a hint from where you are: 729 characters (9 per "
    "cell) or a candidate grid as HoDoKu and SudokuWiki print it."
)


# What the cages box reads (core.cages.parse_cages), said on the form.
CAGE_FORMATS = _l(
    "One cage per line: its sum, a colon, its cells (15: r1c1 r1c2 r2c1); or a cage map: one "
    "label per cell, row by row, like a region map (. for a cell in no cage), then the sums "
    "in the order the labels first appear (A=15 B=7 ... or 15,7,...); or the one-line "
    "cagemap:sums of exported killer files. A killer needs no givens."
)


# What the rules box reads (core.rules.spelling), said on the form.
RULES_FORMATS = _l(
    "One rule a line: its kind, then its cells, two characters each (row, then column): "
    "th_11121314 a thermometer from r1c1, ar_55_554433 an arrow from its circle at r5c5, "
    "wh_ / rb_ / pd_ a whispers, renban or palindrome line, kr_w_1112 or kr_b_1112 a white or "
    "black dot, xv_x_1112 or xv_v_1112 an X or V, oe_o_11 or oe_e_11 odd or even cells, "
    "kc_1112_7 a cage (its total optional), lk_04_dl_17 a little killer, sw_r_3_15 a sandwich "
    "clue; kn, ki, nc, dg_m, dg_p for anti-knight, anti-king, non-consecutive, diagonals. Or "
    "paste an f-puzzles or SudokuPad link in the box above."
)


def digest(text: str) -> str:
    """A short fingerprint of a paste box's text, whitespace aside (browsers send CRLF)."""
    return hashlib.sha256("".join(text.split()).encode()).hexdigest()[:16]


class PuzzleForm(Form):
    """Grid of cell inputs and an "or paste a puzzle" box; :func:`puzzle_form` sizes it."""

    geometry: Geometry = standard(9)

    cells = FieldList(StringField(_l("Cell")), min_entries=81, max_entries=81)
    paste = TextAreaField(
        _l("Or paste a puzzle"),
        validators=[Length(max=PASTE_MAX, message=_l("That is too long to be a puzzle."))],
        description=FORMATS,
    )
    cages = TextAreaField(
        _l("Cages"),
        validators=[Length(max=CAGES_MAX, message=_l("That is too long to be a list of cages."))],
        description=CAGE_FORMATS,
    )
    rules = TextAreaField(
        _l("Rules"),
        validators=[Length(max=RULES_MAX, message=_l("That is too long to be a list of rules."))],
        description=RULES_FORMATS,
    )
    # What the server drew (see the module docstring): the grid it filled in from the paste
    # box, and a digest of the box.
    filled = HiddenField()
    pasted = HiddenField()
    solve = SubmitField(_l("Solve"))

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        self.grid: list[int] | None = None
        self.canonical: str | None = None
        self.puzzle_errors: list[PuzzleError] = []
        self.invalid_cells: set[int] = set()
        self.paste_invalid = False
        self.pencil: PencilMarks | None = None  # a pasted candidate grid, entries placed
        self.needs_cages = False  # a killer's form: no cages is a problem, not a sudoku
        self.cages_invalid = False
        self.rules_invalid = False
        self.filled.data = ""  # drawn afresh: set by fill_from_paste only
        self.pasted.data = digest(self.paste.data or "")

    def fill(self, grid: Sequence[int]) -> None:
        """Put a grid into the cell inputs (for "edit this puzzle" and pasted puzzles)."""
        for field, value in zip(self.cells.entries, grid, strict=True):
            field.data = self.geometry.symbol(value) if value else ""

    def fill_from_paste(self, grid: Sequence[int]) -> None:
        """Put a pasted grid into the cells and remember it (a later POST compares)."""
        self.fill(grid)
        self.filled.data = self._cells_text()

    def _cells_text(self) -> str:
        """The cells as typed, one character each (``0`` for a blank), to compare grids."""
        out = []
        for field in self.cells.entries:
            value = (field.data or "").strip().upper()
            out.append(value if len(value) == 1 and value not in ".0_X*?-" else "0")
        return "".join(out)

    def _paste_wins(self, pasted: str) -> bool:
        """Whether the paste box, not the grid, holds the puzzle (see the module docstring)."""
        if not pasted:
            return False
        cells = self._cells_text()
        if not cells.strip("0") or digest(pasted) != str((self.pasted.raw_data or [""])[0]):
            return True  # the grid is empty, or the box changed since it was drawn
        return cells == str((self.filled.raw_data or [""])[0])

    def board(self, givens: str = "") -> BoardView:
        """The grid for the ``grid`` macro, with the offending cells marked (``givens``: the
        puzzle's cells, drawn apart from a person's entries)."""
        return board_view(self.geometry, givens, invalid=self.invalid_cells, words=cell_words())

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """Field checks, then the cages (they are part of the board), then the puzzle itself:
        bad symbols, length, conflicts, an empty grid without cages, givens breaking cages."""
        if not super().validate(extra_validators):
            # Field-level problems (overlong boxes) become puzzle messages so the template
            # has one list to show.
            for name, messages in self.errors.items():
                self.paste_invalid |= name == "paste"
                self.cages_invalid |= name == "cages"
                self.rules_invalid |= name == "rules"
                self.puzzle_errors += [PuzzleError("length", str(m)) for m in messages]
            return False
        pasted = (self.paste.data or "").strip()
        try:
            self._read_cages()
            self._read_rules()
            if self._paste_wins(pasted):
                self.grid = self._read_paste(pasted)
            else:
                self.grid = self._read_cells()
                if pasted:
                    self.pencil = self._entries_over(pasted, self.grid)
        except InvalidPuzzle as exc:
            self.puzzle_errors = list(exc.errors)
            self.invalid_cells = {c for e in exc.errors for c in e.cells}
            return False
        self.canonical = canonical(self.grid)
        return True

    def _read_cages(self) -> None:
        """Put the cages box's cages on the board (InvalidPuzzle naming their cells)."""
        text = (self.cages.data or "").strip()
        if not text:
            if self.needs_cages:
                self.cages_invalid = True
                message = gettext("A killer needs its cages: list them below with their sums.")
                raise InvalidPuzzle([PuzzleError("cage", message)])
            return
        try:
            self.geometry = self.geometry.base.with_cages(parse_cages(text, self.geometry.base))
        except InvalidPuzzle:
            self.cages_invalid = True
            raise

    def _read_rules(self) -> None:
        """Put the rules box's rules on the board (RuleError naming their cells)."""
        text = (self.rules.data or "").strip()
        if not text:
            return
        try:
            if self.geometry.cages:
                message = gettext(
                    "Give the cages as cage rules (kc_...) in the rules box, or all below."
                )
                raise InvalidPuzzle([PuzzleError("rule", message)])
            self.geometry = attach(self.geometry, rule_spelling.parse(text, self.geometry.size))
        except InvalidPuzzle:
            self.rules_invalid = True
            raise

    def show_rules(self, geometry: Geometry) -> None:
        """Open the form on a board's rules (one a line in the box, drawn on the grid)."""
        self.geometry = geometry
        self.rules.data = rule_spelling.spell(geometry.rules, geometry.size).replace(".", "\n")

    def show_cages(self, geometry: Geometry) -> None:
        """Open the form on a board's cages (their human spelling in the box, drawn on the
        grid)."""
        self.geometry = geometry
        self.cages.data = format_cages(geometry.cages, geometry) if geometry.cages else ""

    def _read_paste(self, text: str) -> list[int]:
        try:
            self.pencil = parse_candidates(text, self.geometry)
        except InvalidPuzzle:
            self.paste_invalid = True
            raise
        if self.pencil is not None:
            # Pencil marks: the grid shows their placed cells, the hint starts from them.
            reading = read(canonical(self.pencil.values), self.geometry)
        else:
            reading = read(text, self.geometry)
        if reading.grid is not None:
            # Show what was pasted in the grid, so marked conflicts make sense and a later
            # edit starts from it.
            self.fill_from_paste(reading.grid)
        if not reading.ok or reading.grid is None:
            self.paste_invalid = True
            raise InvalidPuzzle(reading.errors)
        return list(reading.grid)

    def _entries_over(self, text: str, grid: Sequence[int]) -> PencilMarks | None:
        """A candidate grid in the box with the grid's entries over it: a digit typed into
        a cell is placed and a cleared cell opens again (the core's
        :func:`~sudoku_web.core.game.position` of the grid and the box's marks)."""
        try:
            marks = parse_candidates(text, self.geometry)
        except InvalidPuzzle:
            return None
        if marks is None:
            return None
        # A cell placed in the box and cleared in the grid keeps no marks: it opens again.
        kept = [0 if marks.values[c] else m for c, m in enumerate(marks.masks)]
        seen = position(grid, kept, self.geometry)
        return PencilMarks(seen.values, seen.masks)

    def prefill(self, text: str) -> str | None:
        """Open the form on a puzzle ("edit this puzzle"): in the grid if it parses, else
        in the paste box, where the user can see and fix it.

        Returns the puzzle's canonical text when it is a valid puzzle (the givens a later Hint
        checks the user's entries against), else None.
        """
        reading = read(text, self.geometry)
        if reading.grid is not None:
            self.fill(reading.grid)
        else:
            self.paste.data = text[:PASTE_MAX]
        return reading.canonical if reading.ok else None

    def _read_cells(self) -> list[int]:
        """Join the cells into puzzle text, one character per cell, and parse that.

        Each cell must contribute exactly one character, or the parser's positions would no
        longer be cell numbers; so an overlong cell, or a character the parser skips as layout
        (``| - +``), is reported here against its cell.
        """
        geo = self.geometry
        chars: list[str] = []
        bad: list[tuple[int, str]] = []
        for index, field in enumerate(self.cells.entries):
            value = (field.data or "").strip()
            if not value:
                chars.append(".")
            elif len(value) == 1 and value not in LAYOUT:
                chars.append(value)  # the parser judges the symbol and names the cell
            else:
                bad.append((index, value))
                chars.append(".")
        errors: list[PuzzleError] = []
        if bad:
            # One message for all such cells, naming them (not one line per cell).
            shown = [f"{geo.cell_name(i)} holds {v!r}" for i, v in bad[:4]]
            more = f" and {len(bad) - 4} more cells" if len(bad) > 4 else ""
            errors.append(
                PuzzleError(
                    "symbol",
                    f"{'; '.join(shown)}{more}: a cell takes a single symbol "
                    f"({geo.symbols[0]}-{geo.symbols[-1]}) or stays blank.",
                    tuple(i for i, _ in bad),
                )
            )
        reading = read("".join(chars), geo)
        # Report everything at once; but a grid whose only entries were bad characters is not
        # "empty" to the person who typed them.
        found = [e for e in reading.errors if not (errors and e.code == "empty")]
        if errors or found or reading.grid is None:
            raise InvalidPuzzle(errors + found)
        return list(reading.grid)


class JigsawForm(PuzzleForm):
    """A jigsaw puzzle: the cells, plus the region map (one letter per cell) that shapes them.

    Without JavaScript the map is typed into :attr:`regions`; static/js/region-painter.js adds
    a grid to paint it with the mouse, which writes the same field. The geometry comes from
    the map, so it is checked first: a map that is not N regions of N connected cells is
    reported (naming the region and its size) with its cells marked, before the puzzle is
    read.
    """

    regions = TextAreaField(
        _l("Regions"),
        validators=[Length(max=PASTE_MAX, message=_l("That is too long to be a region map."))],
        description=_l(
            "One letter per cell, row by row (spaces and line breaks are ignored): "
            "N regions of N side-by-side cells each."
        ),
    )

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        self.regions_invalid = False
        self.sketch: Geometry | None = None  # drawing of a rejected map, to mark its cells

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """The region map first (it decides the houses), then the puzzle as for any grid."""
        text = self.regions.data or ""
        try:
            if not region_labels(text):
                message = gettext(
                    "Set the regions first: type one letter per cell, row by row, or paint "
                    "them (or start from the example map)."
                )
                raise InvalidPuzzle([PuzzleError("regions", message)])
            geometry = jigsaw_geometry(text)
        except InvalidPuzzle as exc:
            errors = list(exc.errors)
        else:
            errors = []
            if geometry.size != self.geometry.size:
                n = self.geometry.size
                errors.append(
                    PuzzleError(
                        "regions",
                        gettext(
                            "The region map is %(map)sx%(map)s, but the grid is %(n)sx%(n)s: "
                            "it needs %(letters)s letters.",
                            map=geometry.size,
                            n=n,
                            letters=n * n,
                        ),
                    )
                )
        if errors:
            self.regions_invalid = True
            self.puzzle_errors = errors
            self.invalid_cells = {c for e in errors for c in e.cells}
            self.sketch = _sketch_of(text, self.geometry.size)
            # Shown again as N rows of N, so its rows line up with the grid's.
            labels, n = region_labels(text), self.geometry.size
            self.regions.data = "\n".join(
                "".join(labels[i : i + n]) for i in range(0, len(labels), n)
            )
            self._show_paste()
            return False
        # The instance's geometry shadows the class default (the map the form opened on).
        self.geometry = geometry
        return super().validate(extra_validators)

    def _show_paste(self) -> None:
        # A refused map stops validation before the paste box is read; still put a pasted
        # puzzle into the cells, so the page shows the grid the user meant (its own problems
        # are reported once the map is right). Reading needs only the grid's size here.
        pasted = (self.paste.data or "").strip()
        if pasted:
            reading = read(pasted, self.geometry)
            if reading.grid is not None:
                self.fill_from_paste(reading.grid)

    def board(self, givens: str = "") -> BoardView:
        """The grid drawn with the typed map's regions, even when the map was rejected (the
        form's own board, its rules drawn, when that has the typed map's regions)."""
        geometry = self.sketch
        if geometry is None or _regions_of(geometry) == _regions_of(self.geometry):
            geometry = self.geometry
        return board_view(geometry, givens, invalid=self.invalid_cells, words=cell_words())


def _regions_of(geometry: Geometry) -> frozenset[frozenset[int]]:
    """A board's regions as sets of cells, however they are numbered."""
    groups: dict[int, set[int]] = {}
    for cell, region in enumerate(geometry.box_index):
        groups.setdefault(region, set()).add(cell)
    return frozenset(frozenset(cells) for cells in groups.values())


def _sketch_of(text: str, size: int) -> Geometry:
    """The drawing of a refused map over this form's cells (a bare grid when it cannot be
    drawn: another size, or no square at all)."""
    sketch = region_sketch(text)
    return sketch if sketch is not None and sketch.size == size else unmapped(size)


def unmapped(size: int) -> Geometry:
    """A jigsaw grid before its regions are set: rows and columns, no region lines or tints
    (a fresh form draws this, not a map the person never chose)."""
    return sketch(size)


def form_for(picked: Choice, geometry: Geometry, formdata: Any = None) -> PuzzleForm:
    """The form of a picker entry on ``geometry`` (a killer's form needs cages)."""
    form = puzzle_form(geometry.base)(formdata)
    form.needs_cages = picked.info.needs_cages
    return form


def _paste_formats(geometry: Geometry) -> Any:
    """What the paste box of ``geometry`` reads, as a lazy string: one whole sentence per
    case, so each language words it its own way."""
    n, cells = geometry.size, geometry.cells
    numbers = {"cells": cells, "marks": cells * n, "n": n}
    marks = cells * n <= PASTE_MAX  # a 16x16 candidate grid is past the bound
    if n > 9 and marks:
        return _l(
            "%(cells)s characters, row by row, with . 0 _ x * ? or - for blanks; symbols 1-9 "
            "then A-G; a pretty-printed grid, or a puzzle inside a label or a link, works too; "
            "so do pencil marks (%(marks)s characters, %(n)s per cell, or a printed candidate "
            "grid).",
            **numbers,
        )
    if n > 9:
        return _l(
            "%(cells)s characters, row by row, with . 0 _ x * ? or - for blanks; symbols 1-9 "
            "then A-G; a pretty-printed grid, or a puzzle inside a label or a link, works too.",
            **numbers,
        )
    if marks:
        return _l(
            "%(cells)s characters, row by row, with . 0 _ x * ? or - for blanks; a "
            "pretty-printed grid, or a puzzle inside a label or a link, works too; so do pencil "
            "marks (%(marks)s characters, %(n)s per cell, or a printed candidate grid).",
            **numbers,
        )
    return _l(
        "%(cells)s characters, row by row, with . 0 _ x * ? or - for blanks; a pretty-printed "
        "grid, or a puzzle inside a label or a link, works too.",
        **numbers,
    )


@byte_cache(4 * 1024 * 1024)  # a class per board; jigsaw maps share one class per size
def puzzle_form(geometry: Geometry) -> type[PuzzleForm]:
    """The form class for a geometry: N*N cell inputs (variants and other sizes reuse this).

    Jigsaw geometries share one class per size (:class:`JigsawForm`); the map the form opened
    on is only its default, the posted map decides.
    """
    if geometry == standard(9):
        return PuzzleForm
    n = geometry.size
    regional = variant_of(geometry).takes_regions
    if regional and geometry != jigsaw(default_regions(n)):
        return puzzle_form(jigsaw(default_regions(n)))  # one class per size, not per map
    cells = FieldList(
        StringField(_l("Cell")), min_entries=geometry.cells, max_entries=geometry.cells
    )
    paste = TextAreaField(
        _l("Or paste a puzzle"),
        validators=[Length(max=PASTE_MAX, message=_l("That is too long to be a puzzle."))],
        description=_paste_formats(geometry),
    )
    base: type[PuzzleForm] = JigsawForm if regional else PuzzleForm
    name = f"{base.__name__}_{geometry.variant}_{n}"
    return type(name, (base,), {"geometry": geometry, "cells": cells, "paste": paste})
