"""Where a board's rule marks go, in cell units (one unit per cell, the grid's top left at
0, 0): what the pages' SVGs (:mod:`.drawing`) and the link-preview PNG (:mod:`.preview`)
both place, from the core's drawing description. No markup here: the PNG must not load the
HTML helpers."""

from __future__ import annotations

import math

from ...core.board import Geometry
from ...core.rules.base import Clue, Drawing, Line

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


def clue_text_point(clue: Clue) -> tuple[float, float]:
    """Where a clue's number is centred: its square's middle, moved back from its arrow so
    both fit."""
    x, y = clue_point(clue.at)
    arrow = clue_arrow(clue)
    if arrow is None:
        return x, y
    (ax, ay), (bx, by) = arrow
    return x - (bx - ax) * 0.45, y - (by - ay) * 0.45


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
