"""The solver engine: reduce passes plus recursive guessing, over any geometry.

Public API (stable)::

    from sudoku_web.solver import solve
    result = solve("4.....8.5.3...")          # classic 9x9
    result = solve(text, variant="x")           # or geometry=..., size=..., regions=...
    result.status      # "solved" | "multiple" | "unsolvable" | "invalid" | "gave_up"
    result.solution    # str or None (only when solved)
    result.solutions   # up to two distinct solutions
    result.stats       # SolveStats
    result.errors      # tuple[PuzzleError, ...] (invalid only)

This first implementation keeps one candidate bitmask per cell; it is correct and bounded,
and is the reference the faster representation is checked against.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .board import (
    Geometry,
    InvalidPuzzle,
    PuzzleError,
    find_conflicts,
    format_puzzle,
    geometry_for,
    infer_size,
    parse_puzzle,
)

Status = Literal["solved", "multiple", "unsolvable", "invalid", "gave_up"]

# Any 9x9 input ends well under a second at this budget; 16x16 with few givens may give up.
DEFAULT_MAX_NODES = 20_000


@dataclass
class SolveStats:
    """Work done by one solve."""

    reduce_passes: int = 0
    placed_by_reduce: int = 0
    guesses: int = 0
    backtracks: int = 0
    max_depth: int = 0
    elapsed_ms: float = 0.0


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`."""

    status: Status
    geometry: Geometry | None
    puzzle: str = ""  # the givens, "." for blanks ("" when the text did not parse)
    solutions: tuple[str, ...] = ()
    errors: tuple[PuzzleError, ...] = ()
    stats: SolveStats = field(default_factory=SolveStats)
    # unsolvable: "reduction" (contradiction before any guess) or "search" (exhausted);
    # gave_up: "nodes" or "deadline".
    reason: str = ""
    # gave_up: candidate bitmask per cell (bit v-1 = symbol v) at the deepest point reached.
    candidates: tuple[int, ...] | None = None

    @property
    def solution(self) -> str | None:
        """The unique solution, or None unless the status is ``solved``."""
        return self.solutions[0] if self.status == "solved" else None


class _Budget(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def solve(
    puzzle: str | Sequence[int],
    *,
    variant: str = "standard",
    size: int | None = None,
    regions: str | None = None,
    geometry: Geometry | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    deadline_ms: float | None = None,
) -> SolveResult:
    """Solve a puzzle, checking uniqueness; never raises for bad input (status ``invalid``).

    ``puzzle`` is text (row-major, ``.``/``0`` blank) or a grid of ints. The geometry is
    ``geometry`` if given, else built from ``variant``, ``size`` (default: inferred from the
    cell count, 9 when it cannot be) and ``regions`` (jigsaw). ``max_nodes`` bounds the
    guesses; ``deadline_ms`` bounds wall time.
    """
    started = time.perf_counter()
    try:
        if geometry is None:
            if size is None:
                size = (infer_size(puzzle) if isinstance(puzzle, str) else None) or 9
            geometry = geometry_for(variant, size, regions)
        if isinstance(puzzle, str):
            grid = parse_puzzle(puzzle, geometry)
        else:
            grid = list(puzzle)
            if len(grid) != geometry.cells or any(not 0 <= v <= geometry.size for v in grid):
                need = f"A grid needs {geometry.cells} values from 0 to {geometry.size}."
                raise InvalidPuzzle([PuzzleError("length", need)])
    except InvalidPuzzle as exc:
        return SolveResult("invalid", geometry, errors=exc.errors)
    text = format_puzzle(grid)
    conflicts = find_conflicts(grid, geometry)
    if conflicts:
        return SolveResult("invalid", geometry, text, errors=tuple(conflicts))
    search = _Search(geometry, max_nodes, deadline_ms, started)
    return search.run(grid, text)


class _Search:
    def __init__(
        self, geo: Geometry, max_nodes: int, deadline_ms: float | None, started: float
    ) -> None:
        self.geo = geo
        self.full = (1 << geo.size) - 1
        self.houses = [h.cells for h in geo.houses]
        self.peers = geo.peers
        self.max_nodes = max_nodes
        self.deadline = None if deadline_ms is None else started + deadline_ms / 1000
        self.started = started
        self.stats = SolveStats()
        self.solutions: list[list[int]] = []
        self.deepest: list[int] | None = None

    def run(self, grid: list[int], text: str) -> SolveResult:
        masks = [self.full] * self.geo.cells
        ok = True
        for cell, value in enumerate(grid):
            if value and not self.place(masks, cell, 1 << (value - 1)):
                ok = False
                break
        status: Status
        reason = ""
        try:
            if ok and self.reduce(masks):
                self.search(masks, 0)
            if not self.solutions:
                status, reason = "unsolvable", ("search" if self.stats.guesses else "reduction")
            elif len(self.solutions) == 1:
                status = "solved"
            else:
                status = "multiple"
        except _Budget as stop:
            status, reason = "gave_up", stop.reason
        self.stats.elapsed_ms = (time.perf_counter() - self.started) * 1000
        sols = tuple(format_puzzle(s) for s in self.solutions)
        for sol in self.solutions:
            if not verify(sol, grid, self.geo):  # pragma: no cover - would be an engine bug
                raise AssertionError(f"engine produced an invalid solution for {text}")
        if status == "gave_up":
            # A solution found before the budget ran out is real, but uniqueness is unknown.
            cands = tuple(self.deepest or masks)
            return SolveResult(status, self.geo, text, sols, (), self.stats, reason, cands)
        return SolveResult(status, self.geo, text, sols, (), self.stats, reason)

    def place(self, masks: list[int], cell: int, bit: int) -> bool:
        """Set ``cell`` to ``bit``, removing it from peers (and so on); False on a contradiction."""
        if not masks[cell] & bit:
            return False
        masks[cell] = bit
        for peer in self.peers[cell]:
            m = masks[peer]
            if m & bit:
                m &= ~bit
                masks[peer] = m
                if not m or (m & (m - 1) == 0 and not self.place(masks, peer, m)):
                    return False
        return True

    def reduce(self, masks: list[int]) -> bool:
        """Place hidden singles until nothing changes; False on a contradiction.

        Naked singles are propagated by :meth:`place` as soon as they appear.
        """
        stats = self.stats
        before = sum(1 for m in masks if m & (m - 1) == 0)
        changed = True
        while changed:
            changed = False
            stats.reduce_passes += 1
            for cells in self.houses:
                once = twice = 0
                for cell in cells:
                    m = masks[cell]
                    twice |= once & m
                    once |= m
                if once != self.full:
                    return False
                only = once & ~twice
                if not only:
                    continue
                for cell in cells:
                    m = masks[cell]
                    bit = m & only
                    if bit and m != bit:
                        if bit & (bit - 1):
                            return False  # two symbols can only go in one cell
                        if not self.place(masks, cell, bit):
                            return False
                        changed = True
        stats.placed_by_reduce += sum(1 for m in masks if m & (m - 1) == 0) - before
        return True

    def search(self, masks: list[int], depth: int) -> None:
        """Guess on the cell with fewest candidates; collect up to two solutions."""
        stats = self.stats
        stats.max_depth = max(stats.max_depth, depth)
        best, best_count = -1, self.geo.size + 1
        for cell, m in enumerate(masks):
            if m & (m - 1):
                count = m.bit_count()
                if count < best_count:
                    best, best_count = cell, count
                    if count == 2:
                        break
        if best < 0:
            self.solutions.append([m.bit_length() for m in masks])
            return
        stats.guesses += 1
        if stats.guesses > self.max_nodes:
            self.deepest = masks
            raise _Budget("nodes")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.deepest = masks
            raise _Budget("deadline")
        m = masks[best]
        while m:
            bit = m & -m
            m ^= bit
            trial = masks.copy()
            if self.place(trial, best, bit) and self.reduce(trial):
                self.search(trial, depth + 1)
                if len(self.solutions) >= 2:
                    return
            else:
                stats.backtracks += 1


def verify(solution: Sequence[int], givens: Sequence[int], geometry: Geometry) -> bool:
    """True when ``solution`` is complete, keeps every given, and fills every house exactly."""
    full = set(range(1, geometry.size + 1))
    if len(solution) != geometry.cells:
        return False
    if any(g and g != s for g, s in zip(givens, solution, strict=True)):
        return False
    return all({solution[c] for c in house.cells} == full for house in geometry.houses)
