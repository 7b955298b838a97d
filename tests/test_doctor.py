"""The typo doctor: minimal conflicts, one-cell fixes, ranking, suggestions, budgets."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudoku_web.core.board import (
    Geometry,
    find_conflicts,
    format_puzzle,
    jigsaw,
    parse_puzzle,
    standard,
    x_sudoku,
)
from sudoku_web.core.doctor import (
    Diagnosis,
    Fix,
    Suggestion,
    diagnose,
    rank_key,
    suggest_given,
    typo_tier,
)
from sudoku_web.core.solver import solve

DATA = Path(__file__).parent / "data"
# 5x5 jigsaw: five connected regions of five cells.
JIGSAW5 = "AAABBACABBCCCDBCEDDDEEEED"


def _altered(grid: list[int], geo: Geometry, rng: random.Random) -> Iterator[tuple[list[int], int]]:
    """Copies of a uniquely solvable grid with one given changed so it becomes unsolvable."""
    cells = [c for c, v in enumerate(grid) if v]
    rng.shuffle(cells)
    for cell in cells:
        taken = {grid[p] for p in geo.peers[cell]}
        for new in range(1, geo.size + 1):
            if new == grid[cell] or new in taken:
                continue  # equal givens in a house are "invalid", not the doctor's business
            bad = list(grid)
            bad[cell] = new
            if solve(bad, geometry=geo).status == "unsolvable":
                yield bad, cell


def _unique_puzzle(geo: Geometry, seed: int) -> list[int]:
    """A uniquely solvable puzzle: a solution with givens removed while it stays unique."""
    rng = random.Random(seed)
    # Fill a few random givens first so different seeds give different solutions.
    start = [0] * geo.cells
    for cell in rng.sample(range(geo.cells), geo.size):
        taken = {start[p] for p in geo.peers[cell]}
        free = [v for v in range(1, geo.size + 1) if v not in taken]
        start[cell] = rng.choice(free)
    result = solve(start, geometry=geo)
    if result.status not in ("solved", "multiple"):
        return _unique_puzzle(geo, seed + 1000)
    grid = parse_puzzle(result.solutions[0], geo)
    order = list(range(geo.cells))
    rng.shuffle(order)
    for cell in order:
        value, grid[cell] = grid[cell], 0
        if solve(grid, geometry=geo).status != "solved":
            grid[cell] = value
    return grid


def _cases() -> list[tuple[str, Geometry, list[int], list[int], int]]:
    """(id, geometry, original, altered, changed cell): 9x9 from tests/data, plus variants."""
    rng = random.Random(2024)
    geo9 = standard(9)
    cases = []
    for name, count in (("top95.txt", 4), ("17clue_sample.txt", 2), ("easy50.txt", 2)):
        found = 0
        for line in (DATA / name).read_text().split():
            grid = parse_puzzle(line, geo9)
            for bad, cell in _altered(grid, geo9, rng):
                cases.append((f"{name}-{found}", geo9, grid, bad, cell))
                found += 1
                break
            if found == count:
                break
    for name, geo, seed in (
        ("4x4", standard(4), 1),
        ("x9", x_sudoku(9), 2),
        ("jigsaw5", jigsaw(JIGSAW5), 3),
        ("6x6", standard(6), 4),
    ):
        grid = _unique_puzzle(geo, seed)
        bad, cell = next(_altered(grid, geo, rng))
        cases.append((name, geo, grid, bad, cell))
    return cases


CASES = _cases()


def _without(grid: list[int], cell: int) -> list[int]:
    out = list(grid)
    out[cell] = 0
    return out


def _only(grid: list[int], cells: tuple[int, ...]) -> list[int]:
    return [v if c in cells else 0 for c, v in enumerate(grid)]


@pytest.mark.parametrize(
    ("geo", "good", "bad", "cell"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_conflict_is_minimal_and_holds_the_changed_given(
    geo: Geometry, good: list[int], bad: list[int], cell: int
) -> None:
    found = diagnose(bad, geo, deadline_ms=None)
    assert found.complete
    assert cell in found.conflict
    core = _only(bad, found.conflict)
    assert solve(core, geometry=geo).status == "unsolvable"
    for member in found.conflict:
        assert solve(_without(core, member), geometry=geo).status in ("solved", "multiple")


@pytest.mark.parametrize(
    ("geo", "good", "bad", "cell"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_restoring_the_original_symbol_is_a_fix(
    geo: Geometry, good: list[int], bad: list[int], cell: int
) -> None:
    found = diagnose(bad, geo, deadline_ms=None)
    assert Fix(cell, bad[cell], good[cell]) in found.fixes
    for fix in found.fixes:
        assert fix.cell in found.conflict  # a given outside the conflict cannot be the fix
        assert solve(fix.apply(bad), geometry=geo).status == "solved"
    assert list(found.fixes) == sorted(found.fixes, key=rank_key)


def test_every_single_change_that_gives_one_solution_is_listed() -> None:
    """Brute force over every given and symbol of one case agrees with the doctor."""
    _, geo, _, bad, _ = CASES[0]
    expected = set()
    for cell, old in enumerate(bad):
        if not old:
            continue
        for new in [None, *range(1, 10)]:
            if new == old:
                continue
            fix = Fix(cell, old, new)
            trial = fix.apply(bad)
            if not find_conflicts(trial, geo) and solve(trial, geometry=geo).status == "solved":
                expected.add(fix)
    assert set(diagnose(bad, geo, deadline_ms=None).fixes) == expected


def test_api_shape_uses_symbols_and_null_for_removal() -> None:
    geo = standard(16)
    diagnosis = Diagnosis((3, 17), (Fix(17, 11, 12), Fix(3, 2, None)), complete=True)
    assert diagnosis.as_dict(geo) == {
        "conflict": [3, 17],
        "fixes": [{"cell": 17, "from": "B", "to": "C"}, {"cell": 3, "from": "2", "to": None}],
        "complete": True,
    }
    assert Fix(17, 11, 12).describe(geo) == "r2c2: B \u2192 C"
    assert Fix(3, 2, None).describe(geo) == "r1c4: remove the 2"
    assert "2 givens cannot all be right: r1c4, r2c2" in diagnosis.summary(geo)


@pytest.mark.parametrize(
    ("old", "new", "tier"),
    [
        (5, 4, 0),  # top-row neighbour
        (5, 8, 0),  # numeric keypad, one row up
        (1, 7, 0),  # look-alike
        (11, 8, 0),  # B read as 8 on a 16x16 grid
        (9, 10, 2),  # 9 and A are far apart on a keyboard
        (5, None, 1),  # removal
        (1, 9, 2),
    ],
)
def test_typo_tiers(old: int, new: int | None, tier: int) -> None:
    assert typo_tier(old, new)[0] == tier


def test_likely_slips_rank_before_removal_before_far_symbols() -> None:
    fixes = [Fix(0, 1, 9), Fix(5, 1, None), Fix(9, 4, 5), Fix(2, 2, 5)]
    ranked = sorted(fixes, key=rank_key)
    assert ranked == [Fix(9, 4, 5), Fix(2, 2, 5), Fix(5, 1, None), Fix(0, 1, 9)]


def test_tiny_budget_gives_an_honest_incomplete_answer() -> None:
    _, geo, _, bad, _ = CASES[0]
    full = diagnose(bad, geo, deadline_ms=None)
    cut = diagnose(bad, geo, max_nodes=1, deadline_ms=None)
    assert not cut.complete
    assert cut.solves < full.solves
    # Whatever was kept is still proven impossible.
    if cut.conflict:
        assert solve(_only(bad, cut.conflict), geometry=geo).status == "unsolvable"


def test_zero_deadline_gives_an_empty_incomplete_answer() -> None:
    _, geo, _, bad, _ = CASES[0]
    cut = diagnose(bad, geo, deadline_ms=0)
    assert cut == Diagnosis((), (), False, cut.solves, cut.nodes, cut.elapsed_ms, True)
    assert "ran out of time" in cut.summary(geo)
    assert not cut.cacheable  # the deadline cut it: the answer depends on the load


def test_an_answer_no_deadline_cut_is_a_pure_function_of_its_inputs() -> None:
    _, geo, _, bad, _ = CASES[0]
    full = diagnose(bad, geo, deadline_ms=None)
    nodes_cut = diagnose(bad, geo, max_nodes=1, deadline_ms=None)
    assert full.cacheable and nodes_cut.cacheable and not nodes_cut.complete
    again = diagnose(bad, geo, max_nodes=1, deadline_ms=None)
    assert (again.conflict, again.fixes, again.complete) == (
        nodes_cut.conflict,
        nodes_cut.fixes,
        nodes_cut.complete,
    )


def test_solvable_or_conflicting_puzzles_are_refused() -> None:
    _, geo, good, _, _ = CASES[0]
    with pytest.raises(ValueError, match="has a solution"):
        diagnose(good, geo)
    twins = list(good)
    first = next(c for c, v in enumerate(good) if v)
    row_mate = next(c for c in geo.peers[first] if not good[c])
    twins[row_mate] = good[first]
    with pytest.raises(ValueError, match="equal givens"):
        diagnose(twins, geo)


def test_text_input_is_accepted() -> None:
    _, geo, _, bad, cell = CASES[0]
    assert cell in diagnose(format_puzzle(bad), geo, deadline_ms=None).conflict


@pytest.mark.parametrize(
    ("geo", "seed"),
    [(standard(9), 5), (standard(4), 6), (x_sudoku(9), 7), (jigsaw(JIGSAW5), 8)],
    ids=["9x9", "4x4", "x9", "jigsaw5"],
)
def test_suggest_given_makes_a_multiple_puzzle_unique(geo: Geometry, seed: int) -> None:
    good = _unique_puzzle(geo, seed)
    rng = random.Random(seed)
    # Drop givens until the puzzle has several solutions, but only just.
    loose = list(good)
    for cell in rng.sample([c for c, v in enumerate(good) if v], k=sum(1 for v in good if v)):
        loose[cell] = 0
        if solve(loose, geometry=geo).status == "multiple":
            break
    result = solve(loose, geometry=geo)
    assert result.status == "multiple"
    hint = suggest_given(loose, geo, result.solutions)
    assert hint is not None
    assert not loose[hint.cell]
    assert solve(hint.apply(loose), geometry=geo).status == "solved"
    # Without the known solutions it solves first, and finds the same answer.
    assert suggest_given(loose, geo) == hint
    assert hint.as_dict(geo) == {"cell": hint.cell, "symbol": geo.symbol(hint.value)}


def test_suggest_given_says_none_when_the_budget_is_gone() -> None:
    geo = standard(4)
    assert suggest_given("1..." + "." * 12, geo, deadline_ms=0) is None
    assert suggest_given("1..." + "." * 12, geo, max_tries=0) is None
    assert Suggestion(0, 1).apply([0] * 16)[0] == 1


# Killers: which cage's sum was mistyped.

KILLER_LINES = (Path(__file__).parent / "data" / "killer_krazydad.txt").read_text().split()


@pytest.mark.parametrize("line", KILLER_LINES[:3])
def test_a_mistyped_sum_is_named(line: str) -> None:
    """Cages covering the grid: one sum off by one misses 405, and the doctor names it."""
    from sudoku_web.core.cages import SumsMismatch, parse_cages
    from sudoku_web.core.doctor import diagnose_sums

    cagemap, sums, solution = line.split(":")
    totals = sums.split(",")
    totals[5] = str(int(totals[5]) + 1)
    with pytest.raises(SumsMismatch) as excinfo:
        parse_cages(f"{cagemap}:{','.join(totals)}", standard(9))
    geo = standard(9).with_cages(excinfo.value.cages)
    found = diagnose_sums("." * 81, geo, deadline_ms=None)
    assert found.complete
    assert found.fixes, "the right sum gives exactly one solution"
    right = parse_cages(f"{cagemap}:{sums}", standard(9))
    for fix in found.fixes:
        fixed = fix.apply(geo)
        assert solve("." * 81, geometry=fixed).status == "solved"
    assert any(fix.apply(geo).cages == right for fix in found.fixes)
    assert " \u2192 " in found.fixes[0].describe(geo)
    assert found.as_dict(geo)["complete"] is True


def test_sum_typo_tiers() -> None:
    from sudoku_web.core.doctor import _one_keystroke, sum_typo_tier

    assert sum_typo_tier(15, 16)[0] == 0
    assert sum_typo_tier(12, 21)[0] == 0
    assert sum_typo_tier(15, 5)[0] == 1
    assert sum_typo_tier(15, 19)[0] == 1
    assert sum_typo_tier(15, 30)[0] == 2
    assert sum_typo_tier(15, 16) < sum_typo_tier(15, 5) < sum_typo_tier(15, 30)
    near = _one_keystroke(15)
    assert {14, 16, 25, 51, 5, 1, 115, 150} <= near and 0 not in near


def test_several_solutions_with_cages_get_a_suggestion() -> None:
    """A killer missing two cages has several solutions; one extra given makes it unique."""
    from sudoku_web.core.cages import parse_cages
    from sudoku_web.core.doctor import suggest

    cagemap, sums, solution = KILLER_LINES[0].split(":")
    cages = parse_cages(f"{cagemap}:{sums}", standard(9))
    geo = standard(9).with_cages(cages[1:16] + cages[17:])
    first = solve("." * 81, geometry=geo)
    assert first.status == "multiple"
    found = suggest([0] * 81, geo, first.solutions, deadline_ms=None)
    assert found.suggestion is not None
    result = solve(found.suggestion.apply([0] * 81), geometry=geo)
    assert result.status == "solved"


def test_a_mistyped_given_in_a_killer_is_found() -> None:
    """The given-fix logic works on a board with cages too."""
    from sudoku_web.core.cages import parse_cages

    cagemap, sums, solution = KILLER_LINES[1].split(":")
    geo = standard(9).with_cages(parse_cages(f"{cagemap}:{sums}", standard(9)))
    grid = [0] * 81
    for cell in (0, 40, 80):
        grid[cell] = int(solution[cell])
    wrong = next(v for v in range(1, 10) if v != grid[40] and v not in (grid[0], grid[80]))
    grid[40] = wrong
    assert solve(grid, geometry=geo).status == "unsolvable"
    found = diagnose(grid, geo, deadline_ms=None)
    assert found.conflict == (40,)
    assert any(f.cell == 40 and f.new == int(solution[40]) for f in found.fixes)
