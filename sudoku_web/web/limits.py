"""Request limits that keep one request cheap: the URL length cap (414).

The body limit is Flask's own ``MAX_CONTENT_LENGTH`` (413, rendered by
:mod:`sudoku_web.web.errors`);
the solve itself is bounded by the request budget (``SOLVE_MAX_NODES`` / ``SOLVE_DEADLINE_MS``,
see :class:`sudoku_web.web.budgets.Budget`). This module adds the one missing bound: a URL
(path plus query string) longer than ``MAX_URL_LENGTH`` is refused with ``414 URI Too Long``
before any view runs, as a page in the site's style or as JSON under ``/api/``.

Why a cap on top of the reader's own (``reading.MAX_TEXT``, 2,000 characters, answered with a
422 that says the text is too long to be a puzzle): a share link, a ``?p=`` prefill and an API
GET all carry the puzzle in the URL, so the URL is where an oversized request shows first, and
refusing it early costs no parsing at all. The default leaves room for the longest legitimate
link (a 16x16 jigsaw: a 256-letter map and a 256-symbol puzzle, ~530 characters; a
percent-encoded pretty-printed 9x9 grid, ~1,000) and stays under gunicorn's 4,094-byte request
line, so the app, not the server, answers in the site's style.
"""

from __future__ import annotations

from typing import Any, Final

from flask import Flask, abort, request

#: Config defaults; ``SUDOKU_WEB_MAX_URL_LENGTH`` overrides (0 turns the cap off).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {"MAX_URL_LENGTH": 2_048}


def url_length() -> int:
    """Characters of the request's path plus its (raw) query string."""
    return len(request.path) + len(request.query_string)


def init_app(app: Flask) -> None:
    """Refuses over-long URLs (``MAX_URL_LENGTH``) with 414 before routing to a view."""
    cap = int(app.config["MAX_URL_LENGTH"])

    @app.before_request
    def _refuse_long_urls() -> None:
        if cap and url_length() > cap:
            abort(414)
