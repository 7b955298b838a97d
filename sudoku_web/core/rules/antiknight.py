"""Anti-knight: cells a chess knight's move apart never hold the same digit.

f-puzzles ``antiknight: true``. Our spelling: ``kn``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import N_
from .pairs import KNIGHT, ApartDiffer


@dataclass(frozen=True)
class AntiKnight(ApartDiffer):
    """No two cells a knight's move apart hold the same digit."""

    KEY = "kn"
    NAME = N_("anti-knight")
    FPUZZLES = ("antiknight",)
    WORDS = N_("Anti-knight: cells a chess knight's move apart never hold the same digit.")
    REASON = N_("anti-knight: cells a chess knight's move apart never hold the same digit")
    STEPS = KNIGHT
    STEP = N_("Anti-knight")
