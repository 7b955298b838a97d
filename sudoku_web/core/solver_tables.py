"""The engine's tables: the bit layout and masks of one geometry, and the cache that bounds them.

Contract: :func:`_tables` returns the :class:`_Tables` of a geometry, built on first use and
cached on the (immutable, shared) geometry object. The cache is bounded in bytes
(:data:`TABLES_BUDGET_BYTES`, each table's own count); the fixed geometries built by
:func:`prebuild_common_tables` are pinned. The search (:mod:`.solver`) reads the tables and
never writes them, except through what is built on first use (lazy masks, locked-candidates
rules), which this module bounds.

Glossary (the state, groups and reduce are in :mod:`.solver`):

field
    The N+1 bits of one group in the state ``X``: N candidate bits and a guard bit on top,
    cell groups first, then (house, symbol) groups.
mask
    ``KEEP[i]``: every candidate bit except those a placement ``i`` rules out; ``DONE[i]``:
    the guard bits (and locked-candidates marks) of the groups it settles; ``OTHER[i]``:
    every bit except ``i``'s own. Indexed by the ``bit_length`` of any of the candidate's
    bits (``keep_at[b]``), built from per-cell patterns in a dozen big-int operations.
eager, lazy
    Geometries whose masks fit :data:`EAGER_MASKS_BYTES` (9x9 and smaller, except those with
    a region map, which come from users) are built at once; others build a candidate's masks on its
    first placement (:class:`_LazyMasks`), capped per geometry by
    :data:`GROWN_BUDGET_BYTES`, past which they are dropped and rebuilt as needed.
slot
    An intersection of two houses sharing two or more cells: a locked-candidates rule per
    (house, symbol, slot), marked in ``D`` at field bit ``slot`` (:data:`LOCKED_SLOTS`).

Roads not taken (figures in ``benchmarks/RESULTS.md``, "Engine tables and the recorder"):

* 16x16 tables built at once: ~30 MB and 280 ms (idle) per geometry; lazy masks cost a
  fresh 16x16 map a few ms of layout and its first solve ~40-60 ms more.
* Fewer locked-candidates slots (3 per house): ~8% faster on top1465, but the empty 9x9
  jigsaw ran out of budget; every intersection is kept.
* Masks set bit by bit: 5-10x slower per candidate than the per-cell patterns.
"""

from __future__ import annotations

import functools
import operator
import sys
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from .board import Geometry
from .variants import LAYOUTS

# Locked candidates in reduce, on the first LOCKED_SLOTS intersections of each house: all of
# them (robustness over the ~8% that three slots buy: see the roads not taken above).
LOCKED_SLOTS = 16


def prebuild_common_tables() -> int:
    """Build the tables of the fixed geometries (every boxed size, X, hyper) now.

    Meant for a server's master process before it forks its workers: they then start with
    the tables (shared pages while untouched) instead of paying the build in a request.
    Returns the bytes the table cache holds afterwards.
    """
    fixed = [info.geometry(n) for info in LAYOUTS if not info.takes_regions for n in info.sizes]
    for geo in fixed:
        _tables(geo)
        with _holders_lock:
            _pinned.add(id(geo))
    return tables_bytes()


# Tables whose masks would take more than this are built lazily, a candidate's masks on its
# first placement (see _Tables.build_lazily): 9x9 (~1 MB) is built at once, 16x16 (27 MB if
# all were built, 280 ms) on demand. Jigsaw maps (users', new in the request that brings
# them) are always built on demand: a fresh 9x9 map then costs ~3 ms instead of ~25 ms.
EAGER_MASKS_BYTES = 4 * 1024 * 1024
# Lazily built masks (and locked-candidates rules) of one geometry stay under this; past it
# they are dropped and rebuilt as needed. A 16x16 solve uses 2-3 MB of them, the empty
# 16x16 grid ~8 MB, a 16x16 killer or one with diagonals ~10 MB (benchmarks/RESULTS.md,
# "Rules engine: propagation only where cells changed"). The cache's total stays bounded by
# TABLES_BUDGET_BYTES.
GROWN_BUDGET_BYTES = 16 * 1024 * 1024
# Bytes a dict entry costs (key, value slot, index): for the lazily built masks' estimate.
_ENTRY_BYTES = 100


class _Tables:
    """The bit layout and masks of one geometry, built once (see the module glossary)."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.n = geo.size
        self.width = geo.size + 1
        self.full_n = (1 << geo.size) - 1
        self._layout(geo)
        self._fields(geo)
        self._text(geo)
        self._locked_rules(geo)
        # itemgetter per house: verify() reads a house's values in one C call.
        self.house_getters: list[Callable[[Sequence[int]], Any]] = [
            operator.itemgetter(*h.cells) for h in geo.houses
        ]
        # grid_of(): the k-th '1' of a solved state's reversed binary sits at field k, bit
        # v - 1; after k earlier ones and the zeros before it, v = zeros + 1 - k * (width - 1).
        self.grid_offsets = tuple(k * (self.width - 1) - 1 for k in range(geo.cells))
        self.grown_bytes = 0  # masks and rules built after construction (see GROWN_BUDGET)
        self._masks()
        self.layout_bytes = self._layout_bytes()

    @property
    def nbytes(self) -> int:
        """What these tables hold now, in bytes (measured at build, counted as they grow)."""
        return self.layout_bytes + self.mask_bytes + self.grown_bytes

    def _layout(self, geo: Geometry) -> None:
        """``bits_of[i]``: candidate ``i``'s bit in each of its groups (cell group first);
        ``table[b]``: the candidate behind bit ``b - 1`` (-1 for guard bits)."""
        n, width, n_cells = self.n, self.width, geo.cells
        self.n_groups = n_cells + len(geo.houses) * n
        self.n_bits = n_bits = self.n_groups * width
        bits_of = [[c * width + d] for c in range(n_cells) for d in range(n)]
        table = [-1] * (n_bits + 1)
        for i, (pos,) in enumerate(bits_of):
            table[pos + 1] = i
        for h, house in enumerate(geo.houses):
            for d in range(n):
                start = (n_cells + h * n + d) * width
                for k, cell in enumerate(house.cells):
                    i = cell * n + d
                    bits_of[i].append(start + k)
                    table[start + k + 1] = i
        self.bits_of = bits_of
        self.table = table

    def _layout_bytes(self) -> int:
        """The bytes of everything but the masks: the big ints measured, the lists and their
        small ints counted (an int object under 2**30 takes 28 bytes)."""
        size = sys.getsizeof
        small = 28
        lists = (self.table, self.peer_guards, self.lc_keep, self.bit_at, self.bits_of)
        total = sum(size(x) for x in lists)
        total += sum(size(bits) + small * len(bits) for bits in self.bits_of) + small * len(
            self.table
        )
        total += sum(size(x) for x in self.peer_guards if x) + sum(size(x) for x in self.bit_at)
        total += sum(size(x) for x, _ in self.slots)
        total += sum(size(x) for x in (self.guard, self.low, self.guard_minus_low, self.start))
        total += size(self.lc_targets) + sum(size(x) for x in self.lc_targets.values())
        total += size(self.value_of) + size(self.house_getters) + size(self.grid_offsets)
        return total

    def _fields(self, geo: Geometry) -> None:
        """The guard-bit words of the reduce and the search's branch choice."""
        n, width, n_bits, n_cells = self.n, self.width, self.n_bits, geo.cells
        self.guard = _int_of(range(n, n_bits, width), n_bits)
        self.low = self.guard >> n
        self.guard_minus_low = self.guard - self.low
        cell_bits = n_cells * width  # the cell groups' part: short ints where they suffice
        self.cell_guards = _int_of(range(n, cell_bits, width), cell_bits)
        self.cell_part = (1 << (n_cells * width)) - 1
        # Each cell group's field starts here: a cell's candidates are (x >> shift) & full_n.
        self.cell_shifts = tuple(range(0, n_cells * width, width))
        self.cell_indices = tuple(range(n_cells))
        # One bit per field over N consecutive fields: x * spread repeats a field N times.
        self.spread = _int_of(range(0, n * width, width), n * width)
        self.patterns: dict[int, tuple[int, int, int]] = {}
        # Every candidate bit: every field's N bits (every group has N members).
        self.everything = self.start = ((1 << n_bits) - 1) ^ self.guard
        # bit_at[b] = 1 << (b - 1) over the cell groups' bits, shared by geometries of a size.
        self.bit_at = _powers(n_cells * width)
        # Guard bits of a cell's peers, indexed by the bit_length of the cell's guard bit.
        self.peer_guards = [0] * (n_bits + 1)
        for c in range(n_cells):
            peers = (p * width + n for p in geo.peers[c])
            self.peer_guards[c * width + n + 1] = _int_of(peers, cell_bits)

    def _text(self, geo: Geometry) -> None:
        """Text at the edge, fast: value of each accepted character, canonical spelling."""
        self.value_of = {ch: v for v, ch in enumerate(geo.symbols, start=1)}
        self.value_of.update({ch.lower(): v for ch, v in list(self.value_of.items())})
        self.value_of.update({".": 0, "0": 0})
        self.canonical = str.maketrans({"0": ".", **{c.lower(): c for c in geo.symbols}})
        self.symbol_of = "." + geo.symbols
        self.symbol_values = frozenset(range(1, self.n + 1))

    def _masks(self) -> None:
        """KEEP, DONE and OTHER by bit index (``keep_at[b]``, any of a candidate's bits):
        lists built now for small geometries, else dicts filled on first use."""
        n_cands = self.geo.cells * self.n
        per_candidate = 3 * (self.n_bits // 8 + 32)
        self.mask_bytes = 0
        # Jigsaw maps come from users, each new one in a request of its own: build lazily.
        if n_cands * per_candidate <= EAGER_MASKS_BYTES and self.geo.regions is None:
            size = self.n_bits + 1
            self.keep_at: Masks = [0] * size
            self.done_at: Masks = [0] * size
            self.other_at: Masks = [0] * size
            for i in range(n_cands):
                self._file(i, self._masks_of(i))
            self.patterns.clear()  # only needed while masks are being built
            self.grown_bytes = 0
            self.mask_bytes = n_cands * per_candidate + 3 * 8 * size
        else:
            self.keep_at = _LazyMasks(self, 0)
            self.done_at = _LazyMasks(self, 1)
            self.other_at = _LazyMasks(self, 2)

    def _masks_of(self, i: int) -> tuple[int, int, int]:
        """Candidate ``i``'s KEEP, DONE and OTHER masks, from its cell's patterns (a dozen
        big-int operations: ~10x faster than setting ~200 bits one by one)."""
        n, width = self.n, self.width
        cell, d = divmod(i, n)
        peers_cells, peers_houses, fields = self._cell_patterns(cell)
        mine = _int_of(self.bits_of[i], self.n_bits)
        here = cell * width
        # The cell's bits in its house groups for every symbol: symbol d's, spread to all.
        houses_d = mine ^ (1 << (here + d))
        every_symbol = (houses_d >> (d * width)) * self.spread
        gone = ((self.full_n ^ (1 << d)) << here) | (peers_cells << d)
        gone |= (every_symbol ^ houses_d) | (peers_houses << (d * width))
        keep = self.everything ^ gone
        # A settled house group also marks its locked-candidates slots (its field bits in D):
        # the placement already made every elimination they could make.
        done = (fields << (d * width)) | (1 << (here + n))
        return keep, done, self.everything ^ mine

    def _cell_patterns(self, cell: int) -> tuple[int, int, int]:
        """For symbol 0 (shift by ``d * width`` for symbol d): the cell groups' bits of the
        cell's peers, the house groups' bits of its peers, and the full fields of its house
        groups. Built on first use, kept (per cell, counted as grown bytes)."""
        found = self.patterns.get(cell)
        if found is None:
            n, width, n_bits, n_cells = self.n, self.width, self.n_bits, self.geo.cells
            geo = self.geo
            peers = geo.peers[cell]
            peers_cells = _int_of((p * width for p in peers), n_cells * width)
            peers_houses = _int_of((pos for p in peers for pos in self.bits_of[p * n][1:]), n_bits)
            starts = ((n_cells + h * n) * width for h in geo.cell_houses[cell])
            fields = _int_of((s + k for s in starts for k in range(width)), n_bits)
            found = (peers_cells, peers_houses, fields)
            self.patterns[cell] = found
            self._grow(sum(map(sys.getsizeof, found)))
        return found

    def _file(self, i: int, masks: tuple[int, int, int]) -> None:
        """File candidate ``i``'s masks under each of its bits."""
        keep, done, other = masks
        keep_at, done_at, other_at = self.keep_at, self.done_at, self.other_at
        for p in self.bits_of[i]:
            keep_at[p + 1] = keep
            done_at[p + 1] = done
            other_at[p + 1] = other

    def build_lazily(self, b: int) -> tuple[int, int, int]:
        """Build, file and return the masks of the candidate behind bit ``b - 1`` (lazy
        tables only), first dropping the masks built so far if they have reached
        :data:`GROWN_BUDGET_BYTES`."""
        i = self.table[b] if 0 < b < len(self.table) else -1
        if i < 0:
            raise KeyError(b)  # a guard bit is never a placement
        if self.grown_bytes >= GROWN_BUDGET_BYTES:
            self.forget()
        masks = self._masks_of(i)
        self._file(i, masks)
        # A trim this causes may drop them again (the caller gets them all the same).
        self._grow(sum(map(sys.getsizeof, masks)) + 3 * len(self.bits_of[i]) * _ENTRY_BYTES)
        return masks

    def _grow(self, cost: int) -> None:
        """Count ``cost`` more bytes, here and in the cache's running total (see _trim)."""
        global _held_bytes
        # Under the lock: a worker's threads may grow the same shared tables at once, and
        # ``+=`` on an attribute or a global is not atomic (a lost count would loosen the bound).
        with _holders_lock:
            self.grown_bytes += cost
            _held_bytes += cost
            # Past the budget, trim; if a trim could not get under it (pinned tables and the
            # newest alone are over), trim again only after another megabyte.
            if _held_bytes > max(TABLES_BUDGET_BYTES, _trim_floor + (1 << 20)):
                _trim(growing=self)

    def forget(self) -> None:
        """Drop the masks and rules built on demand (a running solve rebuilds what it needs)."""
        for masks in (self.keep_at, self.done_at, self.other_at):
            if isinstance(masks, _LazyMasks):
                masks.clear()
        self.lc_keep[:] = [None] * len(self.lc_keep)
        self.patterns.clear()
        self.grown_bytes = 0

    def _locked_rules(self, geo: Geometry) -> None:
        """Slots for locked candidates: intersections of two houses sharing two or more cells.

        Slot ``s`` of house ``h1`` is an intersection ``I = h1 & h2``. If symbol ``d`` can only
        go in ``I`` within ``h1``, it leaves ``h2 - I``. ``slots[s]`` holds, over all houses,
        the field bits outside their slot-``s`` intersection and the guard bits of the groups
        that have a slot ``s``; a slot's rule is marked in ``D`` at field bit ``s``.

        Each slot costs five big-int operations per scan; :data:`LOCKED_SLOTS` caps them
        (first intersections of each house, in house order) and N caps them too, because the
        marks live in the N field bits (hyper's centre box has ten: one is left out).
        """
        n, width, n_cells = self.n, self.width, geo.cells
        n_slots = min(n, LOCKED_SLOTS)
        outside = [0] * n_slots
        guards = [0] * n_slots
        # One bit per field over a house's N (house, symbol) groups, which are consecutive:
        # a pattern within one field times ``spread`` repeats it in all N of them.
        spread = self.spread
        self.lc_targets: dict[tuple[int, int], tuple[int, ...]] = {}
        for h1, house in enumerate(geo.houses):
            mine = set(house.cells)
            shared = Counter(h for c in house.cells for h in geo.cell_houses[c] if h != h1)
            others = sorted(h for h, k in shared.items() if k >= 2)[:n_slots]
            shift = (n_cells + h1 * n) * width
            for slot, h2 in enumerate(others):
                common = mine.intersection(geo.houses[h2].cells)
                out_k = sum(1 << k for k, c in enumerate(house.cells) if c not in common)
                self.lc_targets[h1, slot] = tuple(
                    c for c in geo.houses[h2].cells if c not in common
                )
                outside[slot] |= (out_k * spread) << shift
                guards[slot] |= ((1 << n) * spread) << shift
        slots = range(n_slots)
        self.slots = [(outside[s], n - s) for s in slots if guards[s]]
        self.slot_bits = functools.reduce(
            operator.or_, (g >> (n - s) for s, g in enumerate(guards))
        )
        # Built on first use: most rules never fire, and 16x16 has thousands of them.
        self.lc_keep: list[int | None] = [None] * self.n_bits

    def locked_keep(self, pos: int) -> int:
        """The keep-mask of the locked-candidates rule marked at bit ``pos`` of ``P``."""
        keep = self.lc_keep[pos]
        if keep is None:
            n, width, n_cells = self.n, self.width, self.geo.cells
            g, slot = divmod(pos, width)
            h1, d = divmod(g - n_cells, n)
            gone = (self.bits_of[c * n + d] for c in self.lc_targets[h1, slot])
            keep = self.everything ^ _int_of((b for bits in gone for b in bits), self.n_bits)
            self.lc_keep[pos] = keep
            self._grow(sys.getsizeof(keep))
        return keep


class _LazyMasks(dict[int, int]):
    """One kind of mask by bit index, each built on first use (big geometries only).

    It holds its tables weakly: a cycle would keep dropped tables (megabytes of masks) alive
    until a full garbage collection, which big ints alone never trigger.
    """

    def __init__(self, tables: _Tables, kind: int) -> None:
        super().__init__()
        self.tables = weakref.ref(tables)
        self.kind = kind  # 0 KEEP, 1 DONE, 2 OTHER

    def __missing__(self, b: int) -> int:
        tables = self.tables()
        if tables is None:  # pragma: no cover - a solve holds its tables while it runs
            raise KeyError(b)
        return tables.build_lazily(b)[self.kind]


# keep_at / done_at / other_at: a list (built at once) or a _LazyMasks; both index by int.
Masks = list[int] | _LazyMasks


def _int_of(positions: Any, n_bits: int) -> int:
    """An int with exactly the given bit positions set (built through bytes: fast for big N)."""
    buf = bytearray((n_bits + 8) // 8)
    for p in positions:
        buf[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buf, "little")


@functools.lru_cache(maxsize=4)  # bounded by count: one list per board size
def _powers(count: int) -> list[int]:
    """``[0, 1, 2, 4, ...]``: ``1 << (b - 1)`` for b in 1..count (shared by every table of
    a size; counted in each one's bytes all the same)."""
    return [0] + [1 << p for p in range(count)]


# Geometries currently holding tables, in the order they were built. Jigsaw maps come from
# users and a 16x16 table set grows with use, so the cache is bounded in bytes (each table's
# own count: measured at build, counted as masks are added). Over the budget, the oldest
# tables are dropped first, except the fixed geometries prebuilt by prebuild_common_tables
# (pinned: a worker would otherwise rebuild, unshared, what its master built); then the
# masks tables grew on demand are dropped, oldest tables first.
TABLES_BUDGET_BYTES = 24 * 1024 * 1024
_holders: OrderedDict[int, Geometry] = OrderedDict()
_held_bytes = 0  # their total as last counted, plus growth since (exact after each _trim)
_trim_floor = 0  # what the last trim could not get under the budget (0: it could)
_pinned: set[int] = set()
_holders_lock = threading.RLock()


def _tables(geo: Geometry) -> _Tables:
    """The tables of ``geo``, cached on the (immutable, shared) geometry object; bounded."""
    cached: _Tables | None = geo.__dict__.get("_engine_tables")
    if cached is not None:
        return cached
    cached = _Tables(geo)
    with _holders_lock:
        # Geometry is frozen; the tables are derived data, like its peers and cell_houses.
        object.__setattr__(geo, "_engine_tables", cached)
        _holders[id(geo)] = geo
    _trim()
    return cached


def _trim(growing: _Tables | None = None) -> None:
    """Bring the cache under :data:`TABLES_BUDGET_BYTES` (see above); the newest tables
    are never dropped, only what they grew, and ``growing`` (building masks for a running
    solve) keeps them: its own cap bounds it."""
    global _held_bytes, _trim_floor
    with _holders_lock:
        held = [(key, geo, geo.__dict__["_engine_tables"]) for key, geo in _holders.items()]
        total = sum(t.nbytes for _, _, t in held)
        for key, old, old_tables in held[:-1]:
            if total <= TABLES_BUDGET_BYTES:
                break
            if key not in _pinned:
                # A solve already running keeps its own reference; later ones rebuild.
                del _holders[key]
                old.__dict__.pop("_engine_tables", None)
                total -= old_tables.nbytes
                old_tables.forget()  # free its masks now, whoever still holds the tables
        for _, _, tables in held:
            if total <= TABLES_BUDGET_BYTES:
                break
            if tables is not growing:
                total -= tables.grown_bytes
                tables.forget()
        _held_bytes = total
        _trim_floor = total if total > TABLES_BUDGET_BYTES else 0


def tables_bytes() -> int:
    """Bytes the table cache holds now (see :data:`TABLES_BUDGET_BYTES`)."""
    with _holders_lock:
        return sum(geo.__dict__["_engine_tables"].nbytes for geo in _holders.values())


def tables_figures(geometry: Geometry) -> tuple[float, int]:
    """(milliseconds, bytes) to build ``geometry``'s tables from scratch, for benchmarks."""
    started = time.perf_counter()
    built = _Tables(geometry)
    return (time.perf_counter() - started) * 1000, built.nbytes
