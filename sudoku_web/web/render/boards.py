"""The grids templates draw: what each cell of a board shows, and its ``<td>`` markup.

A :class:`BoardView` is a board for the ``grid`` macro (``_grid.html``): per cell its symbol,
its kind (given, solved, blank), thick edges, variant shading and marks (conflict, differs).
Editable grids loop over :attr:`BoardView.cells` in the macro; read-only grids are drawn by
:meth:`BoardView.rows_html` from per-geometry tables (the macro's loop was a large share of
an uncached result page: benchmarks/RESULTS.md). Both take a cell's label and classes from
one table (:func:`cell_statics`, :func:`_classes`). The shading comes from the variant
registry (:attr:`~sudoku_web.core.variants.VariantInfo.shaded`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import Markup, escape

from ...core.board import Geometry
from ...core.solver import SolveResult
from ...core.variants import variant_of
from ..runtime.memo import byte_cache
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
        return _classes(self.kind, self.tail, self.invalid, self.differs)


def _classes(kind: str, tail: str, bad: bool, diff: bool) -> str:
    """A cell's classes: ``cell <kind>``, the board's (:func:`cell_statics`), its marks."""
    return f"cell {kind}{tail}{' invalid' if bad else ''}{' differs' if diff else ''}"


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

    @functools.cached_property
    def cells(self) -> tuple[CellView, ...]:
        """One :class:`CellView` per cell, in reading order."""
        statics = cell_statics(self.geometry)
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
        """The read-only grid's ``<tr>`` rows, as the ``grid`` macro drew them cell by cell.

        Every cell reads ``<td class="{CellView.classes}" aria-label="{CellView.label}: {text
        or 'blank'}[ (solved)][ (differs)][ (conflict)]">{text}</td>``. The classes and labels
        come from fixed tables; the one value derived from the request, the symbol, is
        escaped (it is one of the geometry's symbols anyway).
        """
        n = self.geometry.size
        statics = cell_statics(self.geometry)
        invalid, differs = self.invalid, self.differs
        safe = _shown_symbols(self.geometry)  # symbols need no escaping: digits, letters
        out = []
        for index, (text, kind) in enumerate(zip(self.texts, self.kinds, strict=True)):
            if index % n == 0:
                out.append("\n    </tr>\n    <tr>" if index else "\n    <tr>")
            tail, label, total = statics[index]
            shown = text if text in safe else escape(text)
            out.append(_td(tail, label, shown, kind, index in invalid, index in differs, total))
        if out:
            out.append("\n    </tr>")
        return Markup("".join(out))


def _td(
    tail: str, label: str, shown: str, kind: str, bad: bool, diff: bool, total: str = ""
) -> str:
    """One read-only cell (see :meth:`BoardView.rows_html`); ``shown`` is already escaped;
    ``total``: the cage sum drawn in it (a cage's first cell)."""
    return (
        f'\n      <td class="{_classes(kind, tail, bad, diff)}" '
        f'aria-label="{label}: {shown or "blank"}'
        f"{' (solved)' if kind == 'solved' else ''}{' (differs)' if diff else ''}"
        f'{" (conflict)" if bad else ""}">{cage_sum_html(total)}{shown}</td>'
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


@byte_cache(2 * 1024 * 1024)  # per geometry; jigsaw geometries come from user input
def cell_statics(geometry: Geometry) -> tuple[tuple[str, str, str], ...]:
    """Per cell, what never changes with the puzzle: the class tail after ``cell <kind>``
    (thick edges, shading, cage edges, each with its leading space), the accessible label,
    and the cage's sum shown in its first cell ("" elsewhere)."""
    n = geometry.size
    cages = cage_marks(geometry)
    out = []
    for index, (edges, shade) in enumerate(
        zip(cell_borders(geometry), cell_shading(geometry), strict=True)
    ):
        cage_edges, total, shown_sum = cages[index]
        tail = "".join(" " + part for part in (edges, shade, cage_edges) if part)
        label = f"Row {index // n + 1}, column {index % n + 1}"
        if total:
            label += f", cage of {total}"
        out.append((tail, label, shown_sum))
    return tuple(out)


@byte_cache(2 * 1024 * 1024)  # per geometry; cages come from user input
def cage_sum_html(total: str) -> str:
    """The sum drawn in a cage's first cell (hidden from screen readers: labels say it)."""
    return f'<span class="cage-sum" aria-hidden="true">{total}</span>' if total else ""


def board_view(
    geometry: Geometry,
    givens: str,
    solution: str | None = None,
    *,
    invalid: Iterable[int] = (),
    differs: Iterable[int] = (),
) -> BoardView:
    """A board of givens, optionally completed by ``solution`` (its cells marked ``solved``)."""
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
    return BoardView(geometry, tuple(texts), tuple(kinds), frozenset(invalid), frozenset(differs))


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
