"""Anti-king: cells that touch, even diagonally, never hold the same digit.

f-puzzles ``antiking: true``. Our spelling: ``ki``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import N_
from .pairs import KING, ApartDiffer


@dataclass(frozen=True)
class AntiKing(ApartDiffer):
    """No two cells that touch (a king's move) hold the same digit."""

    KEY = "ki"
    NAME = N_("anti-king")
    FPUZZLES = ("antiking",)
    WORDS = N_("Anti-king: cells that touch, even diagonally, never hold the same digit.")
    REASON = N_("anti-king: cells that touch, even diagonally, never hold the same digit")
    STEPS = KING
    STEP = N_("Anti-king")
