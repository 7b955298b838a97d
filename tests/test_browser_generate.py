"""The New puzzle form in Debian's Chromium: keyboard, phone width, landing on the play page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# The play page's path (play16's /play route); checked on the 303 itself, so the test does not
# depend on that page being there.
PLAY = re.compile(r"^/[0-9]{81}/play(\?from=pool)?$")


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 740})
def test_new_puzzle_by_keyboard_at_phone_width(page: Page, live_server: str) -> None:
    """Pick a variant and a grade with the keyboard, press New puzzle: the browser is sent
    (303) to the new puzzle's play page, its share link plus /play. The form fits 360 px."""
    page.goto(live_server + "/new")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    variant = page.get_by_label("Variant")
    variant.focus()
    variant.select_option(label="X-sudoku")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Difficulty")).to_be_focused()
    page.get_by_label("Difficulty").select_option("Easy")
    with page.expect_response(re.compile(r"/new\?v=x&grade=Easy$")) as sent:
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    assert sent.value.status == 303
    assert PLAY.search(sent.value.headers["location"].replace("/x/", "/", 1))


def test_the_main_form_offers_a_new_puzzle(page: Page, live_server: str) -> None:
    page.goto(live_server + "/?v=hyper")
    expect(page.get_by_label("Variant")).to_have_value("hyper")
    with page.expect_response(re.compile(r"/new\?v=hyper&grade=Medium$")) as sent:
        page.get_by_role("button", name="New puzzle").click()
    assert sent.value.status == 303
    assert PLAY.search(sent.value.headers["location"].replace("/hyper/", "/", 1))


def test_killer_offers_only_the_grades_made_live(page: Page, live_server: str) -> None:
    """With Killer picked the Difficulty list holds only its live grades; pressing New puzzle
    lands on a killer's play page (or, on a box too busy for the deadline, says so)."""
    page.goto(live_server + "/new")
    page.get_by_label("Variant").select_option("killer")
    grades = page.get_by_label("Difficulty").locator("option")
    expect(grades).to_have_text(["Easy", "Medium"])
    page.get_by_label("Difficulty").select_option("Easy")
    with page.expect_response(re.compile(r"/new\?v=killer&grade=Easy$")) as sent:
        page.get_by_role("button", name="New puzzle").click()
    if sent.value.status == 303:
        assert re.match(r"^/killer/[^/]+/0{81}/play$", sent.value.headers["location"])
    else:
        assert sent.value.status == 422
        expect(page.get_by_role("alert")).to_contain_text("time ran out")
