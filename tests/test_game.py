"""A person's game in the core: entries and pencil marks judged against the one solution,
and what Check and Hint answer (no app, no request)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sudoku_web.core.board import Geometry, parse_puzzle, standard
from sudoku_web.core.doctor import Diagnosis
from sudoku_web.core.game import Entries, Game, check_panel, hint_panel, symbol_value
from sudoku_web.core.logic import apply_step
from sudoku_web.core.solver import solve

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
GEO = standard(9)


def _game(puzzle: str = PUZZLE, geometry: Geometry = GEO) -> Game:
    grid = tuple(parse_puzzle(puzzle, geometry))
    return Game(geometry, puzzle, grid, solve(puzzle, geometry=geometry))


def _open_cells(game: Game) -> list[int]:
    return [c for c, v in enumerate(game.grid) if not v]


def test_one_symbol_is_a_digit_several_are_pencil_marks() -> None:
    game = _game()
    entries = Entries(GEO, game.grid)
    first, second = _open_cells(game)[:2]
    entries.add_text(first, "4")
    entries.add_text(second, "1, 5 7")
    assert entries.values[first] == 4 and entries.marks[first] == 0
    assert entries.marks[second] == 0b1010001 and entries.values[second] == 0
    assert entries.grid[first] == 4 and not entries.errors


def test_a_stray_symbol_is_reported_with_its_cell_and_givens_stay() -> None:
    game = _game()
    entries = Entries(GEO, game.grid)
    cell = _open_cells(game)[0]
    entries.add_text(cell, "q")
    given = next(c for c, v in enumerate(game.grid) if v)
    entries.add_text(given, "9")
    assert [e.cells for e in entries.errors] == [(cell,)]
    assert GEO.cell_name(cell) in entries.errors[0].message
    assert entries.values[given] == 0  # a given is not the person's to change


def test_symbols_are_read_in_either_case() -> None:
    sixteen = standard(16)
    assert symbol_value(sixteen, "g") == symbol_value(sixteen, "G") == 16
    assert symbol_value(GEO, ".") == 0 and symbol_value(GEO, "0") == 0
    assert symbol_value(GEO, "A") is None and symbol_value(GEO, "12") is None


def test_check_names_wrong_entries_by_cell_only() -> None:
    game = _game()
    solution = game.solution
    entries = Entries(GEO, game.grid)
    right, wrong = _open_cells(game)[:2]
    entries.values[right] = solution[right]
    entries.values[wrong] = solution[wrong] % 9 + 1
    panel = check_panel(game, entries)
    assert panel.kind == "wrong" and panel.cells == (wrong,)
    assert panel.filled == sum(1 for v in game.grid if v) + 2 and panel.total == 81


def test_check_says_solved_right_so_far_or_which_marks_leave_out_the_digit() -> None:
    game = _game()
    solution = game.solution
    done = Entries(
        GEO, game.grid, values=[0 if g else s for g, s in zip(game.grid, solution, strict=True)]
    )
    assert check_panel(game, done).kind == "solved"
    entries = Entries(GEO, game.grid)
    assert check_panel(game, entries).kind == "right"
    cell = _open_cells(game)[0]
    entries.marks[cell] = 0x1FF ^ (1 << (solution[cell] - 1))  # every digit but the right one
    panel = check_panel(game, entries)
    assert panel.kind == "marks" and panel.cells == (cell,)


def test_hint_checks_first_then_gives_the_way_to_the_next_digit() -> None:
    game = _game()
    entries = Entries(GEO, game.grid)
    cell = _open_cells(game)[0]
    entries.values[cell] = game.solution[cell] % 9 + 1
    assert hint_panel(game, entries).kind == "wrong"  # never a step from a wrong digit
    entries.values[cell] = 0
    panel = hint_panel(game, entries)
    assert panel.kind == "next" and panel.hint is not None
    last = panel.hint.last
    assert last is not None and last.placements
    for placed, digit in last.placements:
        assert game.solution[placed] == digit  # the hint's digit is the solution's


def test_hint_starts_from_the_persons_own_marks() -> None:
    game = _game()
    plain = hint_panel(game, Entries(GEO, game.grid)).hint
    assert plain is not None and plain.steps
    first = plain.steps[0]
    # Marks that already hold the first step's result: the hint moves on from there.
    after = apply_step(first.before, first, GEO)
    marked = Entries(
        GEO,
        game.grid,
        values=list(v if not g else 0 for g, v in zip(game.grid, after.values, strict=True)),
    )
    marked.marks = [m if not v else 0 for v, m in zip(after.values, after.masks, strict=True)]
    hint = hint_panel(game, marked).hint
    assert hint is not None and hint.steps and hint.steps[0] != first


@pytest.mark.parametrize("status", ["multiple", "unsolvable"])
def test_only_a_puzzle_with_one_solution_is_playable(status: str) -> None:
    assert _game().playable
    puzzle = "12" + "0" * 79 if status == "multiple" else "11" + "0" * 79
    game = _game(puzzle)
    assert game.result.status in (status, "invalid") and not game.playable


# ---- Givens without one solution (the solver form's Hint takes any grid) ----------------------

# PUZZLE with its first row's givens removed: more than one solution.
MANY = "0" * 9 + PUZZLE[9:]
# PUZZLE with a 5 in r1c1 (its solution has a 4): no solution, though no house repeats a digit.
NONE = "5" + PUZZLE[1:]


def test_a_hint_over_several_solutions_says_its_steps_may_hang_on_a_choice() -> None:
    game = _game(MANY)
    assert game.result.status == "multiple" and not game.playable
    panel = hint_panel(game, Entries(GEO, game.grid))
    assert panel.kind in ("next", "stuck") and panel.multiple and panel.hint is not None


def test_a_full_grid_over_givens_with_several_solutions_is_solved() -> None:
    game = _game(MANY)
    solution = parse_puzzle(solve(PUZZLE).solutions[0], GEO)
    entries = Entries(
        GEO, game.grid, values=[0 if g else v for g, v in zip(game.grid, solution, strict=True)]
    )
    assert hint_panel(game, entries).kind == "solved"


def test_a_hint_over_no_solution_names_the_doctors_cells_as_likely() -> None:
    game = _game(NONE)
    assert game.result.status == "unsolvable"
    asked: list[tuple[int, ...]] = []

    def doctor(grid: Sequence[int]) -> Diagnosis:
        asked.append(tuple(grid))
        return Diagnosis(conflict=(0, 1), fixes=(), complete=True)

    panel = hint_panel(game, Entries(GEO, game.grid), doctor=doctor)
    # No contradiction within the hint's reach: the doctor's cells, named as likely only.
    assert asked == [game.grid]
    assert (panel.kind, panel.cells, panel.certain) == ("wrong", (0, 1), False)
    alone = hint_panel(game, Entries(GEO, game.grid))
    assert (alone.kind, alone.cells, alone.certain) == ("wrong", (), False)
