"""English left behind: every page kind (tests/page_kinds.py) rendered in each translated
language, its visible text (and the words screen readers read: aria-label, title, alt) searched
for English sentences.

The heuristic: a piece of text holding an English stop-word between spaces (" the ",
" and ", " is " ...) is English left behind. The core's step sentences, the engine's story, the
grade note and the doctor's summaries and fixes are catalog templates
(``sudoku_web/core/wording.py``) and are searched like every text, as are a puzzle's problems,
a board's rules in words and the variants' names and rules. Allowed, and said so, would be the
texts the core still writes in English (:data:`CORE_WORDS` names them: none now). The
catalogs' completeness (no empty or fuzzy entry) is tested in tests/test_languages.py; the
scripts' words, with JavaScript on, in tests/test_browser_languages.py.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from app_config import ROOMY
from page_kinds import HINT_POST, page_kinds

from sudoku_web import create_app
from sudoku_web.web.runtime.languages import LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != "en"]

#: English words no other sentence of these languages holds between spaces.
STOP_WORDS = re.compile(r"(?i)(?:^|\s)(the|and|is|are|of|to|with|this|which|for|you|your)\s")

#: Classes of elements whose text the core writes in English (not translated yet): none
#: left; a class named here is skipped by the search.
CORE_WORDS: frozenset[str] = frozenset()

#: Elements whose text is not words of the page (code, the share links, the picker's own names).
NOT_WORDS = frozenset({"script", "style", "code", "kbd", "svg", "option", "textarea"})


class _VisibleText(HTMLParser):
    """The texts a reader meets: text nodes outside :data:`NOT_WORDS` and :data:`CORE_WORDS`
    elements, and the aria-label, title and alt attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip: list[str] = []  # the tags of the open skipped elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        if tag in ("br", "img", "input", "meta", "link", "hr", "col", "source"):
            if not self._skip:
                self.texts += [v for k, v in attrs if k in ("alt", "title", "aria-label") and v]
            return
        if self._skip or tag in NOT_WORDS or classes & CORE_WORDS:
            self._skip.append(tag)
            return
        self.texts += [v for k, v in attrs if k in ("title", "aria-label") and v]

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def english_left(html: str) -> list[str]:
    """The pieces of visible text that read as English sentences."""
    reader = _VisibleText()
    reader.feed(html)
    return [text for text in reader.texts if STOP_WORDS.search(f" {text} ")]


def test_the_heuristic_finds_english() -> None:
    page = (
        '<p>Gelöst</p><p aria-label="The puzzle grid">x</p><p>Fix this and that</p>'
        '<p class="variant-rule">The core says this.</p><code>the code is here</code>'
    )
    assert english_left(page) == ["The puzzle grid", "Fix this and that", "The core says this."]


def _get(client: Any, kind: str, path: str, language: str) -> Any:
    headers = {"Accept-Language": language}
    if kind == "hint":
        return client.post("/hint", data=HINT_POST, headers=headers)
    return client.get(path, headers=headers)


@pytest.fixture(scope="module")
def pages_client() -> Any:
    """One app for every language of this module: what a page computes whatever its language
    (the explanation the steps pages keep) is computed once, and each language's page is
    still rendered in full, as a second visitor in another language gets it."""
    return create_app(ROOMY).test_client()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_kind_reads_in_the_language(pages_client: Any, language: str) -> None:
    report = {}
    for kind, path in page_kinds().items():
        page = _get(pages_client, kind, path, language).get_data(as_text=True)
        assert f'<html lang="{language}"' in page, kind
        found = english_left(page)
        if found:
            report[kind] = found
    assert report == {}, "\n".join(f"{kind}: {texts}" for kind, texts in report.items())


def test_english_pages_are_found_english(pages_client: Any) -> None:
    """The test can fail: the same pages in English hold such sentences."""
    pages = page_kinds()
    for kind in ("solved", "steps", "new"):
        page = _get(pages_client, kind, pages[kind], "en").get_data(as_text=True)
        assert english_left(page), kind
