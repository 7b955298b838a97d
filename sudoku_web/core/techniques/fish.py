"""Fish on rows and columns: X-wing, swordfish, jellyfish, and their finned (and sashimi) forms.

base lines, cover lines
    A fish of size n on a digit: n rows (the base) whose places for the digit lie in n
    columns (the cover), or the same with columns and rows swapped. Each base line needs the
    digit once, in a different cover line, so the cover lines get their digit from the base
    lines and lose it everywhere else.
fin
    A place of the digit in a base line outside the cover lines (see :func:`_finned_fish`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

from ..board import Geometry, House
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    Technique,
    _and,
    _cells,
    _removal_of,
    _step,
    digit_boards,
    per_digit,
)

_FISH_NAMES = {2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}
_FINNED_NAMES = {2: "Finned X-wing", 3: "Finned swordfish", 4: "Finned jellyfish"}


def _plural(kind: str, numbers: Sequence[int]) -> str:
    return f"{kind}s {_and([str(n + 1) for n in numbers])}"


# A fish's base lines, its cover lines, each cell's position across the base (its cover line),
# and their names: rows over columns, then columns over rows.
_Orientation = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, str]]


# A fish found: base line numbers, cover line numbers, the digit's places in the base lines,
# and the fins among them (none for a plain fish).
_Fish = tuple[list[int], list[int], list[Cell], list[Cell]]


def _orientations(t: Tables) -> tuple[_Orientation, _Orientation]:
    return (
        (t.rows, t.cols, t.col_of, ("row", "column")),
        (t.cols, t.rows, t.row_of, ("column", "row")),
    )


def _line_spreads(
    t: Tables,
    masks: Sequence[int],
    bit: int,
    base: Sequence[int],
    position: Sequence[int],
    most: int,
) -> list[tuple[int, int]]:
    """(line number, bitmask of cover positions) of the base lines holding the digit in 2 to
    ``most`` places: the only lines a fish of that size can be built from."""
    lines: list[tuple[int, int]] = []
    for i, h in enumerate(base):
        spread = 0
        for c in t.house_cells[h]:
            if masks[c] & bit:
                spread |= 1 << position[c]
        if 2 <= spread.bit_count() <= most:
            lines.append((i, spread))
    return lines


def _fish_houses(
    geo: Geometry,
    base: Sequence[int],
    cover: Sequence[int],
    base_lines: Sequence[int],
    cover_lines: Sequence[int],
) -> list[House]:
    """The houses a fish step looks at: its base lines, then its cover lines."""
    return [geo.houses[base[i]] for i in base_lines] + [geo.houses[cover[p]] for p in cover_lines]


def _fish_digit(size: int, cand: Candidates, t: Tables, d: Digit) -> Step | None:
    """The first fish of ``size`` on digit ``d`` that removes something, either orientation."""
    masks, bit = cand.masks, 1 << (d - 1)
    for orientation in _orientations(t):
        base, cover, position, _ = orientation
        lines = _line_spreads(t, masks, bit, base, position, size)
        for group in combinations(lines, size):
            union = 0
            for _, spread in group:
                union |= spread
            if union.bit_count() != size:
                continue
            base_lines = [i for i, _ in group]
            cover_lines = [p for p in range(t.geometry.size) if union >> p & 1]
            in_base = {c for i in base_lines for c in t.house_cells[base[i]]}
            elims = [
                (c, d)
                for p in cover_lines
                for c in t.house_cells[cover[p]]
                if c not in in_base and masks[c] & bit
            ]
            if elims:
                spots = sorted(c for c in in_base if masks[c] & bit)
                fish: _Fish = (base_lines, cover_lines, spots, [])
                return _fish_step(cand, t, size, d, orientation, fish, elims)
    return None


def _fish(size: int) -> Technique:
    doc = f"{size} rows (columns) whose places for a digit lie in {size} columns (rows)."
    return per_digit(_FISH_NAMES[size], functools.partial(_fish_digit, size), doc)


x_wing = _fish(2)
swordfish = _fish(3)
jellyfish = _fish(4)


# ---------------------------------------------------------------------------------------------
# Finned fish: a fish with extra places (fins) in its base lines. Either a fin holds the digit,
# or the fish does; a target must lose it both ways, so it lies in a cover line (outside the
# base lines) and sees every fin: on rows and columns that puts the fins in its box (on jigsaw,
# its region; on X and hyper boards a diagonal or window may join it to a fin too). Nothing
# needs the base lines to keep two places each without the fins: where one keeps one or none,
# the fish is "sashimi" (the sentence says so) and the same reasoning holds, so sashimi fish
# are found here too.


def _finned_fish(size: int) -> Technique:
    doc = f"A {_FISH_NAMES[size]} with extra places (fins): targets must see them all."
    return per_digit(_FINNED_NAMES[size], functools.partial(_finned_digit, size), doc)


def _finned_digit(size: int, cand: Candidates, t: Tables, d: Digit) -> Step | None:
    """The first finned fish of ``size`` on digit ``d``, either orientation."""
    bit = 1 << (d - 1)
    house_bits = t.house_bits
    for orientation in _orientations(t):
        base, _, position, _ = orientation
        # Up to two fin positions beyond the fish's own: a box that a cover line crosses
        # spans at most two more. (A jigsaw region may span more; such rarer fish are left
        # to the chains, which find what they remove.)
        lines = _line_spreads(t, cand.masks, bit, base, position, size + 2)
        for group in combinations(lines, size):
            union = 0
            for _, spread in group:
                union |= spread
            if not size < union.bit_count() <= size + 2:
                continue
            base_lines = [i for i, _ in group]
            base_board = 0
            for i in base_lines:
                base_board |= house_bits[base[i]]
            step = _finned_covers(cand, t, size, d, orientation, base_lines, base_board, union)
            if step is not None:
                return step
    return None


def _finned_covers(
    cand: Candidates,
    t: Tables,
    size: int,
    d: Digit,
    orientation: _Orientation,
    base_lines: list[int],
    base_board: int,
    union: int,
) -> Step | None:
    """The first choice of ``size`` cover lines among ``union`` that removes something."""
    base, cover, _, _ = orientation
    house_bits, peer_bits = t.house_bits, t.peer_bits
    on = digit_boards(cand)[d - 1]
    spot_board = base_board & on
    outside = on & ~base_board
    positions = [p for p in range(t.geometry.size) if union >> p & 1]
    # Per position, on bitboards: the digit's places outside the base lines that see every
    # place of it there in the base lines (the fins, if that position is not covered).
    seeing: dict[int, int] = {}
    for p in positions:
        places, near = spot_board & house_bits[cover[p]], outside
        while places and near:
            low = places & -places
            near &= peer_bits[low.bit_length() - 1]
            places ^= low
        seeing[p] = near
    # The positions left out, in the order that takes the cover lines in ascending order
    # (the complement of ascending combinations comes in descending order).
    extra = len(positions) - size
    for left_out in reversed(list(combinations([p for p in positions if seeing[p]], extra))):
        near = -1
        for p in left_out:
            near &= seeing[p]
        if not near:
            continue  # no place sees every fin
        cover_lines = [p for p in positions if p not in left_out]
        cover_board = 0
        for p in cover_lines:
            cover_board |= house_bits[cover[p]]
        near &= cover_board
        if near:
            spots = [c for c in range(len(cand.masks)) if spot_board >> c & 1]
            fins = [c for c in spots if not cover_board >> c & 1]
            elims = [(c, d) for c in range(len(cand.masks)) if near >> c & 1]
            fish: _Fish = (base_lines, cover_lines, spots, fins)
            return _fish_step(cand, t, size, d, orientation, fish, elims)
    return None


def _fish_step(
    cand: Candidates,
    t: Tables,
    size: int,
    d: Digit,
    orientation: _Orientation,
    fish: _Fish,
    elims: list[tuple[Cell, Digit]],
) -> Step:
    """A fish's step: base lines, cover lines, the digit's places in the base lines (``spots``,
    the fins among them) and what it removes."""
    geo = t.geometry
    base, cover, _, kinds = orientation
    base_lines, cover_lines, spots, fins = fish
    sym = geo.symbol(d)
    within = _plural(kinds[1], cover_lines)
    head = f"In {_plural(kinds[0], base_lines)}, {sym} can only go in {within}"
    if fins:
        name = _FINNED_NAMES[size]
        fin = "fin" if len(fins) == 1 else "fins"
        fish_name = _FISH_NAMES[size] if size == 2 else _FISH_NAMES[size].lower()
        sentence = (
            f"{head}, except for the {fin} {_cells(geo, fins)}"
            f"{_sashimi(geo, d, orientation, base_lines, spots, fins, fish_name)}. Either a "
            f"{fin[:3]} holds {sym}, or the {fish_name} does; either way "
            f"{_removal_of(geo, d, elims)}: in those {kinds[1]}s, seeing every {fin[:3]}."
        )
    else:
        name = _FISH_NAMES[size]
        sentence = (
            f"{head}; those {size} {kinds[0]}s each need a {sym}, so the {sym}s of those "
            f"{kinds[1]}s are all among {_cells(geo, spots)}, and {_removal_of(geo, d, elims)}."
        )
    return _step(
        name,
        sentence,
        cand,
        houses=_fish_houses(geo, base, cover, base_lines, cover_lines),
        cells=spots,
        eliminations=elims,
    )


def _sashimi(
    geo: Geometry,
    d: Digit,
    orientation: _Orientation,
    base_lines: list[int],
    spots: list[Cell],
    fins: list[Cell],
    fish_name: str,
) -> str:
    """``; without it, row 4 would keep 1 only in r4c8 (a sashimi X-wing)`` when a base line
    keeps fewer than two places without the fins; empty otherwise."""
    base, _, _, kinds = orientation
    sym = geo.symbol(d)
    parts = []
    for i in base_lines:
        line = set(geo.houses[base[i]].cells)
        body = [c for c in spots if c in line and c not in fins]
        if len(body) == 1:
            parts.append(f"{kinds[0]} {i + 1} would keep {sym} only in {geo.cell_name(body[0])}")
        elif not body:
            parts.append(f"{kinds[0]} {i + 1} would have no place for {sym}")
    if not parts:
        return ""
    return f"; without {'it' if len(fins) == 1 else 'them'}, {_and(parts)} (a sashimi {fish_name})"


finned_x_wing = _finned_fish(2)
finned_swordfish = _finned_fish(3)
finned_jellyfish = _finned_fish(4)
