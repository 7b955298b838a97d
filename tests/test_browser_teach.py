"""Browser journeys for the teaching pages: Hint from the form, steps from a result page,
the difficulty panel (fetched into the result page, or framed without JavaScript)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from web_puzzles import EASY, SIXTEEN_PUZZLE

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
    expect(page.locator(".difficulty #difficulty-panel")).to_contain_text("For a person")
    page.get_by_role("link", name="See how it is solved, step by step").click()
    expect(page).to_have_url(f"{live_server}/p/{EASY}/steps")
    expect(page.locator("#step-1 .sentence")).to_be_visible()
    # Nothing overflows the phone's width but the (scrollable) grids; layout needs the
    # new page's stylesheet, so wait for it.
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


def _watch_console(page: Page) -> list[str]:
    """Console errors and CSP complaints (a refused frame is reported there)."""
    problems: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(message.text)

    page.on("console", on_console)
    return problems


def test_difficulty_panel_is_fetched_into_the_result_page(page: Page, live_server: str) -> None:
    problems = _watch_console(page)
    page.goto(f"{live_server}/p/{EASY}")
    panel = page.locator(".difficulty .difficulty-slot #difficulty-panel")
    expect(panel).to_contain_text("For a person: Easy")
    expect(panel).to_contain_text("For the engine")
    expect(panel.locator(".grade-scale li[aria-current=true]")).to_have_text("Easy")
    # Inline, not framed, and the waiting note is gone.
    expect(page.locator("iframe")).to_have_count(0)
    expect(page.locator(".difficulty")).not_to_contain_text("Working out the grades")
    expect(page.get_by_role("link", name="The engine's search")).to_be_visible()
    assert problems == []


def test_difficulty_panel_that_fails_to_load_leaves_a_link(page: Page, live_server: str) -> None:
    def fail(route: Route) -> None:
        route.fulfill(status=503, body="busy")

    page.route("**/difficulty?embed=1", fail)  # the slot asks for the embedded panel
    page.goto(f"{live_server}/p/{EASY}")
    slot = page.locator(".difficulty-slot")
    expect(slot).to_contain_text("The grades could not be loaded here.")
    link = slot.get_by_role("link", name="See the grades")
    expect(link).to_have_attribute("href", f"/p/{EASY}/difficulty")
    expect(page.locator("#difficulty-panel")).to_have_count(0)


@pytest.mark.browser_context_args(java_script_enabled=False)
def test_difficulty_panel_is_framed_without_javascript(page: Page, live_server: str) -> None:
    problems = _watch_console(page)
    page.goto(f"{live_server}/p/{EASY}")
    frame = page.locator(".difficulty iframe.difficulty-frame")
    expect(frame).to_be_visible()
    expect(frame).to_have_attribute("src", f"/p/{EASY}/difficulty?embed=1")
    # The frame's page loads: its CSP lets the site itself frame it.
    panel = page.frame_locator("iframe.difficulty-frame").locator("#difficulty-panel")
    expect(panel).to_contain_text("For a person: Easy")
    expect(panel).to_contain_text("For the engine")
    expect(page.locator(".difficulty #difficulty-panel")).to_have_count(0)  # nothing moved in
    expect(page.locator(".difficulty")).not_to_contain_text("Working out the grades")
    assert problems == []


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_16x16_hint_grid_fits_a_phone(
    tab: Callable[..., Page], live_server: str, js: bool, scheme: str
) -> None:
    """At 375 px the hint's 16x16 pencil grid is within the screen: nothing scrolls sideways."""
    page = tab(java_script_enabled=js, viewport={"width": 375, "height": 800}, color_scheme=scheme)
    page.goto(live_server + "/?v=16x16")
    page.fill("textarea[name=paste]", SIXTEEN_PUZZLE)
    page.locator("button[formaction$='/hint']").click()
    page.wait_for_url(live_server + "/hint")
    page.wait_for_load_state("load")  # its stylesheets applied, as a person sees it
    grid = page.locator(".hint-panel table.pm-grid")
    expect(grid).to_be_visible()
    box = grid.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    holder = page.locator(".hint-panel .pm-scroll")
    assert holder.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
