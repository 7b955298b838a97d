"""A puzzle as other tools open it: the f-puzzles ``?load=`` link that a page's "Open in
f-puzzles" (``<share link>/fpuzzles``, web/pages/routes.py) redirects to.

The link is the core's writer (:func:`sudoku_web.core.rules.fpuzzles.load_link`), offered
only when f-puzzles holds the whole board: its houses and cages are exactly what its size,
region map and rules build (a killer drawn from old-style cages, or an X or hyper board
that is not spelled as rules, would lose a rule in f-puzzles, so it gets no link).
"""

from __future__ import annotations

from ...core.board import Geometry, InvalidPuzzle
from ...core.rules.base import RuleError
from ...core.rules.board import build
from ...core.rules.fpuzzles import SIZES, load_link
from ..runtime.memo import byte_cache


@byte_cache(1024 * 1024)  # per geometry
def written_whole(geometry: Geometry) -> bool:
    """True when the f-puzzles writer keeps every rule of ``geometry``."""
    if geometry.size not in SIZES:
        return False
    try:
        rebuilt = build(geometry.size, geometry.rules, geometry.regions)
    except (RuleError, InvalidPuzzle):
        return False
    return set(rebuilt.houses) == set(geometry.houses) and set(rebuilt.cages) == set(geometry.cages)


def fpuzzles_givens(geometry: Geometry, puzzle: str) -> list[int] | None:
    """The givens f-puzzles' writer takes for ``puzzle`` (``0`` or ``.`` blank) on
    ``geometry``, or None when f-puzzles could not hold it whole."""
    if len(puzzle) != geometry.cells or not written_whole(geometry):
        return None
    symbols = geometry.symbols.upper()
    return [symbols.find(ch.upper()) + 1 for ch in puzzle]


def fpuzzles_url(geometry: Geometry, puzzle: str) -> str | None:
    """The f-puzzles ``?load=`` link of ``puzzle`` (its givens, ``0`` or ``.`` blank) on
    ``geometry``, or None when f-puzzles could not hold it whole."""
    givens = fpuzzles_givens(geometry, puzzle)
    return None if givens is None else load_link(geometry, givens)
