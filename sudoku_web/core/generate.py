"""New puzzles of a chosen human grade, for any geometry, reproducible from a seed.

Vocabulary (board terms are in :mod:`sudoku_web.core.board`):

kind
    What is asked for: a variant and a size (classic 9x9, X 9x9, hyper, 6x6 jigsaw, ...).
solution grid
    A full grid that keeps every house's rule: the answer the puzzle is carved from.
region map
    A jigsaw's regions, one label per cell (``A``, ``B``, ... by first appearance). Drawn at
    random when none is given: N connected regions of N cells, on which some solution grid
    exists (not every such map has one).
orbit
    The cells removed together: a cell and its 180-degree twin (``cells - 1 - cell``) on a
    symmetric puzzle, else the cell alone.
carve
    Remove givens orbit by orbit, in random order, keeping a removal only when the engine
    still finds exactly one solution (:func:`sudoku_web.core.solver.solve` always checks
    uniqueness); then, while the grader's grade is above the one asked for, give removed
    orbits back one at a time (one whose return drops the grade below it is taken out again
    and another tried, a few times per attempt).
killer
    A puzzle of cages and no givens (``cages=True``, the registry's killer entry): instead
    of carving, :mod:`sudoku_web.core.cage_maker` draws cages on the solution grid, makes
    them unique and steers them towards the grade.
attempt
    One solution grid (and, for a jigsaw without a given map, a region map: drawn again
    until one has a solution grid) carved once.
    An attempt whose grade is the one asked for ends the search; otherwise the next attempt
    starts from a fresh grid.
grade
    The human grade of :func:`sudoku_web.core.logic.grade` (Easy, Medium, Hard, Fiendish,
    Diabolical), the same word the difficulty panel shows. It is never guessed here: every
    puzzle returned was graded by it, and ``reached`` says whether that is the grade asked for.

Everything random comes from one ``random.Random(seed)``, so a seed gives the same puzzle on
every machine: the search is bounded by counts (attempts, solver nodes), not by the clock.
A wall-clock ``deadline_ms`` can be added on top (the web does); when it cuts a search short
the result says so (``cut="deadline"``) and may then differ from the unhurried one.

Roads not taken:

* Grading after every removal and keeping only removals that stay at or under the grade
  asked for: the same attempts per success as carving to a minimal puzzle and grading once,
  but every removal pays for a grade; 2-3x slower for Medium to Fiendish (20 seeds, classic
  9x9: Medium p95 290 ms against 106 ms). Kept: minimal first, then give back orbits while
  the grade is too high (Medium: 6.0 attempts per success against 8.9 for grading the
  minimal puzzle alone; minimal 9x9 puzzles are mostly Easy under this grader).
* Our own randomised backtracking to fill the solution grid: the engine already fills any
  geometry in milliseconds from a random first row and a few random cells.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from .board import (
    BOX_SHAPES,
    JIGSAW_SIZES,
    Geometry,
    InvalidPuzzle,
    Variant,
    format_puzzle,
    jigsaw,
    neighbours,
    piece_of,
    puzzle_error,
    region_text,
    standard,
)
from .cage_maker import make_killer
from .logic import GRADES, Grade, grade
from .solver import solve
from .variants import CLASSIC, find_variant
from .wording import N_, Np_, counted, words

# Solver guesses allowed for one uniqueness check while carving. A removal the engine cannot
# settle within it is undone (the puzzle keeps that given), so the search stays bounded and
# deterministic. Near-complete grids need a handful of guesses; this leaves room for 16x16.
CARVE_MAX_NODES = 2_000
# Guesses allowed to fill a solution grid from a random seed of givens; a seed the engine
# cannot finish within it is dropped and another drawn.
FILL_MAX_NODES = 5_000
DEFAULT_MAX_ATTEMPTS = 50
# Givens tried and taken back again, per attempt, when giving one back drops the grade below
# the one asked for (see carve).
OVERSHOOT_RETRIES = 6
# Random jigsaw maps drawn per attempt until one has a solution grid (most do).
MAP_DRAWS = 20
# Boundary swaps per cell when drawing a jigsaw region map (see random_jigsaw).
SWAPS_PER_CELL = 20


class OutOfTime(Exception):
    """``deadline_ms`` passed before any attempt's puzzle was graded."""


@dataclass(frozen=True)
class Generated:
    """A generated puzzle and how it was found."""

    geometry: Geometry
    puzzle: str  # the givens, "0" for blanks (the share-link spelling)
    solution: str  # its unique solution
    grade: Grade  # the grader's word for ``puzzle``
    asked: Grade  # the grade asked for
    seed: int | str
    attempts: int  # solution grids carved
    elapsed_ms: float
    symmetric: bool
    # "" when the search ended on the grade asked for; "attempts" or "deadline" when it ran
    # out first (the puzzle is then the attempt whose grade came closest).
    cut: str = ""

    @property
    def reached(self) -> bool:
        """True when the puzzle's grade is the one asked for."""
        return self.grade == self.asked

    @property
    def clues(self) -> int:
        """The number of givens."""
        return sum(ch != "0" for ch in self.puzzle)

    @property
    def regions(self) -> str | None:
        """A jigsaw's region map (``A``, ``B``, ... by first appearance), else None."""
        if self.geometry.regions is None:
            return None
        return region_text(self.geometry.regions)


def geometry_of_kind(variant: str, size: int, regions: str | None = None) -> Geometry | None:
    """The geometry of a kind, or None for a jigsaw without a map (drawn per attempt).

    Raises :class:`InvalidPuzzle` for a variant or size the engine does not have.
    """
    info = find_variant(variant)  # raises for an unknown one, naming the known ones
    if info.takes_regions:
        if regions is None:
            if size not in info.sizes:
                message = words(
                    N_("Jigsaw grids are {low}x{low} to {high}x{high}, not {size}x{size}."),
                    low=JIGSAW_SIZES.start,
                    high=JIGSAW_SIZES.stop - 1,
                    size=size,
                )
                raise InvalidPuzzle([puzzle_error("variant", message)])
            return None
    return info.geometry(size, regions)  # says when a map is given to another variant


def generate(
    variant: Variant | str = CLASSIC.key,
    size: int = 9,
    asked: Grade | str = "Easy",
    *,
    seed: int | str | None = None,
    regions: str | None = None,
    symmetric: bool | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    deadline_ms: float | None = None,
    cages: bool | None = None,
    graded_board: Callable[[Geometry, Grade], None] | None = None,
) -> Generated:
    """A puzzle of the grade asked for, with exactly one solution, from ``seed``.

    ``cages`` (default: the variant's ``needs_cages``, the killer) makes a killer on the
    variant's board: cages drawn on a solution grid (:mod:`sudoku_web.core.cage_maker`), no
    givens, graded by the same grader. ``graded_board`` is told of every cage set graded on
    the way, with its grade, so that a caller filling a pool can keep killers of other grades
    too (after checking that the set has one solution: a split cage loses the rule that its
    parts' digits differ).

    ``symmetric`` (default: on for boxed grids, off for jigsaw) keeps the givens symmetric
    under a half turn. ``regions`` fixes a jigsaw's map; without it each attempt draws one.
    At most ``max_attempts`` solution grids are carved, and none is started after
    ``deadline_ms``; when neither reached the grade, ``cut`` says which budget ran out and
    the puzzle is the one whose grade came closest (still unique, still honestly graded).
    Raises :class:`InvalidPuzzle` for an unknown variant or size or a bad region map,
    :class:`ValueError` for an unknown grade, and :class:`OutOfTime` when ``deadline_ms``
    passed before the first attempt's puzzle was graded.
    """
    started = time.perf_counter()
    if asked not in GRADES:
        names = ", ".join(GRADES)
        raise ValueError(f"Unknown grade {asked!r}; use one of {names}.")
    target = GRADES[GRADES.index(asked)]
    fixed = geometry_of_kind(str(variant), size, regions)
    caged = find_variant(variant).needs_cages if cages is None else cages
    if seed is None:
        seed = random.SystemRandom().getrandbits(48)
    rng = random.Random(seed)
    if symmetric is None:
        symmetric = not find_variant(variant).takes_regions and not caged
    deadline = None if deadline_ms is None else started + deadline_ms / 1000
    best: tuple[int, list[int], list[int], Grade, Geometry] | None = None
    attempts = 0
    cut = "attempts"
    while attempts < max(1, max_attempts):
        attempts += 1
        made = _attempt(fixed, size, target, rng, symmetric, deadline, caged, graded_board)
        if made is not None:  # else no solution grid, or no unique cage set (within budget)
            geo, puzzle, solution, got = made
            if got is None:  # graded too late to know its grade
                cut = "deadline"
                break
            distance = abs(GRADES.index(got) - GRADES.index(target))
            if best is None or distance < best[0]:
                best = (distance, puzzle, solution, got, geo)
            if got == target:
                cut = ""
                break
        if deadline is not None and time.perf_counter() > deadline:
            cut = "deadline"  # no attempt starts after the deadline
            break
    if best is None:
        _nothing_found(cut, deadline_ms, attempts, caged)
    _, puzzle, solution, got, geo = best
    return Generated(
        geometry=geo,
        puzzle=format_puzzle(puzzle, blank="0"),
        solution=format_puzzle(solution),
        grade=got,
        asked=target,
        seed=seed,
        attempts=attempts,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        symmetric=symmetric,
        cut=cut,
    )


def _nothing_found(cut: str, deadline_ms: float | None, attempts: int, caged: bool) -> NoReturn:
    """Raise what stopped every attempt short of a graded puzzle."""
    if cut == "deadline":
        raise OutOfTime(f"No attempt was graded within {deadline_ms:.0f} ms.")
    # Boxed grids always fill (see solution_grid) and random maps are drawn until one
    # fills: without cages, only a fixed jigsaw map can come here.
    forms = (
        Np_(
            "No cage set with a unique solution was found in {count} attempt.",
            "No cage set with a unique solution was found in {count} attempts.",
        )
        if caged
        else Np_(
            "The engine found no solution grid for this region map in {count} try.",
            "The engine found no solution grid for this region map in {count} tries.",
        )
    )
    message = counted(forms, attempts, count=attempts)
    raise InvalidPuzzle([puzzle_error("cage" if caged else "regions", message)])


def _attempt(
    fixed: Geometry | None,
    size: int,
    target: Grade,
    rng: random.Random,
    symmetric: bool,
    deadline: float | None,
    caged: bool,
    graded_board: Callable[[Geometry, Grade], None] | None = None,
) -> tuple[Geometry, list[int], list[int], Grade | None] | None:
    """One attempt: a solution grid, carved (or caged), graded. None when the grid or a
    unique cage set could not be found within the budget."""
    geo, solution = _filled(fixed, size, rng)
    if solution is None:  # a fixed map with no solution grid (within budget)
        return None
    if caged:
        grader = _grader(solution, deadline, graded_board)
        made = make_killer(solution, geo, target, rng, grader, deadline)
        if made is None:
            return None
        board, got = made
        return board, [0] * board.cells, solution, got
    puzzle, got = carve(solution, geo, target, rng, symmetric=symmetric, deadline=deadline)
    return geo, puzzle, solution, got


def _filled(
    fixed: Geometry | None, size: int, rng: random.Random
) -> tuple[Geometry, list[int] | None]:
    """An attempt's geometry and solution grid: the fixed one's, or a fresh jigsaw map's
    (maps with no solution grid are drawn again, up to ``MAP_DRAWS``)."""
    geo = fixed if fixed is not None else random_jigsaw(size, rng)
    solution = solution_grid(geo, rng)
    draws = 1
    while solution is None and fixed is None and draws < MAP_DRAWS:
        geo = random_jigsaw(size, rng)
        solution = solution_grid(geo, rng)
        draws += 1
    return geo, solution


def solution_grid(geo: Geometry, rng: random.Random, tries: int = 8) -> list[int] | None:
    """A random full grid for ``geo``: the engine finishes a random first row plus a few
    random cells. None when ``tries`` seeds all fail (a jigsaw map may have no solution).

    Random cells can contradict each other beyond what their peers show (on a hyper grid
    most sets of nine do), so each failed try halves their number; with none left, a boxed
    grid's first row alone always completes (any row is a relabelling of a solution's).
    """
    n = geo.size
    first_row = geo.houses[0].cells
    extra = n
    for _ in range(tries):
        grid = [0] * geo.cells
        for cell, value in zip(first_row, rng.sample(range(1, n + 1), n), strict=True):
            grid[cell] = value
        for _ in range(extra):
            cell = rng.randrange(geo.cells)
            if grid[cell]:
                continue
            taken = {grid[peer] for peer in geo.peers[cell]}
            free = [v for v in range(1, n + 1) if v not in taken]
            if not free:
                break
            grid[cell] = rng.choice(free)
        result = solve(grid, geometry=geo, max_nodes=FILL_MAX_NODES, deadline_ms=None)
        if result.solutions and result.status in ("solved", "multiple"):
            symbols = {ch: v for v, ch in enumerate(geo.symbols, start=1)}
            return [symbols[ch] for ch in result.solutions[0]]
        extra //= 2
    return None


def orbits(geo: Geometry, symmetric: bool) -> list[tuple[int, ...]]:
    """The groups of cells removed together (see the glossary), in cell order."""
    if not symmetric:
        return [(cell,) for cell in range(geo.cells)]
    last = geo.cells - 1
    return [
        (cell,) if cell == last - cell else (cell, last - cell)
        for cell in range(geo.cells // 2 + geo.cells % 2)
    ]


def carve(
    solution: Sequence[int],
    geo: Geometry,
    target: Grade,
    rng: random.Random,
    *,
    symmetric: bool = True,
    deadline: float | None = None,
) -> tuple[list[int], Grade | None]:
    """A puzzle with ``solution`` as its only solution, graded at most ``target`` when it can
    be; returns the puzzle and its grade (by the grader), or None for the grade when the
    ``deadline`` came before even the first grading finished.

    First every orbit, in random order, is removed if the engine still finds exactly one
    solution (a minimal puzzle, graded once). While that grade is above ``target``, removed
    orbits are given back one at a time, in random order, each regraded, until the
    ``deadline`` (a ``time.perf_counter()`` value) if one is given: the puzzle returned is
    always the one its grade was computed for (the grader runs within what is left).
    """
    puzzle = list(solution)
    order = orbits(geo, symmetric)
    rng.shuffle(order)
    removed: list[tuple[int, ...]] = []
    for orbit in order:
        for cell in orbit:
            puzzle[cell] = 0
        result = solve(puzzle, geometry=geo, max_nodes=CARVE_MAX_NODES, deadline_ms=None)
        if result.status == "solved":
            removed.append(orbit)
        else:  # several solutions, or none settled within the budget: keep the givens
            for cell in orbit:
                puzzle[cell] = solution[cell]
    got = _graded(puzzle, geo, solution, deadline)
    if got is None:
        return puzzle, None
    rank = GRADES.index(target)
    rng.shuffle(removed)
    overshoots = 0
    for orbit in removed:
        if GRADES.index(got) <= rank:
            break
        for cell in orbit:
            puzzle[cell] = solution[cell]
        now = _graded(puzzle, geo, solution, deadline)
        if now is None or (GRADES.index(now) < rank and overshoots < OVERSHOOT_RETRIES):
            # Out of time (the puzzle goes back to the one ``got`` grades), or past the grade
            # asked for (Fiendish straight to Medium, say): take this given out again and, in
            # the second case, try another rather than lose the whole attempt.
            for cell in orbit:
                puzzle[cell] = 0
            if now is None:
                break
            overshoots += 1
            continue
        got = now
    return puzzle, got


def _grader(
    solution: Sequence[int],
    deadline: float | None,
    told: Callable[[Geometry, Grade], None] | None = None,
) -> Callable[[Geometry], Grade | None]:
    """The grade of a board with cages and no givens (see :func:`_graded`); ``told`` hears
    of each board graded."""

    def grader(board: Geometry) -> Grade | None:
        got = _graded([0] * board.cells, board, solution, deadline)
        if got is not None and told is not None:
            told(board, got)
        return got

    return grader


def _graded(
    puzzle: list[int], geo: Geometry, solution: Sequence[int], deadline: float | None
) -> Grade | None:
    """The grader's word for ``puzzle``, or None when the ``deadline`` cut the grading short
    (its grade would only be an upper bound)."""
    left = None if deadline is None else max(0.0, (deadline - time.perf_counter()) * 1000)
    graded = grade(puzzle, geo, solution=solution, deadline_ms=left)
    return None if graded.cut_short else graded.grade


def random_jigsaw(size: int, rng: random.Random) -> Geometry:
    """A random jigsaw geometry: ``size`` connected regions of ``size`` cells each.

    Starts from the boxes (the rows for sizes without boxes) and swaps pairs of border cells
    between two touching regions many times, keeping both connected; sizes never change, so
    the map stays valid. (From the rows alone, 12 swaps a cell still left 9x9 maps striped.)
    """
    n = size
    if n in BOX_SHAPES:
        region = list(standard(n).box_index)
    else:
        region = [cell // n for cell in range(n * n)]
    members = [{c for c in range(n * n) if region[c] == r} for r in range(n)]

    for _ in range(SWAPS_PER_CELL * n * n):
        _try_swap(region, members, n, rng)
    return jigsaw(region_text(region))


def _try_swap(region: list[int], members: list[set[int]], n: int, rng: random.Random) -> None:
    """Swap a random border cell with a cell of the region it touches, if both regions stay
    connected (a cell of that region touching the first one goes back, so sizes hold)."""
    a = rng.randrange(n * n)
    others = [b for b in neighbours(a, n) if region[b] != region[a]]
    if not others:
        return
    ra, rb = region[a], region[rng.choice(others)]
    back = [c for c in members[rb] if c != a and any(region[m] == ra for m in neighbours(c, n))]
    if not back:
        return
    b = rng.choice(sorted(back))
    first, second = members[ra] - {a} | {b}, members[rb] - {b} | {a}
    if _connected(first, n) and _connected(second, n):
        members[ra], members[rb] = first, second
        region[a], region[b] = rb, ra


def _connected(cells: set[int], n: int) -> bool:
    """True when the cells form one piece, side by side."""
    return len(piece_of(next(iter(cells)), cells, n)) == len(cells)
