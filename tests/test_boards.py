"""boards.py: the read-only grid's markup; and the doctor's budget per request (budgets.py)."""

from __future__ import annotations

from typing import Any

import pytest
from markupsafe import Markup, escape
from web_puzzles import (
    EASY,
    EASY_SOLUTION,
    EASY_TYPO,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    JIGSAW_SOLUTION,
    SIXTEEN_PUZZLE,
    SIXTEEN_SOLUTION,
    TWO_SOLUTIONS,
)

from sudoku_web import create_app
from sudoku_web.core.board import Geometry, hyper, jigsaw, standard, x_sudoku
from sudoku_web.web.render.boards import BoardView, board_view
from sudoku_web.web.runtime.budgets import CONFIG_DEFAULTS, DEFAULT_DOCTOR_DEADLINE_MS, DoctorBudget


def macro_rows(board: BoardView) -> str:
    """The rows as the ``grid`` macro drew them cell by cell from CellView (the reference)."""
    out = []
    for row in board.rows:
        out.append("\n    <tr>")
        for cell in row:
            words = f"{cell.label}: {escape(cell.text) or 'blank'}"
            words += " (solved)" if cell.kind == "solved" else ""
            words += " (differs)" if cell.differs else ""
            words += " (conflict)" if cell.invalid else ""
            out.append(
                f'\n      <td class="{cell.classes}" aria-label="{words}">{escape(cell.text)}</td>'
            )
        out.append("\n    </tr>")
    return "".join(out)


BOARDS: list[tuple[str, Geometry, str, str | None]] = [
    ("givens", standard(9), EASY, None),
    ("solved", standard(9), EASY, EASY_SOLUTION),
    ("x", x_sudoku(9), EASY, EASY_SOLUTION),
    ("hyper", hyper(), EASY, EASY_SOLUTION),
    ("jigsaw", jigsaw(JIGSAW_REGIONS), JIGSAW_PUZZLE, JIGSAW_SOLUTION),
    ("16x16", standard(16), SIXTEEN_PUZZLE, SIXTEEN_SOLUTION),
    ("short text", standard(4), "12", None),
]


@pytest.mark.parametrize(("name", "geometry", "givens", "solution"), BOARDS)
def test_rows_html_matches_the_cell_by_cell_markup(
    name: str, geometry: Geometry, givens: str, solution: str | None
) -> None:
    marks = {0, 5, geometry.cells - 1}
    for invalid, differs in [((), ()), (marks, ()), ((), marks), (marks, {5, 7})]:
        board = board_view(geometry, givens, solution, invalid=invalid, differs=differs)
        html = board.rows_html()
        assert isinstance(html, Markup)
        assert str(html) == macro_rows(board)
        assert html.count("<td ") == geometry.cells
        assert html.count("<tr>") == geometry.size


def test_rows_html_labels_and_classes_of_a_multiple_result() -> None:
    board = board_view(standard(9), TWO_SOLUTIONS, EASY_SOLUTION, differs={1})
    html = board.rows_html()
    assert '<td class="cell given" aria-label="Row 1, column 1: 4">4</td>' in html
    assert (
        '<td class="cell solved differs" aria-label="Row 1, column 2: 8 (solved) (differs)">8</td>'
        in html
    )
    assert '<td class="cell given bl" aria-label="Row 1, column 4: 9">9</td>' in html


def test_rows_html_escapes_what_is_not_a_symbol() -> None:
    geo = standard(4)
    texts = ("<b>", '"', "&", "") + ("",) * 12
    board = BoardView(geo, texts, ("given",) * 16)
    html = str(board.rows_html())
    assert "<b>" not in html
    assert ">&lt;b&gt;</td>" in html
    assert 'aria-label="Row 1, column 2: &#34;"' in html
    assert ">&amp;</td>" in html


def test_board_view_cells_are_built_on_demand_and_agree() -> None:
    board = board_view(standard(9), EASY, EASY_SOLUTION, invalid={2}, differs={3})
    assert "cells" not in board.__dict__  # a read-only page never pays for 81 CellViews
    cells = board.cells
    assert len(cells) == 81 and cells[0].kind == "solved" and cells[2].kind == "given"
    assert cells[2].invalid and cells[3].differs and cells[80].label == "Row 9, column 9"
    assert len(board.rows) == 9


# ---- The typo doctor's bound per request


def test_doctor_deadline_default_is_a_fraction_of_a_second() -> None:
    assert DoctorBudget().deadline_ms == DEFAULT_DOCTOR_DEADLINE_MS
    assert DoctorBudget.from_config(CONFIG_DEFAULTS).deadline_ms == DEFAULT_DOCTOR_DEADLINE_MS
    assert DEFAULT_DOCTOR_DEADLINE_MS <= 400
    assert DoctorBudget.from_config({**CONFIG_DEFAULTS, "DOCTOR_DEADLINE_MS": 50}).deadline_ms == 50


@pytest.fixture
def rushed() -> Any:
    """A client whose doctor has no time at all."""
    return create_app({"TESTING": True, "DOCTOR_DEADLINE_MS": 0}).test_client()


def test_page_says_the_doctor_ran_out_of_time_and_is_not_stored(rushed: Any) -> None:
    response = rushed.get(f"/p/{EASY_TYPO}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "The typo doctor ran out of time" in page
    assert "no-store" in response.headers["Cache-Control"]
    assert "ETag" not in response.headers


def test_api_says_the_doctor_is_incomplete_and_is_not_stored(rushed: Any) -> None:
    response = rushed.get("/api/solve", query_string={"puzzle": EASY_TYPO})
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "unsolvable"
    assert body["doctor"]["complete"] is False
    assert "no-store" in response.headers["Cache-Control"]
    assert "ETag" not in response.headers


def test_the_request_deadline_bounds_the_doctor_too() -> None:
    """The doctor gets what the solve left of REQUEST_DEADLINE_MS: none here, and says so."""
    client = create_app({"TESTING": True, "REQUEST_DEADLINE_MS": 0}).test_client()
    response = client.get(f"/p/{EASY_TYPO}")
    assert "The typo doctor ran out of time" in response.get_data(as_text=True)
    assert "no-store" in response.headers["Cache-Control"]
    many = client.get(f"/p/{TWO_SOLUTIONS}")
    assert "search for one given that makes the solution unique ran out of time" in many.get_data(
        as_text=True
    )
    assert "no-store" in many.headers["Cache-Control"]


def test_work_flagged_during_rendering_makes_the_response_no_store() -> None:
    """cache.mark_uncacheable() from inside a build (e.g. a template global) wins over caching."""
    from flask import render_template_string

    from sudoku_web.web.runtime import cache

    app = create_app({"TESTING": True})

    def build() -> str:
        return render_template_string("{{ flag() }}ok", flag=cache.mark_uncacheable)

    with app.test_request_context("/p/x"):
        response = cache.cacheable("page", "test|1", build)
    assert response.status_code == 200
    assert "no-store" in response.headers["Cache-Control"]
    assert "ETag" not in response.headers
    assert len(cache.get_store(app)) == 0
