"""An obviously correct solution counter, for cross-checking the engine.

It knows nothing of masks, singles or the engine's tables: it fills the first blank cell with
every symbol no house-mate holds and recurses. Exponential, so only for small grids (4x4) and
nearly complete larger ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_web.core.board import Geometry


def count_solutions(grid: Sequence[int], geometry: Geometry, limit: int = 2) -> int:
    """The number of completions of ``grid`` (givens must not clash), counting up to ``limit``."""
    cells = list(grid)
    houses = [h.cells for h in geometry.houses]
    # Every house each cell belongs to, by plain membership tests (no cached tables).
    mates = [
        sorted({c for h in houses if cell in h for c in h if c != cell})
        for cell in range(geometry.cells)
    ]

    def count(found: int) -> int:
        try:
            blank = cells.index(0)
        except ValueError:
            return found + 1
        used = {cells[m] for m in mates[blank]}
        for value in range(1, geometry.size + 1):
            if value not in used:
                cells[blank] = value
                found = count(found)
                cells[blank] = 0
                if found >= limit:
                    break
        return found

    return count(0)


def status_of(grid: Sequence[int], geometry: Geometry) -> str:
    """``solved`` / ``multiple`` / ``unsolvable`` as the reference counter sees them."""
    return {0: "unsolvable", 1: "solved"}.get(count_solutions(grid, geometry), "multiple")
