"""The solver engine: reduce passes plus recursive guessing, over any geometry.

Public API (stable)::

    from sudoku_web.core.solver import solve
    result = solve("4.....8.5.3...")          # classic 9x9
    result = solve(text, variant="x")           # or geometry=..., size=..., regions=...
    result.status      # "solved" | "multiple" | "unsolvable" | "invalid" | "gave_up"
    result.solution    # str or None (only when solved)
    result.solutions   # up to two distinct solutions
    result.stats       # SolveStats
    result.errors      # tuple[PuzzleError, ...] (invalid only)

Vocabulary (after Norvig's ``sudoku.py``; board terms are in :mod:`sudoku_web.core.board`):

candidate
    A pair (cell, symbol) still possible. Placement index ``i = cell * N + symbol``.
group
    A set of N candidates of which exactly one must end up true: the N symbols of a *cell*,
    or the N places of one symbol in one *house*. A group with no candidate left is a
    contradiction; a group with one left is a single (naked for cells, hidden for houses).
state
    The whole candidate state of a board as two Python ints, ``X`` and ``D``. Every group
    owns a field of N+1 bits in ``X``: N candidate bits and a zero *guard* bit on top, cell
    groups first, then (house, symbol) groups. A candidate appears once per group holding it
    (for 9x9: in its cell group and its row, column and box groups; 3,240 bits in all).
    ``D`` holds the guard bit of every group settled by a placement, and the marks of the
    locked-candidates rules already applied on this path.
mask
    ``KEEP[i]``: every candidate bit except those a placement ``i`` rules out; ``DONE[i]``:
    the guard bits (and rule marks) of the groups it settles; ``OTHER[i]``: every bit except
    ``i``'s own, to clear all the finds of one placement from a batch at once. Built once per
    geometry and cached on it, so variants and sizes change the data, never the algorithm.
place
    ``X &= KEEP[i]; D |= DONE[i]``: one AND removes the symbol from the cell's peers and the
    cell's other symbols from every group at once.
reduce
    Scan every group at once with borrow-free field arithmetic (the guard bit stops a borrow
    at its group): ``T = (X | G) - LOW`` clears the guard of empty groups and turns each
    field into ``x - 1``; ``X & T`` is ``x & (x - 1)``, non-zero for groups with two or more
    candidates. About a dozen big-int operations give contradictions and all naked and
    hidden singles; new singles are placed in one batch (a placement found in several
    groups once, its other finds cleared by ``OTHER``) and the scan repeats. A batch that
    clobbers itself (two singles for one cell or one house) empties a group, so the next
    scan reports it. When singles stall, *locked candidates*: for each
    slot (intersection of a house with another house), five operations find every group
    confined to its slot's intersection; each newly confined one removes its symbol from
    the rest of the other house. Repeat until nothing changes.
search
    Depth-first over copies of the state (two ints: a branch copies for free), guessing on
    the cell with two candidates that has the most open peers, else a symbol with two places
    in a house, else the cell with fewest candidates. Search stops at the second solution,
    so uniqueness is always known; every solution is verified against the givens and houses
    before it is returned. A node budget (guesses) and a deadline bound the work.

Roads not taken (CPU-time figures on this 2-core box, top1465 with uniqueness checked, where
the Norvig baseline of ``benchmarks/norvig.py`` does about 190 puzzles/s first-solution-only;
whole-run figures in ``benchmarks/RESULTS.md``):

* A list of per-cell bitmasks with recursive propagation (the skeleton's solver, in git
  history): correct but Python-loop bound, 312 puzzles/s (1.6x the baseline) against
  ~3,900-4,300/s for this engine. The big-int state spends its time in a few C-level
  operations per pass instead of a Python loop per cell and peer.
* Symbol-plane views scanned with a ones/twos accumulator (``for k in range(N)``): about 5N
  operations per view per pass against a constant dozen for the guard-bit fields; not built.
* No locked candidates: 81 nodes per puzzle and ~2,000/s, against 34.5 nodes and ~2,700/s
  with them. Fewer slots (3 per house) measured ~8% faster still, but left the empty 9x9
  jigsaw of the tests out of budget, so every intersection is kept (``LOCKED_SLOTS``).
* Naked singles first, then hidden ones, each found bit cleared with ``1 << (b - 1)`` and
  a placement found in several groups applied several times (idempotent): this was ~4%
  faster than all singles at once while duplicates cost a mask each. Clearing all of a
  placement's finds with one AND (``OTHER``, a third mask per candidate) made duplicates
  free (+~9%), and then all singles at once won: 92 scan passes a puzzle against 128,
  ~6% faster. Deduplicating found singles in a set (and a dict for the locked-candidates
  masks): ~10% slower. A table of ready-made powers of two to clear found bits: faster in
  isolation, slower in the solver (650 KB of ints out of cache); over the cell bits only
  (810 small ints) it is kept for the branch choice, ~1-2%.
* Checking for an empty group only when singles stall (two operations a pass saved):
  ~18% slower, because a dead state then runs to its fixpoint (184 passes a puzzle
  against 128); checking unsettled groups by comparing ``new`` and ``bits`` popcounts and
  the rest at the stall: ~11% slower (groups emptied after they settled go unseen).
* Locked candidates: of ~94 rule firings a puzzle only ~12 remove anything. Marking each
  rule's mirror (same intersection and symbol seen from the other house, useless once the
  rule has applied) halves the firings but measured no faster (-1%). Houses with most
  slots first (shorter ints for the higher slots' masks): +0.5%, within noise; not kept.
* Branching on the first bivalue cell: 38.5 nodes per puzzle; on the last one: 34.5; on a
  symbol's two places in a house before cells: 45.7; on the bivalue cell with the most
  bivalue peers: 23.7. Kept: the bivalue cell with the most open peers, 21.2 nodes and
  ~25% faster than the last-cell rule, though it costs two operations per bivalue cell.
* A trail (undo log) instead of copying on branch: copying two ints costs nothing, a trail
  costs Python-level bookkeeping at every placement.
"""

from __future__ import annotations

import operator
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, compress
from typing import Any, Literal

from .board import (
    Geometry,
    InvalidPuzzle,
    PuzzleError,
    find_conflicts,
    format_puzzle,
    geometry_for,
    infer_size,
    parse_puzzle,
)

Status = Literal["solved", "multiple", "unsolvable", "invalid", "gave_up"]

# Guesses (branch nodes) per solve. The slowest adversarial 9x9 inputs we know (sparse
# unsolvable grids) take about 25 us per node here, so this keeps any 9x9 well under a second.
DEFAULT_MAX_NODES = 20_000
# Wall-clock safety net, mostly for 16x16 grids whose nodes cost more; None disables it.
DEFAULT_DEADLINE_MS: float | None = 1000.0
# Locked candidates in reduce, on the first LOCKED_SLOTS intersections of each house: all
# of them. Measured on top1465 with uniqueness (CPU time, interleaved runs): none 81
# nodes/puzzle ~2,000/s; 2 slots 41.6 nodes ~2,700/s; 3 slots (row/column -> box and
# box -> row) 35.8 nodes ~2,850/s; all 6 of a 9x9 box 34.5 nodes ~2,650/s. Three slots was
# faster, but then the empty 9x9 jigsaw of the tests ran out of budget (a wrong early guess
# left an unsolvable subtree too big to refute), so robustness won.
LOCKED_CANDIDATES = True
LOCKED_SLOTS = 16


@dataclass
class SolveStats:
    """Work done by one solve."""

    reduce_passes: int = 0
    placed_by_reduce: int = 0  # singles placed, on every branch (also ones that failed)
    guesses: int = 0
    backtracks: int = 0
    max_depth: int = 0
    elapsed_ms: float = 0.0
    nodes: int = 0  # search states examined (the root, then every branch taken)


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`."""

    status: Status
    geometry: Geometry | None
    puzzle: str = ""  # the givens, "." for blanks ("" when the text did not parse)
    solutions: tuple[str, ...] = ()
    errors: tuple[PuzzleError, ...] = ()
    stats: SolveStats = field(default_factory=SolveStats)
    # unsolvable: "reduction" (contradiction before any guess) or "search" (exhausted);
    # gave_up: "nodes" or "deadline".
    reason: str = ""
    # gave_up: candidate bitmask per cell (bit v-1 = symbol v) at the point reached.
    candidates: tuple[int, ...] | None = None

    @property
    def solution(self) -> str | None:
        """The unique solution, or None unless the status is ``solved``."""
        return self.solutions[0] if self.status == "solved" else None


def solve(
    puzzle: str | Sequence[int],
    *,
    variant: str = "standard",
    size: int | None = None,
    regions: str | None = None,
    geometry: Geometry | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    deadline_ms: float | None = DEFAULT_DEADLINE_MS,
) -> SolveResult:
    """Solve a puzzle, checking uniqueness; never raises for bad input (status ``invalid``).

    ``puzzle`` is text (row-major, ``.``/``0`` blank) or a grid of ints. The geometry is
    ``geometry`` if given, else built from ``variant``, ``size`` (default: inferred from the
    cell count, 9 when it cannot be) and ``regions`` (jigsaw). ``max_nodes`` bounds the
    guesses; ``deadline_ms`` bounds the search's wall time (None: no deadline). The first
    solve on a new geometry also builds its tables (about 20 ms for 9x9, 200 ms for 16x16),
    which ``stats.elapsed_ms`` leaves out: it is this puzzle's time.
    """
    try:
        if geometry is None:
            if size is None:
                size = (infer_size(puzzle) if isinstance(puzzle, str) else None) or 9
            geometry = geometry_for(variant, size, regions)
        tables = _tables(geometry)
        # The clock starts once the tables exist: the time reported is this puzzle's, not
        # the one-off build of a new geometry's tables (issue 15: an easy 16x16's "Time").
        started = time.perf_counter()
        text: str | None = None
        if isinstance(puzzle, str):
            try:
                # Fast path for the plain one-line form; anything else goes to the parser,
                # which also writes the error messages.
                if len(puzzle) != geometry.cells:
                    raise KeyError(puzzle)
                grid = list(map(tables.value_of.__getitem__, puzzle))
                text = puzzle.translate(tables.canonical)
            except KeyError:
                grid = parse_puzzle(puzzle, geometry)
        else:
            grid = list(puzzle)
            if len(grid) != geometry.cells or any(
                type(v) is not int or not 0 <= v <= geometry.size for v in grid
            ):
                need = f"A grid needs {geometry.cells} values from 0 to {geometry.size}."
                raise InvalidPuzzle([PuzzleError("length", need)])
    except InvalidPuzzle as exc:
        return SolveResult("invalid", geometry, errors=exc.errors)
    # The deadline bounds the search, not the one-off table build of a new geometry.
    deadline = None if deadline_ms is None else time.perf_counter() + deadline_ms / 1000
    return _Search(tables, max_nodes, deadline, started).run(grid, text)


class _Tables:
    """The masks of one geometry, built once (see the module glossary)."""

    def __init__(self, geo: Geometry) -> None:
        n, n_cells = geo.size, geo.cells
        width = n + 1
        self.geo = geo
        self.n = n
        self.width = width
        self.full_n = (1 << n) - 1
        # groups[g] = the candidate (placement index) behind each of its N bits
        groups: list[list[int]] = [[c * n + d for d in range(n)] for c in range(n_cells)]
        for house in geo.houses:
            for d in range(n):
                groups.append([c * n + d for c in house.cells])
        n_groups = len(groups)
        self.n_groups = n_groups
        n_bits = n_groups * width
        self.n_bits = n_bits
        bits_of: list[list[int]] = [[] for _ in range(n_cells * n)]
        table = [-1] * (n_bits + 1)  # bit position + 1 (a bit_length) -> placement index
        for g, members in enumerate(groups):
            for k, i in enumerate(members):
                pos = g * width + k
                bits_of[i].append(pos)
                table[pos + 1] = i
        self.table = table
        guards = range(n, n_bits, width)
        self.guard = _int_of(guards, n_bits)
        self.low = self.guard >> n
        self.guard_minus_low = self.guard - self.low
        self.cell_guards = _int_of(range(n, n_cells * width, width), n_bits)
        self.cell_part = (1 << (n_cells * width)) - 1
        # bit_at[b] = 1 << (b - 1) over the cell groups' bits (9x9: 810 small ints, ~50 KB)
        self.bit_at = [0] + [1 << p for p in range(n_cells * width)]
        everything = _int_of((p for ps in bits_of for p in ps), n_bits)
        self.start = everything
        # group indices holding each candidate, for the DONE masks
        group_of: list[list[int]] = [[] for _ in range(n_cells * n)]
        for g, members in enumerate(groups):
            for i in members:
                group_of[i].append(g)
        keep: list[int] = []
        done: list[int] = []
        for i in range(n_cells * n):
            cell, d = divmod(i, n)
            gone = [cell * n + e for e in range(n) if e != d]
            gone += [p * n + d for p in geo.peers[cell]]
            keep.append(everything ^ _int_of((p for j in gone for p in bits_of[j]), n_bits))
            # A settled house group also marks its locked-candidates slots (its field bits
            # in D): the placement already made every elimination they could make.
            settled = [g * width + k for g in group_of[i] if g >= n_cells for k in range(n)]
            settled += [g * width + n for g in group_of[i]]
            done.append(_int_of(settled, n_bits))
        self.keep = keep
        self.done = done
        # Guard bits of a cell's peers, indexed by the bit_length of the cell's guard bit.
        self.peer_guards = [0] * (n_bits + 1)
        for c in range(n_cells):
            peers = (p * width + n for p in geo.peers[c])
            self.peer_guards[c * width + n + 1] = _int_of(peers, n_bits)
        # Text at the edge, fast: value of each accepted character, canonical spelling.
        self.value_of = {ch: v for v, ch in enumerate(geo.symbols, start=1)}
        self.value_of.update({ch.lower(): v for ch, v in list(self.value_of.items())})
        self.value_of.update({".": 0, "0": 0})
        self.canonical = str.maketrans({"0": ".", **{c.lower(): c for c in geo.symbols}})
        self.symbol_of = "." + geo.symbols
        self.symbol_values = frozenset(range(1, n + 1))
        # The same masks indexed by a found bit's bit_length, saving a lookup per single.
        self.keep_at = [keep[i] if i >= 0 else 0 for i in table]
        self.done_at = [done[i] if i >= 0 else 0 for i in table]
        self.bits_of = bits_of
        # Every bit except those of the placement behind a found bit, indexed the same way.
        other = [everything ^ _int_of(bits_of[i], n_bits) for i in range(n_cells * n)]
        self.other_at = [other[i] if i >= 0 else 0 for i in table]
        self.everything = everything
        self._locked_rules(geo)
        # itemgetter per house: verify() reads a house's values in one C call.
        self.house_getters: list[Callable[[Sequence[int]], Any]] = [
            operator.itemgetter(*h.cells) for h in geo.houses
        ]
        # grid_of(): the k-th '1' of a solved state's reversed binary sits at field k, bit
        # v - 1; after k earlier ones and the zeros before it, v = zeros + 1 - k * (width - 1).
        self.grid_offsets = tuple(k * (width - 1) - 1 for k in range(n_cells))

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
        outside: list[list[int]] = [[] for _ in range(n_slots)]
        has_slot: list[list[int]] = [[] for _ in range(n_slots)]
        self.lc_targets: dict[tuple[int, int], tuple[int, ...]] = {}
        for h1, house in enumerate(geo.houses):
            mine = set(house.cells)
            slot = 0
            for other in geo.houses:
                common = mine.intersection(other.cells)
                if other is house or len(common) < 2 or slot >= n_slots:
                    continue
                out_k = [k for k, c in enumerate(house.cells) if c not in common]
                targets = tuple(c for c in other.cells if c not in common)
                self.lc_targets[h1, slot] = targets
                for d in range(n):
                    start = (n_cells + h1 * n + d) * width
                    outside[slot].extend(start + k for k in out_k)
                    has_slot[slot].append(start + n)
                slot += 1
        slots = range(n_slots)
        self.slots = [(_int_of(outside[s], self.n_bits), n - s) for s in slots if has_slot[s]]
        self.slot_bits = _int_of((g - (n - s) for s in slots for g in has_slot[s]), self.n_bits)
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
        return keep


def _int_of(positions: Any, n_bits: int) -> int:
    """An int with exactly the given bit positions set (built through bytes: fast for big N)."""
    buf = bytearray((n_bits + 8) // 8)
    for p in positions:
        buf[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buf, "little")


# Geometries currently holding tables, in the order they were built, with the bytes their
# masks take. A 9x9 board's tables are about 1.5 MB, a 16x16 one's about 30 MB, and jigsaw maps come
# from users, so the cache is bounded by size and the oldest tables are dropped first.
TABLES_BUDGET_BYTES = 64 * 1024 * 1024
_holders: OrderedDict[int, tuple[Geometry, int]] = OrderedDict()
_holders_lock = threading.Lock()


def _tables(geo: Geometry) -> _Tables:
    """The tables of ``geo``, cached on the (immutable, shared) geometry object; bounded."""
    cached: _Tables | None = geo.__dict__.get("_engine_tables")
    if cached is not None:
        return cached
    cached = _Tables(geo)
    cost = cached.n_bits * geo.cells * geo.size * 3 // 8  # KEEP, DONE, OTHER: three masks each
    with _holders_lock:
        # Geometry is frozen; the tables are derived data, like its peers and cell_houses.
        object.__setattr__(geo, "_engine_tables", cached)
        _holders[id(geo)] = (geo, cost)
        total = sum(c for _, c in _holders.values())
        while total > TABLES_BUDGET_BYTES and len(_holders) > 1:
            _, (old, old_cost) = _holders.popitem(last=False)
            # A solve already running keeps its own reference; later ones rebuild.
            old.__dict__.pop("_engine_tables", None)
            total -= old_cost
    return cached


class _Budget(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


# (X, D, T, multi): a reduced state and its last scan (see _Search.reduce).
_Reduced = tuple[int, int, int, int]


class _Search:
    """One solve: reduce and search over (X, D) states, collecting up to two solutions."""

    def __init__(
        self, tables: _Tables, max_nodes: int, deadline: float | None, started: float
    ) -> None:
        self.t = tables
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.started = started
        self.stats = SolveStats()
        self.solutions: list[list[int]] = []

    def run(self, grid: list[int], text: str | None) -> SolveResult:
        """Place the givens, reduce, search; build the verified result.

        ``text`` is the canonical text of ``grid`` when the caller has it already.
        """
        t = self.t
        geo = t.geo
        if text is None:
            text = format_puzzle(grid)
        x, d = t.start, 0
        n = t.n
        keep, done = t.keep, t.done
        for cell, value in enumerate(grid):
            if value:
                i = cell * n + value - 1
                x &= keep[i]
                d |= done[i]
        reduced = self.reduce(x, d)
        if reduced is None and self.stats.reduce_passes == 1:
            # A contradiction among the givens alone: name the clashing cells if there are any.
            conflicts = find_conflicts(grid, geo)
            if conflicts:
                self.stats.elapsed_ms = (time.perf_counter() - self.started) * 1000
                return SolveResult("invalid", geo, text, errors=tuple(conflicts), stats=self.stats)
        status: Status
        reason = ""
        candidates: tuple[int, ...] | None = None
        try:
            if reduced is not None:
                self.search(reduced)
            if not self.solutions:
                status, reason = "unsolvable", ("search" if self.stats.guesses else "reduction")
            elif len(self.solutions) == 1:
                status = "solved"
            else:
                status = "multiple"
        except _Budget as stop:
            status, reason = "gave_up", stop.reason
            candidates = self.candidates_of(self.stopped_at)
        for sol in self.solutions:
            if not verify(sol, grid, geo):  # pragma: no cover - would be an engine bug
                raise AssertionError(f"engine produced an invalid solution for {text}")
        self.stats.elapsed_ms = (time.perf_counter() - self.started) * 1000
        symbol = t.symbol_of.__getitem__
        sols = tuple("".join(map(symbol, s)) for s in self.solutions)
        return SolveResult(status, geo, text, sols, (), self.stats, reason, candidates)

    def reduce(self, x: int, d: int) -> _Reduced | None:
        """Place every single, then apply locked candidates, until nothing changes.

        ``D`` holds the guard bits of settled groups and the slot bits of locked-candidates
        rules already applied on this path (or made moot by a placement).
        Returns ``(X, D, T, multi)`` where ``T`` and ``multi`` are the last scan's words
        (``multi``: guard bits of groups with two or more candidates), reused by the search;
        None on a contradiction.
        """
        t = self.t
        guard, low, gml, n = t.guard, t.low, t.guard_minus_low, t.n
        keep_at, done_at, other_at = t.keep_at, t.done_at, t.other_at
        slots, slot_bits = (t.slots, t.slot_bits) if LOCKED_CANDIDATES else ((), 0)
        locked_keep, lc_keep = t.locked_keep, t.lc_keep
        stats = self.stats
        passes = placed = 0
        try:
            while True:
                passes += 1
                tt = (x | guard) - low
                if tt & guard != guard:
                    return None  # some group has no candidate left
                # Guard bits of ``s``: groups with two or more candidates ("multi", wanted
                # only when the state is returned, so not masked out on every pass).
                s = (x & tt) + gml
                new = guard ^ ((s | d) & guard)
                if not new:
                    # Stalled on singles: mark locked candidates not seen on this path.
                    # A rule is free (cannot fire) when its group has a candidate outside
                    # the slot's intersection.
                    free = d
                    for outside, shift in slots:
                        free |= (((x & outside) + gml) & guard) >> shift
                    fresh = slot_bits ^ (free & slot_bits)
                    if not fresh:
                        return x, d, tt, s & guard
                    d |= fresh
                    before = x
                    while fresh:
                        b = fresh.bit_length()
                        fresh ^= 1 << (b - 1)
                        k = lc_keep[b - 1]
                        x &= locked_keep(b - 1) if k is None else k
                    if x == before:
                        return x, d, tt, s & guard
                    continue
                # Every new single, naked and hidden, in one batch. One placement is often
                # found in several groups (its cell and up to three houses): clearing all of
                # its bits (one AND) applies it once. Measured on top1465: 92 passes a puzzle
                # against 128 for naked singles first, ~6% faster.
                bits = x & (new - (new >> n))
                while bits:
                    b = bits.bit_length()
                    bits &= other_at[b]  # the placement's bits in its other groups too
                    x &= keep_at[b]
                    d |= done_at[b]
                    placed += 1  # one placement per turn (a count, not a popcount of D)
        finally:
            stats.reduce_passes += passes
            stats.placed_by_reduce += placed

    def branches(self, x: int, tt: int, multi: int) -> list[int]:
        """The placements to try at a node: a two-candidate cell with the most open peers,
        else a symbol with two places in a house, else a cell with fewest candidates."""
        t = self.t
        guard, low, gml = t.guard, t.low, t.guard_minus_low
        m = x & tt  # x & (x - 1) per group
        three = ((m & ((m | guard) - low)) + gml) & guard
        pairs = multi ^ three
        if pairs:
            cells = pairs & t.cell_guards
            if cells:
                # The guess that touches most open cells prunes most (top1465: 21 nodes
                # per puzzle against 34.5 for the last such cell, 38.5 for the first).
                open_cells = multi & t.cell_guards
                peer_guards, bit_at = t.peer_guards, t.bit_at
                best = -1
                g = 0
                while cells:
                    b = cells.bit_length()
                    bit = bit_at[b]
                    cells ^= bit
                    score = (open_cells & peer_guards[b]).bit_count()
                    if score > best:
                        best, g = score, bit
            else:
                g = 1 << (pairs.bit_length() - 1)
        else:
            g = self.smallest_cell(x, multi)
        top = g.bit_length()  # one past the guard bit: the group's bits end just below
        first = top - t.width
        field_bits = (x >> first) & t.full_n
        table = t.table
        out = []
        while field_bits:
            b = field_bits.bit_length()
            field_bits ^= 1 << (b - 1)
            out.append(table[first + b])
        out.reverse()
        return out

    def smallest_cell(self, x: int, multi: int) -> int:
        """The guard bit of an open cell with the fewest candidates (all open cells have 3+)."""
        t = self.t
        width, full_n = t.width, t.full_n
        open_cells = multi & t.cell_guards
        best, best_count = 0, t.n + 1
        while open_cells:
            g = open_cells & -open_cells
            open_cells ^= g
            count = ((x >> (g.bit_length() - width)) & full_n).bit_count()
            if count < best_count:
                best, best_count = g, count
                if count == 3:
                    break
        return best

    def search(self, root: _Reduced) -> None:
        """Depth-first guessing from a reduced state; stops at the second solution."""
        t = self.t
        stats = self.stats
        keep, done, cell_guards = t.keep, t.done, t.cell_guards
        reduce, branches = self.reduce, self.branches
        max_nodes, deadline = self.max_nodes, self.deadline
        clock = time.perf_counter
        stack: list[tuple[int, int, int]] = []
        state: _Reduced | None = root
        depth = 0
        nodes = 1
        try:
            while True:
                if state is None:
                    stats.backtracks += 1
                else:
                    x, d, tt, multi = state
                    if not multi & cell_guards:
                        self.solutions.append(self.grid_of(x))
                        if len(self.solutions) >= 2:
                            return
                    else:
                        # Budgets are checked before a guess, so guesses never exceed max_nodes.
                        if stats.guesses >= max_nodes:
                            self.stopped_at = x
                            raise _Budget("nodes")
                        if deadline is not None and clock() > deadline:
                            self.stopped_at = x
                            raise _Budget("deadline")
                        stats.guesses += 1
                        depth += 1
                        if depth > stats.max_depth:
                            stats.max_depth = depth
                        for i in branches(x, tt, multi):
                            stack.append((x & keep[i], d | done[i], depth))
                if not stack:
                    return
                x, d, depth = stack.pop()
                nodes += 1
                state = reduce(x, d)
        finally:
            stats.nodes += nodes

    stopped_at: int = 0

    def grid_of(self, x: int) -> list[int]:
        """The grid of a state whose cells each hold one candidate."""
        t = self.t
        # Reversed binary: the cell-group fields read left to right, one '1' per field; the
        # runs of zeros between them give the values (all in C: split, len, accumulate).
        zeros = accumulate(map(len, bin(x & t.cell_part)[:1:-1].split("1")))
        return list(map(operator.sub, zeros, t.grid_offsets))

    def candidates_of(self, x: int) -> tuple[int, ...]:
        """Per-cell candidate masks (bit v-1 = symbol v) of a state."""
        t = self.t
        width, full_n = t.width, t.full_n
        return tuple((x >> (c * width)) & full_n for c in range(t.geo.cells))


def verify(solution: Sequence[int], givens: Sequence[int], geometry: Geometry) -> bool:
    """True when ``solution`` is complete, keeps every given, and fills every house exactly."""
    n = geometry.size
    if len(solution) != geometry.cells or len(givens) != geometry.cells:
        return False
    t = _tables(geometry)
    if not t.symbol_values.issuperset(solution):
        return False
    # Keeps the givens: the solution's values at the given cells are the givens.
    if list(compress(solution, givens)) != list(compress(givens, givens)):
        return False
    return all(len(set(get(solution))) == n for get in t.house_getters)
