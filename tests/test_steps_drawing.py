"""The chain of a chain step drawn on its pencil grid (steps page): one SVG curve per link of
``Step.links``, strong and weak told apart, the start ringed and the eliminations crossed out."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sudoku_web.core.board import standard
from sudoku_web.core.logic import Explanation, Step, explain
from sudoku_web.core.techniques import node_cells
from sudoku_web.web.render.teaching_display import _slots

TOP95 = [
    line.strip().replace(".", "0")
    for line in (Path(__file__).parent / "data" / "top95.txt").read_text().split()
    if line.strip()
]
GEO = standard(9)


CHAINS = frozenset({"X-chain", "XY-chain", "Alternating chain"})
# Almost locked sets are drawn as chains too: strong inside a set, weak between sets.
ALS_CHAINS = frozenset({"ALS-XZ", "ALS-XY-wing", "ALS chain"})


def chain_puzzle(techniques: frozenset[str] = CHAINS) -> tuple[str, Explanation, int]:
    """The first top95 puzzle whose explanation holds a step of one of ``techniques`` (chains
    by default), and that step's number."""
    for puzzle in TOP95:
        explanation = explain(puzzle, GEO)
        for i, step in enumerate(explanation.steps):
            if step.links and step.technique in techniques:
                return puzzle, explanation, i + 1
    raise AssertionError(f"no step of {sorted(techniques)} in top95")


def _step_html(html: str, number: int) -> str:
    match = re.search(rf'<li id="step-{number}".*?</li>', html, re.S)
    assert match, f"no step {number}"
    return match.group(0)


def _num(attrs: str, name: str) -> float:
    match = re.search(rf'\b{name}="([-0-9.]+)"', attrs)
    assert match, f"no {name} in {attrs}"
    return float(match.group(1))


def _inside(x: float, y: float, cell: int, digit: int) -> bool:
    """True when (x, y), in cell units, lies in ``cell`` and in ``digit``'s candidate slot."""
    row, col = divmod(cell, 9)
    per_line = _slots(GEO)
    slot_row, slot_col = divmod(digit - 1, per_line)
    fx, fy = (x - col) * per_line, (y - row) * per_line
    return slot_col <= fx <= slot_col + 1 and slot_row <= fy <= slot_row + 1


def _near(x: float, y: float, cell: int, digit: int) -> bool:
    """True when a shortened line end lies in the cell, at most a slot from the candidate."""
    row, col = divmod(cell, 9)
    per_line = _slots(GEO)
    slot_row, slot_col = divmod(digit - 1, per_line)
    cx, cy = col + (slot_col + 0.5) / per_line, row + (slot_row + 0.5) / per_line
    in_cell = col <= x <= col + 1 and row <= y <= row + 1
    return in_cell and abs(x - cx) <= 0.5 / per_line and abs(y - cy) <= 0.5 / per_line


@pytest.mark.parametrize("techniques", [CHAINS, ALS_CHAINS], ids=["chain", "als"])
def test_a_chain_step_draws_one_line_per_link_with_start_and_eliminations(
    client: Any, techniques: frozenset[str]
) -> None:
    puzzle, explanation, number = chain_puzzle(techniques)
    step: Step = explanation.steps[number - 1]
    html = client.get(f"/p/{puzzle}/steps?step={number}").get_data(as_text=True)
    block = _step_html(html, number)
    svgs = re.findall(r"<svg\b.*?</svg>", block, re.S)
    assert len(svgs) == 1
    svg = svgs[0]
    assert 'class="chain"' in svg and 'viewBox="0 0 9 9"' in svg and 'role="img"' in svg
    assert "style" not in svg  # the CSP forbids inline style: attributes and classes only
    lines = re.findall(r"<path (class=\"chain-link[^>]*)/>", svg)
    assert len(lines) == len(step.links)
    for attrs, ((a, da), (b, db), strong) in zip(lines, step.links, strict=True):
        kind = "strong" if strong else "weak"
        assert f'class="chain-link {kind}"' in attrs
        assert f'marker-end="url(#chain-{number}-{kind})"' in attrs
        number_ = r"([-0-9.]+)"
        path = re.search(rf'd="M{number_} {number_} Q[-0-9. ]+? {number_} {number_}"', attrs)
        assert path, attrs
        x1, y1, x2, y2 = (float(v) for v in path.groups())
        assert _near(x1, y1, a, da), (attrs, a, da)
        assert _near(x2, y2, b, db), (attrs, b, db)
    # Both kinds of link appear in an alternating chain, drawn differently.
    assert {s for *_, s in step.links} == {True, False}
    start = re.search(r'<circle class="chain-start" ([^>]*)/>', svg)
    assert start
    (cell, digit) = step.links[0][0]
    assert _inside(_num(start.group(1), "cx"), _num(start.group(1), "cy"), cell, digit)
    # Each removed candidate is crossed out (two strokes through its slot), never ringed: a
    # circle means placed, or the chain's start.
    crosses = re.findall(r'<path class="chain-elim" d="([^"]*)"/>', svg)
    assert len(crosses) == len(step.eliminations) > 0
    for d, (cell, digit) in zip(crosses, step.eliminations, strict=True):
        x1, y1, x2, y2 = (float(v) for v in re.findall(r"[-0-9.]+", d)[:4])
        assert _inside((x1 + x2) / 2, (y1 + y2) / 2, cell, digit)
    # The chain in words, for a screen reader, from its start.
    first = f"{GEO.cell_name(cell)} {digit}"
    label = re.search(r'aria-label="(Chain: [^"]*)"', svg)
    assert label and label.group(1).startswith(f"Chain: {GEO.cell_name(step.links[0][0][0])} ")
    assert "strong to" in label.group(1) and "weak to" in label.group(1)
    assert first in label.group(1)  # the last elimination is named
    assert "A chain is drawn" in html  # the legend explains the drawing


def test_steps_that_are_not_chains_have_no_drawing(client: Any) -> None:
    puzzle, explanation, number = chain_puzzle()
    html = client.get(f"/p/{puzzle}/steps?step=1").get_data(as_text=True)
    first = explanation.steps[0]
    assert first.technique in {"Hidden single", "Naked single"} and not first.links
    assert "<svg" not in _step_html(html, 1)
    shown = [int(n) for n in re.findall(r'<li id="step-(\d+)"', html)]
    drawn = [n for n in shown if "<svg" in _step_html(html, n)]
    # Only chain steps are drawn, and each of them.
    assert drawn == [n for n in shown if explanation.steps[n - 1].links]
    if not drawn:
        assert "A chain is drawn" not in html  # nor is the drawing's legend


def test_a_colouring_step_draws_its_clusters_strong_links(client: Any) -> None:
    # Multi-colouring: the two clusters' strong links, and the weak link where one colour
    # sees a colour of the other cluster; the clusters branch, and the words say where.
    # (The first such step whose links branch: which steps come first moves with the ladder.)
    for puzzle in TOP95:
        explanation = explain(puzzle, GEO)
        steps = explanation.steps
        numbers = [
            i + 1
            for i, s in enumerate(steps)
            if s.technique == "Multi-colouring"
            and any(a[1] != b[0] for a, b in zip(s.links, s.links[1:], strict=False))
        ]
        if numbers:
            break
    else:
        raise AssertionError("no multi-colouring step with branching clusters in top95")
    number = numbers[0]
    step = explanation.steps[number - 1]
    html = client.get(f"/p/{puzzle}/steps?step={number}").get_data(as_text=True)
    svg = re.findall(r"<svg\b.*?</svg>", _step_html(html, number), re.S)[0]
    kinds = re.findall(r'<path class="chain-link (strong|weak)"', svg)
    assert kinds == ["strong" if s else "weak" for *_, s in step.links]
    assert "weak" in kinds and kinds.count("strong") >= 3
    label = re.search(r'aria-label="(Chain: [^"]*)"', svg)
    assert label and ", then from " in label.group(1)
    digit = step.eliminations[0][1]
    for cell in step.cells:  # every coloured cell is named in the words
        assert f"{GEO.cell_name(cell)} {digit}" in label.group(1)


def grouped_puzzle(start_group: bool) -> tuple[str, Explanation, int]:
    """The first top95 puzzle whose explanation holds a chain step with a grouped node (one
    starting at a group, or at a single candidate), and that step's number."""
    for puzzle in TOP95:
        explanation = explain(puzzle, GEO)
        for i, step in enumerate(explanation.steps):
            ends = [node for a, b, _ in step.links for node in (a, b)]
            if (
                any(len(node_cells(n)) > 1 for n in ends)
                and (len(node_cells(step.links[0][0])) > 1) == start_group
            ):
                return puzzle, explanation, i + 1
    raise AssertionError("no grouped chain step in top95")


@pytest.mark.parametrize("start_group", [False, True], ids=["single-start", "group-start"])
def test_a_grouped_chain_outlines_its_groups_and_links_to_them(
    client: Any, start_group: bool
) -> None:
    puzzle, explanation, number = grouped_puzzle(start_group)
    step: Step = explanation.steps[number - 1]
    html = client.get(f"/p/{puzzle}/steps?step={number}").get_data(as_text=True)
    svg = re.findall(r"<svg\b.*?</svg>", _step_html(html, number), re.S)[0]
    assert "style" not in svg
    boxes = [
        (" start" in kind, *(float(v) for v in values))
        for kind, *values in re.findall(
            r'<rect class="chain-group( start)?" x="([-0-9.]+)" y="([-0-9.]+)" '
            r'width="([-0-9.]+)" height="([-0-9.]+)" rx="[-0-9.]+"/>',
            svg,
        )
    ]
    groups = {n for a, b, _ in step.links for n in (a, b) if len(node_cells(n)) > 1}
    assert groups and boxes

    def boxed(cell: int, digit: int) -> list[bool]:
        """For each outline holding ``digit``'s slot centre in ``cell``: is it the start's?"""
        row, col = divmod(cell, 9)
        slot_row, slot_col = divmod(digit - 1, 3)
        x, y = col + (slot_col + 0.5) / 3, row + (slot_row + 0.5) / 3
        return [s for s, bx, by, w, h in boxes if bx <= x <= bx + w and by <= y <= by + h]

    for cells, digit in groups:
        for cell in cells:  # every candidate of a group is outlined ...
            assert boxed(cell, digit)
        for cell in range(81):  # ... and no other candidate of its digit
            if cell not in cells and step.before.masks[cell] >> (digit - 1) & 1:
                assert not any(boxed(cell, digit)) or any(
                    cell in c and d == digit for c, d in groups if (c, d) != (cells, digit)
                )
    # A link to or from a group ends at one of its candidates.
    n = r"([-0-9.]+)"
    lines = re.findall(rf'<path class="chain-link[^>]*d="M{n} {n} Q[-0-9. ]+? {n} {n}"', svg)
    assert len(lines) == len(step.links)
    for (x1, y1, x2, y2), (a, b, _) in zip(lines, step.links, strict=True):
        for x, y, node in ((x1, y1, a), (x2, y2, b)):
            assert any(_near(float(x), float(y), c, node[1]) for c in node_cells(node)), node
    first = step.links[0][0]
    if start_group:  # the group that starts the chain is filled, and there is no start ring
        assert "chain-start" not in svg
        assert all(all(boxed(c, first[1])) for c in node_cells(first))
    else:
        assert '<circle class="chain-start"' in svg
    # The words name a group as its cells.
    cells, digit = next(iter(groups))
    names = " or ".join(GEO.cell_name(c) for c in cells)
    label = re.search(r'aria-label="([^"]*)"', svg)
    assert label and f"({names}) {digit}" in label.group(1)
    assert "boxed" in html  # the legend explains the outline
