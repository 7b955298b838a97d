"""core.generate: puzzles with exactly one solution, of the grade asked for, from a seed."""

from __future__ import annotations

import random
import time

import pytest

from sudoku_web.core.board import BOX_SHAPES, InvalidPuzzle, find_conflicts, jigsaw
from sudoku_web.core.board import parse_puzzle as parse
from sudoku_web.core.generate import (
    Generated,
    OutOfTime,
    carve,
    generate,
    random_jigsaw,
    region_text,
    solution_grid,
)
from sudoku_web.core.logic import grade
from sudoku_web.core.solver import solve
from sudoku_web.core.variants import geometry_for


def assert_proper(found: Generated) -> None:
    """One solution (the engine's, checking uniqueness), the givens agree with it, and the
    grader's grade is the one reported."""
    geo = found.geometry
    result = solve(found.puzzle, geometry=geo, deadline_ms=None)
    assert result.status == "solved"
    assert result.solution == found.solution
    givens = parse(found.puzzle, geo)
    solution = parse(found.solution, geo)
    assert all(g in (0, s) for g, s in zip(givens, solution, strict=True))
    assert not find_conflicts(solution, geo) and all(solution)
    assert grade(givens, geo).grade == found.grade
    assert found.clues == sum(1 for v in givens if v)


# Small sizes and the grades found in a few attempts keep this quick; the top grades are
# covered through the pool (tests/test_pool.py).
CASES = [
    ("standard", 9, "Easy"),
    ("standard", 9, "Medium"),
    ("standard", 9, "Hard"),
    ("x", 9, "Easy"),
    ("x", 9, "Fiendish"),
    ("hyper", 9, "Medium"),
    ("jigsaw", 9, "Easy"),
    ("jigsaw", 6, "Easy"),
    ("standard", 6, "Easy"),
    ("standard", 4, "Easy"),
    ("x", 6, "Easy"),
]


@pytest.mark.parametrize(("variant", "size", "asked"), CASES)
def test_generated_puzzle_is_proper_and_of_the_grade_asked(
    variant: str, size: int, asked: str
) -> None:
    found = generate(variant, size, asked, seed=f"test-{variant}-{size}-{asked}")
    assert found.reached and found.grade == asked and found.cut == ""
    assert found.geometry.variant == variant and found.geometry.size == size
    assert_proper(found)


@pytest.mark.slow
def test_16x16_easy_is_proper() -> None:
    found = generate("standard", 16, "Easy", seed=1)
    assert found.reached
    assert_proper(found)


@pytest.mark.parametrize(("variant", "size"), [("standard", 9), ("x", 9), ("standard", 6)])
def test_boxed_grids_are_symmetric_by_default(variant: str, size: int) -> None:
    """A half turn maps every given onto a given."""
    found = generate(variant, size, "Easy", seed=5)
    cells = size * size
    assert found.symmetric
    for cell, ch in enumerate(found.puzzle):
        assert (ch == "0") == (found.puzzle[cells - 1 - cell] == "0")


def test_asymmetric_on_request() -> None:
    found = generate("standard", 9, "Easy", seed=5, symmetric=False)
    assert not found.symmetric
    assert_proper(found)


def test_same_seed_same_puzzle_and_other_seeds_differ() -> None:
    first = generate("standard", 9, "Medium", seed="same")
    again = generate("standard", 9, "Medium", seed="same")
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)
    others = {generate("standard", 9, "Easy", seed=s).puzzle for s in range(5)}
    assert len(others) == 5


def test_same_seed_same_jigsaw_map() -> None:
    first = generate("jigsaw", 9, "Easy", seed=3)
    again = generate("jigsaw", 9, "Easy", seed=3)
    assert first.regions == again.regions and first.puzzle == again.puzzle


def test_no_seed_still_reports_the_one_used() -> None:
    found = generate("standard", 4, "Easy")
    assert found.seed is not None
    assert generate("standard", 4, "Easy", seed=found.seed).puzzle == found.puzzle


@pytest.mark.parametrize("size", range(4, 17))
def test_random_jigsaw_maps_are_valid(size: int) -> None:
    """N regions of N connected cells (board.jigsaw checks all three), not just the boxes."""
    geo = random_jigsaw(size, random.Random(size))
    text = region_text(geo.regions or ())
    assert jigsaw(text) == geo
    assert len(set(text)) == size
    if size in BOX_SHAPES:
        assert geo.regions != geometry_for("standard", size).box_index


def test_given_region_map_is_kept() -> None:
    regions = "AAABBACABBCCCDBCEDDDEEEED"
    found = generate("jigsaw", 5, "Easy", seed=2, regions=regions)
    assert found.regions == region_text(jigsaw(regions).regions or ())
    assert_proper(found)


def test_a_region_map_only_for_jigsaw() -> None:
    with pytest.raises(InvalidPuzzle, match="Only jigsaw"):
        generate("standard", 4, "Easy", regions="AABBAABBCCDDCCDD")


def test_a_map_without_any_solution_grid_is_refused() -> None:
    """A valid map (4 connected regions of 4) on which no grid keeps every rule."""
    regions = "ABBBAABCDACCDDDC"
    assert solve("0" * 16, variant="jigsaw", regions=regions).status == "unsolvable"
    with pytest.raises(InvalidPuzzle, match="no solution grid"):
        generate("jigsaw", 4, "Easy", regions=regions, max_attempts=2)


def test_grade_not_reached_is_said_honestly() -> None:
    """4x4 grids never need more than singles: the search ends on its attempt budget and the
    puzzle it returns is still proper and carries its own grade."""
    found = generate("standard", 4, "Hard", seed=1, max_attempts=3)
    assert not found.reached and found.cut == "attempts" and found.attempts == 3
    assert found.grade == "Easy" and found.asked == "Hard"
    assert_proper(found)


def test_deadline_stops_before_the_next_attempt() -> None:
    found = generate("standard", 4, "Hard", seed=1, max_attempts=1000, deadline_ms=0)
    assert found.attempts == 1 and found.cut == "deadline" and not found.reached


def test_a_grading_the_deadline_cuts_counts_for_nothing() -> None:
    """Past the deadline the grader tries only the cheap rungs, so its word for a hard puzzle
    would be a guess at most: carving then returns no grade, and generate says it ran out of
    time instead of filing the puzzle under a grade it does not have."""
    geo = geometry_for("standard", 9)
    solution = solution_grid(geo, random.Random(1))
    assert solution is not None
    puzzle, got = carve(solution, geo, "Hard", random.Random(1), deadline=time.perf_counter() - 1)
    unhurried = grade(puzzle, geo, solution=solution).grade
    assert got is None and unhurried not in ("Easy", "Medium")  # a minimal puzzle, ungraded
    with pytest.raises(OutOfTime):
        generate("standard", 9, "Diabolical", seed=7, max_attempts=5, deadline_ms=0)


@pytest.mark.parametrize(
    ("variant", "size", "asked", "error"),
    [
        ("standard", 9, "Impossible", ValueError),
        ("nonsense", 9, "Easy", InvalidPuzzle),
        ("hyper", 6, "Easy", InvalidPuzzle),
        ("standard", 5, "Easy", InvalidPuzzle),
        ("jigsaw", 17, "Easy", InvalidPuzzle),
    ],
)
def test_bad_requests_raise_with_a_message(
    variant: str, size: int, asked: str, error: type[Exception]
) -> None:
    with pytest.raises(error) as info:
        generate(variant, size, asked, seed=1)
    assert str(info.value)


@pytest.mark.parametrize(
    ("variant", "size", "asked"),
    [("killer", 9, "Easy"), ("killer", 9, "Medium"), ("killer", 6, "Easy")],
)
def test_generate_killers_no_givens_unique_and_graded(variant: str, size: int, asked: str) -> None:
    found = generate(variant, size, asked, seed=1, max_attempts=4)
    assert found.reached and found.grade == asked
    assert found.clues == 0 and found.puzzle == "0" * size * size
    board = found.geometry
    assert board.cages and board.base == geometry_for("standard", size)
    assert sorted(c for cage in board.cages for c in cage.cells) == list(range(size * size))
    result = solve(found.puzzle, geometry=board)
    assert result.status == "solved" and result.solution == found.solution
    assert grade([0] * board.cells, board).grade == asked
    # The same seed gives the same killer.
    assert generate(variant, size, asked, seed=1, max_attempts=4).geometry == board


def test_generate_killer_x_through_the_cages_flag() -> None:
    found = generate("x", 9, "Easy", seed=2, max_attempts=4, cages=True)
    assert found.geometry.variant == "x" and found.geometry.cages
    assert solve(found.puzzle, geometry=found.geometry).status == "solved"


def test_a_killer_search_tells_of_every_cage_set_it_grades() -> None:
    """graded_board hears each board the search grades, with the grader's own word for it;
    the puzzle returned is among them."""
    heard: list[tuple[object, str]] = []
    found = generate(
        "killer", 6, "Hard", seed=5, max_attempts=2, graded_board=lambda b, g: heard.append((b, g))
    )
    assert heard and (found.geometry, found.grade) in heard
    for board, said in heard[:4]:
        solved = solve([0] * 36, geometry=board, deadline_ms=None)  # type: ignore[arg-type]
        if solved.status != "solved":
            continue  # a split may open a second solution: the caller checks (see pool fill)
        solution = parse(solved.solutions[0], board)  # type: ignore[arg-type]
        assert grade([0] * 36, board, solution=solution).grade == said  # type: ignore[arg-type]
