"""The logic solver's API: explanations, hints, pencil marks, grades, soundness, variants."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from sudoku_web.core.board import Geometry, hyper, jigsaw, parse_puzzle, standard, x_sudoku
from sudoku_web.core.logic import (
    GRADES,
    Explanation,
    apply_step,
    explain,
    grade,
    grade_note,
    machine_grade,
    next_step,
    pencil_marks,
)
from sudoku_web.core.solver import SolveStats, branch_for, solve
from sudoku_web.core.techniques import (
    GRADE_OF,
    TECHNIQUES,
    Candidates,
    Step,
    clock,
    contradiction,
    tables_for,
)

ROOT = Path(__file__).resolve().parent.parent
GEO = standard(9)
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@functools.cache
def _needs_guess() -> str:
    """The first "hardest" puzzle the techniques cannot finish without a guess (found once
    per process: four tests ask)."""
    for text in _lines(ROOT / "tests/data/hardest.txt"):
        if not explain(text, GEO).solved_by_logic:
            return text
    raise AssertionError("every hardest puzzle fell to logic")


def _lines(path: Path, limit: int | None = None) -> list[str]:
    lines = [line.strip()[:81] for line in path.read_text().splitlines() if line.strip()]
    return lines[:limit]


def assert_sound(explanation: Explanation, solution: Sequence[int]) -> None:
    """No step removes a solution digit or places a wrong one; the end state is the solution."""
    for step in explanation.steps:
        for cell, digit in step.eliminations:
            assert solution[cell] != digit, step.sentence
        for cell, digit in step.placements:
            assert solution[cell] == digit, step.sentence
        before = step.before
        for cell, digit in enumerate(solution):
            assert before.values[cell] == digit or before.masks[cell] >> (digit - 1) & 1
    assert explanation.status == "solved"
    assert list(explanation.final.values) == list(solution)


def _check_puzzles(
    puzzles: Sequence[str], geometry: Geometry = GEO, *, same_grade: bool = False
) -> int:
    """Each puzzle's explanation is sound; with ``same_grade``, :func:`grade` (the fast path)
    also says what that explanation says. Returns how many fell to logic alone."""
    solved_by_logic = 0
    for text in puzzles:
        result = solve(text, geometry=geometry)
        assert result.solution is not None
        solution = parse_puzzle(result.solution, geometry)
        explanation = explain(text, geometry, solution=solution)
        assert_sound(explanation, solution)
        if same_grade:
            _assert_same_grade(text, geometry, solution, explanation)
        solved_by_logic += explanation.solved_by_logic
    return solved_by_logic


def _assert_same_grade(
    text: str, geometry: Geometry, solution: Sequence[int], full: Explanation
) -> None:
    fast = grade(text, geometry, solution=solution)
    assert not fast.cut_short and not full.cut_short
    assert (fast.grade, fast.hardest, fast.solved_by_logic, fast.guesses) == (
        full.grade,
        full.hardest,
        full.solved_by_logic,
        full.guesses,
    ), text


# --- soundness over the puzzle sets ----------------------------------------------------------


@pytest.mark.parametrize("half", (0, 1), ids=("1of2", "2of2"))
def test_sound_and_graded_as_explained_on_top95(half: int) -> None:
    """Every top95 puzzle, in two interleaved halves so that the workers share them. At least
    95% of each half falls to logic without a guess (forcing chains reach it): 46 of 48 and
    45 of 47, so 91 of the 95."""
    puzzles = _lines(ROOT / "tests/data/top95.txt")[half::2]
    assert len(puzzles) == (48, 47)[half]
    by_logic = _check_puzzles(puzzles, same_grade=True)
    assert by_logic >= 0.95 * len(puzzles)


def test_sound_and_graded_as_explained_on_17clue_sample() -> None:
    puzzles = _lines(ROOT / "tests/data/17clue_sample.txt")
    by_logic = _check_puzzles(puzzles, same_grade=True)
    assert by_logic >= 0.97 * len(puzzles)


def test_sound_on_hardest() -> None:
    _check_puzzles(_lines(ROOT / "tests/data/hardest.txt"))


def test_sound_and_graded_as_explained_on_easy50() -> None:
    assert _check_puzzles(_lines(ROOT / "tests/data/easy50.txt"), same_grade=True) == 50


#: Two interleaved tenths of top1465 (every 10th puzzle from 0, and from 5), the first also
#: graded by both paths; slow (the quick loop has top95's). Each tenth is checked in quarters
#: (every 40th puzzle from 0, 10, 20 and 30 past its start) so that the workers share it; each
#: quarter falls to logic at 95% or more, so the tenth does. The whole set, every step checked
#: the same way, is the logic benchmark's (``python -m benchmarks.logic_bench``), which exits
#: non-zero on any unsound step or differing grade.
TOP1465_QUARTERS = [
    pytest.param(part, quarter, marks=[pytest.mark.slow], id=f"tenth{part}-{quarter + 1}of4")
    for part in (0, 5)
    for quarter in range(4)
]


@pytest.mark.parametrize(("part", "quarter"), TOP1465_QUARTERS)
def test_sound_on_a_fifth_of_top1465(part: int, quarter: int) -> None:
    puzzles = _lines(ROOT / "benchmarks/data/top1465.txt")[part::10][quarter::4]
    by_logic = _check_puzzles(puzzles, same_grade=part == 0)
    assert by_logic >= 0.95 * len(puzzles)


# --- variants: no crash, sound steps ---------------------------------------------------------

JIGSAW_MAP = (
    "000011222" "000111222" "001111222" "333444555" "333444555" "333444555"
    "666777888" "666777888" "666777888"
)  # fmt: skip

VARIANT_PUZZLES = [
    (standard(4), ".1....4.2....3.."),
    (standard(6), "3..1.........5.4...1..3.1...6.26...5"),
    (
        x_sudoku(9),
        "6785........632............1.2....3.....9........1...5.8.1....6.....3........51..",
    ),
    (
        x_sudoku(9),
        "...68...............1.....47......8...........3.7.6....53..7....6....3.8..7..9.1.",
    ),
    (
        hyper(),
        "6.85........38............5.......1.....1..7..1..3.....3.2....9..5..4............",
    ),
    (
        jigsaw(JIGSAW_MAP),
        "6785.......38.26..........48.4....36....3.....2.19.....5.6....84....9.........2..",
    ),
    (
        jigsaw(JIGSAW_MAP),
        "....8......3..1.....6....4.8.....152....1.....52..4....942..3...6....2.4...7.6.8.",
    ),
    (
        standard(16),
        "3.1F.649......A.......A..765..2..........4..G...6......1F.DA..8...E.5...2..9.1..."
        "7...4..E.8..2BA.C.63..F..1.E75.5.2..1..G.CB.DF8.4C..F.7..A.261.......G4...E......"
        "..A36...2GC4.D7.F.....D8..5....DA9B.....E..5..4....G.5.9..1.6..8G.1.E....CF.9.1.."
        "E.....2......",
    ),
]


@pytest.mark.parametrize(
    ("geometry", "puzzle"), VARIANT_PUZZLES, ids=lambda v: getattr(v, "variant", None)
)
def test_variants_explain_soundly(geometry: Geometry, puzzle: str) -> None:
    _check_puzzles([puzzle], geometry)


def _minimal_puzzle(geometry: Geometry, seed: int) -> tuple[list[int], list[int]]:
    """A puzzle with one solution and no removable given, built from a seeded solution."""
    rng = random.Random(seed)
    first = list(range(1, geometry.size + 1))
    rng.shuffle(first)
    start = first + [0] * (geometry.cells - geometry.size)
    solution = parse_puzzle(
        solve(start, geometry=geometry, deadline_ms=None).solutions[0], geometry
    )
    puzzle = list(solution)
    order = list(range(geometry.cells))
    rng.shuffle(order)
    for cell in order:
        keep, puzzle[cell] = puzzle[cell], 0
        if solve(puzzle, geometry=geometry, deadline_ms=None).status != "solved":
            puzzle[cell] = keep
    return puzzle, solution


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "geometry",
    [standard(4), standard(6), x_sudoku(9), hyper(), jigsaw(JIGSAW_MAP)],
    ids=lambda g: f"{g.variant}{g.size}",
)
def test_variants_sound_on_minimal_puzzles(geometry: Geometry, seed: int) -> None:
    # Minimal X, hyper and jigsaw puzzles need chains, unique rectangles and guesses, so this
    # exercises the generic house handling well beyond singles.
    puzzle, solution = _minimal_puzzle(geometry, seed)
    assert_sound(explain(puzzle, geometry, solution=solution), solution)
    assert_sound(explain(puzzle, geometry), solution)


# --- the explanation -------------------------------------------------------------------------


def test_easy_puzzle_is_easy_and_singles_only() -> None:
    explanation = explain(EASY, GEO)
    assert explanation.solved_by_logic
    assert explanation.grade == "Easy"
    assert set(explanation.technique_counts) <= {"Hidden single", "Naked single"}
    assert sum(explanation.technique_counts.values()) == len(explanation.steps)
    assert len(explanation.steps) == EASY.count(".")


def test_steps_chain_candidates() -> None:
    explanation = explain(TOP95_FIRST, GEO)
    cand = pencil_marks(TOP95_FIRST, GEO)
    for step in explanation.steps:
        assert step.before == cand
        assert step.placements or step.eliminations
        assert step.technique in GRADE_OF
        cand = apply_step(cand, step, GEO)
    assert cand == explanation.final


def test_guess_step_names_the_engines_cell_and_the_digit_that_holds() -> None:
    explanation = explain(_needs_guess(), GEO)
    guesses = [s for s in explanation.steps if s.technique == "Guess"]
    assert guesses and explanation.grade == "Diabolical" and not explanation.solved_by_logic
    guess = guesses[0]
    # The engine's own choice in that position, by the engine's code.
    branch = branch_for(guess.before.values, guess.before.masks, GEO)
    assert branch is not None and guess.placements[0] in branch.options
    ((cell, _),) = guess.placements
    assert "guess" in guess.sentence and GEO.cell_name(cell) in guess.sentence
    assert explanation.hardest == "Guess"


def test_hardest_and_grade_follow_the_ladder() -> None:
    explanation = explain(_lines(ROOT / "tests/data/top95.txt")[1], GEO)
    hardest = explanation.hardest
    assert hardest is not None
    assert explanation.grade == GRADE_OF[hardest]
    ranks = [GRADES.index(GRADE_OF[name]) for name in explanation.technique_counts]
    assert GRADES.index(explanation.grade) == max(ranks)


def test_multiple_solutions_get_stuck_instead_of_guessing() -> None:
    explanation = explain("." * 81, GEO)
    assert explanation.status == "stuck"
    assert not explanation.unique
    assert explanation.steps == ()


def test_max_steps_caps_the_explanation() -> None:
    explanation = explain(EASY, GEO, max_steps=3)
    assert explanation.status == "max_steps"
    assert len(explanation.steps) == 3


def test_deadline_keeps_to_cheap_techniques_then_guesses() -> None:
    puzzle = _needs_guess()
    result = solve(puzzle)
    assert result.solution is not None
    solution = parse_puzzle(result.solution, GEO)
    hurried = explain(puzzle, GEO, solution=solution, deadline_ms=0)
    assert hurried.cut_short
    assert_sound(hurried, solution)
    assert {GRADE_OF[name] for name in hurried.technique_counts} <= {
        "Easy",
        "Medium",
        "Diabolical",
    }
    assert not explain(EASY, GEO, deadline_ms=0).cut_short  # singles never run out of time
    assert not explain(puzzle, GEO, solution=solution).cut_short


def test_wrong_grid_ends_with_a_contradiction() -> None:
    grid = parse_puzzle(EASY, GEO)
    grid[0] = 3  # r1c1 = 3 clashes with the given 3 in r1c3
    explanation = explain(grid, GEO)
    assert explanation.status == "contradiction"
    last = explanation.steps[-1]
    assert last.technique == "Contradiction"
    assert "r1c1" in last.sentence and "r1c3" in last.sentence


@pytest.mark.parametrize(
    "geometry",
    [standard(4), standard(6), standard(9), x_sudoku(9), hyper(), jigsaw(JIGSAW_MAP)],
    ids=["4x4", "6x6", "9x9", "x", "hyper", "jigsaw"],
)
def test_every_kind_of_impossibility_is_named_on_every_board(geometry: Geometry) -> None:
    tables = tables_for(geometry)
    empty = pencil_marks([0] * geometry.cells, geometry)
    assert contradiction(empty, tables) is None

    def broken(values: list[int], masks: list[int]) -> Step:
        step = contradiction(Candidates(tuple(values), tuple(masks)), tables)
        assert step is not None and step.technique == "Contradiction"
        return step

    last = geometry.cells - 1
    masks = list(empty.masks)
    masks[last] = 0  # the last cell has no candidate left
    step = broken(list(empty.values), masks)
    assert step.cells == (last,) and "has no candidate left" in step.sentence

    house = geometry.houses[-1]
    masks = list(empty.masks)
    for cell in house.cells:  # the last house has no place left for the last digit
        masks[cell] &= ~(1 << (geometry.size - 1))
    step = broken(list(empty.values), masks)
    assert f"can no longer go anywhere in {house.name}" in step.sentence

    a, b = geometry.houses[0].cells[:2]  # the first house holds its digit 1 twice
    values, masks = list(empty.values), list(empty.masks)
    values[a] = values[b] = 1
    masks[a] = masks[b] = 0
    step = broken(values, masks)
    assert step.cells == (a, b) and "both hold" in step.sentence


# --- hints and pencil marks ------------------------------------------------------------------


def test_hint_is_the_next_step_only() -> None:
    grid = parse_puzzle(EASY, GEO)
    step = next_step(grid, GEO)
    assert step is not None
    assert step == explain(EASY, GEO).steps[0]


def test_hint_for_a_grid_partway_through() -> None:
    result = solve(TOP95_FIRST)
    assert result.solution is not None
    solution = parse_puzzle(result.solution, GEO)
    grid = parse_puzzle(TOP95_FIRST, GEO)
    for cell in range(0, 40):  # the user has filled in the top rows correctly
        grid[cell] = solution[cell]
    step = next_step(grid, GEO)
    assert step is not None and step.technique != "Guess"
    assert all(solution[c] == d for c, d in step.placements)
    assert all(solution[c] != d for c, d in step.eliminations)


@pytest.mark.parametrize("index", range(0, 95, 5))
def test_hints_on_random_partial_grids_are_sound(index: int) -> None:
    puzzle = _lines(ROOT / "tests/data/top95.txt")[index]
    result = solve(puzzle)
    assert result.solution is not None
    solution = parse_puzzle(result.solution, GEO)
    grid = parse_puzzle(puzzle, GEO)
    rng = random.Random(index)
    for cell in rng.sample([c for c, v in enumerate(grid) if not v], 25):
        grid[cell] = solution[cell]  # a user partway through, no mistakes
    cand = pencil_marks(grid, GEO)
    for _ in range(30):  # follow the hints for a while
        step = next_step(cand, GEO)
        if step is None:
            break
        assert step.technique not in ("Guess", "Contradiction")
        assert all(solution[c] != d for c, d in step.eliminations), step.sentence
        assert all(solution[c] == d for c, d in step.placements), step.sentence
        cand = apply_step(cand, step, GEO)


def test_hint_on_a_solved_or_stuck_grid_is_none() -> None:
    result = solve(EASY)
    assert result.solution is not None
    assert next_step(result.solution, GEO) is None
    assert next_step("." * 81, GEO) is None


def test_hint_points_out_a_wrong_digit() -> None:
    grid = parse_puzzle(EASY, GEO)
    grid[0] = 3
    step = next_step(grid, GEO)
    assert step is not None and step.technique == "Contradiction"


def test_pencil_marks_remove_givens_from_peers() -> None:
    cand = pencil_marks(EASY, GEO)
    grid = parse_puzzle(EASY, GEO)
    for cell, value in enumerate(grid):
        if value:
            assert cand.values[cell] == value and cand.masks[cell] == 0
            for peer in GEO.peers[cell]:
                assert not cand.masks[peer] >> (value - 1) & 1
    assert cand.digits(0) == (4, 5)  # r1c1: row has 2, 3, 6; column 9, 7, 8; box 9, 1


def test_pencil_marks_after_the_first_reduce_place_singles() -> None:
    reduced = pencil_marks(EASY, GEO, reduce=True)
    assert reduced.solved  # an easy puzzle falls to singles
    hard = pencil_marks(TOP95_FIRST, GEO, reduce=True)
    assert hard.open_cells <= pencil_marks(TOP95_FIRST, GEO).open_cells


def test_bad_grid_length_is_refused() -> None:
    with pytest.raises(ValueError):
        pencil_marks([0] * 80, GEO)


# --- grades ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guesses", "label", "rank"),
    [
        (0, "No guessing", 0),
        (3, "A few guesses", 2),
        (50, "Many guesses", 3),
        (500, "Long search", 4),
    ],
)
def test_machine_grade(guesses: int, label: str, rank: int) -> None:
    grade = machine_grade(SolveStats(guesses=guesses, backtracks=1))
    assert (grade.label, grade.rank, grade.guesses, grade.backtracks) == (label, rank, guesses, 1)


def test_grade_note_only_when_grades_disagree() -> None:
    easy = explain(EASY, GEO)
    assert grade_note(easy, SolveStats()) is None
    hard = explain(_needs_guess(), GEO)  # Diabolical for people
    note = grade_note(hard, SolveStats(guesses=1))
    assert note is not None and "Guess" in note and note.endswith(".")
    assert grade_note(hard, SolveStats(guesses=500, backtracks=400)) is None
    people_medium = next(
        e
        for e in (explain(p, GEO) for p in _lines(ROOT / "tests/data/17clue_sample.txt"))
        if e.grade == "Medium"
    )
    note = grade_note(people_medium, SolveStats(guesses=200, backtracks=150))
    assert note is not None and "no guessing" in note


# --- the fast grade (logic.grade) -------------------------------------------------------------


# The fast grade against the full explanation over the puzzle sets: _check_puzzles(same_grade)
# in the soundness tests above, one explanation per puzzle for both checks.


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "geometry",
    [standard(4), standard(6), x_sudoku(9), hyper(), jigsaw(JIGSAW_MAP)],
    ids=lambda g: f"{g.variant}{g.size}",
)
def test_grade_equals_explain_on_minimal_variant_puzzles(geometry: Geometry, seed: int) -> None:
    puzzle, solution = _minimal_puzzle(geometry, seed)
    fast = grade(puzzle, geometry, solution=solution)
    full = explain(puzzle, geometry, solution=solution)
    assert (fast.grade, fast.hardest, fast.solved_by_logic, fast.guesses) == (
        full.grade,
        full.hardest,
        full.solved_by_logic,
        full.guesses,
    )
    assert grade(puzzle, geometry).hardest == explain(puzzle, geometry).hardest


def test_grade_without_a_solution_asks_the_engine_and_singles_are_exact() -> None:
    fast = grade(EASY, GEO)
    full = explain(EASY, GEO)
    assert (fast.grade, fast.hardest, fast.solved_by_logic) == (
        full.grade,
        full.hardest,
        full.solved_by_logic,
    )
    assert fast.grade == "Easy" and fast.hardest in ("Hidden single", "Naked single")


def test_grade_falls_back_to_explain_for_a_wrong_grid_and_multiple_solutions() -> None:
    grid = parse_puzzle(EASY, GEO)
    grid[0] = 3  # clashes with the given 3 in r1c3: explain ends with a contradiction
    assert grade(grid, GEO).hardest == explain(grid, GEO).hardest
    empty = grade("." * 81, GEO)  # several solutions: explain's "stuck" semantics
    assert not empty.solved_by_logic


def test_grade_deadline_marks_an_upper_bound() -> None:
    puzzle = _needs_guess()
    result = solve(puzzle)
    assert result.solution is not None
    solution = parse_puzzle(result.solution, GEO)
    hurried = grade(puzzle, GEO, solution=solution, deadline_ms=0)
    assert hurried.cut_short and hurried.grade == "Diabolical"
    assert not grade(EASY, GEO, deadline_ms=0).cut_short


INKALA = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


def test_a_forcing_search_stops_at_the_deadline_not_only_between_steps() -> None:
    """A forcing net can search for 100 ms: past the deadline it stops, and the explanation
    goes on as in a hurry (cheap rungs, then a guess) instead of running on."""
    explanation = explain(INKALA, GEO)
    forcing = next(s for s in explanation.steps if s.technique.startswith("Forcing"))
    technique = dict((name, t) for name, _, t in TECHNIQUES)[forcing.technique]
    found = technique(forcing.before, tables_for(GEO))
    assert found is not None and found.eliminations == forcing.eliminations
    with clock.within(time.perf_counter() - 1), pytest.raises(clock.OutOfTime):
        technique(forcing.before, tables_for(GEO))
    with clock.within(time.perf_counter() + 60):  # in time: the same step as without a clock
        again = technique(forcing.before, tables_for(GEO))
    assert again is not None and again.eliminations == forcing.eliminations
    assert not explanation.cut_short
