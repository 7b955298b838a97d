"""Almost locked sets and Sue de Coq beyond their ladder cases (in test_logic_techniques):
where they must not fire, their chains' links for the drawing, and other boards' houses."""

from __future__ import annotations

import random

import pytest
from test_logic_techniques import GEO, TABLES, Case, _case, _cell

from sudoku_web.core.board import Geometry, hyper, jigsaw, standard, x_sudoku
from sudoku_web.core.logic import apply_step, explain, pencil_marks
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    Candidates,
    Step,
    als,
    als_chain,
    als_xy_wing,
    als_xz,
    remembering,
    sue_de_coq,
    tables_for,
)
from sudoku_web.core.techniques.als import MAX_ALS_CHAIN

JIGSAW_MAP = (
    "000011222" "000111222" "001111222" "333444555" "333444555" "333444555"
    "666777888" "666777888" "666777888"
)  # fmt: skip


def _with(cand: Candidates, **extra: str) -> Candidates:
    """The position with digits added to some cells' candidates (``r4c1="2"``)."""
    masks = list(cand.masks)
    for name, digits in extra.items():
        for d in digits:
            masks[_cell(name)] |= 1 << (int(d) - 1)
    return Candidates(cand.values, tuple(masks))


def _sets(step: Step) -> int:
    """How many almost locked sets a step's sentence takes (A = ..., B = ..., ...)."""
    return sum(f"{name} = " in step.sentence for name in "ABCDE")


def test_als_techniques_are_named_by_the_number_of_sets() -> None:
    wing = als_xy_wing(_case("ALS-XY-wing").candidates(), TABLES)
    chain = als_chain(_case("ALS chain").candidates(), TABLES)
    assert wing is not None and _sets(wing) == 3
    assert chain is not None and 4 <= _sets(chain) <= MAX_ALS_CHAIN
    # Each set's house is named once (the wing's A and B are both in row 4).
    assert [h.name for h in wing.houses] == ["row 4", "row 6"]
    # The chain's rung looks for four sets or more, never fewer.
    longer = als_chain(_case("ALS-XY-wing").candidates(), TABLES)
    assert longer is None or _sets(longer) >= 4


def test_als_xy_wing_needs_both_restricted_commons() -> None:
    # A 2 in r4c1 as well: the pivot r4c1, r4c3, r4c8 keeps its digits, but that 2 does not
    # see r6c7, so 2 no longer links the pivot to r6c7's set, and no other wing is left.
    cand = _with(_case("ALS-XY-wing").candidates(), r4c1="2")
    assert als_xy_wing(cand, TABLES) is None


def test_als_chain_needs_every_link() -> None:
    # A 9 in r2c9 as well: D (r2c9, r5c9 and r8c9) keeps its digits, but that 9 does not see
    # C's 9s in row 5, so 9 no longer links C to D, and r1c9 keeps its 3.
    cand = _with(_case("ALS chain").candidates(), r2c9="9")
    step = als_chain(cand, TABLES)
    assert step is None or (_cell("r1c9"), 3) not in step.eliminations


def test_sue_de_coq_sides_must_not_share_a_digit() -> None:
    # A 1 in r3c3 as well: the box side (1, 2 and 6) shares 1 with the column side (1 and 9),
    # so 1 could be there twice (r3c3 and r7c2) and nothing is forced.
    cand = _with(_case("Sue de Coq").candidates(), r3c3="1")
    assert sue_de_coq(cand, TABLES) is None


def test_sue_de_coq_needs_as_many_digits_as_cells() -> None:
    # A 7 in r7c2: five digits for the four cells, nothing is forced.
    cand = _with(_case("Sue de Coq").candidates(), r7c2="7")
    assert sue_de_coq(cand, TABLES) is None


@pytest.mark.parametrize("name", ["ALS-XZ", "ALS-XY-wing", "ALS chain"])
def test_als_steps_carry_their_chain_for_drawing(name: str) -> None:
    function = {"ALS-XZ": als_xz, "ALS-XY-wing": als_xy_wing, "ALS chain": als_chain}[name]
    cand = _case(name).candidates()
    step = function(cand, TABLES)
    assert step is not None and step.links
    # Links follow on from each other: strong (inside a set), weak (between sets) in turn.
    for (_, end, _), (start, _, _) in zip(step.links, step.links[1:], strict=False):
        assert end == start
    assert [strong for _, _, strong in step.links] == [i % 2 == 0 for i in range(len(step.links))]
    sets = _sets(step) or 2  # the ALS-XZ's sentence names no letters
    assert len(step.links) == 2 * sets - 1
    cells = set(step.cells)
    for (a, da), (b, db), strong in step.links:
        assert cand.masks[a] >> (da - 1) & 1 and cand.masks[b] >> (db - 1) & 1
        assert a in cells and b in cells
        if not strong:  # a restricted common digit: the two candidates see each other
            assert da == db and TABLES.sees(a, b)
    # The chain starts and ends on the digit it removes, and each removed one sees both ends.
    (first, z), (last, z2) = step.links[0][0], step.links[-1][1]
    assert z == z2 and {d for _, d in step.eliminations} == {z}
    for cell, _ in step.eliminations:
        assert TABLES.sees(cell, first) and TABLES.sees(cell, last)


def _position(tokens: str) -> Candidates:
    return Case("", "", tokens, (), ()).candidates()


def _sound(geometry: Geometry, puzzle: str, cand: Candidates, step: Step) -> None:
    """The position keeps the solution, and the step removes none of it."""
    solved = solve(puzzle, geometry=geometry)
    assert solved.solution is not None
    solution = [int(ch) for ch in solved.solution]
    for cell, digit in enumerate(solution):
        assert cand.values[cell] == digit or cand.masks[cell] >> (digit - 1) & 1
    assert all(solution[c] != d for c, d in step.eliminations)


def test_sue_de_coq_where_a_box_meets_a_diagonal() -> None:
    # X-sudoku: r7c3, r8c2 and r9c1 are where box 7 meets the anti-diagonal.
    geometry = x_sudoku(9)
    puzzle = "..78...54...51.....1..2.....9....476.42............3.....9........261.9.........."
    # Where box 7 meets the anti-diagonal, r7c3, r8c2 and r9c1 can hold 1, 3, 5, 6 and 8, 2
    # digits more than cells. With r8c3 (3 and 8) in box 7 and r6c4 (1 and 6) in the anti-
    # diagonal, that makes 5 cells for 5 digits. Among them, every 3 and 8 is in box 7 and every
    # 1 and 6 in the anti-diagonal, and every 5 where they meet, so no digit can be there twice:
    # each is there exactly once, and goes from the rest of its house. Remove r2c8 (6), r7c1 (3,
    # 8), r7c2 (3, 8) and r9c2 (3, 8).
    cand = _position(
        "=2       36       =7       =8       39       369      =1       =5       =4 "
        "=9       68       46       =5       =1       3467     267      368      2378 "
        "3568     =1       34568    47       =2       367      =9       368      378 "
        "358      =9       1358     13       58       =2       =4       =7       =6 "
        "36       =4       =2       36       =7       589      58       18       1589 "
        "15678    5678     1568     16       4589     45       =3       28       2589 "
        "13678    23678    1368     =9       3458     3578     568      23468    12358 "
        "=4       358      38       =2       =6       =1       578      =9       3578 "
        "1568     23678    =9       47       3458     3578     2568     12348    1358 "
    )
    step = sue_de_coq(cand, tables_for(geometry))
    assert step is not None
    assert [h.name for h in step.houses] == ["box 7", "the anti-diagonal"]
    expected = [("r2c8", 6), ("r7c1", 3), ("r7c1", 8), ("r7c2", 3), ("r7c2", 8)]
    expected += [("r9c2", 3), ("r9c2", 8)]
    assert step.eliminations == tuple((_cell(c), d) for c, d in expected)
    _sound(geometry, puzzle, cand, step)
    # On a classic board the anti-diagonal is no house.
    classic = sue_de_coq(cand, TABLES)
    assert classic is None or "diagonal" not in classic.sentence


def test_als_xy_wing_in_jigsaw_regions() -> None:
    geometry = jigsaw(JIGSAW_MAP)
    puzzle = ".....3.79.....16.5.6......2.....7.....6.8.5..2...9.1.7..28......986...4..1......."
    # Take the almost locked sets A = r1c4 and r6c4 (column 4: 3, 4 and 5), B = r6c8 (row 6: 3
    # and 8) and C = r2c8 and r3c7 (region 3: 3, 4 and 8): each has one digit more than cells,
    # so a set that loses a digit holds all the others. If A had no 4, it would hold 3; every 3
    # of B sees every 3 of A, so B would lose 3 and hold 8; every 8 of C sees every 8 of B, so C
    # would lose 8 and hold 4. So 4 is in A or C, and 4 is removed from r3c4, which sees every 4
    # of both.
    cand = _position(
        "1458     =2       145      45       =6       =3       48       =7       =9 "
        "34789    3478     3479     2479     24       =1       =6       38       =5 "
        "3479     =6       457      479      457      =8       34       =1       =2 "
        "134589   3458     13459    12345    2345     =7       2389     26       3468 "
        "13479    347      =6       1234     =8       24       =5       29       34 "
        "=2       3458     345      345      =9       =6       =1       38       =7 "
        "34567    3457     =2       =8       1347     459      379      569      136 "
        "357      =9       =8       =6       1237     25       237      =4       13 "
        "34567    =1       3457     2347     2347     2459     23789    2569     368 "
    )
    step = als_xy_wing(cand, tables_for(geometry))
    assert step is not None
    assert [h.name for h in step.houses] == ["column 4", "row 6", "region 3"]
    assert step.eliminations == ((_cell("r3c4"), 4),)
    _sound(geometry, puzzle, cand, step)


def test_a_search_cut_short_is_not_remembered_as_in_vain(monkeypatch: pytest.MonkeyPatch) -> None:
    # Within an explanation, a search that found nothing is skipped until a set changes; one
    # stopped by its bound must not be: the same position later finds the chain.
    cand = _case("ALS chain").candidates()
    with remembering():
        monkeypatch.setattr(als, "MAX_EXTENSIONS", 1)
        assert als_chain(cand, TABLES) is None
        monkeypatch.undo()
        step = als_chain(cand, TABLES)
        assert step is not None and step.eliminations == ((_cell("r1c9"), 3),)
        while step is not None:  # use the position's chains up
            cand = apply_step(cand, step, GEO)
            step = als_chain(cand, TABLES)
        # Searched in vain to the end: the same sets are not searched again.
        monkeypatch.setattr(als, "_search", _never)
        assert als_chain(cand, TABLES) is None
    with remembering():  # a new explanation knows nothing yet
        with pytest.raises(AssertionError, match="searched again"):
            als_chain(cand, TABLES)


def _never(*_: object) -> None:
    raise AssertionError("searched again")


def test_pasted_grids_with_thousands_of_sets_keep_the_smallest() -> None:
    # Two or three of five digits a cell at random (a pasted candidate grid, not a puzzle)
    # makes some 1,400 sets; the search keeps the smallest MAX_SETS, every two-candidate cell.
    rng = random.Random(1)
    masks = tuple(sum(1 << d for d in rng.sample(range(5), rng.choice((2, 3)))) for _ in range(81))
    cand = Candidates((0,) * 81, masks)
    sets = als._web(cand, TABLES).sets
    assert len(sets) == als.MAX_SETS
    assert {s.cells[0] for s in sets if len(s.cells) == 1} == {
        c for c in range(81) if masks[c].bit_count() == 2
    }
    every, _ = als._alses(cand, TABLES)
    assert len(every) > 2 * als.MAX_SETS
    small = {s.board for s in every if len(s.cells) <= 2}
    assert small < {s.board for s in sets}  # all sets of one or two cells, then three-cell ones


# Positions on every kind of board: the ladder's ALS cases, and variant puzzles (the same as
# test_logic's) after their singles.
VARIANT_PUZZLES = [
    (
        x_sudoku(9),
        "...68...............1.....47......8...........3.7.6....53..7....6....3.8..7..9.1.",
    ),
    (hyper(), "6.85........38............5.......1.....1..7..1..3.....3.2....9..5..4............"),
    (
        jigsaw(JIGSAW_MAP),
        "6785.......38.26..........48.4....36....3.....2.19.....5.6....84....9.........2..",
    ),
    (
        standard(16),
        "3.1F.649......A.......A..765..2..........4..G...6......1F.DA..8...E.5...2..9.1..."
        "7...4..E.8..2BA.C.63..F..1.E75.5.2..1..G.CB.DF8.4C..F.7..A.261.......G4...E......"
        "..A36...2GC4.D7.F.....D8..5....DA9B.....E..5..4....G.5.9..1.6..8G.1.E....CF.9.1.."
        "E.....2......",
    ),
]  # fmt: skip


def _positions() -> list[tuple[Candidates, Geometry]]:
    ladder = [(_case(name).candidates(), GEO) for name in ("ALS-XZ", "ALS-XY-wing", "ALS chain")]
    variants = [(pencil_marks(p, g, reduce=True), g) for g, p in VARIANT_PUZZLES]
    return ladder + variants


@pytest.mark.parametrize(
    ("cand", "geometry"), _positions(), ids=lambda v: getattr(v, "variant", "")
)
def test_pairs_of_sets_agree_with_the_definitions(cand: Candidates, geometry: Geometry) -> None:
    # The pairs are built digit by digit as bitmasks over all sets at once; here each pair is
    # checked on its own, from the definitions: a restricted common x has every x of one set
    # see every x of the other; two sets can end a chain on a common digit z when a candidate
    # z outside both sees every z of both.
    t = tables_for(geometry)
    web = als._web(cand, t)
    pairs, sets = web.pairs, web.sets
    assert sets
    for i, a in enumerate(sets[:60]):  # every pair of the first 60 sets (16x16 has hundreds)
        near = later = 0
        links = []
        for j, b in enumerate(sets):
            if a.board & b.board:
                continue
            ends = False
            for x in range(geometry.size):
                xa = [c for c in a.cells if cand.masks[c] >> x & 1]
                xb = [c for c in b.cells if cand.masks[c] >> x & 1]
                if not xa or not xb:
                    continue
                if all(t.sees(p, q) for p in xa for q in xb):
                    links.append((x, j))
                    near |= 1 << j
                ends = ends or any(
                    cand.masks[c] >> x & 1 and all(t.sees(c, p) for p in xa + xb)
                    for c in range(geometry.cells)
                )
            if ends and j > i:
                later |= 1 << j
        assert pairs.near[i] == near
        assert pairs.later_ends[i] == later
        # Per digit, ascending: the sets it links to (as a bitmask), never an empty one.
        linking = [(x, j) for x, m in pairs.linking[i] for j in range(len(sets)) if m >> j & 1]
        assert linking == sorted(links)
        assert all(m for _, m in pairs.linking[i])


@pytest.mark.parametrize(
    ("geometry", "puzzle"), VARIANT_PUZZLES[:3], ids=lambda v: getattr(v, "variant", "")
)
def test_sets_kept_from_the_last_position_are_those_built_afresh(
    geometry: Geometry, puzzle: str
) -> None:
    # A house whose candidates did not change since the last position keeps its sets: along
    # an explanation that is most houses. A house that changed takes over the sets whose
    # cells kept their candidates. Either way the sets must be the ones built from scratch.
    t = tables_for(geometry)
    cand = pencil_marks(puzzle, geometry)
    before = None
    kept = taken = 0
    for step in explain(puzzle, geometry).steps:
        sets, houses = als._alses(cand, t, before)
        assert sets == als._alses(cand, t)[0]
        if before is not None:
            for new, old in zip(houses, before, strict=True):
                if new[1] is old[1]:
                    kept += 1
                else:
                    taken += sum(any(s is o for o in old[1]) for s in new[1])
        before = houses
        cand = apply_step(cand, step, geometry)
    assert kept > 0
    assert taken > 0
