"""Killer cages: the combination tables, the three spellings and their round trips, the
errors (each naming its cells), and a board's cages on its geometry."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from sudoku_web.core.board import InvalidPuzzle, jigsaw, standard, x_sudoku
from sudoku_web.core.cages import (
    MAX_TEXT,
    Cage,
    cage_errors,
    cages_from_list,
    combinations,
    format_cage_map,
    format_cages,
    from_link,
    link_spelling,
    parse_cages,
)

KILLERS = [
    line.split(":")
    for line in (Path(__file__).parent / "data" / "killer_krazydad.txt").read_text().splitlines()
]
NINE = standard(9)


def bits(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def messages(excinfo: pytest.ExceptionInfo[InvalidPuzzle]) -> str:
    return " | ".join(e.message for e in excinfo.value.errors)


@pytest.mark.parametrize(
    ("size", "count", "total", "expected"),
    [
        (9, 2, 17, (bits(8, 9),)),
        (9, 2, 3, (bits(1, 2),)),
        (9, 3, 6, (bits(1, 2, 3),)),
        (9, 2, 10, (bits(1, 9), bits(2, 8), bits(3, 7), bits(4, 6))),
        (9, 9, 45, (bits(*range(1, 10)),)),
        (9, 1, 7, (bits(7),)),
        (9, 2, 18, ()),  # 9+9 repeats a digit
        (9, 10, 55, ()),
        (4, 2, 7, (bits(3, 4),)),
        (6, 3, 15, (bits(4, 5, 6),)),
    ],
)
def test_combinations(size: int, count: int, total: int, expected: tuple[int, ...]) -> None:
    assert tuple(sorted(combinations(size, count, total))) == tuple(sorted(expected))


def test_every_combination_adds_up() -> None:
    for count in range(1, 10):
        for total in range(1, 46):
            for mask in combinations(9, count, total):
                digits = [d for d in range(1, 10) if mask >> (d - 1) & 1]
                assert len(digits) == count and sum(digits) == total


@pytest.mark.parametrize("line", KILLERS[:5])
def test_shared_killer_line_reads_and_its_solution_fits(line: list[str]) -> None:
    cagemap, sums, solution = line
    cages = parse_cages(f"{cagemap}:{sums}:{solution}", NINE)
    assert sum(len(c.cells) for c in cages) == 81
    assert sum(c.total for c in cages) == 405
    grid = [int(ch) for ch in solution]
    for cage in cages:
        digits = [grid[c] for c in cage.cells]
        assert len(set(digits)) == len(digits) and sum(digits) == cage.total
    assert cage_errors(NINE, cages, grid) == []


@pytest.mark.parametrize("line", KILLERS)
def test_every_spelling_round_trips(line: list[str]) -> None:
    cages = parse_cages(":".join(line[:2]), NINE)
    assert parse_cages(format_cages(cages, NINE), NINE) == cages
    cage_map = format_cage_map(cages, NINE)
    assert cage_map is not None
    assert parse_cages(cage_map, NINE) == cages
    link = link_spelling(cages, NINE)
    assert from_link(link, NINE) == cages
    assert all(ch.isalnum() or ch in "-_" for ch in link)


def test_lines_format_reads_both_separators() -> None:
    text = "15: r1c1 r1c2 r2c1\n# a remark\n\n7 = r9c9, r9c8\n"
    cages = parse_cages(text, NINE)
    assert cages == (Cage(7, (79, 80)), Cage(15, (0, 1, 9)))
    assert format_cages(cages, NINE) == "15: r1c1 r1c2 r2c1\n7: r9c8 r9c9"


def test_cage_map_with_named_sums_and_blank_cells() -> None:
    geo = standard(4)
    text = "A A B B\nC . B .\nC D . .\n. D . .\nA=3, B=9 C=7 D=5"
    cages = parse_cages(text, geo)
    assert cages == (Cage(3, (0, 1)), Cage(5, (9, 13)), Cage(7, (4, 8)), Cage(9, (2, 3, 6)))
    assert parse_cages("A A B B\nC . B .\nC D . .\n. D . .\n3,9,7,5", geo) == cages


def test_link_is_canonical_whatever_the_labels() -> None:
    line = KILLERS[0]
    cages = parse_cages(":".join(line[:2]), NINE)
    link = link_spelling(cages, NINE)
    # The same cages under other labels (sums stay in the order the labels first appear).
    cells, _, sums = link.partition("-")
    other = cells.translate(str.maketrans("AB", "BA")) + "-" + sums
    assert other != link
    assert from_link(other, NINE) == cages
    assert link_spelling(from_link(other, NINE), NINE) == link


def test_link_with_more_cages_than_labels() -> None:
    # 81 one-cell cages (a filled grid as cages) need two characters a cell.
    solution = KILLERS[0][2]
    cages = tuple(Cage(int(d), (cell,)) for cell, d in enumerate(solution))
    link = link_spelling(cages, NINE)
    assert len(link.partition("-")[0]) == 162
    assert from_link(link, NINE) == tuple(sorted(cages))
    assert format_cage_map(cages, NINE) is None
    assert parse_cages(format_cages(cages, NINE), NINE) == tuple(sorted(cages))


def test_cages_from_list_takes_names_and_indices() -> None:
    items = [{"sum": 15, "cells": ["r1c1", 1, "R2C1"]}, {"sum": 3, "cells": [80, 79]}]
    assert cages_from_list(items, NINE) == (Cage(3, (79, 80)), Cage(15, (0, 1, 9)))


@pytest.mark.parametrize(
    ("items", "words"),
    [
        ([{"sum": "15", "cells": [0, 1]}], '"sum" must be a whole number'),
        ([{"sum": True, "cells": [0, 1]}], '"sum" must be a whole number'),
        ([{"sum": 15, "cells": []}], '"cells" must be a non-empty list'),
        ([{"sum": 15, "cells": [0, 81]}], "is not a cell of the 9x9 grid"),
        ([{"sum": 15, "cells": ["r10c1"]}], "is not a cell of the 9x9 grid"),
        ([{"sum": 15, "cells": [0, 0]}], "lists r1c1 twice"),
        ([{"sum": 3}], '"cells" must be a non-empty list'),
        ([{"sum": 3, "cells": [0]} for _ in range(82)], "82 cages on 81 cells"),
    ],
)
def test_cages_from_list_rejects(items: list[dict[str, object]], words: str) -> None:
    with pytest.raises(InvalidPuzzle) as excinfo:
        cages_from_list(items, NINE)
    assert words in messages(excinfo)
    assert all(e.code == "cage" for e in excinfo.value.errors)


@pytest.mark.parametrize(
    ("text", "words", "cells"),
    [
        ("18: r1c1 r1c2", "cannot make: 2 different digits 1-9 add up to 3 to 17", (0, 1)),
        ("2: r1c1 r1c2", "cannot make", (0, 1)),
        ("46: " + " ".join(f"r1c{c}" for c in range(1, 10)) + " r2c1", "at most 9", ()),
        ("10: r1c1 r1c2\n5: r1c2 r1c3", "overlap at r1c2", (1,)),
        ("10: r1c1 r10c2", "r10c2 is outside the 9x9 grid", ()),
        ("10: r1c1 x5", "'x5' is not a cell", ()),
        ("ten: r1c1 r1c2", "is not a cage", ()),
        ("10: r1c1 r1c1", "lists r1c1 twice", (0,)),
    ],
)
def test_line_errors_name_the_cells(text: str, words: str, cells: tuple[int, ...]) -> None:
    with pytest.raises(InvalidPuzzle) as excinfo:
        parse_cages(text, NINE)
    assert words in messages(excinfo)
    if cells:
        assert any(set(cells) <= set(e.cells) for e in excinfo.value.errors)


def test_cages_covering_the_grid_must_add_up_to_its_total() -> None:
    cagemap, sums, _ = KILLERS[0]
    totals = sums.split(",")
    totals[0] = str(int(totals[0]) + 1)
    with pytest.raises(InvalidPuzzle) as excinfo:
        parse_cages(f"{cagemap}:{','.join(totals)}", NINE)
    assert "must add up to 405; they add up to 406" in messages(excinfo)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("AB", "has 2 labels where a 9x9 grid needs 81"),
        ("A" * 81 + ":45,3", "The map has 1 cages but 2 sums"),
        ("A" * 81 + ":x", "'x' is not a sum"),
        ("A" * 40 + "B" * 41 + ":A=20 C=3", "which label no cell"),
        ("A" * 40 + "B" * 41 + ":A=20", "have no sum"),
        ("x" * (MAX_TEXT + 1), "at most 12,000 are read"),
    ],
)
def test_cage_map_errors(text: str, words: str) -> None:
    with pytest.raises(InvalidPuzzle) as excinfo:
        parse_cages(text, NINE)
    assert words in messages(excinfo)


def test_a_thousand_labels_is_a_clear_error() -> None:
    text = "".join(chr(0x4E00 + i) for i in range(1000))
    with pytest.raises(InvalidPuzzle) as excinfo:
        parse_cages(text, NINE)
    assert "1000 labels" in messages(excinfo)


@pytest.mark.parametrize(
    "text", ["", "ABC", "A" * 81 + "-", "?" * 81 + "-5", "A" * 81 + "-45-3", "A" * 80 + "_-45"]
)
def test_bad_links_raise(text: str) -> None:
    if not text:
        assert from_link(text, NINE) == ()
        return
    with pytest.raises(InvalidPuzzle):
        from_link(text, NINE)


def test_givens_that_break_their_cage() -> None:
    cages = (Cage(10, (0, 1)), Cage(6, (2, 3, 4)), Cage(4, (9, 10)))
    grid = [0] * 81
    grid[0] = grid[1] = 5  # repeated in the cage (and the row)
    grid[2] = 5  # 5 in a 3-cell 6-cage: only 1+2+3 makes 6
    grid[9], grid[10] = 1, 2  # complete, adds to 3 not 4
    errors = cage_errors(NINE, cages, grid)
    text = " | ".join(e.message for e in errors)
    assert "r1c1 and r1c2 repeat a digit" in text
    assert "The cage at r1c3, r1c4 and r1c5 has sum 6" in text
    assert "its digits add up to 3" in text
    assert {e.cells for e in errors} == {(0, 1), (2,), (9, 10)}
    grid[0], grid[1], grid[2], grid[9], grid[10] = 1, 9, 3, 3, 1
    assert cage_errors(NINE, cages, grid) == []


def test_too_many_cages_is_one_error_before_other_work() -> None:
    cages = [Cage(1, (0,))] * 200
    errors = cage_errors(NINE, cages)
    assert len(errors) == 1 and "200 cages on 81 cells" in errors[0].message


def test_geometry_with_cages_and_its_base() -> None:
    cages = parse_cages(":".join(KILLERS[0][:2]), NINE)
    killer = NINE.with_cages(reversed(cages))
    assert killer.cages == cages  # sorted whatever the order given
    assert killer != NINE and killer.base == NINE and killer.base is NINE
    assert killer.without_cages() is NINE and NINE.base is NINE
    assert killer == NINE.with_cages(cages) and hash(killer) == hash(NINE.with_cages(cages))
    assert killer.variant == "standard" and killer.houses == NINE.houses
    assert killer.peers == NINE.peers
    assert NINE.with_cages(()) is NINE
    assert killer.with_cages(cages[:3]).cages == cages[:3]
    again = pickle.loads(pickle.dumps(killer))
    assert again == killer and hash(again) == hash(killer) and again.base == NINE


def test_cages_layer_on_other_boards() -> None:
    geo = x_sudoku(9).with_cages([Cage(17, (0, 10))])
    assert geo.variant == "x" and geo.base == x_sudoku(9)
    jig = jigsaw("AABBAABBCCDDCCDD")
    caged = jig.with_cages(parse_cages("7: r1c1 r1c2", jig))
    assert caged.regions == jig.regions and caged.cages == (Cage(7, (0, 1)),)
    with pytest.raises(InvalidPuzzle):
        parse_cages("9: r1c1 r1c2", jig)  # 4x4: two digits make at most 7


def test_parse_cages_reads_a_link_spelling_too() -> None:
    cages = parse_cages(":".join(KILLERS[2][:2]), NINE)
    assert parse_cages(link_spelling(cages, NINE) + "\n", NINE) == cages


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("9" * 5000 + ": r1c1 r1c2", "is too big"),
        ("999999: r1c1 r1c2", "which it cannot make"),
        ("\n".join(f"{d}: r1c{d}" for d in range(1, 10)) + "\n" + "x" * 20_000, "at most 12,000"),
    ],
)
def test_hostile_cage_text_is_a_clear_error(text: str, words: str) -> None:
    with pytest.raises(InvalidPuzzle) as excinfo:
        parse_cages(text, NINE)
    assert words in messages(excinfo)


def test_eighty_one_one_cell_cages_are_a_filled_grid() -> None:
    solution = KILLERS[3][2]
    text = "\n".join(f"{d}: r{i // 9 + 1}c{i % 9 + 1}" for i, d in enumerate(solution))
    cages = parse_cages(text, NINE)
    assert len(cages) == 81 and all(len(c.cells) == 1 for c in cages)
    with pytest.raises(InvalidPuzzle) as excinfo:
        parse_cages(text + "\n5: r1c1", NINE)  # an 82nd cage: more cages than cells
    assert "82 cages on 81 cells" in messages(excinfo)
