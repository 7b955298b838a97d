"""Fish on rows and columns: X-wing, swordfish, jellyfish, and their finned forms."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from ..board import Geometry, House
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _and,
    _cells,
    _failed,
    _removal_of,
    _step,
    digit_boards,
)

_FISH_NAMES = {2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}
_FINNED_NAMES = {2: "Finned X-wing", 3: "Finned swordfish"}


def _plural(kind: str, numbers: Sequence[int]) -> str:
    return f"{kind}s {_and([str(n + 1) for n in numbers])}"


# A fish's base lines, its cover lines, each cell's position across the base (its cover line),
# and their names: rows over columns, then columns over rows.
_Orientation = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, str]]


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


def _fish(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def fish(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        masks = cand.masks
        memo = _failed.get()
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            key = None if memo is None else (_FISH_NAMES[size], d, digit_boards(cand)[d - 1])
            if memo is not None and key in memo:
                continue  # failed before on the same places of d
            for base, cover, position, kinds in _orientations(t):
                lines = _line_spreads(t, masks, bit, base, position, size)
                for group in combinations(lines, size):
                    union = 0
                    for _, spread in group:
                        union |= spread
                    if union.bit_count() != size:
                        continue
                    base_lines = [i for i, _ in group]
                    cover_lines = [p for p in range(geo.size) if union >> p & 1]
                    in_base = {c for i in base_lines for c in t.house_cells[base[i]]}
                    elims = [
                        (c, d)
                        for p in cover_lines
                        for c in t.house_cells[cover[p]]
                        if c not in in_base and masks[c] & bit
                    ]
                    if not elims:
                        continue
                    spots = sorted(
                        c for i in base_lines for c in t.house_cells[base[i]] if masks[c] & bit
                    )
                    sym = geo.symbol(d)
                    sentence = (
                        f"In {_plural(kinds[0], base_lines)}, {sym} can only go in "
                        f"{_plural(kinds[1], cover_lines)}; those {size} {kinds[0]}s each need a "
                        f"{sym}, so the {sym}s of those {kinds[1]}s are all among "
                        f"{_cells(geo, spots)}, and {_removal_of(geo, d, elims)}."
                    )
                    return _step(
                        _FISH_NAMES[size],
                        sentence,
                        cand,
                        houses=_fish_houses(geo, base, cover, base_lines, cover_lines),
                        cells=spots,
                        eliminations=elims,
                    )
            if memo is not None and key is not None:
                memo.add(key)  # nothing for this digit on this board
        return None

    fish.__doc__ = f"{size} rows (columns) whose places for a digit lie in {size} columns (rows)."
    return fish


x_wing = _fish(2)
swordfish = _fish(3)
jellyfish = _fish(4)


# ---------------------------------------------------------------------------------------------
# Fiendish extras that carry most of top95 past its first stall: finned fish, XY-chain, BUG+1.


def _finned_fish(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def finned(cand: Candidates, t: Tables) -> Step | None:
        memo = _failed.get()
        for d in range(1, t.geometry.size + 1):
            key = (_FINNED_NAMES[size], d, digit_boards(cand)[d - 1])
            if memo is not None and key in memo:
                continue  # failed before on the same places of d
            step = _finned_digit(cand, t, size, d)
            if step is not None:
                return step
            if memo is not None:
                memo.add(key)  # nothing for this digit on this board
        return None

    finned.__doc__ = f"A {_FISH_NAMES[size]} with extra places (fins): targets must see them all."
    return finned


def _finned_digit(cand: Candidates, t: Tables, size: int, d: Digit) -> Step | None:
    """The first finned fish of ``size`` on digit ``d``, either orientation."""
    bit = 1 << (d - 1)
    house_bits = t.house_bits
    for orientation in _orientations(t):
        base, _, position, _ = orientation
        # Up to two fin places beyond the fish's own.
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
    base, cover, position, _ = orientation
    masks, bit = cand.masks, 1 << (d - 1)
    house_bits, peer_bits = t.house_bits, t.peer_bits
    on = digit_boards(cand)[d - 1]
    spot_board = base_board & on
    in_base: set[Cell] | None = None
    for cover_lines in combinations([p for p in range(t.geometry.size) if union >> p & 1], size):
        # Rejected on bitboards first (most tries end here): the targets are the digit's
        # places in the cover lines, outside the base lines, seeing every fin.
        cover_board = 0
        for p in cover_lines:
            cover_board |= house_bits[cover[p]]
        fin_board = spot_board & ~cover_board
        near_board = cover_board & ~base_board & on
        while fin_board and near_board:
            low = fin_board & -fin_board
            near_board &= peer_bits[low.bit_length() - 1]
            fin_board ^= low
        if not near_board:
            continue
        if in_base is None:
            in_base = {c for i in base_lines for c in t.house_cells[base[i]]}
        spots = sorted(c for c in in_base if masks[c] & bit)
        fins = [c for c in spots if position[c] not in cover_lines]
        near_fins = frozenset.intersection(*(t.peer_sets[f] for f in fins))
        targets = [
            c
            for p in cover_lines
            for c in t.house_cells[cover[p]]
            if c in near_fins and c not in in_base and masks[c] & bit
        ]
        if targets:
            fish = (base_lines, list(cover_lines), spots, fins)
            return _finned_step(cand, t, size, d, orientation, fish, targets)
    return None


def _finned_step(
    cand: Candidates,
    t: Tables,
    size: int,
    d: Digit,
    orientation: _Orientation,
    fish: tuple[list[int], list[int], list[Cell], list[Cell]],
    targets: list[Cell],
) -> Step:
    geo = t.geometry
    base, cover, _, kinds = orientation
    base_lines, cover_lines, spots, fins = fish
    sym = geo.symbol(d)
    elims = [(c, d) for c in targets]
    fin = "fin" if len(fins) == 1 else "fins"
    sentence = (
        f"In {_plural(kinds[0], base_lines)}, {sym} can only go in "
        f"{_plural(kinds[1], cover_lines)}, except for the {fin} "
        f"{_cells(geo, fins)}. Either a {fin[:3]} holds {sym}, or the "
        f"{_FISH_NAMES[size]} does; either way {_removal_of(geo, d, elims)}: "
        f"in those {kinds[1]}s, seeing every {fin[:3]}."
    )
    return _step(
        _FINNED_NAMES[size],
        sentence,
        cand,
        houses=_fish_houses(geo, base, cover, base_lines, cover_lines),
        cells=spots,
        eliminations=elims,
    )


finned_x_wing = _finned_fish(2)
finned_swordfish = _finned_fish(3)
