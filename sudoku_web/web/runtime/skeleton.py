"""Page skeletons: a template rendered once per page *shape*, then filled in by string joins.

Vocabulary:

* **shape** -- everything that decides a page's control flow and fixed text (the template,
  the solver's outcome, the board geometry, the script root). Pages of one shape differ only
  in their slots.
* **slot** -- a per-request value the template prints as it is (already-escaped
  :class:`~markupsafe.Markup`): a link, a count, the grid's rows. A template may only print
  a slot, never test, filter or measure it.
* **skeleton** -- the template's output for a shape, cut at the slots: ``chunks[0] slot[0]
  chunks[1] ... chunks[n]``.

Why: a solved puzzle's result page is ~10 KB of fixed markup around a dozen values, and
rendering it through Jinja (context, blocks, macros, ``url_for``) cost about as much as
solving a hard puzzle. Filling a skeleton is a single ``join``: it buys about a quarter
of the uncached solved pages' throughput (``benchmarks/RESULTS.md``). A skeleton holds no
puzzle data (only the shape), so it is a compiled template, not a cached answer; it is kept
with the cache off too.

Safety: a skeleton is trusted only after it proved itself. Building one renders the template
twice, once with sentinel slots (to find the cuts) and once with the request's real values,
and keeps the skeleton only when filling it gives exactly the real page; otherwise the shape
is marked and always rendered by Jinja (and a warning is logged). ``tests/test_speedups.py``
compares both paths byte for byte over many puzzles, outcomes and variants, which catches a
template that prints something other than a slot.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import AnyStr, Final

from markupsafe import Markup

logger = logging.getLogger(__name__)

# Control characters that never occur in a page (the slots hold escaped text and markup).
_OPEN: Final = "\x1e"
_CLOSE: Final = "\x1f"
_SENTINEL: Final = re.compile(f"{_OPEN}([a-z_0-9]+){_CLOSE}")

#: ``render(slots)``: the page for these slot values (a Jinja render of the shape's template).
Render = Callable[[Mapping[str, Markup]], str]


@dataclass(frozen=True)
class Skeleton:
    """A shape's page cut at its slots: ``len(chunks) == len(names) + 1``.

    ``utf8`` holds the chunks encoded once, for :meth:`fill_utf8`: a page whose fixed text
    holds a character past Latin-1 (the language picker's 日本語) is a ``str`` of two or
    four bytes a character, and joining it, then encoding it for the response, costs about
    twice what joining its UTF-8 bytes does (a 9x9 solved page: ~14 against ~8 us).
    """

    chunks: tuple[str, ...]
    names: tuple[str, ...]
    utf8: tuple[bytes, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "utf8", tuple(chunk.encode() for chunk in self.chunks))

    def fill(self, slots: Mapping[str, Markup]) -> str:
        """The page for ``slots`` (a KeyError names a slot the caller did not give)."""
        return _interleave("", self.chunks, map(slots.__getitem__, self.names))

    def fill_utf8(self, slots: Mapping[str, Markup]) -> bytes:
        """:meth:`fill` encoded as UTF-8 (the same bytes)."""
        return _interleave(b"", self.utf8, map(str.encode, map(slots.__getitem__, self.names)))


def _interleave(empty: AnyStr, chunks: tuple[AnyStr, ...], values: Iterable[AnyStr]) -> AnyStr:
    """``chunks[0] values[0] chunks[1] ... chunks[n]`` joined."""
    pairs = zip(chunks[:-1], values, strict=True)
    return empty.join(chain.from_iterable(pairs)) + chunks[-1]


def sentinels(names: Iterable[str]) -> dict[str, Markup]:
    """A marker per slot name, for the render that finds the cuts."""
    return {name: Markup(f"{_OPEN}{name}{_CLOSE}") for name in names}


def cut(page: str) -> Skeleton:
    """The skeleton of a page rendered with :func:`sentinels`."""
    pieces = _SENTINEL.split(page)
    return Skeleton(tuple(pieces[0::2]), tuple(pieces[1::2]))


def _size(skeleton: Skeleton | None) -> int:
    """Bytes a stored skeleton holds (its text and its UTF-8; a failed shape's marker counts
    a little)."""
    if skeleton is None:
        return 64
    text = sum(map(len, skeleton.chunks)) + sum(map(len, skeleton.utf8))
    return text + sum(map(len, skeleton.names)) + 64


class Skeletons:
    """A thread-safe store of proven skeletons (and of shapes that failed the proof), least
    recently used first out past ``max_bytes``.

    Bounded because a jigsaw's region map is part of its shape and comes from the URL.
    """

    def __init__(self, max_bytes: int = 2 * 1024 * 1024) -> None:
        # A 9x9 solved page's skeleton is ~10 KB of text, a 16x16 one ~60 KB.
        self.max_bytes = max_bytes
        self.bytes = 0
        self._data: OrderedDict[Hashable, Skeleton | None] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def render(self, shape: Hashable, slots: Mapping[str, Markup], render: Render) -> bytes:
        """The page of ``shape`` for ``slots``, encoded as UTF-8: from its skeleton's encoded
        chunks, else rendered by ``render`` (the first time a shape is seen, its skeleton is
        also built and proven)."""
        with self._lock:
            known = shape in self._data
            skeleton = self._data.get(shape)
            if known:
                self._data.move_to_end(shape)
        if skeleton is not None:
            return skeleton.fill_utf8(slots)
        page = render(slots)
        if not known:
            self._learn(shape, slots, render, page)
        return page.encode()

    def _learn(
        self, shape: Hashable, slots: Mapping[str, Markup], render: Render, page: str
    ) -> None:
        built = cut(render(sentinels(slots)))
        proven = not set(built.names) - set(slots) and built.fill(slots) == page
        if not proven:
            logger.warning("page skeleton for %r does not reproduce the page; using Jinja", shape)
        with self._lock:
            old = self._data.pop(shape, None)
            self.bytes -= _size(old)
            self._data[shape] = built if proven else None
            self.bytes += _size(self._data[shape])
            while self.bytes > self.max_bytes and len(self._data) > 1:
                _, dropped = self._data.popitem(last=False)
                self.bytes -= _size(dropped)
