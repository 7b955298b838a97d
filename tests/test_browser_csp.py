"""With the strict Content-Security-Policy on, the page's JavaScript still works and the
browser reports no CSP violation (no inline script or style slipped into a template)."""

from __future__ import annotations

from typing import Any

import pytest
from page_errors import report_csp_violations
from playwright.sync_api import Page, expect
from web_puzzles import EASY

pytestmark = pytest.mark.browser


def _watch_csp(page: Page) -> list[str]:
    """Console messages that mention the CSP: Chromium's own and the page's reports of its
    securitypolicyviolation events (page_errors)."""
    problems: list[str] = []

    def on_console(message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            problems.append(text)

    page.on("console", on_console)
    report_csp_violations(page)
    return problems


def test_csp_is_sent_and_the_script_still_works(page: Page, live_server: str) -> None:
    problems = _watch_csp(page)
    response = page.goto(live_server + "/")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "unsafe-inline" not in csp
    # Arrow keys move between cells: only sudoku.js does that.
    page.locator("#cells-0").click()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#cells-1")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#cells-10")).to_be_focused()
    # A paste into one cell fills the grid (sudoku.js's paste handler).
    page.evaluate(
        """([id, text]) => {
            const data = new DataTransfer();
            data.setData("text/plain", text);
            document.getElementById(id).dispatchEvent(new ClipboardEvent(
                "paste", {clipboardData: data, bubbles: true, cancelable: true}));
        }""",
        ["cells-0", EASY],
    )
    expect(page.locator("#cells-2")).to_have_value("3")
    # The result page (stylesheet, script, favicon, copy button) loads cleanly too.
    page.goto(f"{live_server}/p/{EASY}")
    expect(page.locator("h1")).to_have_text("Solved")
    expect(page.locator("button[data-copy]")).to_be_visible()  # un-hidden by sudoku.js
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""
    assert problems == []
