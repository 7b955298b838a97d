"""Browser journeys for the teaching pages: Hint from the form, steps from a result page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from web_puzzles import EASY

pytestmark = pytest.mark.browser


def test_hint_button_shows_the_next_step_and_keeps_the_grid(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?p={EASY}")
    page.get_by_role("button", name="Hint").click()
    expect(page).to_have_url(f"{live_server}/hint")
    panel = page.locator(".hint-panel")
    expect(panel.get_by_role("heading")).to_have_text("Next: hidden single at r1c6")
    expect(page.locator("#cells-2")).to_have_value("3")  # the grid as it was
    # The reasoning stays folded until asked for.
    expect(panel.locator("details li")).to_be_hidden()
    panel.locator("summary").click()
    expect(panel.locator("details li").first).to_contain_text("1 can only go in r1c6")
    # Type the hinted digit and ask again: the next hint is about another cell.
    page.locator("#cells-5").fill("1")
    page.get_by_role("button", name="Hint").click()
    expect(panel.get_by_role("heading")).not_to_have_text("Next: hidden single at r1c6")


def test_open_the_steps_page_from_a_result_page(page: Page, live_server: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server}/p/{EASY}")
    expect(page.locator(".difficulty")).to_contain_text("For a person")
    page.get_by_role("link", name="See how it is solved, step by step").click()
    expect(page).to_have_url(f"{live_server}/p/{EASY}/steps")
    expect(page.locator("#step-1 .sentence")).to_be_visible()
    # Nothing overflows the phone's width but the (scrollable) grids; layout needs the
    # new page's stylesheet, so wait for it.
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
