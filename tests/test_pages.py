"""The HTML pages: every route, status code and message of the web app."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from web_puzzles import CONFLICT, EASY, EASY_SOLUTION, IMPOSSIBLE, TWO_SOLUTIONS

from sudoku_web import create_app
from sudoku_web.core.board import standard
from sudoku_web.core.solver import SolveResult
from sudoku_web.web.runtime import solving
from sudoku_web.web.runtime.budgets import Budget


def cells(puzzle: str) -> dict[str, str]:
    """POST data filling the grid inputs from a puzzle string."""
    return {f"cells-{i}": ("" if ch in ".0" else ch) for i, ch in enumerate(puzzle)}


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def marked_inputs(page: str) -> set[int]:
    """Indices of the cell inputs carrying aria-invalid="true"."""
    marked = set()
    for tag in re.findall(r"<input[^>]*>", page):
        cell = re.search(r'id="cells-(\d+)"', tag)
        if cell and 'aria-invalid="true"' in tag:
            marked.add(int(cell.group(1)))
    return marked


# ---- GET / -----------------------------------------------------------------------------------


def test_form_page_has_81_labelled_numeric_inputs(client: Any) -> None:
    page = text(client.get("/"))
    inputs = re.findall(r"<input[^>]*class=\"cell-input\"[^>]*>", page)
    assert len(inputs) == 81
    assert all('inputmode="numeric"' in i and 'maxlength="1"' in i for i in inputs)
    assert '<label class="visually-hidden" for="cells-22">Row 3, column 5</label>' in page
    assert 'name="paste"' in page
    assert ">Solve<" in page or 'value="Solve"' in page
    assert ">Clear</a>" in page


def test_form_page_offers_examples_that_open_in_the_form(client: Any) -> None:
    page = text(client.get("/"))
    examples = re.findall(r'href="/\?p=(\d{81})"', page)
    assert 2 <= len(examples) <= 3


def test_form_page_has_no_inline_script_or_style(client: Any) -> None:
    for url in ("/", f"/p/{EASY}", f"/p/{TWO_SOLUTIONS}", "/p/123", "/nowhere"):
        page = text(client.get(url))
        assert "style=" not in page
        assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page) is None
        assert re.search(r"\son[a-z]+=", page) is None
        assert "<style" not in page


def test_p_parameter_prefills_the_grid(client: Any) -> None:
    page = text(client.get("/", query_string={"p": EASY}))
    assert re.search(r'id="cells-2"[^>]*value="3"', page)
    assert re.search(r'id="cells-0"[^>]*value=""', page)


def test_p_parameter_that_does_not_parse_lands_in_the_paste_box(client: Any) -> None:
    page = text(client.get("/", query_string={"p": "12x"}))
    assert re.search(r"<textarea[^>]*>\s*12x</textarea>", page)


# ---- POST / ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [cells(EASY), {"paste": EASY.replace("0", ".")}, {"paste": EASY}],
    ids=["cells", "paste-dots", "paste-zeros"],
)
def test_valid_post_redirects_303_to_the_share_link(client: Any, data: dict[str, str]) -> None:
    response = client.post("/", data=data)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/p/{EASY}"


@pytest.mark.parametrize(
    ("data", "message", "marked"),
    [
        (cells("y" + EASY[1:]), "Position 1 (r1c1) holds &#39;y&#39;", {0}),
        ({**cells(EASY), "cells-4": "12"}, "r1c5 holds &#39;12&#39;", {4}),
        (cells(CONFLICT), "r1c1 and r1c2 both hold 5 in row 1 and box 1.", {0, 1}),
        (cells("0" * 81), "The grid is empty", set()),
        ({"paste": "123"}, "Found 3 cells, expected 81 (9 rows of 9).", set()),
    ],
    ids=["bad-character", "two-characters", "conflict", "empty", "paste-length"],
)
def test_invalid_post_is_422_with_messages_and_marked_cells(
    client: Any, data: dict[str, str], message: str, marked: set[int]
) -> None:
    response = client.post("/", data=data)
    assert response.status_code == 422
    page = text(response)
    assert message in page
    assert 'role="alert"' in page
    assert marked_inputs(page) == marked
    # The marked cells also get a visible style, not only the ARIA attribute.
    assert page.count(" invalid") >= len(marked)


def test_invalid_post_keeps_the_users_entries(client: Any) -> None:
    page = text(client.post("/", data=cells("55" + EASY[2:])))
    assert re.search(r'id="cells-0"[^>]*value="5"', page)
    assert re.search(r'id="cells-2"[^>]*value="3"', page)


def test_wrong_length_paste_marks_the_paste_box_and_keeps_it(client: Any) -> None:
    page = text(client.post("/", data={"paste": "12345"}))
    assert re.search(r'<textarea[^>]*aria-invalid="true"[^>]*>\s*12345</textarea>', page)


# ---- GET /p/<puzzle> -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        EASY.replace("0", "."),
        EASY[:40] + "-" + EASY[40:],
        "+".join(EASY[i : i + 9] for i in range(0, 81, 9)),
        " ".join(EASY[i : i + 9] for i in range(0, 81, 9)),
    ],
    ids=["dots", "dash", "plus-rows", "space-rows"],
)
def test_other_spellings_redirect_301_to_the_canonical_link(client: Any, spelling: str) -> None:
    response = client.get(f"/p/{spelling}")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/p/{EASY}"


def test_solved_page(client: Any) -> None:
    response = client.get(f"/p/{EASY}")
    assert response.status_code == 200
    page = text(response)
    assert "<h1" in page and "Solved" in page
    tds = re.findall(r'<td class="cell (given|solved)[^"]*"[^>]*>(\d)</td>', page)
    assert "".join(d for _, d in tds) == EASY_SOLUTION
    # Givens and solved digits are told apart.
    assert [k == "given" for k, _ in tds] == [ch != "0" for ch in EASY]
    for stat in ("Reduce passes", "Guesses", "Backtracks", "Time"):
        assert stat in page
    assert f"http://localhost/p/{EASY}</a>" in page
    assert "data-copy" in page and "Copy link" in page
    assert f'href="/?p={EASY}"' in page and "Edit this puzzle" in page


def test_impossible_page(client: Any) -> None:
    response = client.get(f"/p/{IMPOSSIBLE}")
    assert response.status_code == 200
    page = text(response)
    assert "Impossible" in page
    assert "before any guessing" in page
    assert f'href="/?p={IMPOSSIBLE}"' in page
    assert len(re.findall(r'<td class="cell given', page)) == 9


def test_impossible_after_search_is_explained_as_such(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whether a given puzzle fails in reduction or in search depends on the engine's strength,
    # so the page's wording for an exhausted search is tested against a stand-in result.
    result = SolveResult("unsolvable", standard(9), EASY.replace("0", "."), reason="search")
    monkeypatch.setattr(solving, "solve_puzzle", lambda *args, **kwargs: result)
    page = text(client.get(f"/p/{EASY}"))
    assert "Impossible" in page
    assert "tried every possibility" in page


def test_multiple_page_shows_two_solutions_with_differences_marked(client: Any) -> None:
    response = client.get(f"/p/{TWO_SOLUTIONS}")
    assert response.status_code == 200
    page = text(response)
    assert "More than one solution" in page
    assert "exactly one solution" in page
    assert page.count("<caption>Solution") == 2
    # The 4/7 rectangle: 4 differing cells in each of the two grids.
    assert len(re.findall(r'class="cell solved[^"]*differs', page)) == 8


def test_gave_up_page_says_why_and_what_was_reached() -> None:
    app = create_app({"TESTING": True, "SOLVE_MAX_NODES": 1})
    page = app.test_client().get(f"/p/{'0' * 80}1")
    assert page.status_code == 200
    body = text(page)
    assert "The solver gave up" in body
    assert "limit of 1 search steps" in body
    assert "How far the solver got" in body


@pytest.mark.parametrize(
    ("puzzle", "message"),
    [
        ("123", "Found 3 cells, expected 81 (9 rows of 9)."),
        ("y" + EASY[1:], "holds &#39;y&#39;"),
        (CONFLICT, "r1c1 and r1c2 both hold 5 in row 1 and box 1."),
        ("0" * 81, "The grid is empty"),
    ],
    ids=["length", "character", "conflict", "empty"],
)
def test_invalid_puzzle_in_a_link_is_a_422_page_with_the_forms_messages(
    client: Any, puzzle: str, message: str
) -> None:
    response = client.get(f"/p/{puzzle}")
    assert response.status_code == 422
    page = text(response)
    assert "Not a valid puzzle" in page
    assert message in page


@pytest.mark.parametrize("puzzle", [CONFLICT, "0" * 81], ids=["conflict", "empty"])
def test_a_canonical_link_read_by_the_engine_says_what_the_reader_says(
    client: Any, puzzle: str
) -> None:
    # Canonical links skip the reader (the engine parses them); a dotted spelling of the
    # same grid goes through the reader: both must give the same 422 page.
    fast = client.get(f"/p/{puzzle}")
    slow = client.get(f"/p/{puzzle.replace('0', '.')}")
    assert fast.status_code == slow.status_code == 422
    assert fast.get_data() == slow.get_data()


def test_conflicting_link_shows_the_grid_with_both_cells_marked(client: Any) -> None:
    page = text(client.get(f"/p/{CONFLICT}"))
    assert len(re.findall(r'<td class="cell given[^"]*invalid', page)) == 2


def test_budget_comes_from_config() -> None:
    app = create_app({"SOLVE_MAX_NODES": 7, "SOLVE_DEADLINE_MS": 50})
    assert Budget.from_config(app.config) == Budget(7, 50.0)


def test_budget_can_be_set_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLASK_SOLVE_DEADLINE_MS", "250")
    app = create_app()
    assert app.config["SOLVE_DEADLINE_MS"] == 250


def test_max_content_length_has_a_safe_default(app: Flask) -> None:
    assert 0 < app.config["MAX_CONTENT_LENGTH"] <= 1024 * 1024


# ---- Error pages -----------------------------------------------------------------------------


def test_404_page_is_in_the_site_style(client: Any) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404
    page = text(response)
    assert "sudoku.css" in page and "Not Found" in page and "/p/" in page


def test_405_page_keeps_the_allow_header(client: Any) -> None:
    response = client.delete("/")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    assert "sudoku.css" in text(response)


def test_413_page_for_an_oversized_form(client: Any) -> None:
    response = client.post("/", data={"paste": "1" * 100_000})
    assert response.status_code == 413
    assert "sudoku.css" in text(response)
    assert "far too much data" in text(response)


def test_500_page_is_in_the_site_style_and_hides_the_exception() -> None:
    app = create_app({"TESTING": False})

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    app.logger.disabled = True  # the traceback would be logged; keep the test output quiet
    response = app.test_client().get("/boom")
    assert response.status_code == 500
    page = text(response)
    assert "sudoku.css" in page
    assert "secret internals" not in page


def test_static_files_are_served(client: Any) -> None:
    for name in ("sudoku.css", "sudoku.js", "favicon.svg"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        response.close()
