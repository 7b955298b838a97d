"""The solver as proof-reader: a reading whose givens conflict, or that has no solution or
several, is probably misread somewhere.

``proofread`` takes each cell's choices (value, probability), best first, and asks the
solver about the first choices. Unless that reading has exactly one solution it tries the
other choices of the least certain cells, one, two or three cells at a time, cheapest first
(cost: the log-probability given up), and keeps the first reading with exactly one
solution; the cells it changed are reported so the person checks them. The search is
bounded by a count of solver calls and by the caller's deadline; when it finds nothing,
the first reading stands with its status.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sudoku_web.core.solver import solve

Status = Literal["unique", "conflict", "no_solution", "several", "unchecked"]
Choice = tuple[int, float]  # (value 0-9, probability); 0 is an empty cell

SUSPECTS = 10  # least certain cells whose other choices are tried
MAX_CHANGED = 3  # cells changed at once
MAX_TRIES = 250  # solver calls
# One solver call's deadline: a 9x9 takes about a millisecond, but the first call in a process
# also builds the engine's tables (~20 ms), and a busy machine stretches both.
FIRST_SOLVE_MS = 500.0
SOLVE_MS = 100.0

_STATUS: dict[str, Status] = {
    "solved": "unique",
    "invalid": "conflict",
    "unsolvable": "no_solution",
    "multiple": "several",
    "gave_up": "unchecked",
}


@dataclass(frozen=True)
class Proofread:
    """The values chosen, the solver's verdict on them, the cells changed and the doubtful."""

    values: tuple[int, ...]
    status: Status
    changed: tuple[int, ...]
    conflicts: tuple[int, ...]  # cells of conflicting givens in the values chosen


def verdict(
    values: Sequence[int], deadline: float | None, budget_ms: float = SOLVE_MS
) -> tuple[Status, tuple[int, ...]]:
    """The solver's status for ``values`` and, for a conflict, the cells involved."""
    left = budget_ms
    if deadline is not None:
        left = min(budget_ms, (deadline - time.perf_counter()) * 1000)
    if left <= 0:
        return "unchecked", ()
    result = solve(list(values), deadline_ms=left)
    cells = tuple(sorted({cell for error in result.errors for cell in error.cells}))
    return _STATUS.get(result.status, "unchecked"), cells


def proofread(choices: Sequence[Sequence[Choice]], deadline: float | None = None) -> Proofread:
    """The most probable reading with exactly one solution, within the bounds (see module)."""
    first = tuple(options[0][0] for options in choices)
    status, conflicts = verdict(first, deadline, FIRST_SOLVE_MS)
    if status in ("unique", "unchecked"):
        return Proofread(first, status, (), conflicts)
    tries = 0
    for _, changes in _alternatives(choices, conflicts):
        if tries >= MAX_TRIES or (deadline is not None and time.perf_counter() >= deadline):
            break
        values = list(first)
        for cell, value in changes:
            values[cell] = value
        tries += 1
        if verdict(values, deadline)[0] == "unique":
            return Proofread(tuple(values), "unique", tuple(sorted(c for c, _ in changes)), ())
    return Proofread(first, status, (), conflicts)


def _alternatives(
    choices: Sequence[Sequence[Choice]], conflicts: Sequence[int]
) -> list[tuple[float, tuple[tuple[int, int], ...]]]:
    """Sets of (cell, other value) for the suspects, cheapest first."""
    options: list[tuple[float, int, int]] = []  # (cost, cell, value)
    for cell, cell_choices in enumerate(choices):
        if len(cell_choices) < 2:
            continue
        top = max(cell_choices[0][1], 1e-9)
        for value, p in cell_choices[1:]:
            cost = math.log(top) - math.log(max(p, 1e-9))
            if cell in conflicts:
                cost *= 0.5  # a conflicting cell is a likelier culprit
            options.append((cost, cell, value))
    suspects = heapq.nsmallest(SUSPECTS, options)
    sets: list[tuple[float, tuple[tuple[int, int], ...]]] = []
    for size in range(1, MAX_CHANGED + 1):
        for combo in itertools.combinations(suspects, size):
            cells = [cell for _, cell, _ in combo]
            if len(set(cells)) == size:
                sets.append((sum(cost for cost, _, _ in combo), tuple((c, v) for _, c, v in combo)))
    sets.sort()
    return sets
