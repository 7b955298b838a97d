"""The steps of a board's rules: each kind's own deductions, the forcing chain that follows
every rule, the contradiction a rule shows, and hints and grades that use them. Every step is
checked against the puzzle's known solution (published puzzles and our own, made by
benchmarks/rules_own.py)."""

from __future__ import annotations

import functools
import re
import time

import pytest

from benchmarks.rules_explain_bench import own, published
from sudoku_web.core.board import Geometry, standard
from sudoku_web.core.hints import hint_steps
from sudoku_web.core.logic import apply_step, explain, grade, graded, next_step, pencil_marks
from sudoku_web.core.rules.board import build
from sudoku_web.core.rules.registry import KINDS
from sudoku_web.core.rules.spelling import parse
from sudoku_web.core.techniques import (
    GRADE_OF,
    RULE_RUNGS,
    RULES,
    UNIQUENESS,
    Candidates,
    Step,
    Tables,
    clock,
    constrained,
    hidden_single,
    naked_single,
    rule_forcing,
    rule_steps,
    singles,
    tables_for,
)
from sudoku_web.core.techniques.rule_steps import engine_masks

STEP_NAMES = {kind.STEP for kind in KINDS if kind.STEP}


PUZZLES = published() + own()


def _sound(step: Step, solution: list[int]) -> None:
    for cell, digit in step.eliminations:
        assert solution[cell] != digit, (step.technique, step.sentence)
    for cell, digit in step.placements:
        assert solution[cell] == digit, (step.technique, step.sentence)


# The forcing searches a walk makes before it places the solution's digit at a stall instead.
FORCING_TRIES = 3


def _rule_walk(board: Geometry, givens: list[int], solution: list[int]) -> set[str]:
    """Singles and the rule rungs until the grid is full, every step checked: at a stall
    the forcing chain with rules (at most :data:`FORCING_TRIES` times), else the solution's
    digit in a cell with the fewest candidates. The rule steps' names, used."""
    tables = tables_for(board)
    cand = pencil_marks(givens, board)
    used: set[str] = set()
    forcing = FORCING_TRIES
    while not cand.solved:
        step = hidden_single(cand, tables) or naked_single(cand, tables)
        if step is None:
            step = next((s for _, _, rung in RULE_RUNGS if (s := rung(cand, tables))), None)
        if step is None and forcing:
            forcing -= 1
            step = rule_forcing(cand, tables)
            if step is not None:
                assert step.sentence.startswith("Suppose ")
        if step is None:
            cell = min(
                (c for c, m in enumerate(cand.masks) if m), key=lambda c: cand.masks[c].bit_count()
            )
            step = Step("Guess", "", (), (cell,), ((cell, solution[cell]),), (), cand)
        _sound(step, solution)
        if step.technique in STEP_NAMES:
            used.add(step.technique)
            (index,) = step.rules
            assert board.rules[index].STEP == step.technique
            assert step.eliminations and step.sentence.endswith(".")
            assert set(step.cells) <= set(range(board.cells))
        cand = apply_step(cand, step, board)
    return used


@functools.cache
def _walked(index: int) -> frozenset[str]:
    """:func:`_rule_walk` of ``PUZZLES[index]``, walked (and checked) once per process: the
    walk is the same every time, and two tests read it."""
    return frozenset(_rule_walk(*PUZZLES[index][1:]))


@pytest.mark.parametrize("index", range(len(PUZZLES)), ids=[e[0] for e in PUZZLES])
def test_rule_steps_and_forcing_keep_the_solution(index: int) -> None:
    """Each rule's own steps (with singles) never remove a digit of the solution and each
    names the rule it reads; the forcing chain with rules at a stall is sound too."""
    _walked(index)


def test_every_kind_with_steps_has_them_on_the_puzzles() -> None:
    """Each kind's steps come up on the published puzzles and ours. Non-consecutive is left
    to its own test: the published puzzle with it also has the negative white-dot rule,
    which says the same of the same pairs and comes first on the ladder."""
    used: set[str] = set()
    for index in range(len(PUZZLES)):
        used |= _walked(index)
    assert used == STEP_NAMES - {"Non-consecutive"}


def test_rule_rungs_are_graded_and_find_nothing_without_rules() -> None:
    board = standard(9)
    cand = pencil_marks("0" * 81, board)
    for name, grade_, rung in RULE_RUNGS:
        assert GRADE_OF[name] == grade_
        assert rung(cand, tables_for(board)) is None
    assert rule_forcing(cand, tables_for(board)) is None


def test_uniqueness_rungs_only_where_rules_add_nothing_beyond_houses() -> None:
    assert constrained(build(9, parse("th_111213", 9)))
    assert not constrained(build(9, parse("dg_p.dg_m", 9)))
    assert not constrained(standard(9))
    _, board, givens, solution = PUZZLES[0]
    explanation = explain(givens, board, solution=solution, deadline_ms=1000)
    assert not set(explanation.technique_counts) & UNIQUENESS


def test_a_broken_rule_is_a_contradiction_naming_it() -> None:
    board = build(9, parse("th_111213", 9))
    grid = [0] * 81
    grid[0], grid[1] = 5, 3  # the bulb above the next cell
    step = next_step(grid, board)
    assert step is not None and step.technique == "Contradiction"
    assert step.rules == (0,) and {0, 1, 2} <= set(step.cells)


def test_a_thermometer_step_says_its_range() -> None:
    board = build(9, parse("th_11121314", 9))
    step = next_step([0] * 81, board)
    assert step is not None and step.technique == "Thermometer"
    assert "at least 1-2-3-4 and at most 6-7-8-9" in step.sentence
    assert (0, 9) in step.eliminations and (3, 1) in step.eliminations


def test_a_sandwich_step_lists_the_fillings() -> None:
    board = build(9, parse("sw_r_1_35", 9))
    step = next_step([0] * 81, board)
    assert step is not None and step.technique == "Sandwich sum"
    assert "{2, 3, 4, 5, 6, 7, 8}" in step.sentence  # 35: the whole middle, 1 and 9 at the ends
    assert {(c, d) for c in range(1, 8) for d in (1, 9)} <= set(step.eliminations)


def test_a_whisper_loses_its_five() -> None:
    board = build(9, parse("wh_111213", 9))
    step = next_step([0] * 81, board)
    assert step is not None and step.technique == "German whispers"
    assert {(0, 5), (1, 5), (2, 5)} <= set(step.eliminations)
    assert "5 has no digit 5 or more away" in step.sentence


def test_anti_knight_goes_one_cell_at_a_time() -> None:
    board = build(9, parse("kn", 9))
    grid = [0] * 81
    grid[40] = 5  # r5c5
    step = next_step(grid, board)
    assert step is not None and step.technique == "Anti-knight"
    assert step.sentence.startswith("R5c5 is 5, and anti-knight")
    assert {cell for cell, _ in step.eliminations} == {21, 23, 29, 33, 47, 51, 57, 59}


def test_non_consecutive_clears_the_neighbours_of_a_digit() -> None:
    board = build(9, parse("nc", 9))
    grid = [0] * 81
    grid[40] = 5  # r5c5
    step = next_step(grid, board)
    assert step is not None and step.technique == "Non-consecutive" and step.rules == (0,)
    assert set(step.eliminations) == {(c, d) for c in (31, 39, 41, 49) for d in (4, 6)}


#: Published and own puzzles a hint and a grade are asked of; sudokutools-02's explanation
#: takes seconds, so it is slow.
HINTED = [
    pytest.param(e, id=e[0], marks=[pytest.mark.slow] if e[0] == "sudokutools-02" else [])
    for e in PUZZLES[:3] + own()[:4]
]


@pytest.mark.parametrize("entry", HINTED)
def test_hint_and_grade_use_the_rule_steps(
    entry: tuple[str, Geometry, list[int], list[int]],
) -> None:
    """A hint's steps are the ladder's, rule steps included, and sound; the fast grade is
    explain's."""
    _, board, givens, solution = entry
    hint = hint_steps(givens, board, deadline_ms=2000)
    for step in hint.steps:
        _sound(step, solution)
    explanation = explain(givens, board, solution=solution)
    assert set(explanation.technique_counts) & STEP_NAMES
    assert graded(explanation) == grade(givens, board, solution=solution)


def test_a_deadline_bounds_an_explanation_with_rules() -> None:
    """Past the deadline the rules' own steps stop too (a 16x16 board may hold hundreds of
    rules, each searched at every step): singles, the other cheap rungs and guesses finish."""
    _, board, givens, solution = PUZZLES[0]
    explanation = explain(givens, board, solution=solution, deadline_ms=0)
    assert explanation.status == "solved" and explanation.cut_short
    assert not set(explanation.technique_counts) & RULES
    assert set(explain(givens, board, solution=solution).technique_counts) & RULES
    for step in explanation.steps:
        _sound(step, solution)


def test_a_rule_rung_stops_at_the_deadline_between_rules() -> None:
    """A rule rung checks the clock at each rule it searches, not only the ladder between
    rungs: past the deadline it stops; in time it finds what it finds without a clock."""
    board = build(9, parse("th_11121314", 9))
    cand = pencil_marks([0] * 81, board)
    rung = dict((name, t) for name, _, t in RULE_RUNGS)["Thermometer"]
    found = rung(cand, tables_for(board))
    assert found is not None
    with clock.within(time.perf_counter() - 1), pytest.raises(clock.OutOfTime):
        rung(cand, tables_for(board))
    with clock.within(time.perf_counter() + 60):
        again = rung(cand, tables_for(board))
    assert again is not None and again.eliminations == found.eliminations


def test_a_forcing_branch_with_rules_stops_at_the_deadline() -> None:
    """Following one assumption runs every rule once per round: the clock is checked there."""
    _, board, givens, solution = PUZZLES[0]
    cand = pencil_marks(givens, board)
    props = rule_steps._propagators(board)
    cell = next(c for c, m in enumerate(cand.masks) if m)
    bit = 1 << (solution[cell] - 1)
    tables = tables_for(board)
    assert rule_steps._follow(tables, props, cand.values, engine_masks(cand), cell, bit).placed
    with clock.within(time.perf_counter() - 1), pytest.raises(clock.OutOfTime):
        rule_steps._follow(tables, props, cand.values, engine_masks(cand), cell, bit)


def test_an_explanation_keeping_its_solution_does_not_look_for_a_broken_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A position that keeps the solution breaks no rule, so the explanation does not run
    every rule's propagator after every step to find one; a wrong given is still named."""
    calls = []
    real = singles.rule_contradiction

    def counted(cand: Candidates, t: Tables) -> Step | None:
        calls.append(cand)
        return real(cand, t)

    monkeypatch.setattr(singles, "rule_contradiction", counted)
    _, board, givens, solution = PUZZLES[0]
    explanation = explain(givens, board, solution=solution)
    assert explanation.status == "solved" and len(explanation.steps) > 20
    assert len(calls) <= 1  # the finished grid's check
    board = build(9, parse("th_111213", 9))
    filled = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    grid = [0] * 81
    grid[0], grid[1] = 5, 3  # the bulb above the next cell: against the solution and the rule
    broken = explain(grid, board, solution=[int(ch) for ch in filled])
    assert broken.status == "contradiction" and broken.steps[-1].rules == (0,)


def test_a_rule_steps_grid_outlines_the_rule_it_reads() -> None:
    from sudoku_web.web.render.teaching_display import pencil_grid

    board = build(9, parse("th_11121314.kr_w_9899", 9))
    step = next_step([0] * 81, board)
    assert step is not None and step.rules == (board.rules.index(parse("th_11121314", 9)[0]),)
    html = str(pencil_grid(board, step.before, [0] * 81, step).rows_html())
    cells = re.findall(r"<td([^>]*)>", html)
    outlined = [i for i, attributes in enumerate(cells) if "step-rule" in attributes]
    assert outlined == [0, 1, 2, 3]
