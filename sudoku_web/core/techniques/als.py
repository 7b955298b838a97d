"""Almost locked sets: ALS-XZ.

Vocabulary (on top of :mod:`.base`):

almost locked set (ALS)
    ``k`` open cells of one house holding only ``k + 1`` digits between them (a two-candidate
    cell is the smallest). Take one digit away and the other ``k`` fill those cells.
restricted common digit
    A digit ``x`` of two ALSs, with no cell in common, where every ``x`` of one sees every
    ``x`` of the other: ``x`` is in one of them at most, so the other is locked on its
    other digits.

ALS-XZ: with a restricted common ``x``, one of the two sets holds all its digits but ``x``,
so any other common digit ``z`` is in one of them: a cell outside both that sees every ``z``
of both loses ``z``. Sets of up to three cells, in any house (variants included).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .base import Candidates, Cell, Digit, Step, Tables, _cells, _digits, _step, digit_boards

# Four-cell sets save 34 of 285 forcing steps on top95 but double the ALS time at every
# stall (top95 grade: 36 ms of CPU on average instead of 28, measured under load).
MAX_ALS_CELLS = 3


@dataclass(frozen=True)
class _Als:
    house: int
    cells: tuple[Cell, ...]
    board: int  # the cells as a bitboard
    digits: int  # the k + 1 digits, as a mask
    where: tuple[int, ...]  # per digit index: the set's cells holding it (bitboard)
    seen: tuple[int, ...]  # per digit index: the cells that see all of those


def _alses(cand: Candidates, t: Tables) -> list[_Als]:
    """Every ALS of up to :data:`MAX_ALS_CELLS` cells, once each (first house that has it)."""
    masks = cand.masks
    found: dict[int, _Als] = {}
    for h, cells in enumerate(t.house_cells):
        open_cells = [c for c in cells if masks[c]]
        for k in range(1, min(MAX_ALS_CELLS, len(open_cells) - 1) + 1):
            for group in combinations(open_cells, k):
                union = 0
                for c in group:
                    union |= masks[c]
                if union.bit_count() != k + 1:
                    continue
                board = sum(1 << c for c in group)
                if board not in found:
                    found[board] = _make(t, masks, h, group, board, union)
    return list(found.values())


def _make(
    t: Tables, masks: tuple[int, ...], h: int, group: tuple[Cell, ...], board: int, union: int
) -> _Als:
    where, seen = [], []
    for d in range(t.geometry.size):
        bit = 1 << d
        cells = 0
        sees = -1
        for c in group:
            if masks[c] & bit:
                cells |= 1 << c
                sees &= t.peer_bits[c]
        where.append(cells)
        seen.append(sees if cells else 0)
    return _Als(h, group, board, union, tuple(where), tuple(seen))


def als_xz(cand: Candidates, t: Tables) -> Step | None:
    """Two almost locked sets with a restricted common digit x: any other common digit z
    goes from the cells that see every z of both sets."""
    sets = _alses(cand, t)
    boards = digit_boards(cand)
    for i, a in enumerate(sets):
        for b in sets[i + 1 :]:
            common = a.digits & b.digits
            if a.board & b.board or not common & (common - 1):
                continue  # overlapping, or fewer than two common digits
            found = _xz(a, b, common, boards)
            if found is not None:
                return _xz_step(cand, t, a, b, *found)
    return None


def _xz(a: _Als, b: _Als, common: int, boards: tuple[int, ...]) -> tuple[int, int, int] | None:
    """(x index, z index, targets) for the first restricted common x with a z to remove."""
    outside = ~(a.board | b.board)
    rest = common
    while rest:
        low = rest & -rest
        rest ^= low
        x = low.bit_length() - 1
        if b.where[x] & ~a.seen[x]:
            continue  # some x of b does not see every x of a: not restricted
        others = common & ~low
        while others:
            top = others & -others
            others ^= top
            z = top.bit_length() - 1
            targets = a.seen[z] & b.seen[z] & boards[z] & outside
            if targets:
                return x, z, targets
    return None


def _xz_step(cand: Candidates, t: Tables, a: _Als, b: _Als, x: int, z: int, targets: int) -> Step:
    geo = t.geometry
    xs, zs = geo.symbol(x + 1), geo.symbol(z + 1)
    cells = [c for c in range(geo.cells) if targets >> c & 1]
    elims: list[tuple[Cell, Digit]] = [(c, z + 1) for c in cells]

    def told(s: _Als) -> str:
        digits = [d + 1 for d in range(geo.size) if s.digits >> d & 1]
        return f"{_cells(geo, s.cells)} ({geo.houses[s.house].name}: {_digits(geo, digits)})"

    sentence = (
        f"{told(a)} and {told(b)} are almost locked sets: each has one digit more than "
        f"cells. Every {xs} of one sees every {xs} of the other, so at most one holds {xs}, "
        f"and the other holds all its other digits, {zs} among them. So {zs} is in one of the "
        f"two sets, and {zs} is removed from {_cells(geo, cells)}, "
        f"{'which sees' if len(cells) == 1 else 'which see'} every {zs} of both."
    )
    return _step(
        "ALS-XZ",
        sentence,
        cand,
        houses=[geo.houses[a.house], geo.houses[b.house]],
        cells=[*a.cells, *b.cells],
        eliminations=elims,
    )
