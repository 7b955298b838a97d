"""The page pool (tests/page_pool.py): a page lent again holds nothing of the test before, and
reads as a new context's first page on everything a browser test looks at."""

from __future__ import annotations

from typing import Any

import pytest
from page_pool import PagePool
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

#: What a page shows of its past and its settings, read in the app's origin.
_STATE = """() => ({
  local: localStorage.length,
  session: sessionStorage.length,
  cookie: document.cookie,
  history: history.length,
  width: innerWidth,
  height: innerHeight,
  dark: matchMedia("(prefers-color-scheme: dark)").matches,
  print: matchMedia("print").matches,
  reduced: matchMedia("(prefers-reduced-motion: reduce)").matches,
})"""

VIEWPORT = {"width": 700, "height": 600}


def _state(page: Page, url: str) -> dict[str, Any]:
    page.goto(url)
    state: dict[str, Any] = page.evaluate(_STATE)
    state["mouse_over"] = page.evaluate("document.querySelectorAll(':hover').length")
    return state


def _use_hard(page: Page, url: str) -> None:
    """What a test may leave behind: storage, a cookie, history, a route, a listener, another
    viewport and media, a popup, the mouse somewhere."""
    page.goto(url)
    page.evaluate(
        """() => { localStorage.setItem("a", "1"); sessionStorage.setItem("b", "2");
                   document.cookie = "c=3; path=/"; }"""
    )
    page.goto(url + "new")
    page.route("**/*", lambda route: route.abort())
    page.context.route("**/*.css", lambda route: route.abort())
    page.on("console", lambda message: None)
    page.on("dialog", lambda dialog: None)
    page.set_viewport_size({"width": 400, "height": 300})
    page.emulate_media(color_scheme="dark", media="print", reduced_motion="reduce")
    page.context.new_page()
    page.mouse.move(200, 100)


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_a_page_lent_again_reads_as_new(browser: Browser, live_server: str, js: bool) -> None:
    url = live_server + "/"
    options = {"viewport": VIEWPORT, "java_script_enabled": js}
    fresh = browser.new_context(**options)
    try:
        expected = _state(fresh.new_page(), url)
    finally:
        fresh.close()
    pool = PagePool(browser)
    try:
        tab = pool.take(options)
        listeners = {event: len(ls) for event, ls in tab.own_listeners["page"].items()}
        _use_hard(tab.page, url)
        pool.give_back(tab)
        again = pool.take(options)
        assert again is tab  # the same context, lent again
        assert again.page.url == "about:blank"
        assert len(again.context.pages) == 1
        impl = again.page._impl_obj
        assert {e: len(impl.raw_listeners(e)) for e in impl.event_names()} == listeners
        assert _state(again.page, url) == expected
        assert again.page.evaluate("fetch('/static/sudoku.css').then(r => r.ok)")  # no route
    finally:
        pool.close()


def test_what_cannot_be_undone_spends_the_context(browser: Browser) -> None:
    pool = PagePool(browser)
    try:
        tab = pool.take({})
        tab.page.add_init_script("window.marked = true")
        assert tab.spent
        pool.give_back(tab)
        assert tab.page.is_closed()  # closed with its context, not kept
        other = pool.take({})
        assert other is not tab
        other.page.context.grant_permissions(["clipboard-read"])
        assert other.spent
        pool.give_back(other)
        assert pool.take({}) not in (tab, other)
    finally:
        pool.close()


def test_two_visitors_in_one_test_share_nothing(tab: Any, live_server: str) -> None:
    first, second = tab(), tab()
    assert first.context is not second.context
    first.goto(live_server + "/")
    first.evaluate("localStorage.setItem('a', '1')")
    second.goto(live_server + "/")
    assert second.evaluate("localStorage.length") == 0
