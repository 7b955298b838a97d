"""The grids templates draw: what each cell of a board shows.

A :class:`BoardView` is a board for the ``grid`` macro (``_grid.html``): per cell its symbol,
its kind (given, solved, blank), thick edges, variant shading and marks (conflict, differs).
Editable grids loop over :attr:`BoardView.cells` in the macro; read-only grids' rows are
drawn by :mod:`~sudoku_web.web.render.cell_markup` (which says why) from the same
per-geometry tables. Both take a cell's label and classes from one table
(:func:`cell_statics`, :func:`~sudoku_web.web.render.cell_markup.cell_classes`). The shading
comes from the variant registry (:attr:`~sudoku_web.core.variants.VariantInfo.shaded`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import Markup

from ...core.board import Geometry
from ...core.solver import SolveResult
from ...core.variants import variant_of
from ..runtime.memo import byte_cache
from .cell_markup import ENGLISH, CellWords, cage_sum_html, cell_classes, read_only_rows
from .outlines import cage_marks


@dataclass(frozen=True)
class CellView:
    """One cell as a template draws it."""

    index: int
    label: str  # the accessible name: "Row 4, column 7"
    text: str  # the symbol shown, "" for blank
    kind: str  # "given", "solved" (filled in by the solver) or "blank"
    tail: str  # the board's classes: thick edges ("bt", "bl") and shading, each space-led
    invalid: bool = False
    differs: bool = False  # multiple: this cell differs between the two solutions shown
    cage_sum: str = ""  # the sum drawn in this cell: a cage's first cell

    @property
    def sum_html(self) -> Markup:
        """The cage sum's markup in this cell ("" for most cells)."""
        return Markup(cage_sum_html(self.cage_sum))

    @property
    def classes(self) -> str:
        """All CSS classes of the cell's box in the grid."""
        return cell_classes(self.kind, self.tail, self.invalid, self.differs)


@dataclass(frozen=True)
class BoardView:
    """A whole grid for the ``grid`` macro: its geometry and what each cell shows.

    Kept as flat per-cell tuples; :attr:`cells` (one :class:`CellView` each, for the editable
    form's loop) is built only when a template asks for it, and read-only grids are drawn by
    :meth:`rows_html` from the same per-geometry tables instead.
    """

    geometry: Geometry
    texts: tuple[str, ...]  # the symbol shown per cell, "" for blank
    kinds: tuple[str, ...]  # "given", "solved" or "blank" per cell
    invalid: frozenset[int] = frozenset()
    differs: frozenset[int] = frozenset()
    words: CellWords = ENGLISH  # what the cells' labels say, in the page's language

    @functools.cached_property
    def cells(self) -> tuple[CellView, ...]:
        """One :class:`CellView` per cell, in reading order."""
        statics = cell_statics(self.geometry, self.words)
        return tuple(
            CellView(
                index,
                statics[index][1],
                text,
                kind,
                statics[index][0],
                index in self.invalid,
                index in self.differs,
                statics[index][2],
            )
            for index, (text, kind) in enumerate(zip(self.texts, self.kinds, strict=True))
        )

    @property
    def givens_text(self) -> str:
        """The givens as a puzzle string (``0`` for every other cell)."""
        return "".join(
            t if k == "given" else "0" for t, k in zip(self.texts, self.kinds, strict=True)
        )

    @property
    def rows(self) -> list[tuple[CellView, ...]]:
        """The cells cut into rows."""
        n = self.geometry.size
        return [self.cells[r * n : (r + 1) * n] for r in range(n)]

    def rows_html(self) -> Markup:
        """The read-only grid's ``<tr>`` rows (:func:`~.cell_markup.read_only_rows`)."""
        return read_only_rows(
            self.geometry.size,
            cell_statics(self.geometry, self.words),
            _shown_symbols(self.geometry),  # symbols need no escaping: digits, letters
            self.texts,
            self.kinds,
            self.invalid,
            self.differs,
            self.words,
        )


@byte_cache(2 * 1024 * 1024)  # per geometry; jigsaw geometries come from user input
def cell_borders(geometry: Geometry) -> tuple[str, ...]:
    """Thick-edge classes per cell, from the geometry's boxes (or jigsaw regions).

    An edge is thick where the neighbour across it lies in another box, so the same rule
    draws 4x4 ... 16x16 boxes and irregular jigsaw regions.
    """
    n = geometry.size
    box = geometry.box_index
    out = []
    for cell in range(geometry.cells):
        row, col = divmod(cell, n)
        parts = []
        if row and box[cell - n] != box[cell]:
            parts.append("bt")
        if col and box[cell - 1] != box[cell]:
            parts.append("bl")
        out.append(" ".join(parts))
    return tuple(out)


@byte_cache(2 * 1024 * 1024)  # per geometry; jigsaw geometries come from user input
def cell_shading(geometry: Geometry) -> tuple[str, ...]:
    """Shading class per cell: X diagonals and hyper windows ``shade``, jigsaw regions
    ``rg-<k>`` (a tint per region), so the extra houses are visible, as on paper."""
    info = variant_of(geometry)
    if info.tint_regions and geometry.regions is not None:
        return tuple(f"rg-{r % 16}" for r in geometry.regions)
    shaded = {c for h in geometry.houses if h.kind in info.shaded for c in h.cells}
    return tuple("shade" if c in shaded else "" for c in range(geometry.cells))


@byte_cache(2 * 1024 * 1024)  # per geometry; jigsaw geometries come from user input
def _shown_symbols(geometry: Geometry) -> dict[str, str]:
    """Each character a grid string may hold for a symbol (either case) -> the symbol shown."""
    return {ch: sym for sym in geometry.symbols for ch in {sym, sym.lower()}}


def _symbols(text: str, geometry: Geometry) -> list[str]:
    """The displayed character per cell of a puzzle/solution string ("" for blanks)."""
    shown = _shown_symbols(geometry)
    return [shown.get(ch, "") for ch in text]


@byte_cache(2 * 1024 * 1024)  # per geometry and words; jigsaw geometries come from user input
def cell_statics(
    geometry: Geometry, words: CellWords = ENGLISH
) -> tuple[tuple[str, str, str], ...]:
    """Per cell, what never changes with the puzzle: the class tail after ``cell <kind>``
    (thick edges, shading, cage edges, each with its leading space), the accessible label
    in ``words``' language, and the cage's sum shown in its first cell ("" elsewhere)."""
    n = geometry.size
    cages = cage_marks(geometry)
    out = []
    for index, (edges, shade) in enumerate(
        zip(cell_borders(geometry), cell_shading(geometry), strict=True)
    ):
        cage_edges, total, shown_sum = cages[index]
        tail = "".join(" " + part for part in (edges, shade, cage_edges) if part)
        place = {"row": index // n + 1, "col": index % n + 1, "total": total}
        label = (words.caged if total else words.place) % place
        out.append((tail, label, shown_sum))
    return tuple(out)


def board_view(
    geometry: Geometry,
    givens: str,
    solution: str | None = None,
    *,
    invalid: Iterable[int] = (),
    differs: Iterable[int] = (),
    words: CellWords = ENGLISH,
) -> BoardView:
    """A board of givens, optionally completed by ``solution`` (its cells marked ``solved``),
    its cells labelled in ``words``."""
    blank = [""] * geometry.cells
    given_syms = (_symbols(givens, geometry) + blank)[: geometry.cells]
    solved_syms = (
        (_symbols(solution, geometry) + blank)[: geometry.cells] if solution else given_syms
    )
    texts = []
    kinds = []
    for given, solved in zip(given_syms, solved_syms, strict=True):
        text = given or solved
        texts.append(text)
        kinds.append("given" if given else ("solved" if text else "blank"))
    return BoardView(
        geometry, tuple(texts), tuple(kinds), frozenset(invalid), frozenset(differs), words
    )


def differing_cells(a: str, b: str) -> list[int]:
    """Cells where two solutions disagree."""
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def reached_grid(result: SolveResult) -> str:
    """For ``gave_up``: the grid with every cell the solver had narrowed to one symbol."""
    if result.candidates is None or result.geometry is None:
        return result.puzzle
    geo = result.geometry
    out = []
    for mask in result.candidates:
        single = mask and not mask & (mask - 1)
        out.append(geo.symbols[mask.bit_length() - 1] if single else "0")
    return "".join(out)


@dataclass(frozen=True)
class PresetBoard:
    """A read-only board whose rows are already drawn (for the ``grid`` macro)."""

    geometry: Geometry
    rows: Markup

    def rows_html(self) -> Markup:
        """The drawn rows (see :meth:`BoardView.rows_html`)."""
        return self.rows
