"""Link-preview PNGs: a picture of a puzzle for Open Graph / Twitter cards.

:func:`render_png` draws the grid (thick borders between boxes or jigsaw regions, shaded X
diagonals and hyper windows), the givens in one ink, solved digits in another, and the
status in words under the grid, in layers bottom up: cell backgrounds, the rules' shapes
under the digits (odd/even cells, lines, bulbs: :mod:`.marks`, where the pages draw them),
lines and borders, cage outlines and sums, digits, the rules' marks over them (dots,
letters, clues outside the grid, for which the grid shrinks to make room), status band.
The bytes are a pure function of the arguments, so a view can hash them (or its inputs) for
an ETag.

Size: 600x630 px whatever the grid (Open Graph's ~1.91:1 is for photos; chat apps show a
near-square card whole), a fixed palette so the file is a small 8-bit PNG (a 9x9 is ~20 KB,
a 16x16 ~20-30 KB, under the 60 KB bound). The font is the one Pillow ships
(``ImageFont.load_default(size=...)``), so there is nothing to download or install.

Roads not taken: drawing straight into a palette ("P") image loses anti-aliasing (Pillow
draws text on "P" images as bare 1-bit masks) and jagged digits look broken at thumbnail size;
adaptive quantisation keeps anti-aliasing but picks its own colours, so the two inks could
drift. Drawing in RGB and mapping onto a fixed palette of ink/background blends keeps both
the smoothness and the exact inks. A pre-drawn empty board per geometry, copied for each
picture, would save under half a millisecond (the lines cost ~0.3 ms, the copy itself ~0.2)
and hold 1.1 MB per geometry, so the board is drawn each time; the digits, which cost most,
are stamped from glyphs drawn once.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from ...core.board import SYMBOLS, Geometry
from ...core.rules.base import Drawing
from ...core.variants import CAGED, variant_of
from . import marks as rules
from .outlines import cage_marks

WIDTH, HEIGHT = 600, 630
GRID_SIDE = 540  # the grid's side before rounding down to whole cells
TOP = 18
BAND_TOP = 578  # the status band under the grid

RGB = tuple[int, int, int]
PAPER: RGB = (255, 255, 255)
SHADE: RGB = (226, 234, 246)  # X diagonals, hyper windows
MARK: RGB = (253, 221, 214)  # cells the caller marks (conflict, differing cells)
GIVEN_INK: RGB = (20, 24, 40)  # givens, thick borders, status text
SOLVED_INK: RGB = (30, 110, 220)  # digits the solver filled in
LINE_INK: RGB = (160, 166, 180)  # thin cell lines, the variant label
BACKGROUNDS = (PAPER, SHADE, MARK)
INKS = (GIVEN_INK, SOLVED_INK, LINE_INK)
# The rules' colours (drawing.Colour), each drawn solid under the digits: a light tint for
# thick lines, filled bulbs and shaded cells, a stronger one for thin lines and outlines.
RULE_COLOURS: dict[str, RGB] = {
    "grey": (110, 116, 130),
    "green": (30, 150, 70),
    "purple": (150, 70, 200),
    "orange": (230, 120, 20),
    "blue": (40, 90, 200),
}
LIGHT, STRONG, FAINT = 0.32, 0.62, 0.2


def _tint(colour: str, strength: float) -> RGB:
    """A rule colour blended onto the paper."""
    ink = RULE_COLOURS.get(colour, RULE_COLOURS["grey"])
    r, g, b = (round(p + (i - p) * strength) for p, i in zip(PAPER, ink, strict=True))
    return r, g, b


RAMP_STEPS = 8  # blends per background/ink pair, for anti-aliased edges


def render_png(
    givens: Sequence[int],
    solution: Sequence[int] | str | None,
    geometry: Geometry,
    status_text: str,
    *,
    marked: Sequence[int] = (),
) -> bytes:
    """A PNG (≤ 60 KB, 600x630) of the puzzle; same arguments, same bytes.

    ``givens`` is the puzzle grid (0 blank); ``solution`` a full grid or solution text, or
    None to draw only the givens; its digits in blank cells are drawn in :data:`SOLVED_INK`,
    the givens in :data:`GIVEN_INK`. ``status_text`` is written under the grid (shrunk to
    fit). ``marked`` cells get a tinted background (e.g. the doctor's conflict).
    """
    size = geometry.size
    if len(givens) != geometry.cells:
        raise ValueError(f"a {size}x{size} grid needs {geometry.cells} values")
    filled = _solution_values(solution, geometry)
    drawn = rules.board_drawing(geometry) if geometry.rules else Drawing()
    top_room, right_room, bottom_room, left_room = rules.rooms(drawn, size)
    # Room of one cell on each side with clues outside the grid: the cells shrink to fit.
    cell = GRID_SIDE // (size + max(top_room + bottom_room, left_room + right_room))
    side = cell * size
    left = (WIDTH - side + (left_room - right_room) * cell) // 2
    top = TOP + top_room * cell
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    frame = Frame(size, cell, left, top)
    # Layers, bottom up: cell backgrounds, the rules' shapes, lines and borders, cages,
    # digits, the rules' marks, the status band.
    _draw_backgrounds(draw, geometry, frame, marked)
    _draw_under(draw, drawn, frame)
    _draw_lines(draw, geometry, frame)
    if geometry.cages or geometry.rules:
        _draw_cages(draw, geometry, frame)
    _draw_digits(image, geometry, frame, givens, filled)
    _draw_over(draw, drawn, frame)
    _draw_band(draw, geometry, status_text, left, side)
    return _encode(image)


@dataclass(frozen=True)
class Frame:
    """Where the grid lies in the picture: its size, the side of a cell, its top left."""

    size: int
    cell: int
    left: int
    top: int

    def corner(self, cell_index: int) -> tuple[int, int]:
        """The top left pixel of a cell."""
        row, col = divmod(cell_index, self.size)
        return self.left + col * self.cell, self.top + row * self.cell

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A point in cell units (:mod:`.drawing`'s) in pixels."""
        return self.left + x * self.cell, self.top + y * self.cell


def _draw_under(draw: ImageDraw.ImageDraw, drawn: Drawing, frame: Frame) -> None:
    """The rules' shapes under the digits: odd circles and even squares, lines, bulbs."""
    c = frame.cell
    for shade in drawn.shaded:
        x, y = frame.point(*rules.centre(shade.cell, frame.size))
        if shade.style == "circle":
            r = rules.CIRCLE_RADIUS * c
            draw.ellipse((x - r, y - r, x + r, y + r), fill=_tint("grey", FAINT))
        else:
            h = (0.5 - rules.SQUARE_INSET) * c
            draw.rectangle((x - h, y - h, x + h, y + h), fill=_tint("grey", FAINT))
    for line in drawn.lines:
        width = max(1, round(rules.LINE_WIDTHS[line.style] * c))
        ink = _tint(line.colour, LIGHT if line.style == "thick" else STRONG)
        points = [frame.point(x, y) for x, y in rules.line_points(line, frame.size)]
        draw.line(points, fill=ink, width=width, joint="curve")
        if width > 2:  # round ends, as the pages' stroke-linecap
            for x, y in (points[0], points[-1]):
                draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=ink)
        if line.arrowhead and len(line.cells) > 1:
            head = [frame.point(x, y) for x, y in rules.arrowhead(line, frame.size)]
            draw.line(head, fill=ink, width=width)
    for bulb in drawn.bulbs:
        r = rules.BULB_RADIUS * c
        if len(bulb.cells) == 1:
            x, y = frame.point(*rules.centre(bulb.cells[0], frame.size))
            box = (x - r, y - r, x + r, y + r)
        else:
            x, y, w, h = rules.pill_box(bulb.cells, frame.size)
            (x0, y0), (x1, y1) = frame.point(x, y), frame.point(x + w, y + h)
            box = (x0, y0, x1, y1)
        if bulb.filled:
            draw.rounded_rectangle(box, radius=r, fill=_tint(bulb.colour, LIGHT))
        else:
            draw.rounded_rectangle(box, radius=r, outline=_tint(bulb.colour, STRONG), width=2)


def _draw_over(draw: ImageDraw.ImageDraw, drawn: Drawing, frame: Frame) -> None:
    """The rules' marks over the grid: dots and letters on edges, clues outside it."""
    c = frame.cell
    for dot in drawn.dots:
        x, y = frame.point(*rules.edge_point(dot.cells, frame.size))
        if dot.letter:
            font = _font(max(9, int(rules.LETTER_SIZE * c)))
            box = draw.textbbox((x, y), dot.label, font=font, anchor="mm")
            draw.rectangle((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1), fill=PAPER)
            draw.text((x, y), dot.label, fill=GIVEN_INK, font=font, anchor="mm")
            continue
        r = max(3, rules.DOT_RADIUS * c)
        fill = PAPER if dot.fill == "white" else GIVEN_INK
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=GIVEN_INK, width=1)
        if dot.label:
            ink = GIVEN_INK if dot.fill == "white" else PAPER
            draw.text((x, y), dot.label, fill=ink, font=_font(max(8, int(r))), anchor="mm")
    for clue in drawn.clues:
        x, y = frame.point(*rules.clue_text_point(clue))
        arrow = rules.clue_arrow(clue)
        if arrow is not None:
            (ax, ay), (bx, by) = (frame.point(*p) for p in arrow)
            draw.line((ax, ay, bx, by), fill=GIVEN_INK, width=2)
        font = _font(max(10, int(rules.CLUE_SIZE * c)))
        draw.text((x, y), clue.text, fill=GIVEN_INK, font=font, anchor="mm")


def _draw_backgrounds(
    draw: ImageDraw.ImageDraw, geometry: Geometry, frame: Frame, marked: Sequence[int]
) -> None:
    """The tinted cells: the ones the caller marks, and the variant's shaded houses."""
    cell = frame.cell
    kinds = variant_of(geometry).shaded
    shaded = {c for h in geometry.houses if h.kind in kinds for c in h.cells}
    marks = set(marked)
    for c in range(geometry.cells):
        colour = MARK if c in marks else SHADE if c in shaded else None
        if colour is not None:
            x, y = frame.corner(c)
            draw.rectangle((x, y, x + cell, y + cell), fill=colour)


def _draw_digits(
    image: Image.Image,
    geometry: Geometry,
    frame: Frame,
    givens: Sequence[int],
    filled: Sequence[int] | None,
) -> None:
    """The givens in :data:`GIVEN_INK` (a 1 px stroke bolder where cells are roomy), the
    solved digits in :data:`SOLVED_INK`: each a pre-drawn glyph (:func:`_glyph`) stamped in
    its ink, rather than a text layout per cell."""
    cell = frame.cell
    for c in range(geometry.cells):
        value, ink = givens[c], GIVEN_INK
        if not value and filled is not None:
            value, ink = filled[c], SOLVED_INK
        if value:
            bold = 1 if ink == GIVEN_INK and cell >= 40 else 0
            image.paste(ink, frame.corner(c), _glyph(SYMBOLS[value - 1], cell, bold))


@functools.lru_cache(maxsize=128)  # a glyph per symbol, cell size and weight: a few dozen
def _glyph(symbol: str, cell: int, bold: int) -> Image.Image:
    """A cell-sized coverage mask of ``symbol`` centred as a digit of a cell that size."""
    mask = Image.new("L", (cell, cell), 0)
    ImageDraw.Draw(mask).text(
        (cell / 2, cell / 2 + 1),
        symbol,
        fill=255,
        font=_font(int(cell * 0.62)),
        anchor="mm",
        stroke_width=bold,
        stroke_fill=255,
    )
    return mask


def _solution_values(solution: Sequence[int] | str | None, geometry: Geometry) -> list[int] | None:
    if solution is None:
        return None
    if isinstance(solution, str):
        values = [SYMBOLS.index(ch.upper()) + 1 if ch not in ".0" else 0 for ch in solution]
    else:
        values = list(solution)
    if len(values) != geometry.cells:
        raise ValueError(
            f"a {geometry.size}x{geometry.size} solution needs {geometry.cells} values"
        )
    return values


def _draw_lines(draw: ImageDraw.ImageDraw, geometry: Geometry, frame: Frame) -> None:
    """Thin lines between all cells, thick ones where the box (or region) changes."""
    size, cell, left, top = geometry.size, frame.cell, frame.left, frame.top
    side = cell * size
    box = geometry.box_index
    for k in range(1, size):
        draw.line((left + k * cell, top, left + k * cell, top + side), fill=LINE_INK, width=1)
        draw.line((left, top + k * cell, left + side, top + k * cell), fill=LINE_INK, width=1)
    thick = 3 if size <= 9 else 2
    for r in range(size):
        for c in range(size):
            here = r * size + c
            x, y = left + c * cell, top + r * cell
            if c + 1 < size and box[here] != box[here + 1]:
                draw.line((x + cell, y, x + cell, y + cell), fill=GIVEN_INK, width=thick)
            if r + 1 < size and box[here] != box[here + size]:
                draw.line((x, y + cell, x + cell, y + cell), fill=GIVEN_INK, width=thick)
    # Segments leave notches where thick lines meet; square caps on every crossing fill them.
    half = thick // 2
    for r in range(1, size):
        for c in range(1, size):
            corner = (r - 1) * size + c - 1
            four = {box[corner], box[corner + 1], box[corner + size], box[corner + size + 1]}
            if len(four) > 1:
                x, y = left + c * cell, top + r * cell
                draw.rectangle((x - half, y - half, x + half, y + half), fill=GIVEN_INK)
    draw.rectangle((left - 1, top - 1, left + side + 1, top + side + 1), outline=GIVEN_INK, width=3)


def _draw_cages(draw: ImageDraw.ImageDraw, geometry: Geometry, frame: Frame) -> None:
    """Each cage as the pages draw it (outlines.cage_marks): a dashed outline inset in its
    cells, and its sum in the top-left cell's corner."""
    cell = frame.cell
    inset = max(3, cell // 12)
    dash = max(3, cell // 10)
    sum_font = _font(max(9, int(cell * 0.26)))
    for c, (classes, _, total) in enumerate(cage_marks(geometry)):
        if not classes:
            continue
        sides = set(classes.split())
        x, y = frame.corner(c)
        # Each side runs from edge to edge of the cell, or stops at the inset where the cage
        # turns, so neighbouring cells' dashes join into one outline.
        x0 = x + inset if "kl" in sides else x
        x1 = x + cell - inset if "kr" in sides else x + cell
        y0 = y + inset if "kt" in sides else y
        y1 = y + cell - inset if "kb" in sides else y + cell
        if "kt" in sides:
            _dashed(draw, (x0, y + inset), (x1, y + inset), dash)
        if "kb" in sides:
            _dashed(draw, (x0, y + cell - inset), (x1, y + cell - inset), dash)
        if "kl" in sides:
            _dashed(draw, (x + inset, y0), (x + inset, y1), dash)
        if "kr" in sides:
            _dashed(draw, (x + cell - inset, y0), (x + cell - inset, y1), dash)
        if total:
            box = draw.textbbox((x + inset + 1, y + inset + 1), total, font=sum_font)
            draw.rectangle(box, fill=PAPER)
            draw.text((x + inset + 1, y + inset + 1), total, fill=GIVEN_INK, font=sum_font)


def _dashed(
    draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int], dash: int
) -> None:
    """A dashed line, horizontal or vertical, dashes and gaps ``dash`` px long."""
    (x0, y0), (x1, y1) = start, end
    length = max(abs(x1 - x0), abs(y1 - y0))
    for a in range(0, length, 2 * dash):
        b = min(a + dash, length)
        if y0 == y1:
            draw.line((x0 + a, y0, x0 + b, y0), fill=GIVEN_INK, width=1)
        else:
            draw.line((x0, y0 + a, x0, y0 + b), fill=GIVEN_INK, width=1)


def _draw_band(
    draw: ImageDraw.ImageDraw, geometry: Geometry, status_text: str, left: int, side: int
) -> None:
    """The status in words on the left under the grid, the variant and size on the right."""
    short = variant_of(geometry).short
    if geometry.cages:
        short = f"{CAGED.short} {short}".strip()
    label = f"{short} {geometry.size}x{geometry.size}"
    label_font = _font(18)
    label_width = draw.textlength(label, font=label_font)
    room = side - label_width - 16
    size = 26
    font = _font(size)
    while size > 12 and draw.textlength(status_text, font=font) > room:
        size -= 1
        font = _font(size)
    text = status_text
    while text and draw.textlength(text, font=font) > room:
        text = text[:-2] + "\u2026"  # still too long at the smallest size: cut it
    middle = (BAND_TOP + HEIGHT) // 2
    draw.text((left, middle), text, fill=GIVEN_INK, font=font, anchor="lm")
    draw.text((left + side, middle), label, fill=LINE_INK, font=label_font, anchor="rm")


@functools.lru_cache(maxsize=32)  # bounded by count: a few sizes are used
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` px."""
    return ImageFont.load_default(size=size)


@functools.cache
def _palette() -> Image.Image:
    """A "P" image whose palette holds every background, every ink, and blends between them."""
    colours: list[RGB] = []
    for back in BACKGROUNDS:
        for ink in INKS:
            for step in range(RAMP_STEPS + 1):
                t = step / RAMP_STEPS
                blend = tuple(round(b + (i - b) * t) for b, i in zip(back, ink, strict=True))
                if blend not in colours:
                    colours.append((blend[0], blend[1], blend[2]))
    for name in RULE_COLOURS:  # the rules' tints, after the rest
        for tint in (_tint(name, LIGHT), _tint(name, STRONG), _tint(name, FAINT)):
            if tint not in colours:
                colours.append(tint)
    flat = [channel for colour in colours for channel in colour]
    flat += [0] * (768 - len(flat))
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat)
    return holder


def _encode(image: Image.Image) -> bytes:
    """Map onto the fixed palette (no dithering: flat areas stay flat) and write a PNG."""
    indexed = image.quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    # zlib's default level: optimize=True (level 9 and a filter search) made files ~12%
    # smaller for four times the CPU of everything else (benchmarks/RESULTS.md).
    indexed.save(out, format="PNG", compress_level=6)
    return out.getvalue()
