"""Small in-process tables bounded in bytes: :class:`ByteLRU` and the :func:`byte_cache`
decorator (``functools.lru_cache`` with a byte budget instead of an entry count).

For what the web keeps per geometry or per host (cell tables, form classes, jigsaw
geometries, region sketches): keys come from URLs (a jigsaw's region map, the Host header),
so every such table is bounded, and in bytes, since a 16x16 entry costs several times a 9x9
one. An entry is charged :func:`deep_sizeof` of its key and value, measured once when it is stored.

Answers (results, pages, pictures) go to the app's store instead
(:mod:`sudoku_web.web.runtime.cache`), which can be shared between servers; these tables hold
objects that only make sense in one process (classes, functions' tables).
"""

from __future__ import annotations

import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, ParamSpec, TypeVar

from ...core.board import Geometry

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")


def deep_sizeof(obj: object, _seen: set[int] | None = None) -> int:
    """Bytes held by ``obj`` and what it refers to (containers, instances' attributes);
    shared objects are counted once, classes and functions not at all, nor geometries: a
    geometry keys many tables and is held (and bounded) by the engine and the variants'
    tables, so charging it to each entry about it would count it many times over."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen or isinstance(obj, type | Geometry) or callable(obj):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, str | bytes | int | float | bool) or obj is None:
        return size
    if isinstance(obj, dict):
        return size + sum(deep_sizeof(k, seen) + deep_sizeof(v, seen) for k, v in obj.items())
    if isinstance(obj, list | tuple | set | frozenset):
        return size + sum(deep_sizeof(item, seen) for item in obj)
    attrs = getattr(obj, "__dict__", None)
    if attrs is not None:
        size += deep_sizeof(attrs, seen)
    for name in getattr(type(obj), "__slots__", ()):
        size += deep_sizeof(getattr(obj, name, None), seen)
    return size


class ByteLRU(Generic[K, V]):
    """A least-recently-used map bounded by the bytes of its entries, thread-safe."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._data: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def get(self, key: K) -> V | None:
        """The value for ``key`` (now the most recently used), or None."""
        return self.find(key)[1]

    def find(self, key: K) -> tuple[bool, V | None]:
        """``(True, value)`` for a stored ``key`` (now the most recently used), else
        ``(False, None)``: for a table whose values may be None, one lookup where ``key in
        table`` and :meth:`get` would take two (a page asks its tables several times)."""
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return False, None
            self._data.move_to_end(key)
            return True, entry[0]

    def put(self, key: K, value: V, size: int | None = None) -> bool:
        """Stores ``value`` charged ``size`` bytes (default :func:`deep_sizeof` of the key and
        value), evicting the least recently used entries beyond the budget; False, storing
        nothing, when it alone exceeds the budget."""
        if size is None:
            size = deep_sizeof(key) + deep_sizeof(value)
        if size > self.max_bytes:
            return False
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._data[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._data.popitem(last=False)
                self.bytes -= dropped
        return True

    def pop(self, key: K) -> bool:
        """Drops ``key``'s entry; False when there was none."""
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
        return old is not None

    def clear(self) -> None:
        """Drops every entry."""
        with self._lock:
            self._data.clear()
            self.bytes = 0


def byte_cache(max_bytes: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Memoise a function of hashable positional arguments in a :class:`ByteLRU`.

    The wrapper's ``cache`` attribute is the table (for tests and for clearing).
    """

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        table: ByteLRU[Any, Any] = ByteLRU(max_bytes)

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            known, found = table.find(key)
            if not known:
                found = func(*args, **kwargs)
                table.put(key, found)
            return found  # type: ignore[return-value]

        wrapper.cache = table  # type: ignore[attr-defined]
        return wrapper

    return decorate
