"""What a new user meets first, in Debian's Chromium at a laptop's and a phone's width: one name
per thing, a hint that keeps its cell in view and its digit to itself, readable chain drawings,
a printed fix, dark mode, and the smaller points (the New puzzle form, the play page's clock
and help, the difficulty frame, the keyboard rule every grid shares)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from test_steps_drawing import chain_puzzle
from web_puzzles import EASY, EASY_SOLUTION, EASY_TYPO

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 800}


# ---- One name for one thing ---------------------------------------------------------------


def test_new_puzzle_means_the_generator_everywhere(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY}")
    header = page.locator(".site-header nav")
    expect(header.get_by_role("link", name="Solve a puzzle")).to_have_attribute("href", "/")
    expect(header.get_by_role("link", name="New puzzle")).to_have_attribute("href", "/new")
    # On the result page, the empty solver form is "Solve another", never "New puzzle".
    expect(page.locator("main").get_by_role("link", name="New puzzle")).to_have_count(0)
    expect(page.get_by_role("link", name="Solve another")).to_be_visible()
    # The home page's New puzzle button and the header's New puzzle lead to the same form.
    page.goto(live_server + "/")
    assert page.locator("form.new-puzzle").get_attribute("action") == "/new"
    header.get_by_role("link", name="New puzzle").click()
    expect(page.locator("h1")).to_have_text("New puzzle")


# ---- The form's hint ----------------------------------------------------------------------


def _hint_at_phone_width(page: Page, live_server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/?p={EASY}")
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator(".hint-panel h2")).to_contain_text("Next:")


def test_the_hints_grid_keeps_its_cell_in_view_on_a_phone(page: Page, live_server: str) -> None:
    _hint_at_phone_width(page, live_server)
    box = page.locator(".hint-panel .pm-scroll")
    # The whole grid fits its box: nothing to scroll, column 9 on screen.
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    last_column = page.locator(".hint-panel .pm-grid tr >> nth=0").locator("td >> nth=8")
    right = last_column.bounding_box()
    assert right and right["x"] + right["width"] <= PHONE["width"]
    target = page.locator(".hint-panel td.target").first.bounding_box()
    assert target and 0 <= target["x"] and target["x"] + target["width"] <= PHONE["width"]


def test_the_hint_keeps_the_digit_behind_the_fold(page: Page, live_server: str) -> None:
    _hint_at_phone_width(page, live_server)
    heading = page.locator(".hint-panel h2").inner_text()
    cell = re.search(r"at (r\d+c\d+)", heading)
    assert cell, heading
    # The cell the hint fills shows no candidate before the reasoning is opened (after the
    # steps before it, one candidate left would be the digit).
    asked = page.locator(f'.hint-panel td[aria-label^="{cell.group(1)}:"]')
    expect(asked).to_have_count(1)
    expect(asked.locator(".pm i")).to_have_count(0)
    expect(asked).to_have_text("?")
    digit = EASY_SOLUTION[(int(cell.group(1)[1]) - 1) * 9 + int(cell.group(1)[3]) - 1]
    assert digit not in asked.inner_text()
    expect(page.locator(".hint-panel details ol")).not_to_be_visible()


# ---- Chain drawings -----------------------------------------------------------------------


def test_a_chain_is_legible_and_reachable_on_a_phone(page: Page, live_server: str) -> None:
    puzzle, explanation, number = chain_puzzle()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/p/{puzzle}/steps?step={number}#step-{number}")
    step = page.locator(f"#step-{number}")
    mark = step.locator(".pm i").first
    size = mark.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 11, size  # about 7 px before
    box = step.locator(".pm-scroll")
    expect(box).to_have_attribute("tabindex", "0")
    box.focus()
    page.keyboard.press("ArrowRight")  # the keyboard scrolls the wider grid
    # Removed candidates are crossed out in red, as the legend says; circles mean placed.
    removed = len(explanation.steps[number - 1].eliminations)
    expect(step.locator("svg path.chain-elim")).to_have_count(removed)
    expect(step.locator("svg circle.chain-elim")).to_have_count(0)
    expect(page.locator(".legend")).to_contain_text("crossed out in red")


# ---- Print --------------------------------------------------------------------------------


def test_a_printed_impossible_page_keeps_the_fix(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY_TYPO}")
    fix = page.locator(".likely-fix .button").inner_text()
    page.emulate_media(media="print")
    expect(page.locator(".likely-fix .button")).to_be_hidden()
    expect(page.locator(".likely-fix .print-only")).to_be_visible()
    expect(page.locator(".likely-fix .print-only")).to_have_text(fix)


# ---- Markup and labels --------------------------------------------------------------------


def test_the_jigsaw_region_map_has_a_label(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=jigsaw")
    expect(page.get_by_label("Region map (letters)")).to_be_visible()


def test_the_difficulty_page_headings_do_not_skip_a_level(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY}/difficulty")
    levels = page.locator("h1, h2, h3, h4").evaluate_all("l => l.map(e => +e.tagName[1])")
    assert levels[0] == 1
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False)), levels
    # It is a page of the site: base.html's header and stylesheet.
    expect(page.locator("header.site-header .brand")).to_be_visible()


def test_the_played_grid_keeps_no_text_field_attributes(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY}/play")
    expect(page.locator(".pad")).to_be_visible()
    hidden = page.locator("table.play-grid input[type=hidden]")
    assert hidden.count() > 0
    for name in ("maxlength", "aria-invalid", "inputmode"):
        expect(page.locator(f"table.play-grid input[{name}]")).to_have_count(0)
    expect(page.locator("table.play-grid td[role]")).to_have_count(0)


# ---- Dark mode ----------------------------------------------------------------------------


def _luminance(css: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize(
    "path", ["/", f"/p/{EASY}", f"/p/{EASY}/steps", f"/p/{EASY}/play", "/?v=jigsaw"]
)
def test_dark_mode_follows_the_system(
    tab: Callable[..., Page], live_server: str, path: str
) -> None:
    page = tab(color_scheme="dark")
    page.goto(live_server + path)
    body = page.locator("body")
    assert _luminance(body.evaluate("e => getComputedStyle(e).backgroundColor")) < 0.2
    assert _luminance(body.evaluate("e => getComputedStyle(e).color")) > 0.7
    grid = page.locator("table.grid td").first
    assert _luminance(grid.evaluate("e => getComputedStyle(e).color")) > 0.5
    # Printing stays black on white, whatever the screen's scheme.
    page.emulate_media(media="print")
    assert _luminance(body.evaluate("e => getComputedStyle(e).backgroundColor")) > 0.9
    assert _luminance(body.evaluate("e => getComputedStyle(e).color")) < 0.2


# ---- Smaller points -----------------------------------------------------------------------


def test_new_puzzle_offers_only_what_exists(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/new")
    page.get_by_label("Variant").select_option("4x4")
    options = page.get_by_label("Difficulty").locator("option").all_inner_texts()
    assert options == ["Easy"]
    page.get_by_label("Variant").select_option("6x6")
    options = page.get_by_label("Difficulty").locator("option").all_inner_texts()
    assert "Diabolical" not in options and "Easy" in options
    page.get_by_label("Variant").select_option("")
    assert "Diabolical" in page.get_by_label("Difficulty").locator("option").all_inner_texts()


def test_new_puzzle_without_javascript_says_what_exists(
    tab: Callable[..., Page], live_server: str
) -> None:
    page = tab(java_script_enabled=False)
    page.goto(f"{live_server}/new")
    labels = page.get_by_label("Variant").locator("option").all_inner_texts()
    assert "4x4 (Easy only)" in labels
    assert "6x6 (no Diabolical)" in labels


def test_the_phone_help_shows_the_pad(page: Page, live_server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/p/{EASY}/play")
    expect(page.locator(".play-help .help-pad")).to_be_visible()
    expect(page.locator(".play-help .help-keys")).to_be_hidden()
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator(".play-help .help-keys")).to_be_visible()
    expect(page.locator(".play-help .help-pad")).to_be_hidden()


def test_the_solved_message_and_the_clock_agree(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY}/play")
    page.evaluate("window.localStorage.clear()")
    page.reload()
    expect(page.locator(".pad")).to_be_visible()
    page.locator('td[data-cell="0"]').click()
    for i, ch in enumerate(EASY):
        if ch == "0":
            page.locator(f'td[data-cell="{i}"]').click()
            page.keyboard.press(EASY_SOLUTION[i])
    panel = page.locator("#play-panel")
    expect(panel).to_contain_text("Solved!")
    said = re.search(r"Time taken: (?:(\d+) minutes? )?(\d+) seconds?", panel.inner_text())
    assert said, panel.inner_text()
    minutes, seconds = int(said.group(1) or 0), int(said.group(2))
    clock = page.locator(".play-time").inner_text()
    assert clock == f"{minutes}:{seconds:02d}", (clock, said.group(0))


def test_no_blank_band_under_the_difficulty_frame(
    tab: Callable[..., Page], live_server: str
) -> None:
    for width in (1280, 375):
        page = tab(java_script_enabled=False, viewport={"width": width, "height": 900})
        page.goto(f"{live_server}/p/{EASY}/play")
        frame = page.locator("iframe.difficulty-frame")
        outer = frame.bounding_box()
        inner = frame.content_frame.locator("main").bounding_box()
        assert outer and inner
        assert outer["height"] - inner["height"] < 60, (width, outer, inner)
        assert inner["height"] <= outer["height"], (width, outer, inner)  # nothing cut


def test_every_grid_moves_by_one_keyboard_rule(page: Page, live_server: str) -> None:
    """The form, the play page and the region painter: ArrowRight at a row's end runs on into
    the next row, ArrowUp at the top wraps to the bottom."""
    page.goto(f"{live_server}/?v=jigsaw&n=6")
    painter = page.locator(".paint-grid td").first
    painter.focus()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".paint-grid td").nth(6)).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator(".paint-grid td").nth(30)).to_be_focused()
    page.goto(f"{live_server}/")
    page.locator("#cells-8").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#cells-9")).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#cells-72")).to_be_focused()
