"""The one path from puzzle text to a presented result, shared by the HTML views and the API.

read → solve → present:

* :func:`read` turns text into a :class:`Reading`: the grid, and every problem with it (bad
  symbols, wrong length, conflicting givens, an empty grid), found by board.py;
* :func:`solve_puzzle` calls the engine's public ``solve()`` with the request budget from the
  app config, so no request can search without bounds;
* :func:`board_view` and :func:`result_json` shape a result for a template or for JSON.

Everything here is a plain function of its arguments (the budget is passed in), so the hosting
work can wrap :func:`solve_puzzle` in a bounded cache keyed on the canonical text, and variants
only need to pass another :class:`~sudoku_web.board.Geometry`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import doctor
from .board import (
    Geometry,
    InvalidPuzzle,
    PuzzleError,
    clean_cells,
    find_conflicts,
    format_puzzle,
    parse_puzzle,
    standard,
)
from .doctor import Diagnosis, Suggestion, diagnose, suggest_given
from .solver import DEFAULT_MAX_NODES as _ENGINE_MAX_NODES
from .solver import SolveResult, solve

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


@dataclass(frozen=True)
class Budget:
    """How much work one request may ask of the solver."""

    max_nodes: int = DEFAULT_MAX_NODES
    deadline_ms: float | None = DEFAULT_DEADLINE_MS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Budget:
        """The budget named by ``SOLVE_MAX_NODES`` / ``SOLVE_DEADLINE_MS`` in an app config."""
        return cls(
            int(config.get("SOLVE_MAX_NODES", DEFAULT_MAX_NODES)),
            float(config.get("SOLVE_DEADLINE_MS", DEFAULT_DEADLINE_MS)),
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

    @property
    def canonical(self) -> str | None:
        """The share-link spelling of the parsed grid, None when it did not parse."""
        return canonical(self.grid) if self.grid is not None else None


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


def solve_puzzle(puzzle: str, budget: Budget, geometry: Geometry | None = None) -> SolveResult:
    """Solve a canonical puzzle within ``budget``; the single call into the engine."""
    return solve(
        puzzle,
        geometry=geometry or standard(9),
        max_nodes=budget.max_nodes,
        deadline_ms=budget.deadline_ms,
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
    """A whole grid for the ``grid`` macro: its geometry and its cells, row by row."""

    geometry: Geometry
    cells: tuple[CellView, ...]

    @property
    def rows(self) -> list[tuple[CellView, ...]]:
        """The cells cut into rows."""
        n = self.geometry.size
        return [self.cells[r * n : (r + 1) * n] for r in range(n)]


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


def _symbols(text: str, geometry: Geometry) -> list[str]:
    """The displayed character per cell of a puzzle/solution string ("" for blanks)."""
    allowed = set(geometry.symbols)
    return [ch.upper() if ch.upper() in allowed else "" for ch in text]


def board_view(
    geometry: Geometry,
    givens: str,
    solution: str | None = None,
    *,
    invalid: Iterable[int] = (),
    differs: Iterable[int] = (),
) -> BoardView:
    """A board of givens, optionally completed by ``solution`` (its cells marked ``solved``)."""
    given_syms = _symbols(givens, geometry)
    solved_syms = _symbols(solution, geometry) if solution else given_syms
    bad, diff = set(invalid), set(differs)
    borders = cell_borders(geometry)
    shading = cell_shading(geometry)
    cells = []
    for index in range(geometry.cells):
        row, col = divmod(index, geometry.size)
        given = given_syms[index] if index < len(given_syms) else ""
        text = given or (solved_syms[index] if index < len(solved_syms) else "")
        kind = "given" if given else ("solved" if text else "blank")
        cells.append(
            CellView(
                index,
                row + 1,
                col + 1,
                text,
                kind,
                borders[index],
                index in bad,
                index in diff,
                shading[index],
            )
        )
    return BoardView(geometry, tuple(cells))


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


@dataclass(frozen=True)
class DoctorBudget:
    """How much work the doctor may do for one request, on top of the solve's budget."""

    max_nodes: int = doctor.DEFAULT_MAX_NODES
    deadline_ms: float | None = doctor.DEFAULT_DEADLINE_MS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> DoctorBudget:
        """The budget named by ``DOCTOR_MAX_NODES`` / ``DOCTOR_DEADLINE_MS`` in an app config."""
        return cls(
            int(config.get("DOCTOR_MAX_NODES", doctor.DEFAULT_MAX_NODES)),
            float(config.get("DOCTOR_DEADLINE_MS", doctor.DEFAULT_DEADLINE_MS)),
        )


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
