"""A hint in the core: the steps from a grid to the next digit, or the engine's guess where
logic is stuck, bounded by a deadline."""

from __future__ import annotations

from pathlib import Path

from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.hints import hint_steps
from sudoku_web.core.logic import explain, pencil_marks
from sudoku_web.core.solver import branch_for, solve

GEO = standard(9)
TOP95 = (Path(__file__).parent / "data" / "top95.txt").read_text().split()


def test_a_hint_ends_at_the_first_placement_and_it_is_right() -> None:
    puzzle = TOP95[0]
    solution = parse_puzzle(solve(puzzle).solutions[0], GEO)
    hint = hint_steps(parse_puzzle(puzzle, GEO), GEO)
    assert hint.last is not None and hint.last.placements
    assert all(not step.placements for step in hint.steps[:-1])
    assert all(solution[cell] == digit for cell, digit in hint.last.placements)


def test_a_stuck_hint_names_the_engines_own_guess() -> None:
    # A position where no technique applies: the empty grid's.
    grid = [0] * 81
    hint = hint_steps(grid, GEO, unique=False)
    assert hint.stuck and not hint.steps
    marks = pencil_marks(grid, GEO)
    branch = branch_for(marks.values, marks.masks, GEO)
    assert branch is not None and hint.stuck_cell == branch.options[0][0]
    assert hint.stuck_guess == branch.describe(GEO)


def test_past_its_deadline_a_hint_is_the_eliminations_so_far() -> None:
    steps = explain(TOP95[1], GEO).steps
    stall = next(s for s in steps if s.technique not in ("Hidden single", "Naked single"))
    grid = list(stall.before.values)
    cut = hint_steps(grid, GEO, deadline_ms=0)
    assert cut.cut_short and len(cut.steps) == 1 and not cut.steps[0].placements
    assert cut.last is not None  # not stuck: only cut short
