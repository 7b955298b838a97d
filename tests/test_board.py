"""Board geometry and puzzle text: invariants of every variant, parse errors, round trips."""

from __future__ import annotations

import itertools

import pytest

from sudoku_web.core.board import (
    InvalidPuzzle,
    find_conflicts,
    format_puzzle,
    hyper,
    infer_size,
    jigsaw,
    parse_candidates,
    parse_puzzle,
    pretty,
    standard,
    x_sudoku,
)
from sudoku_web.core.variants import geometry_for

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# A 4x4 jigsaw map: four connected regions of four cells.
JIGSAW4 = "AABBAABBCCDDCCDD"


def test_standard_9x9_invariants() -> None:
    """Norvig's unit tests: 81 cells, 27 houses, 20 peers and 3 houses per cell."""
    geo = standard(9)
    assert geo.cells == 81
    assert len(geo.houses) == 27
    assert all(len(h.cells) == 9 for h in geo.houses)
    assert all(len(p) == 20 for p in geo.peers)
    assert all(len(h) == 3 for h in geo.cell_houses)
    assert set(geo.peers[19]) == (
        {18, 20, 21, 22, 23, 24, 25, 26}
        | {1, 10, 28, 37, 46, 55, 64, 73}
        | {0, 2, 9, 11}  # box 1 cells not already in row 3 / column 2
    )


@pytest.mark.parametrize(
    ("size", "houses", "peers"),
    [(4, 12, 7), (6, 18, 12), (9, 27, 20), (16, 48, 39)],
)
def test_boxed_sizes(size: int, houses: int, peers: int) -> None:
    """Each boxed size has 3N houses of N cells and the expected peer count."""
    geo = standard(size)
    assert len(geo.houses) == houses
    assert all(len(h.cells) == size for h in geo.houses)
    assert {len(p) for p in geo.peers} == {peers}


def test_x_sudoku_adds_both_diagonals() -> None:
    """X-sudoku: 29 houses; the centre cell is in both diagonals (5 houses)."""
    geo = x_sudoku(9)
    diagonals = [h for h in geo.houses if h.kind == "diagonal"]
    assert len(geo.houses) == 29
    assert [h.cells for h in diagonals] == [
        tuple(range(0, 81, 10)),
        tuple(range(8, 73, 8)),
    ]
    assert len(geo.cell_houses[40]) == 5
    assert len(geo.cell_houses[1]) == 3


def test_hyper_adds_four_windows() -> None:
    """Hyper: four extra 3x3 windows starting at r2c2, r2c6, r6c2, r6c6."""
    geo = hyper()
    windows = [h for h in geo.houses if h.kind == "window"]
    assert len(windows) == 4
    assert windows[0].cells[0] == 10 and windows[3].cells[-1] == 70
    assert all(len(w.cells) == 9 for w in windows)


def test_jigsaw_regions_replace_boxes() -> None:
    """Jigsaw: rows, columns and the regions of the map; no boxes."""
    geo = jigsaw(JIGSAW4)
    kinds = [h.kind for h in geo.houses]
    assert kinds.count("region") == 4 and "box" not in kinds
    assert geo.box_index == (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)


@pytest.mark.parametrize(
    ("regions", "message"),
    [
        ("AAABAABBCCDDCCDD", "has 5 cells"),
        ("ABABABABCDCDCDCD", "not connected"),
        ("AAB", "a jigsaw map needs N*N cells"),
    ],
)
def test_jigsaw_bad_maps(regions: str, message: str) -> None:
    """Region maps with wrong region sizes, disconnected regions or a bad cell count."""
    with pytest.raises(InvalidPuzzle) as info:
        jigsaw(regions)
    assert message in str(info.value)


def test_geometry_for_rejects_unknown_variant_and_hyper_size() -> None:
    """Unknown variants and non-9x9 hyper grids are reported, not guessed."""
    with pytest.raises(InvalidPuzzle, match="Unknown variant"):
        geometry_for("samurai")
    with pytest.raises(InvalidPuzzle, match="Hyper"):
        geometry_for("hyper", 4)


def test_parse_round_trip() -> None:
    """parse_puzzle and format_puzzle are a matched pair; 0 is a blank too."""
    grid = parse_puzzle(EASY)
    assert format_puzzle(grid) == EASY
    assert parse_puzzle(EASY.replace(".", "0")) == grid


def test_pretty_printed_grid_parses_back() -> None:
    """A grid drawn by pretty() (with | - + and newlines) parses to the same grid."""
    geo = standard(9)
    grid = parse_puzzle(EASY)
    drawing = pretty(grid, geo)
    assert "|" in drawing and "+" in drawing
    assert parse_puzzle(drawing) == grid


def test_wrong_length_says_found_and_expected() -> None:
    """A short puzzle names how many cells were found and how many were expected."""
    with pytest.raises(InvalidPuzzle) as info:
        parse_puzzle(EASY[:80])
    (error,) = info.value.errors
    assert error.code == "length"
    assert "Found 80 cells, expected 81" in error.message


def test_bad_symbol_names_position_and_character() -> None:
    """A bad character is reported with its 1-based position, its cell and itself."""
    with pytest.raises(InvalidPuzzle) as info:
        parse_puzzle("y" + EASY[1:])
    (error,) = info.value.errors
    assert error.code == "symbol"
    assert "Position 1 (r1c1)" in error.message and "'y'" in error.message
    assert error.cells == (0,)


def test_symbol_out_of_range_for_size() -> None:
    """5 is not a symbol of a 4x4 grid."""
    with pytest.raises(InvalidPuzzle, match="'5'"):
        parse_puzzle("5" + "." * 15, standard(4))


def test_16x16_symbols_are_case_insensitive() -> None:
    """16x16 uses 1-9 then A-G; lower case parses to the same values."""
    geo = standard(16)
    upper = "123456789ABCDEFG" + "." * 240
    assert parse_puzzle(upper, geo) == parse_puzzle(upper.lower(), geo)
    assert parse_puzzle(upper, geo)[15] == 16


def test_conflicts_name_both_cells_and_the_house() -> None:
    """Two equal givens in one row are reported once, with both cells and the row."""
    grid = parse_puzzle("5...5" + "." * 76)
    (error,) = find_conflicts(grid, standard(9))
    assert error.code == "conflict"
    assert error.cells == (0, 4)
    assert "r1c1 and r1c5" in error.message and "row 1" in error.message


def test_conflict_in_two_houses_names_both() -> None:
    """Cells sharing a row and a box are one conflict naming both houses."""
    grid = parse_puzzle("7.7" + "." * 78)
    (error,) = find_conflicts(grid, standard(9))
    assert "row 1 and box 1" in error.message


def test_infer_size() -> None:
    """The size follows from the cell count, whitespace and drawing ignored."""
    assert infer_size("." * 81) == 9
    assert infer_size("." * 256) == 16
    assert infer_size(" |".join("." * 16)) == 4
    assert infer_size("." * 80) is None


def test_jigsaw_geometries_from_users_do_not_pile_up() -> None:
    """Region maps come from URLs: relabelled copies of one map must not grow memory forever."""
    boxes = standard(9).box_index
    for labels in itertools.islice(itertools.permutations("ABCDEFGHIJKL", 9), 300):
        jigsaw("".join(labels[b] for b in boxes))
    info = jigsaw.cache_info()
    assert info.maxsize is not None and info.currsize <= info.maxsize < 300


def test_geometry_hash_is_cached_equal_for_equal_geometries_and_survives_pickle() -> None:
    import pickle

    from sudoku_web.core.board import Geometry

    geo = standard(9)
    twin = Geometry(geo.size, geo.variant, geo.houses, geo.box_shape, geo.regions)
    assert twin == geo and twin is not geo and hash(twin) == hash(geo)
    assert {geo: 1}[twin] == 1
    assert standard(6) != geo
    # The stored hash is dropped on pickling and recomputed (string hashes are per process).
    assert "_hash" not in pickle.loads(pickle.dumps(geo)).__getstate__()
    back = pickle.loads(pickle.dumps(geo))
    assert back == geo and hash(back) == hash(geo)


# ---- Lenient, precise reading -------------------------------------------------------------

EASY0 = EASY.replace(".", "0")
EASY_DRAWN = pretty(parse_puzzle(EASY), standard(9))


@pytest.mark.parametrize(
    "text",
    [
        EASY.replace(".", "_"),
        EASY.replace(".", "x"),
        EASY.replace(".", "X"),
        EASY.replace(".", "*"),
        EASY.replace(".", "?"),
        EASY.replace(".", "-"),
        EASY_DRAWN,  # rules drawn with - and +
        EASY_DRAWN.replace(".", "-"),  # blanks as - next to drawn rules
        "\n".join(EASY0[r * 9 : r * 9 + 9].replace("0", "-") for r in range(9)),
        f"Puzzle #12: {EASY}",
        f"Puzzle 12 {EASY0}",
        f"Puzzle #12:\n{EASY_DRAWN}\nGood luck!",
        f"https://www.sudokuwiki.org/sudoku.htm?bd={EASY0}",
        f"see /p/{EASY0} for the answer",
    ],
    ids=[
        "underscores",
        "x",
        "X",
        "stars",
        "question-marks",
        "dashes",
        "drawn",
        "drawn-dashes",
        "rows-of-dashes",
        "label-colon",
        "label-words",
        "label-lines",
        "sudokuwiki-link",
        "share-link",
    ],
)
def test_lenient_spellings_read_as_the_same_grid(text: str) -> None:
    assert format_puzzle(parse_puzzle(text)) == EASY


@pytest.mark.parametrize(
    ("text", "messages", "count", "cells"),
    [
        ("y" * 81, ["'y' is not a symbol 1-9 or a blank"], 1, 81),
        ("y" + EASY[1:], ["Position 1 (r1c1) holds 'y'"], 1, 1),
        ("ab" + EASY[2:], ["2 characters are not a symbol", "'a' at r1c1; 'b' at r1c2"], 1, 2),
        (EASY + " " + EASY[::-1], ["Found 162 cells", "2 different grids"], 2, 0),
        (EASY[:80], ["Found 80 cells, expected 81"], 1, 0),
    ],
    ids=["all-y", "one", "two-characters", "two-grids", "short"],
)
def test_each_problem_is_reported_once_with_its_cells(
    text: str, messages: list[str], count: int, cells: int
) -> None:
    with pytest.raises(InvalidPuzzle) as info:
        parse_puzzle(text)
    said = " ".join(e.message for e in info.value.errors)
    assert all(m in said for m in messages), said
    assert len(info.value.errors) == count
    assert sum(len(e.cells) for e in info.value.errors) == cells


def _candidates_text(kind: str) -> str:
    from sudoku_web.core.logic import pencil_marks

    marks = pencil_marks(EASY, standard(9))
    words = []
    for value, mask in zip(marks.values, marks.masks, strict=True):
        bits = 1 << (value - 1) if value else mask
        words.append("".join(str(d) for d in range(1, 10) if bits >> (d - 1) & 1))
    if kind == "flat":
        return "".join("".join(d if d in w else "." for d in "123456789") for w in words)
    if kind == "sudokuwiki":
        digits = "0123456789abcdefghijklmnopqrstuv"
        out = []
        for w in words:
            code = sum(1 << (int(d) - 1) for d in w) << 1
            out.append(digits[code // 32] + digits[code % 32])
        return "".join(out)
    rows = []
    for r in range(9):
        row = words[r * 9 : r * 9 + 9]
        rows.append("| " + " | ".join(" ".join(row[b * 3 : b * 3 + 3]) for b in range(3)) + " |")
        if r in (2, 5):
            rows.append(":------------+------------+------------:")
    return ".------------.\n" + "\n".join(rows) + "\n'------------'"


@pytest.mark.parametrize("kind", ["flat", "printed", "sudokuwiki"])
def test_candidate_grids_read_as_pencil_marks(kind: str) -> None:
    from sudoku_web.core.logic import pencil_marks

    geo = standard(9)
    text = _candidates_text(kind)
    if kind == "flat":
        assert len(text) == 729
    marks = parse_candidates(text, geo)
    assert marks is not None
    expected = pencil_marks(EASY, geo)
    # One-candidate cells count as placed; every other cell keeps exactly its candidates.
    for cell in range(81):
        if expected.values[cell]:
            assert marks.values[cell] == expected.values[cell]
        elif expected.masks[cell].bit_count() == 1:
            assert marks.values[cell] == expected.masks[cell].bit_length()
        else:
            assert marks.masks[cell] & ~expected.masks[cell] == 0
            assert marks.masks[cell]


@pytest.mark.parametrize("text", [EASY, EASY_DRAWN, "hello"], ids=["line", "drawn", "words"])
def test_puzzles_are_not_candidate_grids(text: str) -> None:
    assert parse_candidates(text, standard(9)) is None


def test_a_candidate_grid_with_an_empty_cell_says_which_once() -> None:
    text = "." * 9 * 2 + _candidates_text("flat")[18:]
    with pytest.raises(InvalidPuzzle) as info:
        parse_candidates(text, standard(9))
    (error,) = info.value.errors
    assert error.cells == (0, 1) and "R1c1 and r1c2 have no candidates" in error.message
