"""Native reference: MiniSat (through python-sat) on the standard Sudoku CNF encoding.

Variables ``v(r, c, d)`` for "cell (r, c) holds d"; clauses: every cell holds at least one
digit and at most one (pairwise), and every row, column and box holds every digit at least
once and at most once (pairwise). One solver holds these base clauses for a whole run; a
puzzle's givens are *assumptions*, so nothing is rebuilt per puzzle. Uniqueness is the same
job the engine does: a first call finds a solution, a second call with a blocking clause
(guarded by a fresh activation literal, so it binds only this puzzle) must find none.
Benchmark-only (the ``bench`` extra); the app never imports it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any


def _var(r: int, c: int, d: int) -> int:
    return 81 * r + 9 * c + d + 1


def base_clauses() -> list[list[int]]:
    """The standard 9x9 encoding (cells, rows, columns, boxes; at-least-one and pairwise)."""
    clauses: list[list[int]] = []
    units: list[list[tuple[int, int]]] = []
    units += [[(r, c) for c in range(9)] for r in range(9)]
    units += [[(r, c) for r in range(9)] for c in range(9)]
    units += [
        [(br + i, bc + j) for i in range(3) for j in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    for r in range(9):
        for c in range(9):
            cell = [_var(r, c, d) for d in range(9)]
            clauses.append(cell)
            clauses += [[-a, -b] for a, b in combinations(cell, 2)]
    for unit in units:
        for d in range(9):
            places = [_var(r, c, d) for r, c in unit]
            clauses.append(places)
            clauses += [[-a, -b] for a, b in combinations(places, 2)]
    return clauses


class SatSolver:
    """A MiniSat instance loaded once with the base clauses; ``count`` checks uniqueness."""

    def __init__(self) -> None:
        from pysat.solvers import Minisat22

        self.solver: Any = Minisat22(bootstrap_with=base_clauses())
        self.next_var = 730  # activation literals live above the 729 cell variables

    def count(self, puzzle: str) -> tuple[int, str | None]:
        """(0, 1 or 2 meaning 'at least two', the first solution) for an 81-character text."""
        givens = [
            _var(i // 9, i % 9, int(ch) - 1) for i, ch in enumerate(puzzle) if ch in "123456789"
        ]
        if not self.solver.solve(assumptions=givens):
            return 0, None
        model = self.solver.get_model()
        true = [v for v in model if 0 < v <= 729]
        act = self.next_var
        self.next_var += 1
        self.solver.add_clause([-act] + [-v for v in true])
        found = 2 if self.solver.solve(assumptions=givens + [act]) else 1
        # Retire the blocking clause for good: later puzzles never assume ``act``.
        self.solver.add_clause([-act])
        digits = [0] * 81
        for v in true:
            cell, d = divmod(v - 1, 9)
            digits[cell] = d + 1
        return found, "".join(map(str, digits))

    def close(self) -> None:
        """Free the native solver."""
        self.solver.delete()
