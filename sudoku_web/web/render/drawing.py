"""A board's rules drawn: the one place that turns the core's drawing description
(:class:`~sudoku_web.core.rules.base.Drawing`) into what pages show.

Every grid a page draws (the ``grid`` and ``pencil_grid`` macros, the play grid) lays
:func:`overlay` over its table: an SVG **under** the table's digits (lines, bulbs, odd/even
shapes: thin and translucent, so a digit or a candidate always reads over them) and an SVG
**over** it (dots and letters, which sit on cell edges, and the clues outside the
grid, in the room the wrapper makes for them on that side). Both are in cell units (one unit
per cell, ``viewBox 0 0 N N``), stretched to the table by CSS, attributes only (no ``style``:
the CSP stays strict). Where each mark goes is :mod:`.marks`'s, shared with the link-preview
PNG (:mod:`.preview`); cage outlines are drawn in the cells by :mod:`.outlines`, from the
same description. :func:`rule_words` says the rules in words.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from markupsafe import Markup, escape

from ...core.board import Geometry
from ...core.rules.base import Bulb, Clue, Dot, Line, Shade
from ...core.rules.board import rules_in_words
from ..runtime.memo import byte_cache
from .marks import (
    BULB_RADIUS,
    CIRCLE_RADIUS,
    DOT_RADIUS,
    LETTER_SIZE,
    SQUARE_INSET,
    arrowhead,
    board_drawing,
    centre,
    clue_arrow,
    clue_text_point,
    edge_point,
    line_points,
    pill_box,
    rooms,
)


@dataclass(frozen=True)
class Overlay:
    """A board's rules as a page draws them around its table (see the module docstring)."""

    size: int
    under: Markup  # the SVG below the digits ("" when nothing goes there)
    over: Markup  # the SVG above them ("" when nothing goes there)
    rooms: str  # wrapper classes making room for outside clues: "room-t room-l" ...
    counts: tuple[tuple[str, int], ...]  # what is drawn, for tests and the API: ("dot", 3)

    @property
    def classes(self) -> str:
        """The wrapper's classes: ``drawn size-<n>`` and the rooms."""
        return f"drawn size-{self.size}{' ' + self.rooms if self.rooms else ''}"


def _n(value: float) -> str:
    """A coordinate, short: ``1.5``, ``2``."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in {"", "-0"} else text


def _line_svg(line: Line, size: int) -> str:
    points = " ".join(f"{_n(x)},{_n(y)}" for x, y in line_points(line, size))
    kind = f"rl rl-{line.style} ink-{line.colour}"
    out = f'<polyline class="{kind}" points="{points}"/>'
    if line.arrowhead and len(line.cells) > 1:
        head = " ".join(f"{_n(x)},{_n(y)}" for x, y in arrowhead(line, size))
        out += f'<polyline class="{kind} rl-head" points="{head}"/>'
    return out


def _bulb_svg(bulb: Bulb, size: int) -> str:
    kind = f"rb {'rb-filled' if bulb.filled else 'rb-outlined'} ink-{bulb.colour}"
    if len(bulb.cells) == 1:
        x, y = centre(bulb.cells[0], size)
        return f'<circle class="{kind}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(BULB_RADIUS)}"/>'
    x, y, w, h = pill_box(bulb.cells, size)
    return (
        f'<rect class="{kind}" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" '
        f'height="{_n(h)}" rx="{_n(BULB_RADIUS)}"/>'
    )


def _shade_svg(shade: Shade, size: int) -> str:
    x, y = centre(shade.cell, size)
    if shade.style == "circle":
        return f'<circle class="rs rs-circle" cx="{_n(x)}" cy="{_n(y)}" r="{_n(CIRCLE_RADIUS)}"/>'
    side, start = 1 - 2 * SQUARE_INSET, 0.5 - SQUARE_INSET
    return (
        f'<rect class="rs rs-square" x="{_n(x - start)}" y="{_n(y - start)}" '
        f'width="{_n(side)}" height="{_n(side)}"/>'
    )


def _dot_svg(dot: Dot, size: int) -> str:
    x, y = edge_point(dot.cells, size)
    label = escape(dot.label)
    if dot.letter:
        half = LETTER_SIZE * 0.42
        return (
            f'<g class="rd rd-letter"><rect x="{_n(x - half)}" y="{_n(y - half)}" '
            f'width="{_n(2 * half)}" height="{_n(2 * half)}"/>'
            f'<text x="{_n(x)}" y="{_n(y)}">{label}</text></g>'
        )
    text = f'<text x="{_n(x)}" y="{_n(y)}">{label}</text>' if dot.label else ""
    return (
        f'<g class="rd rd-{dot.fill}"><circle cx="{_n(x)}" cy="{_n(y)}" '
        f'r="{_n(DOT_RADIUS)}"/>{text}</g>'
    )


def _clue_svg(clue: Clue) -> str:
    x, y = clue_text_point(clue)
    out = '<g class="rc">'
    arrow = clue_arrow(clue)
    if arrow is not None:
        (ax, ay), (bx, by) = arrow
        angle = math.atan2(by - ay, bx - ax)
        wings = [
            (bx + 0.12 * math.cos(angle + t), by + 0.12 * math.sin(angle + t)) for t in (2.5, -2.5)
        ]
        (lx, ly), (rx, ry) = wings
        out += (
            f'<path class="rc-arrow" d="M{_n(ax)} {_n(ay)}L{_n(bx)} {_n(by)}'
            f'M{_n(lx)} {_n(ly)}L{_n(bx)} {_n(by)}L{_n(rx)} {_n(ry)}"/>'
        )
    return out + f'<text x="{_n(x)}" y="{_n(y)}">{escape(clue.text)}</text></g>'


@byte_cache(4 * 1024 * 1024)  # per geometry; rules come from user input
def overlay(geometry: Geometry) -> Overlay | None:
    """The SVGs over and under the board's table (None: its rules draw nothing there)."""
    drawing = board_drawing(geometry)
    n = geometry.size
    under = [_shade_svg(s, n) for s in drawing.shaded]
    under += [_line_svg(line, n) for line in drawing.lines]
    under += [_bulb_svg(b, n) for b in drawing.bulbs]
    over = [_dot_svg(d, n) for d in drawing.dots]
    over += [_clue_svg(c) for c in drawing.clues]
    if not under and not over:
        return None
    counts = Counter(
        {
            "line": len(drawing.lines),
            "bulb": len(drawing.bulbs),
            "dot": sum(not d.letter for d in drawing.dots),
            "letter": sum(d.letter for d in drawing.dots),
            "clue": len(drawing.clues),
            "shade": len(drawing.shaded),
        }
    )
    sides = rooms(drawing, n)
    room = " ".join(f"room-{s}" for s, on in zip("trbl", sides, strict=True) if on)
    return Overlay(
        n,
        _svg("rules-under", n, under),
        _svg("rules-over", n, over),
        room,
        tuple((k, v) for k, v in counts.items() if v),
    )


def _svg(kind: str, size: int, parts: list[str]) -> Markup:
    """One layer, hidden from screen readers: the rules are said in words beside the grid."""
    if not parts:
        return Markup("")
    return Markup(
        f'<svg class="rules {kind}" viewBox="0 0 {size} {size}" preserveAspectRatio="none" '
        f'aria-hidden="true" focusable="false">{"".join(parts)}</svg>'
    )


@dataclass(frozen=True)
class RuleWords:
    """The board's rules in words: each kind's rule once, then each rule of the board."""

    kinds: tuple[str, ...]  # each kind's rule in words (core.rules.board.rules_in_words)
    clues: tuple[str, ...]  # each rule, naming its cells (Rule.describe)


@byte_cache(2 * 1024 * 1024)  # per geometry; rules come from user input
def rule_words(geometry: Geometry) -> RuleWords | None:
    """What the page says about the board's rules (None: a board without rules)."""
    if not geometry.rules:
        return None
    return RuleWords(
        tuple(rules_in_words(geometry)), tuple(rule.describe(geometry) for rule in geometry.rules)
    )
