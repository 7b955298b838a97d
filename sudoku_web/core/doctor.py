"""The typo doctor: which given of an impossible puzzle was probably mistyped.

Most "impossible" puzzles people type are a good puzzle with one wrong given. For such a
puzzle :func:`diagnose` returns

the conflict
    A minimal set of givens that has no solution on its own: drop any one of them and the
    rest can be completed. It is found by deletion (try dropping each given; if what is left
    is still impossible, drop it for good), so every member is needed.
one-cell fixes
    Each change of one given (to another symbol, or removing it) after which the puzzle has
    exactly one solution, most likely first (see :func:`rank_key`). A given outside the
    conflict cannot be a fix: the conflict would survive the change. So only conflict cells
    are tried, and one solve of "the puzzle without this given" usually settles a whole cell.

For a puzzle with several solutions :func:`suggest_given` proposes one extra given (a cell
where two known solutions differ, with the symbol of one of them) and checks that it makes
the solution unique.

For a killer (a board with cages) whose cages have no solution, several, or sums that miss
the grid's total, :func:`diagnose_sums` says which cage's sum was most likely mistyped: each
change of one sum after which the puzzle has exactly one solution (:class:`SumFix`), the
likeliest typos tried first (:func:`sum_typo_tier`). When the cages cover the grid and their
sums miss its total by ``k``, only ``sum + k`` is tried for each cage; otherwise every
one-keystroke variant of each sum the cage can make.

Every sub-solve goes through :func:`sudoku_web.core.solver.solve` with a node budget and what is
left of one deadline (which also pays for building a new geometry's tables, so a diagnosis
stays within its deadline). A sub-solve that gives up is "unknown": the given is kept (so the
conflict is still a set of givens proven impossible, only perhaps not minimal) and the answer
says ``complete=False``, honestly.

Caching: the engine is deterministic, so an answer no deadline cut (``timed_out`` False) is a
pure function of the puzzle, the geometry and the node budgets, and may be cached like a
page; one the deadline cut depends on the load and may not.

Roads not taken: QuickXplain (divide and conquer over the givens) needs fewer checks when the
conflict is small, but its checks remove many givens at once, and proving a sparse set
impossible is exactly the expensive kind of solve; plain deletion keeps every check close to
a real puzzle. With 17-30 givens it costs at most one solve per given (see
``benchmarks/RESULTS.md``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

from .board import SYMBOLS, Cage, Geometry, find_conflicts, parse_puzzle
from .cages import combinations, covers_grid, grid_total
from .solver import SolveResult, solve
from .wording import N_, Words, words

# A whole diagnosis stays within these unless the caller says otherwise. The deadline is the
# one that matters inside a request; the node bounds keep one hard sub-solve from eating it.
DEFAULT_DEADLINE_MS = 1500.0
DEFAULT_MAX_NODES = 400_000
DEFAULT_NODES_PER_SOLVE = 20_000
DEFAULT_SUGGEST_TRIES = 30

# Pairs of digits people confuse when reading print or handwriting (unordered).
LOOKALIKES: frozenset[frozenset[int]] = frozenset(
    frozenset(pair)
    for pair in [
        (1, 7),
        (3, 8),
        (5, 6),
        (6, 8),
        (8, 9),
        (4, 9),
        (6, 9),
        (2, 7),
        # 16x16 letters against digits they resemble: B/8, G/6, A/4 (values 11, 16, 10).
        (8, 11),
        (6, 16),
        (4, 10),
    ]
)


@dataclass(frozen=True)
class Fix:
    """One given changed: ``cell`` held ``old``; ``new`` is the new symbol, None to remove it."""

    cell: int
    old: int
    new: int | None

    def apply(self, grid: Sequence[int]) -> list[int]:
        """The grid with this fix made (a new list; ``grid`` is not changed)."""
        fixed = list(grid)
        fixed[self.cell] = self.new or 0
        return fixed

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """The API shape: ``{"cell": i, "from": "5", "to": "3" | None}``."""
        to = None if self.new is None else geometry.symbol(self.new)
        return {"cell": self.cell, "from": geometry.symbol(self.old), "to": to}

    def describe(self, geometry: Geometry) -> str:
        """Words for people: ``r4c7: 5 → 3`` or ``r4c7: remove the 5``."""
        return self.words(geometry).english()

    def words(self, geometry: Geometry) -> Words:
        """:meth:`describe` as a catalog template and its values."""
        where, old = geometry.cell_name(self.cell), geometry.symbol(self.old)
        if self.new is None:
            return words(N_("{cell}: remove the {digit}"), cell=where, digit=old)
        return words(
            N_("{cell}: {old} \u2192 {new}"), cell=where, old=old, new=geometry.symbol(self.new)
        )


@dataclass(frozen=True)
class Diagnosis:
    """What :func:`diagnose` found; ``complete`` is False when a budget cut the work short.

    ``conflict`` is sorted cell indices (0-based, row-major). When incomplete it is still a set
    of givens proven impossible, but possibly not minimal (or empty when even the first check
    ran out of budget), and ``fixes`` may miss some.
    """

    conflict: tuple[int, ...]
    fixes: tuple[Fix, ...]
    complete: bool
    solves: int = 0  # sub-solves run
    nodes: int = 0  # search nodes (guesses) they used
    elapsed_ms: float = 0.0
    timed_out: bool = False  # the deadline (not a node budget) cut it: do not cache

    @property
    def cacheable(self) -> bool:
        """True when the answer depends only on the puzzle, geometry and node budgets."""
        return not self.timed_out

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """The API's shape of a diagnosis: conflict, fixes, complete."""
        return {
            "conflict": list(self.conflict),
            "fixes": [f.as_dict(geometry) for f in self.fixes],
            "complete": self.complete,
        }

    def summary(self, geometry: Geometry) -> str:
        """One sentence for the impossible page: which givens cannot all be right."""
        return self.summary_words(geometry).english()

    def summary_words(self, geometry: Geometry) -> Words:
        """:meth:`summary` as a catalog template and its values."""
        if not self.conflict:
            return words(N_("The doctor ran out of time before it could narrow the problem down."))
        names = ", ".join(geometry.cell_name(c) for c in self.conflict)
        if len(self.conflict) == 1:  # pragma: no cover - a lone given always fits an empty grid
            return words(N_("The given at {cells} cannot be right."), cells=names)
        template = (
            N_("These {count} givens cannot all be right: {cells}.")
            if self.complete
            else N_(
                "These {count} givens cannot all be right: {cells}. (The doctor ran out of "
                "time; this set may not be the smallest.)"
            )
        )
        return words(template, count=str(len(self.conflict)), cells=names)


@dataclass(frozen=True)
class Suggestion:
    """One extra given, ``value`` at ``cell``, that makes a puzzle's solution unique."""

    cell: int
    value: int

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """API shape: ``{"cell": i, "symbol": "5"}``."""
        return {"cell": self.cell, "symbol": geometry.symbol(self.value)}

    def apply(self, grid: Sequence[int]) -> list[int]:
        """The grid with the extra given placed (a new list)."""
        added = list(grid)
        added[self.cell] = self.value
        return added


class _Budget:
    """One work bound shared by every sub-solve of a diagnosis."""

    def __init__(
        self, geometry: Geometry, max_nodes: int, per_solve: int, deadline_ms: float | None
    ) -> None:
        self.geometry = geometry
        self.nodes_left = max_nodes
        self.per_solve = per_solve
        self.started = time.perf_counter()
        self.deadline = None if deadline_ms is None else self.started + deadline_ms / 1000
        self.solves = 0
        self.nodes = 0
        self.cut = False  # some answer was "unknown"
        self.timed_out = False  # ... because of the deadline (the answer depends on load)

    def solve(self, grid: Sequence[int]) -> SolveResult | None:
        """Solve within what is left of the budget; None (and ``cut``) when it gave up."""
        remaining_ms: float | None = None
        if self.deadline is not None:
            remaining_ms = (self.deadline - time.perf_counter()) * 1000
        if remaining_ms is not None and remaining_ms <= 0:
            self.cut = self.timed_out = True
            return None
        if self.nodes_left <= 0:
            self.cut = True
            return None
        result = solve(
            grid,
            geometry=self.geometry,
            max_nodes=min(self.per_solve, self.nodes_left),
            deadline_ms=remaining_ms,
        )
        self.solves += 1
        self.nodes += result.stats.guesses
        self.nodes_left -= result.stats.guesses
        if result.status == "gave_up":
            self.cut = True
            self.timed_out = self.timed_out or result.reason == "deadline"
            return None
        return result

    def solvable(self, grid: Sequence[int]) -> bool | None:
        """Has the grid at least one solution? None when unknown (budget)."""
        # solve() looks for two solutions; with givens removed the second one is cheap, and
        # "multiple" answers this question as well as "solved" does.
        result = self.solve(grid)
        if result is None:
            return None
        return result.status in ("solved", "multiple")

    @property
    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


def diagnose(
    puzzle: str | Sequence[int],
    geometry: Geometry,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    nodes_per_solve: int = DEFAULT_NODES_PER_SOLVE,
    deadline_ms: float | None = DEFAULT_DEADLINE_MS,
) -> Diagnosis:
    """The conflict and the one-cell fixes of an unsolvable puzzle, within one work bound.

    ``puzzle`` is text or a grid for ``geometry``. Raises ValueError when the puzzle is not
    unsolvable (it has a solution, or equal givens share a house: those are reported by
    :func:`sudoku_web.core.board.find_conflicts` and need no doctor). ``max_nodes`` bounds the
    search nodes of all sub-solves together, ``nodes_per_solve`` any one of them, and
    ``deadline_ms`` the wall time; when one of them cuts the work, ``complete`` is False.
    """
    grid = parse_puzzle(puzzle, geometry) if isinstance(puzzle, str) else list(puzzle)
    if find_conflicts(grid, geometry):
        raise ValueError("the puzzle has equal givens in one house; find_conflicts names them")
    budget = _Budget(geometry, max_nodes, nodes_per_solve, deadline_ms)
    first = budget.solvable(grid)
    if first:
        raise ValueError("the puzzle has a solution; the doctor is for unsolvable puzzles")
    if first is None:
        return _done((), (), budget)
    conflict = _minimal_conflict(grid, budget)
    fixes = _fixes(grid, conflict, budget)
    return _done(conflict, fixes, budget)


def _done(conflict: Sequence[int], fixes: Sequence[Fix], budget: _Budget) -> Diagnosis:
    return Diagnosis(
        tuple(sorted(conflict)),
        tuple(sorted(fixes, key=rank_key)),
        not budget.cut,
        budget.solves,
        budget.nodes,
        budget.elapsed_ms,
        budget.timed_out,
    )


def _minimal_conflict(grid: list[int], budget: _Budget) -> list[int]:
    """Deletion: drop each given whose absence still leaves the kept givens unsolvable.

    Returns the kept cells. Every drop is proven (an unsolvable set stays unsolvable), so the
    result is always an impossible set; it is minimal unless some check was unknown.
    """
    kept = [c for c, v in enumerate(grid) if v]
    work = list(grid)
    for cell in list(kept):
        value = work[cell]
        work[cell] = 0
        if budget.solvable(work) is False:
            kept.remove(cell)  # not needed for the contradiction
        else:
            work[cell] = value  # needed (or unknown: keep it, the answer says incomplete)
    return kept


def _fixes(grid: list[int], conflict: Sequence[int], budget: _Budget) -> list[Fix]:
    """Every one-cell change within the conflict that leaves exactly one solution."""
    fixes: list[Fix] = []
    geo = budget.geometry
    for cell in conflict:
        old = grid[cell]
        without = list(grid)
        without[cell] = 0
        base = budget.solve(without)
        if base is None or base.status == "unsolvable":
            continue  # unknown, or another conflict remains whatever this cell holds
        if base.status == "solved":
            # Removing it leaves one solution S, so S's symbol there is the only other
            # symbol that fits, and adding a given to a unique puzzle keeps it unique.
            fixes.append(Fix(cell, old, None))
            fixes.append(Fix(cell, old, _value(base.solutions[0][cell])))
            continue
        # Several solutions without it: each other symbol must be tried on its own, except
        # those a peer already holds (that would be two equal givens in one house).
        taken = {without[p] for p in geo.peers[cell]}
        for new in range(1, geo.size + 1):
            if new == old or new in taken:
                continue
            trial = list(without)
            trial[cell] = new
            result = budget.solve(trial)
            if result is not None and result.status == "solved":
                fixes.append(Fix(cell, old, new))
    return fixes


def _value(symbol: str) -> int:
    return SYMBOLS.index(symbol.upper()) + 1


def typo_tier(old: int, new: int | None) -> tuple[int, int]:
    """How likely a user typed ``old`` meaning ``new``: (tier, order within tier), lower first.

    Tier 0, slips and misreads: neighbours on the top row of a keyboard or in the alphabet
    (``4``/``5``, ``A``/``B``), vertical neighbours on a numeric keypad (``5``/``8``), then
    look-alike symbols (``1``/``7``, ``3``/``8``, ``B``/``8`` ...). Tier 1: removing the given
    (a symbol typed where a blank belongs, or a grid shifted by one). Tier 2: any other
    symbol, nearest value first.
    """
    if new is None:
        return (1, 0)
    gap = abs(old - new)
    same_kind = (old <= 9) == (new <= 9)  # 9 and A are not neighbours on any keyboard
    if gap == 1 and same_kind:
        return (0, 0)
    if gap == 3 and old <= 9 and new <= 9:
        return (0, 1)
    if frozenset((old, new)) in LOOKALIKES:
        return (0, 2)
    return (2, gap)


def rank_key(fix: Fix) -> tuple[int, int, int, int]:
    """Sort key for fixes, most likely first: :func:`typo_tier`, then cell, then symbol."""
    tier, within = typo_tier(fix.old, fix.new)
    return (tier, within, fix.cell, fix.new or 0)


@dataclass(frozen=True)
class Suggested:
    """What :func:`suggest` found: the extra given or None, and whether the deadline cut
    the search for it (then the answer depends on the load: do not cache it)."""

    suggestion: Suggestion | None
    timed_out: bool


class SuggestBudget(TypedDict, total=False):
    """:func:`suggest`'s budget by keyword, for :func:`suggest_given` to pass on unchanged
    (the defaults are :func:`suggest`'s)."""

    max_tries: int
    max_nodes: int
    nodes_per_solve: int
    deadline_ms: float | None


def suggest_given(
    puzzle: str | Sequence[int],
    geometry: Geometry,
    solutions: Sequence[str] = (),
    **budget: Unpack[SuggestBudget],
) -> Suggestion | None:
    """:func:`suggest`'s extra given alone (None also when the budget ran out)."""
    return suggest(puzzle, geometry, solutions, **budget).suggestion


def suggest(
    puzzle: str | Sequence[int],
    geometry: Geometry,
    solutions: Sequence[str] = (),
    *,
    max_tries: int = DEFAULT_SUGGEST_TRIES,
    max_nodes: int = DEFAULT_MAX_NODES,
    nodes_per_solve: int = DEFAULT_NODES_PER_SOLVE,
    deadline_ms: float | None = DEFAULT_DEADLINE_MS,
) -> Suggested:
    """One extra given that makes a ``multiple`` puzzle's solution unique, or None.

    ``solutions`` are two known solutions (``SolveResult.solutions``); when fewer are passed
    the puzzle is solved first. A candidate is a cell where known solutions differ, with the
    symbol one of them has there, the one ruling out most known solutions first. Each is
    checked with a solve; a check that still finds two solutions adds them to the known ones,
    so later picks are better informed (the right symbol may be in neither of the first two).
    At most ``max_tries`` checks within the budget. None when none of them gives a unique
    solution (a puzzle with many solutions may need more than one extra given) or the budget
    ran out.
    """
    grid = parse_puzzle(puzzle, geometry) if isinstance(puzzle, str) else list(puzzle)
    budget = _Budget(geometry, max_nodes, nodes_per_solve, deadline_ms)
    found = _suggestion(grid, geometry, solutions, max_tries, budget)
    return Suggested(found, budget.timed_out)


def _suggestion(
    grid: list[int],
    geometry: Geometry,
    solutions: Sequence[str],
    max_tries: int,
    budget: _Budget,
) -> Suggestion | None:
    if len(solutions) < 2:
        result = budget.solve(grid)
        if result is None or result.status != "multiple":
            return None
        solutions = result.solutions
    known = {tuple(_value(ch) for ch in s) for s in solutions}
    tried: set[tuple[int, int]] = set()
    for _ in range(max_tries):
        pick = _best_candidate(grid, geometry, known, tried)
        if pick is None:
            return None
        tried.add(pick)
        result = budget.solve(Suggestion(*pick).apply(grid))
        if result is None:
            return None  # budget gone
        if result.status == "solved":
            return Suggestion(*pick)
        # Still several solutions: they are new ones, which sharpen the next choice.
        known.update(tuple(_value(ch) for ch in s) for s in result.solutions)
    return None


def _best_candidate(
    grid: Sequence[int],
    geometry: Geometry,
    known: set[tuple[int, ...]],
    tried: set[tuple[int, int]],
) -> tuple[int, int] | None:
    """The untried (cell, symbol) from a known solution that rules out most known solutions.

    Ties go to the cell with most peers where the known solutions differ (the middle of the
    ambiguity), then to the lowest cell and symbol, so the answer is deterministic.
    """
    sols = sorted(known)
    differ = {c for c in range(geometry.cells) if not grid[c] and len({s[c] for s in sols}) > 1}
    best: tuple[int, int, int, int] | None = None
    for cell in differ:
        near = sum(p in differ for p in geometry.peers[cell])
        for value in {s[cell] for s in sols}:
            if (cell, value) in tried:
                continue
            ruled_out = sum(s[cell] != value for s in sols)
            key = (-ruled_out, -near, cell, value)
            if best is None or key < best:
                best = key
    return None if best is None else (best[2], best[3])


@dataclass(frozen=True)
class SumFix:
    """One cage's sum changed: ``cage`` (as given) should add up to ``total``."""

    cage: Cage
    total: int

    def apply(self, geometry: Geometry) -> Geometry:
        """``geometry`` with this cage's sum changed."""
        fixed = [Cage(self.total, c.cells) if c == self.cage else c for c in geometry.cages]
        return geometry.with_cages(fixed)

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """API shape: ``{"cells": ["r1c1", ...], "from": 15, "to": 16}``."""
        cells = [geometry.cell_name(c) for c in self.cage.cells]
        return {"cells": cells, "from": self.cage.total, "to": self.total}

    def describe(self, geometry: Geometry) -> str:
        """Words for people: ``the cage at r1c1, r1c2: 15 → 16``."""
        where = ", ".join(geometry.cell_name(c) for c in self.cage.cells)
        return f"the cage at {where}: {self.cage.total} \u2192 {self.total}"


@dataclass(frozen=True)
class SumDiagnosis:
    """What :func:`diagnose_sums` found; ``complete`` False when a budget cut it short."""

    fixes: tuple[SumFix, ...]
    complete: bool
    solves: int = 0
    elapsed_ms: float = 0.0
    timed_out: bool = False  # the deadline cut it: the answer depends on load, do not cache

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """API shape: the sum fixes, most likely first, and whether the search was complete."""
        return {"sum_fixes": [f.as_dict(geometry) for f in self.fixes], "complete": self.complete}


def sum_typo_tier(old: int, new: int) -> tuple[int, int]:
    """How likely typing ``old`` meant ``new`` (lower first): one digit one key off (15/16,
    15/25) or two digits swapped (12/21), then a digit dropped or doubled (15/5, 1/11), then
    anything else, nearest first."""
    a, b = str(old), str(new)
    if len(a) == len(b):
        diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
        if len(diff) == 1 and abs(int(diff[0][0]) - int(diff[0][1])) == 1:
            return (0, abs(old - new))
        if len(diff) == 2 and sorted(a) == sorted(b):
            return (0, abs(old - new))
        if len(diff) == 1:
            return (1, abs(old - new))
    elif abs(len(a) - len(b)) == 1:
        short, long = (a, b) if len(a) < len(b) else (b, a)
        if any(long[:i] + long[i + 1 :] == short for i in range(len(long))):
            return (1, abs(old - new))
    return (2, abs(old - new))


def _sum_candidates(geometry: Geometry) -> list[SumFix]:
    """The sum changes worth trying, likeliest first (see the module docstring)."""
    cages = geometry.cages
    out: list[SumFix] = []
    off = grid_total(geometry) - sum(c.total for c in cages)
    for cage in cages:
        count = len(cage.cells)
        if covers_grid(geometry, cages):
            totals = {cage.total + off} if off else set()
        else:
            totals = _one_keystroke(cage.total)
        for total in sorted(totals):
            if total != cage.total and combinations(geometry.size, count, total):
                out.append(SumFix(cage, total))
    out.sort(key=lambda f: (*sum_typo_tier(f.cage.total, f.total), f.cage.cells))
    return out


def _one_keystroke(total: int) -> set[int]:
    """Numbers one keystroke away from ``total``: a digit changed, dropped or added, or two
    neighbouring digits swapped."""
    text = str(total)
    found: set[str] = set()
    digits = "0123456789"
    for i in range(len(text)):
        found.update(text[:i] + d + text[i + 1 :] for d in digits)
        found.add(text[:i] + text[i + 1 :])
        if i + 1 < len(text):
            found.add(text[:i] + text[i + 1] + text[i] + text[i + 2 :])
    for i in range(len(text) + 1):
        found.update(text[:i] + d + text[i:] for d in digits)
    return {int(t) for t in found if t and not t.startswith("0")}


def diagnose_sums(
    puzzle: str | Sequence[int],
    geometry: Geometry,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    nodes_per_solve: int = DEFAULT_NODES_PER_SOLVE,
    deadline_ms: float | None = DEFAULT_DEADLINE_MS,
) -> SumDiagnosis:
    """The one-sum changes after which a killer has exactly one solution, likeliest first.

    ``geometry`` carries the cages as given (their sums may miss the grid's total:
    :class:`sudoku_web.core.cages.SumsMismatch` hands them over). Each candidate is one solve
    within the shared budget; when it runs out, ``complete`` is False.
    """
    grid = parse_puzzle(puzzle, geometry) if isinstance(puzzle, str) else list(puzzle)
    budget = _Budget(geometry, max_nodes, nodes_per_solve, deadline_ms)
    fixes: list[SumFix] = []
    for fix in _sum_candidates(geometry):
        budget.geometry = fix.apply(geometry)
        result = budget.solve(grid)
        if result is None and budget.timed_out:
            break
        if result is not None and result.status == "solved":
            fixes.append(fix)
    return SumDiagnosis(
        tuple(fixes), not budget.cut, budget.solves, budget.elapsed_ms, budget.timed_out
    )
