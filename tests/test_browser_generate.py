"""The New puzzle form in Debian's Chromium: keyboard, phone width, landing on the play page."""

from __future__ import annotations

import re
from collections.abc import Callable

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


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("width", [1280, 375])
def test_a_killer_of_every_grade(
    tab: Callable[..., Page], live_server: str, js: bool, width: int
) -> None:
    """With Killer picked every grade is offered, and each lands on a killer's play page
    (cages, no givens in its link) at once, with or without JavaScript."""
    page = tab(java_script_enabled=js, viewport={"width": width, "height": 900})
    for grade in ("Easy", "Medium", "Hard", "Fiendish", "Diabolical"):
        page.goto(live_server + "/new")
        page.get_by_label("Variant").select_option("killer")
        grades = page.get_by_label("Difficulty").locator("option")
        expect(grades).to_have_text(["Easy", "Medium", "Hard", "Fiendish", "Diabolical"])
        page.get_by_label("Difficulty").select_option(grade)
        with page.expect_response(re.compile(rf"/new\?v=killer&grade={grade}$")) as sent:
            page.get_by_role("button", name="New puzzle").click()
        assert sent.value.status == 303
        assert re.match(r"^/killer/[^/]+/play\?from=pool$", sent.value.headers["location"])
        expect(page.locator("h1")).to_be_visible()
        page.wait_for_load_state("load")  # its stylesheet applied before the width is measured
        assert page.evaluate("document.documentElement.scrollWidth") <= width


X_PUZZLE = "000060000250000000000301000000050000804020050030000000000692000790000000008100000"


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize(
    ("path", "variant", "size"),
    [(f"/x/{X_PUZZLE}", "x", ""), ("/p/003000410003020004640000000100006030", "6x6", "6")],
    ids=["x", "6x6"],
)
def test_new_puzzle_on_a_puzzles_page_keeps_its_variant(
    tab: Callable[..., Page],
    live_server: str,
    js: bool,
    width: int,
    path: str,
    variant: str,
    size: str,
) -> None:
    page = tab(java_script_enabled=js, viewport={"width": width, "height": 900})
    page.goto(live_server + path)
    page.get_by_role("navigation", name="Site").get_by_role("link", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/new\?variant="))
    assert ("size=" + size in page.url) == bool(size)
    expect(page.get_by_label("Variant")).to_have_value(variant)
