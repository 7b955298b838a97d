"""The engine's search story (solve(..., record=N)), its guess choice, and its tables' bounds.

The story is the engine's own run: the recorded solve must be the plain solve, event for
event, and every page and API must show the same guesses and backtracks.
"""

from __future__ import annotations

import random
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from sudoku_web.core import solver, solver_tables
from sudoku_web.core.board import Geometry, jigsaw, standard
from sudoku_web.core.solver import SolveResult, branch_for, solve, tables_bytes

ROOT = Path(__file__).resolve().parent.parent
TOP95 = [ln.strip() for ln in (ROOT / "tests/data/top95.txt").read_text().splitlines() if ln]
GEO = standard(9)
ONE_GUESS = TOP95[5]  # the engine guesses once: r9c3 = 9 fails, r9c3 = 8 holds
HOUSE_GUESS = TOP95[73]  # somewhere no cell has two candidates: a guess in a house


def _work(result: SolveResult) -> tuple[object, ...]:
    s = result.stats
    counts = (s.guesses, s.backtracks, s.nodes, s.max_depth, s.reduce_passes, s.placed_by_reduce)
    return (result.status, result.solutions, result.reason, counts)


# --- the recorded run is the engine's run ---------------------------------------------------


def test_the_story_is_the_engines_run_on_every_top95_puzzle() -> None:
    for puzzle in TOP95:
        plain = solve(puzzle, deadline_ms=None)
        told = solve(puzzle, deadline_ms=None, record=100_000)
        assert plain.story is None and told.story is not None
        assert _work(told) == _work(plain), puzzle
        events = told.story.events
        assert not told.story.truncated
        # One guess line per guess, one failed branch per backtrack.
        assert sum(e.kind == "guess" for e in events) == plain.stats.guesses, puzzle
        fails = [e for e in events if e.kind == "fail" and e.cell is not None]
        assert len(fails) == plain.stats.backtracks, puzzle
        # Every try is an option of the guess it belongs to, one level below it.
        open_guesses: list[Any] = []
        for event in events:
            if event.kind == "guess":
                open_guesses = [g for g in open_guesses if g.depth < event.depth] + [event]
            elif event.kind == "try":
                guess = next(g for g in reversed(open_guesses) if g.depth == event.depth - 1)
                assert event.value in guess.candidates or event.cell in guess.places


def test_the_page_cap_cuts_the_story_not_the_run() -> None:
    deep = max(TOP95, key=lambda p: solve(p).stats.guesses)
    plain = solve(deep, deadline_ms=None)
    told = solve(deep, deadline_ms=None, record=5)
    assert told.story is not None
    assert len(told.story.events) == 5 and told.story.truncated
    assert _work(told) == _work(plain)


def test_one_guess_told_line_by_line() -> None:
    told = solve(ONE_GUESS, record=200)
    assert told.story is not None
    lines = [(e.depth, e.kind, e.sentence) for e in told.story.events]
    assert lines[:4] == [
        (0, "reduce", "Place the 17 givens; the reduce then settles 6 cells."),
        (
            0,
            "guess",
            "Stuck: guess at r9c3 (8, 9), a cell with two candidates and the most open peers.",
        ),
        (1, "try", "Try r9c3 = 9; the reduce settles 39 more cells."),
        (1, "fail", "r9c3 = 9 fails: r7c4 has no candidate left."),
    ]
    assert lines[4][:2] == (1, "try") and lines[5][1] == "solved"
    assert lines[-1] == (0, "solved", "No branch is left to try: the solution is unique.")


def test_a_guess_in_a_house_names_the_symbol_and_its_places() -> None:
    told = solve(HOUSE_GUESS, record=100_000, deadline_ms=None)
    assert told.story is not None
    guess = next(e for e in told.story.events if e.house is not None)
    assert guess.value is not None and len(guess.places) == 2 and guess.cell is None
    assert f"guess where {GEO.symbol(guess.value)} goes in {guess.house}" in guess.sentence
    after = told.story.events[told.story.events.index(guess) + 1]
    assert after.kind == "try" and after.cell in guess.places and after.value == guess.value


def test_a_failed_branch_names_an_empty_house_or_cell() -> None:
    told = solve(HOUSE_GUESS, record=100_000, deadline_ms=None)
    assert told.story is not None
    reasons = {e.sentence.split("fails: ")[1] for e in told.story.events if e.kind == "fail"}
    assert any(re.fullmatch(r"r\dc\d has no candidate left\.", r) for r in reasons)
    assert any(re.fullmatch(r"\d has no place left in (row|column|box) \d\.", r) for r in reasons)


def test_givens_that_contradict_without_a_clash() -> None:
    # r1c1..r1c8 hold 1..8 and the 9 sits in column 9 below: r1c9 has no candidate.
    grid = [1, 2, 3, 4, 5, 6, 7, 8, 0] + [0] * 8 + [9] + [0] * 63
    told = solve(grid, record=200)
    assert told.status == "unsolvable" and told.reason == "reduction"
    assert told.story is not None
    assert told.story.events[-2].sentence.startswith("The givens contradict each other: ")
    assert told.story.events[-1].sentence == "No branch is left to try: there is no solution."


def test_budgets_stop_the_told_run_where_they_stop_the_plain_one() -> None:
    hard = max(TOP95, key=lambda p: solve(p).stats.guesses)
    for budget in (0, 3, 40):
        plain = solve(hard, max_nodes=budget, deadline_ms=None)
        told = solve(hard, max_nodes=budget, deadline_ms=None, record=100_000)
        assert plain.status == "gave_up" and _work(told) == _work(plain)
        assert told.candidates == plain.candidates
        assert told.story is not None and told.story.events[-1].kind == "stop"
    late = solve(hard, deadline_ms=0, record=200)
    assert late.status == "gave_up" and late.reason == "deadline"
    assert late.story is not None
    assert late.story.events[-1].sentence.startswith("The time limit is reached here")


# --- one guess choice -------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", [ONE_GUESS, HOUSE_GUESS])
def test_branch_for_is_the_engines_first_guess(puzzle: str) -> None:
    # Stopped before its first guess, the engine reports its candidates there.
    stopped = solve(puzzle, max_nodes=0)
    assert stopped.candidates is not None
    branch = branch_for([0] * 81, stopped.candidates, GEO)
    told = solve(puzzle, record=200)
    assert branch is not None and told.story is not None
    guess = next(e for e in told.story.events if e.kind == "guess")
    if guess.house is None:
        assert branch.cell == guess.cell
        assert tuple(v for _, v in branch.options) == guess.candidates
    else:
        assert branch.house is not None and branch.house.name == guess.house
        assert tuple(c for c, _ in branch.options) == guess.places
    solution = [int(ch) for ch in told.solutions[0]]
    cell, value = branch.holding(solution)
    assert solution[cell] == value


def test_branch_for_a_finished_or_dead_position_is_none() -> None:
    done = [int(ch) for ch in solve(ONE_GUESS).solutions[0]]
    assert branch_for(done, [0] * 81, GEO) is None
    dead = [0] * 81
    assert branch_for(dead, [0] * 81, GEO) is None  # open cells without candidates


# --- the pages and APIs agree -----------------------------------------------------------------


def _numbers(pattern: str, html: str) -> tuple[int, int]:
    match = re.search(pattern, html, re.S)
    assert match, pattern
    return int(match.group(1)), int(match.group(2))


#: The top95 puzzles in four interleaved parts (every 4th from 0, 1, 2 and 3), so that the
#: workers share the pages' test.
TOP95_PARTS = 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(TOP95_PARTS), ids=lambda p: f"{p + 1}of{TOP95_PARTS}")
def test_every_page_and_api_gives_the_engines_guesses_and_backtracks(
    client: Any, part: int
) -> None:
    # The test app has no wall-clock deadline (conftest.ROOMY): the node budget alone, as in
    # solve(), so a loaded box never stops one run earlier than another.
    for puzzle in (p.replace(".", "0") for p in TOP95[part::TOP95_PARTS]):  # links' spelling
        stats = solve(puzzle).stats
        want = (stats.guesses, stats.backtracks)
        api = client.get(f"/api/solve?puzzle={puzzle}").get_json()["stats"]
        assert (api["guesses"], api["backtracks"]) == want, puzzle
        page = client.get(f"/p/{puzzle}").get_data(as_text=True)
        got = _numbers(r"<dt>Guesses</dt><dd>(\d+)</dd>.*?<dt>Backtracks</dt><dd>(\d+)</dd>", page)
        assert got == want, puzzle
        search = client.get(f"/p/{puzzle}/search").get_data(as_text=True)
        got = _numbers(r"In all: (\d+) guess(?:es)?,\s+(\d+) backtrack", search)
        assert got == want, puzzle
        panel = client.get(f"/p/{puzzle}/difficulty").get_data(as_text=True)
        assert _numbers(r"<p>(\d+) guess(?:es)?,\s+(\d+) backtrack", panel) == want, puzzle
        explained = client.get(f"/api/explain?puzzle={puzzle}").get_json()
        machine = explained["grade"]["machine"]
        assert (machine["guesses"], machine["backtracks"]) == want, puzzle
        story = explained["search"]
        assert (story["guesses"], story["backtracks"]) == want, puzzle


# --- tables: lazy for 16x16, bounded in bytes, honest about their size ----------------------


def _jigsaw16(seed: int) -> Geometry:
    """A 16x16 jigsaw map never built before: 4x4 boxes under a fresh set of labels."""
    labels = random.Random(seed).sample("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", 16)
    return jigsaw("".join(labels[(r // 4) * 4 + c // 4] for r in range(16) for c in range(16)))


def _jigsaw9(seed: int) -> Geometry:
    labels = random.Random(seed).sample("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", 9)
    return jigsaw("".join(labels[(r // 3) * 3 + c // 3] for r in range(9) for c in range(9)))


def _keep_by_definition(t: Any, b: int) -> int:
    """KEEP from its definition, bit by bit: every candidate bit except those of the cell's
    other symbols and of the symbol in the cell's peers, in every group holding them."""
    cell, d = divmod(t.table[b], t.n)
    gone = [cell * t.n + e for e in range(t.n) if e != d]
    gone += [p * t.n + d for p in t.geo.peers[cell]]
    keep = t.everything
    for j in gone:
        for pos in t.bits_of[j]:
            keep &= ~(1 << pos)
    return int(keep)


def test_16x16_masks_built_on_demand_equal_the_eager_ones(monkeypatch: Any) -> None:
    made = standard(16)
    geo = Geometry(made.size, made.variant, made.houses, made.box_shape)  # a new object
    lazy = solver_tables._Tables(geo)
    assert isinstance(lazy.keep_at, solver_tables._LazyMasks) and not lazy.keep_at
    monkeypatch.setattr(solver_tables, "EAGER_MASKS_BYTES", 1 << 40)
    eager = solver_tables._Tables(geo)
    assert isinstance(eager.keep_at, list)
    bits = [b for b in range(1, eager.n_bits + 1) if eager.table[b] >= 0]
    for b in random.Random(2).sample(bits, 300):
        assert lazy.keep_at[b] == eager.keep_at[b] == _keep_by_definition(eager, b)
        assert lazy.done_at[b] == eager.done_at[b]
        assert lazy.other_at[b] == eager.other_at[b]
    assert 0 < lazy.grown_bytes < eager.mask_bytes


def test_a_16x16_solve_on_a_new_map_builds_only_what_it_uses() -> None:
    # Every _jigsaw16 map has the same regions under new labels: one's solution fits all.
    puzzle = solve("." * 256, geometry=_jigsaw16(3), deadline_ms=None).solutions[0]
    sparse = "".join(ch if i % 3 else "." for i, ch in enumerate(puzzle))
    geo = _jigsaw16(33)
    result = solve(sparse, geometry=geo, deadline_ms=None)
    assert result.status in ("solved", "multiple")
    tables = geo.__dict__["_engine_tables"]
    assert 0 < tables.grown_bytes <= solver_tables.GROWN_BUDGET_BYTES
    full = 3 * geo.cells * geo.size * (tables.n_bits // 8)
    assert tables.nbytes < full / 3  # the eager tables were ~30 MB; a solve needs a few


def test_grown_masks_are_dropped_past_their_budget(monkeypatch: Any) -> None:
    monkeypatch.setattr(solver_tables, "GROWN_BUDGET_BYTES", 200_000)
    geo = _jigsaw16(4)
    result = solve("." * 256, geometry=geo, deadline_ms=None)
    assert result.status == "multiple"  # still right while masks come and go
    tables = geo.__dict__["_engine_tables"]
    assert tables.grown_bytes <= 200_000 + 3 * (tables.n_bits // 8 + 1000)


@pytest.mark.parametrize("make", [_jigsaw9, _jigsaw16])
def test_the_size_estimate_is_honest(make: Any) -> None:
    solver_tables._powers.cache_clear()  # so the shared powers are measured too
    geo = make(5)
    tracemalloc.start()
    built = solver_tables._Tables(geo)
    measured = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert 0.8 * measured <= built.nbytes <= 1.3 * measured


def test_the_table_cache_stays_within_its_byte_budget(monkeypatch: Any) -> None:
    pinned = [standard(9), standard(16)]
    for geo in pinned:
        assert "_engine_tables" in geo.__dict__  # prebuilt (conftest, as the server master)
    held = [g.__dict__["_engine_tables"] for g in solver_tables._holders.values()]
    fixed = sum(t.layout_bytes + t.mask_bytes for t in held if id(t.geo) in solver_tables._pinned)
    budget = fixed + 8 * 1024 * 1024  # room for one or two 16x16 maps besides the pinned
    monkeypatch.setattr(solver_tables, "TABLES_BUDGET_BYTES", budget)
    fresh = [_jigsaw16(seed) for seed in range(10, 14)]
    for geo in fresh:
        solve("." * 256, geometry=geo, max_nodes=5)
        assert tables_bytes() <= budget
    assert "_engine_tables" not in fresh[0].__dict__  # the oldest went first
    assert "_engine_tables" in fresh[-1].__dict__
    for geo in pinned:
        assert "_engine_tables" in geo.__dict__  # the prebuilt fixed geometries stay


def test_the_deadline_covers_a_new_geometrys_table_build(monkeypatch: Any) -> None:
    """A build that leaves no time: the solve answers gave_up/deadline, it never runs on."""
    clock = [0.0]
    monkeypatch.setattr(solver.time, "perf_counter", lambda: clock[0])
    real_init = solver_tables._Tables.__init__

    def slow_build(self: Any, geo: Geometry) -> None:
        real_init(self, geo)
        clock[0] += 1.0  # the build took a second of a 300 ms budget

    monkeypatch.setattr(solver_tables._Tables, "__init__", slow_build)
    result = solve("." * 256, geometry=_jigsaw16(6), deadline_ms=300)
    assert result.status == "gave_up" and result.reason == "deadline"
    assert result.stats.guesses == 0
