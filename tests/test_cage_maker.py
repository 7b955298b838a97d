"""The killer generator's cages: connected, of different digits, covering the grid, with a
unique solution, on every board; steering merges or splits cages towards the grade."""

from __future__ import annotations

import random

import pytest

from sudoku_web.core.board import Cage, Geometry, jigsaw, standard, x_sudoku
from sudoku_web.core.cage_maker import (
    SIZE_WEIGHTS,
    make_killer,
    neighbours,
    partition,
    split,
    steer,
    unique,
)
from sudoku_web.core.cages import cage_errors
from sudoku_web.core.generate import solution_grid
from sudoku_web.core.logic import Grade
from sudoku_web.core.solver import solve

BOARDS = [standard(9), standard(6), standard(4), x_sudoku(9), jigsaw("AABBAABBCCDDCCDD")]


def connected(cells: tuple[int, ...], n: int) -> bool:
    members = set(cells)
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        for nb in neighbours(todo.pop(), n):
            if nb in members and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == members


def check_cages(cages: list[Cage] | tuple[Cage, ...], solution: list[int], geo: Geometry) -> None:
    assert sorted(c for cage in cages for c in cage.cells) == list(range(geo.cells))
    for cage in cages:
        digits = [solution[c] for c in cage.cells]
        assert len(set(digits)) == len(digits) and sum(digits) == cage.total
        assert connected(cage.cells, geo.size)
    assert cage_errors(geo, tuple(cages), solution) == []


@pytest.mark.parametrize("geo", BOARDS, ids=lambda g: f"{g.variant}{g.size}")
@pytest.mark.parametrize("grade", ["Easy", "Diabolical"])
def test_partition_covers_with_connected_cages_of_different_digits(
    geo: Geometry, grade: str
) -> None:
    rng = random.Random(7)
    solution = solution_grid(geo, rng)
    assert solution is not None
    cages = partition(solution, geo, rng, SIZE_WEIGHTS[grade])
    check_cages(cages, solution, geo)
    singles = sum(len(c.cells) == 1 for c in cages)
    assert singles <= geo.cells // 10  # one-cell cages are givens in disguise: few


def test_harder_grades_draw_bigger_cages() -> None:
    geo = standard(9)
    sizes: dict[str, float] = {}
    for grade in ("Easy", "Diabolical"):
        counts = []
        for seed in range(5):
            rng = random.Random(seed)
            solution = solution_grid(geo, rng)
            assert solution is not None
            counts.append(len(partition(solution, geo, rng, SIZE_WEIGHTS[grade])))
        sizes[grade] = 81 / (sum(counts) / len(counts))
    assert sizes["Diabolical"] > sizes["Easy"] + 0.5


@pytest.mark.parametrize("geo", BOARDS, ids=lambda g: f"{g.variant}{g.size}")
def test_make_killer_has_a_unique_solution_without_givens(geo: Geometry) -> None:
    rng = random.Random(3)
    solution = solution_grid(geo, rng)
    assert solution is not None
    graded: list[Geometry] = []

    def grader(board: Geometry) -> Grade:
        graded.append(board)
        return "Medium"

    made = make_killer(solution, geo, "Medium", rng, grader)
    assert made is not None
    board, got = made
    assert got == "Medium" and graded == [board]
    assert board.base == geo.base
    check_cages(board.cages, solution, geo)
    result = solve("." * geo.cells, geometry=board)
    assert result.status == "solved"
    assert [int(ch, 17) for ch in result.solutions[0]] == solution


def test_unique_splits_until_one_solution() -> None:
    geo = standard(4)
    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    # Whole rows as cages say nothing (every row adds to 10): many solutions.
    rows = [Cage(10, tuple(range(r * 4, r * 4 + 4))) for r in range(4)]
    assert solve("." * 16, geometry=geo.with_cages(rows)).status == "multiple"
    found = unique(rows, solution, geo, random.Random(1))
    assert found is not None
    check_cages(found, solution, geo)
    assert solve("." * 16, geometry=geo.with_cages(found)).status == "solved"


def test_split_gives_connected_parts_with_their_sums() -> None:
    solution = list(range(1, 10)) * 9
    cage = Cage(1 + 2 + 3 + 4, (0, 1, 2, 3))
    for seed in range(10):
        parts = split(cage, solution, 9, random.Random(seed))
        assert len(parts) >= 2
        assert sorted(c for p in parts for c in p.cells) == [0, 1, 2, 3]
        assert sum(p.total for p in parts) == cage.total
        assert all(connected(p.cells, 9) for p in parts)


@pytest.mark.parametrize(("start", "target"), [("Easy", "Hard"), ("Hard", "Easy")])
def test_steer_merges_for_harder_and_splits_for_easier(start: Grade, target: Grade) -> None:
    geo = standard(9)
    rng = random.Random(5)
    solution = solution_grid(geo, rng)
    assert solution is not None
    made = make_killer(solution, geo, "Medium", rng, lambda board: "Medium")
    assert made is not None
    board = made[0]
    before = len(board.cages)
    # A grader that calls a board harder the fewer cages it has.
    grades: list[Grade] = ["Easy", "Medium", "Hard"]

    def by_count(b: Geometry) -> Grade:
        if b is board:
            return start
        return grades[0] if len(b.cages) > before else grades[2]

    steered, got = steer(board, start, solution, target, rng, by_count, None)
    assert got == target
    if target == "Hard":
        assert len(steered.cages) < before
        assert solve("." * 81, geometry=steered).status == "solved"
    else:
        assert len(steered.cages) > before
    check_cages(steered.cages, solution, geo)
