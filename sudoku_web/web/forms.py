"""The puzzle form: one input per cell plus a paste box, validated by the board parser.

Validation lives here, not in the view: :meth:`PuzzleForm.validate` reads the cells (or the
paste box when it holds text), calls :func:`sudoku_web.web.reading.read` (the board parser, the
conflict check and the empty-grid check), and leaves behind either ``grid`` /
``canonical`` or ``puzzle_errors`` / ``invalid_cells`` for the template. The view only
branches on ``validate()``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import FieldList, Form, StringField, SubmitField, TextAreaField
from wtforms.validators import Length

from ..core.board import IGNORED, Geometry, InvalidPuzzle, PuzzleError, jigsaw, standard
from .boards import BoardView, board_view
from .memo import byte_cache
from .reading import MAX_TEXT, canonical, read
from .variants import default_regions, jigsaw_geometry, region_sketch

# The paste box takes what the reader takes (see reading.MAX_TEXT).
PASTE_MAX = MAX_TEXT


class PuzzleForm(Form):
    """Grid of cell inputs and an "or paste a puzzle" box; :func:`puzzle_form` sizes it."""

    geometry: Geometry = standard(9)

    cells = FieldList(StringField("Cell"), min_entries=81, max_entries=81)
    paste = TextAreaField(
        "Or paste a puzzle",
        validators=[Length(max=PASTE_MAX, message="That is too long to be a puzzle.")],
        description="81 characters, row by row, with . or 0 for blanks; a pretty-printed "
        "grid with | and - works too.",
    )
    solve = SubmitField("Solve")

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        self.grid: list[int] | None = None
        self.canonical: str | None = None
        self.puzzle_errors: list[PuzzleError] = []
        self.invalid_cells: set[int] = set()
        self.paste_invalid = False

    def fill(self, grid: Sequence[int]) -> None:
        """Put a grid into the cell inputs (for "edit this puzzle" and pasted puzzles)."""
        for field, value in zip(self.cells.entries, grid, strict=True):
            field.data = self.geometry.symbol(value) if value else ""

    def board(self) -> BoardView:
        """The grid for the ``grid`` macro, with the offending cells marked."""
        return board_view(self.geometry, "", invalid=self.invalid_cells)

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """Field checks, then the puzzle itself: bad symbols, length, conflicts, empty grid."""
        if not super().validate(extra_validators):
            # Field-level problems (only an overlong paste box today) become puzzle messages
            # so the template has one list to show.
            for name, messages in self.errors.items():
                self.paste_invalid |= name == "paste"
                self.puzzle_errors += [PuzzleError("length", str(m)) for m in messages]
            return False
        pasted = (self.paste.data or "").strip()
        try:
            if pasted:
                self.grid = self._read_paste(pasted)
            else:
                self.grid = self._read_cells()
        except InvalidPuzzle as exc:
            self.puzzle_errors = list(exc.errors)
            self.invalid_cells = {c for e in exc.errors for c in e.cells}
            return False
        self.canonical = canonical(self.grid)
        return True

    def _read_paste(self, text: str) -> list[int]:
        reading = read(text, self.geometry)
        if reading.grid is not None:
            # Show what was pasted in the grid, so marked conflicts make sense and a later
            # edit starts from it.
            self.fill(reading.grid)
        if not reading.ok or reading.grid is None:
            self.paste_invalid = True
            raise InvalidPuzzle(reading.errors)
        return list(reading.grid)

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
        errors: list[PuzzleError] = []
        for index, field in enumerate(self.cells.entries):
            value = (field.data or "").strip()
            if not value:
                chars.append(".")
            elif len(value) == 1 and value not in IGNORED:
                chars.append(value)  # the parser judges the symbol and names the cell
            else:
                errors.append(
                    PuzzleError(
                        "symbol",
                        f"{geo.cell_name(index)} holds {value!r}; a cell takes a single "
                        f"symbol ({geo.symbols[0]}-{geo.symbols[-1]}) or stays blank.",
                        (index,),
                    )
                )
                chars.append(".")
        reading = read("".join(chars), geo)
        # Report everything at once; but a grid whose only entries were bad characters is not
        # "empty" to the person who typed them.
        found = [e for e in reading.errors if not (errors and e.code == "empty")]
        if errors or found or reading.grid is None:
            raise InvalidPuzzle(errors + found)
        return list(reading.grid)


class JigsawForm(PuzzleForm):
    """A jigsaw puzzle: the cells, plus the region map (one letter per cell) that shapes them.

    Without JavaScript the map is typed into :attr:`regions`; sudoku.js adds a grid to paint
    it with the mouse, which writes the same field. The geometry comes from the map, so it is
    checked first: a map that is not N regions of N connected cells is reported (naming the
    region and its size) with its cells marked, before the puzzle is read.
    """

    regions = TextAreaField(
        "Regions",
        validators=[Length(max=PASTE_MAX, message="That is too long to be a region map.")],
        description="One letter per cell, row by row (spaces and line breaks are ignored): "
        "N regions of N side-by-side cells each.",
    )

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        self.regions_invalid = False
        self.sketch: Geometry | None = None  # drawing of a rejected map, to mark its cells

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """The region map first (it decides the houses), then the puzzle as for any grid."""
        text = self.regions.data or ""
        try:
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
                        f"The region map is {geometry.size}x{geometry.size}, but the grid is "
                        f"{n}x{n}: it needs {n * n} letters.",
                    )
                )
        if errors:
            n_cells_side = self.geometry.size
            self.regions_invalid = True
            self.puzzle_errors = errors
            self.invalid_cells = {c for e in errors for c in e.cells}
            sketch = region_sketch(text)
            # A map of another size cannot be drawn over this form's cells.
            self.sketch = sketch if sketch is not None and sketch.size == n_cells_side else None
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
                self.fill(reading.grid)

    def board(self) -> BoardView:
        """The grid drawn with the typed map's regions, even when the map was rejected."""
        geometry = self.sketch if self.sketch is not None else self.geometry
        return board_view(geometry, "", invalid=self.invalid_cells)


@byte_cache(4 * 1024 * 1024)  # a class per board; jigsaw maps share one class per size
def puzzle_form(geometry: Geometry) -> type[PuzzleForm]:
    """The form class for a geometry: N*N cell inputs (variants and other sizes reuse this).

    Jigsaw geometries share one class per size (:class:`JigsawForm`); the map the form opened
    on is only its default, the posted map decides.
    """
    if geometry == standard(9):
        return PuzzleForm
    n = geometry.size
    if geometry.variant == "jigsaw" and geometry != jigsaw(default_regions(n)):
        return puzzle_form(jigsaw(default_regions(n)))  # one class per size, not per map
    cells = FieldList(StringField("Cell"), min_entries=geometry.cells, max_entries=geometry.cells)
    paste = TextAreaField(
        "Or paste a puzzle",
        validators=[Length(max=PASTE_MAX, message="That is too long to be a puzzle.")],
        description=f"{geometry.cells} characters, row by row, with . or 0 for blanks"
        + ("; symbols 1-9 then A-G" if n > 9 else "")
        + "; a pretty-printed grid works too.",
    )
    base: type[PuzzleForm] = JigsawForm if geometry.variant == "jigsaw" else PuzzleForm
    name = f"{base.__name__}_{geometry.variant}_{n}"
    return type(name, (base,), {"geometry": geometry, "cells": cells, "paste": paste})
