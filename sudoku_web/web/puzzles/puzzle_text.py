"""Reading puzzle text: the grid it holds and every problem with it.

:func:`read` turns text into a :class:`Reading` (the grid, and every problem found by the
board parser: bad symbols, wrong length, conflicting givens, an empty grid);
:func:`canonical` is the share-link spelling of a grid. Forms, share links and the APIs all
read through here, so every page reports a puzzle's problems in the same words.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...core.board import (
    Geometry,
    InvalidPuzzle,
    PuzzleError,
    clean_cells,
    find_conflicts,
    format_puzzle,
    parse_puzzle,
    puzzle_error,
    standard,
)
from ...core.cages import grid_errors
from ...core.wording import N_, words
from ..runtime.memo import byte_cache

# A puzzle is 81 characters, a pretty-printed 16x16 grid a few hundred. Longer text is not a
# puzzle, and is refused with one message rather than one per stray character.
MAX_TEXT = 2_000


def check_grid(grid: Sequence[int], geometry: Geometry) -> None:
    """Raise :class:`InvalidPuzzle` for what the core's :func:`~sudoku_web.core.cages.
    grid_errors` finds: an empty grid without cages, conflicting givens, broken cages."""
    errors = grid_errors(grid, geometry)
    if errors:
        raise InvalidPuzzle(errors)


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
    with at least one given (or none, on a board with cages or rules). Its conflicts, if any, are
    left to the engine, which reports them as :func:`read` would (status ``invalid``, the
    same :class:`PuzzleError` list)."""
    return (
        len(text) == geometry.cells
        and not text.strip(_canonical_chars(geometry))
        and (bool(geometry.cages or geometry.rules) or bool(text.strip("0")))
    )


@byte_cache(64 * 1024)
def _canonical_chars(geometry: Geometry) -> str:
    return "0" + "".join(geometry.symbols)


def read(text: str, geometry: Geometry | None = None) -> Reading:
    """Parse and check puzzle text; the grid (when it parsed) and every problem found."""
    geo = geometry or standard(9)
    if len(text) > MAX_TEXT:
        too_long = N_("That is {count} characters, too long to be a puzzle.")
        return Reading(None, (puzzle_error("length", words(too_long, count=len(text))),))
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
    chars = clean_cells(text, geometry.cells)
    grid = parse_puzzle("".join("." if i in bad else ch for i, ch in enumerate(chars)), geometry)
    return tuple(find_conflicts(grid, geometry))


def givens_or_empty(text: str, geometry: Geometry) -> str:
    """``text``, or an empty grid when none is given on a board with cages (a killer needs no
    givens; on other boards the missing puzzle stays missing, and is reported)."""
    return text or ("0" * geometry.cells if geometry.cages or geometry.rules else "")


def canonical(grid: Iterable[int]) -> str:
    """The share-link spelling of a grid: symbols with ``0`` for blanks.

    Digits only (for 9x9), because links ending in dots are cut short by chat and mail
    linkifiers.
    """
    return format_puzzle(grid, blank="0")
