"""Link-preview PNGs: format, size bound, determinism, and inks that tell givens from solved."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from sudoku_web.core.board import Geometry, hyper, jigsaw, parse_puzzle, standard, x_sudoku
from sudoku_web.core.solver import solve
from sudoku_web.web.render.preview import (
    GIVEN_INK,
    GRID_SIDE,
    HEIGHT,
    MARK,
    SHADE,
    SOLVED_INK,
    TOP,
    WIDTH,
    render_png,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JIGSAW5 = "AAABBACABBCCCDBCEDDDEEEED"
GEOMETRIES = {
    "4x4": standard(4),
    "6x6": standard(6),
    "9x9": standard(9),
    "16x16": standard(16),
    "x": x_sudoku(9),
    "hyper": hyper(),
    "jigsaw5": jigsaw(JIGSAW5),
}


def _puzzle(geo: Geometry) -> tuple[list[int], list[int]]:
    """A full solution for ``geo`` and a puzzle keeping every third cell of it."""
    solution = parse_puzzle(solve([0] * geo.cells, geometry=geo).solutions[0], geo)
    givens = [v if c % 3 == 0 else 0 for c, v in enumerate(solution)]
    return givens, solution


def _decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _colours(image: Image.Image) -> set[tuple[int, ...]]:
    """Every RGB colour present in an image."""
    return {c for _, c in image.getcolors(maxcolors=1 << 16) or [] if isinstance(c, tuple)}


def _cell_colours(image: Image.Image, geo: Geometry, cell: int) -> set[tuple[int, ...]]:
    """Colours inside one cell, borders excluded."""
    side = GRID_SIDE // geo.size
    left = (WIDTH - side * geo.size) // 2
    row, col = divmod(cell, geo.size)
    x0, y0 = left + col * side + 4, TOP + row * side + 4
    box = image.crop((x0, y0, x0 + side - 8, y0 + side - 8))
    return _colours(box)


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_png_is_small_and_sized_for_cards(name: str) -> None:
    geo = GEOMETRIES[name]
    givens, solution = _puzzle(geo)
    png = render_png(givens, solution, geo, "Solved: exactly one solution")
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) <= 60 * 1024
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, HEIGHT)
    assert image.mode == "P"  # 8-bit palette keeps it small


@pytest.mark.parametrize("name", ["9x9", "16x16", "jigsaw5"])
def test_same_input_same_bytes(name: str) -> None:
    geo = GEOMETRIES[name]
    givens, solution = _puzzle(geo)
    first = render_png(givens, solution, geo, "Solved")
    assert render_png(list(givens), list(solution), geo, "Solved") == first
    assert render_png(givens, solution, geo, "Unsolvable") != first


@pytest.mark.parametrize("name", ["4x4", "9x9", "16x16", "jigsaw5"])
def test_givens_and_solved_digits_use_different_inks(name: str) -> None:
    geo = GEOMETRIES[name]
    givens, solution = _puzzle(geo)
    image = _decode(render_png(givens, solution, geo, "Solved"))
    given_cell = next(c for c, v in enumerate(givens) if v)
    solved_cell = next(c for c, v in enumerate(givens) if not v)
    in_given = _cell_colours(image, geo, given_cell)
    in_solved = _cell_colours(image, geo, solved_cell)
    assert GIVEN_INK in in_given and SOLVED_INK not in in_given
    assert SOLVED_INK in in_solved and GIVEN_INK not in in_solved


def test_without_a_solution_only_givens_are_drawn() -> None:
    geo = GEOMETRIES["9x9"]
    givens, _ = _puzzle(geo)
    image = _decode(render_png(givens, None, geo, "No solution"))
    colours = _colours(image)
    assert GIVEN_INK in colours
    assert SOLVED_INK not in colours


def test_solution_as_text_draws_the_same_picture() -> None:
    geo = GEOMETRIES["16x16"]
    givens, solution = _puzzle(geo)
    text = solve([0] * geo.cells, geometry=geo).solutions[0]
    assert render_png(givens, text, geo, "Solved") == render_png(givens, solution, geo, "Solved")


@pytest.mark.parametrize(("name", "cell"), [("x", 0), ("x", 8), ("hyper", 10), ("hyper", 70)])
def test_diagonals_and_windows_are_shaded(name: str, cell: int) -> None:
    geo = GEOMETRIES[name]
    image = _decode(render_png([0] * geo.cells, None, geo, "Empty"))
    assert SHADE in _cell_colours(image, geo, cell)
    assert SHADE not in _cell_colours(image, geo, 1)


def test_marked_cells_are_tinted() -> None:
    geo = GEOMETRIES["9x9"]
    image = _decode(render_png([0] * 81, None, geo, "Unsolvable", marked=[40]))
    assert MARK in _cell_colours(image, geo, 40)
    assert MARK not in _cell_colours(image, geo, 41)


def test_a_long_status_still_renders() -> None:
    geo = GEOMETRIES["9x9"]
    png = render_png([0] * 81, None, geo, "No solution: " + "these givens clash " * 20)
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_wrong_lengths_are_refused() -> None:
    geo = GEOMETRIES["4x4"]
    with pytest.raises(ValueError, match="16 values"):
        render_png([0] * 15, None, geo, "x")
    with pytest.raises(ValueError, match="16 values"):
        render_png([0] * 16, [1] * 15, geo, "x")
