"""Forcing chains beyond their ladder cases (in test_logic_techniques): the shortcuts of the
bit-state search must choose what following every branch plainly would."""

from __future__ import annotations

import random

import pytest
from test_logic_techniques import CASES, GEO

from sudoku_web.core.board import Geometry, hyper, jigsaw, parse_puzzle, standard, x_sudoku
from sudoku_web.core.logic import explain, pencil_marks
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import Candidates, propagation, tables_for
from sudoku_web.core.techniques.forcing import _known_broken, _Record
from sudoku_web.core.techniques.propagation import Outcome, net_tables, propagate, state_of

JIGSAW_MAP = (
    "000011222" "000111222" "001111222" "333444555" "333444555" "333444555"
    "666777888" "666777888" "666777888"
)  # fmt: skip

# top95 #19: its explanation needs forcing chains at several positions in a row.
TOP95_19 = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def _candidates(cand: Candidates) -> list[tuple[int, int]]:
    return [(c, d) for c, m in enumerate(cand.masks) for d in range(1, 17) if m >> (d - 1) & 1]


def _outcomes(geo: Geometry, cand: Candidates, locked: bool) -> dict[tuple[int, int], Outcome]:
    nt = net_tables(geo)
    x, d = state_of(nt, cand.values, cand.masks)
    n = geo.size
    return {(c, e): propagate(nt, x, d, c * n + e - 1, locked) for c, e in _candidates(cand)}


@pytest.mark.parametrize("locked", [False, True], ids=["chain", "net"])
def test_a_round_counts_as_if_placed_lowest_bit_first(
    locked: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A round places its singles highest bit first (the cheaper loop) and again lowest bit
    # first only when it ends in a contradiction, where two singles clashed and which got
    # placed depends on the order. Every outcome must be the one of lowest first throughout:
    # the counts decide which contradiction is the cheapest, so which one a step shows.
    positions = [case.candidates() for case in CASES[::4]]
    fast = [_outcomes(GEO, cand, locked) for cand in positions]
    monkeypatch.setattr(propagation, "_place_highest_first", propagation._place_lowest_first)
    assert [_outcomes(GEO, cand, locked) for cand in positions] == fast
    # ... and the positions hold clashes where the order changes the count.
    monkeypatch.undo()
    monkeypatch.setattr(propagation, "_place_lowest_first", propagation._place_highest_first)
    assert [_outcomes(GEO, cand, locked) for cand in positions] != fast


@pytest.mark.parametrize("locked", [False, True], ids=["chain", "net"])
def test_remembered_contradictions_give_the_cheapest(locked: bool) -> None:
    # Remembered contradictions are followed again cheapest first and the search stops at the
    # first that breaks: it must pick what following every one to its end picks (the fewest
    # placements, then the first in the grid), and forget only that one.
    nt = net_tables(GEO)
    checked = 0
    for case in CASES[::2]:
        cand = case.candidates()
        ends = _outcomes(GEO, cand, locked)
        broken = [node for node, outcome in ends.items() if outcome.broken]
        if len(broken) < 2:
            continue
        cheapest = min(broken, key=lambda node: (ends[node].placed[-1].bit_count(), node))
        memo: set[tuple[str, int, object]] = {("Forcing", locked, node) for node in broken}
        memo.add(("X-wing", 1, (3, 4)))  # other techniques' entries are left alone
        x, d = state_of(nt, cand.values, cand.masks)
        found = _known_broken(cand, nt, x, d, locked, memo)
        assert found is not None
        assert (found.kind, found.elimination) == ("contradiction", cheapest)
        assert found.cost == ends[cheapest].placed[-1].bit_count()
        assert memo == {("Forcing", locked, node) for node in broken if node != cheapest} | {
            ("X-wing", 1, (3, 4))
        }
        checked += 1
    assert checked >= 5


def test_a_contradiction_stays_one_as_candidates_shrink() -> None:
    # Why remembered contradictions may be left unfinished once a cheaper one broke: along
    # an explanation candidates only go, and a branch that broke on an earlier position
    # breaks on every later one that still has its assumption.
    grid = parse_puzzle(TOP95_19, GEO)
    solution = parse_puzzle(solve(TOP95_19).solution or "", GEO)
    steps = explain(grid, GEO, solution=solution).steps
    positions = [step.before for step in steps if "orcing" in step.technique]
    assert len(positions) >= 3
    for locked in (False, True):
        broke: set[tuple[int, int]] = set()
        for cand in positions:
            ends = _outcomes(GEO, cand, locked)
            for node in broke & set(ends):
                assert ends[node].broken, node
            broke |= {node for node, outcome in ends.items() if outcome.broken}
        assert broke


def _position(geo: Geometry, seed: int) -> Candidates:
    """A third of a solved grid's digits, seeded, as candidates."""
    solved = parse_puzzle(solve([0] * geo.cells, geometry=geo).solutions[0], geo)
    rng = random.Random(seed)
    return pencil_marks([v if rng.random() < 0.3 else 0 for v in solved], geo)


@pytest.mark.parametrize(
    "geo",
    [standard(4), standard(6), x_sudoku(9), hyper(), jigsaw(JIGSAW_MAP)],
    ids=["4x4", "6x6", "x", "hyper", "jigsaw"],
)
def test_fast_branches_agree_with_the_told_ones_on_every_board(geo: Geometry) -> None:
    # Cells on a diagonal or in a hyper window belong to four or five houses: a branch counts
    # the groups its placements settle, and a contradiction is an empty group beyond them.
    tables = tables_for(geo)
    w = geo.size + 1
    broken = 0
    for seed in range(2):
        cand = _position(geo, seed)
        for locked in (False, True):
            for (cell, digit), fast in _outcomes(geo, cand, locked).items():
                told = _Record(cand, tables, locked)
                assert fast.broken == (told.follow(cell, digit) is not None)
                broken += fast.broken
                if not fast.broken:
                    bits = fast.placed[-1]
                    placed = {(b // w, b % w + 1) for b in range(geo.cells * w) if bits >> b & 1}
                    assert placed == set(told.placed_by)
    assert broken
