"""A game in a request: its facts from one (cached) solve, and why a puzzle cannot be played.

The play page (:mod:`sudoku_web.web.play.routes`) and its JSON (:mod:`sudoku_web.web.api.game`)
both start here, so they say the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from flask_babel import lazy_gettext as _l

from ...core.board import Geometry
from ...core.game import Game
from ..runtime import solving

# Why a puzzle cannot be played, per solver outcome (page and API say the same).
NOT_PLAYABLE: Final = {
    "multiple": _l(
        "This puzzle has more than one solution, so entries cannot be checked against "
        "the solution: a proper Sudoku has exactly one."
    ),
    "unsolvable": _l("This puzzle has no solution: some given is wrong, so it cannot be played."),
    "gave_up": _l(
        "The solver could not finish this puzzle within its limits, so entries cannot be "
        "checked. Try again in a moment."
    ),
}


def game_for(geometry: Geometry, givens: str, grid: Sequence[int]) -> Game:
    """The game of a canonical puzzle, from its solve within the request's budget."""
    return Game(geometry, givens, tuple(grid), solving.cached_solve(givens, geometry))
