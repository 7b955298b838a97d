"""The engine's cage rule: what a killer's cages (and the 45 rule) say about candidates.

Vocabulary (the engine's terms are in :mod:`sudoku_web.core.solver`):

sum constraint
    Cells whose digits add up to a total: a cage (digits all different), or cells the 45 rule
    finds. A house's digits add up to 1+2+...+N, so over a house, or a union of disjoint
    houses, the cages inside it leave *innies* (its cells outside those cages) whose sum is
    known; when every cell of the union is caged, the cages touching it stick out by
    *outies* whose sum is known too. Innies and outies become constraints when they are
    few; they are "distinct" when every two of them share a house or a cage.
narrow
    One pass over every constraint, on the cell candidate masks of a state: of the digit
    sets that make the remaining sum (precomputed combination tables, bitmasks), keep those
    each cell and the placed digits allow; each cell keeps the digits of those sets; a
    digit every set needs goes in the only cell that can hold it, and leaves every cell
    outside the cage that sees all the cage's cells that can hold it. Constraints whose
    cells may repeat a digit keep each digit that the other cells' reachable sums complete.

The search calls :func:`narrow` when singles and locked candidates stall, on the constraints
over cells changed since a state none of them changes (the parent's reduced state); each
removal is one AND with the engine's OTHER mask of the candidate. A cage-free board never
runs it.

Roads not taken are in ``benchmarks/RESULTS.md`` ("Killer engine").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .board import Geometry
from .cages import combinations
from .rules.sums import add


class Lookup(Protocol):
    """The engine's masks by bit index (a list, or a dict that builds them on first use)."""

    def __getitem__(self, key: int, /) -> int: ...


# Innies or outies are kept as a constraint when there are at most this many cells.
MAX_DERIVED_CELLS = 4


@dataclass(frozen=True)
class SumConstraint:
    """Cells adding up to ``total``; ``distinct``: their digits are all different."""

    cells: tuple[int, ...]
    total: int
    distinct: bool
    # For each cell, the other cells of the board that see it (cells as bits of an int):
    # a required digit confined to some cells leaves the cells seeing all of them.
    sees: tuple[int, ...]
    # The guard bits of its cells' fields in the engine's state (see :func:`narrow`).
    watch: int


@dataclass(frozen=True)
class CageRule:
    """Every sum constraint of a board with cages, built once per board."""

    constraints: tuple[SumConstraint, ...]
    derived: int  # how many come from the 45 rule


# Bounded by count, not bytes: cages come from users, and an entry is a board's constraints
# (~25 KB for a 9x9 killer), so the 64 kept stay under ~2 MB.
@functools.lru_cache(maxsize=64)
def cage_rule(geometry: Geometry) -> CageRule:
    """The cages of ``geometry`` and the innies/outies of its houses and bands, as constraints.

    Cached for a few boards (a killer is often solved several times in one request).
    """
    sees = list(sees_bits(geometry.base))
    cage_bits = [_bits(cage.cells) for cage in geometry.cages]
    for cage, mates in zip(geometry.cages, cage_bits, strict=True):
        for cell in cage.cells:
            sees[cell] |= mates & ~(1 << cell)

    width = geometry.size + 1

    def constraint(cells: Sequence[int], total: int, distinct: bool) -> SumConstraint:
        watch = sum(1 << (c * width + width - 1) for c in cells)
        return SumConstraint(tuple(cells), total, distinct, tuple(sees[c] for c in cells), watch)

    made = [constraint(c.cells, c.total, True) for c in geometry.cages]
    seen = set(cage_bits)
    totals = [cage.total for cage in geometry.cages]
    for union, union_total in _unions(geometry.base):
        for bits, total in _innies_outies(union, union_total, cage_bits, totals):
            if not 0 < bits.bit_count() <= MAX_DERIVED_CELLS or bits in seen or total < 1:
                continue
            seen.add(bits)
            cells = _cells(bits)
            distinct = all(sees[a] >> b & 1 for a in cells for b in cells if a < b)
            if not distinct or combinations(geometry.size, len(cells), total):
                made.append(constraint(cells, total, distinct))
    return CageRule(tuple(made), len(made) - len(geometry.cages))


def _bits(cells: Sequence[int]) -> int:
    out = 0
    for cell in cells:
        out |= 1 << cell
    return out


def _cells(bits: int) -> tuple[int, ...]:
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        out.append(low.bit_length() - 1)
    return tuple(out)


# Bounded by count: one entry per house layout (~17 KB for 16x16), 16 kept.
@functools.lru_cache(maxsize=16)
def sees_bits(geometry: Geometry) -> tuple[int, ...]:
    """Each cell's peers, as bits of an int (per house layout)."""
    return tuple(_bits(peers) for peers in geometry.peers)


# Bounded by count: one entry per house layout (~40 KB for 16x16), 16 kept.
@functools.lru_cache(maxsize=16)
def _unions(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """Sets of cells that hold each digit k times, as bits, with what they add up to: every
    house, and bands of consecutive rows and of consecutive columns (2 to N-1 of them)."""
    n = geometry.size
    house_total = n * (n + 1) // 2
    out = [(_bits(house.cells), house_total) for house in geometry.houses]
    for k in range(2, n):
        for start in range(n - k + 1):
            lines = range(start, start + k)
            out.append((_bits([r * n + c for r in lines for c in range(n)]), k * house_total))
            out.append((_bits([r * n + c for c in lines for r in range(n)]), k * house_total))
    return tuple(out)


def _innies_outies(
    union: int, total: int, cage_bits: list[int], totals: list[int]
) -> list[tuple[int, int]]:
    """The innies of ``union`` and their sum; its outies and theirs when it is all caged."""
    inner = inner_sum = touched = touched_sum = 0
    for bits, cage_total in zip(cage_bits, totals, strict=True):
        if bits & union:
            touched |= bits
            touched_sum += cage_total
            if not bits & ~union:
                inner |= bits
                inner_sum += cage_total
    found = [(union & ~inner, total - inner_sum)]
    if not union & ~touched:
        found.append((touched & ~union, touched_sum - total))
    return found


def narrow(
    x: int,
    rule: CageRule,
    cell_part: int,
    width: int,
    full: int,
    other_at: Lookup,
    touched: int = -1,
) -> int:
    """The state ``x`` with every candidate the constraints rule out removed.

    ``cell_part``, ``width``, ``full`` and ``other_at`` are the engine's (see
    :mod:`sudoku_web.core.solver`). A constraint that nothing satisfies empties one of its
    cells, so the engine's next scan reports the contradiction as an empty cell.

    ``touched`` (guard bits of cell fields; all by default) limits the pass to the
    constraints over a touched cell, or over a cell that one before them in the pass
    narrowed: a constraint's removals are decided by its own cells, so one whose cells are
    as they were when it last removed nothing removes nothing.
    """
    cp = x & cell_part
    masks: dict[int, int] = {}
    for con in rule.constraints:
        if not con.watch & touched:
            continue
        cells = con.cells
        ms = []
        for c in cells:
            m = masks.get(c)
            if m is None:
                m = masks[c] = (cp >> (c * width)) & full
            ms.append(m)
        new = _narrow_distinct(ms, con.total, full) if con.distinct else _narrow_sum(ms, con.total)
        if new is None:
            continue
        for c, m, kept in zip(cells, ms, new, strict=True):
            if m != kept:
                masks[c] = kept
                touched |= 1 << (c * width + width - 1)
                x = clear(x, c, m & ~kept, width, other_at)
                if not kept:
                    return x  # a dead cell: the engine's scan reports it
        if con.distinct:
            x, touched = _confined(
                x, con, cells, [masks[c] for c in cells], masks, cp, width, full, other_at, touched
            )
    return x


def clear(x: int, cell: int, gone: int, width: int, other_at: Lookup) -> int:
    """``x`` without the candidates ``gone`` (a digit mask) of ``cell``."""
    base = cell * width
    while gone:
        low = gone & -gone
        gone ^= low
        x &= other_at[base + low.bit_length()]
    return x


def _narrow_distinct(ms: list[int], total: int, full: int) -> list[int] | None:
    """Each cell's digits that some set of distinct digits making ``total`` allows; None
    when nothing changes."""
    fixed = 0
    fixed_sum = 0
    open_masks = []
    for m in ms:
        if m & (m - 1):
            open_masks.append(m)
        elif m & fixed:
            return [0] * len(ms)  # two cells hold one digit
        else:
            fixed |= m
            fixed_sum += m.bit_length()
    if not open_masks:
        return None if fixed_sum == total else [0] * len(ms)
    union = 0
    for m in open_masks:
        union |= m
    allowed = 0
    size = full.bit_length()
    for combo in combinations(size, len(open_masks), total - fixed_sum):
        if combo & fixed or combo & union != combo:
            continue
        for m in open_masks:
            if not m & combo:
                break
        else:
            allowed |= combo
    if union & ~allowed == 0:
        return None
    return [m & allowed if m & (m - 1) else m for m in ms]


def _narrow_sum(ms: list[int], total: int) -> list[int] | None:
    """Each cell's digits that the others' reachable sums complete to ``total`` (digits may
    repeat); None when nothing changes."""
    k = len(ms)
    # prefix[i]: sums reachable by cells before i, as bits (bit s = sum s); suffix likewise.
    prefix = [1] * (k + 1)
    suffix = [1] * (k + 1)
    for i, m in enumerate(ms):
        prefix[i + 1] = add(prefix[i], m)
    for i in range(k - 1, -1, -1):
        suffix[i] = add(suffix[i + 1], ms[i])
    out = []
    changed = False
    for i, m in enumerate(ms):
        kept = 0
        bits = m
        while bits:
            low = bits & -bits
            bits ^= low
            d = low.bit_length()
            rest = total - d
            if rest >= 0 and _meets(prefix[i], suffix[i + 1], rest):
                kept |= low
        changed |= kept != m
        out.append(kept)
    return out if changed else None


def _meets(before: int, after: int, rest: int) -> bool:
    """True when some sum of ``before`` plus some sum of ``after`` is ``rest``."""
    while before:
        low = before & -before
        before ^= low
        s = low.bit_length() - 1
        if s <= rest and after >> (rest - s) & 1:
            return True
    return False


def _confined(
    x: int,
    con: SumConstraint,
    cells: tuple[int, ...],
    ms: list[int],
    masks: dict[int, int],
    cp: int,
    width: int,
    full: int,
    other_at: Lookup,
    touched: int,
) -> tuple[int, int]:
    """A digit every way of making the cage's sum needs: in the only cell that can hold it;
    out of every cell that sees all the cage's cells that can hold it. Returns the state and
    ``touched`` with the guard bits of the cells narrowed."""
    required = _required(ms, con.total, full)
    while required:
        low = required & -required
        required ^= low
        holders = [i for i, m in enumerate(ms) if m & low and m & (m - 1)]
        if len(holders) == 1:
            i = holders[0]
            x = clear(x, cells[i], ms[i] ^ low, width, other_at)
            masks[cells[i]] = ms[i] = low
            touched |= 1 << (cells[i] * width + width - 1)
            continue
        seen = -1
        for i in holders:
            seen &= con.sees[i]
        shift = low.bit_length()
        while seen > 0:
            top = seen.bit_length() - 1
            seen ^= 1 << top
            m = masks.get(top)
            if m is None:
                m = (cp >> (top * width)) & full
            if m & low:
                masks[top] = m ^ low
                x &= other_at[top * width + shift]
                touched |= 1 << (top * width + width - 1)
    return x, touched


def _required(ms: list[int], total: int, full: int) -> int:
    """The open cells' digits that every set making the rest of the sum holds."""
    fixed = fixed_sum = union = 0
    count = 0
    for m in ms:
        if m & (m - 1):
            union |= m
            count += 1
        else:
            fixed |= m
            fixed_sum += m.bit_length()
    if not count:
        return 0
    required = full
    for combo in combinations(full.bit_length(), count, total - fixed_sum):
        if not combo & fixed and combo & union == combo:
            required &= combo
    return required & union
