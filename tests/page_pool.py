"""The browser pages a test worker lends its browser tests: one context per set of context
options, each with one page, handed to a test as if new and made so again after it.

A new context costs Chromium a new renderer and the work of setting both up, more than the
test's first navigation in an open page (benchmarks/RESULTS.md has the suite's figures); most
browser tests only need a page that nobody used before them. So a worker keeps, per set of
options (viewport, colour scheme, JavaScript on or off, locale, permissions...), the contexts
its tests have asked for, and lends them out: a test gets a page at ``about:blank`` with
nothing stored for any site, no history, no cookie, the options' viewport and media, no route,
and no listener but the pool's own, as a new context would have it. A test that needs two
visitors asks twice: a context lent to a test is lent to no other until it is given back, so
each call gets its own.

What a test changes that the pool cannot undo (an init script, an exposed function, extra
headers, granted permissions, a geolocation, offline mode, the clock, a default timeout, a
HAR or WebSocket route) marks the context spent: the test still runs in it, and it is closed
afterwards, not lent again. So is a context whose page the test closed or crashed, or whose
reset failed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from page_errors import report_csp_violations
from playwright.sync_api import Browser, BrowserContext, CDPSession, Error, Frame, Page

#: Methods of a page whose effect outlives the test and that nothing undoes.
_PAGE_FOR_GOOD = (
    "add_init_script",
    "expose_binding",
    "expose_function",
    "set_extra_http_headers",
    "route_from_har",
    "route_web_socket",
    "set_default_timeout",
    "set_default_navigation_timeout",
)
#: The same for a context.
_CONTEXT_FOR_GOOD = (
    *_PAGE_FOR_GOOD,
    "grant_permissions",
    "clear_permissions",
    "set_geolocation",
    "set_offline",
)
#: Every method of the (context's) clock: each one changes time for good.
_CLOCK = (
    "install",
    "fast_forward",
    "pause_at",
    "resume",
    "run_for",
    "set_fixed_time",
    "set_system_time",
)
#: Playwright's own viewport for a context that names none.
_DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
#: Idle contexts a worker keeps at most, the least recently used closed first: each holds a
#: renderer's memory, and a worker's tests move from one set of options to the next module by
#: module (the browser modules ask for a dozen sets or so each).
_IDLE_AT_MOST = 8
#: A reset step that waits longer than this has found a page in trouble: the context is closed.
_RESET_TIMEOUT_MS = 10_000


@dataclass(eq=False)
class Tab:
    """A pooled context, its one page, and what it takes to make them new again."""

    options: dict[str, Any]
    context: BrowserContext
    page: Page
    cdp: CDPSession
    #: Every http(s) origin a frame of the page went to since the last reset.
    origins: set[str] = field(default_factory=set)
    #: Listeners of the page and of the context before any test: the ones a reset keeps.
    own_listeners: dict[str, list[Any]] = field(default_factory=dict)
    #: Set once a test did what a reset cannot undo.
    spent: bool = False

    def reset(self) -> None:
        """Make the context and its page as they were when created (see the module docstring).

        The listeners a test added go first, so none sees the reset's own navigation.
        """
        for emitter, name in ((self.page, "page"), (self.context, "context")):
            _drop_added_listeners(emitter, self.own_listeners[name])
        for other in self.context.pages:
            if other is not self.page:
                other.close()
        self.page.unroute_all(behavior="ignoreErrors")
        self.context.unroute_all(behavior="ignoreErrors")
        self._leave_for_blank()
        for origin in sorted(self.origins):
            # "all" takes localStorage, sessionStorage, IndexedDB, caches and cookies.
            self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.origins.clear()
        self.context.clear_cookies()
        self.cdp.send("Network.clearBrowserCache")
        self.cdp.send("Page.resetNavigationHistory")
        if not self.options.get("no_viewport"):
            self.page.set_viewport_size(self.options.get("viewport") or _DEFAULT_VIEWPORT)
        # Playwright's defaults for a context that names none.
        self.page.emulate_media(
            media="null",
            color_scheme=self.options.get("color_scheme", "light"),
            reduced_motion=self.options.get("reduced_motion", "no-preference"),
            forced_colors=self.options.get("forced_colors", "none"),
            contrast=self.options.get("contrast", "no-preference"),
        )
        self.page.mouse.move(0, 0)

    def _leave_for_blank(self) -> None:
        """Navigate the page to ``about:blank`` from the page itself: a blank page the browser
        opens (``page.goto``) gets a renderer process of its own, and so does the next test's
        first page after it, two new processes a test; one the page opens stays in its
        renderer. From a page that cannot (an error page, a crashed one), the browser opens it.
        A page already at ``about:blank`` goes there again: a test may have written into it.
        """
        try:
            with self.page.expect_navigation(url="about:blank", timeout=_RESET_TIMEOUT_MS):
                self.page.evaluate("location.replace('about:blank')")
        except Error:
            self.page.goto("about:blank", timeout=_RESET_TIMEOUT_MS)


def _listeners(emitter: Page | BrowserContext) -> dict[str, list[Any]]:
    """Each event's listeners on ``emitter``, as Playwright's event emitter holds them."""
    impl = emitter._impl_obj
    return {str(event): list(impl.raw_listeners(event)) for event in impl.event_names()}


def _drop_added_listeners(emitter: Page | BrowserContext, kept: dict[str, list[Any]]) -> None:
    """Remove every listener of ``emitter`` that is not in ``kept``.

    Through the emitter itself: removing an event's last listener also tells Playwright's
    driver to stop sending that event (a "dialog" listener gone, dialogs are dismissed again).
    """
    impl = emitter._impl_obj
    for event, listeners in _listeners(emitter).items():
        for listener in listeners:
            if not any(listener is own for own in kept.get(event, ())):
                impl.remove_listener(event, listener)


def _spend_on_call(tab: Tab, owner: object, names: tuple[str, ...]) -> None:
    """Make each method ``names`` of ``owner`` mark ``tab`` spent before it runs."""
    for name in names:
        method = getattr(owner, name)

        def spending(*args: Any, _method: Callable[..., Any] = method, **kwargs: Any) -> Any:
            tab.spent = True
            return _method(*args, **kwargs)

        setattr(owner, name, spending)


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


#: Values a context has when its options name none: an option with one of these (or None,
#: Playwright's "not named") makes no other context than one without it.
_UNNAMED = {"java_script_enabled": True, "color_scheme": "light"}


def _options_key(options: dict[str, Any]) -> str:
    named = {name: value for name, value in options.items() if _UNNAMED.get(name) != value}
    return json.dumps(named, sort_keys=True, default=repr)


class PagePool:
    """A worker's idle :class:`Tab` objects, the least recently used first."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self._idle: list[tuple[str, Tab]] = []

    def take(self, options: dict[str, Any]) -> Tab:
        """The idle tab with these context options used last, or a new one when none is idle."""
        key = _options_key(options)
        for index in range(len(self._idle) - 1, -1, -1):
            if self._idle[index][0] == key:
                return self._idle.pop(index)[1]
        return self._new(options)

    def give_back(self, tab: Tab) -> None:
        """Reset ``tab`` and keep it for the next test; close it when it cannot be reset."""
        if not tab.spent and not tab.page.is_closed():
            try:
                tab.reset()
            except Error:
                pass
            else:
                self._idle.append((_options_key(tab.options), tab))
                if len(self._idle) > _IDLE_AT_MOST:
                    _close(self._idle.pop(0)[1])
                return
        _close(tab)

    def close(self) -> None:
        """Close every idle tab."""
        for _key, tab in self._idle:
            _close(tab)
        self._idle.clear()

    def _new(self, options: dict[str, Any]) -> Tab:
        context = self._browser.new_context(**options)
        # Every pooled page reports CSP violations on its console (see page_errors): a test
        # that watches for them then adds no init script, which would spend the context.
        report_csp_violations(context)
        page = context.new_page()
        tab = Tab(dict(options), context, page, context.new_cdp_session(page))

        def visited(frame: Frame) -> None:
            if (origin := _origin(frame.url)) is not None:
                tab.origins.add(origin)

        page.on("framenavigated", visited)
        page.on("crash", lambda _page: setattr(tab, "spent", True))
        tab.own_listeners = {"page": _listeners(page), "context": _listeners(context)}
        _spend_on_call(tab, page, _PAGE_FOR_GOOD)
        _spend_on_call(tab, context, _CONTEXT_FOR_GOOD)
        _spend_on_call(tab, context.clock, _CLOCK)
        return tab


def _close(tab: Tab) -> None:
    try:
        tab.context.close()
    except Error:
        pass  # the browser already closed it
