"""Playing a rules puzzle on a phone in Debian's Chromium: ``/rules/<givens>/<rules>/play`` at
375 px with JavaScript on (its Check and Hint ask ``/api/check`` and ``/api/hint`` about the
board by its rules), as tests/test_browser_play.py plays the classic one."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from page_errors import watch_errors
from playwright.sync_api import Locator, Page, expect
from test_browser_play import open_fresh
from test_rules_share_pages import PUZZLES, RulesPuzzle

pytestmark = pytest.mark.browser

# No givens: the diagonals, black dots and little-killer clues beside the grid are the puzzle.
PUZZLE: RulesPuzzle = next(p for p in PUZZLES if p.name == "sudokutools-07")


def cell(page: Page, index: int) -> Locator:
    return page.locator(f'td[data-cell="{index}"]')


@pytest.fixture
def play(page: Page, live_server: str) -> Iterator[Page]:
    """The puzzle's play page with empty storage; afterwards, no script error and no CSP
    violation may have happened."""
    problems = watch_errors(page)
    open_fresh(page, f"{live_server}{PUZZLE.link}/play")
    yield page
    assert problems == []


@pytest.mark.browser_context_args(viewport={"width": 375, "height": 812})
def test_a_rules_puzzle_plays_with_a_hint_on_a_phone(play: Page) -> None:
    page = play
    # Its rules are drawn around the grid, and the page fits the phone.
    expect(page.locator(".drawn svg.rules-over")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # A hint: the next step, read from the rules (no digit is given to start from).
    page.get_by_role("button", name="Hint").click()
    heading = page.locator("#play-panel h2")
    expect(heading).to_contain_text("Next: ")
    found = re.search(r"r(\d+)c(\d+)", heading.inner_text())
    assert found is not None
    hinted = (int(found[1]) - 1) * 9 + int(found[2]) - 1
    expect(cell(page, hinted)).to_have_class(re.compile(r"\bhint-cell\b"))
    # Take it, with the pad as on a phone.
    cell(page, hinted).click()
    page.locator(f'.pad-key[data-symbol="{PUZZLE.solution[hinted]}"]').click()
    expect(cell(page, hinted).locator(".value")).to_have_text(PUZZLE.solution[hinted])
    # A wrong digit elsewhere: Check names its cell, never its digit.
    other = next(i for i in range(81) if i != hinted)
    wrong = next(d for d in "123456789" if d != PUZZLE.solution[other])
    cell(page, other).click()
    page.keyboard.press(wrong)
    page.get_by_role("button", name="Check").click()
    name = f"r{other // 9 + 1}c{other % 9 + 1}"
    expect(page.locator("#play-panel")).to_contain_text(f"1 entry is wrong: {name}")
    expect(cell(page, other)).to_have_class(re.compile(r"\bwrong\b"))
    # Fixed, the grid checks clean; a second hint goes on from the two digits.
    cell(page, other).click()
    page.keyboard.press(PUZZLE.solution[other])
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#play-panel")).to_contain_text("Nothing is wrong so far")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#play-panel h2")).to_contain_text("Next: ")
    # The progress is kept for this board (its rules are part of the key).
    page.reload()
    expect(cell(page, hinted).locator(".value")).to_have_text(PUZZLE.solution[hinted])
    expect(cell(page, other).locator(".value")).to_have_text(PUZZLE.solution[other])
