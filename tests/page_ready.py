"""When a browser test may read a page: its scripts have run and what they fetch on their own
as the page opens has arrived.

Playwright's ``networkidle`` waits for half a second without a request; this waits for the
page's own signals instead. Every module script has finished evaluating: a dynamic ``import()``
of a module the page already holds resolves once that module's evaluation is over, its
top-level ``await`` included (static/js/i18n.js awaits the language's catalog there, before
any module that imports it runs). And every ``[data-fragment]`` slot holds what
static/js/fragment.js brings into it: the difficulty panel, or the fallback line's link. A
script that fetches more as the page opens adds its sign here.
"""

from __future__ import annotations

from playwright.sync_api import Page

#: Resolves once every module script of the page has been evaluated.
_SCRIPTS_RUN = """async () => {
  const urls = [...document.querySelectorAll('script[type="module"][src]')].map((s) => s.src);
  await Promise.all(urls.map((url) => import(url)));
}"""

#: True once each fragment slot holds its panel or the fallback's link.
_FRAGMENTS_IN = """() => [...document.querySelectorAll("[data-fragment]")].every(
  (slot) => slot.querySelector("#difficulty-panel, p.note a") !== null)"""


def wait_until_ready(page: Page) -> None:
    """Wait until ``page`` (loaded) has run its scripts and filled its fragment slots."""
    page.wait_for_load_state("load")
    page.evaluate(_SCRIPTS_RUN)
    page.wait_for_function(_FRAGMENTS_IN)
