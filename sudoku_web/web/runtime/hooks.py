"""Every request hook of the app, in the order it runs: one list, registered by :func:`init_app`.

Flask runs ``before_request`` hooks in the order they were registered, and the first that
answers ends the request's hooks and its view; so the order is written once, here, and no
other module registers a hook (tests/test_layers.py holds this):

before the view
    1. :func:`~sudoku_web.web.runtime.work_clock.start`: the request's work clock starts
       first, so every budget counts the whole request;
    2. :func:`~sudoku_web.web.runtime.speedups.serve_by_url`, when the replay trick is on: a
       stored answer for this exact URL;
    3. :func:`~sudoku_web.web.runtime.limits.long_url_guard`: an over-long URL is a 414 before
       any view reads it (a URL that long was never stored, so the replay cannot answer it).

after the view
    :func:`~sudoku_web.web.runtime.security.header_hook`: the security headers, on every
    response (errors and replayed answers too).

at the request's end
    :func:`~sudoku_web.web.runtime.work_clock.stop`: the core's ladder reads the wall clock
    again.
"""

from __future__ import annotations

from flask import Flask
from flask.typing import BeforeRequestCallable

from . import cache, limits, security, speedups, work_clock


def init_app(app: Flask) -> None:
    """Registers the hooks above (and, with the replay, :func:`~sudoku_web.web.runtime.
    speedups.remember_by_url` on each cacheable answer). ``create_app`` calls it last, since
    the hooks read what the other ``init_app`` functions set up (the store, the tricks, the
    checked config); no other order matters."""
    before: list[BeforeRequestCallable] = [work_clock.start]
    if speedups.replays(app):
        before.append(speedups.serve_by_url)
        app.extensions.setdefault(cache.ON_CACHEABLE, []).append(speedups.remember_by_url)
    before.append(limits.long_url_guard(app))
    for hook in before:
        app.before_request(hook)
    app.after_request(security.header_hook(app))
    app.teardown_request(work_clock.stop)
