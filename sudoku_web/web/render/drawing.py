"""A board's rules drawn: the one place that turns the core's drawing description
(:class:`~sudoku_web.core.rules.base.Drawing`) into what pages show.

Every grid a page draws (the ``grid`` and ``pencil_grid`` macros, the play grid) lays
:func:`overlay` over its table: an SVG **under** the table's digits (lines, bulbs, odd/even
shapes: thin and translucent, so a digit or a candidate always reads over them) and an SVG
**over** it (kropki dots and XV letters, which sit on cell edges, and the clues outside the
grid, in the room the wrapper makes for them on that side). Both are in cell units (one unit
per cell, ``viewBox 0 0 N N``), stretched to the table by CSS, attributes only (no ``style``:
the CSP stays strict). Cage outlines are drawn in the cells by :mod:`.outlines`, which reads
the same description. :func:`rule_words` says the rules in words. The link-preview PNG
(:mod:`.preview`) draws the same :func:`board_drawing`.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from markupsafe import Markup, escape

from ...core.board import Geometry
from ...core.rules.base import Bulb, Clue, Dot, Drawing, Line, Shade
from ..runtime.memo import byte_cache

# Sizes in cell units, shared with the PNG (which scales them by its cell side).
DOT_RADIUS = 0.13
LETTER_SIZE = 0.34
CLUE_SIZE = 0.42
BULB_RADIUS = 0.38
CIRCLE_RADIUS = 0.4  # a shaded circle (an odd cell)
SQUARE_INSET = 0.1  # a shaded square (an even cell), inset from the cell's edges
LINE_WIDTHS = {"thick": 0.24, "thin": 0.05, "dashed": 0.035}


def board_drawing(geometry: Geometry) -> Drawing:
    """Everything the board's rules draw, in the rules' order, each mark once (an arrow of
    two shafts is two rules sharing one bulb)."""
    out = Drawing()
    for rule in geometry.rules:
        out = out + rule.drawing(geometry)
    return Drawing(
        tuple(dict.fromkeys(out.lines)),
        tuple(dict.fromkeys(out.bulbs)),
        tuple(dict.fromkeys(out.dots)),
        tuple(dict.fromkeys(out.clues)),
        tuple(dict.fromkeys(out.shaded)),
        tuple(dict.fromkeys(out.outlines)),
        tuple(dict.fromkeys(out.notes)),
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


def centre(cell: int, size: int) -> tuple[float, float]:
    """A cell's centre (x, y) in cell units."""
    row, col = divmod(cell, size)
    return col + 0.5, row + 0.5


def edge_point(cells: tuple[int, int], size: int) -> tuple[float, float]:
    """The middle of the edge two orthogonal neighbours share."""
    (ax, ay), (bx, by) = centre(cells[0], size), centre(cells[1], size)
    return (ax + bx) / 2, (ay + by) / 2


def clue_point(at: tuple[int, int]) -> tuple[float, float]:
    """The centre of the outside position ``(row, col)`` a clue stands on."""
    return at[1] + 0.5, at[0] + 0.5


def clue_arrow(clue: Clue) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A little killer's arrow: from near its number to the grid's corner it points at."""
    if clue.toward is None:
        return None
    x, y = clue_point(clue.at)
    dx, dy = clue.toward[1] - clue.at[1], clue.toward[0] - clue.at[0]
    # From the clue's corner nearest the diagonal to the grid's edge, one short arrow.
    return (x + dx * 0.22, y + dy * 0.22), (x + dx * 0.48, y + dy * 0.48)


def pill_box(cells: tuple[int, ...], size: int) -> tuple[float, float, float, float]:
    """The rectangle (x, y, width, height) a bulb of cells in a line spans, inset."""
    rows = [c // size for c in cells]
    cols = [c % size for c in cells]
    inset = 0.5 - BULB_RADIUS
    x0, y0 = min(cols) + inset, min(rows) + inset
    return x0, y0, max(cols) + 1 - inset - x0, max(rows) + 1 - inset - y0


def rooms(drawing: Drawing, size: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (top, right, bottom, left) have clues outside the grid."""
    rows = {clue.at[0] for clue in drawing.clues}
    cols = {clue.at[1] for clue in drawing.clues}
    return -1 in rows, size in cols, size in rows, -1 in cols


def _n(value: float) -> str:
    """A coordinate, short: ``1.5``, ``2``."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in {"", "-0"} else text


def line_points(line: Line, size: int) -> list[tuple[float, float]]:
    """The points a line runs through: cell centres, an arrow's shaft starting at the edge of
    its bulb (not across it, where the bulb's digit is)."""
    points = [centre(c, size) for c in line.cells]
    if line.arrowhead and len(points) > 1:
        (x0, y0), (x1, y1) = points[0], points[1]
        step = math.hypot(x1 - x0, y1 - y0)
        points[0] = (x0 + (x1 - x0) * BULB_RADIUS / step, y0 + (y1 - y0) * BULB_RADIUS / step)
    return points


def arrowhead(line: Line, size: int) -> tuple[tuple[float, float], ...]:
    """An arrow's head at the line's end: two wing tips and the point between them."""
    (x0, y0), (x1, y1) = centre(line.cells[-2], size), centre(line.cells[-1], size)
    angle = math.atan2(y1 - y0, x1 - x0)
    left, right = (
        (x1 + 0.3 * math.cos(angle + t), y1 + 0.3 * math.sin(angle + t)) for t in (2.6, -2.6)
    )
    return left, (x1, y1), right


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
    x, y = clue_point(clue.at)
    arrow = clue_arrow(clue)
    out = '<g class="rc">'
    if arrow is not None:
        (ax, ay), (bx, by) = arrow
        # The number moves back from the arrow, so both fit in the clue's square.
        dx, dy = bx - ax, by - ay
        x, y = x - dx * 0.45, y - dy * 0.45
        angle = math.atan2(by - ay, bx - ax)
        head = " ".join(
            f"{_n(bx + 0.12 * math.cos(angle + t))},{_n(by + 0.12 * math.sin(angle + t))}"
            for t in (2.5, -2.5)
        )
        out += (
            f'<path class="rc-arrow" d="M{_n(ax)} {_n(ay)}L{_n(bx)} {_n(by)}'
            f"M{head.split()[0].replace(',', ' ')}L{_n(bx)} {_n(by)}"
            f'L{head.split()[1].replace(",", " ")}"/>'
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
    """The board's rules in words: each kind's rule once, then each clue of it."""

    kinds: tuple[str, ...]  # each kind's rule in words, and the global rules' sentences
    clues: tuple[str, ...]  # each rule with cells, named (Rule.describe)


@byte_cache(2 * 1024 * 1024)  # per geometry; rules come from user input
def rule_words(geometry: Geometry) -> RuleWords | None:
    """What the page says about the board's rules (None: a board without rules)."""
    if not geometry.rules:
        return None
    kinds: list[str] = []
    clues: list[str] = []
    for rule in geometry.rules:
        notes = rule.drawing(geometry).notes
        if notes:
            kinds.extend(n for n in notes if n not in kinds)
            continue
        if rule.WORDS not in kinds:
            kinds.append(rule.WORDS)
        clues.append(rule.describe(geometry))
    return RuleWords(tuple(kinds), tuple(clues))
