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
    ``i``'s own, to clear all the finds of one placement from a batch at once. Indexed by
    the ``bit_length`` of any of the candidate's bits (``keep_at[b]``). Built per geometry
    and cached on it, so variants and sizes change the data, never the algorithm: all at
    once up to 9x9 (~1.4 MB), a candidate's masks on its first placement beyond (a 16x16
    set would be ~27 MB; a solve uses 2-8 MB of it), from per-cell patterns in a dozen
    big-int operations. The cache is bounded in bytes.
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
    before it is returned. A node budget (guesses) and a deadline bound the work; the
    deadline covers the whole call, a new geometry's table build included.
story
    ``solve(..., record=N)`` runs the same search under a recorder that wraps its reduce and
    branch choice (``_Recorder``): the givens and each reduce (cells settled), each guess,
    each branch tried and the group a failed one emptied, the solutions, a stop. Nothing in
    the plain search pays for it; the pages' search story is this run.

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
* 16x16 tables built at once: 280 ms and ~30 MB per geometry (three masks of 2.2 KB for
  each of 4,096 candidates). Built lazily (a dict per mask kind whose ``__missing__``
  builds a candidate's three masks), a fresh 16x16 map costs ~10 ms of layout and its
  first solve ~40-60 ms more; the hot path only swaps a list index for a dict lookup.
* A search-story copy of the solver (``trace.py``, until issue 12): its own branching rule
  disagreed with the engine on 94 of the 95 top95 puzzles and had no deadline. A recorder
  that overrides the search's ``reduce`` and ``branches`` tells the engine's own run, and the
  plain search is untouched (its stack is mirrored, not annotated).
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
from dataclasses import dataclass, field, replace
from itertools import accumulate, compress
from typing import Any, Literal

from .board import (
    Geometry,
    House,
    InvalidPuzzle,
    PuzzleError,
    find_conflicts,
    format_puzzle,
    infer_size,
    parse_puzzle,
)
from .cage_rule import CageRule, cage_rule, narrow
from .cages import cage_errors
from .story import SearchStory, StoryWriter
from .variants import CLASSIC, LAYOUTS, geometry_for

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
    # solve(..., record=N): the search's own story (None when nothing was recorded).
    story: SearchStory | None = None

    @property
    def solution(self) -> str | None:
        """The unique solution, or None unless the status is ``solved``."""
        return self.solutions[0] if self.status == "solved" else None


def solve(
    puzzle: str | Sequence[int],
    *,
    variant: str = CLASSIC.key,
    size: int | None = None,
    regions: str | None = None,
    geometry: Geometry | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    deadline_ms: float | None = DEFAULT_DEADLINE_MS,
    record: int = 0,
) -> SolveResult:
    """Solve a puzzle, checking uniqueness; never raises for bad input (status ``invalid``).

    ``puzzle`` is text (row-major, ``.``/``0`` blank) or a grid of ints. The geometry is
    ``geometry`` if given, else built from ``variant``, ``size`` (default: inferred from the
    cell count, 9 when it cannot be) and ``regions`` (jigsaw). ``max_nodes`` bounds the
    guesses; ``deadline_ms`` bounds the whole call's wall time (None: no deadline), the
    first solve on a new geometry building its tables included (9x9: ~20 ms; 16x16: ~30 ms,
    its masks then built as the search needs them), which ``stats.elapsed_ms`` leaves out:
    it is this puzzle's time. ``record`` > 0 also tells the search's story
    (:class:`~sudoku_web.core.story.SearchStory`, at most that many events) in
    ``result.story``: the same search, under the same budget, with the same statistics.
    """
    called = time.perf_counter()  # the deadline's clock: a table build spends it too
    try:
        if geometry is None:
            if size is None:
                size = (infer_size(puzzle) if isinstance(puzzle, str) else None) or 9
            geometry = geometry_for(variant, size, regions)
        # Tables depend on the houses only: a stream of killers shares its board's tables.
        tables = _tables(geometry.base)
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
        if geometry.cages and (broken := cage_errors(geometry, geometry.cages, grid)):
            raise InvalidPuzzle(find_conflicts(grid, geometry) + broken)
    except InvalidPuzzle as exc:
        return SolveResult("invalid", geometry, errors=exc.errors)
    # One deadline for the whole call: a table build for a new geometry spends it too, and
    # the search then gives up (reason "deadline") before its first guess if it is gone.
    deadline = None if deadline_ms is None else called + deadline_ms / 1000
    if geometry.cages:
        return _cage_search(tables, max_nodes, deadline, started, record, geometry).run(grid, text)
    if record > 0:
        return _Recorder(tables, max_nodes, deadline, started, record).run(grid, text)
    return _Search(tables, max_nodes, deadline, started).run(grid, text)


@dataclass(frozen=True)
class Branch:
    """Where the engine guesses in a position (see :func:`branch_for`).

    ``cell`` is set for a guess on a cell's candidates; ``house`` and ``symbol`` for a guess
    on a symbol's places in a house. ``options`` are the placements (cell, symbol) tried,
    in the order of the candidates' bits.
    """

    cell: int | None
    house: House | None
    symbol: int | None
    options: tuple[tuple[int, int], ...]

    def holding(self, solution: Sequence[int]) -> tuple[int, int]:
        """The option that agrees with ``solution`` (a grid of symbols)."""
        return next(((c, v) for c, v in self.options if solution[c] == v), self.options[0])

    def describe(self, geometry: Geometry) -> str:
        """Words for the guess: ``r4c7 (3, 8), ...`` or ``where 7 goes in row 3 (...)``."""
        if self.house is not None and self.symbol is not None:
            places = " or ".join(geometry.cell_name(c) for c, _ in self.options)
            return f"where {geometry.symbol(self.symbol)} goes in {self.house.name} ({places})"
        cell = self.options[0][0]
        listed = ", ".join(geometry.symbol(v) for _, v in self.options)
        why = (
            "a cell with two candidates and the most open peers"
            if len(self.options) == 2
            else "a cell with the fewest candidates"
        )
        return f"{geometry.cell_name(cell)} ({listed}), {why}"


def branch_for(values: Sequence[int], masks: Sequence[int], geometry: Geometry) -> Branch | None:
    """The guess the engine's search would make in a position, by its own rule.

    ``values`` are the placed symbols (0: open) and ``masks`` the open cells' candidates
    (bit v-1 = symbol v). None when no cell is open or some cell or house is already dead.
    This is how the explanations name the engine's guess: the choice is the engine's code
    (``_Search.choose``), run on the position's candidates.
    """
    t = _tables(geometry.base)
    n, bits_of = t.n, t.bits_of
    positions: list[int] = []
    for cell, (value, mask) in enumerate(zip(values, masks, strict=True)):
        if value:
            mask = 1 << (value - 1)
        base = cell * n
        while mask:
            low = mask & -mask
            mask ^= low
            positions.extend(bits_of[base + low.bit_length() - 1])
    x = _int_of(positions, t.n_bits)
    tt = (x | t.guard) - t.low
    multi = ((x & tt) + t.guard_minus_low) & t.guard
    if tt & t.guard != t.guard or not multi & t.cell_guards:
        return None
    search = _Search(t, 0, None, 0.0)
    g = search.choose(x, tt, multi)
    options = tuple(divmod(t.table[b], n) for b in search.options(x, g))
    placements = tuple((c, v + 1) for c, v in options)
    group = (g.bit_length() - 1) // t.width
    if group < geometry.cells:
        return Branch(group, None, None, placements)
    house, symbol = divmod(group - geometry.cells, n)
    return Branch(None, geometry.houses[house], symbol + 1, placements)


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
# 16x16 grid ~8 MB.
GROWN_BUDGET_BYTES = 10 * 1024 * 1024
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


@functools.lru_cache(maxsize=4)
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
        self.geo = tables.geo  # the board solved: the tables' houses, plus any cages

    def run(self, grid: list[int], text: str | None) -> SolveResult:
        """Place the givens, reduce, search; build the verified result.

        ``text`` is the canonical text of ``grid`` when the caller has it already.
        """
        t = self.t
        geo = self.geo
        if text is None:
            text = format_puzzle(grid)
        reduced = self.reduce(*self.givens_state(grid))
        if reduced is None and self.stats.reduce_passes == 1:
            # A contradiction among the givens alone: name the clashing cells if there are any.
            conflicts = find_conflicts(grid, geo)
            if conflicts:
                self.stats.elapsed_ms = (time.perf_counter() - self.started) * 1000
                return SolveResult("invalid", geo, text, errors=tuple(conflicts), stats=self.stats)
        status, reason, candidates = self.outcome(reduced)
        for sol in self.solutions:
            if not verify(sol, grid, geo):  # pragma: no cover - would be an engine bug
                raise AssertionError(f"engine produced an invalid solution for {text}")
        self.stats.elapsed_ms = (time.perf_counter() - self.started) * 1000
        symbol = t.symbol_of.__getitem__
        sols = tuple("".join(map(symbol, s)) for s in self.solutions)
        return SolveResult(status, geo, text, sols, (), self.stats, reason, candidates)

    def givens_state(self, grid: list[int]) -> tuple[int, int]:
        """``(X, D)`` with every given placed (not yet reduced)."""
        t = self.t
        x, d = t.start, 0
        width = t.width
        keep_at, done_at = t.keep_at, t.done_at
        for cell, value in enumerate(grid):
            if value:
                b = cell * width + value  # bit_length of the candidate's cell-group bit
                x &= keep_at[b]
                d |= done_at[b]
        return x, d

    def outcome(self, reduced: _Reduced | None) -> tuple[Status, str, tuple[int, ...] | None]:
        """Search from the root (None: dead already); (status, reason, candidates if cut)."""
        try:
            if reduced is not None:
                self.search(reduced)
        except _Budget as stop:
            return "gave_up", stop.reason, self.candidates_of(self.stopped_at)
        if not self.solutions:
            return "unsolvable", ("search" if self.stats.guesses else "reduction"), None
        return ("solved" if len(self.solutions) == 1 else "multiple"), "", None

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
        slots, slot_bits = t.slots, t.slot_bits
        locked_keep, lc_keep = t.locked_keep, t.lc_keep
        stats = self.stats
        passes = placed = 0
        try:
            while True:
                passes += 1
                tt = (x | guard) - low
                if tt & guard != guard:
                    self.dead = tt  # for the story (see _Recorder): which group emptied
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
        """The placements to try at a node (bit indices, see :meth:`options`)."""
        return self.options(x, self.choose(x, tt, multi))

    def choose(self, x: int, tt: int, multi: int) -> int:
        """The guard bit of the group to branch on: a two-candidate cell with the most open
        peers, else a symbol with two places in a house (the last such group), else a cell
        with the fewest candidates."""
        t = self.t
        guard, low, gml = t.guard, t.low, t.guard_minus_low
        m = x & tt  # x & (x - 1) per group
        three = ((m & ((m | guard) - low)) + gml) & guard
        pairs = multi ^ three
        if not pairs:
            return self.smallest_cell(x, multi)
        cells = pairs & t.cell_guards
        if not cells:
            return 1 << (pairs.bit_length() - 1)
        # The guess that touches most open cells prunes most (top1465: 21 nodes per puzzle
        # against 34.5 for the last such cell, 38.5 for the first). Ties: the last cell.
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
        return g

    def options(self, x: int, g: int) -> list[int]:
        """The candidates of the group with guard bit ``g``, as bit indices (the
        ``bit_length`` of each candidate's bit there: ``keep_at`` and ``table`` keys),
        in ascending order."""
        t = self.t
        top = g.bit_length()  # one past the guard bit: the group's bits end just below
        first = top - t.width
        field_bits = (x >> first) & t.full_n
        out = []
        while field_bits:
            b = field_bits.bit_length()
            field_bits ^= 1 << (b - 1)
            out.append(first + b)
        out.reverse()
        return out

    def smallest_cell(self, x: int, multi: int) -> int:
        """The guard bit of the first open cell with the fewest candidates (all have 3+)."""
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
        keep_at, done_at, cell_guards = t.keep_at, t.done_at, t.cell_guards
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
                        for b in branches(x, tt, multi):
                            stack.append((x & keep_at[b], d | done_at[b], depth))
                if not stack:
                    return
                x, d, depth = stack.pop()
                nodes += 1
                state = reduce(x, d)
        finally:
            stats.nodes += nodes

    stopped_at: int = 0
    dead: int = 0  # the last contradiction's scan word (guard bit clear: an empty group)

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


class _CageSearch(_Search):
    """The search on a board with cages: its reduce also narrows by the cage rule
    (:func:`~sudoku_web.core.cage_rule.narrow`) whenever singles and locked candidates stall,
    until neither changes anything."""

    rule: CageRule

    def use_cages(self, geometry: Geometry) -> _CageSearch:
        """Solve ``geometry`` (the tables' houses plus cages); returns itself."""
        self.geo = geometry
        self.rule = cage_rule(geometry)
        return self

    def reduce(self, x: int, d: int) -> _Reduced | None:
        """The plain reduce, then the cage rule, until neither changes the state."""
        t = self.t
        rule, cell_part, width, full, other_at = (
            self.rule,
            t.cell_part,
            t.width,
            t.full_n,
            t.other_at,
        )
        while True:
            state = super().reduce(x, d)
            if state is None:
                return None
            x, d = state[0], state[1]
            narrowed = narrow(x, rule, cell_part, width, full, other_at)
            if narrowed == x:
                return state
            x = narrowed


class _Recorder(_Search):
    """The same search, telling its story as it goes (``solve(..., record=N)``).

    It overrides ``reduce``, ``branches`` and ``run`` to watch the plain search, so the
    search itself carries no bookkeeping when nothing is recorded. ``pending`` mirrors the
    search's stack: ``branches`` pushes the placements the search is about to push, in the
    same order, and each later ``reduce`` is of the one the search popped last.
    """

    def __init__(
        self,
        tables: _Tables,
        max_nodes: int,
        deadline: float | None,
        started: float,
        max_events: int,
    ) -> None:
        super().__init__(tables, max_nodes, deadline, started)
        self.writer = StoryWriter(tables.geo, max_events)
        self.pending: list[tuple[int, int]] = []  # (bit index, depth) of branches to come
        self.depth = 0  # of the node being reduced or branched on
        self.givens = 0
        self.at_root = True  # until the root's reduce is told

    def run(self, grid: list[int], text: str | None) -> SolveResult:
        """The plain run, then the story's end and the story in the result."""
        self.givens = sum(1 for v in grid if v)
        result = super().run(grid, text)
        if result.status == "gave_up":
            self.writer.stopped(self.depth, result.reason, self.stats.guesses)
        else:
            self.writer.finished(result.status)
        return replace(result, story=self.writer.story())

    def reduce(self, x: int, d: int) -> _Reduced | None:
        """The plain reduce, told: the root's givens or the branch tried, then the outcome."""
        at_root, self.at_root = self.at_root, False
        b = 0
        if not at_root:
            b, self.depth = self.pending.pop()
        before = self.stats.placed_by_reduce
        state = super().reduce(x, d)
        writer = self.writer
        if writer.full:
            writer.truncated = True
            return state
        settled = self.stats.placed_by_reduce - before
        cell = value = None
        if at_root:
            writer.givens(self.givens, settled)
        else:
            cell, symbol = divmod(self.t.table[b], self.t.n)
            value = symbol + 1
            writer.tried(self.depth, cell, value, settled)
        if state is None:
            writer.failed(self.depth, cell, value, self.why(self.dead))
        elif not state[3] & self.t.cell_guards:
            writer.solved(self.depth, len(self.solutions) + 1)
        return state

    def branches(self, x: int, tt: int, multi: int) -> list[int]:
        """The plain choice, told, and mirrored in ``pending``."""
        t = self.t
        g = self.choose(x, tt, multi)
        out = self.options(x, g)
        depth = self.depth
        self.pending.extend((b, depth + 1) for b in out)
        if self.writer.full:
            self.writer.truncated = True
            return out
        placed = [divmod(t.table[b], t.n) for b in out]
        group = (g.bit_length() - 1) // t.width
        geo = t.geo
        if group < geo.cells:
            self.writer.guess_cell(depth, group, tuple(v + 1 for _, v in placed))
        else:
            house, symbol = divmod(group - geo.cells, t.n)
            places = tuple(c for c, _ in placed)
            self.writer.guess_house(depth, geo.houses[house].name, symbol + 1, places)
        return out

    def why(self, tt: int) -> str:
        """Words for a contradiction's scan word: the first group it left empty."""
        t = self.t
        empty = t.guard & ~tt
        group = ((empty & -empty).bit_length() - 1) // t.width
        if group < t.geo.cells:
            return self.writer.empty_cell(group)
        house, symbol = divmod(group - t.geo.cells, t.n)
        return self.writer.empty_house(t.geo.houses[house].name, symbol + 1)


def verify(solution: Sequence[int], givens: Sequence[int], geometry: Geometry) -> bool:
    """True when ``solution`` is complete, keeps every given, fills every house exactly, and
    fills every cage with different digits adding up to its sum."""
    n = geometry.size
    if len(solution) != geometry.cells or len(givens) != geometry.cells:
        return False
    t = _tables(geometry.base)
    if not t.symbol_values.issuperset(solution):
        return False
    # Keeps the givens: the solution's values at the given cells are the givens.
    if list(compress(solution, givens)) != list(compress(givens, givens)):
        return False
    if not all(len(set(get(solution))) == n for get in t.house_getters):
        return False
    for cage in geometry.cages:
        digits = [solution[c] for c in cage.cells]
        if len(set(digits)) != len(digits) or sum(digits) != cage.total:
            return False
    return True


class _CageRecorder(_Recorder, _CageSearch):
    """The search on a board with cages, telling its story (the recorder over the cage
    search's reduce)."""


def _cage_search(
    tables: _Tables,
    max_nodes: int,
    deadline: float | None,
    started: float,
    record: int,
    geometry: Geometry,
) -> _CageSearch:
    """The search of a board with cages, telling its story when ``record`` > 0."""
    if record > 0:
        return _CageRecorder(tables, max_nodes, deadline, started, record).use_cages(geometry)
    return _CageSearch(tables, max_nodes, deadline, started).use_cages(geometry)
