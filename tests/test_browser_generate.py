"""The New puzzle form in Debian's Chromium: keyboard, phone width, landing on the play page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 740})
def test_new_puzzle_by_keyboard_at_phone_width(page: Page, live_server: str) -> None:
    """Pick a variant and a grade with the keyboard, press New puzzle: the new puzzle's play
    page opens (its share link plus /play). The form fits a 360 px screen."""
    page.goto(live_server + "/new")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    variant = page.get_by_label("Variant")
    variant.focus()
    variant.select_option(label="X-sudoku")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Difficulty")).to_be_focused()
    page.get_by_label("Difficulty").select_option("Easy")
    with page.expect_navigation():
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/x/[0-9]{81}/play(\?from=pool)?$"))


def test_the_main_form_offers_a_new_puzzle(page: Page, live_server: str) -> None:
    page.goto(live_server + "/?v=hyper")
    expect(page.get_by_label("Variant")).to_have_value("hyper")
    page.get_by_role("button", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/hyper/[0-9]{81}/play(\?from=pool)?$"))
