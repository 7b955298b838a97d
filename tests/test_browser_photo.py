"""The form's "Read a photo" in Debian's Chromium: choose a photo of a printed puzzle, get
the form back filled with the doubtful cells marked, check, Solve; with and without
JavaScript.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from benchmarks.hostile import multipart, no_sudoku_photo
from sudoku_web import create_app

pytestmark = pytest.mark.browser

PHOTOS = Path(__file__).resolve().parent / "data" / "photos"
SOLVE = "input[type=submit][value=Solve]"


def _photo() -> Path:
    """A test photo the reader reads with cells to check, so the marks are seen too."""
    return PHOTOS / "image109.jpg"


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    """What ``/api/read`` answers for the photo: the page must show the same reading."""
    body, ctype = multipart(_photo().name, _photo().read_bytes())
    answer = (
        create_app({"TESTING": True}).test_client().post("/api/read", data=body, content_type=ctype)
    )
    assert answer.status_code == 200
    body = dict(answer.get_json())
    assert body["uncertain"], "pick a test photo with cells to check"
    return body


def _grid(page: Page) -> str:
    return "".join(page.locator(f"#cells-{i}").input_value() or "0" for i in range(81))


def _doubtful(page: Page) -> list[str]:
    """The marked cells, by name (their labels name row and column)."""
    names = []
    for label in page.locator("td.doubtful label").all_inner_texts():
        row, column = (int(word) for word in label.replace(",", " ").split() if word.isdigit())
        names.append(f"r{row}c{column}")
    return sorted(names)


def _check_filled_form(page: Page, expected: dict[str, Any]) -> None:
    note = page.locator("#photo-check")
    expect(note).to_contain_text("Check the grid against the photo, then press Solve.")
    assert _grid(page) == expected["puzzle"]
    doubtful = sorted(set(expected["uncertain"]) | set(expected["changed"]))
    assert _doubtful(page) == doubtful
    for name in doubtful:
        expect(note).to_contain_text(name)
    if doubtful:  # named for screen readers: the label says so, the note describes the cell
        cell = page.locator("td.doubtful").first
        expect(cell.locator("label")).to_contain_text("check this cell")
        expect(cell.locator("input")).to_have_attribute("aria-describedby", "photo-check")
    # Nothing was solved: the person checks the grid, then Solve gives the solution page.
    expect(page.locator("h1")).not_to_have_text("Solved")
    page.click(SOLVE)
    expect(page).to_have_url(re.compile(f"/p/{expected['puzzle']}$"))
    expect(page.locator("h1")).to_have_text("Solved")


def test_read_a_photo_with_javascript(page: Page, live_server: str, expected: Any) -> None:
    page.set_viewport_size({"width": 375, "height": 800})  # a phone
    page.goto(live_server + "/")
    page.set_input_files("#photo", str(_photo()))
    expect(page.locator("#photo-check")).to_be_visible()
    assert page.url == live_server + "/"  # the page was not left
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing sticks out
    _check_filled_form(page, expected)


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_read_a_photo_without_javascript(page: Page, live_server: str, expected: Any) -> None:
    page.goto(live_server + "/")
    page.set_input_files("#photo", str(_photo()))
    page.click("text=Read the photo")
    expect(page).to_have_url(live_server + "/read")
    _check_filled_form(page, expected)


def test_a_photo_without_a_grid_says_so(page: Page, live_server: str, tmp_path: Path) -> None:
    lake = tmp_path / "lake.jpg"
    lake.write_bytes(no_sudoku_photo())
    page.goto(live_server + "/")
    page.set_input_files("#photo", str(lake))
    note = page.locator("#photo-check")
    expect(note).to_have_attribute("role", "alert")
    expect(note).to_contain_text(
        "No Sudoku grid found in this photo: try a straighter, closer shot."
    )
    assert _grid(page) == "0" * 81
