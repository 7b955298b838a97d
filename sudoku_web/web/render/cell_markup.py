"""The HTML the web layer writes in Python, all of it here: grid cells and rows.

Every other piece of markup is a template. These are not, for cost: a read-only grid is up
to 256 cells (16x16) and a steps page holds twenty pencil grids, and a Jinja loop or macro
per cell cost a large share of an uncached result page and more than the explanation behind
a steps page (benchmarks/RESULTS.md). So the templates print rows drawn here:
``_grid.html`` prints :func:`read_only_rows` (through ``BoardView.rows_html``; its editable
grids loop in the macro) and ``_candidates.html`` prints :func:`pencil_rows` (through
``PencilGrid.rows_html``); the play grid is a template loop (its cells are form fields).

What is written here is checked against what the templates would write by the tests of
boards and pencil grids (tests/test_boards.py, tests/test_steps_drawing.py). Every text that
comes from a request is escaped; classes, labels and cage sums come from per-geometry tables
built from the geometry alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from markupsafe import Markup, escape

from ..runtime.memo import byte_cache


def cell_classes(kind: str, tail: str, bad: bool, diff: bool) -> str:
    """A grid cell's classes: ``cell <kind>``, the board's (``boards.cell_statics``), its
    marks."""
    return f"cell {kind}{tail}{' invalid' if bad else ''}{' differs' if diff else ''}"


@byte_cache(2 * 1024 * 1024)  # per sum text; cages come from user input
def cage_sum_html(total: str) -> str:
    """The sum drawn in a cage's first cell (hidden from screen readers: labels say it)."""
    return f'<span class="cage-sum" aria-hidden="true">{total}</span>' if total else ""


def read_only_rows(
    size: int,
    statics: Sequence[tuple[str, str, str]],
    safe: Mapping[str, str],
    texts: Sequence[str],
    kinds: Sequence[str],
    invalid: frozenset[int],
    differs: frozenset[int],
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
        out.append(_td(tail, label, shown, kind, index in invalid, index in differs, total))
    if out:
        out.append("\n    </tr>")
    return Markup("".join(out))


def _td(
    tail: str, label: str, shown: str, kind: str, bad: bool, diff: bool, total: str = ""
) -> str:
    """One read-only cell (see :func:`read_only_rows`); ``shown`` is already escaped;
    ``total``: the cage sum drawn in it (a cage's first cell)."""
    return (
        f'\n      <td class="{cell_classes(kind, tail, bad, diff)}" '
        f'aria-label="{label}: {shown or "blank"}'
        f"{' (solved)' if kind == 'solved' else ''}{' (differs)' if diff else ''}"
        f'{" (conflict)" if bad else ""}">{cage_sum_html(total)}{shown}</td>'
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
