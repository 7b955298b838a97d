"""Killer journeys in Debian's Chromium: draw cages by mouse and by keyboard, solve, open the
share link in another visitor's browser, play a killer.

On failure, a screenshot of each page the test opened is saved under ``test-results/``
(conftest.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from page_errors import watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data" / "killer_krazydad.txt"
KILLER = DATA.read_text().splitlines()[0].strip()
CAGE_MAP, SUMS, SOLUTION = KILLER.split(":")
N_CAGES = len(SUMS.split(","))


@pytest.fixture
def killer_form(page: Page, live_server: str) -> Iterator[Page]:
    """The killer's form with its cage editor running; no script error, no CSP violation."""
    problems = watch_errors(page)
    page.goto(f"{live_server}/?v=killer")
    expect(page.locator(".cage-editor")).to_be_visible()  # cages.js has run
    yield page
    assert problems == []


def td(page: Page, row: int, col: int) -> object:
    return page.locator("table.grid.editable tr").nth(row - 1).locator("td").nth(col - 1)


def test_draw_a_cage_by_dragging_across_cells(killer_form: Page) -> None:
    page = killer_form
    page.get_by_role("button", name="Select cells").click()
    first, second = td(page, 1, 1), td(page, 1, 2)
    first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    box1, box2 = first.bounding_box(), second.bounding_box()  # type: ignore[attr-defined]
    page.mouse.move(box1["x"] + 5, box1["y"] + 5)
    page.mouse.down()
    page.mouse.move(box2["x"] + 5, box2["y"] + 5, steps=4)
    page.mouse.up()
    expect(page.locator(".cage-picked")).to_have_text("Selected: r1c1 r1c2")
    page.get_by_label("Sum").fill("4")
    page.get_by_label("Sum").press("Enter")
    expect(page.locator("textarea[name=cages]")).to_have_value("4: r1c1 r1c2")
    expect(first).to_have_class(re.compile(r"\bcage\b.*\bkt\b"))  # type: ignore[arg-type]
    expect(first.locator(".cage-sum")).to_have_text("4")  # type: ignore[attr-defined]
    # Delete it again from the list.
    page.get_by_role("button", name="Delete the cage of 4 at r1c1").click()
    expect(page.locator("textarea[name=cages]")).to_have_value("")


def test_draw_a_cage_with_the_keyboard_and_edit_it(killer_form: Page) -> None:
    page = killer_form
    td(page, 1, 3).locator("input").focus()  # type: ignore[attr-defined]
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    expect(page.locator(".cage-picked")).to_have_text("Selected: r1c3 r1c4 r2c4")
    page.keyboard.press("Shift+Enter")
    expect(page.get_by_label("Sum")).to_be_focused()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    expect(page.locator("textarea[name=cages]")).to_have_value("12: r1c3 r1c4 r2c4")
    page.get_by_role("button", name="Edit the cage of 12 at r1c3").click()
    page.get_by_label("Sum").fill("13")
    page.get_by_label("Sum").press("Enter")
    expect(page.locator("textarea[name=cages]")).to_have_value("13: r1c3 r1c4 r2c4")


def test_solve_a_killer_and_open_its_share_link_in_a_fresh_browser(
    killer_form: Page, tab: Callable[..., Page]
) -> None:
    page = killer_form
    page.locator("textarea[name=cages]").fill(f"{CAGE_MAP}:{SUMS}")
    page.locator("input[type=submit][value=Solve]").click()
    expect(page).to_have_url(re.compile(r"/killer/[A-Za-z_]{81}-[0-9-]+$"))  # no givens
    expect(page.locator("h1")).to_have_text("Solved")
    shown = "".join(
        t.strip()[-1:] for t in page.locator("table.grid").first.locator("td").all_inner_texts()
    )
    assert shown == SOLUTION
    fresh = tab()  # nothing shared: the link alone holds the puzzle
    fresh.goto(page.url)
    expect(fresh.locator("h1")).to_have_text("Solved")
    expect(fresh.locator("table.grid").first.locator(".cage-sum")).to_have_count(N_CAGES)
    assert (
        fresh.locator("table.grid").first.inner_text()
        == page.locator("table.grid").first.inner_text()
    )


def test_play_a_killer(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/?v=killer")
    page.locator("textarea[name=cages]").fill(f"{CAGE_MAP}:{SUMS}")
    page.locator("input[type=submit][value=Solve]").click()
    page.goto(page.url + "/play")
    page.evaluate("window.localStorage.clear()")
    page.reload()
    expect(page.locator(".pad")).to_be_visible()  # play.js has run
    expect(page.locator("table.play-grid .cage-sum")).to_have_count(N_CAGES)
    wrong = "1" if SOLUTION[0] != "1" else "2"
    page.locator('td[data-cell="0"]').click()
    page.keyboard.press(wrong)
    page.locator('td[data-cell="1"]').click()
    page.keyboard.press(SOLUTION[1])
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#play-panel")).to_have_text("1 entry is wrong: r1c1 (marked in the grid).")
    assert SOLUTION not in page.content()  # the page never holds the solution


# ---- The steps page's pencil grids of a killer ------------------------------------------------

# The drawn boxes of every killer cell of one pencil grid, in page pixels: its outline's
# dashed segments (the ::before borders, measured from their computed insets), its sum's
# label and its candidate digits.
_DRAWN = """table => Array.from(table.querySelectorAll("td.cage")).map(td => {
  const r = td.getBoundingClientRect(), cs = getComputedStyle(td, "::before");
  const x0 = r.left + td.clientLeft + parseFloat(cs.left);
  const y0 = r.top + td.clientTop + parseFloat(cs.top);
  const x1 = r.left + td.clientLeft + td.clientWidth - parseFloat(cs.right);
  const y1 = r.top + td.clientTop + td.clientHeight - parseFloat(cs.bottom);
  const w = side => parseFloat(cs["border" + side + "Width"]) || 0;
  const lines = [];
  if (td.classList.contains("kt")) lines.push([x0, y0, x1, y0 + w("Top")]);
  if (td.classList.contains("kb")) lines.push([x0, y1 - w("Bottom"), x1, y1]);
  if (td.classList.contains("kl")) lines.push([x0, y0, x0 + w("Left"), y1]);
  if (td.classList.contains("kr")) lines.push([x1 - w("Right"), y0, x1, y1]);
  const box = e => {
    const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const sum = td.querySelector(".cage-sum");
  const marks = Array.from(td.querySelectorAll(".pm i")).filter(i => i.textContent.trim());
  return {lines: lines, sum: sum ? box(sum) : null, marks: marks.map(box)};
})"""


def _overlap(a: list[float], b: list[float]) -> bool:
    """True when two boxes share more than a hair (0.25 px) both ways."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.25 and min(a[3], b[3]) - max(a[1], b[1]) > 0.25


@pytest.mark.parametrize(
    ("width", "schemes"), [(1280, ("light",)), (375, ("light", "dark"))], ids=str
)
def test_killer_pencil_grids_keep_lines_and_sums_off_the_candidates(
    page: Page, live_server: str, width: int, schemes: tuple[str, ...]
) -> None:
    """On the steps page no cage outline and no sum overlaps a candidate digit; the grids use
    a desktop's width (at least 450 px) and stay within a phone's; in each colour scheme."""
    page.set_viewport_size({"width": width, "height": 900})
    cells = [c for c in CAGE_MAP]
    assert len(cells) == 81
    response = page.goto(f"{live_server}/?v=killer")
    assert response is not None
    page.locator("textarea[name=cages]").fill(f"{CAGE_MAP}:{SUMS}")
    page.locator("input[type=submit][value=Solve]").click()
    expect(page.locator("h1")).to_have_text("Solved")
    page.goto(page.url + "/steps")
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        _grids_keep_off_the_candidates(page, width)


def _grids_keep_off_the_candidates(page: Page, width: int) -> None:
    grids = page.locator("table.pm-grid")
    expect(grids.first).to_be_visible()
    checked = 0
    for index in range(min(grids.count(), 4)):
        grid = grids.nth(index)
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        assert box is not None
        if width >= 1280:
            assert box["width"] >= 450
        else:
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
        for cell in grid.evaluate(_DRAWN):
            drawn = cell["lines"] + ([cell["sum"]] if cell["sum"] else [])
            for mark in cell["marks"]:
                for thing in drawn:
                    assert not _overlap(mark, thing), (index, mark, thing)
            checked += len(cell["marks"])
    assert checked > 100  # candidates were there to check
    assert page.evaluate("document.documentElement.scrollWidth") <= width
