"""Request limits that keep one request cheap: the URL length cap (414), a body the server
cannot read refused as the client's fault (400), and the one route family allowed a large body
(a photo upload).

The body limit is Flask's own ``MAX_CONTENT_LENGTH`` (413, rendered by
:mod:`sudoku_web.web.runtime.errors`), 16 KiB for every route but the photo readers
(``POST /read`` and ``POST /api/read``), whose views call :func:`allow_photo_upload` before
they touch the body: Flask 3.1's per-request ``max_content_length`` then lets up to
``PHOTO_MAX_CONTENT_LENGTH`` (8 MiB) through for that request only;
the solve itself is bounded by the request budget (``SOLVE_MAX_NODES`` / ``SOLVE_DEADLINE_MS``,
see :class:`sudoku_web.web.runtime.budgets.Budget`). This module also adds the URL's bound: a URL
(path plus query string) longer than ``MAX_URL_LENGTH`` is refused with ``414 URI Too Long``
before any view runs, as a page in the site's style or as JSON under ``/api/``.

Why a cap on top of the reader's own (``puzzle_text.MAX_TEXT``, 2,000 characters, answered with a
422 that says the text is too long to be a puzzle): a share link, a ``?p=`` prefill and an API
GET all carry the puzzle in the URL, so the URL is where an oversized request shows first, and
refusing it early costs no parsing at all. The default leaves room for the longest legitimate
link (a 16x16 jigsaw: a 256-letter map and a 256-symbol puzzle, ~530 characters; a
percent-encoded pretty-printed 9x9 grid, ~1,000) and stays under gunicorn's 4,094-byte request
line, so the app, not the server, answers in the site's style.

A body is read by the server only when a view asks for it. A malformed chunked body (a chunk
size such as ``zz``, ``-2`` or ``0x2``) then makes gunicorn raise its own parse error from
``wsgi.input``: :class:`ReadableBody` turns any such error into a 400 that says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from flask import Flask, abort, current_app, request
from werkzeug.exceptions import BadRequest, HTTPException

MALFORMED_BODY: Final = "The request body could not be read: its chunked encoding is malformed."

#: Config defaults; ``SUDOKU_WEB_MAX_URL_LENGTH`` overrides (0 turns the cap off).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {
    "MAX_URL_LENGTH": 2_048,
    # A phone photo as a JPEG is 2-5 MB (12 MP); with the multipart wrapping, 8 MiB.
    # SUDOKU_WEB_PHOTO_MAX_CONTENT_LENGTH overrides; keep nginx's photo locations in step.
    "PHOTO_MAX_CONTENT_LENGTH": 8 * 1024 * 1024,
}


def allow_photo_upload() -> int:
    """Raises this request's body limit to ``PHOTO_MAX_CONTENT_LENGTH`` (returned); call it
    before the body is read. Every other request keeps ``MAX_CONTENT_LENGTH``."""
    cap = int(current_app.config["PHOTO_MAX_CONTENT_LENGTH"])
    request.max_content_length = cap
    return cap


def url_length() -> int:
    """Characters of the request's path plus its (raw) query string."""
    return len(request.path) + len(request.query_string)


class _Input:
    """``wsgi.input`` whose read errors (the server's, not an HTTP error) become a 400."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def _guard(self, read: Callable[..., Any], *args: Any) -> Any:
        try:
            return read(*args)
        except (HTTPException, OSError):
            raise  # already an answer, or a disconnect Werkzeug handles itself
        except Exception as exc:  # gunicorn's InvalidChunkSize and other parse errors
            raise BadRequest(MALFORMED_BODY) from exc

    def read(self, *args: Any) -> Any:
        return self._guard(self.stream.read, *args)

    def readline(self, *args: Any) -> Any:
        return self._guard(self.stream.readline, *args)

    def readlines(self, *args: Any) -> Any:
        return self._guard(self.stream.readlines, *args)

    def __iter__(self) -> Any:
        return iter(self.readline, b"")


class ReadableBody:
    """WSGI middleware: the app reads its body through :class:`_Input`."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if "wsgi.input" in environ:
            environ["wsgi.input"] = _Input(environ["wsgi.input"])
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    """Refuses unreadable bodies with 400 (:class:`ReadableBody`)."""
    app.wsgi_app = ReadableBody(app.wsgi_app)  # type: ignore[method-assign]


def long_url_guard(app: Flask) -> Callable[[], None]:
    """The ``before_request`` hook refusing over-long URLs (``MAX_URL_LENGTH``) with 414
    before routing to a view (registered by :mod:`sudoku_web.web.runtime.hooks`)."""
    cap = int(app.config["MAX_URL_LENGTH"])

    def refuse_long_urls() -> None:
        if cap and url_length() > cap:
            abort(414)

    return refuse_long_urls
