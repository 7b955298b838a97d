"""A board's rules drawn (sudoku_web.web.render.drawing, .outlines, .preview, .exports),
counted against the f-puzzles JSON each puzzle was read from (not against the drawing code):
every line, bulb, dot, letter, outside clue, shaded cell and cage is drawn once, in the right
layer; the PNG draws the same marks where the pages do; the rules are said in words; and the
"Open in f-puzzles" link opens the same puzzle."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from sudoku_web.core.board import x_sudoku
from sudoku_web.core.rules import fpuzzles
from sudoku_web.core.rules.board import build
from sudoku_web.core.rules.spelling import parse
from sudoku_web.core.wording import Words
from sudoku_web.web.render.drawing import overlay, rule_words
from sudoku_web.web.render.exports import fpuzzles_url
from sudoku_web.web.render.marks import board_drawing, centre, clue_point, edge_point
from sudoku_web.web.render.outlines import cage_marks
from sudoku_web.web.render.preview import GIVEN_INK, PAPER, render_png

DATA = Path(__file__).parent / "data" / "variants_fpuzzles.jsonl"
PUZZLES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
LINE_FIELDS = ("thermometer", "arrow", "whispers", "renban", "palindrome")

# Kinds the published set lacks: whispers, renban, palindrome, a pill arrow, sandwich clues
# on two sides, XV letters, odd and even cells, a cage without a total, a 6x6 board.
OWN = {
    "size": 6,
    "grid": [[{} for _ in range(6)] for _ in range(6)],
    "whispers": [{"lines": [["R1C1", "R2C2", "R3C3"]]}],
    "renban": [{"lines": [["R6C1", "R6C2", "R6C3"]]}],
    "palindrome": [{"lines": [["R4C4", "R5C4", "R6C5"]]}],
    "arrow": [{"cells": ["R1C5", "R1C6"], "lines": [["R1C5", "R2C5", "R3C5"]]}],
    "sandwichsum": [{"cell": "R0C2", "value": "5"}, {"cell": "R3C0", "value": "0"}],
    "xv": [{"cells": ["R5C5", "R5C6"], "value": "X"}],
    "odd": [{"cell": "R2C6"}],
    "even": [{"cell": "R3C6"}],
    "killercage": [{"cells": ["R5C1", "R5C2"]}],
}


def _expected(data: dict[str, Any]) -> dict[str, int]:
    """What the puzzle's f-puzzles JSON asks to draw, counted from the JSON alone."""
    lines = sum(len(item["lines"]) for field in LINE_FIELDS for item in data.get(field, []))
    lines += sum(data.get(flag) is True for flag in ("diagonal+", "diagonal-"))
    return {
        "line": lines,
        "head": sum(len(item["lines"]) for item in data.get("arrow", [])),
        "bulb": len(data.get("thermometer", [])) + len(data.get("arrow", [])),
        "dot": len(data.get("difference", [])) + len(data.get("ratio", [])),
        "letter": len(data.get("xv", [])),
        "clue": len(data.get("littlekillersum", [])) + len(data.get("sandwichsum", [])),
        "shade": len(data.get("odd", [])) + len(data.get("even", [])),
        "cage": len(data.get("killercage", [])),
    }


def _drawn(geometry: Any) -> dict[str, int]:
    """What the page layers draw, counted in their markup."""
    layers = overlay(geometry)
    under = str(layers.under) if layers else ""
    over = str(layers.over) if layers else ""
    marks = cage_marks(geometry)
    owners = {cells for cells in _cages(geometry, marks)}
    return {
        "line": under.count('<polyline class="rl ') - under.count("rl-head"),
        "head": under.count("rl-head"),
        "bulb": under.count('class="rb '),
        "dot": len(re.findall(r'class="rd rd-(?:white|black)"', over)),
        "letter": over.count('class="rd rd-letter"'),
        "clue": over.count('class="rc"'),
        "shade": under.count('class="rs '),
        "cage": len(owners),
    }


def _cages(geometry: Any, marks: tuple[tuple[str, int, str], ...]) -> list[frozenset[int]]:
    """The cages cage_marks outlines: cells joined where no outline runs between them."""
    n = geometry.size
    seen: set[int] = set()
    out = []
    for start, (classes, _, _) in enumerate(marks):
        if not classes or start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            cell = todo.pop()
            if cell in group:
                continue
            group.add(cell)
            sides = set(marks[cell][0].split())
            row, col = divmod(cell, n)
            for side, nxt, ok in (
                ("kt", cell - n, row > 0),
                ("kb", cell + n, row < n - 1),
                ("kl", cell - 1, col > 0),
                ("kr", cell + 1, col < n - 1),
            ):
                if ok and side not in sides:
                    todo.append(nxt)
        seen |= group
        out.append(frozenset(group))
    return out


CASES = [(p["id"], p["fpuzzles"]) for p in PUZZLES] + [("own-6x6", OWN)]


@pytest.mark.parametrize(("name", "data"), CASES, ids=[c[0] for c in CASES])
def test_every_rule_is_drawn_once(name: str, data: dict[str, Any]) -> None:
    geometry = fpuzzles.read(data).geometry
    assert _drawn(geometry) == _expected(data)


@pytest.mark.parametrize(("name", "data"), CASES, ids=[c[0] for c in CASES])
def test_rules_are_said_in_words(name: str, data: dict[str, Any]) -> None:
    geometry = fpuzzles.read(data).geometry
    words = rule_words(geometry)
    assert words is not None
    for rule in geometry.rules:
        assert Words(rule.WORDS) in words.kinds
        assert rule.describe(geometry) in words.clues


def test_marks_sit_on_edges_and_clues_outside() -> None:
    """Dots on the edge between their cells, clues one cell outside the grid, with room made
    on exactly the sides that have them."""
    geometry = fpuzzles.read(OWN).geometry
    drawing = board_drawing(geometry)
    n = geometry.size
    for dot in drawing.dots:
        (ax, ay), (bx, by) = (centre(c, n) for c in dot.cells)
        x, y = edge_point(dot.cells, n)
        assert abs(ax - bx) + abs(ay - by) == 1 and (x, y) == ((ax + bx) / 2, (ay + by) / 2)
    for clue in drawing.clues:
        x, y = clue_point(clue.at)
        assert x < 0 or y < 0 or x > n or y > n
    layers = overlay(geometry)
    assert layers is not None and layers.rooms == "room-t room-l"


def test_a_board_without_rules_draws_nothing() -> None:
    assert overlay(x_sudoku(9)) is None
    assert rule_words(x_sudoku(9)) is None


def _pixel(png: bytes, xy: tuple[float, float]) -> tuple[int, ...]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return tuple(image.getpixel((round(xy[0]), round(xy[1]))))


def _grid_box(png: bytes) -> tuple[int, int, int, int]:
    """The grid's frame in the picture (left, top, right, bottom of its cells): the first and
    last rows, above the status band, crossed by a run of ink longer than half the picture
    (the frame's top and bottom lines; clues are short)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    rows = []
    for y in range(570):
        run = best = start = best_start = 0
        for x in range(600):
            if image.getpixel((x, y)) == GIVEN_INK:
                if run == 0:
                    start = x
                run += 1
                if run > best:
                    best, best_start = run, start
            else:
                run = 0
        if best > 300:
            rows.append((y, best_start, best_start + best - 1))
    (top, left, right), (bottom, _, _) = rows[0], rows[-1]
    # The frame is 3 px wide, drawn from one pixel outside the cells.
    return left + 1, top + 1, right - 1, bottom - 1


def _drawn_png(name: str) -> tuple[bytes, Any, float, float, float]:
    """A published puzzle's picture, its board, and where its cells are: left, top, side."""
    imported = fpuzzles.read(next(p for p in PUZZLES if p["id"] == name)["fpuzzles"])
    png = render_png(list(imported.givens), None, imported.geometry, "Solved")
    left, top, right, _ = _grid_box(png)
    return png, imported.geometry, left, top, (right - left) / imported.geometry.size


def test_the_png_draws_dots_and_clues() -> None:
    """A black dot is ink at its edge's middle; the grid shrinks to leave its clues room,
    and a clue's number is inked there."""
    png, geometry, left, top, cell = _drawn_png("sudokutools-07")
    assert cell < 540 / 9  # room made for the little killers
    for dot in board_drawing(geometry).dots:
        x, y = edge_point(dot.cells, geometry.size)
        assert _pixel(png, (left + x * cell, top + y * cell)) == GIVEN_INK
    x, y = clue_point(board_drawing(geometry).clues[0].at)
    cx, cy = left + x * cell, top + y * cell
    half = cell / 2
    square = (round(cx - half), round(cy - half), round(cx + half), round(cy + half))
    box = Image.open(io.BytesIO(png)).convert("RGB").crop(square)
    assert GIVEN_INK in {c for _, c in box.getcolors(1 << 16) or []}


def test_the_png_draws_a_white_dot() -> None:
    """A white dot is paper at its edge's middle, ringed in ink."""
    png, geometry, left, top, cell = _drawn_png("sudokutools-22")
    whites = [dot for dot in board_drawing(geometry).dots if dot.fill == "white"]
    assert whites
    for dot in whites:
        x, y = edge_point(dot.cells, geometry.size)
        assert _pixel(png, (left + x * cell, top + y * cell)) == PAPER
        assert _pixel(png, (left + x * cell + 0.13 * cell - 0.5, top + y * cell)) != PAPER


@pytest.mark.parametrize(("name", "data"), CASES, ids=[c[0] for c in CASES])
def test_open_in_fpuzzles_opens_the_same_puzzle(name: str, data: dict[str, Any]) -> None:
    imported = fpuzzles.read(data)
    puzzle = "".join(str(v) if v < 10 else chr(55 + v) for v in imported.givens)
    url = fpuzzles_url(imported.geometry, puzzle)
    assert url is not None and url.startswith("https://f-puzzles.com/?load=")
    again = fpuzzles.load(url)
    assert again.geometry.rules == imported.geometry.rules
    assert again.givens == imported.givens


def test_no_fpuzzles_link_when_it_would_lose_a_rule() -> None:
    """An X board not spelled as rules keeps its diagonals in houses f-puzzles would not get;
    spelled as rules it has its link."""
    assert fpuzzles_url(x_sudoku(9), "0" * 81) is None
    spelled = build(9, parse("dg_p.dg_m", 9))
    assert fpuzzles_url(spelled, "0" * 81) is not None
