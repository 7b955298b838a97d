"""Playing a shared puzzle in Debian's Chromium: ``<share link>/play`` with JavaScript on
(static/play.js) and off (the plain form)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from page_errors import watch_errors
from playwright.sync_api import Locator, Page, expect
from web_puzzles import EASY, EASY_SOLUTION, JIGSAW_PUZZLE, JIGSAW_REGIONS, SIXTEEN_PUZZLE

from sudoku_web.core.solver import solve

pytestmark = pytest.mark.browser

# top95 #20: no single at the start (the hint needs eliminations first); a pencil mark of the
# right digit alone in r1c1 makes that cell a naked single, the first step there is.
NO_SINGLES = "008400030000300000900001574790008000000007005140000020009060002050000400000090056"


def cell(page: Page, index: int) -> Locator:
    return page.locator(f'td[data-cell="{index}"]')


@pytest.fixture
def play(page: Page, live_server: str) -> Iterator[Page]:
    """The play page of EASY with empty storage; afterwards, no script error and no CSP
    violation may have happened (the page's strict policy holds with play.js at work)."""
    problems = watch_errors(page)
    open_fresh(page, f"{live_server}/p/{EASY}/play")
    yield page
    assert problems == []


def open_fresh(page: Page, url: str) -> None:
    """A play page with nothing stored for it, once play.js has run."""
    page.goto(url)
    page.evaluate("window.localStorage.clear()")
    page.reload()
    expect(page.locator(".pad")).to_be_visible()


def test_enter_a_digit_pencil_marks_undo_and_redo(play: Page) -> None:
    page = play
    cell(page, 0).click()  # r1c1 is open in EASY
    page.keyboard.press("4")
    expect(cell(page, 0).locator(".value")).to_have_text("4")
    expect(cell(page, 0)).to_have_attribute("aria-label", "Row 1, column 1: 4")
    expect(page.locator("p[aria-live]")).to_have_text("Row 1, column 1: 4")  # said, too
    # The same digit elsewhere is highlighted: r3c7 holds a given 4.
    expect(cell(page, 24)).to_have_class(re.compile(r"\bsame\b"))
    # Shift + digit notes a pencil mark in r1c2, without the pencil toggle.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Digit8")
    page.keyboard.press("Shift+Digit5")
    expect(cell(page, 1).locator(".marks")).to_have_text("58")
    expect(cell(page, 1)).to_have_attribute(
        "aria-label", "Row 1, column 2: blank, pencil marks 5 8"
    )
    # The pencil toggle on the pad: a plain digit becomes a mark too.
    page.get_by_role("button", name="Pencil").click()
    expect(page.get_by_role("button", name="Pencil")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("9")
    expect(cell(page, 1).locator(".marks")).to_have_text("589")
    page.get_by_role("button", name="Pencil").click()
    # Undo walks back one change at a time; redo brings it back.
    page.keyboard.press("Control+z")
    expect(cell(page, 1).locator(".marks")).to_have_text("58")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    expect(cell(page, 1).locator(".marks")).to_have_text("")
    page.keyboard.press("Control+y")
    expect(cell(page, 1).locator(".marks")).to_have_text("8")
    page.get_by_role("button", name="Undo").click()
    page.get_by_role("button", name="Undo").click()
    expect(cell(page, 0).locator(".value")).to_have_text("")
    page.get_by_role("button", name="Redo").click()
    expect(cell(page, 0).locator(".value")).to_have_text("4")


def test_grid_is_one_tab_stop_and_arrows_wrap_to_the_next_row(play: Page) -> None:
    page = play
    cell(page, 7).click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(cell(page, 9)).to_be_focused()  # r1c9 -> r2c1
    page.keyboard.press("ArrowLeft")
    expect(cell(page, 8)).to_be_focused()
    page.keyboard.press("Home")
    expect(cell(page, 0)).to_be_focused()
    page.keyboard.press("End")
    expect(cell(page, 8)).to_be_focused()
    # Givens are in the walk too, and say so.
    expect(cell(page, 2)).to_have_attribute("aria-label", "Row 1, column 3: 3 (given)")
    # One Tab leaves the grid: only the selected cell is in the tab order.
    assert page.locator('td[data-cell][tabindex="0"]').count() == 1
    page.keyboard.press("Tab")
    expect(page.locator("td[data-cell]:focus")).to_have_count(0)


def test_conflicts_show_as_they_happen_and_check_marks_a_wrong_entry(play: Page) -> None:
    page = play
    cell(page, 0).click()
    page.keyboard.press("9")  # r2c1 holds a given 9: a conflict at once
    expect(cell(page, 0)).to_have_class(re.compile(r"\bconflict\b"))
    expect(cell(page, 9)).to_have_class(re.compile(r"\bconflict\b"))
    page.keyboard.press("5")  # no conflict, but not the solution's 4
    expect(cell(page, 0)).not_to_have_class(re.compile(r"\bconflict\b"))
    cell(page, 1).click()
    page.keyboard.press(EASY_SOLUTION[1])  # a right entry is not marked
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#play-panel")).to_have_text("1 entry is wrong: r1c1 (marked in the grid).")
    expect(cell(page, 0)).to_have_class(re.compile(r"\bwrong\b"))
    expect(cell(page, 1)).not_to_have_class(re.compile(r"\bwrong\b"))
    # After clicking Check, typing goes on in the grid: the fix clears the mark.
    expect(cell(page, 1)).to_be_focused()
    cell(page, 0).click()
    page.keyboard.press("6")
    expect(cell(page, 0)).not_to_have_class(re.compile(r"\bwrong\b"))
    page.keyboard.press("5")
    # The check never told the right digit: nothing on the page shows a 4 in r1c1.
    expect(cell(page, 0).locator(".value")).to_have_text("5")


def test_reveal_a_cell(play: Page) -> None:
    page = play
    cell(page, 3).click()  # r1c4
    page.get_by_role("button", name="Reveal a cell").click()
    expect(cell(page, 3).locator(".value")).to_have_text(EASY_SOLUTION[3])
    expect(cell(page, 3)).to_have_attribute(
        "aria-label", f"Row 1, column 4: {EASY_SOLUTION[3]} (revealed)"
    )
    # A revealed cell is locked like a given.
    page.keyboard.press("1")
    expect(cell(page, 3).locator(".value")).to_have_text(EASY_SOLUTION[3])


def test_hint_starts_from_the_persons_pencil_marks(page: Page, live_server: str) -> None:
    solution = solve(NO_SINGLES).solutions[0]
    page.goto(f"{live_server}/p/{NO_SINGLES}/play")
    page.evaluate("window.localStorage.clear()")
    page.reload()
    page.get_by_role("button", name="Hint").click()
    heading = page.locator("#play-panel h2")
    expect(heading).to_contain_text("Next: ")
    expect(heading).not_to_have_text("Next: naked single at r1c1")  # from the digits alone
    cell(page, 0).click()
    page.keyboard.press("Shift+Digit" + solution[0])  # the right digit, alone, as a pencil mark
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#play-panel h2")).to_have_text("Next: naked single at r1c1")
    expect(cell(page, 0)).to_have_class(re.compile(r"\bhint-cell\b"))
    # The reasoning (which gives the digit away) waits behind a <details>.
    expect(page.locator("#play-panel details")).not_to_have_attribute("open", "")


def test_solve_to_the_end_and_progress_survives_a_reload(play: Page) -> None:
    page = play
    cell(page, 0).click()
    page.keyboard.press(EASY_SOLUTION[0])
    cell(page, 1).click()
    page.keyboard.press("Shift+Digit7")
    page.reload()
    expect(cell(page, 0).locator(".value")).to_have_text(EASY_SOLUTION[0])
    expect(cell(page, 1).locator(".marks")).to_have_text("7")
    # Type the rest in reading order (givens ignore typing), then "Solved!".
    cell(page, 1).click()
    for index in range(1, 81):
        if EASY[index] == "0":
            page.keyboard.press(EASY_SOLUTION[index])
        page.keyboard.press("ArrowRight")
    panel = page.locator("#play-panel")
    expect(panel.locator("h2")).to_have_text("Solved!")
    expect(panel).to_contain_text("Time taken:")
    # Solved is remembered too.
    page.reload()
    expect(page.locator("#play-panel h2")).to_have_text("Solved!")


def test_a_jigsaw_plays_with_its_regions(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/play")
    first_open = JIGSAW_PUZZLE.index("0")
    cell(page, first_open).click()
    # Its houses (row, column and region) are highlighted: r1c2 shares row 1.
    expect(cell(page, 1)).to_have_class(re.compile(r"\bpeer\b"))
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#play-panel")).to_contain_text("Nothing is wrong so far")


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 740})
def test_the_play_page_fits_a_360_px_phone(play: Page) -> None:
    page = play
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    box = page.locator("table.play-grid").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    # The pad's digits are thumb-sized and on screen.
    key = page.locator(".pad-key").first.bounding_box()
    assert key is not None and key["height"] >= 40
    cell(page, 0).click()
    page.locator('.pad-key[data-symbol="4"]').click()
    expect(cell(page, 0).locator(".value")).to_have_text("4")


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_check_and_hint_by_form_without_javascript(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY}/play")
    page.fill("#c0", "5")  # wrong (the solution has 4)
    page.fill("#c1", EASY_SOLUTION[1])
    page.fill("#c3", "19")  # several digits: pencil marks
    page.get_by_role("button", name="Check").click()
    expect(page).to_have_url(f"{live_server}/p/{EASY}/play")
    expect(page.locator("#play-panel")).to_contain_text("1 entry is wrong: r1c1")
    expect(page.locator("#c0")).to_have_value("5")  # entries kept
    expect(page.locator("#c0")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#c1")).to_have_value(EASY_SOLUTION[1])
    expect(page.locator("#c3")).to_have_value("19")
    page.fill("#c0", EASY_SOLUTION[0])
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#play-panel h2")).to_contain_text("Next:")
    expect(page.locator("#c0")).to_have_value(EASY_SOLUTION[0])
    expect(page.locator("#c3")).to_have_value("19")


def test_a_16x16_takes_letters_and_marks_them_with_shift(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{SIXTEEN_PUZZLE}/play")
    page.evaluate("window.localStorage.clear()")
    page.reload()
    first_open = SIXTEEN_PUZZLE.index("0")
    cell(page, first_open).click()
    page.keyboard.press("g")
    expect(cell(page, first_open).locator(".value")).to_have_text("G")
    page.keyboard.press("Backspace")
    page.keyboard.press("Shift+KeyA")
    page.keyboard.press("Shift+Digit9")
    expect(cell(page, first_open).locator(".marks")).to_have_text("9A")
    # The pad has all sixteen symbols.
    expect(page.locator(".pad-key[data-symbol]")).to_have_count(16)
