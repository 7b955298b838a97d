"""The form's "Read a photo" in Debian's Chromium: choose a photo of a printed puzzle, get
the form back filled with the doubtful cells marked, check, Solve; with and without
JavaScript.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from photo_inputs import doubtful_photo
from playwright.sync_api import Page, expect

from benchmarks.hostile import multipart, no_sudoku_photo
from sudoku_web import create_app

pytestmark = pytest.mark.browser

SOLVE = "input[type=submit][value=Solve]"


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A photo the reader reads with cells to check, so the marks are seen too."""
    path = tmp_path_factory.mktemp("photos") / "newspaper.jpg"
    path.write_bytes(doubtful_photo()[0])
    return path


@pytest.fixture(scope="module")
def expected(photo: Path) -> dict[str, Any]:
    """What ``/api/read`` answers for the photo: the page must show the same reading."""
    body, ctype = multipart(photo.name, photo.read_bytes())
    answer = (
        create_app({"TESTING": True}).test_client().post("/api/read", data=body, content_type=ctype)
    )
    assert answer.status_code == 200
    reading = dict(answer.get_json())
    assert reading["uncertain"]
    return reading


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
    # Named for screen readers: the label says so, the note describes the cell.
    cell = page.locator("td.doubtful").first
    expect(cell.locator("label")).to_contain_text("check this cell")
    expect(cell.locator("input")).to_have_attribute("aria-describedby", "photo-check")
    # Nothing was solved: the person checks the grid against the paper, mends what was
    # misread, and Solve gives the solution page.
    expect(page.locator("h1")).not_to_have_text("Solved")
    truth = doubtful_photo()[1]
    for index, (read, printed) in enumerate(zip(_grid(page), truth, strict=True)):
        if read != printed:
            page.locator(f"#cells-{index}").fill("" if printed == "0" else printed)
    page.click(SOLVE)
    expect(page).to_have_url(re.compile(f"/p/{truth}$"))
    expect(page.locator("h1")).to_have_text("Solved")


def test_read_a_photo_with_javascript(
    page: Page, live_server: str, photo: Path, expected: Any
) -> None:
    page.set_viewport_size({"width": 375, "height": 800})  # a phone
    page.goto(live_server + "/")
    page.set_input_files("#photo", str(photo))
    expect(page.locator("#photo-check")).to_be_visible()
    assert page.url == live_server + "/"  # the page was not left
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing sticks out
    _check_filled_form(page, expected)


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_read_a_photo_without_javascript(
    page: Page, live_server: str, photo: Path, expected: Any
) -> None:
    page.goto(live_server + "/")
    page.set_input_files("#photo", str(photo))
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


def test_a_photo_over_the_limit_is_refused_before_uploading(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff" * (9 * 1024 * 1024))
    posts: list[str] = []
    page.on(
        "request", lambda request: posts.append(request.url) if request.method == "POST" else None
    )
    page.goto(live_server + "/")
    page.set_input_files("#photo", str(big))
    note = page.locator("#photo-check")
    expect(note).to_contain_text("That file is over 8 MB")
    expect(note).to_have_attribute("role", "alert")
    assert posts == []
