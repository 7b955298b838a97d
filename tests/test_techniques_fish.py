"""Finned and sashimi fish, beyond the technique cases of test_logic_techniques (whose
positions and checks these share): the sentence tells a sashimi fish, a finned jellyfish needs
its targets to see every fin, and on jigsaw the fins' region is what the targets share.
"""

from __future__ import annotations

import pytest
from reference_techniques import first_finned_fish, random_positions
from test_logic_techniques import CASES, FUNCTIONS, Case, _cell
from test_logic_techniques import test_case_is_sound as check_sound

from sudoku_web.core.board import Geometry, hyper, jigsaw, parse_puzzle, standard, x_sudoku
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    Candidates,
    finned_jellyfish,
    finned_swordfish,
    finned_x_wing,
    jellyfish,
    tables_for,
)

GEO = standard(9)
TABLES = tables_for(GEO)
# Boxes but for the top left: region 0 holds r1c1-r1c4, r2c1-r2c3 and r3c1-r3c2.
JIGSAW = jigsaw(
    "000011222" "000111222" "001111222" "333444555" "333444555" "333444555"
    "666777888" "666777888" "666777888"
)  # fmt: skip


def _with(cand: Candidates, name: str, digit: int) -> Candidates:
    """The position with one more candidate."""
    masks = list(cand.masks)
    masks[_cell(name)] |= 1 << (digit - 1)
    return Candidates(cand.values, tuple(masks))


def _case(name: str) -> Case:
    return next(c for c in CASES if c.technique == name)


# top95: column 4 holds 4 only in r3c4, r8c4 and r9c4; column 7 only in r3c7 and r7c7. In
# columns 4 and 7, 4 can only go in rows 3 and 7, except for the fins r8c4 and r9c4; without
# them column 4 keeps r3c4 alone (a sashimi X-wing), and r7c6 sees both fins (box 8).
SASHIMI_X_WING = Case(
    "Finned X-wing",
    "6..3.2....4.....8..........7.26............543.........8.15........8.2........7..",
    "=6       179      =8       =3       1479     =2       =5       479      19 "
    "159      =4       13579    579      1679     15679    139      =8       =2 "
    "159      =2       13579    45789    1479     145789   1349     34679    1369 "
    "=7       159      =2       =6       1349     134589   1389     39       139 "
    "=8       169      169      279      12379    1379     1369     =5       =4 "
    "=3       1569     =4       589      19       1589     1689     =2       =7 "
    "=2       =8       679      =1       =5       34679    349      3469     369 "
    "149      13679    1679     479      =8       34679    =2       13469    =5 "
    "1459     1369     1569     249      23469    3469     =7       13469    =8 ",
    placements=(),
    eliminations=(("r7c6", 4),),
)

# top1465: rows 4, 6, 8 and 9 hold 1 in columns 1, 4, 5 and 8, and r6c2 (the fin); without
# it row 6 keeps r6c4 alone (a sashimi jellyfish), and r5c1 sees the fin (box 4).
SASHIMI_JELLYFISH = Case(
    "Finned jellyfish",
    "....8..5.93....7.....6.1..2698.4.5.........4.5.....2.84...2..7..69.......52...9..",
    "12       1247     1467     379      =8       379      1346     =5       136 "
    "=9       =3       16       24       =5       24       =7       =8       16 "
    "=8       47       =5       =6       37       =1       34       =9       =2 "
    "=6       =9       =8       123      =4       23       =5       13       =7 "
    "123      127      37       58       =6       58       13       =4       =9 "
    "=5       14       34       137      =9       37       =2       =6       =8 "
    "=4       =8       13       359      =2       3569     136      =7       1356 "
    "137      =6       =9       3457     137      3457     =8       =2       345 "
    "137      =5       =2       48       137      468      =9       13       46 ",
    placements=(),
    eliminations=(("r5c1", 1),),
)


@pytest.mark.parametrize("case", [SASHIMI_X_WING, SASHIMI_JELLYFISH], ids=["x-wing", "jellyfish"])
def test_sashimi_fish_are_sound_and_exact(case: Case) -> None:
    check_sound(case)  # the technique cases' check: the position and the step keep the solution
    step = FUNCTIONS[case.technique](case.candidates(), TABLES)
    assert step is not None and step.technique == case.technique
    assert step.eliminations == tuple((_cell(c), d) for c, d in case.eliminations)


def test_finned_x_wing_says_sashimi_when_a_line_keeps_one_place() -> None:
    step = finned_x_wing(SASHIMI_X_WING.candidates(), TABLES)
    assert step is not None
    assert "except for the fins r8c4 and r9c4" in step.sentence
    assert "column 4 would keep 4 only in r3c4 (a sashimi X-wing)" in step.sentence
    # The finned X-wing of the technique cases keeps two places in each row without its fin.
    plain = finned_x_wing(_case("Finned X-wing").candidates(), TABLES)
    assert plain is not None and "sashimi" not in plain.sentence


def test_sashimi_jellyfish_says_so() -> None:
    step = finned_jellyfish(SASHIMI_JELLYFISH.candidates(), TABLES)
    assert step is not None
    assert "except for the fin r6c2; without it, row 6 would keep 1 only in r6c4" in step.sentence
    assert "(a sashimi jellyfish)" in step.sentence


def test_finned_jellyfish_names_its_lines() -> None:
    # The technique case: rows 3, 6, 8 and 9 hold 6 in columns 3, 6, 8 and 9, and r3c7.
    step = finned_jellyfish(_case("Finned jellyfish").candidates(), TABLES)
    assert step is not None
    assert step.sentence.startswith(
        "In rows 3, 6, 8 and 9, 6 can only go in columns 3, 6, 8 and 9, except for the fin r3c7."
    )
    assert "sashimi" not in step.sentence  # every row keeps two places without the fin
    assert [h.name for h in step.houses] == [
        "row 3",
        "row 6",
        "row 8",
        "row 9",
        "column 3",
        "column 6",
        "column 8",
        "column 9",
    ]


def test_finned_jellyfish_needs_the_targets_to_see_every_fin() -> None:
    # A 6 in r8c1 as well is a second fin, in box 7: r1c9 sees r3c7 but not r8c1, and no
    # other choice of rows and columns makes a finned jellyfish here.
    cand = _with(_case("Finned jellyfish").candidates(), "r8c1", 6)
    assert finned_jellyfish(cand, TABLES) is None


def test_smaller_fish_do_not_take_the_jellyfish() -> None:
    # The ladder tries the plain jellyfish and the smaller finned fish first: none of them
    # fires here, so the finned jellyfish is the step a person is shown.
    cand = _case("Finned jellyfish").candidates()
    for smaller in (jellyfish, finned_x_wing, finned_swordfish):
        assert smaller(cand, TABLES) is None


# Minimal puzzles on JIGSAW (tests/test_logic.py builds them from seeds 30 and 6): the fins
# share region 0 with the target, which on a standard board would be in another box.
JIGSAW_FINNED = [
    (
        Case(
            "Finned jellyfish",
            "36.....59.87.....2........6....6...5...7...38...8.39.......24....138.....2..1.6..",
            "=3       =6       24       124      247      1478     178      =5       =9 "
            "1459     =8       =7       14569    3459     14569    13       14       =2 "
            "12459    1459     2459     12459    234579   145789   1378     147      =6 "
            "2489     349      23489    1249     =6       149      127      17       =5 "
            "24569    459      24569    =7       2459     1459     12       =3       =8 "
            "17       17       25       =8       25       =3       =9       =6       =4 "
            "56789    3579     35689    569      579      =2       =4       89       =1 "
            "469      49       =1       =3       =8       469      =5       =2       =7 "
            "45789    =2       4589     459      =1       4579     =6       89       =3 ",
            placements=(),
            eliminations=(("r1c4", 1),),
        ),
        "In rows 2, 3, 4 and 5, 1 can only go in columns 4, 6, 7 and 8, except for the fins "
        "r2c1, r3c1 and r3c2.",
    ),
    (
        Case(
            "Finned X-wing",
            "...........39...1.1...47.3..3....24.....89.....63.5.9.4....1..9.....8....61....5.",
            "25679    25789    =4       58       =1       =3       56789    2678     25678 "
            "5678     578      =3       =9       56       =2       45678    =1       45678 "
            "=1       259      58       568      =4       =7       569      =3       256 "
            "589      =3       589      =1       =7       =6       =2       =4       58 "
            "257      =1       257      =4       =8       =9       3567     67       3567 "
            "78       =4       =6       =3       =2       =5       178      =9       178 "
            "=4       2578     2578     2567     356      =1       3678     2678     =9 "
            "23579    2579     2579     2567     3569     =8       14       267      14 "
            "23789    =6       =1       27       39       =4       378      =5       2378 ",
            placements=(),
            eliminations=(("r1c4", 8),),
        ),
        "In columns 2 and 8, 8 can only go in rows 1 and 7, except for the fin r2c2.",
    ),
]


@pytest.mark.parametrize(("case", "start"), JIGSAW_FINNED, ids=["jellyfish", "x-wing"])
def test_finned_fish_on_jigsaw_use_the_fins_region(case: Case, start: str) -> None:
    technique = finned_jellyfish if case.technique == "Finned jellyfish" else finned_x_wing
    cand = case.candidates()
    step = technique(cand, tables_for(JIGSAW))
    assert step is not None and step.sentence.startswith(start)
    assert step.eliminations == tuple((_cell(c), d) for c, d in case.eliminations)
    # Sound: the engine's solution keeps every candidate the step leaves, and loses none.
    solution = parse_puzzle(solve(case.puzzle, geometry=JIGSAW).solution or "", JIGSAW)
    assert all(cand.values[c] == d or cand.masks[c] >> (d - 1) & 1 for c, d in enumerate(solution))
    assert all(solution[c] != d for c, d in step.eliminations)
    # On a standard board the same candidates give no such step: the target is in another box.
    plain = technique(cand, TABLES)
    assert plain is None or plain.eliminations != step.eliminations


# The finned search rules groups of base lines out by bitboards before it tries cover lines;
# it must find what the definition finds, first to first, on every kind of board.
@pytest.mark.parametrize(
    "geometry",
    [standard(9), standard(6), x_sudoku(9), hyper(), JIGSAW],
    ids=["9x9", "6x6", "x", "hyper", "jigsaw"],
)
def test_finned_fish_find_what_the_definition_finds(geometry: Geometry) -> None:
    tables = tables_for(geometry)
    found = 0
    for cand in random_positions(geometry, seed=14, count=12):
        for size, technique in ((2, finned_x_wing), (3, finned_swordfish), (4, finned_jellyfish)):
            step = technique(cand, tables)
            expected = first_finned_fish(size, cand, tables)
            if expected is None:
                assert step is None
                continue
            found += 1
            bases, covers, eliminations = expected
            assert step is not None
            assert step.houses == tuple(geometry.houses[h] for h in (*bases, *covers))
            assert step.eliminations == tuple(eliminations)
    assert found  # the positions hold finned fish to compare
