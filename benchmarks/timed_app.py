"""sudoku-web's app with each request's CPU time in a response header, for the hostile test.

    gunicorn ... 'benchmarks.timed_app:create_app()'

On a shared machine a request's wall-clock time says as much about the neighbours as about
the request; the CPU time its worker thread spent on it does not. ``X-Cpu-Ms`` is measured
with ``time.thread_time()`` from the request's arrival in the app to ``start_response``,
which covers all the app's work (its responses are built before they are started, none is
streamed); the load test reads it from gunicorn's access log. The wrapper costs a few
microseconds and changes nothing else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

import sudoku_web

Environ = dict[str, Any]
StartResponse = Callable[..., Any]


def create_app() -> Flask:
    """The real app, its ``wsgi_app`` wrapped to add ``X-Cpu-Ms``."""
    app = sudoku_web.create_app()
    inner = app.wsgi_app

    def timed(environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        started = time.thread_time()

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            spent = (time.thread_time() - started) * 1000
            return start_response(status, [*headers, ("X-Cpu-Ms", f"{spent:.1f}")], exc_info)

        return inner(environ, start)

    app.wsgi_app = timed  # type: ignore[method-assign]
    return app
