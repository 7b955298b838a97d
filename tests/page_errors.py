"""What a browser test watches for on a page: script errors, console errors and CSP violations."""

from __future__ import annotations

from playwright.sync_api import Page


def watch_errors(page: Page) -> list[str]:
    """The list the page's script errors, console errors and CSP violations are added to."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.add_init_script(
        """document.addEventListener("securitypolicyviolation", (e) => {
            console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI);
        });"""
    )
    return problems
