"""axe-core over every kind of page: no violation of WCAG 2.1 A/AA or axe's best practices.

Each page kind of tests/page_kinds.py is checked at a laptop's and a phone's width (1280 and
375 px), in the light and the dark colour scheme (Chromium's ``prefers-color-scheme``
emulation), as served (the site's scripts kept out, ``<noscript>`` shown) and after the
scripts have run: all eight combinations (see COMBINATIONS). After the
scripts, only the page kinds they change are checked again (page_kinds.SCRIPTED): axe over a
steps page's twenty grids takes a while. axe-core is the ``axe-playwright-python`` package's
copy (its pinned axe.min.js), put into the page by Playwright through the DevTools protocol:
the app never serves it, and its CSP stays as it is. One browser context per run, one tab
reused across the pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from page_kinds import SCRIPTED, page_kinds
from playwright.sync_api import Browser, Page, Route

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: WCAG 2.1 A and AA, and axe's best practices (its tags for them).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
WIDTHS = (1280, 375)
SCHEMES = ("light", "dark")

_AXE = Axe()


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it is now, one readable line per failing node."""
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found = _AXE.run(page, options=options).response["violations"]
    lines = []
    for rule in found:
        for node in rule["nodes"]:
            detail = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"{rule['id']} ({rule['impact']}) at {node['target']}: {detail}")
    return lines


def open_page(page: Page, name: str, path: str, base: str, scripts: bool) -> None:
    """Open a page kind; the hint page is the form's Hint button pressed."""
    page.goto(base + path)
    if name == "hint":
        # By what it does, not its name: the name is in the page's language.
        page.locator("button[formaction$='/hint']").click()
        page.wait_for_url(base + "/hint")
    page.wait_for_load_state("load")  # frames included
    if scripts:
        page.wait_for_load_state("networkidle")  # the difficulty panel fetched into the page


def without_scripts(route: Route) -> None:
    """Serve the page as a browser without JavaScript sees it: the site's scripts never load,
    and ``<noscript>`` content is part of the page.

    Playwright's ``java_script_enabled=False`` would also stop axe's own timers (its run never
    ends there), so scripting stays on for axe and off for the site.
    """
    request = route.request
    if request.resource_type == "script":
        route.abort()
    elif request.resource_type == "document":
        response = route.fetch()
        body = re.sub(r"</?noscript>", "", response.text())
        route.fulfill(response=response, body=body)
    else:
        route.continue_()


@pytest.fixture(scope="module")
def kinds() -> dict[str, str]:
    return page_kinds()


@pytest.fixture
def tab(browser: Browser, request: pytest.FixtureRequest) -> Iterator[tuple[Page, dict[str, Any]]]:
    scripts, width, scheme, locale = request.param
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, locale=locale
    )
    if not scripts:
        context.route("**/*", without_scripts)
    try:
        yield context.new_page(), {"scripts": scripts, "width": width, "scheme": scheme}
    finally:
        context.close()


#: Every combination of scripts off or on, either width and either scheme, on every page kind,
#: in English; and the pages in Japanese (the browser's Accept-Language), scripts off and on:
#: a translated page keeps its labels, its landmarks and its ``lang``.
COMBINATIONS = [
    (scripts, width, scheme, "en-US")
    for scripts in (False, True)
    for width in (1280, 375)
    for scheme in ("light", "dark")
] + [(False, 375, "dark", "ja-JP"), (True, 1280, "light", "ja-JP")]


@pytest.mark.parametrize(
    "tab",
    COMBINATIONS,
    ids=[f"{'js' if s else 'nojs'}-{w}-{c}-{lang}" for s, w, c, lang in COMBINATIONS],
    indirect=True,
)
def test_no_axe_violations_on_any_page(
    tab: tuple[Page, dict[str, Any]], live_server: str, kinds: dict[str, str]
) -> None:
    page, how = tab
    report: dict[str, list[str]] = {}
    for name, path in kinds.items():
        if how["scripts"] and name not in SCRIPTED:
            continue  # the scripts leave it as served: checked in the served runs
        open_page(page, name, path, live_server, how["scripts"])
        found = violations(page)
        if found:
            report[name] = found
    assert report == {}, "\n".join(
        f"{name} ({kinds[name]}):\n  " + "\n  ".join(lines) for name, lines in report.items()
    )


def test_axe_finds_what_it_is_given(page: Page) -> None:
    """axe is really run, in both schemes: a page with known faults fails it."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        page.set_content(
            '<html lang="en"><head><title>t</title></head><body><main><img src="x.png">'
            "<textarea></textarea></main></body></html>"
        )
        found = " ".join(violations(page))
        assert "image-alt" in found and "label" in found, found
