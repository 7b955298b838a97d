"""The engine on boards with cages: killers solve uniquely with no givens, every solution
keeps every cage, the cage rule's deductions are sound, and cages layer on every board."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_web.core import solver
from sudoku_web.core.board import Cage, Geometry, jigsaw, standard, x_sudoku
from sudoku_web.core.cage_rule import cage_rule, narrow
from sudoku_web.core.cages import parse_cages
from sudoku_web.core.solver import solve, verify

KILLERS = [
    line.split(":")
    for line in (Path(__file__).parent / "data" / "killer_krazydad.txt").read_text().splitlines()
]
NINE = standard(9)


def killer(index: int) -> tuple[Geometry, str]:
    cagemap, sums, solution = KILLERS[index]
    return NINE.with_cages(parse_cages(f"{cagemap}:{sums}", NINE)), solution


@pytest.mark.parametrize("index", range(len(KILLERS)))
def test_shared_killers_solve_uniquely_without_givens(index: int) -> None:
    geo, solution = killer(index)
    result = solve("." * 81, geometry=geo, deadline_ms=None)
    assert result.status == "solved"
    assert result.solution == solution
    assert result.geometry is geo


@pytest.mark.parametrize("index", range(len(KILLERS)))
def test_every_constraint_holds_in_the_solution(index: int) -> None:
    """The 45 rule's innies and outies are true of the real solution (soundness)."""
    geo, solution = killer(index)
    grid = [int(ch) for ch in solution]
    rule = cage_rule(geo)
    assert rule.derived > 0
    for con in rule.constraints:
        digits = [grid[c] for c in con.cells]
        assert sum(digits) == con.total
        if con.distinct:
            assert len(set(digits)) == len(digits)


def test_a_wrong_sum_is_never_a_solution() -> None:
    geo, solution = killer(0)
    cages = list(geo.cages)
    # Move one from a cage's sum to another's: the grid total still holds.
    first, second = cages[0], cages[1]
    cages[0] = Cage(first.total + 1, first.cells)
    cages[1] = Cage(second.total - 1, second.cells)
    broken = NINE.with_cages(cages)
    result = solve("." * 81, geometry=broken, deadline_ms=None)
    assert result.status in {"unsolvable", "multiple", "solved"}
    assert result.solution != solution
    for text in result.solutions:
        assert verify([int(ch) for ch in text], [0] * 81, broken)


def test_verify_checks_cages() -> None:
    geo, solution = killer(1)
    grid = [int(ch) for ch in solution]
    assert verify(grid, [0] * 81, geo)
    assert verify(grid, [0] * 81, NINE)
    # Swap two digits within a row: houses still hold, but the cages cannot all hold.
    cages = geo.cages
    cage = next(c for c in cages if len(c.cells) >= 2)
    a = cage.cells[0]
    wrong = Cage(cage.total + 1, cage.cells)
    other = next(c for c in cages if a not in c.cells and c.total > 1)
    changed = [c for c in cages if c not in (cage, other)]
    changed += [wrong, Cage(other.total - 1, other.cells)]
    assert not verify(grid, [0] * 81, NINE.with_cages(changed))


def test_givens_breaking_a_cage_are_invalid() -> None:
    geo, solution = killer(2)
    cage = next(c for c in geo.cages if len(c.cells) >= 2)
    grid = [0] * 81
    grid[cage.cells[0]] = grid[cage.cells[1]] = int(solution[cage.cells[0]])
    result = solve(grid, geometry=geo)
    assert result.status == "invalid"
    assert any(e.code == "cage" and set(e.cells) == set(cage.cells[:2]) for e in result.errors)


def test_givens_that_agree_solve_as_before() -> None:
    geo, solution = killer(3)
    puzzle = "".join(ch if i % 7 == 0 else "." for i, ch in enumerate(solution))
    result = solve(puzzle, geometry=geo)
    assert result.status == "solved" and result.solution == solution


def test_tables_key_on_the_houses_not_the_cages() -> None:
    geo, _ = killer(4)
    solve("." * 81, geometry=geo)
    assert "_engine_tables" not in geo.__dict__
    assert "_engine_tables" in NINE.__dict__


def test_recorded_story_of_a_killer() -> None:
    geo, solution = killer(5)
    result = solve("." * 81, geometry=geo, record=50)
    assert result.status == "solved" and result.solution == solution
    assert result.story is not None


def _bits(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def _state_masks(geo: Geometry) -> tuple[int, solver._Tables]:
    t = solver._tables(geo.base)
    return t.start, t


def test_narrow_two_cell_seventeen_is_eight_and_nine() -> None:
    geo = NINE.with_cages([Cage(17, (0, 1))])
    x, t = _state_masks(geo)
    x = narrow(x, cage_rule(geo), t.cell_part, t.width, t.full_n, t.other_at)
    cands = solver._Search(t, 0, None, 0.0).candidates_of(x)
    assert cands[0] == cands[1] == _bits(8, 9)
    # 8 and 9 both go in r1c1/r1c2, both in row 1 and box 1: they leave the rest of both.
    assert cands[2] == cands[9] == _bits(*range(1, 8))
    assert cands[40] == _bits(*range(1, 10))


def test_narrow_keeps_the_digits_of_possible_sets_only() -> None:
    # 3 cells (not all in one house) making 7: only 1+2+4.
    geo = NINE.with_cages([Cage(7, (0, 1, 10))])
    x, t = _state_masks(geo)
    x = narrow(x, cage_rule(geo), t.cell_part, t.width, t.full_n, t.other_at)
    cands = solver._Search(t, 0, None, 0.0).candidates_of(x)
    assert cands[0] == cands[1] == cands[10] == _bits(1, 2, 4)


def _all_grids(geo: Geometry) -> list[tuple[int, ...]]:
    """Every filled grid of a 4x4 board, by plain backtracking over its peers."""
    grid = [0] * geo.cells
    out: list[tuple[int, ...]] = []

    def fill(cell: int) -> None:
        if cell == geo.cells:
            out.append(tuple(grid))
            return
        for value in range(1, geo.size + 1):
            if all(grid[p] != value for p in geo.peers[cell]):
                grid[cell] = value
                fill(cell + 1)
                grid[cell] = 0

    fill(0)
    return out


@pytest.mark.parametrize("board", [standard(4), jigsaw("AABBAABBCCDDCCDD"), x_sudoku(4)])
def test_small_killers_agree_with_brute_force(board: Geometry) -> None:
    grids = _all_grids(board)
    first = grids[len(grids) // 2]
    # Dominoes along each row: eight two-cell cages with the sums of ``first``.
    for cages in (
        [Cage(first[c] + first[c + 1], (c, c + 1)) for c in range(0, 16, 2)],
        [Cage(first[c] + first[c + 1], (c, c + 1)) for c in range(0, 8, 2)],
        [Cage(sum(first[c] for c in (0, 1, 4)), (0, 1, 4))],
    ):
        geo = board.with_cages(cages)
        fits = [g for g in grids if verify(list(g), [0] * 16, geo)]
        result = solve("." * 16, geometry=geo, max_nodes=10**6)
        expected = "solved" if len(fits) == 1 else "multiple"
        assert result.status == expected
        for text in result.solutions:
            assert tuple(int(ch) for ch in text) in fits


def test_six_by_six_and_killer_x() -> None:
    for board in (standard(6), x_sudoku(9)):
        filled = solve("." * board.cells, geometry=board).solutions[0]
        grid = [int(ch, 17) for ch in filled]
        n = board.size
        cages = [
            Cage(grid[c] + grid[c + 1], (c, c + 1)) for c in range(0, n * n - 1, 2) if (c + 1) % n
        ]
        geo = board.with_cages(cages)
        result = solve("." * board.cells, geometry=geo, max_nodes=10**6, deadline_ms=None)
        assert result.status in {"solved", "multiple"}
        for text in result.solutions:
            assert verify([int(ch, 17) for ch in text], [0] * board.cells, geo)
        assert filled in result.solutions or result.status == "multiple"


def test_a_big_killer_gives_up_at_the_deadline() -> None:
    """A 16x16 killer is past what the engine settles in 200 ms: it says so, never a wrong
    or unchecked solution."""
    import random

    from sudoku_web.core.cage_maker import SIZE_WEIGHTS, partition
    from sudoku_web.core.generate import solution_grid

    geo = standard(16)
    rng = random.Random(1)
    grid = solution_grid(geo, rng)
    assert grid is not None
    board = geo.with_cages(partition(grid, geo, rng, SIZE_WEIGHTS["Easy"]))
    result = solve("." * 256, geometry=board, deadline_ms=200)
    assert result.status == "gave_up" and result.reason == "deadline"
    assert result.candidates is not None
    for cell, mask in enumerate(result.candidates):
        assert mask >> (grid[cell] - 1) & 1  # every elimination kept the solution's digit


def test_a_node_reads_only_the_changed_constraints_to_the_same_end() -> None:
    # Each node's cage rule reads only the constraints over cells changed since its
    # parent's reduced state: it must reach what reading every constraint reaches.
    class Checked(solver._CageSearch):
        def cage_reduce(self, x: int, d: int, ref: int | None) -> tuple[int, int, int, int] | None:
            state = super().cage_reduce(x, d, ref)
            full = super().cage_reduce(x, d, None)
            assert (state is None) == (full is None)
            assert state is None or full is None or state[0] == full[0]
            return state

    for index in range(0, len(KILLERS), 10):
        geo, solution = killer(index)
        search = Checked(solver._tables(geo.base), 10**6, None, 0.0).use_cages(geo)
        assert search.run([0] * 81, None).solution == solution
