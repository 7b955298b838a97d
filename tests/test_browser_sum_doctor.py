"""A mistyped cage sum in Debian's Chromium: the 422 page names the cage and its likely sum,
and its button (reached from the keyboard) opens the corrected killer, solved.

On failure, a screenshot of each page the test opened is saved under ``test-results/``
(conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data" / "killer_krazydad.txt"
CAGE_MAP, SUMS, SOLUTION = DATA.read_text().split()[0].split(":")
EMPTY = "0" * 81


def test_the_fix_for_a_mistyped_sum_opens_the_solved_killer(page: Page, live_server: str) -> None:
    totals = SUMS.split(",")
    typed = [*totals[:5], str(int(totals[5]) + 1), *totals[6:]]
    page.goto(f"{live_server}/killer/{CAGE_MAP}-{'-'.join(typed)}/{EMPTY}")
    expect(page.get_by_role("heading", name="Not a valid puzzle")).to_be_visible()
    fix = page.locator(".sum-doctor .likely-fix a")
    expect(fix).to_have_text(
        re.compile(r"^The cage at r\dc\d \(\d cells?\) adds up to \d+, not \d+\?$")
    )
    fix.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=re.compile("Solved"))).to_be_visible()
    cells = page.locator("table.grid td")
    expect(cells).to_have_count(81)
    # Each cell's digit is its last text (a cage's first cell also holds the sum).
    digits = cells.evaluate_all("tds => tds.map(td => td.lastChild.textContent.trim())")
    assert "".join(digits) == SOLUTION
