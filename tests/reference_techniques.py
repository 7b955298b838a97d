"""Obviously correct searches for a few techniques, for cross-checking the fast ones.

Each follows the technique's definition in the order the ladder's search tries things, with
plain loops over cells and sets: no bitboards, no pruning, no tables beyond the houses. Slow,
so only for the tests' small batches of positions (:func:`random_positions`).
"""

from __future__ import annotations

import random
from itertools import combinations

from sudoku_web.core.board import Geometry
from sudoku_web.core.generate import solution_grid
from sudoku_web.core.logic import pencil_marks
from sudoku_web.core.techniques import Candidates, Tables


def random_positions(geometry: Geometry, seed: int, count: int) -> list[Candidates]:
    """``count`` positions on ``geometry`` that keep a solution: about a third of its digits
    given, and of the other candidates about a quarter removed (never the solution's), so
    that fish, Sue de Coq and chains are common."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        solution = solution_grid(geometry, rng)
        assert solution is not None
        cand = pencil_marks([v if rng.random() < 0.35 else 0 for v in solution], geometry)
        masks = list(cand.masks)
        for c, m in enumerate(masks):
            for d in range(1, geometry.size + 1):
                if m >> (d - 1) & 1 and d != solution[c] and rng.random() < 0.25:
                    masks[c] &= ~(1 << (d - 1))
        out.append(Candidates(cand.values, tuple(masks)))
    return out


def first_finned_fish(
    size: int, cand: Candidates, t: Tables
) -> tuple[list[int], list[int], list[tuple[int, int]]] | None:
    """(base houses, cover houses, eliminations) of the first finned fish of ``size``: per
    digit, rows then columns; per group of ``size`` base lines (each with 2 to ``size + 2``
    places, ``size + 1`` or ``size + 2`` positions between them) and per choice of cover
    lines among those positions, ascending, the digit's places in the cover lines outside
    the base lines that see every fin (the places outside the cover lines)."""
    geo = t.geometry
    masks = cand.masks
    for d in range(1, geo.size + 1):
        bit = 1 << (d - 1)
        for base, cover, position in ((t.rows, t.cols, t.col_of), (t.cols, t.rows, t.row_of)):
            lines = []
            for h in base:
                spots = [c for c in geo.houses[h].cells if masks[c] & bit]
                if 2 <= len(spots) <= size + 2:
                    lines.append((h, spots))
            for group in combinations(lines, size):
                spots = [c for _, line in group for c in line]
                positions = sorted({position[c] for c in spots})
                if not size < len(positions) <= size + 2:
                    continue
                in_base = {c for h, _ in group for c in geo.houses[h].cells}
                for covers in combinations(positions, size):
                    fins = [c for c in spots if position[c] not in covers]
                    targets = sorted(
                        c
                        for p in covers
                        for c in geo.houses[cover[p]].cells
                        if c not in in_base
                        and masks[c] & bit
                        and all(t.sees(c, fin) for fin in fins)
                    )
                    if targets:
                        bases = [h for h, _ in group]
                        return bases, [cover[p] for p in covers], [(c, d) for c in targets]
    return None


def first_sue_de_coq(cand: Candidates, t: Tables) -> tuple[list[int], list[tuple[int, int]]] | None:
    """(cells, eliminations) of the first Sue de Coq: per pair of houses meeting in two cells
    or more (each pair once), per core of 2 to 4 of the overlap's open cells, fewest first,
    holding at least two digits more than cells, per first side and then per second side (1
    to 3 open cells of each house outside the overlap, fewest first, each cell holding a
    digit of the core's) with no digit in common, each bringing fewer digits from outside
    the core's than it has cells, and as many cells as digits in all."""
    masks = cand.masks
    for a, b, common in t.intersections:
        if a > b:
            continue
        a_cells, b_cells = t.house_cells[a], t.house_cells[b]
        core_cells = [c for c in a_cells if c in common and masks[c]]
        a_open = [c for c in a_cells if c not in common and masks[c]]
        b_open = [c for c in b_cells if c not in common and masks[c]]
        if len(core_cells) < 2 or all(c in common for c in a_cells):
            continue  # both houses must reach beyond the overlap
        for n in range(2, min(4, len(core_cells)) + 1):
            for core in combinations(core_cells, n):
                v = _union(masks, core)
                if not 2 <= len(v) - n <= 6:
                    continue
                boxes = [(box, _union(masks, box)) for box in _side_sets(masks, b_open, v)]
                for line in _side_sets(masks, a_open, v):
                    line_digits = _union(masks, line)
                    for box, box_digits in boxes:
                        digits_of_both = line_digits | box_digits
                        cells = len(core) + len(line) + len(box)
                        if line_digits & box_digits or cells != len(v | digits_of_both):
                            continue
                        if len(line_digits - v) >= len(line) or len(box_digits - v) >= len(box):
                            continue
                        own = v - line_digits - box_digits
                        gone = sorted(
                            (c, d)
                            for rest, digits in (
                                ([c for c in a_open if c not in line], line_digits | own),
                                ([c for c in b_open if c not in box], box_digits | own),
                                ([c for c in core_cells if c not in core], v | digits_of_both),
                            )
                            for c in rest
                            for d in digits
                            if masks[c] >> (d - 1) & 1
                        )
                        if gone:
                            return [*core, *line, *box], gone
    return None


def _union(masks: tuple[int, ...], cells: tuple[int, ...]) -> set[int]:
    return {d for c in cells for d in range(1, 17) if masks[c] >> (d - 1) & 1}


def _side_sets(masks: tuple[int, ...], cells: list[int], v: set[int]) -> list[tuple[int, ...]]:
    usable = [c for c in cells if _union(masks, (c,)) & v]
    return [side for k in (1, 2, 3) for side in combinations(usable, k)]
