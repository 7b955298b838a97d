"""A board's rules drawn: the one place that turns the core's drawing description
(:class:`~sudoku_web.core.rules.base.Drawing`) into what pages show.

Every grid a page draws (the ``grid`` and ``pencil_grid`` macros, the play grid) lays
:func:`overlay` over its table: an SVG **under** the table's digits (lines, bulbs, odd/even
shapes: thin and translucent, so a digit or a candidate always reads over them) and an SVG
**over** it (dots and letters, which sit on cell edges, and the clues outside the grid, in the
room the wrapper makes for them on that side). Both are in cell units (one unit per cell,
``viewBox 0 0 N N``), stretched to the table by CSS, attributes only (no ``style``: the CSP
stays strict), written by :func:`~.cell_markup.rules_layers` (the one module that writes markup
in Python) once per board and kept here. Where each mark goes is :mod:`.marks`'s, shared with
the link-preview PNG (:mod:`.preview`); cage outlines are drawn in the cells by
:mod:`.outlines`, from the same description. :func:`rule_words` says the rules in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ...core.board import Geometry
from ...core.rules.board import rules_in_words
from ...core.wording import Words
from ..runtime.memo import byte_cache
from .cell_markup import rules_layers
from .marks import board_drawing, rooms


@dataclass(frozen=True)
class Overlay:
    """A board's rules as a page draws them around its table (see the module docstring)."""

    size: int
    under: Markup  # the SVG below the digits ("" when nothing goes there)
    over: Markup  # the SVG above them ("" when nothing goes there)
    rooms: str  # wrapper classes making room for outside clues: "room-t room-l" ...

    @property
    def classes(self) -> str:
        """The wrapper's classes: ``drawn size-<n>`` and the rooms."""
        return f"drawn size-{self.size}{' ' + self.rooms if self.rooms else ''}"


@byte_cache(4 * 1024 * 1024)  # per geometry; rules come from user input
def overlay(geometry: Geometry) -> Overlay | None:
    """The SVGs over and under the board's table (None: its rules draw nothing there)."""
    drawing = board_drawing(geometry)
    n = geometry.size
    under, over = rules_layers(drawing, n)
    if not under and not over:
        return None
    sides = rooms(drawing, n)
    room = " ".join(f"room-{s}" for s, on in zip("trbl", sides, strict=True) if on)
    return Overlay(n, under, over, room)


@dataclass(frozen=True)
class RuleWords:
    """The board's rules in words: each kind's rule once, then each rule of the board."""

    kinds: tuple[Words, ...]  # each kind's rule in words (core.rules.board.rules_in_words)
    clues: tuple[Words, ...]  # each rule, naming its cells (Rule.describe)


@byte_cache(2 * 1024 * 1024)  # per geometry; rules come from user input
def rule_words(geometry: Geometry) -> RuleWords | None:
    """What the page says about the board's rules (None: a board without rules)."""
    if not geometry.rules:
        return None
    return RuleWords(
        tuple(rules_in_words(geometry)), tuple(rule.describe(geometry) for rule in geometry.rules)
    )
