"""Baseline: Norvig's constraint-propagation solver, written from the essay's description.

"Solving Every Sudoku Puzzle" (Peter Norvig): squares named ``A1``..``I9``; ``units`` (row,
column, box) and ``peers`` per square; the grid's values are a dict square -> string of
remaining digits. ``assign`` eliminates every other digit; ``eliminate`` removes one digit and
propagates (1) a square reduced to one digit is removed from its peers, (2) a unit with only
one place left for a digit puts it there. ``search`` tries the square with the fewest
possibilities, depth first, on copies of the dict, and returns the *first* solution: it does
not check uniqueness. Benchmark-only; the engine never imports it.
"""

from __future__ import annotations

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
COLS = DIGITS

Values = dict[str, str]


def _cross(a: str, b: str) -> list[str]:
    return [x + y for x in a for y in b]


SQUARES = _cross(ROWS, COLS)
UNITLIST = (
    [_cross(ROWS, c) for c in COLS]
    + [_cross(r, COLS) for r in ROWS]
    + [_cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")]
)
UNITS = {s: [u for u in UNITLIST if s in u] for s in SQUARES}
PEERS = {s: set(sum(UNITS[s], [])) - {s} for s in SQUARES}


def parse_grid(grid: str) -> Values | None:
    """Values after assigning every given, or None on a contradiction."""
    values = {s: DIGITS for s in SQUARES}
    for s, d in zip(SQUARES, grid, strict=True):
        if d in DIGITS and assign(values, s, d) is None:
            return None
    return values


def assign(values: Values, s: str, d: str) -> Values | None:
    """Eliminate every other digit from ``s``; None on a contradiction."""
    others = values[s].replace(d, "")
    if all(eliminate(values, s, d2) is not None for d2 in others):
        return values
    return None


def eliminate(values: Values, s: str, d: str) -> Values | None:
    """Remove ``d`` from ``s`` and propagate; None on a contradiction."""
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return None
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2) is not None for s2 in PEERS[s]):
            return None
    for u in UNITS[s]:
        places = [s2 for s2 in u if d in values[s2]]
        if not places:
            return None
        if len(places) == 1 and assign(values, places[0], d) is None:
            return None
    return values


def search(values: Values | None) -> Values | None:
    """Depth-first search on the square with fewest digits; the first solution or None."""
    if values is None:
        return None
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        found = search(assign(values.copy(), s, d))
        if found is not None:
            return found
    return None


def solve(grid: str) -> str | None:
    """The first solution of an 81-character puzzle as a string, or None."""
    found = search(parse_grid(grid))
    return None if found is None else "".join(found[s] for s in SQUARES)
