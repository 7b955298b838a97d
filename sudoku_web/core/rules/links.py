"""A rules puzzle's share-link parts: givens, rules spelling and region map, one spelling each.

The link is ``/rules/<givens>/<rules>`` (``<givens>/<rules>/<regions>`` on a board with a
region map): ``givens`` the symbols with ``0`` for a blank, or the board's size (``9x9``,
``16x16``) for a grid without givens (:func:`givens_part`: many rules puzzles have none, and
the rules part names no size); ``rules`` our spelling (:mod:`.spelling`, ``-`` for none),
``regions`` one letter per cell (:func:`~sudoku_web.core.board.region_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..board import Geometry, infer_size, jigsaw, region_text
from ..wording import N_
from .base import refused
from .board import build, default_regions
from .spelling import parse, spell

NONE = "-"
# A grid without givens: its size, twice (``9x9``).
_EMPTY = re.compile(r"([1-9][0-9]?)x\1")


@dataclass(frozen=True)
class LinkParts:
    """The three path parts of a rules puzzle's link (``regions`` None: the default boxes)."""

    rules: str
    regions: str | None


def parts(geometry: Geometry) -> LinkParts:
    """The canonical link parts of a board."""
    rules = spell(geometry.rules, geometry.size) or NONE
    regions = geometry.regions
    if regions is None or regions == default_regions(geometry.size):
        return LinkParts(rules, None)
    return LinkParts(rules, region_text(regions))


def givens_part(givens: str, size: int) -> str:
    """The link's givens part of canonical ``givens`` on a board of ``size``: the givens
    themselves, or ``NxN`` when there are none."""
    return givens if givens.strip("0") else f"{size}x{size}"


def link_givens(part: str) -> str:
    """The givens a link's givens part stands for: its blank cells for ``NxN``, else the
    part as written (the reader checks it)."""
    found = _EMPTY.fullmatch(part)
    return "0" * int(found.group(1)) ** 2 if found else part


def board(givens: str, rules: str, regions: str | None) -> Geometry:
    """The board a link names (its size from the givens part); raises :class:`RuleError`
    (an InvalidPuzzle) naming what is wrong."""
    size = jigsaw(regions).size if regions else infer_size(link_givens(givens))
    if size is None:
        raise refused(N_("{count} cells is not a square grid of 4x4 to 16x16."), count=len(givens))
    region_map = jigsaw(regions).regions if regions else None
    return build(size, parse("" if rules == NONE else rules, size), region_map)
