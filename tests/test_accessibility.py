"""axe-core over every kind of page: no violation of WCAG 2.1 A/AA or axe's best practices.

Each page kind of tests/page_kinds.py is checked at a laptop's and a phone's width (1280 and
375 px), in the light and the dark colour scheme (Chromium's ``prefers-color-scheme``
emulation), as served (the site's scripts kept out, ``<noscript>`` shown) and after the
scripts have run: all eight combinations. A page is opened once for its four views (width
and scheme): no script reads either, so resizing the tab and switching the emulated scheme
give the page a phone or a dark screen would. After the scripts, only the page kinds they
change are checked again (page_kinds.SCRIPTED): axe over a steps page's twenty grids takes a
while. For the same reason the three views after the first check one grid of each technique
on a steps page (the same drawing over other candidates; the others are taken out of the
page), and so do the Japanese runs' views; the English runs' first view checks every grid.
And a later view that shows the very elements the first showed runs only the rules a width
or a scheme can change then (:data:`VIEW_RULES`); one that shows or hides any runs them all.
axe-core is the ``axe-playwright-python`` package's copy (its pinned axe.min.js), put into the
page and its frames once per load by Playwright through the DevTools protocol: the app never
serves it, and its CSP stays as it is. Each worker opens one tab per run (scripts off or
on, a locale) and visits the page kinds in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from page_kinds import NAMES, SCRIPTED, page_kinds
from page_ready import wait_until_ready
from playwright.sync_api import Browser, Page, Route

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: WCAG 2.1 A and AA, and axe's best practices (its tags for them).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
WIDTHS = (1280, 375)
Scheme = Literal["light", "dark"]
SCHEMES: tuple[Scheme, ...] = ("light", "dark")

_AXE_SCRIPT = Axe().axe_script

#: The rules whose answer a width or a colour scheme can change while the same elements show:
#: colours, links told apart by colour, what scrolls. The others read the markup and which
#: elements show.
VIEW_RULES = ["color-contrast", "link-in-text-block", "scrollable-region-focusable"]

#: Which elements of the body show, and which of those take room, in the view as it is now.
_SHOWN = """() => Array.from(document.querySelectorAll("body *"), (element) => {
  if (!element.checkVisibility({visibilityProperty: true})) { return "0"; }
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 ? "2" : "1";
}).join("")"""

#: Takes out of a steps page the step grids whose technique an earlier step already drew
#: (other pages have none): the views after them check the rest. Out of the page, not left
#: out of axe's run: axe reads the whole document into its own tree on every run, whatever it
#: is told to leave out, and on a page of twenty grids that alone costs most of a view.
_TAKE_OUT_REPEATED_GRIDS = """() => {
  const seen = new Set();
  document.querySelectorAll("ol.steps > li[id]").forEach((step) => {
    const technique = step.querySelector(".technique")?.textContent ?? "";
    const grid = step.querySelector(".step-grid");
    if (!grid) { return; }
    if (seen.has(technique)) { grid.remove(); }
    seen.add(technique);
  });
}"""


def violations(page: Page, rules: Sequence[str] | None = None) -> list[str]:
    """axe's violations on the page as it is now, one readable line per failing node: of
    ``rules`` when given, else of every rule :data:`TAGS` names. axe is put into a page and
    its frames the first time (the result page's difficulty frame is checked inside the page,
    and axe need not wait for a frame without it to answer)."""
    for frame in page.frames:
        if not frame.evaluate("() => typeof window.axe === 'object'"):
            frame.evaluate(_AXE_SCRIPT)
    run_only = {"type": "rule", "values": list(rules)} if rules else {"type": "tag", "values": TAGS}
    options = {"runOnly": run_only, "resultTypes": ["violations"]}
    found = page.evaluate(
        "(options) => axe.run(document, options).then((results) => results.violations)", options
    )
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
        wait_until_ready(page)  # the scripts run, the difficulty panel fetched into the page


#: What a page without JavaScript must see changed: any request outside ``/static/`` (the page,
#: its frame) and any script. Playwright matches these patterns in its driver, so styles,
#: pictures and fonts go straight to the server and only these requests come through Python.
_PAGES = re.compile(r"^[a-z]+://[^/]+/(?!static/)")
_SCRIPTS = re.compile(r"\.js(\?.*)?$")


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


#: Every view of a page: either width in either scheme.
VIEWS = [(width, scheme) for width in WIDTHS for scheme in SCHEMES]

#: Scripts off and on, in English, each page in every view; and the pages in Japanese (the
#: browser's Accept-Language), scripts off on a dark phone and on on a light laptop: a
#: translated page keeps its labels, its landmarks and its ``lang``.
RUNS: list[tuple[bool, str, list[tuple[int, Scheme]]]] = [
    (False, "en-US", VIEWS),
    (True, "en-US", VIEWS),
    (False, "ja-JP", [(375, "dark")]),
    (True, "ja-JP", [(1280, "light")]),
]

#: The locale whose runs check every step grid in their first view.
EVERY_GRID = "en-US"

CASES = [
    pytest.param(scripts, locale, views, name, id=f"{'js' if scripts else 'nojs'}-{locale}-{name}")
    for scripts, locale, views in RUNS
    for name in NAMES
    if not scripts or name in SCRIPTED
]


@pytest.fixture(scope="session")
def tabs(browser: Browser) -> Iterator[dict[tuple[bool, str], Page]]:
    """One tab per worker for each run (scripts off or on, a locale), reused page after page:
    a page kind is a navigation in it, not a new browser context. Nothing a page keeps
    (cookies, storage) changes what another kind shows: each kind is its own puzzle, and
    none of them is played."""
    opened: dict[tuple[bool, str], Page] = {}
    yield opened
    for tab in opened.values():
        tab.context.close()


def tab_for(
    tabs: dict[tuple[bool, str], Page], browser: Browser, scripts: bool, locale: str
) -> Page:
    """The run's tab, opened the first time it is asked for (or again if a test closed it)."""
    tab = tabs.get((scripts, locale))
    if tab is None or tab.is_closed():
        context = browser.new_context(locale=locale)
        if not scripts:
            context.route(_PAGES, without_scripts)
            context.route(_SCRIPTS, without_scripts)
        tab = tabs[scripts, locale] = context.new_page()
    return tab


@pytest.mark.parametrize(("scripts", "locale", "views", "name"), CASES)
def test_no_axe_violations_on_any_page(
    browser: Browser,
    tabs: dict[tuple[bool, str], Page],
    live_server: str,
    kinds: dict[str, str],
    scripts: bool,
    locale: str,
    views: list[tuple[int, Scheme]],
    name: str,
) -> None:
    page = tab_for(tabs, browser, scripts, locale)
    width, scheme = views[0]
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(color_scheme=scheme)
    open_page(page, name, kinds[name], live_server, scripts)
    report: dict[str, list[str]] = {}
    # Every grid in the English runs' first view, one of each technique in the others.
    if locale != EVERY_GRID:
        page.evaluate(_TAKE_OUT_REPEATED_GRIDS)
    first_shown = None
    for width, scheme in views:
        page.set_viewport_size({"width": width, "height": 900})
        page.emulate_media(color_scheme=scheme)
        shown = page.evaluate(_SHOWN)
        rules = VIEW_RULES if shown == first_shown else None
        if found := violations(page, rules=rules):
            report[f"{width} px, {scheme}"] = found
        if first_shown is None:
            page.evaluate(_TAKE_OUT_REPEATED_GRIDS)
            first_shown = page.evaluate(_SHOWN)
    assert report == {}, f"{name} ({kinds[name]}):\n" + "\n".join(
        f"{view}:\n  " + "\n  ".join(lines) for view, lines in report.items()
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


def test_the_view_rules_find_a_contrast_only_the_dark_scheme_has(page: Page) -> None:
    """A later view's rules (:data:`VIEW_RULES`) catch what only that view gets wrong."""
    page.set_content(
        '<html lang="en"><head><title>t</title><style>'
        "@media (prefers-color-scheme: dark) { p { color: #444; background: #333; } }"
        "</style></head><body><main><p>Grey on grey</p></main></body></html>"
    )
    page.emulate_media(color_scheme="light")
    assert violations(page, rules=VIEW_RULES) == []
    page.emulate_media(color_scheme="dark")
    found = " ".join(violations(page, rules=VIEW_RULES))
    assert "color-contrast" in found, found
