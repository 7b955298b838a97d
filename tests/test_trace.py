"""The search trace: reduce passes, guesses, failures with reasons, and the cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.solver import solve
from sudoku_web.core.trace import trace_search

ROOT = Path(__file__).resolve().parent.parent
GEO = standard(9)
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
TOP95 = [line.strip() for line in (ROOT / "tests/data/top95.txt").read_text().splitlines()]


def test_easy_puzzle_is_all_reduce_no_guess() -> None:
    trace = trace_search(parse_puzzle(EASY, GEO), GEO)
    assert trace.outcome == "solved" and trace.guesses == 0 and not trace.truncated
    kinds = [e.kind for e in trace.events]
    assert kinds[-1] == "solved" and set(kinds) == {"reduce", "solved"}
    # Every open cell is settled by the givens' cascade or a pass.
    assert sum(e.settled for e in trace.events) == EASY.count(".")


@pytest.mark.parametrize("puzzle", TOP95[:20])
def test_trace_finds_the_engines_solution(puzzle: str) -> None:
    trace = trace_search(parse_puzzle(puzzle, GEO), GEO, max_events=10_000)
    assert trace.solution is not None
    assert "".join(map(str, trace.solution)) == solve(puzzle).solution
    guesses = [e for e in trace.events if e.kind == "guess"]
    assert len(guesses) == trace.guesses
    fails = [e for e in trace.events if e.kind == "fail"]
    assert len(fails) == trace.backtracks
    for guess in guesses:
        assert guess.cell is not None and len(guess.candidates) >= 2


def test_guess_cell_has_fewest_candidates_and_failures_say_why() -> None:
    trace = trace_search(parse_puzzle(TOP95[0], GEO), GEO, max_events=10_000)
    first = next(e for e in trace.events if e.kind == "guess")
    assert first.sentence.startswith(f"Stuck: guess at {GEO.cell_name(first.cell or 0)}")
    tries = [e for e in trace.events if e.kind == "try"]
    assert tries[0].value == first.candidates[0]  # candidates in ascending order
    fail = next(e for e in trace.events if e.kind == "fail")
    assert "fails: " in fail.sentence
    reason = fail.sentence.split("fails: ", 1)[1]
    assert any(
        phrase in reason
        for phrase in (
            "no candidate left",
            "nowhere to go",
            "can only go",
            "every branch",
            "cannot be",
        )
    )
    # Depths nest: a try sits one level below the guess it belongs to.
    i = trace.events.index(first)
    assert trace.events[i + 1].kind == "try" and trace.events[i + 1].depth == first.depth + 1


def test_trace_is_capped_with_a_flag() -> None:
    trace = trace_search(parse_puzzle(TOP95[0], GEO), GEO, max_events=10)
    assert len(trace.events) == 10 and trace.truncated
    assert trace.outcome == "solved" and trace.solution is not None  # the search still finished


def test_contradictory_givens_and_unsolvable_grids() -> None:
    grid = parse_puzzle(EASY, GEO)
    grid[0] = 3  # clashes with r1c3
    trace = trace_search(grid, GEO)
    assert trace.outcome == "unsolvable" and trace.solution is None
    assert trace.events[-1].kind == "fail"


def test_node_budget_gives_up() -> None:
    trace = trace_search([0] * 81, GEO, max_nodes=0)
    assert trace.outcome == "gave_up"
