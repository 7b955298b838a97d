"""Caching deterministic answers: one byte-budgeted store per app, and HTTP validators.

A puzzle's result depends only on the puzzle, its geometry and the budgets, so results, the
doctor's answers and whole rendered responses can be reused freely -- except when work
stopped at a deadline, which depends on the machine (its speed and load: such answers are
marked with :func:`mark_uncacheable` and never kept or validated).

Vocabulary:

store
    A `cachelib <https://cachelib.readthedocs.io>`_ cache (``get``/``set`` by string key).
    ``CACHE_BACKEND`` picks it: ``memory`` (the default: :class:`MemoryStore`, a
    least-recently-used map per worker bounded by ``CACHE_MAX_BYTES``) or ``redis``
    (``CACHE_URL=redis://host:port/db``: one cache shared by every worker of every node; its
    byte budget is the Redis server's ``maxmemory`` with ``allkeys-lru``, see docs/self-hosting.md,
    "Scaling out"). A shared store that cannot be reached behaves as a miss, never as an error.
key
    Text that names everything an answer depends on (:class:`SolveKey` and :func:`text_key`),
    so the same key means the same answer on every node.
ETag
    :func:`etag_for`: a hash of the representation's kind, its key, the package version and
    ``ETAG_SALT``. Computed from the key text, never from a ``repr()``.

Use from a view (one call per route, so every route caches the same way)::

    key = cache.solve_key(puzzle, geometry)            # canonical text + geometry + budget
    def build() -> Response:
        result = solving.cached_solve(puzzle, geometry)  # solve_puzzle through the store
        return render_template(..., result=result)
    return cache.cacheable("page", key.text, build)    # 304 / stored response / ETag + max-age

Roads not taken: Flask-Caching (its ``@cached`` view decorator keys on the request path and
cannot see that a deadline cut an answer short; we need the store and validators only, which
cachelib and Werkzeug already give); cachelib's ``SimpleCache`` (bounded in entries, not
bytes: a 16x16 steps page is 60 times a 9x9 result page).
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import pickle
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import metadata
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit

from cachelib import BaseCache
from cachelib.serializers import RedisSerializer
from flask import Flask, Response, current_app, g, make_response, request
from flask.typing import ResponseReturnValue
from werkzeug.http import dump_header, quote_etag
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import Geometry, InvalidPuzzle, standard
from ...core.cages import from_link, link_spelling
from ...core.rules.spelling import spell as rules_spelling
from ...core.solver import SolveResult
from ...core.variants import find_variant
from ..puzzles.urls import canonical_regions, jigsaw_geometry
from .budgets import Budget
from .languages import VARY, current
from .memo import ByteLRU, byte_cache

logger = logging.getLogger(__name__)

AnyResponse = TypeVar("AnyResponse", bound=BaseResponse)

EXTENSION: Final = "sudoku_cache"
#: ``app.extensions`` key of the callables :func:`cacheable` hands each validated response to
#: (a speed trick registers there, so this module never imports the tricks).
ON_CACHEABLE: Final = "sudoku_on_cacheable"

#: Config defaults (``sudoku_web.defaults()`` gathers them for ``create_app``); the environment
#: sets them as ``SUDOKU_WEB_CACHE_MAX_BYTES`` etc. through ``from_prefixed_env``.
CONFIG_DEFAULTS: Final[dict[str, Any]] = {
    # "memory" (per worker) or "redis" (shared; CACHE_URL names the server).
    "CACHE_BACKEND": "memory",
    "CACHE_URL": "",
    # Bytes per worker for the in-process store (results, doctor answers, pages, pictures):
    # 8 MiB holds ~800 9x9 result pages or ~13 16x16 steps pages. 0 turns caching off.
    "CACHE_MAX_BYTES": 8 * 1024 * 1024,
    # Larger answers are never stored (a 16x16 steps page is ~600 KB): one must not evict
    # hundreds of small ones.
    "CACHE_MAX_ITEM_BYTES": 1024 * 1024,
    "HTTP_CACHE_MAX_AGE": 86_400,  # seconds; a day, so a new release reaches users by tomorrow
    "ETAG_SALT": "",  # change it to invalidate every ETag without a release (e.g. a new theme)
}


# ---------------------------------------------------------------------------------------------
# Stores


class _Pickler(pickle.Pickler):
    """Pickles a geometry as a reference (variant, size, region map, cages' link spelling),
    not as its tables: the
    geometry is shared by every answer about it (and carries the engine's tables, megabytes
    for 16x16), so an answer neither pays for it nor carries it to a shared store."""

    def persistent_id(self, obj: object) -> object:
        # A board with rules is pickled whole: a reference would drop them.
        if isinstance(obj, Geometry) and not obj.rules and obj.houses == _rebuilt_houses(obj.base):
            cages = link_spelling(obj.cages, obj) if obj.cages else None
            return (obj.variant, obj.size, _map_text(obj), cages)
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Geometry:
        variant, size, regions, cages = pid
        if regions is not None:
            board = jigsaw_geometry(regions)  # the web's byte-bounded table of maps
        else:
            board = find_variant(variant).geometry(size)
        return board.with_cages(from_link(cages, board)) if cages else board


@byte_cache(4 * 1024 * 1024)
def _rebuilt_houses(geometry: Geometry) -> object:
    """The houses the registry builds for this geometry's variant and size (a region sketch
    of a refused map has other houses: it is pickled whole)."""
    try:
        if geometry.regions is not None:
            return jigsaw_geometry(_map_text(geometry) or "").houses
        return find_variant(geometry.variant).geometry(geometry.size).houses
    except InvalidPuzzle:
        return None


def _map_text(geometry: Geometry) -> str | None:
    return canonical_regions(geometry) if geometry.regions is not None else None


def dumps(value: object) -> bytes:
    """A value as bytes, geometries by reference (see :class:`_Pickler`)."""
    out = io.BytesIO()
    _Pickler(out, pickle.HIGHEST_PROTOCOL).dump(value)
    return out.getvalue()


def loads(data: bytes) -> Any:
    """The reverse of :func:`dumps` (geometries from this process's tables)."""
    return _Unpickler(io.BytesIO(data)).load()


class GeometrySerializer(RedisSerializer):
    """cachelib's Redis serializer with :func:`dumps` / :func:`loads` as its pickle."""

    def dumps(self, value: Any, protocol: int = pickle.HIGHEST_PROTOCOL) -> bytes:
        if type(value) is int:
            return super().dumps(value, protocol)
        return b"!" + dumps(value)

    def loads(self, value: bytes | None) -> Any:
        if value is not None and value.startswith(b"!"):
            try:
                return loads(value[1:])
            except (pickle.PickleError, InvalidPuzzle, KeyError, ValueError):
                return None
        return super().loads(value)


def _nbytes(value: object) -> int:
    """What a value costs in the store: its size as :func:`dumps` writes it (what a shared
    store holds too); a stored response's from its body and headers, without pickling it
    (:meth:`StoredResponse.nbytes`)."""
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, StoredResponse):
        return value.nbytes
    return len(dumps(value))


class MemoryStore(BaseCache):
    """A least-recently-used cachelib store bounded in bytes, safe across a worker's threads.

    Values are kept as objects (a hit costs a dict lookup, no unpickling); each is charged
    its pickled size when stored. ``max_bytes`` 0 keeps nothing.
    """

    def __init__(self, max_bytes: int, max_item_bytes: int | None = None) -> None:
        super().__init__(default_timeout=0)
        if max_bytes < 0:
            raise ValueError(f"a cache budget must be 0 bytes or more, not {max_bytes}")
        self.max_bytes = max_bytes
        self.max_item_bytes = max_bytes if max_item_bytes is None else max_item_bytes
        self.hits = 0
        self.misses = 0
        self._counting = threading.Lock()  # ``+=`` is not atomic across a worker's threads
        self.entries = ByteLRU[str, object](max_bytes)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def bytes(self) -> int:
        """What the entries are charged in all."""
        return self.entries.bytes

    def get(self, key: str) -> Any:
        value = self.entries.get(key)
        with self._counting:
            if value is None:
                self.misses += 1
            else:
                self.hits += 1
        return value

    def has(self, key: str) -> bool:
        return key in self.entries

    def set(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        if not self.max_bytes:
            return False
        size = _nbytes(value) + len(key)
        if size > self.max_item_bytes:
            return False
        return self.entries.put(key, value, size)

    def add(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        return False if self.has(key) else self.set(key, value, timeout)

    def delete(self, key: str) -> bool:
        return self.entries.pop(key)

    def clear(self) -> bool:
        self.entries.clear()
        self.hits = self.misses = 0
        return True


class SharedStore(BaseCache):
    """A shared cachelib store (Redis) that answers a miss when its server cannot be reached:
    a cache outage slows the site down, it never breaks it."""

    def __init__(self, inner: BaseCache, max_item_bytes: int) -> None:
        super().__init__(default_timeout=0)
        self.inner = inner
        self.max_item_bytes = max_item_bytes
        self._warned = False

    def _failed(self, exc: Exception) -> None:
        if not self._warned:
            logger.warning("shared cache unreachable, serving without it: %s", exc)
            self._warned = True

    def get(self, key: str) -> Any:
        try:
            return self.inner.get(key)
        except Exception as exc:  # the client's connection errors: a miss
            self._failed(exc)
            return None

    def set(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        if _nbytes(value) > self.max_item_bytes:
            return False
        try:
            return bool(self.inner.set(key, value, timeout=0))
        except Exception as exc:
            self._failed(exc)
            return False

    def delete(self, key: str) -> bool:
        try:
            return bool(self.inner.delete(key))
        except Exception as exc:
            self._failed(exc)
            return False

    def clear(self) -> bool:
        try:
            return bool(self.inner.clear())
        except Exception as exc:
            self._failed(exc)
            return False


def make_store(config: Mapping[str, Any]) -> BaseCache:
    """The store the config names (``CACHE_BACKEND``, ``CACHE_URL``, ``CACHE_MAX_BYTES``)."""
    backend = str(config.get("CACHE_BACKEND", "memory")).strip().lower()
    max_bytes = int(config.get("CACHE_MAX_BYTES", CONFIG_DEFAULTS["CACHE_MAX_BYTES"]))
    max_item = int(config.get("CACHE_MAX_ITEM_BYTES", CONFIG_DEFAULTS["CACHE_MAX_ITEM_BYTES"]))
    if backend == "memory":
        return MemoryStore(max_bytes, max_item)
    if backend == "redis":
        from cachelib import RedisCache
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        url = urlsplit(str(config.get("CACHE_URL") or "redis://127.0.0.1:6379/0"))
        db = int(url.path.strip("/") or 0)
        inner = RedisCache(
            url.hostname or "127.0.0.1",
            url.port or 6379,
            password=url.password,
            db=db,
            default_timeout=0,
            key_prefix="sudoku-web:",
            socket_timeout=0.25,  # a slow cache must not hold a request past its budget
            socket_connect_timeout=0.25,
            # One attempt: redis-py's default retries with backoff would hold a request for
            # seconds on each cache call while the server is down, where a miss is the answer.
            retry=Retry(NoBackoff(), 0),
        )
        inner.serializer = GeometrySerializer()
        return SharedStore(inner, max_item)
    raise RuntimeError(f"CACHE_BACKEND must be 'memory' or 'redis', not {backend!r}")


def init_app(app: Flask) -> BaseCache:
    """Creates the app's store from its config (defaults: :data:`CONFIG_DEFAULTS`, applied
    by ``create_app``; a key left out takes its default here)."""
    store = make_store(app.config)
    app.extensions[EXTENSION] = store
    return store


def get_store(app: Flask | None = None) -> BaseCache:
    """The store of ``app`` (default: the current app); one that keeps nothing if none."""
    target = app if app is not None else current_app
    store = target.extensions.get(EXTENSION)
    if store is None:
        store = target.extensions.setdefault(EXTENSION, MemoryStore(0))
    assert isinstance(store, BaseCache)
    return store


def enabled(store: BaseCache) -> bool:
    """False for an in-process store with no budget (caching off)."""
    return not isinstance(store, MemoryStore) or store.max_bytes > 0


# ---------------------------------------------------------------------------------------------
# Keys


@byte_cache(256 * 1024)  # a few hundred bytes each; jigsaw maps come from URLs
def geometry_key(geometry: Geometry) -> str:
    """Text that pins down a geometry: variant, size, box shape, a jigsaw's region map, the
    cages, the rules."""
    text = f"{geometry.variant}:{geometry.size}"
    if geometry.box_shape is not None:
        text += ":{}x{}".format(*geometry.box_shape)
    if geometry.regions is not None:
        text += ":" + bytes(geometry.regions).hex()  # region indices are < 256
    if geometry.cages:
        text += ":" + link_spelling(geometry.cages, geometry)
    if geometry.rules:
        text += ":" + rules_spelling(geometry.rules, geometry.size)
    return text


@dataclass(frozen=True)
class SolveKey:
    """Everything that determines a solve's result: the canonical request."""

    puzzle: str  # canonical text, e.g. puzzle_text.canonical(grid)
    geometry: str  # geometry_key()
    budget: Budget
    #: The key as text (store key and ETag input), made with the key: every page reads it,
    #: and a ``cached_property`` takes a lock on its first read.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.puzzle}|{self.geometry}|{self.budget.key}")


def solve_key(
    puzzle: str, geometry: Geometry | None = None, config: Mapping[str, Any] | None = None
) -> SolveKey:
    """The key of solving the canonical ``puzzle`` on ``geometry`` with the app's budget
    (from ``config``, default the current app's)."""
    geo = geometry_key(geometry or standard(9))
    return SolveKey(
        puzzle, geo, Budget.from_config(current_app.config if config is None else config)
    )


def text_key(*parts: object) -> str:
    """A store key from parts that are text or numbers (``|``-joined)."""
    return "|".join(str(part) for part in parts)


def is_deterministic(result: SolveResult) -> bool:
    """False only for a solve cut short by its wall-clock deadline (load-dependent)."""
    return not (result.status == "gave_up" and result.reason == "deadline")


# ---------------------------------------------------------------------------------------------
# Answers: computed once per key


_UNCACHEABLE: Final = "sudoku_uncacheable"  # flask.g flag: this request's answer hit a deadline


def mark_uncacheable() -> None:
    """Flags this request's response as load-dependent: :func:`cacheable` then sends it with
    ``no-store``, without an ETag, and keeps it out of the store.

    For any bounded work whose answer depends on a clock (a solve, the doctor, an
    explanation cut short by its deadline), also when it runs while the template renders.
    """
    setattr(g, _UNCACHEABLE, True)


def remembered(key: str, compute: Callable[[], Any], keep: Callable[[Any], bool]) -> Any:
    """The stored answer for ``key``, else ``compute()``, stored when ``keep`` allows it;
    an answer not kept marks the request uncacheable (it depends on the load)."""
    store = get_store()
    value = store.get(key)
    if value is not None:
        return value
    value = compute()
    if keep(value):
        store.set(key, value)
    else:
        mark_uncacheable()
    return value


# ---------------------------------------------------------------------------------------------
# HTTP: validators, 304s and stored responses


@functools.cache  # one entry; the metadata lookup costs ~0.1 ms, a third of a trivial request
def app_version() -> str:
    """The installed package version ("0" when running from an uninstalled tree)."""
    try:
        return metadata.version("sudoku-web")
    except metadata.PackageNotFoundError:
        return "0"


def etag_for(*parts: str, app: Flask | None = None) -> str:
    """A strong ETag for a deterministic response: a hash of ``parts`` (its kind and key
    text), the package version (a release may change the page) and ``ETAG_SALT``."""
    target = app if app is not None else current_app
    salt = str(target.config.get("ETAG_SALT", ""))
    text = "\x1f".join([app_version(), salt, *parts])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def conditional(
    etag: str,
    build: Callable[[], ResponseReturnValue],
    *,
    max_age: int | None = None,
    app: Flask | None = None,
) -> Response:
    """Answers 304 when ``If-None-Match`` matches ``etag``, else builds and marks the response.

    ``build`` is only called when the client's copy is missing or stale. Its response gets
    the ETag and ``Cache-Control: public, max-age=<HTTP_CACHE_MAX_AGE>`` only if it is a 200
    that does not say ``no-store`` and its request was not marked uncacheable. In debug mode
    nothing is cached, so template edits show up on reload.
    """
    if app is None:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
    age = int(app.config.get("HTTP_CACHE_MAX_AGE", 0) if max_age is None else max_age)
    if app.debug:
        response = no_store_if_marked(make_response(build()))
        response.cache_control.no_cache = True
        return response
    if (
        "HTTP_IF_NONE_MATCH" in request.environ
        and request.method in ("GET", "HEAD")
        and request.if_none_match.contains_weak(etag)
    ):
        # RFC 9110 13.1.2: If-None-Match uses weak comparison; a 304 repeats the validators.
        return _validated(Response(status=304), etag, age)
    built = build()
    response = no_store_if_marked(built if isinstance(built, Response) else make_response(built))
    if response.status_code == 200:
        _validated(response, etag, age)
    return response


#: ``Vary`` of a cacheable answer as Werkzeug's ``vary`` set writes it (its header quoting).
_VARY_TEXT: Final = dump_header(VARY)


def _validated(response: Response, etag: str, max_age: int) -> Response:
    """The ETag and ``Cache-Control: public, max-age`` on ``response``, unless it says
    ``no-store``. A response without ``Cache-Control`` (the usual one) gets the header as
    text: Werkzeug's ``cache_control`` object parses and writes the header again on every
    attribute set, a tenth of a cached page's cost; so does its ``vary`` set, and a response
    without ``Vary`` (the usual one) gets :data:`_VARY_TEXT` instead, the same bytes."""
    control = response.headers.get("Cache-Control")
    if control is None:
        response.headers["ETag"] = quote_etag(etag)
        if "Vary" in response.headers:
            response.vary.update(VARY)
        else:
            response.headers["Vary"] = _VARY_TEXT
        response.headers["Cache-Control"] = f"public, max-age={max_age}"
        return response
    if response.cache_control.no_store:
        return response
    response.set_etag(etag)
    response.vary.update(VARY)
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    return response


def no_store(response: AnyResponse) -> AnyResponse:
    """``Cache-Control: no-store`` on ``response``: for answers about one person's input (a
    grid being played, a generated puzzle) that no cache, shared or not, may keep."""
    response.cache_control.no_store = True
    return response


def no_store_if_marked(response: Response) -> Response:
    """``no-store`` on ``response`` when this request was flagged by mark_uncacheable()."""
    return no_store(response) if g.get(_UNCACHEABLE) else response


_PICKLE_PER_HEADER: Final = 16  # a pair's tuple and two strings' lengths, with room to spare
_PICKLE_FIXED: Final = 256  # the module and class names, the status, the framing


@dataclass(frozen=True)
class StoredResponse:
    """A finished response kept in the store: status, body and the view's own headers."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]

    @property
    def nbytes(self) -> int:
        """At least the bytes :func:`dumps` writes for it (headers are ASCII text): the body,
        each header's text and a few bytes per header, and a fixed part (the class's name,
        the status, framing). A cold page stores its response twice (by key and by URL):
        counting costs microseconds where pickling cost tens."""
        return (
            len(self.body)
            + sum(len(k) + len(v) for k, v in self.headers)
            + (_PICKLE_PER_HEADER * len(self.headers) + _PICKLE_FIXED)
        )

    def to_response(self) -> Response:
        """A fresh Response (hooks such as the security headers run on it as usual)."""
        return Response(self.body, status=self.status, headers=list(self.headers))


def cached_response(key: str, build: Callable[[], ResponseReturnValue]) -> Response:
    """The stored response for ``key``, else ``build()``, kept when it is a cacheable 200.

    The key must name everything the body depends on; the request's scheme, host and script
    root are added here, because pages hold absolute share links.
    """
    store = get_store()
    full_key = f"response|{request.url_root}|{key}"
    stored = store.get(full_key)
    if isinstance(stored, StoredResponse):
        return stored.to_response()
    response = no_store_if_marked(make_response(build()))
    if response.status_code == 200 and not response.cache_control.no_store:
        if not response.is_streamed:
            headers = tuple((k, v) for k, v in response.headers.items() if k != "Content-Length")
            store.set(full_key, StoredResponse(200, response.get_data(), headers))
    return response


def cacheable(kind: str, key: str, build: Callable[[], ResponseReturnValue]) -> Response:
    """A deterministic GET response: 304 on a matching ``If-None-Match``, else the stored
    copy, else ``build()``, sent with an ``ETag`` and ``Cache-Control: public, max-age``.

    ``kind`` names the representation ("page", "api", "png"), so one key can back several;
    the request's language (:func:`~sudoku_web.web.runtime.languages.current`) joins the key
    and the ETag, and the response says ``Vary: Accept-Language, Cookie``.
    A response whose work hit a deadline (see :func:`mark_uncacheable`) gets ``no-store``
    instead, and is neither kept nor validated. In debug mode nothing is kept.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    language = current()
    etag = etag_for(kind, language, key, app=app)
    if app.debug or not enabled(get_store(app)):
        return conditional(etag, build, app=app)
    stored_key = f"{kind}|{language}|{key}"
    response = conditional(etag, lambda: cached_response(stored_key, build), app=app)
    for hook in app.extensions.get(ON_CACHEABLE, ()):
        hook(response)
    return response
