"""What a browser test watches for on a page: script errors, console errors and CSP violations."""

from __future__ import annotations

import weakref

from playwright.sync_api import BrowserContext, Page

#: Chromium fires ``securitypolicyviolation`` on the document; this init script turns each one
#: into a console error that names the directive and what it blocked.
_CSP_TO_CONSOLE = """document.addEventListener("securitypolicyviolation", (e) => {
    console.error("Content Security Policy violation: " + e.violatedDirective + " "
                  + e.blockedURI);
});"""

#: The contexts whose every page already runs :data:`_CSP_TO_CONSOLE`.
_REPORTING: weakref.WeakSet[BrowserContext] = weakref.WeakSet()


def report_csp_violations(target: Page | BrowserContext) -> None:
    """Make every document ``target`` loads from now on report its CSP violations on the
    console (once per context: a page whose context does it already is left alone)."""
    context = target if isinstance(target, BrowserContext) else target.context
    if context in _REPORTING:
        return
    target.add_init_script(_CSP_TO_CONSOLE)
    if target is context:
        _REPORTING.add(context)


def watch_errors(page: Page) -> list[str]:
    """The list the page's script errors, console errors and CSP violations are added to."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    report_csp_violations(page)
    return problems
