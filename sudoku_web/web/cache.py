"""Caching of deterministic solve results: an in-process LRU and HTTP validators.

A puzzle's result depends only on the puzzle, the variant (and jigsaw regions) and the solve
budget, so it can be reused freely -- except when the solve stopped at its wall-clock deadline,
which depends on the machine's load (:func:`is_deterministic` says which results qualify).

Two layers, both optional:

* :class:`ResultCache` -- a bounded, thread-safe LRU of results per worker process, stored on
  the app (``app.extensions["sudoku_cache"]``) by :func:`init_app`, never in a module global.
  A shared link that goes viral then costs one solve per worker. ``RESULT_CACHE_SIZE`` entries
  (0 disables it). A 9x9 ``SolveResult`` is about 1-2 KB, a rendered page about 9 KB.
* :func:`cached_response` -- the same LRU holding a finished 200 response (body and its
  headers). Rendering the result page costs as much as the solve itself, so a cached *page*
  is what makes a hot link nearly as cheap as a trivial route (issue 4's load target).
* :func:`conditional` -- strong ``ETag`` plus ``Cache-Control: public, max-age=...`` on
  cacheable responses, and ``304 Not Modified`` for a matching ``If-None-Match`` *before* the
  page is built, so a revalidation costs no solve at all. nginx's proxy cache and browsers
  do the rest.

Use from a view (one helper per layer, so every route caches the same way)::

    key = cache.key_for(puzzle, geometry)            # canonical text + geometry + app budget
    def build() -> ResponseReturnValue:
        result = cache.cached_solve(puzzle, geometry) # the LRU around service.solve_puzzle
        return render_template(..., result=result)
    return cache.cacheable("page", key, build)       # 304 / whole-page LRU / ETag + max-age

:func:`cached_solve` remembers on ``flask.g`` when the request's result hit its wall-clock
deadline, and :func:`cacheable` then marks the response ``no-store``: such a page is neither
kept in the LRU nor given validators, with no per-view bookkeeping.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Final, Generic, NamedTuple, TypeVar

from flask import Flask, Response, current_app, g, make_response, request
from flask.typing import ResponseReturnValue
from werkzeug.http import quote_etag, unquote_etag

from ..core.board import Geometry, standard
from ..core.solver import SolveResult
from .service import Budget, solve_puzzle

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

EXTENSION: Final = "sudoku_cache"

#: Config defaults, applied with ``setdefault`` by :func:`init_app`; the environment sets them
#: as ``SUDOKU_WEB_RESULT_CACHE_SIZE`` etc. through ``from_prefixed_env``.
CONFIG_DEFAULTS: Final[dict[str, Any]] = {
    # Entries per worker process (results and rendered pages share it); 0 = no in-process
    # cache. A 9x9 result page is ~9 KB, so 512 entries cost at most ~5-10 MB per worker.
    "RESULT_CACHE_SIZE": 512,
    "HTTP_CACHE_MAX_AGE": 86_400,  # seconds; a day, so a new release reaches users by tomorrow
    "ETAG_SALT": "",  # change it to invalidate every ETag without a release (e.g. a new theme)
}


@dataclass(frozen=True)
class CacheStats:
    """A snapshot of a cache's counters."""

    hits: int
    misses: int
    size: int
    maxsize: int


class ResultCache(Generic[K, V]):
    """A bounded least-recently-used map, safe to share between a worker's threads.

    ``maxsize`` 0 disables it: nothing is stored and every lookup is a miss.
    """

    def __init__(self, maxsize: int) -> None:
        if maxsize < 0:
            raise ValueError(f"cache size must be 0 or more, not {maxsize}")
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[K, V] = OrderedDict()
        # One lock around every read and write: OrderedDict's move_to_end/popitem are not
        # atomic together, and the critical sections are a few dict operations long.
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._data

    def get(self, key: K, *, count_miss: bool = True) -> V | None:
        """The value for ``key`` (now the most recently used), or None; counts a hit or miss.

        ``count_miss=False`` for speculative lookups (the by-URL fast path tries every GET).
        """
        with self._lock:
            try:
                value = self._data[key]
            except KeyError:
                if count_miss:
                    self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: K, value: V) -> None:
        """Stores ``value``, evicting the least recently used entries beyond ``maxsize``."""
        if self.maxsize == 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def get_or_compute(
        self,
        key: K,
        compute: Callable[[], V],
        store_if: Callable[[V], bool] | None = None,
    ) -> V:
        """The cached value for ``key``, else ``compute()``, stored when ``store_if`` allows.

        ``compute`` runs outside the lock, so a slow solve never blocks other lookups; two
        threads missing the same key at once may both compute it (harmless: same result).
        """
        value = self.get(key)
        if value is not None:
            return value
        value = compute()
        if store_if is None or store_if(value):
            self.put(key, value)
        return value

    def clear(self) -> None:
        """Drops every entry and resets the counters."""
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def stats(self) -> CacheStats:
        """Counters and size, read together."""
        with self._lock:
            return CacheStats(self.hits, self.misses, len(self._data), self.maxsize)


class SolveKey(NamedTuple):
    """Everything that determines a solve's result (the canonical request)."""

    puzzle: str  # canonical text, e.g. service.canonical(grid)
    variant: str
    regions: str | None
    budget: Hashable  # e.g. service.Budget (frozen) or (max_nodes, deadline_ms)

    def __repr__(self) -> str:
        # The NamedTuple's own text (part of every ETag), written out: twice as fast.
        return (
            f"SolveKey(puzzle={self.puzzle!r}, variant={self.variant!r}, "
            f"regions={self.regions!r}, budget={self.budget!r})"
        )


def solve_key(
    puzzle: str,
    *,
    variant: str = "standard",
    regions: str | None = None,
    budget: Hashable = None,
) -> SolveKey:
    """The cache key of a request; pass the *canonical* puzzle text so spellings share it."""
    return SolveKey(puzzle, variant, regions, budget)


def is_deterministic(result: SolveResult) -> bool:
    """False only for a solve cut short by its wall-clock deadline (load-dependent)."""
    return not (result.status == "gave_up" and result.reason == "deadline")


def init_app(app: Flask) -> ResultCache[Any, Any]:
    """Creates the app's result cache from ``RESULT_CACHE_SIZE`` and fills config defaults."""
    for name, value in CONFIG_DEFAULTS.items():
        app.config.setdefault(name, value)
    size = int(app.config["RESULT_CACHE_SIZE"])
    cache: ResultCache[Any, Any] = ResultCache(size)
    app.extensions[EXTENSION] = cache
    if size and not app.debug:
        app.before_request(serve_by_url)
    return cache


def get_cache(app: Flask | None = None) -> ResultCache[Any, Any]:
    """The result cache of ``app`` (default: the current app); a disabled one if none."""
    target = app if app is not None else current_app
    cache = target.extensions.get(EXTENSION)
    if cache is None:
        # Not initialised (e.g. a test app): behave as "cache off" rather than fail a request.
        cache = target.extensions.setdefault(EXTENSION, ResultCache(0))
    assert isinstance(cache, ResultCache)
    return cache


@dataclass(frozen=True)
class StoredResponse:
    """A finished response kept in the LRU: status, body and the view's own headers."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]

    def to_response(self) -> Response:
        """A fresh Response (hooks such as the security headers run on it as usual)."""
        return Response(self.body, status=self.status, headers=list(self.headers))


def cached_response(key: Hashable, build: Callable[[], ResponseReturnValue]) -> Response:
    """The cached response for ``key``, else ``build()``, kept when it is a cacheable 200.

    For deterministic pages: the key must name everything the body depends on (e.g.
    ``("page", solve_key)``); the request's scheme and host are added here because pages
    may contain absolute share links. Responses marked ``no-store`` or not 200 are never kept.
    """
    lru = get_cache()
    full_key = (request.url_root, key)
    stored = lru.get(full_key)
    if isinstance(stored, StoredResponse):
        return stored.to_response()
    response = make_response(build())
    if lru.maxsize and response.status_code == 200 and not response.cache_control.no_store:
        if not response.is_streamed:
            headers = tuple((k, v) for k, v in response.headers.items() if k != "Content-Length")
            lru.put(full_key, StoredResponse(response.status_code, response.get_data(), headers))
    return response


@functools.cache  # one entry; the metadata lookup costs ~0.1 ms, a third of a trivial request
def app_version() -> str:
    """The installed package version ("0" when running from an uninstalled tree)."""
    try:
        return metadata.version("sudoku-web")
    except metadata.PackageNotFoundError:
        return "0"


def etag_for(*parts: object, app: Flask | None = None) -> str:
    """A strong ETag for a deterministic response built from ``parts``.

    The hash covers the parts (say the route name and the :class:`SolveKey`), the package
    version (a release may change the page) and ``ETAG_SALT``. Returned unquoted, as
    Werkzeug's ``set_etag`` expects.
    """
    target = app if app is not None else current_app
    salt = str(target.config.get("ETAG_SALT", ""))
    text = "\x1f".join([app_version(), salt, *(repr(p) for p in parts)])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _cache_headers(response: Response, etag: str, max_age: int) -> None:
    # Plain header strings: going through response.cache_control re-parses and re-serialises
    # the header on every attribute set, which costs more than a cached page's lookup.
    response.headers["ETag"] = quote_etag(etag)
    response.headers["Cache-Control"] = f"public, max-age={max_age}"


def conditional(
    etag: str,
    build: Callable[[], ResponseReturnValue],
    *,
    max_age: int | None = None,
    app: Flask | None = None,
    mark: bool = False,
) -> Response:
    """Answers 304 when ``If-None-Match`` matches ``etag``, else builds and marks the response.

    ``build`` is only called when the client's copy is missing or stale. Its response gets
    the ETag and ``Cache-Control: public, max-age=<HTTP_CACHE_MAX_AGE>`` only if it is a 200
    and does not already say ``no-store`` (how a builder flags a deadline-dependent result).
    In debug mode nothing is cached, so template edits show up on reload. ``mark``: a
    request flagged by :func:`mark_uncacheable` gets ``no-store`` (as :func:`cacheable` does).
    """
    if app is None:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
    age = int(app.config.get("HTTP_CACHE_MAX_AGE", 0) if max_age is None else max_age)
    if app.debug:
        response = make_response(build())
        if mark:
            _marked(response)
        response.cache_control.no_cache = True
        return response
    env = request.environ
    if (
        "HTTP_IF_NONE_MATCH" in env
        and env["REQUEST_METHOD"] in ("GET", "HEAD")
        and request.if_none_match.contains_weak(etag)
    ):
        # RFC 9110 13.1.2: If-None-Match uses weak comparison; a 304 repeats the validators.
        not_modified = Response(status=304)
        _cache_headers(not_modified, etag, age)
        return not_modified
    response = _as_response(build())
    if mark:
        _marked(response)
    if response.status_code == 200 and "no-store" not in _cache_control(response):
        _cache_headers(response, etag, age)
    return response


def _marked(response: Response) -> Response:
    """``no-store`` on ``response`` when this request was flagged by mark_uncacheable()."""
    if g.get(_UNCACHEABLE):
        response.cache_control.no_store = True
    return response


def _cache_control(response: Response) -> str:
    # A scan of the few headers a fresh response has: Headers.get raises and catches an
    # exception for a missing name, which cost more than this on every uncached page.
    for name, value in response.headers.items():
        if name.lower() == "cache-control":
            return value
    return ""


def _as_response(value: ResponseReturnValue) -> Response:
    # Builders mostly return a Response already: skip make_response's checks (hot path).
    return value if isinstance(value, Response) else make_response(value)


# ---------------------------------------------------------------------------------------------
# Request-level helpers: what views and the API call (one line per route)

_UNCACHEABLE: Final = "sudoku_uncacheable"  # flask.g flag: this request's result hit a deadline


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
def geometry_key(geometry: Geometry) -> tuple[str, str | None]:
    """``(variant, regions)`` parts of a :class:`SolveKey` that pin down ``geometry``.

    The size and box shape go into the variant name (a 6x6 grid may have 2x3 or 3x2 boxes),
    and a jigsaw's region map into ``regions``, as hex bytes (region indices are < 256).
    """
    variant = f"{geometry.variant}:{geometry.size}"
    if geometry.box_shape is not None:
        variant += ":{}x{}".format(*geometry.box_shape)
    regions = bytes(geometry.regions).hex() if geometry.regions is not None else None
    return variant, regions


def key_for(
    puzzle: str, geometry: Geometry | None = None, config: Mapping[str, Any] | None = None
) -> SolveKey:
    """The key of solving the canonical ``puzzle`` on ``geometry`` with the app's budget
    (from ``config``, default the current app's)."""
    variant, regions = geometry_key(geometry or standard(9))
    budget = Budget.from_config(current_app.config if config is None else config)
    return solve_key(puzzle, variant=variant, regions=regions, budget=budget)


def cached_solve(
    puzzle: str, geometry: Geometry | None = None, key: SolveKey | None = None
) -> SolveResult:
    """``service.solve_puzzle`` with the app's budget, through the app's result LRU.

    ``key`` is :func:`key_for` of the same puzzle and geometry, when the caller has it.
    A result cut short by the deadline is not stored, and flags the request so that
    :func:`cacheable` sends its response with ``no-store``.
    """
    geo = geometry or standard(9)
    key = key or key_for(puzzle, geo)
    budget = key.budget
    assert isinstance(budget, Budget)
    lru = get_cache()
    result: SolveResult
    if lru.maxsize:
        result = lru.get_or_compute(
            key, lambda: solve_puzzle(puzzle, budget, geo), store_if=is_deterministic
        )
    else:
        result = solve_puzzle(puzzle, budget, geo)
    if not is_deterministic(result):
        mark_uncacheable()
    return result


def mark_uncacheable() -> None:
    """Flags this request's response as load-dependent: :func:`cacheable` then sends it with
    ``no-store``, without an ETag, and keeps it out of the LRU.

    For any bounded work whose answer depends on the wall clock (a solve, the doctor, an
    explanation cut short by its deadline), also when it runs while the template renders.
    """
    setattr(g, _UNCACHEABLE, True)


def cacheable(kind: str, key: Hashable, build: Callable[[], ResponseReturnValue]) -> Response:
    """A deterministic GET response: 304 on a matching ``If-None-Match``, else the LRU's copy,
    else ``build()``, sent with an ``ETag`` and ``Cache-Control: public, max-age``.

    ``kind`` names the representation ("page", "api", "png"), so one key can back several.
    A response whose solve hit its deadline (see :func:`cached_solve`) gets ``no-store``
    instead, and is neither kept nor validated. In debug mode nothing is kept, so template
    edits show on reload.
    """

    def build_marked() -> Response:
        return _marked(_as_response(build()))

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    etag = etag_for(kind, key, app=app)
    if app.debug or not get_cache(app).maxsize:  # nothing to keep: skip the LRU's keys
        return conditional(etag, build, app=app, mark=True)
    response = conditional(etag, lambda: cached_response((kind, key), build_marked), app=app)
    if response.status_code == 200 and "ETag" in response.headers and not response.is_streamed:
        # Also keep the finished response under its exact URL, for serve_by_url().
        headers = tuple((k, v) for k, v in response.headers.items() if k != "Content-Length")
        get_cache().put(_url_key(), StoredResponse(200, response.get_data(), headers))
    return response


def _url_key() -> tuple[str, ...]:
    """The request's exact URL as an LRU key, read straight from the WSGI environ (cheap)."""
    env = request.environ
    host = env.get("HTTP_HOST") or f"{env.get('SERVER_NAME')}:{env.get('SERVER_PORT')}"
    return (
        "url",
        env.get("wsgi.url_scheme", "http"),
        host,
        env.get("SCRIPT_NAME", ""),
        env.get("PATH_INFO", ""),
        env.get("QUERY_STRING", ""),
    )


_REVALIDATED_HEADERS: Final = (
    "ETag",
    "Cache-Control",
    "Content-Security-Policy",
    "X-Frame-Options",
)


def serve_by_url() -> Response | None:
    """``before_request`` fast path: a GET/HEAD of a URL whose cacheable 200 is in the LRU.

    Answers it (or 304 when ``If-None-Match`` matches its ETag) without routing, reading the
    puzzle or hashing an ETag: a hot share link then costs about as much as ``/healthz``
    (issue 4's "cache on >= 80% of baseline"). Safe because such a response depends only on
    the URL and the process's fixed config (no cookies, no content negotiation); only
    responses that :func:`cacheable` marked with an ETag are stored this way.
    """
    if request.method not in ("GET", "HEAD"):
        return None
    lru = get_cache()
    if not lru.maxsize:
        return None
    stored = lru.get(_url_key(), count_miss=False)
    if not isinstance(stored, StoredResponse):
        return None
    if "HTTP_IF_NONE_MATCH" in request.environ:
        etag = next((v for k, v in stored.headers if k == "ETag"), "")
        if request.if_none_match.contains_weak(unquote_etag(etag)[0] or ""):
            # A 304 repeats the validators and the policy a view set itself (a framable
            # page's CSP): browsers apply a 304's headers to their stored copy.
            kept = [(k, v) for k, v in stored.headers if k in _REVALIDATED_HEADERS]
            return Response(status=304, headers=kept)
    return stored.to_response()
