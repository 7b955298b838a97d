"""A board from its parts: a size, its houses (boxes or a region map), and its rules.

:func:`build` is the one place a board with rules is made: the houses some rules add (a
diagonal) join the board's houses, the cages some rules are (a killer cage with a total) join
its cages for the engine's cage rule, and every rule stays in ``geometry.rules``. "Killer"
and "jigsaw" are names for such combinations, not code paths.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from ..board import BOX_SHAPES, Geometry, PuzzleError, jigsaw, region_text, standard, x_sudoku
from ..wording import N_, Words, words
from .base import MAX_RULE_CELLS, MAX_RULES, Drawing, Rule, RuleError, problem, refused
from .registry import KINDS
from .spelling import canonical


def default_box(size: int) -> tuple[int, int]:
    """The box shape (rows, columns) f-puzzles gives a grid of ``size``: the most square
    rectangle of ``size`` cells, wider than tall (a prime size: the rows themselves)."""
    rows = max(r for r in range(1, int(size**0.5) + 1) if size % r == 0)
    return rows, size // rows


def default_regions(size: int) -> tuple[int, ...]:
    """Region index per cell for the default boxes of ``size``."""
    br, bc = default_box(size)
    per_row = size // bc
    return tuple((r // br) * per_row + c // bc for r in range(size) for c in range(size))


def houses_board(size: int, regions: Sequence[int] | None = None) -> Geometry:
    """Rows, columns and boxes of ``size`` or, given ``regions`` (one index per cell), that
    region map. Raises :class:`~sudoku_web.core.board.InvalidPuzzle` for a bad map."""
    default = default_regions(size)
    if regions is not None and default is not None and tuple(regions) == default:
        regions = None
    if regions is None:
        if size in BOX_SHAPES:
            return standard(size)
        if default is None:
            raise refused(
                N_("A {size}x{size} grid has no boxes: it needs a region map."), size=size
            )
        regions = default
    return jigsaw(region_text(regions))


def build(size: int, rules: Iterable[Rule], regions: Sequence[int] | None = None) -> Geometry:
    """The board of ``size`` with ``regions`` (None: its boxes) and ``rules``.

    Raises :class:`RuleError` with every problem of the rules (cells named), or
    :class:`~sudoku_web.core.board.InvalidPuzzle` for a bad region map.
    """
    return attach(houses_board(size, regions), rules)


def attach(board: Geometry, rules: Iterable[Rule]) -> Geometry:
    """``board`` (its houses; any cages or rules it had are replaced) with ``rules``: the
    houses and cages they add, and the rules themselves. Raises :class:`RuleError`."""
    size = board.size
    ordered = canonical(rules, size)
    if len(ordered) > MAX_RULES:
        raise refused(
            N_("The puzzle has {count} rules; at most {most}."), count=len(ordered), most=MAX_RULES
        )
    base = board.base
    extra = []
    for rule in ordered:
        for house in rule.houses(base):
            if house not in base.houses and house not in extra:
                extra.append(house)
    if extra:
        if base.variant == "standard" and size in BOX_SHAPES and len(extra) == 2:
            base = x_sudoku(size)
        else:
            base = dataclasses.replace(base, houses=base.houses + tuple(extra))
    errors = rule_errors(base.with_rules(ordered))
    if errors:
        raise RuleError(errors)
    cages = [cage for rule in ordered if (cage := rule.cage()) is not None]
    return base.with_cages(cages).with_rules(ordered)


def rule_errors(geometry: Geometry) -> list[PuzzleError]:
    """Every problem of the board's rules, each naming its cells."""
    out: list[PuzzleError] = []
    total = 0
    for rule in geometry.rules:
        out.extend(rule.errors(geometry))
        total += len(getattr(rule, "cells", ()))
    if total > MAX_RULE_CELLS:
        said = words(
            N_("The rules cover {count} cells in all; at most {most}."),
            count=total,
            most=MAX_RULE_CELLS,
        )
        out.append(problem(said))
    return out


def drawing(geometry: Geometry) -> Drawing:
    """Everything the board's rules draw, in cell coordinates."""
    out = Drawing()
    for rule in geometry.rules:
        out += rule.drawing(geometry)
    return out


def rules_in_words(geometry: Geometry) -> list[Words]:
    """The board's rules in words: each kind's rule once, in the order of the registry."""
    seen: list[type[Rule]] = []
    for rule in geometry.rules:
        if type(rule) not in seen:
            seen.append(type(rule))
    order = {kind: i for i, kind in enumerate(KINDS)}
    return [
        Words(kind.WORDS) for kind in sorted(seen, key=lambda kind: order.get(kind, len(order)))
    ]
