"""core.pool: the shipped pool is true to the grader, small, and picked from by seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_web.core import pool
from sudoku_web.core.board import find_conflicts, parse_puzzle
from sudoku_web.core.generate import generate
from sudoku_web.core.logic import GRADES
from sudoku_web.core.solver import solve

# One test per few puzzles of each kind and grade of the shipped pool, so that the workers
# share the slowest grades; grading a 16x16, a killer or a Fiendish or Diabolical puzzle is
# slow (up to a few seconds a puzzle), so those are marked.
CHUNK = 3
CHUNKS = [
    pytest.param(
        key,
        filed,
        start,
        marks=[pytest.mark.slow]
        if key.endswith("-16") or pool.parse_key(key)[2] or filed in ("Fiendish", "Diabolical")
        else [],
        id=f"{key}-{filed}-{start // CHUNK + 1}",
    )
    for key, grades in sorted(pool.load().items())
    for filed, texts in grades.items()
    for start in range(0, len(texts), CHUNK)
]


def test_the_pool_ships_and_stays_small() -> None:
    assert pool.SHIPPED.is_file()
    assert pool.SHIPPED.stat().st_size < 200_000
    kinds = pool.load()
    assert set(kinds) <= {pool.kind_key(v, n) for v, n in pool.KINDS} | set(pool.CAGED_KINDS)
    for grades in kinds.values():
        assert set(grades) <= set(GRADES)
        assert all(grades.values()), "a grade is filed only with a puzzle in it"
        assert all(len(texts) <= pool.MAX_PER_GRADE for texts in grades.values())


def test_the_pool_holds_the_top_grades_of_the_classic_grid() -> None:
    kinds = pool.load()
    for asked in ("Fiendish", "Diabolical"):
        assert pool.count(kinds, "standard", 9, asked) >= 5


def _check_entry(entry: pool.Entry) -> None:
    result = solve(entry.puzzle, geometry=entry.geometry, deadline_ms=None)
    assert result.status == "solved", "a pooled puzzle must have exactly one solution"
    solution = parse_puzzle(result.solutions[0], entry.geometry)
    givens = parse_puzzle(entry.puzzle, entry.geometry)
    assert all(g in (0, s) for g, s in zip(givens, solution, strict=True))
    assert not find_conflicts(solution, entry.geometry)
    # Filed under the grade the grader gives it now (after a ladder change: `pool regrade`);
    # pool.check is this solve and then this grade.
    assert pool.grade_of(entry, result.solutions[0]) == entry.grade


@pytest.mark.parametrize(("key", "filed", "start"), CHUNKS)
def test_every_pooled_puzzle_is_proper_and_of_its_grade(key: str, filed: str, start: int) -> None:
    for text in pool.load()[key][filed][start : start + CHUNK]:
        _check_entry(pool.read_keyed(text, key, filed))  # type: ignore[arg-type]


def test_pick_is_fixed_by_the_seed() -> None:
    kinds = pool.load()
    first = pool.pick(kinds, "standard", 9, "Diabolical", "seed-1")
    assert first is not None and first.grade == "Diabolical"
    assert pool.pick(kinds, "standard", 9, "Diabolical", "seed-1") == first
    picks = {pool.pick(kinds, "standard", 9, "Diabolical", f"s{i}") for i in range(30)}
    assert len(picks) > 1
    assert pool.pick(kinds, "standard", 4, "Diabolical", "seed-1") is None


def test_add_save_load_and_regrade(tmp_path: Path) -> None:
    """A puzzle filed under the wrong grade moves to its own on regrade; duplicates are not
    added twice; the file round-trips."""
    path = tmp_path / "pool.json"
    found = generate("standard", 9, "Easy", seed=3)
    kinds: pool.Kinds = {}
    assert pool.add(kinds, found) and not pool.add(kinds, found)
    kinds["standard-9"]["Hard"] = kinds["standard-9"].pop("Easy")  # misfiled on purpose
    pool.save(kinds, path)
    assert pool.load(path) == {"standard-9": {"Hard": [found.puzzle]}}
    regraded, moved, dropped = pool.regrade(pool.load(path))
    assert (moved, dropped) == (1, 0)
    assert regraded == {"standard-9": {"Easy": [found.puzzle]}}


def test_jigsaw_entries_keep_their_map(tmp_path: Path) -> None:
    found = generate("jigsaw", 6, "Easy", seed=4)
    kinds: pool.Kinds = {}
    pool.add(kinds, found)
    (entry,) = pool.entries(kinds)
    assert entry.regions == found.regions and entry.puzzle == found.puzzle
    assert pool.check(entry) == "Easy"


def test_a_missing_pool_file_is_an_empty_pool(tmp_path: Path) -> None:
    assert pool.load(tmp_path / "none.json") == {}


def test_a_regrade_keeps_a_grade_within_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a ladder change moves more puzzles into one grade than it may hold, the first
    ones stay and the rest count as dropped."""
    found = [generate("standard", 9, "Easy", seed=n) for n in range(4)]
    kinds: pool.Kinds = {}
    for one in found:
        pool.add(kinds, one)
    monkeypatch.setattr(pool, "MAX_PER_GRADE", 3)
    regraded, moved, dropped = pool.regrade(kinds)
    assert (moved, dropped) == (0, 1)
    assert regraded == {"standard-9": {"Easy": [one.puzzle for one in found[:3]]}}


def test_the_pool_holds_killers_of_every_grade() -> None:
    """Cages and all: each grade of the killer, the 6x6 killer and killer-X, read back as
    boards whose cages cover the grid, with no givens (the entry is the cages alone)."""
    kinds = pool.load()
    for key in ("killer-9", *pool.CAGED_KINDS):
        for asked in GRADES:
            texts = kinds[key][asked]
            assert texts, (key, asked)
            entry = pool.read_keyed(texts[0], key, asked)  # type: ignore[arg-type]
            cells = entry.geometry.cells
            assert "/" not in texts[0] and entry.puzzle == "0" * cells
            assert sorted(c for cage in entry.geometry.cages for c in cage.cells) == list(
                range(cells)
            )
            assert entry.text == texts[0]


def test_killer_entries_round_trip(tmp_path: Path) -> None:
    """A killer made on the X board is filed as killer-x-9 and read back with its cages; one
    with givens keeps them after its cages."""
    found = generate("x", 4, "Easy", seed=2, cages=True, max_attempts=3)
    kinds: pool.Kinds = {}
    assert pool.add(kinds, found)
    assert list(kinds) == ["killer-x-4"]
    (entry,) = pool.entries(kinds)
    assert entry.geometry == found.geometry and entry.puzzle == found.puzzle
    assert pool.parse_key("killer-x-4")[0].key == "x"
    assert pool.parse_key("killer-9")[0].key == "standard"
    given = pool.entry_text("1" + "0" * 15, None, "ABCD")
    assert given == "ABCD/1000000000000000"
    assert pool.pick_keyed(kinds, "killer-x-4", found.grade, "any") == entry
