"""The web layer's switchable speed tricks: each one is a faster way to produce exactly the
bytes the plain path produces, and ``SPEEDUPS = False`` (``SUDOKU_WEB_SPEEDUPS=false``) turns
all of them off, leaving the plain path (tests run both and compare).

Each trick here buys at least 10% of a scenario's throughput (``python -m benchmarks.speedups``,
CPU time in one process; figures in ``benchmarks/RESULTS.md``, "Speed tricks re-measured"):

skeletons
    A solved result page is ~10 KB of fixed markup around a dozen values: it is rendered by
    Jinja once per *shape* (outcome, geometry, script root), cut at its slots, and later
    pages are one ``str.join`` (:mod:`sudoku_web.web.runtime.skeleton` proves each skeleton).
replay by URL
    A ``before_request`` hook answering a GET whose cacheable response is stored under its
    exact URL, without routing or reading the puzzle: a hot share link costs about as much
    as ``/healthz``.

Roads not taken (removed, each buying under 10%): pre-built solved rows (a per-geometry table
of each cell's ``<td>``) and link templates (a result page's four links filled into
``url_for`` output built once per origin).

The skeletons are bounded in bytes by their own store, the replay by the app's store.

Not every faster path is here: some have no plain twin to switch to and are always on, each
in the module it speeds up and saying so there. Grid rows drawn in Python
(:mod:`~sudoku_web.web.render.cell_markup`); a canonical share link's result page trusting the
engine to report bad givens instead of reading the link first (``trust_engine`` of
:func:`~sudoku_web.web.puzzles.request_path.read_share_link`); jigsaw geometries cached under
their canonical map (:func:`~sudoku_web.web.puzzles.urls.jigsaw_geometry`); per-geometry
tables kept in byte-bounded memos (:mod:`~sudoku_web.web.runtime.memo`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final

from flask import Flask, Response, current_app, request
from markupsafe import Markup

from . import cache
from .skeleton import Skeletons

#: The tricks by name, for ``SPEEDUPS`` as a list (``SUDOKU_WEB_SPEEDUPS='"skeletons,replay"'``).
PIECES: Final = ("skeletons", "replay")

#: Config default: every trick on (the plain path is what tests compare against). ``False``
#: turns all off; a comma-separated list of :data:`PIECES` turns those on (for measuring).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {"SPEEDUPS": True}
PIECES_KEY: Final = "sudoku_speedups"

SKELETONS: Final = "sudoku_skeletons"


def init_app(app: Flask) -> None:
    """Installs the tricks ``SPEEDUPS`` switches on."""
    setting = app.config["SPEEDUPS"]
    if isinstance(setting, str):
        pieces = frozenset(p.strip() for p in setting.split(",") if p.strip())
        if pieces - set(PIECES):
            raise RuntimeError(f"SPEEDUPS names unknown tricks: {sorted(pieces - set(PIECES))}")
    else:
        pieces = frozenset(PIECES) if setting else frozenset()
    if app.debug:  # templates reload: nothing may remember what they drew
        pieces = frozenset()
    app.extensions[PIECES_KEY] = pieces
    if "skeletons" in pieces:
        app.extensions[SKELETONS] = Skeletons()


def replays(app: Flask) -> bool:
    """True when the replay by URL is on (the trick, and a store that keeps answers): then
    :mod:`sudoku_web.web.runtime.hooks` registers :func:`serve_by_url` and
    :func:`remember_by_url`."""
    return "replay" in app.extensions.get(PIECES_KEY, ()) and cache.enabled(cache.get_store(app))


def on(piece: str, app: Flask | None = None) -> bool:
    """True when the trick ``piece`` is switched on."""
    target = app if app is not None else current_app
    return piece in target.extensions.get(PIECES_KEY, ())


# ---- Skeletons -------------------------------------------------------------------------------


def render(
    shape: Hashable, slots: Mapping[str, Markup], plain: Callable[[Mapping[str, Markup]], str]
) -> str:
    """``plain(slots)``, through the app's skeletons when they are on."""
    store = current_app.extensions.get(SKELETONS)
    if not isinstance(store, Skeletons):
        return plain(slots)
    return store.render(shape, slots, plain)


# ---- Replay by URL ---------------------------------------------------------------------------


def _url_key() -> str:
    """The request's exact URL as a store key, read straight from the WSGI environ."""
    env = request.environ
    host = env.get("HTTP_HOST") or f"{env.get('SERVER_NAME')}:{env.get('SERVER_PORT')}"
    return "url|" + "|".join(
        (
            env.get("wsgi.url_scheme", "http"),
            host,
            env.get("SCRIPT_NAME", ""),
            env.get("PATH_INFO", ""),
            env.get("QUERY_STRING", ""),
        )
    )


def remember_by_url(response: Response) -> None:
    """Keeps a validated 200 under its exact URL, for :func:`serve_by_url` (registered with
    :data:`~sudoku_web.web.runtime.cache.ON_CACHEABLE` by :mod:`~sudoku_web.web.runtime.hooks`
    when the replay is on)."""
    if response.status_code != 200 or response.is_streamed:
        return
    if "ETag" not in response.headers:
        return
    headers = tuple((k, v) for k, v in response.headers.items() if k != "Content-Length")
    cache.get_store().set(_url_key(), cache.StoredResponse(200, response.get_data(), headers))


_REVALIDATED_HEADERS: Final = (
    "ETag",
    "Cache-Control",
    "Content-Security-Policy",
    "X-Frame-Options",
)


def serve_by_url() -> Response | None:
    """``before_request``: a GET/HEAD of a URL whose validated 200 is stored, answered (or
    304 when ``If-None-Match`` matches its ETag) without routing, reading or hashing.

    Safe because such a response depends only on the URL and the process's fixed config (no
    cookies, no content negotiation); only responses that :func:`~sudoku_web.web.runtime.cache.
    cacheable` validated with an ETag are stored this way.
    """
    if request.method not in ("GET", "HEAD"):
        return None
    stored = cache.get_store().get(_url_key())
    if not isinstance(stored, cache.StoredResponse):
        return None
    if "HTTP_IF_NONE_MATCH" in request.environ:
        etag = next((v for k, v in stored.headers if k == "ETag"), "")
        if request.if_none_match.contains_weak(etag.strip('"')):
            # A 304 repeats the validators and the policy a view set itself (a framable
            # page's CSP): browsers apply a 304's headers to their stored copy.
            kept = [(k, v) for k, v in stored.headers if k in _REVALIDATED_HEADERS]
            return Response(status=304, headers=kept)
    return stored.to_response()
