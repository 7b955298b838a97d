"""The solver engine: known puzzles, properties against a reference counter, variants, bounds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import count_solutions, status_of

from sudoku_web.core import solver_tables
from sudoku_web.core.board import (
    Geometry,
    format_puzzle,
    hyper,
    jigsaw,
    parse_puzzle,
    standard,
    x_sudoku,
)
from sudoku_web.core.solver import DEFAULT_MAX_NODES, SolveResult, solve, verify

DATA = Path(__file__).parent / "data"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# A top95 puzzle that singles and locked candidates alone do not settle.
GUESSY = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
# Norvig's "impossible" puzzle: no conflict among the givens, no solution, and the
# contradiction shows only deep in the search (his solver took 188 s on it).
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
# Random sparse conflict-free grids that are unsolvable only after some guessing.
DEEP_UNSOLVABLE = [
    "....8.543..6..5..8..9....1..3........4.3.......1...2.7...2.83.....5...........7..",
    "..7....5.....93..7.....4.8....15....9.....7..3..8...2.....2...62...6....75.....9.",
]
# 9x9 jigsaw: the standard boxes with r1c4 and r3c3 swapped between the first two regions.
JIGSAW9 = (
    "AAABBBCCC" "AAABBBCCC" "AABBBBCCC"
    "DDDEEEFFF" "DDDEEEFFF" "DDDEEEFFF"
    "GGGHHHIII" "GGGHHHIII" "GGGHHHIII"
).replace("AAABBBCCC", "AAAABBCCC", 1)  # fmt: skip
JIGSAW5 = "AAABBACABBCCCDBCEDDDEEEED"


def _puzzles(name: str) -> list[str]:
    return [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()]


def _valid(solution: Sequence[int], givens: Sequence[int], geo: Geometry) -> bool:
    """Independent of verify(): every house holds 1..N once and every given is kept."""
    full = list(range(1, geo.size + 1))
    houses_ok = all(sorted(solution[c] for c in h.cells) == full for h in geo.houses)
    return houses_ok and all(g in (0, s) for g, s in zip(givens, solution, strict=True))


def _check(result: SolveResult, givens: Sequence[int], geo: Geometry) -> None:
    """Every solution carried by a result is a valid completion of the givens."""
    assert len(set(result.solutions)) == len(result.solutions)
    for text in result.solutions:
        assert _valid(parse_puzzle(text, geo), givens, geo)


def _random_full_grid(geo: Geometry, rng: random.Random) -> list[int]:
    """A complete boxed grid from the classic pattern, shuffled by validity-keeping moves."""
    n = geo.size
    assert geo.box_shape is not None
    br, bc = geo.box_shape

    def shuffled_lines(block: int, count: int) -> list[int]:
        groups = rng.sample(range(count), count)
        return [g * block + i for g in groups for i in rng.sample(range(block), block)]

    rows = shuffled_lines(br, n // br)
    cols = shuffled_lines(bc, n // bc)
    symbols = rng.sample(range(1, n + 1), n)
    return [symbols[(bc * (r % br) + r // br + c) % n] for r in rows for c in cols]


# --- known puzzles -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["top95.txt", "hardest.txt", "easy50.txt", "17clue_sample.txt"])
def test_known_sets_solve_uniquely_and_verify(name: str) -> None:
    """Every puzzle of the public sets has one solution; it is found, unique and valid."""
    geo = standard(9)
    for puzzle in _puzzles(name):
        result = solve(puzzle)
        assert result.status == "solved", puzzle
        assert result.solution is not None
        _check(result, parse_puzzle(puzzle), geo)


def test_known_solution() -> None:
    """The first top95 puzzle has the well-known answer."""
    assert solve(HARD).solution == HARD_SOLUTION


def test_result_echoes_givens_and_stats() -> None:
    """The result carries the givens, and the stats add up."""
    result = solve(GUESSY.replace(".", "0"))
    assert result.puzzle == GUESSY
    stats = result.stats
    assert stats.guesses >= 1 and stats.nodes >= stats.guesses
    assert stats.placed_by_reduce > 0 and stats.reduce_passes > 0
    assert stats.max_depth >= 1 and stats.elapsed_ms > 0


def test_solved_by_reduction_alone() -> None:
    """An easy puzzle needs no guess: singles settle it and uniqueness follows."""
    result = solve(_puzzles("easy50.txt")[0])
    assert result.status == "solved"
    assert result.stats.guesses == 0 and result.stats.nodes == 1


# --- answers and errors --------------------------------------------------------------------


def test_invalid_conflict_names_cells_and_house() -> None:
    """Conflicting givens are invalid (not unsolvable), with both cells and the house named."""
    result = solve("11" + "." * 79)
    assert result.status == "invalid"
    (error,) = result.errors
    assert error.cells == (0, 1) and "row 1" in error.message


def test_invalid_text() -> None:
    """Bad symbols and lengths come back as invalid results, never exceptions."""
    assert solve("abc").status == "invalid"
    # One message for a character repeated in every cell, naming all 81 cells.
    result = solve("y" * 81)
    assert result.status == "invalid" and len(result.errors) == 1
    assert len(result.errors[0].cells) == 81


@pytest.mark.parametrize("grid", [[0] * 80, [10] + [0] * 80, [-1] + [0] * 80])
def test_invalid_int_grids(grid: list[int]) -> None:
    """An int grid of the wrong length or with out-of-range values is invalid."""
    assert solve(grid).status == "invalid"


def test_unsolvable_by_reduction() -> None:
    """No conflict among the givens, but r1c9 has no candidate: unsolvable by reduction."""
    puzzle = "12345678." + "........9" + "." * 63
    result = solve(puzzle)
    assert result.status == "unsolvable" and result.reason == "reduction"
    assert result.solutions == ()


def test_multiple_carries_two_distinct_valid_solutions() -> None:
    """A grid with many completions stops at two, both valid."""
    puzzle = "123456789" + "." * 72
    result = solve(puzzle)
    assert result.status == "multiple" and result.solution is None
    assert len(result.solutions) == 2
    _check(result, parse_puzzle(puzzle), standard(9))


def test_verify_rejects_broken_solutions() -> None:
    """verify() checks length, givens and every house."""
    geo = standard(9)
    good = parse_puzzle(HARD_SOLUTION)
    givens = parse_puzzle(HARD)
    assert verify(good, givens, geo)
    swapped = list(good)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(swapped, [0] * 81, geo)
    assert not verify(good[:80], givens[:80], geo)
    other_given = list(givens)
    other_given[1] = good[1] % 9 + 1
    assert not verify(good, other_given, geo)


# --- bounded work and adversarial inputs ---------------------------------------------------


@pytest.mark.parametrize(
    "puzzle",
    ["." * 81, "1" + "." * 80, "123456789" + "." * 72, "1...............2" + "." * 64],
)
def test_sparse_grids_are_multiple_quickly(puzzle: str) -> None:
    """Empty, one-given and thousands-of-solutions grids stop at the second solution."""
    result = solve(puzzle)
    assert result.status == "multiple"
    assert result.stats.guesses < 200


@pytest.mark.parametrize("puzzle", [IMPOSSIBLE, *DEEP_UNSOLVABLE])
def test_deep_contradiction_is_unsolvable_within_budget(puzzle: str) -> None:
    """Sparse grids with no solution are proved unsolvable by search inside the budget."""
    result = solve(puzzle, deadline_ms=None)
    assert result.status == "unsolvable" and result.reason == "search"
    assert 0 < result.stats.guesses <= DEFAULT_MAX_NODES
    assert result.stats.backtracks > result.stats.guesses


def test_node_budget_gives_up_with_candidates() -> None:
    """A spent node budget is gave_up/nodes, with a candidate grid and no more guesses."""
    puzzle = "1" + "." * 79 + "9"
    result = solve(puzzle, max_nodes=10)
    assert result.status == "gave_up" and result.reason == "nodes"
    assert result.stats.guesses == 10
    assert result.candidates is not None and len(result.candidates) == 81
    assert all(0 < m < 1 << 9 for m in result.candidates)
    # The candidates at the stopping point keep the givens and never allow them twice.
    assert result.candidates[0] == 1 and result.candidates[80] == 1 << 8
    assert all(result.candidates[p] & 1 == 0 for p in standard(9).peers[0])


def test_deadline_gives_up() -> None:
    """A deadline already passed stops at the first guess: gave_up/deadline."""
    result = solve(GUESSY, deadline_ms=0)
    assert result.status == "gave_up" and result.reason == "deadline"
    assert result.stats.guesses <= 1


def test_sparse_16x16_returns_within_bounds() -> None:
    """A 16x16 grid with few givens ends with an honest status inside the budget."""
    geo = standard(16)
    rng = random.Random(7)
    grid = _random_full_grid(geo, rng)
    sparse = [v if rng.random() < 0.15 else 0 for v in grid]
    result = solve(sparse, geometry=geo, max_nodes=2000)
    assert result.status in ("solved", "multiple", "gave_up")
    assert result.stats.guesses <= 2000
    _check(result, sparse, geo)


def test_empty_16x16_is_multiple() -> None:
    """The empty 16x16 grid is answered, not searched forever."""
    result = solve("." * 256, deadline_ms=None)
    assert result.status == "multiple"
    _check(result, [0] * 256, standard(16))


# --- every variant, at engine level ---------------------------------------------------------


VARIANT_GEOMETRIES = {
    "4x4": standard(4),
    "6x6": standard(6),
    "9x9": standard(9),
    "16x16": standard(16),
    "x": x_sudoku(9),
    "x-4x4": x_sudoku(4),
    "hyper": hyper(),
    "jigsaw9": jigsaw(JIGSAW9),
    "jigsaw5": jigsaw(JIGSAW5),
}


@pytest.mark.parametrize("name", list(VARIANT_GEOMETRIES))
def test_variant_round_trip(name: str) -> None:
    """For each variant: a solution of the empty grid, thinned to a unique puzzle, solves back.

    The full grid comes from the engine but is checked by the independent ``_valid``; the
    puzzle is made by removing givens while the engine still says ``solved``, and the final
    answer is compared with the grid it was cut from.
    """
    geo = VARIANT_GEOMETRIES[name]
    first = solve([0] * geo.cells, geometry=geo, deadline_ms=None)
    assert first.status == "multiple"
    full = parse_puzzle(first.solutions[0], geo)
    assert _valid(full, [0] * geo.cells, geo)
    rng = random.Random(name)
    puzzle = list(full)
    for cell in rng.sample(range(geo.cells), geo.cells):
        trial = list(puzzle)
        trial[cell] = 0
        if solve(trial, geometry=geo, deadline_ms=None).status == "solved":
            puzzle = trial
    assert sum(1 for v in puzzle if v) < geo.cells * 3 // 4
    result = solve(format_puzzle(puzzle), geometry=geo, deadline_ms=None)
    assert result.status == "solved"
    assert result.solution == format_puzzle(full)
    if geo.size <= 6:
        assert count_solutions(puzzle, geo) == 1


def test_table_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """User-supplied jigsaw maps cannot pile up engine tables: the oldest are dropped."""
    monkeypatch.setattr(solver_tables, "TABLES_BUDGET_BYTES", 1)
    maps = ["AABBAABBCCDDCCDD", "AAABACBBCCDBCDDD", "ABBBAABCADCCDDDC"]
    geos = [jigsaw(m) for m in maps]
    for geo in geos:
        assert solve("." * 16, geometry=geo).status in ("multiple", "unsolvable")
    assert "_engine_tables" in geos[-1].__dict__
    assert not any("_engine_tables" in g.__dict__ for g in geos[:-1])
    # A dropped geometry still solves: its tables are simply built again.
    assert solve("." * 16, geometry=geos[0]).status in ("multiple", "unsolvable")


def test_variant_keywords_select_the_geometry() -> None:
    """variant=/size=/regions= reach the same geometries as the factories."""
    assert solve("." * 81, variant="x").geometry is x_sudoku(9)
    assert solve("." * 81, variant="hyper").geometry is hyper()
    assert solve("." * 25, variant="jigsaw", regions=JIGSAW5).geometry is jigsaw(JIGSAW5)
    assert solve("." * 36).geometry is standard(6)
    assert solve("." * 81, variant="nope").status == "invalid"


def test_x_diagonal_is_enforced() -> None:
    """A classic solution that breaks a diagonal is not an X-sudoku solution."""
    geo = x_sudoku(9)
    grid = parse_puzzle(HARD_SOLUTION)
    assert not verify(grid, grid, geo)
    assert solve(HARD_SOLUTION, variant="x").status in ("invalid", "unsolvable")


# --- properties against the reference counter ----------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), holes=st.integers(0, 81))
def test_holes_in_a_full_grid_stay_consistent(seed: int, holes: int) -> None:
    """Removing any cells from a valid full grid: solved means that grid, else two valid ones."""
    geo = standard(9)
    rng = random.Random(seed)
    full = _random_full_grid(geo, rng)
    puzzle = list(full)
    for cell in rng.sample(range(81), holes):
        puzzle[cell] = 0
    result = solve(puzzle, geometry=geo)
    assert result.status in ("solved", "multiple")
    _check(result, puzzle, geo)
    if result.status == "solved":
        assert result.solution == format_puzzle(full)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), holes=st.integers(1, 22), change=st.booleans())
def test_near_complete_9x9_matches_reference(seed: int, holes: int, change: bool) -> None:
    """Near-complete grids (one given possibly changed): status equals the reference's."""
    geo = standard(9)
    rng = random.Random(seed)
    puzzle = _random_full_grid(geo, rng)
    for cell in rng.sample(range(81), holes):
        puzzle[cell] = 0
    if change:
        cell = rng.choice([c for c in range(81) if puzzle[c]])
        taken = {puzzle[p] for p in geo.peers[cell]}
        options = [v for v in range(1, 10) if v not in taken and v != puzzle[cell]]
        if options:
            puzzle[cell] = rng.choice(options)
    result = solve(puzzle, geometry=geo)
    assert result.status == status_of(puzzle, geo)
    _check(result, puzzle, geo)


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4)), max_size=10))
def test_random_4x4_matches_reference(cells: list[tuple[int, int]]) -> None:
    """Any conflict-free 4x4 grid: the engine's status agrees with brute force."""
    geo = standard(4)
    puzzle = [0] * 16
    for cell, value in cells:
        if all(puzzle[p] != value for p in geo.peers[cell]):
            puzzle[cell] = value
    result = solve(puzzle, geometry=geo)
    assert result.status == status_of(puzzle, geo)
    _check(result, puzzle, geo)


@pytest.mark.parametrize("puzzle", _puzzles("top95.txt")[:20])
def test_a_cut_search_reports_only_what_deduction_reached(puzzle: str) -> None:
    """A search cut after its first guess shows the cells deduction settled, never a guess."""
    answer = solve(puzzle).solution
    cut = solve(puzzle, max_nodes=1)
    if cut.status != "gave_up":
        return  # settled with at most one guess: nothing was cut
    assert answer is not None and cut.candidates is not None
    for cell, mask in enumerate(cut.candidates):
        assert mask >> (int(answer[cell]) - 1) & 1, f"cell {cell} lost the solution's digit"
