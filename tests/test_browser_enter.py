"""Entering a puzzle and asking for a hint the way people do it, in Chromium.

Each test follows one finding of the issue: what a person types, pastes or presses, and what
then arrives at the server or shows on the page.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page, expect
from web_puzzles import (
    EASY,
    EASY_SOLUTION,
    EASY_TYPO,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    SIXTEEN_SOLUTION,
    X_PUZZLE,
)

from sudoku_web.core import solver_tables
from sudoku_web.core.board import standard
from sudoku_web.core.hints import hint_steps
from sudoku_web.core.logic import apply_step, next_step, pencil_marks
from sudoku_web.web.render.preview import GRID_SIDE, MARK, TOP, WIDTH, Frame

pytestmark = pytest.mark.browser

SOLVE = "input[type=submit][value=Solve]"
HINT = "button[formaction$='/hint']"
# A top95 puzzle whose first step from the plain pencil marks is not a single.
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def cell(page: Page, index: int) -> Any:
    return page.locator(f"#cells-{index}")


def grid_text(page: Page) -> str:
    """The editable grid's cells as one string, 0 for blanks."""
    values = page.locator("input.cell-input").evaluate_all("els => els.map(e => e.value)")
    return "".join(v or "0" for v in values)


# ---- 1. Edits after a paste count ---------------------------------------------------------


def test_paste_then_edit_a_cell_then_solve_sends_the_edited_grid(
    page: Page, live_server: str
) -> None:
    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", EASY.replace("0", "."))
    assert grid_text(page) == EASY  # the paste went into the grid
    cell(page, 0).click()
    page.keyboard.type(EASY_SOLUTION[0])
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{EASY_SOLUTION[0]}{EASY[1:]}")


def test_without_javascript_a_digit_typed_after_a_hint_is_what_solve_and_hint_send(
    tab: Callable[..., Page], live_server: str
) -> None:
    page = tab(java_script_enabled=False)
    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", EASY)
    page.click(HINT)
    heading = page.locator("#hint-heading").inner_text()
    # The hint page has the puzzle in the grid (and still in the box); type the hinted cell.
    assert grid_text(page) == EASY
    target = int(heading.split(" at r")[1][0]) - 1, int(heading.split("c")[-1][0]) - 1
    index = target[0] * 9 + target[1]
    cell(page, index).fill(EASY_SOLUTION[index])
    page.click(HINT)
    assert page.locator("#hint-heading").inner_text() != heading
    assert grid_text(page)[index] == EASY_SOLUTION[index]
    # And Solve sends the grid as typed: a conflicting digit is refused, not ignored.
    other = next(i for i in range(81) if EASY[i] == "0" and i != index)
    clash = EASY[next(i for i in range(other - other % 9, other - other % 9 + 9) if EASY[i] != "0")]
    cell(page, other).fill(clash)
    page.click(SOLVE)
    expect(page.locator(".problems")).to_contain_text(f"both hold {clash}")


# ---- 2. Keyboard ----------------------------------------------------------------------------


def test_a_puzzle_typed_as_digit_or_arrow_right_from_r1c1_arrives_intact(
    page: Page, live_server: str
) -> None:
    page.goto(live_server + "/")
    cell(page, 0).click()
    for ch in EASY:
        page.keyboard.press("ArrowRight" if ch == "0" else ch)
    assert grid_text(page) == EASY
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{EASY}")


def test_tab_leaves_the_grid_in_one_press_and_comes_back_to_the_same_cell(
    page: Page, live_server: str
) -> None:
    page.goto(live_server + "/")
    cell(page, 0).click()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    expect(cell(page, 10)).to_be_focused()
    page.keyboard.press("Tab")
    # Out of the grid in one press, on to what follows it (the cages' fold, then the paste box).
    assert page.evaluate("!document.activeElement.closest('table.grid')")
    page.keyboard.press("Shift+Tab")
    expect(cell(page, 10)).to_be_focused()
    # Only one cell of the 81 is in the Tab order.
    stops = page.locator("input.cell-input").evaluate_all(
        "els => els.filter(e => e.tabIndex >= 0).length"
    )
    assert stops == 1


def test_keys_clear_move_and_jump_like_people_expect(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    cell(page, 0).click()
    page.keyboard.type("123")
    expect(cell(page, 3)).to_be_focused()
    page.keyboard.press("Backspace")  # clears the 3 just typed and steps back to it
    expect(cell(page, 2)).to_be_focused()
    expect(cell(page, 2)).to_have_value("")
    page.keyboard.press("Home")
    expect(cell(page, 0)).to_be_focused()
    page.keyboard.press("Space")  # clears, moves on, no invisible space in the cell
    expect(cell(page, 0)).to_have_value("")
    expect(cell(page, 1)).to_be_focused()
    page.keyboard.press("Delete")
    expect(cell(page, 1)).to_have_value("")
    expect(cell(page, 2)).to_be_focused()
    page.keyboard.press("End")
    expect(cell(page, 8)).to_be_focused()
    page.keyboard.press("ArrowRight")  # a row's end runs on to the next row's start
    expect(cell(page, 9)).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(cell(page, 8)).to_be_focused()
    label = page.locator("label[for=cells-8]").inner_text()
    assert "Row 1, column 9" in label


# ---- 3. Blanks, labels, pencil marks --------------------------------------------------------


# Every message a page holds after Solve (shown or not, as a screen reader may find it): the
# problems list, alerts, live status lines.
MESSAGES = """() => Array.from(document.querySelectorAll(
  '.problems li, [role=alert] p, [role=status], .paste-status, .error, .errors li'
)).filter(e => e.textContent.trim()).map(e => e.textContent.trim())"""


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("how", ["box", "cell"])
def test_an_all_x_paste_gives_one_message(
    tab: Callable[..., Page], live_server: str, js: bool, width: int, how: str
) -> None:
    """81 x pasted into the box (or, with JavaScript, into a cell of the grid) and Solve: one
    message on the page, the empty grid's."""
    if how == "cell" and not js:
        pytest.skip("a paste into a cell is the script's")
    page = tab(
        java_script_enabled=js,
        viewport={"width": width, "height": 900},
        permissions=["clipboard-read", "clipboard-write"],
    )
    page.goto(live_server + "/")
    if how == "box":
        page.fill("textarea[name=paste]", "x" * 81)
    else:
        page.evaluate("t => navigator.clipboard.writeText(t)", "x" * 81)
        cell(page, 0).click()
        page.keyboard.press("Control+V")
    page.click(SOLVE)
    expect(page.locator(".problems li")).to_have_count(1)
    expect(page.locator(".problems li")).to_contain_text("The grid is empty")
    messages = page.evaluate(MESSAGES)
    assert len(messages) == 1 and messages[0].startswith("The grid is empty"), messages
    page.fill("textarea[name=paste]", "y" * 81)
    page.click(SOLVE)
    expect(page.locator(".problems li")).to_have_count(1)
    expect(page.locator(".problems li")).to_contain_text("r1c1")


@pytest.mark.parametrize(
    "text",
    [
        EASY.replace("0", "-"),
        EASY.replace("0", "_"),
        f"Puzzle #12: {EASY}",
        f"https://www.sudokuwiki.org/sudoku.htm?bd={EASY}",
    ],
    ids=["dashes", "underscores", "label", "sudokuwiki-link"],
)
def test_pastes_with_other_blanks_a_label_or_a_link_solve(
    tab: Callable[..., Page], live_server: str, text: str
) -> None:
    page = tab(java_script_enabled=False)
    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", text)
    page.click(SOLVE)
    expect(page).to_have_url(f"{live_server}/p/{EASY}")


def _flat(cand: Any) -> str:
    """A position as 729 characters: per cell nine places, the digit or a dot."""
    out = []
    for value, mask in zip(cand.values, cand.masks, strict=True):
        bits = 1 << (value - 1) if value else mask
        out.append("".join(str(d) if bits >> (d - 1) & 1 else "." for d in range(1, 10)))
    return "".join(out)


def test_a_729_character_candidate_grid_gets_a_hint_from_those_candidates(
    page: Page, live_server: str
) -> None:
    geo = standard(9)
    settled = pencil_marks(HARD, geo, reduce=True)  # the singles placed
    plain = pencil_marks(list(settled.values), geo)
    first = next_step(plain, geo)
    assert first is not None and first.eliminations and not first.placements
    # The person has already made the first step's eliminations in their pencil marks.
    theirs = apply_step(plain, first, geo)
    grid = list(plain.values)
    expected = hint_steps(grid, geo, start=theirs).steps
    from_digits = hint_steps(grid, geo).steps
    assert len(expected) < len(from_digits)  # their marks save them the first steps

    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", _flat(theirs))
    page.click(HINT)
    expect(page.locator("#hint-heading")).to_be_visible()
    page.locator(".hint-panel details summary").click()
    shown = page.locator(".hint-panel details li strong").all_inner_texts()
    assert shown == [s.technique for s in expected]
    # The grid shows their placed cells; the box keeps their marks for the next hint.
    assert grid_text(page) == "".join(str(v) for v in plain.values)
    assert len(page.locator("textarea[name=paste]").input_value()) == 729


# ---- 4. Hints that point --------------------------------------------------------------------


def test_a_wrong_entry_is_marked_in_the_hints_grid_and_entries_look_unlike_givens(
    page: Page, live_server: str
) -> None:
    page.goto(f"{live_server}/?p={EASY}")  # "Edit this puzzle": the givens are known
    geo = standard(9)
    seen = {int(EASY[p]) for p in geo.peers[0] if EASY[p] != "0"}
    wrong = next(d for d in range(1, 10) if d not in seen and str(d) != EASY_SOLUTION[0])
    cell(page, 0).click()
    page.keyboard.type(str(wrong))
    cell(page, 9 + 1).click()  # r2c2 is blank in EASY: a right entry
    page.keyboard.type(EASY_SOLUTION[10])
    page.click(HINT)
    expect(page.locator("#hint-heading")).to_contain_text("Check this cell")
    marked = page.locator("table.grid.editable td.wrong")
    expect(marked).to_have_count(1)
    expect(marked.locator("input")).to_have_attribute("id", "cells-0")
    expect(cell(page, 0)).to_have_attribute("aria-invalid", "true")
    assert "check this cell" in page.locator("label[for=cells-0]").inner_text()
    # The right entry (r2c2) is drawn apart from a given (r1c3).
    entry, given = cell(page, 10), cell(page, 2)
    assert "your entry" in page.locator("label[for=cells-10]").inner_text()
    assert "given" in page.locator("label[for=cells-2]").inner_text()
    style = "e => getComputedStyle(e).color + ' ' + getComputedStyle(e).fontWeight"
    assert entry.evaluate(style) != given.evaluate(style)


# ---- 5. The impossible page -----------------------------------------------------------------


def test_the_impossible_page_leads_with_the_likely_fix(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY_TYPO}")
    fix = page.locator(".likely-fix a")
    expect(fix).to_contain_text("r1c3")
    grid = page.locator("table.grid").first
    assert fix.bounding_box()["y"] < grid.bounding_box()["y"]  # type: ignore[index]
    # The conflicting givens are marked, more quietly than a refused entry.
    marked = page.locator("table.grid td.invalid").first
    style = marked.evaluate("e => getComputedStyle(e).boxShadow")
    assert style == "none"
    fix.click()
    expect(page.locator("h1")).to_have_text("Solved")


def test_the_preview_of_an_impossible_puzzle_tints_the_conflict(
    page: Page, live_server: str
) -> None:
    page.goto(f"{live_server}/p/{EASY_TYPO}")
    image_url = page.locator("meta[property='og:image']").get_attribute("content")
    assert image_url is not None
    response = page.request.get(image_url)
    assert response.ok
    image = Image.open(io.BytesIO(response.body())).convert("RGB")
    marked = page.locator("table.grid td").evaluate_all(
        "tds => tds.map((td, i) => td.classList.contains('invalid') ? i : -1).filter(i => i >= 0)"
    )
    assert 2 in marked  # r1c3, the typo
    cell_side = GRID_SIDE // 9
    frame = Frame(9, cell_side, (WIDTH - cell_side * 9) // 2, TOP)  # no rules: no room beside
    for index in range(81):
        x, y = frame.corner(index)
        pixel = image.getpixel((x + 4, y + 4))
        assert (pixel == MARK) == (index in marked), index


# ---- 6. Jigsaw ------------------------------------------------------------------------------


def test_a_fresh_jigsaw_form_has_no_regions_until_the_person_sets_them(
    tab: Callable[..., Page], live_server: str
) -> None:
    page = tab(java_script_enabled=False)
    page.goto(f"{live_server}/?v=jigsaw")
    expect(page.locator("textarea[name=regions]")).to_have_value("")
    expect(page.locator("table.grid.editable td.bt, table.grid.editable td.bl")).to_have_count(0)
    page.fill("textarea[name=paste]", JIGSAW_PUZZLE)
    page.click(SOLVE)
    expect(page.locator(".problems")).to_contain_text("Set the regions first")
    # The example map is there, clearly labelled, for whoever wants it.
    page.get_by_role("link", name="Start from the example map").click()
    rows = [JIGSAW_REGIONS[r * 9 : r * 9 + 9] for r in range(9)]
    expect(page.locator("textarea[name=regions]")).to_have_value("\n".join(rows))


def test_painting_one_cell_keeps_every_other_regions_colour(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=jigsaw&n=4")
    page.fill("textarea[name=regions]", "AABBAABBCCDDCCDD")
    tints = page.locator("table.grid.editable td").evaluate_all(
        "tds => tds.map(td => (td.className.match(/rg-\\d+/) || [''])[0])"
    )
    assert tints[:4] == ["rg-0", "rg-0", "rg-1", "rg-1"]
    page.locator(".palette button", has_text="B").click()
    page.locator(".paint-grid td").first.click()
    after = page.locator("table.grid.editable td").evaluate_all(
        "tds => tds.map(td => (td.className.match(/rg-\\d+/) || [''])[0])"
    )
    assert after[0] == "rg-1" and after[1:] == tints[1:]


def test_a_refused_region_map_comes_back_as_n_rows_of_n(
    tab: Callable[..., Page], live_server: str
) -> None:
    page = tab(java_script_enabled=False)
    page.goto(f"{live_server}/?v=jigsaw")
    page.fill("textarea[name=regions]", JIGSAW_REGIONS[:-1] + "A")  # one line, H short
    page.fill("textarea[name=paste]", JIGSAW_PUZZLE)
    page.click(SOLVE)
    expect(page.locator(".problems")).to_contain_text("Region 'H' has 8 cells")
    value = page.locator("textarea[name=regions]").input_value()
    assert [len(line) for line in value.splitlines()] == [9] * 9
    box = page.locator("textarea[name=regions]")
    # Drawn without wrapping: as many lines on screen as in the text.
    line_height = box.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20")
    assert box.evaluate("e => e.scrollHeight") < line_height * 12


# ---- 7. Smaller points ----------------------------------------------------------------------


def test_solve_another_on_a_variants_page_stays_on_that_variant(
    page: Page, live_server: str
) -> None:
    page.goto(f"{live_server}/x/{X_PUZZLE}")
    page.locator(".share a.button", has_text="Solve another").click()
    expect(page).to_have_url(f"{live_server}/?v=x")
    expect(page.locator("h1")).to_contain_text("X")
    page.goto(f"{live_server}/x/{X_PUZZLE}")
    page.locator(".site-header a", has_text="Solve a puzzle").click()
    expect(page).to_have_url(f"{live_server}/?v=x")


def test_the_difficulty_page_on_its_own_has_the_sites_style(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/p/{EASY}/difficulty")
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.locator("h1")).to_have_text("How hard is it?")
    padding = page.locator("main").evaluate("e => parseFloat(getComputedStyle(e).paddingLeft)")
    assert padding > 0
    icon = page.request.get(f"{live_server}/favicon.ico")
    assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml")


@pytest.mark.parametrize(
    ("width", "path"),
    [(1280, "/p/{}"), (360, "/p/{}"), (360, "/p/{}/difficulty")],
    ids=["result-page", "result-page-phone", "difficulty-page-phone"],
)
def test_diabolical_does_not_wrap_alone(
    page: Page, live_server: str, width: int, path: str
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server + path.format(EASY))
    pills = page.locator(".grade-scale li")
    expect(pills.last).to_have_text("Diabolical")
    tops = {round(box["y"]) for box in (p.bounding_box() for p in pills.all()) if box}
    assert len(tops) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_back_after_solving_keeps_the_pasted_puzzle(
    tab: Callable[..., Page], live_server: str, js: bool
) -> None:
    page = tab(java_script_enabled=js)
    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", EASY)
    page.click(SOLVE)
    expect(page.locator("h1")).to_have_text("Solved")
    page.go_back()
    expect(page.locator("input.cell-input").first).to_be_attached()
    kept = grid_text(page) == EASY or page.locator("textarea[name=paste]").input_value() == EASY
    assert kept


def test_time_on_an_easy_16x16_leaves_out_the_table_build(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fresh 16x16 geometry whose table build takes two seconds: the time shown is the
    # solve's, which is far less even on a box busy with other work.
    easy = "".join("0" if i % 7 == 0 else ch for i, ch in enumerate(SIXTEEN_SOLUTION))
    build = solver_tables._Tables.__init__

    def slow_build(self: Any, geo: Any) -> None:
        time.sleep(2)
        build(self, geo)

    geo = standard(16)
    monkeypatch.setattr(solver_tables._Tables, "__init__", slow_build)
    monkeypatch.delitem(geo.__dict__, "_engine_tables", raising=False)
    page.goto(f"{live_server}/p/{easy}")
    expect(page.locator("h1")).to_have_text("Solved")
    shown = page.locator(".stats dt", has_text="Time").locator("xpath=../dd").inner_text()
    assert float(shown.split()[0]) < 2000


def test_print_the_puzzle_from_the_form_and_from_a_result_page(
    tab: Callable[..., Page], live_server: str
) -> None:
    page = tab(java_script_enabled=False)
    page.goto(live_server + "/")
    page.fill("textarea[name=paste]", EASY)
    page.get_by_role("button", name="Print the puzzle").click()
    expect(page).to_have_url(f"{live_server}/print?p={EASY}")
    cells = page.locator(".print-sheet table.grid td")
    expect(cells).to_have_count(81)
    shown = "".join(t.strip() or "0" for t in cells.all_inner_texts())
    assert shown == EASY  # the givens alone, no solution
    page.emulate_media(media="print")
    expect(page.locator("header.site-header")).to_be_hidden()
    expect(page.locator("p.lead")).to_be_hidden()
    box = page.locator(".print-sheet table.grid").bounding_box()
    assert box is not None and box["width"] > 500  # about 17 cm
    page.emulate_media(media="screen")
    page.goto(f"{live_server}/p/{EASY}")
    page.get_by_role("link", name="Print the puzzle").click()
    expect(page).to_have_url(f"{live_server}/print?p={EASY}")
