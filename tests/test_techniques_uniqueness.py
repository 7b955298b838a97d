"""The uniqueness family on hand-built positions: each type fires on a rectangle over two
boxes with its exact eliminations, and never where the swap of the two digits would break a
house (one box, four boxes, an X-sudoku diagonal through one corner), nor where the puzzle is
not known to be unique. The frozen positions from real puzzles are in
``tests/test_logic_techniques.py``.

Every position here is a few open cells on an otherwise placed grid (placed cells are givens
unless marked ``+``), so only the pattern under test can fire. Each negative test also turns
the swap check off and sees the step appear, so it cannot pass for another reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from sudoku_web.core.board import Geometry, parse_puzzle, standard, x_sudoku
from sudoku_web.core.hints import hint_steps
from sudoku_web.core.logic import apply_step, explain, grade, next_step, pencil_marks
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    TECHNIQUES,
    UNIQUENESS,
    Candidates,
    Step,
    Technique,
    avoidable,
    tables_for,
    uniqueness,
)

GEO = standard(9)
FUNCTIONS: dict[str, Technique] = {name: f for name, _, f in TECHNIQUES}

# Where the rectangle's rows and columns lie: (row 1, row 2, column 1, column 2), 1-based.
TWO_BOXES = (1, 2, 1, 4)
ONE_BOX = (1, 2, 1, 2)
FOUR_BOXES = (1, 4, 1, 4)


def _name(row: int, col: int) -> str:
    return f"r{row}c{col}"


def _cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def position(spec: dict[str, str]) -> Candidates:
    """Open cells with candidates ("123"), placed cells ("=5" given, "+5" placed while
    solving); every other cell placed as a given (so no technique sees it)."""
    values, masks, deduced = [1] * 81, [0] * 81, 0
    for name, text in spec.items():
        cell = _cell(name)
        if text[0] in "=+":
            values[cell] = int(text[1:])
            deduced |= (text[0] == "+") << cell
        else:
            values[cell] = 0
            masks[cell] = sum(1 << (int(d) - 1) for d in text)
    return Candidates(tuple(values), tuple(masks), deduced)


def corners(layout: tuple[int, int, int, int]) -> dict[str, str]:
    """The names of the corners A (top-left), B (top-right), C (bottom-left), D."""
    r1, r2, c1, c2 = layout
    return {"A": _name(r1, c1), "B": _name(r1, c2), "C": _name(r2, c1), "D": _name(r2, c2)}


# Per technique: the pattern (corner letters or cells placed by layout) and its eliminations.
# Cells outside the rectangle are "row,column", where "r1"/"r2" and "c2" follow the layout.
PATTERNS: dict[str, tuple[dict[str, str], list[tuple[str, int]]]] = {
    # Floor A, C hold just 1 and 2; B and D add only 3: one of them is 3.
    "Unique rectangle type 2": (
        {"A": "12", "C": "12", "B": "123", "D": "123", "6,c2": "35"},
        [("6,c2", 3)],
    ),
    # The roof adds 3 and 4; with 7,c2 (3, 4) a naked pair in the roof's column.
    "Unique rectangle type 3": (
        {"A": "12", "C": "12", "B": "123", "D": "124", "7,c2": "34", "8,c2": "356"},
        [("8,c2", 3)],
    ),
    # In the roof's column 1 can only go in the roof: neither roof corner can be 2.
    "Unique rectangle type 4": (
        {"A": "12", "C": "12", "B": "123", "D": "124", "7,c2": "23"},
        [("B", 2), ("D", 2)],
    ),
    # B and C (diagonal) add only 3: one of them is 3; r1c3 sees both.
    "Unique rectangle type 5": (
        {"A": "12", "D": "12", "B": "123", "C": "123", "r1,3": "35"},
        [("r1,3", 3)],
    ),
    # A and D hold just 1 and 2, and 1 is only in the corners of both rows: B, C are not 1.
    "Unique rectangle type 6": (
        {"A": "12", "D": "12", "B": "123", "C": "124", "r1,7": "25", "r2,7": "25"},
        [("B", 1), ("C", 1)],
    ),
    # A holds just 1 and 2; 1 is only in the corners of D's row and column: D is not 2.
    "Hidden rectangle": (
        {"A": "12", "B": "1234", "C": "125", "D": "123"},
        [("D", 2)],
    ),
    # A (1), B (2) and C (2) were placed while solving: D cannot be 1.
    "Avoidable rectangle": (
        {"A": "+1", "B": "+2", "C": "+2", "D": "13"},
        [("D", 1)],
    ),
    # A (1) and B (2) were placed while solving; C holds 2 and 3, D 1 and 3: one is 3.
    "Avoidable rectangle type 2": (
        {"A": "+1", "B": "+2", "C": "23", "D": "13", "r2,7": "35"},
        [("r2,7", 3)],
    ),
}


def _where(key: str, layout: tuple[int, int, int, int]) -> str:
    """A pattern key (a corner letter, or "row,col" with col maybe "c2") in a layout."""
    if key in "ABCD":
        return corners(layout)[key]
    row, col = key.split(",")
    r1, r2, _, c2 = layout
    return _name({"r1": r1, "r2": r2}.get(row) or int(row), c2 if col == "c2" else int(col))


def laid_out(name: str, layout: tuple[int, int, int, int]) -> tuple[Candidates, list[tuple]]:
    spec, elims = PATTERNS[name]
    cand = position({_where(k, layout): v for k, v in spec.items()})
    return cand, sorted((_cell(_where(k, layout)), d) for k, d in elims)


@contextmanager
def swap_check_off() -> Iterator[None]:
    """Treat every rectangle as swappable (to show a negative test can fail)."""
    saved = uniqueness._swappable, avoidable._swappable
    uniqueness._swappable = avoidable._swappable = lambda *args: True
    uniqueness._last_rectangles = ((), None, ())  # forget the rectangles found with the check
    try:
        yield
    finally:
        uniqueness._swappable, avoidable._swappable = saved
        uniqueness._last_rectangles = ((), None, ())


def _find(name: str, cand: Candidates, geo: Geometry = GEO) -> Step | None:
    return FUNCTIONS[name](cand, tables_for(geo))


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_fires_over_two_boxes_with_the_exact_eliminations(name: str) -> None:
    cand, elims = laid_out(name, TWO_BOXES)
    step = _find(name, cand)
    assert step is not None
    assert step.technique == name
    assert list(step.eliminations) == elims
    assert step.placements == ()
    assert step.sentence.endswith(".") and "two solutions" in step.sentence


def test_the_patterns_cover_every_new_uniqueness_technique() -> None:
    assert set(PATTERNS) == UNIQUENESS - {"Unique rectangle", "BUG+1"}


# Layouts where some house holds one corner or all four: the swap would break it.
_BROKEN = [
    (name, layout)
    for name in sorted(PATTERNS)
    for layout in (ONE_BOX, FOUR_BOXES)
    # Two diagonal corners over four boxes have no peer in common: nothing to remove anyway.
    if not (name == "Unique rectangle type 5" and layout == FOUR_BOXES)
]


@pytest.mark.parametrize(("name", "layout"), _BROKEN)
def test_never_fires_where_the_swap_would_break_a_house(
    name: str, layout: tuple[int, int, int, int]
) -> None:
    cand, _ = laid_out(name, layout)
    assert _find(name, cand) is None
    with swap_check_off():
        assert _find(name, cand) is not None


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_never_fires_where_a_diagonal_holds_one_corner(name: str) -> None:
    # On an X-sudoku, the main diagonal holds r1c1 but none of the other corners.
    cand, _ = laid_out(name, TWO_BOXES)
    assert _find(name, cand, x_sudoku(9)) is None
    with swap_check_off():
        assert _find(name, cand, x_sudoku(9)) is not None


def test_avoidable_rectangle_needs_cells_that_are_not_givens() -> None:
    for name in ("Avoidable rectangle", "Avoidable rectangle type 2"):
        cand, _ = laid_out(name, TWO_BOXES)
        # A position that does not say which cells were givens counts them all as givens.
        assert _find(name, Candidates(cand.values, cand.masks)) is None
        # One given corner is enough to keep the pattern from being deadly.
        a = _cell(corners(TWO_BOXES)["A"])
        assert _find(name, Candidates(cand.values, cand.masks, cand.deduced & ~(1 << a))) is None


def test_type_2_needs_the_same_extra_in_both_roof_corners() -> None:
    cand, _ = laid_out("Unique rectangle type 2", TWO_BOXES)
    d = _cell(corners(TWO_BOXES)["D"])
    masks = list(cand.masks)
    masks[d] = 0b1011  # 1, 2 and 4: the roof no longer agrees on one extra digit
    assert _find("Unique rectangle type 2", Candidates(cand.values, tuple(masks))) is None


def test_type_4_needs_the_digit_locked_in_the_roof() -> None:
    # A third place for 1 and 2 in the roof's column and box: no digit is locked in the roof.
    cand, _ = laid_out("Unique rectangle type 4", TWO_BOXES)
    masks = list(cand.masks)
    masks[_cell("r7c4")] = 0b111
    masks[_cell("r3c5")] = 0b111
    assert _find("Unique rectangle type 4", Candidates(cand.values, tuple(masks))) is None


def test_hidden_rectangle_needs_both_lines_of_the_far_corner() -> None:
    cand, _ = laid_out("Hidden rectangle", TWO_BOXES)
    masks = list(cand.masks)
    masks[_cell("r2c8")] = 0b11  # 1 gets a third place in the far corner's row (and 2 too)
    assert _find("Hidden rectangle", Candidates(cand.values, tuple(masks))) is None


AVOIDABLE_PUZZLE = (
    "5..2..3......8..9...2..4..66..1..9...1.....4...7..3..87..3..4...9..7..2...5..6..9"
)


def test_explain_and_grade_use_the_avoidable_rectangle_on_a_real_puzzle() -> None:
    solution = parse_puzzle(solve(AVOIDABLE_PUZZLE).solution or "", GEO)
    explanation = explain(AVOIDABLE_PUZZLE, GEO, solution=solution)
    assert explanation.technique_counts.get("Avoidable rectangle") == 1
    for step in explanation.steps:
        assert all(solution[c] != d for c, d in step.eliminations)
        if step.technique == "Avoidable rectangle":
            # Every placed corner was placed by an earlier step, none is a given.
            placed = [c for c in step.cells if step.before.values[c]]
            assert len(placed) == 3
            assert all(not explanation.givens[c] for c in placed)
    graded = grade(AVOIDABLE_PUZZLE, GEO, solution=solution)
    assert (graded.grade, graded.hardest) == (explanation.grade, explanation.hardest)


def test_placing_marks_cells_as_deduced_and_pencil_marks_know_none() -> None:
    cand = pencil_marks(AVOIDABLE_PUZZLE, GEO)
    assert cand.deduced == 0
    step = next_step(cand, GEO)
    assert step is not None and step.placements
    after = apply_step(cand, step, GEO)
    assert after.deduced == sum(1 << c for c, _ in step.placements)


def test_a_hint_counts_the_persons_checked_digits_as_placed_while_solving() -> None:
    givens = parse_puzzle(AVOIDABLE_PUZZLE, GEO)
    solution = parse_puzzle(solve(AVOIDABLE_PUZZLE).solution or "", GEO)
    grid = [s if c < 20 else g for c, (g, s) in enumerate(zip(givens, solution, strict=True))]
    entered = sum(1 << c for c in range(20) if not givens[c])
    hint = hint_steps(grid, GEO, givens=givens)
    assert hint.steps and hint.steps[0].before.deduced == entered
    # Without the givens every digit of the grid counts as one (no avoidable rectangle).
    assert hint_steps(grid, GEO).steps[0].before.deduced == 0


# A top95 puzzle with one given removed: two solutions.
TWO_SOLUTIONS = ".2...6.........7.13...........4..8..6......5...........418.........3..2...87....."


def test_a_puzzle_with_two_solutions_gets_no_uniqueness_step() -> None:
    result = solve(TWO_SOLUTIONS)
    assert result.status == "multiple"
    explanation = explain(TWO_SOLUTIONS, GEO)
    assert not explanation.unique
    assert not set(explanation.technique_counts) & UNIQUENESS
    # Told that one of its solutions is the only one, the rectangles would fire and remove
    # digits of that very solution: the reason they wait for a known unique puzzle.
    first = parse_puzzle(result.solutions[0], GEO)
    assumed = explain(TWO_SOLUTIONS, GEO, solution=first)
    assert any(
        step.technique in UNIQUENESS and any(first[c] == d for c, d in step.eliminations)
        for step in assumed.steps
    )
