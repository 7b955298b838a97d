"""Puzzles the web tests share (canonical spelling: digits, 0 for blanks)."""

from __future__ import annotations

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# Row 1 holds 1-8 after r1c1 and column 1 holds 9: r1c1 has no candidate before any guess.
IMPOSSIBLE = "012345678" + "900000000" + "0" * 63
# The easy solution with the 4-7 / 7-4 rectangle at r1c2, r1c7, r2c2, r2c7 blanked.
TWO_SOLUTIONS = "403921057907345021251876493548132976729564138136798245372689514814253769695417382"
# r1c1 and r1c2 both hold 5 (row 1 and box 1).
CONFLICT = "55" + "0" * 79
