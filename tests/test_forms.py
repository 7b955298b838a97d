"""The puzzle form: what it accepts, what it rejects, and how it marks the offending cells."""

from __future__ import annotations

import pytest
from flask import Flask
from web_puzzles import EASY
from werkzeug.datastructures import MultiDict

from sudoku_web.core.board import standard, x_sudoku
from sudoku_web.web.puzzles.forms import PASTE_MAX, PuzzleForm, digest, puzzle_form


def cells_data(puzzle: str) -> MultiDict[str, str]:
    """Form data with one ``cells-i`` field per character ('0' and '.' become empty)."""
    return MultiDict({f"cells-{i}": ("" if ch in ".0" else ch) for i, ch in enumerate(puzzle)})


def make_form(app: Flask, data: MultiDict[str, str]) -> PuzzleForm:
    with app.test_request_context(method="POST"):
        return PuzzleForm(data)


def test_form_has_one_input_per_cell() -> None:
    assert len(PuzzleForm().cells.entries) == 81


@pytest.mark.parametrize(
    ("data", "canonical"),
    [
        (cells_data(EASY), EASY),
        (MultiDict({"paste": EASY.replace("0", ".")}), EASY),
        (MultiDict({"paste": EASY}), EASY),
        # Lower-case is not a digit problem; whitespace around a cell is forgiven.
        (MultiDict({**cells_data(EASY).to_dict(), "cells-2": " 3 "}), EASY),
        # The paste box wins over the grid when it holds text.
        (MultiDict({**cells_data("0" * 81).to_dict(), "paste": EASY}), EASY),
    ],
)
def test_valid_input_gives_the_canonical_puzzle(
    app: Flask, data: MultiDict[str, str], canonical: str
) -> None:
    form = make_form(app, data)
    assert form.validate()
    assert form.canonical == canonical
    assert form.puzzle_errors == []


def test_pretty_printed_paste_parses(app: Flask) -> None:
    rows = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
    pretty = "\n".join(" | ".join((row[0:3], row[3:6], row[6:9])) for row in rows)
    form = make_form(app, MultiDict({"paste": pretty}))
    assert form.validate()
    assert form.canonical == EASY


@pytest.mark.parametrize(
    ("data", "code", "fragment", "cells"),
    [
        (cells_data("y" + EASY[1:]), "symbol", "r1c1", {0}),
        (MultiDict({**cells_data(EASY).to_dict(), "cells-4": "12"}), "symbol", "r1c5", {4}),
        (MultiDict({**cells_data(EASY).to_dict(), "cells-9": "|"}), "symbol", "r2c1", {9}),
        (cells_data("55" + "0" * 79), "conflict", "r1c1 and r1c2 both hold 5 in row 1", {0, 1}),
        (cells_data("5" + "0" * 9 + "5" + "0" * 70), "conflict", "box 1", {0, 10}),
        (cells_data("0" * 81), "empty", "empty", set()),
        (MultiDict({"paste": "123"}), "length", "Found 3 cells, expected 81", set()),
    ],
)
def test_invalid_input_names_the_problem_and_marks_the_cells(
    app: Flask, data: MultiDict[str, str], code: str, fragment: str, cells: set[int]
) -> None:
    form = make_form(app, data)
    assert not form.validate()
    assert any(e.code == code and fragment in e.message for e in form.puzzle_errors)
    assert form.invalid_cells == cells
    assert form.canonical is None


def test_bad_characters_and_conflicts_are_reported_together(app: Flask) -> None:
    form = make_form(app, cells_data("55y" + "0" * 78))
    assert not form.validate()
    assert {e.code for e in form.puzzle_errors} == {"symbol", "conflict"}
    assert form.invalid_cells == {0, 1, 2}


def test_a_grid_of_only_bad_characters_is_not_called_empty(app: Flask) -> None:
    form = make_form(app, cells_data("y" + "0" * 80))
    assert not form.validate()
    assert [e.code for e in form.puzzle_errors] == ["symbol"]


def test_pasted_conflicts_are_shown_in_the_grid(app: Flask) -> None:
    form = make_form(app, MultiDict({"paste": "55" + "." * 79}))
    assert not form.validate()
    assert form.paste_invalid
    assert [f.data for f in form.cells.entries[:3]] == ["5", "5", ""]
    assert form.board().cells[0].invalid


def test_overlong_paste_is_refused_before_parsing(app: Flask) -> None:
    form = make_form(app, MultiDict({"paste": "1" * (PASTE_MAX + 1)}))
    assert not form.validate()
    assert form.paste_invalid
    assert "too long" in form.puzzle_errors[0].message


def test_prefill_puts_a_parsable_puzzle_in_the_grid_and_anything_else_in_the_paste_box() -> None:
    form = PuzzleForm()
    form.prefill(EASY)
    assert [f.data for f in form.cells.entries[:3]] == ["", "", "3"]
    other = PuzzleForm()
    other.prefill("12x")
    assert other.paste.data == "12x"


def test_puzzle_form_is_sized_by_the_geometry() -> None:
    assert puzzle_form(standard(9)) is PuzzleForm
    small = puzzle_form(standard(4))()
    assert len(small.cells.entries) == 16
    assert len(puzzle_form(x_sudoku(9))().cells.entries) == 81


# ---- One source of truth: the grid ---------------------------------------------------------

EDITED = "4" + EASY[1:]  # r1c1 typed after the paste (the solution's digit)
OTHER = EASY[::-1]  # another puzzle, pasted over


def posted(grid: str, paste: str, filled: str = "", seen: str | None = None) -> MultiDict[str, str]:
    """A POST of the form as the server drew it: ``filled`` is the grid it filled in from the
    box, ``seen`` the box's text when drawn (None: a fresh form)."""
    data = {**cells_data(grid).to_dict(), "paste": paste, "filled": filled}
    if seen is not None:
        data["pasted"] = digest(seen)
    return MultiDict(data)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # The box is news: a fresh form, an empty grid, or a box changed since it was drawn.
        (posted("0" * 81, EASY), EASY),
        (posted(EDITED, OTHER, filled=EASY, seen=EASY), OTHER),
        # The grid as the server filled it from the box: the box (it may hold a fixed typo).
        (posted(EASY, EASY, filled=EASY, seen=EASY), EASY),
        # A digit typed into the grid after the server filled it: the grid counts.
        (posted(EDITED, EASY, filled=EASY, seen=EASY), EDITED),
        # CRLF from the browser's textarea is the same box.
        (posted(EDITED, EASY[:9] + "\r\n" + EASY[9:], filled=EASY, seen=EASY), EDITED),
    ],
    ids=["empty-grid", "box-changed", "grid-as-filled", "grid-edited", "crlf"],
)
def test_the_grid_is_what_is_read_after_a_paste(
    app: Flask, data: MultiDict[str, str], expected: str
) -> None:
    form = make_form(app, data)
    assert form.validate(), form.puzzle_errors
    assert form.canonical == expected


def test_a_paste_remembers_what_it_put_in_the_grid(app: Flask) -> None:
    form = make_form(app, MultiDict({"paste": EASY}))
    assert form.validate()
    assert form.filled.data == EASY and form.pasted.data == digest(EASY)
    # Typed into the grid and not pasted: nothing to remember.
    typed = make_form(app, cells_data(EASY))
    assert typed.validate() and typed.filled.data == ""


def test_entries_typed_over_pasted_pencil_marks_are_placed(app: Flask) -> None:
    from sudoku_web.core.logic import pencil_marks

    geo = standard(9)
    marks = pencil_marks(EASY, geo)
    flat = "".join(
        "".join(str(d) if (v == d or m >> (d - 1) & 1) else "." for d in range(1, 10))
        for v, m in zip(marks.values, marks.masks, strict=True)
    )
    first = make_form(app, MultiDict({"paste": flat}))
    assert first.validate() and first.pencil is not None
    grid = "".join(str(v) for v in first.pencil.values)
    # r1c1 typed (4): placed, and 4 leaves its row's candidates.
    edited = "4" + grid[1:]
    form = make_form(app, posted(edited, flat, filled=grid, seen=flat))
    assert form.validate() and form.pencil is not None
    assert form.pencil.values[0] == 4 and form.pencil.masks[0] == 0
    assert all(not form.pencil.masks[c] >> 3 & 1 for c in range(1, 9))


def test_many_overfull_cells_are_one_message_naming_them(app: Flask) -> None:
    data = cells_data(EASY)
    for i in (0, 1, 3, 5, 7, 8):
        data[f"cells-{i}"] = "12"
    form = make_form(app, data)
    assert not form.validate()
    (error,) = form.puzzle_errors
    assert error.cells == (0, 1, 3, 5, 7, 8)
    assert "r1c1 holds '12'" in error.message and "and 2 more cells" in error.message
