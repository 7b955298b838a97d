"""The scripts' own words in the page's language, in Debian's Chromium with JavaScript on: every
page kind the scripts change, and the play page, the rules and cage editors and the grades
fragment at work, in German and Japanese; no English the scripts write is left (the strings
they mark, found untranslated, or an English sentence anywhere in the page).

The scripts' words come from ``/i18n/<code>.json`` (sudoku_web/web/runtime/script_words.py)
through static/js/i18n.js.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from page_errors import watch_errors
from page_kinds import SCRIPTED, page_kinds
from page_ready import wait_until_ready
from playwright.sync_api import Locator, Page, expect
from test_translated_pages import CORE_WORDS, english_left
from web_puzzles import EASY

from sudoku_web.web.runtime.languages import TRANSLATIONS
from sudoku_web.web.runtime.script_words import marked_strings

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("de", "ja")

#: The words a page shows: its text nodes and every aria-label, outside the elements whose text
#: the core writes in English today (test_translated_pages.CORE_WORDS, allowed there too; none
#: when it is empty).
_SHOWN = """(skip) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !(skip && parent.closest(skip)) && !parent.closest("script, style")) {
      out.push(node.data);
    }
  }
  document.querySelectorAll("[aria-label]").forEach((e) => {
    if (!(skip && e.closest(skip))) { out.push(e.getAttribute("aria-label")); }
  });
  return out.join("\\n");
}"""
_OWN_STATUS = re.compile(r"Failed to load resource: .* status of (404|422)\b")
_SKIP = ", ".join(f".{name}" for name in sorted(CORE_WORDS))


def _pattern(text: str) -> re.Pattern[str]:
    """A marked string as it reads once its placeholders are filled, as a whole phrase."""
    parts = re.split(r"%\(\w+\)s", text)
    body = r".+?".join(re.escape(p) for p in parts)
    return re.compile(rf"(?<![\w-]){body}(?![\w-])")


@cache
def _untranslated_patterns(code: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The marked strings whose translation in ``code`` differs from the English, as
    patterns of the English; left out are a word or letter the languages share ("X") and
    words the language's own translations use (a key's name, "Delete"). Read once per
    language and worker: the catalog and the scripts do not change while the tests run."""
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po)
    own = "\n".join(
        "\n".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog if m.id
    )
    found = []
    for text in marked_strings(ROOT / "static"):
        forms = list(text) if isinstance(text, tuple) else [text]
        entry = catalog.get(forms[0])
        translated = entry.string if entry is not None else ""
        translated_forms = list(translated) if isinstance(translated, tuple) else [translated]
        for english in forms:
            pattern = _pattern(english.strip(" ,"))
            if english not in translated_forms and len(english.strip(" ,.")) > 2:
                if not pattern.search(own):
                    found.append((english, pattern))
    return tuple(found)


def english_from_scripts(page: Page, code: str) -> list[str]:
    """The marked strings left in English on ``page``, and its English sentences."""
    shown = page.evaluate(_SHOWN, _SKIP)
    left = [english for english, pattern in _untranslated_patterns(code) if pattern.search(shown)]
    return left + english_left(page.content())


@pytest.fixture(params=LANGUAGES)
def page_in(request: Any, tab: Callable[..., Page]) -> Iterator[tuple[Page, str]]:
    """A page whose browser asks for the language (Accept-Language, as a visitor's does);
    afterwards, no script error and no CSP violation may have happened."""
    code = request.param
    page = tab(
        locale=code,
        extra_http_headers={"Accept-Language": code},
        viewport={"width": 1280, "height": 900},
        permissions=["clipboard-read", "clipboard-write"],
    )
    problems = watch_errors(page)
    yield page, code
    # The 404 page and the 422 of a puzzle with a problem are the pages' own statuses.
    assert [p for p in problems if not _OWN_STATUS.match(p)] == []


def _open(page: Page, url: str) -> None:
    page.goto(url)
    wait_until_ready(page)


def test_every_scripted_page_kind_reads_in_the_language(
    page_in: tuple[Page, str], live_server: str
) -> None:
    page, code = page_in
    report = {}
    for kind, path in page_kinds().items():
        if kind not in SCRIPTED or kind == "hint":  # the hint page is a POST, played below
            continue
        _open(page, live_server + path)
        assert page.locator("html").get_attribute("lang") == code, kind
        found = english_from_scripts(page, code)
        if found:
            report[kind] = found
    assert report == {}, "\n".join(f"{kind}: {texts}" for kind, texts in report.items())


def test_the_play_page_speaks_the_language(page_in: tuple[Page, str], live_server: str) -> None:
    """Typing, pencil marks, undo, Check, Hint and Reveal: every line the script says."""
    page, code = page_in
    _open(page, f"{live_server}/p/{EASY}/play")
    empty = EASY.index("0")
    cell = page.locator(f'td[data-cell="{empty}"]')
    cell.click()
    page.keyboard.press("Shift+1")  # a pencil mark
    page.keyboard.press("p")  # pencil on
    page.keyboard.press("p")  # pencil off
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")
    wrong = next(d for d in "123456789" if d != _solution_digit(empty))
    page.keyboard.press(wrong)
    for button in ("button[value=check]", "button[value=hint]", "[data-action=reveal]"):
        page.locator(button).first.click()
        page.wait_for_load_state("networkidle")
        expect(page.locator("#play-panel")).not_to_be_empty()
        assert english_from_scripts(page, code) == [], button
    page.keyboard.press("Backspace")
    assert english_from_scripts(page, code) == []
    # The cells' spoken labels the script writes (the check marked one wrong).
    labels = page.locator("table.play-grid td[aria-label]").evaluate_all(
        "(tds) => tds.map((td) => td.getAttribute('aria-label'))"
    )
    assert labels and not [x for x in labels if re.search(r"Row|column|blank|given", x)], labels
    assert "Copy link" not in page.content() or code == "en"
    page.locator("button[data-copy]").click()
    expect(page.locator(".copy-status")).not_to_be_empty()
    assert english_from_scripts(page, code) == []


def _solution_digit(index: int) -> str:
    from web_puzzles import EASY_SOLUTION

    return EASY_SOLUTION[index]


def test_the_editors_speak_the_language(page_in: tuple[Page, str], live_server: str) -> None:
    """The rules editor's and the cage editor's status lines, list and errors."""
    page, code = page_in
    _open(page, f"{live_server}/?v=killer")
    page.locator(".cage-editor button").first.click()  # Select cells
    form_cell(page, 1, 1).click(modifiers=["Shift"])
    form_cell(page, 1, 2).click(modifiers=["Shift"])
    expect(page.locator(".cage-picked")).to_contain_text("r1c1 r1c2")
    page.locator(".cage-editor button").nth(1).click()  # Make cage, without its sum
    assert english_from_scripts(page, code) == []
    _open(page, f"{live_server}/")
    page.locator("details:has(textarea[name=rules]) summary").click()
    page.locator(".rule-editor button").first.click()  # Pick cells
    form_cell(page, 1, 1).click(modifiers=["Shift"])
    expect(page.locator(".rule-picked")).to_contain_text("r1c1")
    page.locator(".rule-editor button").nth(2).click()  # Add rule: a line needs two cells
    assert english_from_scripts(page, code) == []
    form_cell(page, 1, 2).click(modifiers=["Shift"])
    page.locator(".rule-editor button").nth(2).click()
    expect(page.locator(".rule-list li")).to_have_count(1)
    assert english_from_scripts(page, code) == []


def form_cell(page: Page, row: int, col: int) -> Locator:
    """The form grid's cell at ``row``, ``col`` (from 1)."""
    return page.locator("table.grid.editable tr").nth(row - 1).locator("td").nth(col - 1)


def test_the_grades_fragment_speaks_the_language(
    page_in: tuple[Page, str], live_server: str
) -> None:
    """The grades' waiting line, caught before the fragment arrives, and what replaces it."""
    page, code = page_in
    page.route("**/difficulty?embed=1", lambda route: None)  # held: the waiting line stays
    page.goto(f"{live_server}/p/{EASY}")
    slot = page.locator("[data-fragment]")
    expect(slot.locator("p.note")).not_to_be_empty()
    assert english_from_scripts(page, code) == []
    page.unroute("**/difficulty?embed=1")
    # An answer without the panel: the script says so and links the grades' own page.
    page.route("**/difficulty?embed=1", lambda route: route.fulfill(status=200, body="<p>"))
    page.goto(f"{live_server}/p/{EASY}")
    expect(slot.locator("a")).to_be_visible()
    assert english_from_scripts(page, code) == []
