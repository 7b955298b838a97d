"""The web layer's switchable speed tricks: each one is a faster way to produce exactly the
bytes the plain path produces, and ``SPEEDUPS = False`` (``SUDOKU_WEB_SPEEDUPS=false``) turns
all of them off, leaving the plain path (tests run both and compare).

What each trick buys is measured by ``python -m benchmarks.speedups`` (CPU time in one
process) and ``python -m benchmarks.release_compare`` (figures in ``benchmarks/RESULTS.md``,
"Speed tricks re-measured" and "The cold result page's price"):

skeletons
    A solved result page is ~10 KB of fixed markup around a dozen values: it is rendered by
    Jinja once per *shape* (outcome, geometry, script root), cut at its slots, and later
    pages are one ``str.join`` (:mod:`sudoku_web.web.runtime.skeleton` proves each skeleton).
replay by URL
    A ``before_request`` hook answering a GET whose cacheable response is stored under its
    exact URL, without routing or reading the puzzle: a hot share link costs about as much
    as ``/healthz``.
link templates
    A puzzle's ten links (:func:`~sudoku_web.web.puzzles.urls.result_links`: ten ``url_for``
    calls, a tenth to a sixth of a cold result page) are built once per board and origin around a
    marker puzzle, cut there, and later puzzles are filled in. A board's templates are kept
    only when filling them gives exactly the links ``url_for`` builds for the puzzle that
    made them (else that board always takes the plain path); a puzzle that is not plain
    ASCII letters and digits (which ``url_for`` could quote) always takes the plain path.

solved rows
    A solved grid's rows (:meth:`~sudoku_web.web.render.boards.BoardView.rows_html`, a Python loop
    over the cells) are cut, once per board, into each cell's markup for every symbol given
    and every symbol solved, from two drawings per symbol by that same method (a board of
    that symbol given everywhere, and solved everywhere); a page's grid is then one lookup
    per cell, kept per board and language (the cells' labels are the page's words). Kept
    only when the cut has one ``<td`` per cell and filling it gives exactly the drawing of
    the puzzle that made it; a text it cannot read (not canonical) takes the plain path.

The skeletons, link templates and solved rows are bounded in bytes by their own stores, the
replay by the app's store.

Not every faster path is here: some have no plain twin to switch to and are always on, each
in the module it speeds up and saying so there. Grid rows drawn in Python
(:mod:`~sudoku_web.web.render.cell_markup`); a canonical share link's result page trusting the
engine to report bad givens instead of reading the link first (``trust_engine`` of
:func:`~sudoku_web.web.puzzles.request_path.read_share_link`); jigsaw geometries cached under
their canonical map (:func:`~sudoku_web.web.puzzles.urls.jigsaw_geometry`); per-geometry
tables kept in byte-bounded memos (:mod:`~sudoku_web.web.runtime.memo`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final

from flask import Flask, Response, current_app, request
from markupsafe import Markup

from ...core.board import Geometry
from ..puzzles import urls
from ..render.boards import board_view
from ..render.cell_markup import CellWords
from . import cache, languages
from .memo import ByteLRU
from .skeleton import Skeletons

#: The tricks by name, for ``SPEEDUPS`` as a list (``SUDOKU_WEB_SPEEDUPS='"skeletons,replay"'``).
PIECES: Final = ("skeletons", "replay", "links", "rows")

#: Config default: every trick on (the plain path is what tests compare against). ``False``
#: turns all off; a comma-separated list of :data:`PIECES` turns those on (for measuring).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {"SPEEDUPS": True}
PIECES_KEY: Final = "sudoku_speedups"

SKELETONS: Final = "sudoku_skeletons"
LINK_TEMPLATES: Final = "sudoku_link_templates"
SOLVED_ROWS: Final = "sudoku_solved_rows"


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
        # ~2 KB a board and origin; boards (region maps, cages) and hosts come from requests.
        app.extensions[LINK_TEMPLATES] = ByteLRU[Hashable, tuple[tuple[str, str], ...] | None](
            512 * 1024
        )
    if "rows" in pieces:
        # A 9x9 board's cells ~250 KB, a 16x16 one's ~1.4 MB; boards come from requests.
        app.extensions[SOLVED_ROWS] = ByteLRU[Geometry, _CellTable | None](3 * 1024 * 1024)


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
) -> bytes:
    """``plain(slots)`` encoded as UTF-8, through the app's skeletons when they are on (which
    join the page's bytes: :class:`~sudoku_web.web.runtime.skeleton.Skeleton`)."""
    store = current_app.extensions.get(SKELETONS)
    if not isinstance(store, Skeletons):
        return plain(slots).encode()
    return store.render(shape, slots, plain)


# ---- Link templates --------------------------------------------------------------------------

#: The puzzle the templates are built with: letters and digits (``url_for`` leaves it as it is)
#: that no host, region map or cage spelling holds in the same place (checked: it must occur
#: exactly once in each link).
_MARK: Final = "zQ9sudokuLINK9Qz"


def result_links(geometry: Geometry, puzzle: str) -> urls.Links:
    """:func:`~sudoku_web.web.puzzles.urls.result_links`, from the link templates when they are
    on (see the module docstring)."""
    store = current_app.extensions.get(LINK_TEMPLATES)
    if not isinstance(store, ByteLRU) or not (puzzle.isascii() and puzzle.isalnum()):
        return urls.result_links(geometry, puzzle)
    env = request.environ
    origin = (
        env.get("wsgi.url_scheme"),
        env.get("HTTP_HOST"),
        env.get("SERVER_NAME"),
        env.get("SERVER_PORT"),
        env.get("SCRIPT_NAME"),
    )
    key = (geometry, origin)
    known, templates = store.find(key)
    if known:
        if templates is None:  # this board failed the proof
            return urls.result_links(geometry, puzzle)
        # puzzle.join((head, tail)) is head + puzzle + tail, without a Python loop.
        return urls.Links(*map(puzzle.join, templates))
    links = urls.result_links(geometry, puzzle)
    store.put(key, _link_templates(geometry, links, puzzle))
    return links


def _link_templates(
    geometry: Geometry, links: urls.Links, puzzle: str
) -> tuple[tuple[str, str], ...] | None:
    """Every link of ``geometry`` cut around the puzzle, or None unless filling the cuts
    with ``puzzle`` gives exactly ``links`` (its links as ``url_for`` built them)."""
    marked = urls.result_links(geometry, _MARK).fields()
    if any(link.count(_MARK) != 1 for link in marked):
        return None
    templates = tuple((head, tail) for head, _, tail in (m.partition(_MARK) for m in marked))
    filled = tuple(map(puzzle.join, templates))  # as result_links fills them
    return templates if filled == links.fields() else None


# ---- Solved rows ------------------------------------------------------------------------------

#: Per cell, its markup per (given character, solution character): ``(s, s)`` a given
#: ``s``, ``("0", s)`` a blank solved as ``s``; the last cell's also closes the rows. An
#: empty table: a board seen once, not cut yet.
_CellTable = tuple[dict[tuple[str, str], str], ...]


def solved_rows(geometry: Geometry, givens: str, solution: str) -> Markup:
    """``board_view(geometry, givens, solution).rows_html()`` in the request's language, from
    the board's cut cells when the trick is on (see the module docstring). A board is cut the
    second time it is drawn (a fresh region map in every request would otherwise pay for a
    cut each time); its cut cells are kept per board and language (the cells' labels)."""
    words = languages.cell_words()
    store = current_app.extensions.get(SOLVED_ROWS)
    if not isinstance(store, ByteLRU):
        return board_view(geometry, givens, solution, words=words).rows_html()
    key = (geometry, words)
    known, table = store.find(key)
    if table and (filled := _fill(table, givens, solution)) is not None:
        return Markup(filled)
    drawn = board_view(geometry, givens, solution, words=words).rows_html()
    if not known:
        store.put(key, (), 64)  # seen once
    elif table == ():
        cut = _cut_cells(geometry, words)
        filled = None if cut is None else _fill(cut, givens, solution)
        if cut is not None and filled is None:
            return drawn  # a text the cut cannot read proves nothing: cut at the next one
        if filled != drawn:
            cut = None  # the proof failed: this board keeps the plain drawing
        size = 64 if cut is None else sum(len(v) + 96 for cell in cut for v in cell.values())
        store.put(key, cut, size)
    return drawn


def _fill(table: _CellTable, givens: str, solution: str) -> str | None:
    """The rows from cut cells, None when a character has no cell."""
    if not len(givens) == len(solution) == len(table):
        return None
    try:
        return "".join(map(dict.__getitem__, table, zip(givens, solution, strict=True)))
    except KeyError:
        return None


_TD: Final = re.compile("<td")


def _cut_cells(geometry: Geometry, words: CellWords) -> _CellTable | None:
    """Each cell's markup per (given, solution) character, cut from whole-board drawings at
    each ``<td`` (the first cell's piece also opens the rows, a row's last cell's closes it);
    None when a drawing does not have one ``<td`` per cell."""
    cells = geometry.cells
    table: list[dict[tuple[str, str], str]] = [{} for _ in range(cells)]
    for symbol in geometry.symbols:
        for given in (symbol, "0"):
            board = board_view(geometry, given * cells, symbol * cells, words=words)
            drawn = str(board.rows_html())
            starts = [match.start() for match in _TD.finditer(drawn)]
            if len(starts) != cells:
                return None
            cuts = [0, *starts[1:], len(drawn)]
            for cell in range(cells):
                table[cell][given, symbol] = drawn[cuts[cell] : cuts[cell + 1]]
    return tuple(table)


# ---- Replay by URL ---------------------------------------------------------------------------


def _url_key() -> str:
    """The request's exact URL and language (the page's words) as a store key, read straight
    from the WSGI environ."""
    env = request.environ
    host = env.get("HTTP_HOST") or f"{env.get('SERVER_NAME')}:{env.get('SERVER_PORT')}"
    return "url|" + "|".join(
        (
            env.get("wsgi.url_scheme", "http"),
            host,
            env.get("SCRIPT_NAME", ""),
            env.get("PATH_INFO", ""),
            env.get("QUERY_STRING", ""),
            languages.current(),
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
    "Vary",
)


def serve_by_url() -> Response | None:
    """``before_request``: a GET/HEAD of a URL whose validated 200 is stored, answered (or
    304 when ``If-None-Match`` matches its ETag) without routing, reading or hashing.

    Safe because such a response depends only on the URL, the request's language (which the
    key names, :func:`~sudoku_web.web.runtime.languages.current`) and the process's fixed
    config; only responses that :func:`~sudoku_web.web.runtime.cache.
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
