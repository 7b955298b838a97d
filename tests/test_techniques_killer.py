"""The killer rungs: each fires where its reasoning holds (with the words and the cages a page
draws) and stays quiet where it does not; the ladder uses them on published killers without a
guess and never removes a solution's digit; the classic machinery (pencil marks, contradiction,
the fast grade, the uniqueness guard) knows about cages."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from test_logic_techniques import CASES

from sudoku_web.core.board import Cage, Geometry, hyper, jigsaw, parse_puzzle, standard, x_sudoku
from sudoku_web.core.cage_maker import partition
from sudoku_web.core.cages import parse_cages
from sudoku_web.core.logic import apply_step, explain, grade, next_step, pencil_marks
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    KILLER,
    TECHNIQUES,
    UNIQUENESS,
    Candidates,
    Step,
    cage_combination,
    cage_overlap,
    innies_outies,
    tables_for,
)
from sudoku_web.core.techniques.innies import region_tables
from sudoku_web.core.techniques.sums import distinct_sum, signed_sum

NINE = standard(9)
DATA = Path(__file__).parent / "data" / "killer_krazydad.txt"
# One published killer's solution, used to build cages whose sums are right.
SOLUTION = "184652793526793184739184562653278419941365827278941356895427631412836975367519248"


def _cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def _killers() -> list[tuple[Geometry, list[int]]]:
    out = []
    for line in DATA.read_text().splitlines():
        cage_map, sums, solution = line.strip().split(":")
        geometry = NINE.with_cages(parse_cages(f"{cage_map}:{sums}", NINE))
        out.append((geometry, [int(ch) for ch in solution]))
    return out


def _caged(*cells: Sequence[str], solution: str = SOLUTION) -> Geometry:
    """A 9x9 board with one cage per group of cell names, its sum taken from ``solution``."""
    cages = []
    for group in cells:
        indices = tuple(sorted(_cell(name) for name in group))
        cages.append(Cage(sum(int(solution[c]) for c in indices), indices))
    return NINE.with_cages(cages)


def _cage_index(geometry: Geometry, first: str) -> int:
    return next(i for i, c in enumerate(geometry.cages) if c.cells[0] == _cell(first))


def _sound(step: Step, solution: str = SOLUTION) -> None:
    assert all(int(solution[c]) != d for c, d in step.eliminations)
    assert all(int(solution[c]) == d for c, d in step.placements)


# ---------------------------------------------------------------------------------------------
# Cage combinations


def test_a_two_cell_seventeen_is_eight_and_nine() -> None:
    geometry = NINE.with_cages([Cage(17, (_cell("r1c1"), _cell("r1c2")))])
    step = cage_combination(pencil_marks([0] * 81, geometry), tables_for(geometry))
    assert step is not None and step.technique == "Cage combination"
    assert "17-cage at r1c1" in step.sentence and "8+9" in step.sentence
    assert set(step.eliminations) == {(c, d) for c in (0, 1) for d in range(1, 8)}
    assert step.cages == (0,) and step.cells == (0, 1)
    # Once the cells hold only 8 and 9, the cage has nothing more to say.
    after = apply_step(step.before, step, geometry)
    assert cage_combination(after, tables_for(geometry)) is None


def test_a_cage_that_allows_every_digit_says_nothing() -> None:
    # 15 in three cells: every digit 1..9 is in some combination, and any cell can take it.
    geometry = NINE.with_cages([Cage(15, (0, 1, 2))])
    assert cage_combination(pencil_marks([0] * 81, geometry), tables_for(geometry)) is None
    # And no board without cages ever gets a killer step.
    for name, _, technique in TECHNIQUES:
        if name in KILLER:
            assert technique(pencil_marks([0] * 81, NINE), tables_for(NINE)) is None


def test_placed_digits_are_taken_off_the_sum() -> None:
    # 15 in three cells with a 9 placed: the other two add up to 6 (1+5 or 2+4).
    geometry = NINE.with_cages([Cage(15, (0, 1, 2))])
    grid = [0] * 81
    grid[0] = 9
    step = cage_combination(pencil_marks(grid, geometry), tables_for(geometry))
    assert step is not None
    assert "already holds 9, so its other two cells add up to 6" in step.sentence
    assert "1+5 or 2+4" in step.sentence
    after = apply_step(step.before, step, geometry)
    assert after.masks[1] == after.masks[2] == 0b11011  # 1, 2, 4 and 5


def test_combinations_follow_the_candidates_left() -> None:
    # 10 in two cells (1+9, 2+8, 3+7, 4+6): with r1c1 down to 1 or 2, r1c2 keeps 8 and 9.
    geometry = NINE.with_cages([Cage(10, (0, 1))])
    masks = list(pencil_marks([0] * 81, geometry).masks)
    masks[0] = 0b11
    cand = Candidates((0,) * 81, tuple(masks))
    step = cage_combination(cand, tables_for(geometry))
    assert step is not None
    assert {d for c, d in step.eliminations if c == 1} == {1, 2, 3, 4, 5, 6, 7}
    assert "1+9 or 2+8" in step.sentence


def test_a_one_cell_cage_places_its_sum() -> None:
    geometry = NINE.with_cages([Cage(6, (40,))])
    step = cage_combination(pencil_marks([0] * 81, geometry), tables_for(geometry))
    assert step is not None and step.placements == ((40, 6),) and not step.eliminations


def test_a_cage_that_cannot_make_its_sum_is_a_contradiction() -> None:
    # 4 in two cells is 1+3; with 3 gone from both cells, the cage is dead.
    geometry = NINE.with_cages([Cage(4, (0, 1))])
    masks = list(pencil_marks([0] * 81, geometry).masks)
    masks[0] = masks[1] = 0b111111011
    step = next_step(Candidates((0,) * 81, tuple(masks)), geometry)
    assert step is not None and step.technique == "Contradiction"
    assert "4-cage at r1c1" in step.sentence and step.cages == (0,)


# ---------------------------------------------------------------------------------------------
# Cage/house overlap


def test_a_digit_the_cage_needs_leaves_the_house_it_is_confined_to() -> None:
    # 7 in three cells of row 1 is 1+2+4: the cage needs 1, 2 and 4, all in row 1 and box 1.
    geometry = NINE.with_cages([Cage(7, (0, 1, 2))])
    cand = pencil_marks([0] * 81, geometry)
    combined = cage_combination(cand, tables_for(geometry))
    assert combined is not None
    cand = apply_step(cand, combined, geometry)
    step = cage_overlap(cand, tables_for(geometry))
    assert step is not None and step.technique == "Cage/house overlap"
    assert "needs a 1" in step.sentence and "all in row 1" in step.sentence
    targets = {c for c, d in step.eliminations}
    assert {3, 4, 5, 6, 7, 8} <= targets  # the rest of row 1 ...
    assert {9, 10, 11, 18, 19, 20} <= targets  # ... and of box 1, which all see the cage
    assert {d for _, d in step.eliminations} == {1}
    assert step.cages == (0,)


def test_a_cage_without_a_common_digit_points_nowhere() -> None:
    # 10 in two cells: 1+9, 2+8, 3+7, 4+6 share no digit.
    geometry = NINE.with_cages([Cage(10, (0, 1))])
    assert cage_overlap(pencil_marks([0] * 81, geometry), tables_for(geometry)) is None


def test_a_house_digit_confined_to_a_cage_belongs_to_it() -> None:
    # In row 1, 9 can only go in r1c1 and r1c2, both in a cage reaching r2c1: r2c1 loses 9,
    # and the cage (16 in three cells) must use a combination with 9.
    geometry = NINE.with_cages([Cage(16, (0, 1, 9))])
    masks = list(pencil_marks([0] * 81, geometry).masks)
    for c in range(2, 9):
        masks[c] &= ~(1 << 8)
    cand = Candidates((0,) * 81, tuple(masks))
    step = cage_overlap(cand, tables_for(geometry))
    assert step is not None and step.technique == "Cage/house overlap"
    assert step.sentence.startswith("In row 1, 9 can only go in r1c1 or r1c2")
    assert (9, 9) in step.eliminations  # r2c1 loses 9
    # 16 with a 9 among three cells is 1+6+9, 2+5+9 or 3+4+9: 7 and 8 go from all three.
    assert {(c, d) for c in (0, 1, 9) for d in (7, 8)} <= set(step.eliminations)


# ---------------------------------------------------------------------------------------------
# Innies and outies


ROW_ONE = [("r1c1", "r1c2"), ("r1c3", "r1c4"), ("r1c5", "r1c6"), ("r1c7",)]


def test_an_innie_of_a_row_is_what_its_cages_leave_of_45() -> None:
    # Row 1 is covered by cages inside it but for r1c8, whose cage reaches into row 2.
    geometry = _caged(*ROW_ONE, ("r1c9",), ("r1c8", "r2c8"))
    step = innies_outies(pencil_marks([0] * 81, geometry), tables_for(geometry))
    assert step is not None and step.technique == "Innies and outies"
    assert step.placements == ((_cell("r1c8"), int(SOLUTION[_cell("r1c8")])),)
    assert step.sentence.startswith("Row 1 adds up to 45; the five cages wholly inside add up")
    assert "so r1c8 = " in step.sentence
    inside = {_cage_index(geometry, n) for n in ("r1c1", "r1c3", "r1c5", "r1c7", "r1c9")}
    assert inside < set(step.cages)
    _sound(step)


def test_an_outie_is_what_its_cage_adds_beyond_the_region() -> None:
    # Row 1's cells all lie in cages, one of which (r1c8, r1c9) pokes out by r2c9 alone.
    geometry = _caged(*ROW_ONE, ("r1c8", "r1c9", "r2c9"))
    cand = pencil_marks([0] * 81, geometry)
    masks = list(cand.masks)
    # With r1c8 and r1c9 already narrowed to their own digits, only the outie is news.
    for name in ("r1c8", "r1c9"):
        masks[_cell(name)] = (1 << (int(SOLUTION[_cell("r1c8")]) - 1)) | (
            1 << (int(SOLUTION[_cell("r1c9")]) - 1)
        )
    step = innies_outies(Candidates(cand.values, tuple(masks)), tables_for(geometry))
    assert step is not None
    assert step.placements == ((_cell("r2c9"), int(SOLUTION[_cell("r2c9")])),)
    assert "reaches out of it" in step.sentence and "r2c9 = " in step.sentence
    _sound(step)


def test_two_rows_together_give_what_neither_gives_alone() -> None:
    # Vertical pairs over rows 1-2 in columns 1-8 and a three-cell cage r1c9-r3c9: no single
    # row has a short sum, rows 1-2 together leave r3c9 as the one outie.
    pairs = [(f"r1c{c}", f"r2c{c}") for c in range(1, 9)]
    geometry = _caged(*pairs, ("r1c9", "r2c9", "r3c9"))
    assert any(r.name.english() == "rows 1-2" for r in region_tables(geometry).regions)
    assert any(r.name.english() == "boxes 1 and 2" for r in region_tables(geometry).regions)
    tables = tables_for(geometry)
    cand = pencil_marks([0] * 81, geometry)
    for _ in range(80):
        step = innies_outies(cand, tables)
        assert step is not None
        _sound(step)
        if step.sentence.startswith("Rows 1-2 add up to 90"):
            break
        cand = apply_step(cand, step, geometry)
    else:
        pytest.fail("rows 1-2 never gave a step")
    assert (_cell("r3c9"), int(SOLUTION[_cell("r3c9")])) in step.placements
    assert len(step.houses) == 2


def test_a_region_with_too_many_open_cells_says_nothing() -> None:
    # A lone two-cell cage: every region's equation has many open cells of several houses.
    geometry = NINE.with_cages([Cage(10, (0, 9))])
    assert innies_outies(pencil_marks([0] * 81, geometry), tables_for(geometry)) is None


# ---------------------------------------------------------------------------------------------
# The ladder on published killers, and the classic machinery with cages


@pytest.mark.parametrize("index", range(10))
def test_published_killers_are_explained_soundly_without_a_guess(index: int) -> None:
    geometry, solution = _killers()[index]
    explanation = explain([0] * 81, geometry, solution=solution)
    assert explanation.status == "solved" and explanation.solved_by_logic
    assert list(explanation.final.values) == solution
    for step in explanation.steps:
        assert all(solution[c] != d for c, d in step.eliminations), step.sentence
        assert all(solution[c] == d for c, d in step.placements), step.sentence
        assert step.sentence.endswith(".")
        if step.technique in KILLER:
            assert step.cages and all(0 <= i < len(geometry.cages) for i in step.cages)
    assert set(explanation.technique_counts) & KILLER
    # The fast grade walks the same ladder to the same grade.
    assert grade([0] * 81, geometry, solution=solution).grade == explanation.grade


def test_pencil_marks_know_the_cages() -> None:
    geometry = NINE.with_cages([Cage(3, (0, 1)), Cage(9, (2, 12))])
    grid = [0] * 81
    grid[2] = 4
    marks = pencil_marks(grid, geometry)
    assert not marks.masks[12] >> 3 & 1  # r2c4 shares the 9-cage with the 4 at r1c3
    assert marks.masks[13] >> 3 & 1  # r2c5 does not
    reduced = pencil_marks(grid, geometry, reduce=True)
    assert reduced.values[12] == 5  # 9 less the 4 placed
    assert reduced.masks[0] == reduced.masks[1] == 0b11  # 3 in two cells is 1+2


def test_a_wrong_digit_breaking_a_cage_is_named() -> None:
    geometry = NINE.with_cages([Cage(3, (0, 1))])
    grid = [0] * 81
    grid[0], grid[1] = 1, 5
    step = next_step(grid, geometry)
    assert step is not None and step.technique == "Contradiction"
    assert "3-cage at r1c1" in step.sentence and step.cages == (0,)


@pytest.mark.parametrize("name", sorted(UNIQUENESS & {c.technique for c in CASES}))
def test_uniqueness_techniques_stay_off_boards_with_cages(name: str) -> None:
    # The same position is the technique's next step without cages; with a one-cell cage on
    # a placed cell (which changes nothing else) the swap argument no longer holds.
    case = next(c for c in CASES if c.technique == name)
    cand = case.candidates()
    step = next_step(cand, NINE)
    assert step is not None and step.technique == name
    placed = next(c for c, v in enumerate(cand.values) if v)
    geometry = NINE.with_cages([Cage(cand.values[placed], (placed,))])
    step = next_step(cand, geometry)
    assert step is None or step.technique not in UNIQUENESS


def test_only_the_killer_rungs_name_cages() -> None:
    geometry, solution = _killers()[0]
    explanation = explain([0] * 81, geometry, solution=solution)
    for step in explanation.steps:
        assert bool(step.cages) == (step.technique in KILLER)


# ---------------------------------------------------------------------------------------------
# The arithmetic against its definition: every filling tried


def _fillings(
    masks: Sequence[int], signs: Sequence[int], value: int, apart: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    choices = [[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks]
    for filling in itertools.product(*choices):
        if sum(s * d for s, d in zip(signs, filling, strict=True)) != value:
            continue
        k = len(masks)
        if any(apart[i] >> j & 1 and filling[i] == filling[j] for i in range(k) for j in range(i)):
            continue
        yield filling


def _support(fillings: Sequence[Sequence[int]], k: int) -> tuple[int, ...]:
    out = [0] * k
    for filling in fillings:
        for i, d in enumerate(filling):
            out[i] |= 1 << (d - 1)
    return tuple(out)


@pytest.mark.parametrize("seed", range(40))
def test_distinct_and_signed_sums_keep_exactly_what_some_filling_uses(seed: int) -> None:
    rng = random.Random(seed)
    k = rng.randint(1, 4)
    masks = [rng.randint(1, 511) for _ in range(k)]
    everyone = [(1 << i) - 1 for i in range(k)]  # every cell differs from every other
    total = rng.randint(k, 9 * k)
    fillings = list(_fillings(masks, [1] * k, total, everyone))
    support, sets = distinct_sum(masks, total, 9)
    assert support == _support(fillings, k)
    assert set(sets) == {sum(1 << (d - 1) for d in f) for f in fillings}
    signs = [rng.choice((1, -1)) for _ in range(k)]
    apart = [sum(rng.randint(0, 1) << j for j in range(i)) for i in range(k)]
    value = rng.randint(-9 * k, 9 * k)
    fillings = list(_fillings(masks, signs, value, apart))
    assert signed_sum(masks, signs, value, apart) == _support(fillings, k)


def test_sums_too_wide_to_search_keep_every_candidate() -> None:
    assert signed_sum([511] * 5, [1] * 5, 20, [0] * 5) is None
    # Sixteen open cells of a 16x16 cage: the passes are skipped and nothing is removed.
    masks = [(1 << 16) - 1] * 16
    assert distinct_sum(masks, 136, 16)[0] == tuple(masks)
    # A board of such cages still answers a hint (the rungs skip what they cannot afford).
    rows = [Cage(136, tuple(range(r * 16, r * 16 + 16))) for r in range(16)]
    assert next_step([0] * 256, standard(16).with_cages(rows)) is None


JIGSAW = jigsaw(
    "000011222" "000111222" "001111222" "333444555" "333444555" "333444555"
    "666777888" "666777888" "666777888"
)  # fmt: skip


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(
    "geometry",
    [x_sudoku(9), hyper(), JIGSAW, standard(6), standard(4)],
    ids=["killer-x", "killer-hyper", "killer-jigsaw", "6x6", "4x4"],
)
def test_killers_on_other_boards_are_explained_soundly(geometry: Geometry, seed: int) -> None:
    # Random connected cages over a solution of the board: every step keeps that solution's
    # digits (a guess, where logic stalls, places them), so the explanation ends on it.
    rng = random.Random(seed)
    first = list(range(1, geometry.size + 1))
    rng.shuffle(first)
    start = first + [0] * (geometry.cells - geometry.size)
    solution = parse_puzzle(solve(start, geometry=geometry).solutions[0], geometry)
    killer = geometry.with_cages(partition(solution, geometry, rng, [1, 4, 4, 2]))
    explanation = explain([0] * geometry.cells, killer, solution=solution)
    assert explanation.status == "solved"
    assert list(explanation.final.values) == solution
    for step in explanation.steps:
        assert all(solution[c] != d for c, d in step.eliminations), step.sentence
        assert all(solution[c] == d for c, d in step.placements), step.sentence
        assert step.technique not in UNIQUENESS
