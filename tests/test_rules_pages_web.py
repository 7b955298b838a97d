"""Pages of a pasted f-puzzles puzzle draw its rules and say them in words.

Each published puzzle (tests/data/variants_fpuzzles.jsonl) is pasted into the form and its
page counted against its f-puzzles JSON (tests/test_rules_drawing.py counts the same way);
the steps, search, difficulty and play pages are drawn by their views for the same boards
(their rules links are routed by the rules pages); a browser checks at 375 and 1280 px, light
and dark, that no dot, letter or clue covers a digit and the lines lie under the digits.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from test_rules_drawing import PUZZLES, _expected

from sudoku_web.core.rules import fpuzzles
from sudoku_web.core.rules.links import givens_part as parts_givens
from sudoku_web.core.rules.links import parts
from sudoku_web.web.puzzles.request_path import ShareLink
from sudoku_web.web.runtime import cache

PASTES = [(p["id"], p["fpuzzles"]) for p in PUZZLES]


def rules_path(data: dict[str, Any]) -> str:
    """A pasted puzzle's rules page, spelled as its share link."""
    imported = fpuzzles.read(data)
    givens = "".join(imported.geometry.symbol(v) if v else "0" for v in imported.givens)
    found = parts(imported.geometry)
    tail = f"/{found.regions}" if found.regions else ""
    return f"/rules/{parts_givens(givens, imported.geometry.size)}/{found.rules}{tail}"


def _counts(page: str) -> dict[str, int]:
    """The rule marks a page's markup draws, counted as tests/test_rules_drawing.py does."""
    return {
        "line": page.count('<polyline class="rl ') - page.count("rl-head"),
        "head": page.count("rl-head"),
        "bulb": page.count('class="rb '),
        "dot": page.count('class="rd rd-white"') + page.count('class="rd rd-black"'),
        "letter": page.count('class="rd rd-letter"'),
        "clue": page.count('class="rc"'),
        "shade": page.count('class="rs '),
    }


def _marks(data: dict[str, Any]) -> dict[str, int]:
    expected = _expected(data)
    del expected["cage"]  # outlines are cell classes, counted in test_rules_drawing
    return expected


@pytest.mark.parametrize(("name", "data"), PASTES, ids=[p[0] for p in PASTES])
def test_a_pasted_puzzle_page_draws_and_says_its_rules(
    client: Any, name: str, data: dict[str, Any]
) -> None:
    posted = client.post("/", data={"paste": json.dumps(data)})
    assert posted.status_code == 303
    assert posted.headers["Location"] == rules_path(data)
    page = client.get(posted.headers["Location"]).get_data(as_text=True)
    assert _counts(page) == _marks(data)
    text = html.unescape(page)
    geometry = fpuzzles.read(data).geometry
    for rule in geometry.rules:
        assert rule.WORDS in text
        assert rule.describe(geometry).english() in text
    # "Open in f-puzzles": the page's own link, redirecting to f-puzzles' ?load= link.
    link = html.unescape(page.split('<p class="share-link fpuzzles-link"><a href="', 1)[1])
    opened = client.get(link.split('"', 1)[0])
    assert opened.status_code == 302 and "public" in opened.headers["Cache-Control"]
    again = fpuzzles.load(opened.headers["Location"])
    assert again.geometry.rules == geometry.rules
    # Its link-preview picture is announced and drawn (tests/test_rules_drawing.py reads one).
    picture = client.get(posted.headers["Location"] + ".png")
    assert picture.mimetype == "image/png" and picture.data.startswith(b"\x89PNG")
    assert f'content="http://localhost{posted.headers["Location"]}.png"' in page
    older = client.get(posted.headers["Location"] + "/preview.png")  # another spelling
    assert older.status_code == 301 and older.headers["Location"].endswith(".png")
    # Its printable page and the form its "Edit this puzzle" opens draw the same.
    for label in ("Print the puzzle", "Edit this puzzle"):
        href = html.unescape(page.split(f'">{label}</a>', 1)[0].rsplit('href="', 1)[1])
        other = client.get(href).get_data(as_text=True)
        assert _counts(other) == _marks(data), label
        assert geometry.rules[0].WORDS in html.unescape(other) or label == "Edit this puzzle"


def _link(data: dict[str, Any]) -> ShareLink:
    imported = fpuzzles.read(data)
    givens = "".join(imported.geometry.symbol(v) if v else "0" for v in imported.givens)
    return ShareLink(imported.geometry, givens, imported.givens)


#: The first three published puzzles and the last; the second and the last take seconds to
#: explain, so they are slow.
TAUGHT = [
    pytest.param(*p, id=p[0], marks=[pytest.mark.slow] if p in (PASTES[1], PASTES[-1]) else [])
    for p in PASTES[:3] + PASTES[-1:]
]


@pytest.mark.parametrize(("name", "data"), TAUGHT)
def test_the_hint_page_draws_and_says_the_rules(
    client: Any, name: str, data: dict[str, Any]
) -> None:
    """The form's Hint with the rules box filled: every grid of the answer drawn, the rules
    said."""
    imported = fpuzzles.read(data)
    rules = parts(imported.geometry).rules
    page = client.post("/hint", data={"rules": rules, "paste": imported.puzzle})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    grids = text.count('<table class="grid')
    assert grids >= 1 and text.count('<div class="drawn ') == grids
    assert _counts(text) == {k: v * grids for k, v in _marks(data).items()}
    assert imported.geometry.rules[0].WORDS in html.unescape(text)


def _text(response: Any) -> str:
    return response if isinstance(response, str) else response.get_data(as_text=True)


@pytest.mark.parametrize(("name", "data"), TAUGHT)
def test_teaching_and_play_pages_draw_the_rules(
    app: Flask, name: str, data: dict[str, Any]
) -> None:
    """Every pencil grid of a steps page, the search page's, and the play grid carry the
    board's drawing; each page says the rules."""
    from sudoku_web.web.play.routes import _page as play_page
    from sudoku_web.web.teach.routes import _difficulty, _search, _steps

    link = _link(data)
    expected = _marks(data)
    with app.test_request_context("/"):
        key = cache.solve_key(link.givens, link.geometry)
        pages = {
            "steps": _steps(link, key, 1).get_data(as_text=True),
            "search": _search(link),
            "difficulty": _difficulty(link, key, False).get_data(as_text=True),
            "play": _text(play_page(link.geometry, link.givens, link.grid or ())),
        }
    for kind, page in pages.items():
        assert "The rules" in page and link.geometry.rules[0].WORDS in html.unescape(page), kind
        # Every grid drawn (a steps page the explainer could not finish has none, and the
        # difficulty page never has one): each of them with every mark.
        grids = page.count('<table class="grid')
        assert page.count('<div class="drawn ') == grids, kind
        assert _counts(page) == {k: v * grids for k, v in expected.items()}, kind
    assert page.count('<table class="grid') == 1  # the play page's grid


SCREENS = [(w, s) for w in (375, 1280) for s in ("light", "dark")]
# Solved boards (their digits all drawn) with dots, letters and clues outside the grid.
MARKED = [
    p
    for p in PASTES
    if p[0] in {"sudokutools-06", "sudokutools-07", "sudokutools-20", "sudokutools-22"}
]

_BOXES = """() => {
  const boxes = [];
  for (const td of document.querySelectorAll(".drawn table.grid td")) {
    for (const node of td.childNodes) {
      if (node.nodeType === 3 && node.textContent.trim()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        boxes.push([r.left, r.top, r.right, r.bottom]);
      }
    }
  }
  const marks = Array.from(document.querySelectorAll(
    ".rules-over .rd circle, .rules-over .rd-letter text, .rules-over .rc text, .rc-arrow"
  )).map((m) => {
    const r = m.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  });
  const z = (sel) => {
    const node = document.querySelector(sel);
    return node ? Number(getComputedStyle(node).zIndex) : null;
  };
  const wrapper = document.querySelector(".drawn").getBoundingClientRect();
  return {digits: boxes, marks: marks, under: z("svg.rules-under"),
          table: z(".drawn table.grid"), over: z("svg.rules-over"), right: wrapper.right,
          width: document.documentElement.clientWidth};
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.browser
@pytest.mark.parametrize(("width", "scheme"), SCREENS)
@pytest.mark.parametrize(("name", "data"), MARKED, ids=[p[0] for p in MARKED])
def test_no_mark_covers_a_digit(
    live_server: str,
    tab: Callable[..., Page],
    width: int,
    scheme: str,
    name: str,
    data: dict[str, Any],
) -> None:
    page = tab(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page.goto(live_server + rules_path(data))
    found = page.evaluate(_BOXES)
    assert found["digits"] and found["marks"]
    covered = [(m, d) for m in found["marks"] for d in found["digits"] if _overlap(m, d)]
    assert not covered, f"marks over digits: {covered[:3]}"
    # The layers in order: lines and shapes under the digits, marks over them.
    assert found["under"] is None or found["under"] < found["table"]
    assert found["table"] < found["over"]
    assert found["right"] <= found["width"]  # the grid and its clues fit the screen


def _open_rules_editor(page: Any) -> None:
    page.get_by_text("Rules (thermometers").click()
    page.get_by_role("button", name="Pick cells").click()


def _add_rule(page: Any, first: str, keys: list[str], tool: str) -> None:
    """Pick cells with the keyboard from the cell labelled ``first``, and add them as ``tool``."""
    page.get_by_label(first).focus()
    for key in keys:
        page.keyboard.press(key)
    page.get_by_label("Rule to add").select_option(label=tool)
    page.get_by_role("button", name="Add rule").click()


@pytest.mark.browser
def test_the_rules_editor_writes_the_rules_field(
    live_server: str, tab: Callable[..., Page]
) -> None:
    """Keyboard only: a thermometer picked with Shift+arrows, a white dot between two cells,
    anti-knight ticked, a rule deleted from the list; the text field holds exactly that, and
    Solve opens the rules page drawing it."""
    page = tab(viewport={"width": 1280, "height": 900})
    page.goto(live_server + "/")
    field = page.locator("textarea[name=rules]")
    _open_rules_editor(page)
    _add_rule(page, "Row 1, column 1", ["Shift+ArrowRight"] * 2, "Thermometer (bulb first)")
    assert field.input_value().split() == ["th_111213"]
    _add_rule(page, "Row 5, column 5", ["Shift+ArrowDown"], "White dot (between two cells)")
    _add_rule(page, "Row 9, column 9", ["Shift+ArrowLeft"], "V (between two cells)")
    page.get_by_label("Anti-knight").check()
    assert sorted(field.input_value().split()) == ["kn", "kr_w_5565", "th_111213", "xv_v_9998"]
    page.get_by_role("button", name="Delete: V r9c9 r9c8").click()
    assert sorted(field.input_value().split()) == ["kn", "kr_w_5565", "th_111213"]
    page.get_by_role("button", name="Solve").click()
    page.wait_for_url("**/rules/**")
    # Every grid the page draws (two solutions: the rules alone allow more than one) has
    # the thermometer and the dot.
    boards = page.locator("div.drawn").count()
    assert boards >= 1
    assert page.locator("svg.rules-under polyline").count() == boards
    assert page.locator("svg.rules-over .rd-white").count() == boards


@pytest.mark.browser
def test_the_rules_editor_redraws_the_rules_as_they_change(
    live_server: str, tab: Callable[..., Page]
) -> None:
    """A rule added or deleted is drawn around the form's grid and said in words at once (the
    server's drawing, asked again); what is typed in the grid stays."""
    page = tab(viewport={"width": 1280, "height": 900})
    page.goto(live_server + "/")
    form = page.locator("form.puzzle-form")
    page.get_by_label("Row 9, column 1").fill("5")
    assert form.locator("svg.rules-under polyline").count() == 0
    _open_rules_editor(page)
    _add_rule(page, "Row 1, column 1", ["Shift+ArrowRight"] * 2, "Thermometer (bulb first)")
    line = form.locator("svg.rules-under polyline")
    line.wait_for(state="attached")
    box = line.bounding_box()  # drawn over the grid's first row, as the server lays it out
    cell = page.get_by_label("Row 1, column 1").bounding_box()
    assert box is not None and cell is not None and box["width"] > cell["width"]
    assert "thermometer" in page.locator("section.rule-words").inner_text().lower()
    _add_rule(page, "Row 5, column 5", ["Shift+ArrowDown"], "White dot (between two cells)")
    form.locator("svg.rules-over .rd-white").wait_for(state="attached")
    assert form.locator("svg.rules-under polyline").count() == 1
    page.get_by_role("button", name="Delete: Thermometer r1c1 r1c2 r1c3").click()
    expect(form.locator("svg.rules-under polyline")).to_have_count(0)
    assert form.locator("svg.rules-over .rd-white").count() == 1
    page.get_by_role("button", name="Delete: White dot r5c5 r6c5").click()
    expect(form.locator("div.drawn")).to_have_count(0)
    assert page.locator("section.rule-words").count() == 0
    assert page.get_by_label("Row 9, column 1").input_value() == "5"
    assert page.locator("table.grid.editable").count() == 1


def test_open_in_fpuzzles_is_offered_only_where_fpuzzles_holds_the_board(client: Any) -> None:
    """A classic puzzle's page links its own ``/fpuzzles``, which opens the same givens in
    f-puzzles; an X-sudoku spelled as a variant (f-puzzles would lose its diagonals) has no
    link, and its ``/fpuzzles`` is a 404."""
    easy = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    page = client.get(f"/p/{easy}").get_data(as_text=True)
    assert f'class="share-link fpuzzles-link"><a href="/p/{easy}/fpuzzles"' in page
    opened = client.get(f"/p/{easy}/fpuzzles")
    assert opened.status_code == 302
    imported = fpuzzles.load(opened.headers["Location"])
    assert "".join(str(v) for v in imported.givens) == easy
    x_puzzle = (
        "6785........632............1.2....3.....9........1...5.8.1....6.....3........51.."
    ).replace(".", "0")
    x_page = client.get(f"/x/{x_puzzle}")
    assert x_page.status_code == 200
    assert "fpuzzles-link" not in x_page.get_data(as_text=True)
    assert client.get(f"/x/{x_puzzle}/fpuzzles").status_code == 404
