"""The web layer's speed tricks, fenced: each one is a faster way to produce exactly the bytes
the plain path produces, and ``SPEEDUPS = False`` (``SUDOKU_WEB_SPEEDUPS=false``) turns all
of them off, leaving the plain path (tests run both and compare).

What is here, and what it buys (measured in-process, ``benchmarks/speedups.py``; figures in
``benchmarks/RESULTS.md``); each was kept because it buys at least 5% of a page's
throughput. Dropped for buying less: remembered template links (within noise once pages come
from skeletons).

skeletons
    A solved result page is ~10 KB of fixed markup around a dozen values: it is rendered by
    Jinja once per *shape* (outcome, geometry, script root), cut at its slots, and later
    pages are one ``str.join`` (:mod:`sudoku_web.web.skeleton` proves each skeleton).
pre-built rows
    A solved grid's ``<td>`` cells from a per-geometry table of each cell's markup per
    (given, solution) pair: one C-level pass instead of :meth:`BoardView.rows_html`.
link templates
    A result page's four links (share path, absolute share link, "Edit", "Print") cost four
    ``url_for`` builds, ~9% of an uncached page. Per app, request origin (scheme, host,
    script root) and geometry, they are built once around a hole and then filled with
    ``str.replace``; puzzles that are not plain letters and digits take ``url_for``.
replay by URL
    A ``before_request`` hook answering a GET whose cacheable response is stored under its
    exact URL, without routing or reading the puzzle: a hot share link costs about as much
    as ``/healthz``.

Every table here is bounded in bytes (:func:`sudoku_web.web.memo.byte_cache`, the skeletons'
own bound, the app's store).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final

from flask import Flask, Response, current_app, request
from markupsafe import Markup

from ..core.board import Geometry
from . import cache, variants
from .boards import _td, board_view, cell_statics
from .memo import ByteLRU, byte_cache
from .skeleton import Skeletons

#: The tricks by name, for ``SPEEDUPS`` as a list (``SUDOKU_WEB_SPEEDUPS='"skeletons,rows"'``).
PIECES: Final = ("skeletons", "rows", "links", "replay")

#: Config default: every trick on (the plain path is what tests compare against). ``False``
#: turns all off; a comma-separated list of :data:`PIECES` turns those on (for measuring).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {"SPEEDUPS": True}
PIECES_KEY: Final = "sudoku_speedups"

SKELETONS: Final = "sudoku_skeletons"
LINK_TEMPLATES: Final = "sudoku_link_templates"


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
    if "links" in pieces:
        # Bounded because the Host header comes from the client: ~1 KB an origin and geometry.
        app.extensions[LINK_TEMPLATES] = ByteLRU[tuple[str, ...], variants.Links](256 * 1024)
    if "replay" in pieces and cache.enabled(cache.get_store(app)):
        app.before_request(serve_by_url)
        app.extensions.setdefault(cache.ON_CACHEABLE, []).append(remember_by_url)


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


# ---- Pre-built rows --------------------------------------------------------------------------


def solution_rows_html(geometry: Geometry, givens: str, solution: str) -> Markup:
    """``board_view(geometry, givens, solution).rows_html()`` for canonical strings, from a
    per-geometry table of each cell's markup per (given, solution) pair (when on)."""
    if not on("rows"):
        return board_view(geometry, givens, solution).rows_html()
    try:
        cells = "".join(
            map(dict.__getitem__, _solved_cells(geometry), zip(givens, solution, strict=True))
        )
    except KeyError:  # not canonical (say a lower-case symbol): the general drawing
        return board_view(geometry, givens, solution).rows_html()
    return Markup(cells + _ROW_END)


_ROW_START, _ROW_BREAK, _ROW_END = "\n    <tr>", "\n    </tr>\n    <tr>", "\n    </tr>"


@byte_cache(2 * 1024 * 1024)  # a 9x9 table is ~150 KB; jigsaw geometries come from URLs
def _solved_cells(geometry: Geometry) -> tuple[dict[tuple[str, str], str], ...]:
    """Per cell, its ``<td>`` for each (given, solution) pair of canonical symbols: a given
    shows itself, a blank ("0") the solution's symbol as solved; a row's first cell also
    starts the row (9x9: 81 dicts of 18)."""
    n = geometry.size
    out = []
    for index, (tail, label, total) in enumerate(cell_statics(geometry)):
        start = "" if index % n else (_ROW_BREAK if index else _ROW_START)
        cells = {}
        for sym in geometry.symbols:
            cells[sym, sym] = start + _td(tail, label, sym, "given", False, False, total)
            cells["0", sym] = start + _td(tail, label, sym, "solved", False, False, total)
        out.append(cells)
    return tuple(out)


# ---- Link templates --------------------------------------------------------------------------

#: Stands for the puzzle while a template is built: "~" is unreserved, so ``url_for`` keeps
#: it as it is, and no canonical puzzle holds it.
_HOLE: Final = "~~"


def result_links(geometry: Geometry, puzzle: str) -> variants.Links:
    """:func:`variants.result_links`, from the origin's and geometry's templates (when on)."""
    table = current_app.extensions.get(LINK_TEMPLATES)
    if not isinstance(table, ByteLRU) or not puzzle.isalnum():
        return variants.result_links(geometry, puzzle)
    env = request.environ
    key = (
        env.get("wsgi.url_scheme", "http"),
        env.get("HTTP_HOST") or f"{env.get('SERVER_NAME')}:{env.get('SERVER_PORT')}",
        env.get("SCRIPT_NAME", ""),
        cache.geometry_key(geometry),
    )
    template = table.get(key)
    if template is None:
        template = variants.result_links(geometry, _HOLE)
        if any(link.count(_HOLE) != 1 for link in template.fields()):
            return variants.result_links(geometry, puzzle)  # a hole was escaped: no template
        table.put(key, template)
    return variants.Links(*(link.replace(_HOLE, puzzle) for link in template.fields()))


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
    :data:`~sudoku_web.web.cache.ON_CACHEABLE` when the replay is on)."""
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
    cookies, no content negotiation); only responses that :func:`~sudoku_web.web.cache.
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
