"""Cages for a solution grid: the killer generator's half of :mod:`sudoku_web.core.generate`.

Vocabulary (board terms are in :mod:`sudoku_web.core.board`, cages in
:mod:`sudoku_web.core.cages`):

partition
    Cover the grid with connected cages, newspaper style: from each uncovered cell in random
    order, a cage grows by random side-by-side uncovered cells whose digits it lacks, up to
    a size drawn from the weights of the grade asked for (harder grades draw bigger cages).
    A cell left alone joins a neighbouring cage that lacks its digit when one has room.
unique
    While the engine finds two solutions, split the cage holding most of the cells where
    they differ (into connected parts: more sums rule out at least as much); a cage
    set still ambiguous after :data:`SPLIT_ROUNDS` splits is dropped (the attempt fails).
steer
    Grade (:func:`sudoku_web.core.logic.grade`, through the generator's ``graded``); while
    the grade is below the one asked for, merge two touching cages whose digits differ
    (fewer sums: harder) if the solution stays unique; while it is above, split a cage of
    three or more cells.
    Every puzzle returned was graded as it is returned.

Everything random comes from the generator's ``random.Random``; the work is bounded by
counts (splits, merges, solver nodes), and by the generator's deadline when it has one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from .board import Cage, Geometry, neighbours, piece_of
from .logic import GRADES, Grade
from .solver import solve

# Relative weights of cage sizes 1..6 for each grade (Easy .. Diabolical): small cages pin
# digits down (15 in two cells is 6+9, 7+8), big ones leave many ways to make their sum.
SIZE_WEIGHTS: dict[str, tuple[int, ...]] = {
    "Easy": (0, 8, 5, 1, 0, 0),
    "Medium": (0, 6, 6, 3, 1, 0),
    "Hard": (0, 4, 6, 4, 2, 0),
    "Fiendish": (0, 3, 5, 5, 3, 1),
    "Diabolical": (0, 2, 4, 5, 4, 2),
}
# Splits tried to make a cage set's solution unique; solver guesses allowed per check.
SPLIT_ROUNDS = 30
UNIQUE_MAX_NODES = 3_000
# Merges (harder) or splits (easier) tried while steering towards the grade asked for.
STEER_TRIES = 12

Graded = Callable[[Geometry], Grade | None]


def make_killer(
    solution: Sequence[int],
    geo: Geometry,
    target: Grade,
    rng: random.Random,
    graded: Graded,
    deadline: float | None = None,
) -> tuple[Geometry, Grade | None] | None:
    """A board with cages whose only solution is ``solution`` (no givens needed), and its
    grade (None when the deadline came before it was graded); None when no unique cage set
    was found within the budget."""
    cages = partition(solution, geo, rng, SIZE_WEIGHTS[target])
    found = unique(cages, solution, geo, rng, deadline)
    if found is None:
        return None
    board = geo.with_cages(found)
    got = graded(board)
    if got is None:
        return board, None
    return steer(board, got, solution, target, rng, graded, deadline)


def partition(
    solution: Sequence[int], geo: Geometry, rng: random.Random, weights: Sequence[int]
) -> list[Cage]:
    """Connected cages covering the grid, each of different digits (see the glossary)."""
    n = geo.size
    sizes = range(1, len(weights) + 1)
    cage_of = [-1] * geo.cells
    groups: list[list[int]] = []
    order = list(range(geo.cells))
    rng.shuffle(order)
    for start in order:
        if cage_of[start] >= 0:
            continue
        want = min(rng.choices(sizes, weights)[0], n)
        group = [start]
        cage_of[start] = len(groups)
        digits = {solution[start]}
        while len(group) < want:
            options = sorted(
                {
                    nb
                    for cell in group
                    for nb in neighbours(cell, n)
                    if cage_of[nb] < 0 and solution[nb] not in digits
                }
            )
            if not options:
                break
            cell = rng.choice(options)
            group.append(cell)
            cage_of[cell] = len(groups)
            digits.add(solution[cell])
        groups.append(group)
    _absorb_singles(groups, cage_of, solution, n, max(sizes))
    return [
        Cage(sum(solution[c] for c in group), tuple(sorted(group))) for group in groups if group
    ]


def _absorb_singles(
    groups: list[list[int]], cage_of: list[int], solution: Sequence[int], n: int, most: int
) -> None:
    """Each one-cell group joins the smallest touching group that lacks its digit and has
    room (a one-cell cage is a given in disguise)."""
    for index, group in enumerate(groups):
        if len(group) != 1:
            continue
        cell = group[0]
        near = sorted(
            {cage_of[nb] for nb in neighbours(cell, n)} - {index},
            key=lambda g: (len(groups[g]), g),
        )
        for other in near:
            members = groups[other]
            if len(members) < most and all(solution[c] != solution[cell] for c in members):
                members.append(cell)
                cage_of[cell] = other
                group.clear()
                break


def unique(
    cages: list[Cage],
    solution: Sequence[int],
    geo: Geometry,
    rng: random.Random,
    deadline: float | None = None,
) -> list[Cage] | None:
    """``cages``, split until the engine proves ``solution`` the only one (see the glossary)."""
    cages = list(cages)
    for _ in range(SPLIT_ROUNDS):
        result = solve(
            [0] * geo.cells,
            geometry=geo.with_cages(cages),
            max_nodes=UNIQUE_MAX_NODES,
            deadline_ms=_left_ms(deadline),
        )
        if result.status == "solved":
            return cages
        if result.status == "multiple":
            first, second = result.solutions[:2]
            differ = {c for c in range(geo.cells) if first[c] != second[c]}
        elif result.reason == "deadline":
            return None
        else:  # out of guesses: any cage will do, the biggest first
            differ = set(range(geo.cells))
        splittable = [c for c in cages if len(c.cells) > 1]
        if not splittable:
            return None
        worst = max(splittable, key=lambda c: (len(differ.intersection(c.cells)), len(c.cells)))
        cages.remove(worst)
        cages.extend(split(worst, solution, geo.size, rng))
    return None


def split(cage: Cage, solution: Sequence[int], n: int, rng: random.Random) -> list[Cage]:
    """``cage`` in connected parts: one grown from a random cell to half its size, and the
    connected pieces of the rest."""
    cells = set(cage.cells)
    start = rng.choice(cage.cells)
    part = {start}
    while len(part) < len(cells) // 2:
        options = sorted({nb for c in part for nb in neighbours(c, n) if nb in cells - part})
        if not options:
            break
        part.add(rng.choice(options))
    pieces = [part, *_pieces(cells - part, n)]
    return [Cage(sum(solution[c] for c in p), tuple(sorted(p))) for p in pieces]


def _pieces(cells: set[int], n: int) -> list[set[int]]:
    """The connected pieces of ``cells``."""
    left = set(cells)
    out = []
    while left:
        piece = piece_of(min(left), left, n)
        left -= piece
        out.append(piece)
    return out


def steer(
    board: Geometry,
    got: Grade,
    solution: Sequence[int],
    target: Grade,
    rng: random.Random,
    graded: Graded,
    deadline: float | None,
) -> tuple[Geometry, Grade | None]:
    """Merge cages while the grade is below ``target``, split them while above (see the
    glossary); the board returned is the one its grade was computed for."""
    rank = GRADES.index(target)
    for _ in range(STEER_TRIES):
        now = GRADES.index(got)
        if now == rank or (deadline is not None and time.perf_counter() > deadline):
            break
        cages = list(board.cages)
        if now < rank:
            changed = _merged(cages, solution, board, rng, deadline)
        else:
            big = [c for c in cages if len(c.cells) > 2]  # never down to one-cell cages
            if not big:
                break
            cage = rng.choice(big)
            changed = [c for c in cages if c != cage] + split(cage, solution, board.size, rng)
        if changed is None:
            break
        trial = board.base.with_cages(changed)
        graded_now = graded(trial)
        if graded_now is None:
            break
        board, got = trial, graded_now
    return board, got


def _merged(
    cages: list[Cage],
    solution: Sequence[int],
    board: Geometry,
    rng: random.Random,
    deadline: float | None,
) -> list[Cage] | None:
    """``cages`` with two touching ones merged (different digits, at most N cells) such that
    the solution stays unique; None when no pair of a few tried does."""
    n = board.size
    most = len(SIZE_WEIGHTS["Easy"])
    cage_of = {c: i for i, cage in enumerate(cages) for c in cage.cells}
    pairs = sorted(
        {
            (min(i, cage_of[nb]), max(i, cage_of[nb]))
            for i, cage in enumerate(cages)
            for c in cage.cells
            for nb in neighbours(c, n)
            if cage_of[nb] != i
        }
    )
    rng.shuffle(pairs)
    for i, j in pairs[:STEER_TRIES]:
        a, b = cages[i], cages[j]
        digits = [solution[c] for c in a.cells + b.cells]
        if len(digits) > most or len(set(digits)) != len(digits):
            continue
        merged = Cage(a.total + b.total, tuple(sorted(a.cells + b.cells)))
        trial = [c for k, c in enumerate(cages) if k not in (i, j)] + [merged]
        result = solve(
            [0] * board.cells,
            geometry=board.base.with_cages(trial),
            max_nodes=UNIQUE_MAX_NODES,
            deadline_ms=_left_ms(deadline),
        )
        if result.status == "solved":
            return trial
    return None


def _left_ms(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, (deadline - time.perf_counter()) * 1000)
