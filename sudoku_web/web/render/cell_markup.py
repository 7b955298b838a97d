"""The HTML the web layer writes in Python, all of it here: grid cells and rows, and the SVG
layers of a board's rules (:func:`rules_layers`).

Every other piece of markup is a template. These are not, for cost: a read-only grid is up
to 256 cells (16x16) and a steps page holds twenty pencil grids, and a Jinja loop or macro
per cell cost a large share of an uncached result page and more than the explanation behind
a steps page (benchmarks/RESULTS.md); each of those grids carries its board's rules too,
written once per board (kept by ``render.drawing.overlay``). So the templates print rows
drawn here: ``_grid.html`` prints :func:`read_only_rows` (through ``BoardView.rows_html``;
its editable grids loop in the macro) and ``_candidates.html`` prints :func:`pencil_rows`
(through ``PencilGrid.rows_html``); the play grid is a template loop (its cells are form
fields).

What is written here is checked against what the templates would write by the tests of
boards and pencil grids (tests/test_boards.py, tests/test_steps_drawing.py). Every text that
comes from a request is escaped; classes, labels and cage sums come from per-geometry tables
built from the geometry alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from markupsafe import Markup, escape

from ...core.rules.base import Bulb, Clue, Dot, Drawing, Line, Shade
from ...core.wording import N_
from .marks import (
    BULB_RADIUS,
    CIRCLE_RADIUS,
    DOT_RADIUS,
    LETTER_SIZE,
    SQUARE_INSET,
    arrowhead,
    centre,
    clue_arrow,
    clue_text_point,
    edge_point,
    line_points,
    pill_box,
)


def cell_classes(kind: str, tail: str, bad: bool, diff: bool) -> str:
    """A grid cell's classes: ``cell <kind>``, the board's (``boards.cell_statics``), its
    marks."""
    return f"cell {kind}{tail}{' invalid' if bad else ''}{' differs' if diff else ''}"


def cage_sum_html(total: str) -> str:
    """The sum drawn in a cage's first cell (hidden from screen readers: labels say it).

    Asked once per drawn cell, mostly for ``""``: not memoised, since the f-string costs a
    tenth of a table lookup (81 lookups were a third of drawing a solved 9x9 grid)."""
    return f'<span class="cage-sum" aria-hidden="true">{total}</span>' if total else ""


@dataclass(frozen=True)
class CellWords:
    """What a grid cell's label says, in one language: its place (``place``, ``caged`` when
    it holds a cage's sum), then ``colon`` and its symbol or ``blank``, then what it is
    (``solved``, ``differs``, ``conflict``); a pencil grid's cell by its name (r4c7) and its
    symbol or candidates (``pencil_*``). The web layer fills them from the request's
    catalog (:func:`sudoku_web.web.runtime.languages.cell_words`); render/ has no Flask, and
    every table of labels is kept per board *and* these words, so no language gets
    another's. The words go into HTML attributes as they are: no ``"``, ``<`` or ``&``. The
    defaults are the English, each marked for the catalog."""

    # Translators: a grid cell's spoken name (screen readers), rows and columns from 1.
    place: str = N_("Row %(row)s, column %(col)s")
    caged: str = N_("Row %(row)s, column %(col)s, cage of %(total)s")
    # Translators: between a cell's name and what it holds ("Row 1, column 2: 7").
    colon: str = N_(": ")
    # Translators: an empty cell, as its label says it.
    blank: str = N_("blank")
    solved: str = N_(" (solved)")
    differs: str = N_(" (differs)")
    conflict: str = N_(" (conflict)")
    # Translators: a pencil grid's cell (r4c7) a hint fills, its candidates not shown.
    pencil_hidden: str = N_("%(cell)s: the cell to fill (its candidates are in the reasoning)")
    pencil_filled: str = N_("%(cell)s: %(symbol)s")
    pencil_open: str = N_("%(cell)s: candidates %(marks)s")
    pencil_none: str = N_("%(cell)s: candidates none")
    pencil_struck: str = N_(", %(marks)s eliminated")


#: The source words (English pages, and every caller outside a request).
ENGLISH: Final = CellWords()


def read_only_rows(
    size: int,
    statics: Sequence[tuple[str, str, str]],
    safe: Mapping[str, str],
    texts: Sequence[str],
    kinds: Sequence[str],
    invalid: frozenset[int],
    differs: frozenset[int],
    words: CellWords = ENGLISH,
) -> Markup:
    """A read-only grid's ``<tr>`` rows, as the ``grid`` macro would draw them cell by cell.

    Every cell reads ``<td class="{classes}" aria-label="{label}: {text or 'blank'}[
    (solved)][ (differs)][ (conflict)]">{sum}{text}</td>``. ``statics``: per cell its class
    tail, label and cage sum (``boards.cell_statics``); ``safe``: the symbols that need no
    escaping; every other text is escaped.
    """
    out = []
    for index, (text, kind) in enumerate(zip(texts, kinds, strict=True)):
        if index % size == 0:
            out.append("\n    </tr>\n    <tr>" if index else "\n    <tr>")
        tail, label, total = statics[index]
        shown = text if text in safe else escape(text)
        out.append(_td(tail, label, shown, kind, index in invalid, index in differs, total, words))
    if out:
        out.append("\n    </tr>")
    return Markup("".join(out))


def _td(
    tail: str,
    label: str,
    shown: str,
    kind: str,
    bad: bool,
    diff: bool,
    total: str = "",
    words: CellWords = ENGLISH,
) -> str:
    """One read-only cell (see :func:`read_only_rows`); ``shown`` is already escaped;
    ``total``: the cage sum drawn in it (a cage's first cell)."""
    return (
        f'\n      <td class="{cell_classes(kind, tail, bad, diff)}" '
        f'aria-label="{label}{words.colon}{shown or words.blank}'
        f"{words.solved if kind == 'solved' else ''}{words.differs if diff else ''}"
        f'{words.conflict if bad else ""}">{cage_sum_html(total)}{shown}</td>'
    )


def pencil_td(
    classes: str, label: str | None, sum_html: str, hidden: bool, text: str, marks: str
) -> str:
    """A pencil grid's cell: ``<td class="{classes}"[ aria-label="{label}"]>{sum}`` then
    ``<span class="pm-hidden" aria-hidden="true">?</span>`` for a hidden cell, the symbol
    for a filled one, else its ``marks`` (:func:`marks_html`); then ``</td>``. Every text is
    escaped."""
    spoken = f' aria-label="{escape(label)}"' if label is not None else ""
    if hidden:
        body = '<span class="pm-hidden" aria-hidden="true">?</span>'
    elif text:
        body = str(escape(text))
    else:
        body = marks
    return f'<td class="{escape(classes)}"{spoken}>{sum_html}{body}</td>'


def marks_html(marks: Iterable[tuple[str, str]]) -> str:
    """An open cell's ``<span class="pm">`` with one ``<i[ class="{state}"]>{text}</i>`` per
    (text, state) mark slot."""
    parts = ['<span class="pm">']
    for text, state in marks:
        state_attr = f' class="{state}"' if state else ""
        parts.append(f"<i{state_attr}>{escape(text)}</i>")
    parts.append("</span>")
    return "".join(parts)


def pencil_rows(rows: Iterable[Iterable[str]]) -> Markup:
    """A pencil grid's ``<tr>`` rows from its cells' ``<td>`` (:func:`pencil_td`)."""
    return Markup("".join("<tr>" + "".join(row) + "</tr>" for row in rows))


# ---- A board's rules: two SVG layers in cell units (render.drawing) -------------------------


def rules_layers(drawing: Drawing, size: int) -> tuple[Markup, Markup]:
    """The SVG under a grid's digits (odd/even shapes, lines, bulbs) and the one over them
    (dots, letters, outside clues); "" for a layer with nothing in it."""
    under = [_shade_svg(s, size) for s in drawing.shaded]
    under += [_line_svg(line, size) for line in drawing.lines]
    under += [_bulb_svg(b, size) for b in drawing.bulbs]
    over = [_dot_svg(d, size) for d in drawing.dots]
    over += [_clue_svg(c) for c in drawing.clues]
    return _svg("rules-under", size, under), _svg("rules-over", size, over)


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


def _svg(kind: str, size: int, parts: list[str]) -> Markup:
    """One layer, hidden from screen readers: the rules are said in words beside the grid."""
    if not parts:
        return Markup("")
    return Markup(
        f'<svg class="rules {kind}" viewBox="0 0 {size} {size}" preserveAspectRatio="none" '
        f'aria-hidden="true" focusable="false">{"".join(parts)}</svg>'
    )
