"""Variant journeys in Debian's Chromium: X, jigsaw (painted and typed), 16x16, the typo
doctor's fix links, and link previews.

On failure, a screenshot of each page the test opened is saved under ``test-results/``
(conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from web_puzzles import (
    EASY,
    EASY_TYPO,
    JIGSAW6_PUZZLE,
    JIGSAW6_REGIONS,
    JIGSAW6_SOLUTION,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    JIGSAW_SOLUTION,
    JIGSAW_TYPO,
    SIXTEEN_PUZZLE,
    SIXTEEN_SOLUTION,
    X_PUZZLE,
    X_SOLUTION,
)

pytestmark = pytest.mark.browser

SOLVE = "input[type=submit][value=Solve]"


def solution_text(page: Page) -> str:
    """The symbols of the first read-only grid on the page, row by row."""
    cells = page.locator("table.grid").first.locator("td")
    return "".join(t.strip() for t in cells.all_inner_texts())


def type_puzzle(page: Page, puzzle: str) -> None:
    """Type a puzzle into the grid from the first cell (0 leaves a blank and moves on)."""
    page.locator("#cells-0").click()
    page.keyboard.type(puzzle)


def test_pick_x_from_the_picker_and_solve(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name="X-sudoku").click()
    expect(page).to_have_url(f"{live_server}/?v=x")
    # The diagonals are shaded: 17 cells, visibly.
    shaded = page.locator("table.grid td.shade")
    expect(shaded).to_have_count(17)
    page.wait_for_load_state("load")  # computed styles need the stylesheet of the new page
    colour = shaded.first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
    type_puzzle(page, X_PUZZLE)
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/x/{X_PUZZLE}")
    expect(page.locator("h1")).to_have_text("Solved")
    assert solution_text(page) == X_SOLUTION


def test_paint_jigsaw_regions_with_the_mouse_and_solve(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=jigsaw&n=6")
    painter = page.locator(".paint-grid td")
    expect(painter).to_have_count(36)
    # Paint every row as runs of equal letters: press on the run's first cell, drag to its
    # last, release (moving along a row only crosses cells of the run).
    for row in range(6):
        start = 0
        while start < 6:
            letter = JIGSAW6_REGIONS[row * 6 + start]
            end = start
            while end + 1 < 6 and JIGSAW6_REGIONS[row * 6 + end + 1] == letter:
                end += 1
            page.locator(".palette button", has_text=letter).click()
            first = painter.nth(row * 6 + start).bounding_box()
            last = painter.nth(row * 6 + end).bounding_box()
            assert first is not None and last is not None
            page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
            page.mouse.down()
            page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=6)
            page.mouse.up()
            start = end + 1
    # The painting wrote the region field the server reads, and redrew the puzzle grid.
    rows = [JIGSAW6_REGIONS[r * 6 : r * 6 + 6] for r in range(6)]
    expect(page.locator("textarea[name=regions]")).to_have_value("\n".join(rows))
    second = page.locator("table.grid.editable td").nth(1)  # region B, A to its left
    expect(second).to_have_class(re.compile(r"(?=.*\bbl\b)(?=.*\brg-1\b)"))
    type_puzzle(page, JIGSAW6_PUZZLE)
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/jigsaw/{JIGSAW6_REGIONS}/{JIGSAW6_PUZZLE}")
    expect(page.locator("h1")).to_have_text("Solved")
    assert solution_text(page) == JIGSAW6_SOLUTION


def test_paint_jigsaw_regions_with_the_keyboard(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=jigsaw&n=6")
    grid = page.get_by_role("grid", name=re.compile("Region map"))
    first = grid.get_by_role("gridcell").first
    first.focus()
    # Walk the map row by row: a letter picks that region and paints the focused cell.
    for i, letter in enumerate(JIGSAW6_REGIONS):
        page.keyboard.press(letter.lower())
        if i % 6 < 5:
            page.keyboard.press("ArrowRight")
        elif i < 35:
            page.keyboard.press("ArrowDown")
            for _ in range(5):
                page.keyboard.press("ArrowLeft")
    rows = [JIGSAW6_REGIONS[r * 6 : r * 6 + 6] for r in range(6)]
    expect(page.locator("textarea[name=regions]")).to_have_value("\n".join(rows))
    # The focused cell says where it is and which region it is in; the palette follows.
    last = grid.get_by_role("gridcell").nth(35)
    expect(last).to_be_focused()
    expect(last).to_have_attribute("aria-label", f"Row 6, column 6: region {JIGSAW6_REGIONS[35]}")
    pressed = page.locator(".palette button[aria-pressed=true]")
    expect(pressed).to_have_text(JIGSAW6_REGIONS[35])
    # Space paints with the chosen region: r6c1 (region F) becomes D.
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    assert JIGSAW6_REGIONS[30] != JIGSAW6_REGIONS[35]
    page.keyboard.press("Space")
    expect(grid.get_by_role("gridcell").nth(30)).to_have_text(JIGSAW6_REGIONS[35])


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_type_jigsaw_regions_without_javascript(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=jigsaw")
    # Without JavaScript there is no painting grid: the text field is the way in.
    expect(page.locator(".region-painter")).to_be_hidden()
    spaced = "\n".join(" ".join(JIGSAW_REGIONS[r * 9 : r * 9 + 9].lower()) for r in range(9))
    page.fill("textarea[name=regions]", spaced)
    page.fill("textarea[name=paste]", JIGSAW_PUZZLE.replace("0", "."))
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}")
    expect(page.locator("h1")).to_have_text("Solved")
    assert solution_text(page) == JIGSAW_SOLUTION


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_bad_region_map_without_javascript_is_marked(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=jigsaw")
    page.fill("textarea[name=regions]", JIGSAW_REGIONS[:-1] + "A")
    page.fill("textarea[name=paste]", JIGSAW_PUZZLE)
    page.click(SOLVE)
    expect(page.get_by_role("alert")).to_contain_text("Region 'H' has 8 cells")
    expect(page.locator("#cells-80")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("textarea[name=regions]")).to_have_attribute("aria-invalid", "true")


def test_solve_a_16x16_puzzle(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=16x16")
    expect(page.locator("input.cell-input")).to_have_count(256)
    type_puzzle(page, SIXTEEN_PUZZLE.lower())  # letters are upper-cased as they are typed
    expect(page.locator("#cells-1")).to_have_value("8")
    expect(page.locator("#cells-7")).to_have_value("D")
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{SIXTEEN_PUZZLE}")
    expect(page.locator("h1")).to_have_text("Solved")
    assert solution_text(page) == SIXTEEN_SOLUTION


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 740})
def test_16x16_and_jigsaw_fit_a_360_px_phone(page: Page, live_server: str) -> None:
    for path in ("/?v=16x16", f"/p/{SIXTEEN_PUZZLE}", "/?v=jigsaw"):
        page.goto(live_server + path)
        for table in page.locator("table.grid, table.paint-grid").all():
            box = table.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_follow_a_doctor_fix_from_the_impossible_page(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY_TYPO}")
    expect(page.locator("h1")).to_contain_text("Impossible")
    expect(page.locator(".conflict-summary")).to_contain_text("givens cannot all be right")
    expect(page.locator("table.grid td.invalid").first).to_be_visible()
    first_fix = page.locator(".likely-fix a")
    expect(first_fix).to_have_text("r1c3: 4 → 3")
    first_fix.click()
    expect(page).to_have_url(f"{live_server}/p/{EASY}")
    expect(page.locator("h1")).to_have_text("Solved")


def test_follow_a_jigsaw_doctor_fix(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_TYPO}")
    expect(page.locator("table.grid td.invalid")).to_have_count(4)
    page.locator(".likely-fix a").click()
    expect(page).to_have_url(f"{live_server}/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}")
    expect(page.locator("h1")).to_have_text("Solved")


def test_meta_tags_point_at_a_preview_that_loads(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/x/{X_PUZZLE}")
    image = page.locator('meta[property="og:image"]').get_attribute("content")
    assert image == f"{live_server}/x/{X_PUZZLE}.png"
    assert page.locator('meta[name="twitter:image"]').get_attribute("content") == image
    title = page.locator('meta[property="og:title"]').get_attribute("content")
    assert title == "Solved · 9x9 X-sudoku"
    response = page.goto(image)
    assert response is not None and response.status == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers.get("etag")
    size = page.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]")
    assert size == [600, 630]
