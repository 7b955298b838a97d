"""Which cage's sum was probably mistyped, in words and links for the pages and the API.

A mistyped sum is the commonest killer typo. When a board with cages has no solution, or its
cages cover the grid but their sums miss its total (:class:`~sudoku_web.core.cages.SumsMismatch`,
a 422), the core's sum doctor (:func:`sudoku_web.core.doctor.diagnose_sums`, called by
:func:`sudoku_web.web.runtime.solving.cached_sum_diagnosis` within the doctor's budget) lists each
change of one sum after which the puzzle has exactly one solution, likeliest first. Here each
one becomes a sentence ("The cage at r3c4 (3 cells) adds up to 14, not 15?") and the share
link of the corrected puzzle (:func:`sudoku_web.web.puzzles.urls.page_url`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import ngettext

from ...core.board import Geometry, InvalidPuzzle
from ...core.cages import SumsMismatch
from ...core.doctor import SumDiagnosis, SumFix
from ...core.variants import find_variant, layout_of
from ..runtime import solving
from . import urls
from .puzzle_text import givens_or_empty, read


@dataclass(frozen=True)
class SumAdvice:
    """The sum doctor's answer for ``givens`` on ``geometry`` (the cages as given)."""

    diagnosis: SumDiagnosis
    geometry: Geometry
    givens: str  # canonical

    @property
    def complete(self) -> bool:
        """False when the doctor's deadline or node budget cut the search short."""
        return self.diagnosis.complete

    def url(self, fix: SumFix, *, external: bool = False) -> str:
        """The share link of the puzzle with ``fix`` made."""
        return urls.page_url(fix.apply(self.geometry), self.givens, external=external)

    def links(self) -> list[tuple[str, str]]:
        """(words, link) for each fix, most likely first: what the pages show."""
        return [(words(fix, self.geometry), self.url(fix)) for fix in self.diagnosis.fixes]

    def as_dict(self) -> dict[str, Any]:
        """The API's shape: ``sum_fixes`` (cells, ``from``, ``to``, ``share_url``) and
        ``complete``."""
        fixes = []
        for fix in self.diagnosis.fixes:
            item = fix.as_dict(self.geometry)
            item["share_url"] = self.url(fix, external=True)
            fixes.append(item)
        return {"sum_fixes": fixes, "complete": self.complete}


def words(fix: SumFix, geometry: Geometry) -> str:
    """``The cage at r3c4 (3 cells) adds up to 14, not 15?`` in the request's language: the
    cage named by its first cell in reading order (where its sum is printed) and its size."""
    cells = fix.cage.cells
    return str(
        ngettext(
            "The cage at %(cell)s (%(num)s cell) adds up to %(total)s, not %(given)s?",
            "The cage at %(cell)s (%(num)s cells) adds up to %(total)s, not %(given)s?",
            len(cells),
            cell=geometry.cell_name(min(cells)),
            total=fix.total,
            given=fix.cage.total,
        )
    )


def advice(geometry: Geometry, givens: str) -> SumAdvice | None:
    """The sum doctor's answer for a canonical puzzle on a board with cages; None without."""
    found = solving.cached_sum_diagnosis(givens, geometry)
    return None if found is None else SumAdvice(found, geometry, givens)


def for_mismatch(
    exc: SumsMismatch, variant: str | None, puzzle: str, regions: str | None
) -> SumAdvice | None:
    """The sum doctor's answer for a request whose cages' sums miss the grid's total: the
    board it names with the cages as read; None when its givens do not read."""
    try:
        base = urls.geometry_of(layout_of(find_variant(variant)).key, puzzle, regions)
    except InvalidPuzzle:
        return None
    geometry = base.with_cages(exc.cages)
    reading = read(givens_or_empty(puzzle, geometry), geometry)
    if not reading.ok or reading.canonical is None:
        return None
    return advice(geometry, reading.canonical)
