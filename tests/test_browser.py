"""User journeys in Debian's Chromium, driven by Playwright against a live server.

On failure, a screenshot of each page the test opened is saved under ``test-results/``
(conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from web_puzzles import CONFLICT, EASY, EASY_SOLUTION, IMPOSSIBLE

pytestmark = pytest.mark.browser

SOLVE = "input[type=submit][value=Solve]"


def solution_text(page: Page) -> str:
    """The digits of the first read-only grid on the page, row by row."""
    cells = page.locator("table.grid").first.locator("td")
    return "".join(cells.all_inner_texts()).replace("\n", "").replace(" ", "")


def cell(page: Page, index: int) -> Any:
    return page.locator(f"#cells-{index}")


def test_type_a_puzzle_cell_by_cell_and_solve(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    cell(page, 0).click()
    # Typing a symbol moves on to the next cell; 0 leaves a blank and moves on too.
    page.keyboard.type(EASY)
    expect(cell(page, 2)).to_have_value("3")
    expect(cell(page, 80)).to_have_value("")
    expect(cell(page, 78)).to_have_value("3")
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{EASY}")
    expect(page.locator("h1")).to_have_text("Solved")
    assert solution_text(page) == EASY_SOLUTION


def test_paste_a_whole_puzzle_into_one_cell_fills_the_grid(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    pasted = EASY.replace("0", ".")
    # A real paste event with the puzzle on the clipboard, delivered to a cell in the middle.
    page.locator("#cells-40").dispatch_event("focus")
    page.evaluate(
        """([id, text]) => {
            const data = new DataTransfer();
            data.setData("text/plain", text);
            const event = new ClipboardEvent(
                "paste", {clipboardData: data, bubbles: true, cancelable: true});
            document.getElementById(id).dispatchEvent(event);
        }""",
        ["cells-40", pasted],
    )
    values = [cell(page, i).input_value() for i in range(81)]
    assert "".join(v or "0" for v in values) == EASY
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{EASY}")


def test_share_link_in_a_fresh_page_shows_the_same_solution(
    page: Page, tab: Callable[..., Page], live_server: str
) -> None:
    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", EASY)
    page.click(SOLVE)
    link = page.locator("#share-url").inner_text()
    assert link == f"{live_server}/p/{EASY}"
    first = solution_text(page)

    fresh = tab()  # another visitor: nothing shared but the link
    fresh.goto(link)
    expect(fresh.locator("h1")).to_have_text("Solved")
    assert solution_text(fresh) == first == EASY_SOLUTION


def test_impossible_puzzle_shows_the_impossible_page(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?p={IMPOSSIBLE}")
    page.click(SOLVE)
    expect(page.locator("h1")).to_contain_text("Impossible")
    expect(page.locator(".explain")).to_contain_text("no possible digit")
    expect(page.get_by_role("link", name="Edit this puzzle")).to_be_visible()


def test_conflicting_givens_show_the_message_and_marked_cells(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    cell(page, 0).fill("5")
    cell(page, 1).fill("5")
    page.click(SOLVE)
    expect(page.get_by_role("alert")).to_contain_text(
        "r1c1 and r1c2 both hold 5 in row 1 and box 1."
    )
    expect(cell(page, 0)).to_have_attribute("aria-invalid", "true")
    expect(cell(page, 1)).to_have_attribute("aria-invalid", "true")
    expect(cell(page, 2)).to_have_attribute("aria-invalid", "false")
    # Visibly marked, not only for screen readers. Computed styles are only meaningful once
    # the 422 page's stylesheet has loaded; reading them earlier raced in CI.
    page.wait_for_load_state("load")
    marked = page.locator("td.invalid").first.evaluate("e => getComputedStyle(e).backgroundColor")
    plain = page.locator("td:not(.invalid)").first.evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    assert marked != plain
    # The link form of the same puzzle gives the same message on a 422 page.
    response = page.goto(f"{live_server}/p/{CONFLICT}")
    assert response is not None and response.status == 422
    expect(page.locator(".problems")).to_contain_text("r1c1 and r1c2 both hold 5")


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_the_same_solve_works_with_javascript_off(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    for index, ch in enumerate(EASY):
        if ch != "0":
            cell(page, index).fill(ch)
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{EASY}")
    assert solution_text(page) == EASY_SOLUTION
    # Without JavaScript the copy button could do nothing, so it stays hidden.
    expect(page.locator("button[data-copy]")).to_be_hidden()


def test_keyboard_navigation(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?p={EASY}")
    cell(page, 0).focus()
    page.keyboard.press("ArrowRight")
    expect(cell(page, 1)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(cell(page, 10)).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(cell(page, 8)).to_be_focused()  # runs back onto the end of the row above
    page.keyboard.press("ArrowUp")
    expect(cell(page, 80)).to_be_focused()  # a column wraps top to bottom
    # Delete clears and moves on; Backspace in an empty cell clears the one before and moves
    # back (the grid's keyboard model).
    cell(page, 2).focus()
    page.keyboard.press("Delete")
    expect(cell(page, 2)).to_have_value("")
    expect(cell(page, 3)).to_be_focused()
    cell(page, 4).focus()  # r1c5 holds 2, r1c4 is blank
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    expect(cell(page, 4)).to_be_focused()
    cell(page, 5).focus()  # blank
    page.keyboard.press("Backspace")
    expect(cell(page, 4)).to_have_value("")
    expect(cell(page, 4)).to_be_focused()
    # The grid is one Tab stop: Tab leaves it.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "paste"


def test_copy_link_button_copies_the_share_link(tab: Callable[..., Page], live_server: str) -> None:
    page = tab(permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server}/p/{EASY}")
    button = page.get_by_role("button", name="Copy link")
    expect(button).to_be_visible()
    button.click()
    expect(page.locator(".copy-status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == f"{live_server}/p/{EASY}"


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 740})
def test_the_grid_fits_a_360_px_phone(page: Page, live_server: str) -> None:
    for path in ("/", f"/p/{EASY}"):
        page.goto(live_server + path)
        box = page.locator("table.grid").first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
