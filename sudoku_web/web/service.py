"""The one path from puzzle text to a presented result, shared by the HTML views and the API.

read → solve → present:

* :func:`read` turns text into a :class:`Reading`: the grid, and every problem with it (bad
  symbols, wrong length, conflicting givens, an empty grid), found by board.py;
* :func:`solve_puzzle` calls the engine's public ``solve()`` with the request budget from the
  app config, so no request can search without bounds;
* :func:`board_view` and :func:`result_json` shape a result for a template or for JSON.

Everything here is a plain function of its arguments (the budget is passed in), so the hosting
work can wrap :func:`solve_puzzle` in a bounded cache keyed on the canonical text, and variants
only need to pass another :class:`~sudoku_web.core.board.Geometry`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ..core import doctor
from ..core.board import (
    Geometry,
    InvalidPuzzle,
    PuzzleError,
    clean_cells,
    find_conflicts,
    format_puzzle,
    parse_puzzle,
    standard,
)
from ..core.doctor import Diagnosis, Suggestion, diagnose, suggest_given
from ..core.solver import DEFAULT_MAX_NODES as _ENGINE_MAX_NODES
from ..core.solver import SolveResult, solve

# A request never searches without a budget, so one request holds a worker for a fraction of
# a second at most (issue 4); SUDOKU_WEB_SOLVE_MAX_NODES / _DEADLINE_MS change it. The node
# budget is the engine's own (20,000: ~0.5 s on the slowest 9x9 inputs known, while the hardest
# top95 puzzle needs 353 nodes, 2 ms). The deadline is the safety net for 16x16 grids, whose
# nodes cost more; it stops first only there or on an overloaded box, and then the page says so
# and is sent with no-store (a deadline result depends on the load, see cache.is_deterministic).
DEFAULT_MAX_NODES = _ENGINE_MAX_NODES
DEFAULT_DEADLINE_MS = 250

# A puzzle is 81 characters, a pretty-printed 16x16 grid a few hundred. Longer text is not a
# puzzle, and is refused with one message rather than one per stray character.
MAX_TEXT = 2_000


@dataclass(frozen=True, repr=False)  # __repr__ below: part of every ETag, so kept cheap
class Budget:
    """How much work one request may ask of the solver."""

    max_nodes: int = DEFAULT_MAX_NODES
    deadline_ms: float | None = DEFAULT_DEADLINE_MS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Budget:
        """The budget named by ``SOLVE_MAX_NODES`` / ``SOLVE_DEADLINE_MS`` in an app config."""
        return _solve_budget(
            int(config.get("SOLVE_MAX_NODES", DEFAULT_MAX_NODES)),
            float(config.get("SOLVE_DEADLINE_MS", DEFAULT_DEADLINE_MS)),
        )

    def __repr__(self) -> str:
        return self._text

    @functools.cached_property
    def _text(self) -> str:
        # What dataclass would write, kept: the text is part of every ETag, and the
        # generated __repr__'s recursion guard cost a third of one.
        return (
            f"{type(self).__name__}(max_nodes={self.max_nodes!r}, deadline_ms={self.deadline_ms!r})"
        )


def empty_grid_error() -> PuzzleError:
    """The error for a grid with no givens (it has countless solutions; almost surely a slip)."""
    return PuzzleError(
        "empty", "The grid is empty: enter the puzzle's givens in the grid or paste it."
    )


def check_grid(grid: Sequence[int], geometry: Geometry) -> None:
    """Raise :class:`InvalidPuzzle` for an empty grid or conflicting givens."""
    if not any(grid):
        raise InvalidPuzzle([empty_grid_error()])
    conflicts = find_conflicts(grid, geometry)
    if conflicts:
        raise InvalidPuzzle(conflicts)


@dataclass(frozen=True)
class Reading:
    """What a puzzle text turned out to be: a grid, and the problems with it (if any)."""

    grid: tuple[int, ...] | None  # the parsed grid, also when its givens conflict
    errors: tuple[PuzzleError, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the puzzle can be solved (parsed, not empty, no conflicts)."""
        return self.grid is not None and not self.errors

    @functools.cached_property  # a share link's view asks two or three times
    def canonical(self) -> str | None:
        """The share-link spelling of the parsed grid, None when it did not parse."""
        return canonical(self.grid) if self.grid is not None else None


def is_canonical_text(text: str, geometry: Geometry) -> bool:
    """True when ``text`` is already a share link's spelling (:func:`canonical`) of a grid
    with at least one given. Its conflicts, if any, are left to the engine, which reports
    them as :func:`read` would (status ``invalid``, the same :class:`PuzzleError` list)."""
    return (
        len(text) == geometry.cells
        and not text.strip(_canonical_chars(geometry))
        and bool(text.strip("0"))
    )


@functools.lru_cache(maxsize=16)
def _canonical_chars(geometry: Geometry) -> str:
    return "0" + "".join(geometry.symbols)


def read(text: str, geometry: Geometry | None = None) -> Reading:
    """Parse and check puzzle text; the grid (when it parsed) and every problem found."""
    geo = geometry or standard(9)
    if len(text) > MAX_TEXT:
        message = f"That is {len(text):,} characters, too long to be a puzzle."
        return Reading(None, (PuzzleError("length", message),))
    try:
        grid = parse_puzzle(text, geo)
    except InvalidPuzzle as exc:
        return Reading(None, exc.errors + _conflicts_besides(text, geo, exc.errors))
    try:
        check_grid(grid, geo)
    except InvalidPuzzle as exc:
        return Reading(tuple(grid), exc.errors)
    return Reading(tuple(grid))


def _conflicts_besides(
    text: str, geometry: Geometry, errors: Sequence[PuzzleError]
) -> tuple[PuzzleError, ...]:
    """Conflicts among the good givens of a text whose only problems are bad symbols.

    So one submission reports a stray letter and a repeated digit together, instead of the
    second only after the first is fixed.
    """
    if not errors or any(e.code != "symbol" or not e.cells for e in errors):
        return ()
    bad = {cell for e in errors for cell in e.cells}
    chars = clean_cells(text)
    grid = parse_puzzle("".join("." if i in bad else ch for i, ch in enumerate(chars)), geometry)
    return tuple(find_conflicts(grid, geometry))


def canonical(grid: Iterable[int]) -> str:
    """The share-link spelling of a grid: symbols with ``0`` for blanks.

    Digits only (for 9x9), because links ending in dots are cut short by chat and mail
    linkifiers.
    """
    return format_puzzle(grid, blank="0")


def solve_puzzle(
    puzzle: str, budget: Budget, geometry: Geometry | None = None, record: int = 0
) -> SolveResult:
    """Solve a canonical puzzle within ``budget``; the single call into the engine.
    ``record`` > 0 also keeps the search's story (at most that many events)."""
    return solve(
        puzzle,
        geometry=geometry or standard(9),
        max_nodes=budget.max_nodes,
        deadline_ms=budget.deadline_ms,
        record=record,
    )


# ---------------------------------------------------------------------------------------------
# Presenting a grid


@dataclass(frozen=True)
class CellView:
    """One cell as a template draws it."""

    index: int
    row: int  # 1-based, for labels
    col: int
    text: str  # the symbol shown, "" for blank
    kind: str  # "given", "solved" (filled in by the solver) or "blank"
    borders: str  # CSS classes for thick edges: "bt" (top) and/or "bl" (left)
    invalid: bool = False
    differs: bool = False  # multiple: this cell differs between the two solutions shown
    shade: str = ""  # CSS class for variant shading: "shade" (X/hyper), "rg-<k>" (jigsaw)

    @property
    def label(self) -> str:
        """The accessible name of the cell."""
        return f"Row {self.row}, column {self.col}"

    @property
    def classes(self) -> str:
        """All CSS classes of the cell's box in the grid."""
        parts = ["cell", self.kind, self.borders, self.shade]
        if self.invalid:
            parts.append("invalid")
        if self.differs:
            parts.append("differs")
        return " ".join(p for p in parts if p)


@dataclass(frozen=True)
class BoardView:
    """A whole grid for the ``grid`` macro: its geometry and what each cell shows.

    Kept as flat per-cell tuples; :attr:`cells` (one :class:`CellView` each, for the editable
    form's loop) is built only when a template asks for it, and read-only grids are drawn by
    :meth:`rows_html` from per-geometry tables instead (issue 4: drawing 81 cells through the
    macro was half the cost of an uncached result page).
    """

    geometry: Geometry
    texts: tuple[str, ...]  # the symbol shown per cell, "" for blank
    kinds: tuple[str, ...]  # "given", "solved" or "blank" per cell
    invalid: frozenset[int] = frozenset()
    differs: frozenset[int] = frozenset()

    @functools.cached_property
    def cells(self) -> tuple[CellView, ...]:
        """One :class:`CellView` per cell, in reading order."""
        n = self.geometry.size
        borders = cell_borders(self.geometry)
        shading = cell_shading(self.geometry)
        return tuple(
            CellView(
                index,
                index // n + 1,
                index % n + 1,
                text,
                kind,
                borders[index],
                index in self.invalid,
                index in self.differs,
                shading[index],
            )
            for index, (text, kind) in enumerate(zip(self.texts, self.kinds, strict=True))
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
        statics = _cell_statics(self.geometry)
        invalid, differs = self.invalid, self.differs
        safe = _shown_symbols(self.geometry)  # symbols need no escaping: digits, letters
        out = []
        for index, (text, kind) in enumerate(zip(self.texts, self.kinds, strict=True)):
            if index % n == 0:
                out.append("\n    </tr>\n    <tr>" if index else "\n    <tr>")
            tail, label = statics[index]
            shown = text if text in safe else escape(text)
            out.append(_td(tail, label, shown, kind, index in invalid, index in differs))
        if out:
            out.append("\n    </tr>")
        return Markup("".join(out))


def _td(tail: str, label: str, shown: str, kind: str, bad: bool, diff: bool) -> str:
    """One read-only cell (see :meth:`BoardView.rows_html`); ``shown`` is already escaped."""
    return (
        f'\n      <td class="cell {kind}{tail}{" invalid" if bad else ""}'
        f'{" differs" if diff else ""}" aria-label="{label}: {shown or "blank"}'
        f"{' (solved)' if kind == 'solved' else ''}{' (differs)' if diff else ''}"
        f'{" (conflict)" if bad else ""}">{shown}</td>'
    )


def solution_rows_html(geometry: Geometry, givens: str, solution: str) -> Markup:
    """``board_view(geometry, givens, solution).rows_html()`` for canonical strings, from a
    per-geometry table of each cell's markup per (given, solution) pair: one C-level pass
    over the cells (a solved result page's grid, its hot path)."""
    try:
        cells = "".join(
            map(dict.__getitem__, _solved_cells(geometry), zip(givens, solution, strict=True))
        )
    except KeyError:  # not canonical (say a lower-case symbol): the general drawing
        return board_view(geometry, givens, solution).rows_html()
    return Markup(cells + _ROW_END)


_ROW_START, _ROW_BREAK, _ROW_END = "\n    <tr>", "\n    </tr>\n    <tr>", "\n    </tr>"


@functools.lru_cache(maxsize=16)  # bounded: jigsaw geometries come from user input
def _solved_cells(geometry: Geometry) -> tuple[dict[tuple[str, str], str], ...]:
    """Per cell, its ``<td>`` for each (given, solution) pair of canonical symbols: a given
    shows itself, a blank ("0") the solution's symbol as solved; a row's first cell also
    starts the row (9x9: 81 dicts of 18)."""
    n = geometry.size
    out = []
    for index, (tail, label) in enumerate(_cell_statics(geometry)):
        start = "" if index % n else (_ROW_BREAK if index else _ROW_START)
        cells = {}
        for sym in geometry.symbols:
            cells[sym, sym] = start + _td(tail, label, sym, "given", False, False)
            cells["0", sym] = start + _td(tail, label, sym, "solved", False, False)
        out.append(cells)
    return tuple(out)


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
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


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
def cell_shading(geometry: Geometry) -> tuple[str, ...]:
    """Shading class per cell: X diagonals and hyper windows ``shade``, jigsaw regions
    ``rg-<k>`` (a tint per region), so the extra houses are visible, as on paper."""
    if geometry.variant == "jigsaw" and geometry.regions is not None:
        return tuple(f"rg-{r % 16}" for r in geometry.regions)
    shaded = {c for h in geometry.houses if h.kind in ("diagonal", "window") for c in h.cells}
    return tuple("shade" if c in shaded else "" for c in range(geometry.cells))


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
def _shown_symbols(geometry: Geometry) -> dict[str, str]:
    """Each character a grid string may hold for a symbol (either case) -> the symbol shown."""
    return {ch: sym for sym in geometry.symbols for ch in {sym, sym.lower()}}


def _symbols(text: str, geometry: Geometry) -> list[str]:
    """The displayed character per cell of a puzzle/solution string ("" for blanks)."""
    shown = _shown_symbols(geometry)
    return [shown.get(ch, "") for ch in text]


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
def _cell_statics(geometry: Geometry) -> tuple[tuple[str, str], ...]:
    """Per cell, what never changes with the puzzle: the class tail after ``cell <kind>``
    (thick edges, then shading, each with its leading space) and the accessible label."""
    n = geometry.size
    out = []
    for index, (edges, shade) in enumerate(
        zip(cell_borders(geometry), cell_shading(geometry), strict=True)
    ):
        tail = "".join(" " + part for part in (edges, shade) if part)
        out.append((tail, f"Row {index // n + 1}, column {index % n + 1}"))
    return tuple(out)


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


# ---------------------------------------------------------------------------------------------
# Presenting for JSON


def error_json(
    errors: Iterable[PuzzleError], geometry: Geometry | None = None
) -> list[dict[str, Any]]:
    """Errors as JSON objects: code, message and the cells involved (``r4c7`` names)."""
    geo = geometry or standard(9)
    return [
        {"code": e.code, "message": e.message, "cells": [geo.cell_name(c) for c in e.cells]}
        for e in errors
    ]


def stats_json(result: SolveResult) -> dict[str, Any]:
    """The solver's statistics as a JSON object (every field the engine reports)."""
    stats = result.stats
    fields = getattr(stats, "__dataclass_fields__", {})
    return {name: getattr(stats, name) for name in fields}


def result_json(result: SolveResult, share_url: str | None) -> dict[str, Any]:
    """The API's answer for a solve: status, canonical puzzle, solution(s), stats, link."""
    body: dict[str, Any] = {
        "status": result.status,
        "puzzle": result.puzzle.replace(".", "0") if result.puzzle else None,
        "solution": result.solution,
        "solutions": list(result.solutions),
        "errors": error_json(result.errors, result.geometry),
        "stats": stats_json(result),
        "share_url": share_url,
    }
    if result.reason:
        body["reason"] = result.reason
    return body


# ---------------------------------------------------------------------------------------------
# The typo doctor, within a request's budget


# The doctor's wall-clock bound inside a request, lower than the library's own 1.5 s so that
# no request holds a worker for long (issue 4). Every complete diagnosis of the benchmark set
# (benchmarks/data/doctor_cases.txt) takes at most ~0.08 s (p95 0.034 s); the one case that
# needs more is cut short by the node bounds anyway (complete: false) and would otherwise keep
# its worker for the whole deadline. Past it the page and the API say the answer is incomplete.
DEFAULT_DOCTOR_DEADLINE_MS = 350.0


@dataclass(frozen=True, repr=False)  # __repr__ below: part of every ETag, so kept cheap
class DoctorBudget:
    """How much work the doctor may do for one request, on top of the solve's budget."""

    max_nodes: int = doctor.DEFAULT_MAX_NODES
    deadline_ms: float | None = DEFAULT_DOCTOR_DEADLINE_MS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> DoctorBudget:
        """The budget named by ``DOCTOR_MAX_NODES`` / ``DOCTOR_DEADLINE_MS`` in an app config."""
        return _doctor_budget(
            int(config.get("DOCTOR_MAX_NODES", doctor.DEFAULT_MAX_NODES)),
            float(config.get("DOCTOR_DEADLINE_MS", DEFAULT_DOCTOR_DEADLINE_MS)),
        )

    __repr__ = Budget.__repr__
    _text = Budget._text


# One instance per configured budget (so its repr is computed once), bounded.
@functools.lru_cache(maxsize=16)
def _solve_budget(max_nodes: int, deadline_ms: float | None) -> Budget:
    return Budget(max_nodes, deadline_ms)


@functools.lru_cache(maxsize=16)
def _doctor_budget(max_nodes: int, deadline_ms: float | None) -> DoctorBudget:
    return DoctorBudget(max_nodes, deadline_ms)


def diagnose_result(result: SolveResult, budget: DoctorBudget) -> Diagnosis | None:
    """The doctor's answer for an ``unsolvable`` result; None for any other status."""
    if result.status != "unsolvable" or result.geometry is None:
        return None
    try:
        return diagnose(
            result.puzzle,
            result.geometry,
            max_nodes=budget.max_nodes,
            deadline_ms=budget.deadline_ms,
        )
    except ValueError:
        # Only when the engine and the doctor disagree about solvability (a solve that the
        # doctor's smaller budget finished differently); the page then simply has no doctor.
        return None


def suggest_for(result: SolveResult, budget: DoctorBudget) -> Suggestion | None:
    """One extra given that makes a ``multiple`` result unique; None otherwise or if none found."""
    if result.status != "multiple" or result.geometry is None:
        return None
    return suggest_given(
        result.puzzle,
        result.geometry,
        result.solutions,
        max_nodes=budget.max_nodes,
        deadline_ms=budget.deadline_ms,
    )
