"""The solver engine: reduce passes plus depth-first guessing, over any geometry.

Public API (stable)::

    from sudoku_web.core.solver import solve
    result = solve("4.....8.5.3...")          # classic 9x9
    result = solve(text, variant="x")           # or geometry=..., size=..., regions=...
    result.status      # "solved" | "multiple" | "unsolvable" | "invalid" | "gave_up"
    result.solution    # str or None (only when solved)
    result.solutions   # up to two distinct solutions
    result.stats       # SolveStats
    result.errors      # tuple[PuzzleError, ...] (invalid only)

Contract: never raises for bad input; stops at the second solution, so uniqueness is always
known; every solution is verified against the givens, houses and cages before it is
returned; a node budget (guesses) and a deadline over the whole call (a table build
included) bound it. The tables live in :mod:`.solver_tables`, built per house layout
(``geometry.base``), never keyed by a board's cages.

Glossary (after Norvig's ``sudoku.py``; board terms are in :mod:`sudoku_web.core.board`):

candidate
    A pair (cell, symbol) still possible. Placement index ``i = cell * N + symbol``.
group
    N candidates of which exactly one must end up true: the N symbols of a cell, or the N
    places of one symbol in one house. Empty: a contradiction; one left: a single.
state
    Two ints ``X`` and ``D``: ``X`` holds every group's field (N candidate bits and a zero
    guard bit, see :mod:`.solver_tables`); ``D`` the guard bits of settled groups and the
    marks of locked-candidates rules already applied on this path.
place
    ``X &= KEEP[i]; D |= DONE[i]``: one AND removes the symbol from the cell's peers and the
    cell's other symbols from every group at once.
reduce
    Borrow-free field arithmetic over every group at once (``T = (X | G) - LOW``; ``X & T``
    is ``x & (x - 1)`` per field) finds contradictions and all naked and hidden singles in a
    dozen big-int operations; the singles are placed in one batch and the scan repeats.
    When singles stall, locked candidates over every slot; repeat until nothing changes.
    With cages (:class:`_CageSearch`), then the cage rule and the 45 rule
    (:func:`.cage_rule.narrow`); with rules (:class:`_RuleSearch`), then each rule's
    propagator (:mod:`.rules`); again until nothing changes. A node's cage rule and
    propagators read only the constraints and rules over cells changed since its parent's
    reduced state, which nothing of theirs changes.
search
    Depth-first over copies of the state, guessing on the two-candidate cell with the most open
    peers, else a symbol's two places in a house, else a fewest-candidates cell (rules: by weight).
story
    ``solve(..., record=N)`` runs the same search under :class:`_Recorder`, which wraps its
    reduce and branch choice; the plain search pays one attribute store per contradiction.

Roads not taken (figures in ``benchmarks/RESULTS.md``, "Solver engine: roads not taken"):

* Per-cell bitmask lists with recursive propagation: Python-loop bound, ~12x slower.
* Naked singles before hidden ones (one batch is ~6% faster); empty groups only at stalls (~18%).
* Marking locked-candidates mirrors: half the firings, no faster.
* Branching on the first or last bivalue cell: 38.5 / 34.5 nodes against 21.2 kept.
* A trail (undo log) instead of copying two ints on branch: Python bookkeeping per placement.
* A separate search-story solver: its branching disagreed with the engine; a recorder won.
"""

from __future__ import annotations

import functools
import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate, compress
from typing import Literal

from .board import (
    Geometry,
    House,
    InvalidPuzzle,
    PuzzleError,
    find_conflicts,
    format_puzzle,
    infer_size,
    parse_puzzle,
    puzzle_error,
)
from .cage_rule import CageRule, cage_rule, clear, narrow
from .cages import cage_errors
from .rules.base import Propagator
from .rules.board import rule_errors
from .solver_tables import (
    EAGER_MASKS_BYTES as EAGER_MASKS_BYTES,
)
from .solver_tables import (
    GROWN_BUDGET_BYTES as GROWN_BUDGET_BYTES,
)
from .solver_tables import (
    LOCKED_SLOTS as LOCKED_SLOTS,
)
from .solver_tables import (
    TABLES_BUDGET_BYTES as TABLES_BUDGET_BYTES,
)
from .solver_tables import (
    _int_of,
    _Tables,
    _tables,
)
from .solver_tables import (
    prebuild_common_tables as prebuild_common_tables,
)
from .solver_tables import (
    tables_bytes as tables_bytes,
)
from .solver_tables import (
    tables_figures as tables_figures,
)
from .story import FEWEST_CANDIDATES, RULES_GUESS, TWO_CANDIDATES, SearchStory, StoryWriter
from .variants import CLASSIC, geometry_for
from .wording import N_, Words, listing, words

Status = Literal["solved", "multiple", "unsolvable", "invalid", "gave_up"]

# Guesses (branch nodes) per solve. The slowest adversarial 9x9 inputs we know (sparse
# unsolvable grids) take about 25 us per node here, so this keeps any 9x9 well under a second.
DEFAULT_MAX_NODES = 20_000
# Wall-clock safety net, mostly for 16x16 grids whose nodes cost more; None disables it.
DEFAULT_DEADLINE_MS: float | None = 1000.0


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
    # gave_up: candidate bitmask per cell (bit v-1 = symbol v) reached by deduction before
    # any guess (sound: every solution keeps its digits there).
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
        # the one-off build of a new geometry's tables (the page's "Time" is the solve's).
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
                need = words(
                    N_("A grid needs {cells} values from 0 to {size}."),
                    cells=geometry.cells,
                    size=geometry.size,
                )
                raise InvalidPuzzle([puzzle_error("length", need)])
        _check_parts(geometry, grid)
    except InvalidPuzzle as exc:
        return SolveResult("invalid", geometry, errors=exc.errors)
    # One deadline for the whole call: a table build for a new geometry spends it too, and
    # the search then gives up (reason "deadline") before its first guess if it is gone.
    deadline = None if deadline_ms is None else called + deadline_ms / 1000
    if geometry.cages or geometry.rules:
        return _board_search(tables, max_nodes, deadline, started, record, geometry).run(grid, text)
    if record > 0:
        return _Recorder(tables, max_nodes, deadline, started, record).run(grid, text)
    return _Search(tables, max_nodes, deadline, started).run(grid, text)


def _check_parts(geometry: Geometry, grid: list[int]) -> None:
    """Raise :class:`InvalidPuzzle` naming what is wrong with the board's cages or rules."""
    if geometry.cages and (broken := cage_errors(geometry, geometry.cages, grid)):
        raise InvalidPuzzle(find_conflicts(grid, geometry) + broken)
    if geometry.rules and (wrong := rule_errors(geometry)):
        raise InvalidPuzzle(wrong)


@dataclass(frozen=True)
class Branch:
    """Where the engine guesses in a position (see :func:`branch_for`).

    ``cell`` is set for a guess on a cell's candidates; ``house`` and ``symbol`` for a guess
    on a symbol's places in a house. ``options`` are the placements (cell, symbol) tried,
    in the order of the candidates' bits. ``ruled``: chosen by the rule search's own choice
    (:data:`~sudoku_web.core.story.RULES_GUESS`).
    """

    cell: int | None
    house: House | None
    symbol: int | None
    options: tuple[tuple[int, int], ...]
    ruled: bool = False

    def holding(self, solution: Sequence[int]) -> tuple[int, int]:
        """The option that agrees with ``solution`` (a grid of symbols)."""
        return next(((c, v) for c, v in self.options if solution[c] == v), self.options[0])

    def describe(self, geometry: Geometry) -> str:
        """Words for the guess: ``r4c7 (3, 8), ...`` or ``where 7 goes in row 3 (...)``."""
        return self.words(geometry).english()

    def words(self, geometry: Geometry) -> Words:
        """:meth:`describe` as a catalog template and its values."""
        if self.house is not None and self.symbol is not None:
            return words(
                N_("where {digit} goes in {house} ({places})"),
                digit=geometry.symbol(self.symbol),
                house=self.house.words,
                places=listing((geometry.cell_name(c) for c, _ in self.options), "or"),
            )
        if self.ruled:
            why = RULES_GUESS
        elif len(self.options) == 2:
            why = TWO_CANDIDATES
        else:
            why = FEWEST_CANDIDATES
        return words(
            N_("{cell} ({candidates}), {why}"),
            cell=geometry.cell_name(self.options[0][0]),
            candidates=", ".join(geometry.symbol(v) for _, v in self.options),
            why=why,
        )


def branch_for(values: Sequence[int], masks: Sequence[int], geometry: Geometry) -> Branch | None:
    """The guess the engine's search would make in a position, by its own rule.

    ``values`` are the placed symbols (0: open) and ``masks`` the open cells' candidates
    (bit v-1 = symbol v). None when no cell is open or some cell or house is already dead.
    This is how the explanations name the engine's guess: the choice is the engine's code
    (``_Search.choose``; on a board with rules ``_RuleSearch.choose`` with the weights a
    solve starts from), run on the position's candidates.
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
    # A board with rules branches by the rule search's own choice, as at its root.
    search = (
        _RuleSearch(t, 0, None, 0.0).use_rules(geometry)
        if geometry.rules
        else _Search(t, 0, None, 0.0)
    )
    ruled = isinstance(search, _RuleSearch) and search.weighs
    g = search.choose(x, tt, multi)
    options = tuple(divmod(t.table[b], n) for b in search.options(x, g))
    placements = tuple((c, v + 1) for c, v in options)
    group = (g.bit_length() - 1) // t.width
    if group < geometry.cells:
        return Branch(group, None, None, placements, ruled)
    house, symbol = divmod(group - geometry.cells, n)
    return Branch(None, geometry.houses[house], symbol + 1, placements, ruled)


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
        # A cut search reports what deduction alone reached (the root), never a guess's state.
        self.stopped_at = root[0]
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
                            raise _Budget("nodes")
                        if deadline is not None and clock() > deadline:
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
    refs: list[int]  # per branch on the search's stack: its parent's reduced state

    def use_cages(self, geometry: Geometry) -> _CageSearch:
        """Solve ``geometry`` (the tables' houses plus cages); returns itself."""
        self.geo = geometry
        self.rule = cage_rule(geometry)
        self.refs = []
        return self

    def options(self, x: int, g: int) -> list[int]:
        """The plain options; each branch remembers ``x`` (reduced: no constraint or
        propagator changes it) as where its reduce starts from."""
        out = super().options(x, g)
        self.refs.extend([x] * len(out))
        return out

    def reduce(self, x: int, d: int) -> _Reduced | None:
        """The cage reduce (:meth:`cage_reduce`) from the parent's reduced state."""
        return self.cage_reduce(x, d, self.refs.pop() if self.refs else None)

    def cage_reduce(self, x: int, d: int, ref: int | None) -> _Reduced | None:
        """The plain reduce, then the cage rule, until neither changes the state.

        ``ref`` is a state that holds ``x`` and that no constraint changes (None: none
        known): the cage rule then reads only the constraints over cells changed since.
        Past the deadline an open state is returned as it stands (the search then gives up
        before its next guess); a complete one is always checked against the cages.
        """
        t = self.t
        rule, cell_part, width, full, other_at = (
            self.rule,
            t.cell_part,
            t.width,
            t.full_n,
            t.other_at,
        )
        deadline, cell_guards, clock = self.deadline, t.cell_guards, time.perf_counter
        gml = t.guard_minus_low & cell_part
        while True:
            state = _Search.reduce(self, x, d)
            if state is None:
                return None
            x, d = state[0], state[1]
            if deadline is not None and state[3] & cell_guards and clock() > deadline:
                return state
            if ref is None or not state[3] & cell_guards:
                touched = cell_guards  # the root, and every complete grid: every constraint
            else:
                touched = (((x ^ ref) & cell_part) + gml) & cell_guards
            narrowed = narrow(x, rule, cell_part, width, full, other_at, touched) if touched else x
            if narrowed == x:
                return state
            ref, x = x, narrowed


class _RuleSearch(_CageSearch):
    """The search on a board with rules: its reduce (the cage search's when the board has
    cages) also runs the rules' propagators on the cells' candidate masks whenever the rest
    stalls, until nothing changes.

    Propagation is incremental: a propagator runs only when a cell it reads has changed
    since the state where every propagator was known to change nothing (a node starts from
    its parent's reduced state, which :meth:`options` remembers for each branch), or was
    narrowed by an earlier propagator of the same round. A propagator's removals depend on
    the cells it reads alone (:data:`~sudoku_web.core.rules.base.Propagator`), so one left
    out would remove nothing.

    With a propagator, it branches on a cell, never on a house's symbol: the open cell with
    the fewest candidates per unit of weight, a cell's weight being one, plus the
    propagators that read it, plus the contradictions seen in it on this solve (an empty
    cell, or any cell of a house left without a place for a symbol): "dom/wdeg" (Boussemart
    et al., 2004). Rules tie cells together far beyond their houses, and the search learns
    where. A board whose rules are all carried by its houses and cages (diagonals, killer
    cages) branches as the killer search does (``benchmarks/RESULTS.md``, "Rules engine").
    """

    propagators: tuple[Propagator, ...]
    caged: bool
    weight: list[int]  # per cell: 1 + propagators reading it + contradictions seen in it
    weighs: bool  # branches by the weights (the board has a propagator)
    # Per propagator but the last: itself, its cells' guard bits, its cells (_RuleParts).
    rounds: tuple[tuple[Propagator, int, tuple[int, ...]], ...]
    last: tuple[Propagator, int]  # the last propagator and its cells' guard bits

    def use_rules(self, geometry: Geometry) -> _RuleSearch:
        """Solve ``geometry`` (the tables' houses plus cages and rules); returns itself."""
        self.caged = bool(geometry.cages)
        if self.caged:
            self.use_cages(geometry)
        self.geo = geometry
        parts = _rule_parts(geometry)
        self.propagators = parts.propagators
        rounds = tuple(zip(parts.propagators, parts.watch, parts.reads, strict=True))
        # The last of a round narrows no propagator after it: its changes are not traced.
        self.rounds = rounds[:-1]
        self.last = rounds[-1][:2] if rounds else (_no_rule, 0)
        self.weighs = bool(self.propagators)
        self.weight = list(parts.weight)
        self.refs = []
        return self

    def reduce(self, x: int, d: int) -> _Reduced | None:
        """The plain (or cage) reduce, then the rules, until neither changes the state.

        Past the deadline an open state is returned as it stands (the search then gives up
        before its next guess); a complete one is verified like any other solution.
        A contradiction adds one to the weight of the cells where it was seen.
        """
        # The state every constraint and propagator leaves as it is (None at the root).
        ref = self.refs.pop() if self.refs else None
        caged = self.caged
        if not self.propagators:
            state = self.cage_reduce(x, d, ref) if caged else _Search.reduce(self, x, d)
            if state is None:
                self.blame(self.dead)
            return state
        t = self.t
        deadline, cell_guards, clock = self.deadline, t.cell_guards, time.perf_counter
        cell_part, gml = t.cell_part, t.guard_minus_low & t.cell_part
        while True:
            state = self.cage_reduce(x, d, ref) if caged else _Search.reduce(self, x, d)
            if state is None:
                self.blame(self.dead)
                return None
            x, d = state[0], state[1]
            if deadline is not None and state[3] & cell_guards and clock() > deadline:
                return state
            # Guard bits of the cells whose candidates differ from ``ref``'s: a field of
            # zeros stays below its guard bit, any other carries into it.
            if ref is None or not state[3] & cell_guards:
                touched = cell_guards  # the root, and every complete grid: every rule
            else:
                touched = (((x ^ ref) & cell_part) + gml) & cell_guards
            narrowed = self.run_rules(x, touched) if touched else x
            if narrowed == x:
                return state
            ref, x = x, narrowed

    def run_rules(self, x: int, touched: int) -> int:
        """``x`` after one round of the propagators that read a cell of ``touched`` (guard
        bits of cell fields), or that one before them in the round narrowed."""
        t = self.t
        width, full, other_at = t.width, t.full_n, t.other_at
        cells = x & t.cell_part
        masks = list(map(full.__and__, map(cells.__rshift__, t.cell_shifts)))
        before = masks.copy()
        last, last_watch = self.last
        for propagate, watch, reads in self.rounds:
            if touched & watch and propagate(masks):
                for c in reads:
                    if masks[c] != before[c]:
                        touched |= 1 << (c * width + width - 1)
        if touched & last_watch:
            last(masks)
        if masks == before:
            return x
        for cell in compress(t.cell_indices, map(operator.ne, before, masks)):
            x = clear(x, cell, before[cell] & ~masks[cell], width, other_at)
        return x

    def blame(self, tt: int) -> None:
        """Weigh the cells of the groups a contradiction's scan word ``tt`` left empty."""
        t = self.t
        n_cells, weight = t.geo.cells, self.weight
        empty = t.guard & ~tt
        while empty:
            g = empty & -empty
            empty ^= g
            group = (g.bit_length() - 1) // t.width
            if group < n_cells:
                weight[group] += 1
            else:
                for cell in t.geo.houses[(group - n_cells) // t.n].cells:
                    weight[cell] += 1

    def choose(self, x: int, tt: int, multi: int) -> int:
        """The guard bit of the open cell with the fewest candidates per unit of weight
        (the first such cell on a tie); the killer search's choice when nothing weighs."""
        if not self.weighs:
            return super().choose(x, tt, multi)
        t = self.t
        cells = x & t.cell_part
        masks = list(map(t.full_n.__and__, map(cells.__rshift__, t.cell_shifts)))
        scores = map(operator.truediv, map(int.bit_count, masks), self.weight)
        # Open: two candidates or more (x & (x - 1) is not zero).
        open_cells = map(operator.and_, masks, map((-1).__add__, masks))
        _, cell = min(compress(zip(scores, t.cell_indices, strict=True), open_cells))
        return 1 << (cell * t.width + t.n)


def _no_rule(masks: list[int]) -> bool:
    """The propagator of a board without one: it removes nothing."""
    return False


@dataclass(frozen=True)
class _RuleParts:
    """What the rule search needs of a board's rules, built once per board."""

    propagators: tuple[Propagator, ...]
    reads: tuple[tuple[int, ...], ...]  # per propagator: the cells it reads
    # Per propagator: the guard bits of its cells' fields in the engine's state.
    watch: tuple[int, ...]
    # Per cell: its starting weight in the rule search (one, plus the propagators reading it).
    weight: tuple[int, ...]


# Bounded by count: boards with rules come from users. The propagators may be shared (each
# kind's says so: what one remembers is a completed run's masks, replaced whole).
@functools.lru_cache(maxsize=64)
def _rule_parts(geometry: Geometry) -> _RuleParts:
    """A board's rule propagators, the cells each reads, and each cell's starting weight.
    Built once per board: a guess named in an explanation (:func:`branch_for`) asks for
    them again at every guess."""
    propagators = tuple(
        p for rule in geometry.rules if (p := rule.propagator(geometry)) is not None
    )
    weight = [1] * geometry.cells
    full = (1 << geometry.size) - 1
    width = geometry.size + 1
    reads = []
    for propagate in propagators:
        probe = _Reads([full] * geometry.cells)
        propagate(probe)
        for cell in probe.read:
            weight[cell] += 1
        reads.append(tuple(sorted(probe.read)))
    watch = tuple(sum(1 << (c * width + width - 1) for c in cells) for cells in reads)
    return _RuleParts(propagators, tuple(reads), watch, tuple(weight))


class _Reads(list[int]):
    """Candidate masks that remember which cells were read (a propagator's cells)."""

    def __init__(self, masks: list[int]) -> None:
        super().__init__(masks)
        self.read: set[int] = set()

    def __getitem__(self, cell: int) -> int:  # type: ignore[override]
        self.read.add(cell)
        return super().__getitem__(cell)


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
            self.writer.guess_house(depth, geo.houses[house], symbol + 1, places)
        return out

    def why(self, tt: int) -> Words:
        """Words for a contradiction's scan word: the first group it left empty."""
        t = self.t
        empty = t.guard & ~tt
        group = ((empty & -empty).bit_length() - 1) // t.width
        if group < t.geo.cells:
            return self.writer.empty_cell(group)
        house, symbol = divmod(group - t.geo.cells, t.n)
        return self.writer.empty_house(t.geo.houses[house], symbol + 1)


def verify(solution: Sequence[int], givens: Sequence[int], geometry: Geometry) -> bool:
    """True when ``solution`` is complete, keeps every given, fills every house exactly,
    fills every cage with different digits adding up to its sum, and keeps every rule."""
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
    return all(rule.check(solution, geometry) for rule in geometry.rules)


class _CageRecorder(_Recorder, _CageSearch):
    """The search on a board with cages, telling its story (the recorder over the cage
    search's reduce)."""


class _RuleRecorder(_Recorder, _RuleSearch):
    """The search on a board with rules, telling its story."""

    def use_rules(self, geometry: Geometry) -> _RuleSearch:
        """The rule search's setup; its guesses told by its own rule."""
        super().use_rules(geometry)
        if self.weighs:
            self.writer.cell_reason = RULES_GUESS
        return self


def _board_search(
    tables: _Tables,
    max_nodes: int,
    deadline: float | None,
    started: float,
    record: int,
    geometry: Geometry,
) -> _CageSearch:
    """The search of a board with cages or rules, telling its story when ``record`` > 0."""
    if geometry.rules:
        ruled = (
            _RuleRecorder(tables, max_nodes, deadline, started, record)
            if record > 0
            else _RuleSearch(tables, max_nodes, deadline, started)
        )
        return ruled.use_rules(geometry)
    caged = (
        _CageRecorder(tables, max_nodes, deadline, started, record)
        if record > 0
        else _CageSearch(tables, max_nodes, deadline, started)
    )
    return caged.use_cages(geometry)
