"""Human solving techniques over a candidates grid, each returning one explained :class:`Step`.

Vocabulary (on top of :mod:`sudoku_web.core.board`):

candidates
    A :class:`Candidates` snapshot: the placed value of every cell (0 if open) and, for each
    open cell, a bitmask of the digits still possible there (bit ``v-1`` stands for ``v``).
    Placed cells have mask 0, so "cells where 5 can go" is simply ``masks[c] & bit``.
strong link
    A digit with exactly two places in a house: one of the two cells must hold it.
sees
    Two cells see each other when they share a house (they are peers).
step
    One deduction: the technique, the houses and cells it reasons about, the digits it
    places and the candidates it eliminates, the candidates before it, and a sentence.

Every technique is a pure function ``(candidates, tables) -> Step | None`` that finds the
first instance that changes something; :data:`TECHNIQUES` lists them easiest first with the
grade each one implies. All of them work from the geometry's house tables, so variants work
unchanged; the fish family, skyscraper and kite reason about rows and columns (every board
has those), and the unique rectangle checks every house, so it only fires where the swap of
two digits would really leave a second solution.

Roads not taken: techniques return one step rather than applying every instance at once,
because a page shows one sentence per step and a hint is exactly one step. Rescanning from
the easiest technique after every step costs little (10 ms per top95 puzzle on average, 50
ms at worst; see ``benchmarks/RESULTS.md``: within one explanation, per-digit rungs and
subsets skip digits and houses already searched in vain on the same candidates, see
:func:`remembering`) and keeps the explanation in the order a person works. The order is
roughly by how hard a pattern is to spot, not by power: fish and wings
before chains. Alternating inference chains come last; they lift top95 from 52% to 63%
solved without a guess for about 6 ms per puzzle. Chains stop at twelve cells, beyond which
a sentence is no longer something a person follows.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from .board import Geometry, House

Grade = Literal["Easy", "Medium", "Hard", "Fiendish", "Diabolical"]
GRADES: tuple[Grade, ...] = ("Easy", "Medium", "Hard", "Fiendish", "Diabolical")

Cell = int
Digit = int


@dataclass(frozen=True)
class Candidates:
    """A position: placed values (0 for open) and candidate masks (0 for placed cells)."""

    values: tuple[int, ...]
    masks: tuple[int, ...]

    def digits(self, cell: Cell) -> tuple[Digit, ...]:
        """The candidate digits of an open cell, ascending; () for a placed cell."""
        return bits_to_digits(self.masks[cell])

    @property
    def solved(self) -> bool:
        """True when every cell holds a value."""
        return all(self.values)

    @property
    def open_cells(self) -> int:
        """How many cells are still open."""
        return sum(1 for v in self.values if not v)


@dataclass(frozen=True)
class Step:
    """One explained deduction, with the candidates as they were before it."""

    technique: str
    sentence: str
    houses: tuple[House, ...]
    cells: tuple[Cell, ...]  # the cells the reasoning rests on (to highlight)
    placements: tuple[tuple[Cell, Digit], ...]
    eliminations: tuple[tuple[Cell, Digit], ...]
    before: Candidates

    @property
    def grade(self) -> Grade:
        """The grade this technique implies (see :data:`TECHNIQUES`)."""
        return GRADE_OF.get(self.technique, "Diabolical")


def bits_to_digits(mask: int) -> tuple[Digit, ...]:
    """The digits whose bits are set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return tuple(out)


@dataclass(frozen=True)
class Tables:
    """Lookup tables for one geometry, built once (see :func:`tables_for`)."""

    geometry: Geometry
    house_cells: tuple[tuple[Cell, ...], ...]
    peer_sets: tuple[frozenset[Cell], ...]
    rows: tuple[int, ...]  # house indices of the rows, top to bottom
    cols: tuple[int, ...]
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    # (a, b, a∩b) for houses whose overlap has two or more cells and b reaches beyond a.
    intersections: tuple[tuple[int, int, frozenset[Cell]], ...]
    # Bitboards (bit ``c`` stands for cell ``c``): a cell's peers, a house's cells. The hot
    # searches reject candidates patterns with a few int operations before building lists.
    peer_bits: tuple[int, ...] = ()
    house_bits: tuple[int, ...] = ()
    # Per intersection: A's cells inside and outside the overlap, B's cells outside it (in
    # house order), so the pointing scan needs no set lookups.
    intersection_parts: tuple[tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[Cell, ...]], ...] = ()
    # Per house, a function from all masks to the house's masks (a tuple, for memo keys).
    house_masks: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...] = ()

    def sees(self, a: Cell, b: Cell) -> bool:
        """True when two distinct cells share a house."""
        return b in self.peer_sets[a]


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries come from user input
def tables_for(geometry: Geometry) -> Tables:
    """The (cached) tables for a geometry."""
    houses = geometry.houses
    cells = tuple(h.cells for h in houses)
    rows = tuple(sorted((i for i, h in enumerate(houses) if h.kind == "row"), key=_index(houses)))
    cols = tuple(
        sorted((i for i, h in enumerate(houses) if h.kind == "column"), key=_index(houses))
    )
    n = geometry.size
    pairs = []
    sets = [frozenset(c) for c in cells]
    for a, b in combinations(range(len(houses)), 2):
        common = sets[a] & sets[b]
        if len(common) < 2:
            continue
        if sets[b] - common:
            pairs.append((a, b, common))
        if sets[a] - common:
            pairs.append((b, a, common))
    # Pointing (box -> line) reads easier than claiming (line -> box): try boxes first.
    pairs.sort(key=lambda p: (houses[p[0]].kind in ("row", "column"), p[0], p[1]))
    return Tables(
        geometry=geometry,
        house_cells=cells,
        peer_sets=tuple(frozenset(p) for p in geometry.peers),
        rows=rows,
        cols=cols,
        row_of=tuple(c // n for c in range(n * n)),
        col_of=tuple(c % n for c in range(n * n)),
        intersections=tuple(pairs),
        peer_bits=tuple(_bitboard(p) for p in geometry.peers),
        house_bits=tuple(_bitboard(c) for c in cells),
        house_masks=tuple(_getter(c) for c in cells),
        intersection_parts=tuple(
            (
                tuple(c for c in cells[a] if c in common),
                tuple(c for c in cells[a] if c not in common),
                tuple(c for c in cells[b] if c not in common),
            )
            for a, b, common in pairs
        ),
    )


def _getter(cells: tuple[Cell, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    pick = operator.itemgetter(*cells)
    if len(cells) == 1:
        return lambda masks: (pick(masks),)
    return pick


def _bitboard(cells: Iterable[Cell]) -> int:
    board = 0
    for c in cells:
        board |= 1 << c
    return board


# Per-digit techniques (fish, finned fish, skyscraper, kite, simple colouring) depend only on
# where a digit can still go, and the subsets only on one house's candidates. Inside
# :func:`remembering`, a digit (house) searched in vain by a technique is skipped while its
# places (candidates) stay the same: the explanation's ladder reruns every rung after each
# step, and most digits and houses do not change in between.
_failed: ContextVar[set[tuple[str, int, object]] | None] = ContextVar("_failed", default=None)


@contextmanager
def remembering() -> Iterator[None]:
    """Within this block, techniques skip digits where they failed on the same places."""
    token = _failed.set(set())
    try:
        yield
    finally:
        _failed.reset(token)


# One slot: the ladder asks for the same position's digit boards many times in a row. A
# single tuple is swapped in whole, so threads never see a mismatched pair.
_last_boards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


def digit_boards(cand: Candidates) -> tuple[int, ...]:
    """Per digit (index ``d - 1``), the bitboard of the open cells where ``d`` can go."""
    global _last_boards
    masks, boards = _last_boards
    if masks is cand.masks:
        return boards
    out = [0] * math.isqrt(len(cand.masks))  # one per digit: N*N cells hold N digits
    for c, m in enumerate(cand.masks):
        cell = 1 << c
        while m:
            low = m & -m
            out[low.bit_length() - 1] |= cell
            m ^= low
    boards = tuple(out)
    _last_boards = (cand.masks, boards)
    return boards


def digit_board(cand: Candidates, bit: int) -> int:
    """The bitboard of the open cells where the digit with ``bit`` is a candidate."""
    board = 0
    for c, m in enumerate(cand.masks):
        if m & bit:
            board |= 1 << c
    return board


def _index(houses: Sequence[House]) -> Callable[[int], int]:
    return lambda i: houses[i].index


# ---------------------------------------------------------------------------------------------
# Wording helpers: every sentence names cells as r4c7, houses by name, digits by symbol.


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _or(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _cells(geo: Geometry, cells: Iterable[Cell]) -> str:
    return _and([geo.cell_name(c) for c in cells])


def _digits(geo: Geometry, digits: Iterable[Digit]) -> str:
    return _and([geo.symbol(d) for d in digits])


def _removals(geo: Geometry, elims: Sequence[tuple[Cell, Digit]]) -> str:
    """``r7c3 (2), r8c3 (2, 8)``: eliminations grouped by cell."""
    by_cell: dict[Cell, list[Digit]] = {}
    for cell, digit in elims:
        by_cell.setdefault(cell, []).append(digit)
    parts = [
        f"{geo.cell_name(c)} ({', '.join(geo.symbol(d) for d in sorted(ds))})"
        for c, ds in sorted(by_cell.items())
    ]
    return _and(parts)


def _removal_of(geo: Geometry, digit: Digit, elims: Sequence[tuple[Cell, Digit]]) -> str:
    """``5 is removed from r2c5 and r2c7`` for eliminations of one digit."""
    return f"{geo.symbol(digit)} is removed from {_cells(geo, sorted(c for c, _ in elims))}"


def _which(elims: Sequence[tuple[Cell, Digit]]) -> str:
    return "which sees" if len({c for c, _ in elims}) == 1 else "which see"


def _step(
    technique: str,
    sentence: str,
    before: Candidates,
    *,
    houses: Iterable[House] = (),
    cells: Iterable[Cell] = (),
    placements: Iterable[tuple[Cell, Digit]] = (),
    eliminations: Iterable[tuple[Cell, Digit]] = (),
) -> Step:
    return Step(
        technique,
        sentence,
        tuple(houses),
        tuple(cells),
        tuple(placements),
        tuple(sorted(set(eliminations))),
        before,
    )


def _places(cand: Candidates, cells: Iterable[Cell], bit: int) -> list[Cell]:
    """The cells among ``cells`` where the digit with ``bit`` is still a candidate."""
    masks = cand.masks
    return [c for c in cells if masks[c] & bit]


# ---------------------------------------------------------------------------------------------
# Contradictions: a position no technique should reason from (a wrong digit in a user's grid).


def contradiction(cand: Candidates, t: Tables) -> Step | None:
    """A step naming the first impossibility (a doubled digit, an empty cell or house)."""
    geo = t.geometry
    for house in geo.houses:
        seen: dict[Digit, Cell] = {}
        for cell in house.cells:
            v = cand.values[cell]
            if v and v in seen:
                other = seen[v]
                sentence = (
                    f"{geo.cell_name(other)} and {geo.cell_name(cell)} both hold "
                    f"{geo.symbol(v)} in {house.name}, so a digit placed earlier is wrong."
                )
                return _step("Contradiction", sentence, cand, houses=[house], cells=[other, cell])
            seen[v] = cell
    for cell, (v, m) in enumerate(zip(cand.values, cand.masks, strict=True)):
        if not v and not m:
            sentence = (
                f"{geo.cell_name(cell)} has no candidate left, so a digit placed earlier is wrong."
            )
            return _step("Contradiction", sentence, cand, cells=[cell])
    for house in geo.houses:
        placed = 0
        possible = 0
        for cell in house.cells:
            v = cand.values[cell]
            if v:
                placed |= 1 << (v - 1)
            possible |= cand.masks[cell]
        missing = ((1 << geo.size) - 1) & ~placed & ~possible
        if missing:
            d = bits_to_digits(missing)[0]
            sentence = (
                f"{geo.symbol(d)} can no longer go anywhere in {house.name}, "
                "so a digit placed earlier is wrong."
            )
            return _step("Contradiction", sentence, cand, houses=[house], cells=house.cells)
    return None


# ---------------------------------------------------------------------------------------------
# Singles


def hidden_single(cand: Candidates, t: Tables) -> Step | None:
    """A digit with one place left in a house goes there."""
    geo = t.geometry
    masks = cand.masks
    for house in geo.houses:
        once = twice = 0
        for cell in house.cells:
            m = masks[cell]
            twice |= once & m
            once |= m
        only = once & ~twice
        if not only:
            continue
        d = bits_to_digits(only)[0]
        bit = 1 << (d - 1)
        cell = next(c for c in house.cells if masks[c] & bit)
        sentence = (
            f"In {house.name}, {geo.symbol(d)} can only go in {geo.cell_name(cell)}, "
            "so it goes there."
        )
        return _step(
            "Hidden single", sentence, cand, houses=[house], cells=[cell], placements=[(cell, d)]
        )
    return None


def naked_single(cand: Candidates, t: Tables) -> Step | None:
    """An open cell with one candidate left takes it."""
    geo = t.geometry
    for cell, m in enumerate(cand.masks):
        if m and not m & (m - 1):
            d = m.bit_length()
            sentence = (
                f"{geo.cell_name(cell)} has only one candidate left, {geo.symbol(d)}, "
                "so it goes there."
            )
            return _step("Naked single", sentence, cand, cells=[cell], placements=[(cell, d)])
    return None


# ---------------------------------------------------------------------------------------------
# Intersections: pointing and box/line reduction, for any two overlapping houses.


def intersection(cand: Candidates, t: Tables) -> Step | None:
    """When a digit's places in house A all lie in house B too, B's other cells lose it."""
    geo = t.geometry
    houses = geo.houses
    masks = cand.masks
    for (a, b, common), (a_in, a_out, b_out) in zip(
        t.intersections, t.intersection_parts, strict=True
    ):
        inside = 0
        for cell in a_in:
            inside |= masks[cell]
        if not inside:
            continue
        outside = 0
        for cell in a_out:
            outside |= masks[cell]
        only_inside = inside & ~outside
        if not only_inside:
            continue
        beyond = 0
        for cell in b_out:
            beyond |= masks[cell]
        if not only_inside & beyond:
            continue  # nothing to remove in B (the loop below would find no targets)
        for d in bits_to_digits(only_inside):
            bit = 1 << (d - 1)
            targets = [c for c in t.house_cells[b] if c not in common and masks[c] & bit]
            if not targets:
                continue
            ha, hb = houses[a], houses[b]
            line = ("row", "column")
            name = "Box/line reduction" if ha.kind in line else "Pointing"
            spots = _places(cand, sorted(common), bit)
            elims = [(c, d) for c in targets]
            sentence = (
                f"In {ha.name}, {geo.symbol(d)} can only go in {_cells(geo, spots)}, all in "
                f"{hb.name}; so {hb.name}'s {geo.symbol(d)} is one of them, and "
                f"{_removal_of(geo, d, elims)}."
            )
            return _step(name, sentence, cand, houses=[ha, hb], cells=spots, eliminations=elims)
    return None


# ---------------------------------------------------------------------------------------------
# Subsets: naked and hidden pairs, triples and quads in any house.

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked_subset(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def naked(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        masks = cand.masks
        memo = _failed.get()
        for h, house in enumerate(geo.houses):
            key = None if memo is None else (f"Naked {size}", h, t.house_masks[h](masks))
            if memo is not None and key in memo:
                continue  # searched in vain before: same candidates
            open_cells = [c for c in house.cells if masks[c]]
            if len(open_cells) <= size:
                continue
            small = [c for c in open_cells if masks[c].bit_count() <= size]
            for group in combinations(small, size):
                union = 0
                for c in group:
                    union |= masks[c]
                if union.bit_count() != size:
                    continue
                elims = [
                    (c, d)
                    for c in open_cells
                    if c not in group
                    for d in bits_to_digits(masks[c] & union)
                ]
                if not elims:
                    continue
                digits = bits_to_digits(union)
                sentence = (
                    f"In {house.name}, {_cells(geo, group)} can only hold {_digits(geo, digits)} "
                    f"between them, so no other cell of {house.name} can: remove "
                    f"{_removals(geo, elims)}."
                )
                return _step(
                    f"Naked {_SUBSET_NAMES[size]}",
                    sentence,
                    cand,
                    houses=[house],
                    cells=group,
                    eliminations=elims,
                )
            if memo is not None and key is not None:
                memo.add(key)  # nothing in this house with these candidates
        return None

    naked.__doc__ = f"{size} cells of a house holding only {size} digits keep them to themselves."
    return naked


def _hidden_subset(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def hidden(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        masks = cand.masks
        memo = _failed.get()
        for h, house in enumerate(geo.houses):
            key = None if memo is None else (f"Hidden {size}", h, t.house_masks[h](masks))
            if memo is not None and key in memo:
                continue  # searched in vain before: same candidates
            open_cells = [c for c in house.cells if masks[c]]
            if len(open_cells) <= size:
                continue
            # Bit-sliced counts of each digit's places (at least 1, 2, ..., size + 1): the
            # digits with at most ``size`` places are known before any list is built.
            counts = [0] * (size + 1)
            for c in open_cells:
                carry = masks[c]
                for k in range(size + 1):
                    carry, counts[k] = counts[k] & carry, counts[k] | carry
                    if not carry:
                        break
            few_bits = counts[0] & ~counts[size]
            if few_bits.bit_count() < size:
                continue
            few = bits_to_digits(few_bits)
            where: dict[Digit, int] = {}  # digit -> bitmask over positions in open_cells
            for d in few:
                bit = 1 << (d - 1)
                spread = 0
                for i, c in enumerate(open_cells):
                    if masks[c] & bit:
                        spread |= 1 << i
                where[d] = spread
            for digits in combinations(few, size):
                spots = 0
                for d in digits:
                    spots |= where[d]
                if spots.bit_count() != size:
                    continue
                keep = sum(1 << (d - 1) for d in digits)
                group = [c for i, c in enumerate(open_cells) if spots >> i & 1]
                elims = [(c, d) for c in group for d in bits_to_digits(masks[c] & ~keep)]
                if not elims:
                    continue
                sentence = (
                    f"In {house.name}, {_digits(geo, digits)} can only go in "
                    f"{_cells(geo, group)}, so those cells hold nothing else: remove "
                    f"{_removals(geo, elims)}."
                )
                return _step(
                    f"Hidden {_SUBSET_NAMES[size]}",
                    sentence,
                    cand,
                    houses=[house],
                    cells=group,
                    eliminations=elims,
                )
            if memo is not None and key is not None:
                memo.add(key)  # nothing in this house with these candidates
        return None

    hidden.__doc__ = f"{size} digits confined to {size} cells of a house fill those cells."
    return hidden


naked_pair = _naked_subset(2)
naked_triple = _naked_subset(3)
naked_quad = _naked_subset(4)
hidden_pair = _hidden_subset(2)
hidden_triple = _hidden_subset(3)
hidden_quad = _hidden_subset(4)


# ---------------------------------------------------------------------------------------------
# Fish: X-wing, swordfish, jellyfish on rows and columns.

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
# Single-digit chains: skyscraper, two-string kite, simple colouring.


def _strong_links(cand: Candidates, t: Tables, bit: int) -> list[tuple[int, Cell, Cell]]:
    """(house index, a, b) for every house where the digit has exactly two places."""
    links = []
    masks = cand.masks
    on = digit_boards(cand)[bit.bit_length() - 1]
    for h, house in enumerate(t.house_bits):
        x = on & house
        rest = x & (x - 1)
        if rest and not rest & (rest - 1):  # exactly two places: list them in house order
            cells = t.house_cells[h]
            spots = [c for c in cells if masks[c] & bit]
            links.append((h, spots[0], spots[1]))
    return links


def _seeing_both(cand: Candidates, t: Tables, bit: int, a: Cell, b: Cell) -> list[Cell]:
    """Open cells holding the digit that see both ``a`` and ``b`` (neither of them)."""
    return sorted(c for c in t.peer_sets[a] & t.peer_sets[b] if cand.masks[c] & bit)


def _two_links(kind: str) -> Callable[[Candidates, Tables], Step | None]:
    def chain(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        houses = geo.houses
        lines = ("row", "column")
        memo = _failed.get()
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            key = None if memo is None else (kind, d, digit_boards(cand)[d - 1])
            if memo is not None and key in memo:
                continue  # failed before on the same places of d
            links = [link for link in _strong_links(cand, t, bit) if houses[link[0]].kind in lines]
            for (h1, p, q), (h2, r, s) in combinations(links, 2):
                k1, k2 = houses[h1].kind, houses[h2].kind
                if (kind == "Skyscraper") != (k1 == k2):
                    continue
                for a, b in ((p, q), (q, p)):
                    for c, e in ((r, s), (s, r)):
                        if len({a, b, c, e}) < 4 or not _joined(t, kind, k1, b, e):
                            continue
                        if kind == "Skyscraper" and _aligned(t, k1, a, c):
                            continue  # an X-wing, not a skyscraper
                        targets = [x for x in _seeing_both(cand, t, bit, a, c) if x not in (b, e)]
                        if not targets:
                            continue
                        sym = geo.symbol(d)
                        elims = [(x, d) for x in targets]
                        joint = _and([h.name for h in geo.shared_houses(b, e)])
                        sentence = (
                            f"{sym} must go in {geo.cell_name(a)} or {geo.cell_name(b)} "
                            f"({houses[h1].name}), and in {geo.cell_name(c)} or "
                            f"{geo.cell_name(e)} ({houses[h2].name}). {geo.cell_name(b)} and "
                            f"{geo.cell_name(e)} cannot both be {sym} ({joint}), so "
                            f"{geo.cell_name(a)} or {geo.cell_name(c)} is {sym}, and "
                            f"{_removal_of(geo, d, elims)}, {_which(elims)} both."
                        )
                        return _step(
                            kind,
                            sentence,
                            cand,
                            houses=[houses[h1], houses[h2], *geo.shared_houses(b, e)],
                            cells=[a, b, e, c],
                            eliminations=elims,
                        )
            if memo is not None and key is not None:
                memo.add(key)  # nothing for this digit on this board
        return None

    chain.__doc__ = f"{kind}: two strong links on one digit whose near ends see each other."
    return chain


def _joined(t: Tables, kind: str, line_kind: str, b: Cell, e: Cell) -> bool:
    """Skyscraper: the near ends share the crossing line; kite: they share a box (region)."""
    if kind == "Skyscraper":
        return _aligned(t, line_kind, b, e)
    return any(h.kind not in ("row", "column") for h in t.geometry.shared_houses(b, e))


def _aligned(t: Tables, line_kind: str, a: Cell, b: Cell) -> bool:
    """For links in rows: same column; for links in columns: same row."""
    if line_kind == "row":
        return t.col_of[a] == t.col_of[b]
    return t.row_of[a] == t.row_of[b]


skyscraper = _two_links("Skyscraper")
two_string_kite = _two_links("Two-string kite")


def simple_colouring(cand: Candidates, t: Tables) -> Step | None:
    """Colour a digit's strong-link chains in two colours; one colour holds every true place."""
    geo = t.geometry
    memo = _failed.get()
    for d in range(1, geo.size + 1):
        bit = 1 << (d - 1)
        key = None if memo is None else ("Simple colouring", d, digit_boards(cand)[d - 1])
        if memo is not None and key in memo:
            continue  # failed before on the same places of d
        adjacent: dict[Cell, set[Cell]] = {}
        link_houses: dict[frozenset[Cell], int] = {}
        for h, a, b in _strong_links(cand, t, bit):
            adjacent.setdefault(a, set()).add(b)
            adjacent.setdefault(b, set()).add(a)
            link_houses.setdefault(frozenset((a, b)), h)
        seen: set[Cell] = set()
        for start in sorted(adjacent):
            if start in seen:
                continue
            colour = {start: 0}
            todo = [start]
            odd = False
            while todo:
                cell = todo.pop()
                for nxt in adjacent[cell]:
                    if nxt not in colour:
                        colour[nxt] = 1 - colour[cell]
                        todo.append(nxt)
                    elif colour[nxt] == colour[cell]:
                        odd = True  # only in a contradictory position; reason from nothing
            seen.update(colour)
            if odd or len(colour) < 3:
                continue  # a lone strong link is the kite/intersection's business
            found = _colour_wrap(cand, t, d, colour) or _colour_trap(cand, t, d, colour)
            if found:
                return found
        if memo is not None and key is not None:
            memo.add(key)  # nothing for this digit on this board
    return None


def _colour_names(geo: Geometry, colour: dict[Cell, int]) -> tuple[list[Cell], list[Cell]]:
    blue = sorted(c for c, k in colour.items() if k == 0)
    green = sorted(c for c, k in colour.items() if k == 1)
    return blue, green


def _colour_wrap(cand: Candidates, t: Tables, d: Digit, colour: dict[Cell, int]) -> Step | None:
    geo = t.geometry
    blue, green = _colour_names(geo, colour)
    for name, group in (("blue", blue), ("green", green)):
        for a, b in combinations(group, 2):
            if t.sees(a, b):
                sym = geo.symbol(d)
                elims = [(c, d) for c in group]
                other = green if name == "blue" else blue
                sentence = (
                    f"Following {sym}'s strong links, either the blue cells ({_cells(geo, blue)}) "
                    f"or the green cells ({_cells(geo, green)}) all hold {sym}. Two {name} cells, "
                    f"{geo.cell_name(a)} and {geo.cell_name(b)}, see each other, so {name} is "
                    f"false: {_removal_of(geo, d, elims)} and {sym} goes in "
                    f"{_cells(geo, other)}."
                )
                return _step(
                    "Simple colouring",
                    sentence,
                    cand,
                    houses=geo.shared_houses(a, b),
                    cells=blue + green,
                    eliminations=elims,
                )
    return None


def _colour_trap(cand: Candidates, t: Tables, d: Digit, colour: dict[Cell, int]) -> Step | None:
    geo = t.geometry
    bit = 1 << (d - 1)
    blue, green = _colour_names(geo, colour)
    elims = []
    for cell, m in enumerate(cand.masks):
        if not m & bit or cell in colour:
            continue
        near = t.peer_sets[cell]
        if any(b in near for b in blue) and any(g in near for g in green):
            elims.append((cell, d))
    if not elims:
        return None
    sym = geo.symbol(d)
    sentence = (
        f"Following {sym}'s strong links, either the blue cells ({_cells(geo, blue)}) or the "
        f"green cells ({_cells(geo, green)}) all hold {sym}. Whichever it is, a cell that sees "
        f"both a blue and a green cell cannot be {sym}: {_removal_of(geo, d, elims)}."
    )
    return _step("Simple colouring", sentence, cand, cells=blue + green, eliminations=elims)


# ---------------------------------------------------------------------------------------------
# Wings: XY-wing, XYZ-wing, W-wing.


def _pair(geo: Geometry, mask: int) -> str:
    return _or([geo.symbol(d) for d in bits_to_digits(mask)])


def xy_wing(cand: Candidates, t: Tables) -> Step | None:
    """A pivot {x,y} seeing {x,z} and {y,z}: one pincer is z, so cells seeing both lose z."""
    geo = t.geometry
    masks = cand.masks
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    for pivot in bivalue:
        pm = masks[pivot]
        wings = [c for c in bivalue if t.sees(pivot, c) and (masks[c] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            ma, mb = masks[a], masks[b]
            z = ma & ~pm
            if z != mb & ~pm or (ma & pm) == (mb & pm):
                continue
            d = z.bit_length()
            targets = [x for x in _seeing_both(cand, t, z, a, b) if x != pivot]
            if not targets:
                continue
            elims = [(x, d) for x in targets]
            sym = geo.symbol(d)
            x1, y1 = (ma & pm).bit_length(), (mb & pm).bit_length()
            sentence = (
                f"{geo.cell_name(pivot)} is {_pair(geo, pm)}. If it is {geo.symbol(x1)}, "
                f"{geo.cell_name(a)} ({_pair(geo, ma)}) is {sym}; if it is {geo.symbol(y1)}, "
                f"{geo.cell_name(b)} ({_pair(geo, mb)}) is {sym}. Either way one of them is "
                f"{sym}, so {_removal_of(geo, d, elims)}, {_which(elims)} both."
            )
            return _step("XY-wing", sentence, cand, cells=[pivot, a, b], eliminations=elims)
    return None


def xyz_wing(cand: Candidates, t: Tables) -> Step | None:
    """A pivot {x,y,z} seeing {x,z} and {y,z}: one of the three is z."""
    geo = t.geometry
    masks = cand.masks
    for pivot, pm in enumerate(masks):
        if pm.bit_count() != 3:
            continue
        wings = [c for c in t.peer_sets[pivot] if masks[c].bit_count() == 2 and masks[c] & ~pm == 0]
        for a, b in combinations(sorted(wings), 2):
            ma, mb = masks[a], masks[b]
            if ma | mb != pm or ma == mb:
                continue
            z = ma & mb
            d = z.bit_length()
            targets = [x for x in _seeing_both(cand, t, z, a, b) if x != pivot and t.sees(x, pivot)]
            if not targets:
                continue
            elims = [(x, d) for x in targets]
            sym = geo.symbol(d)
            sentence = (
                f"{geo.cell_name(pivot)} is {_pair(geo, pm)}, {geo.cell_name(a)} is "
                f"{_pair(geo, ma)} and {geo.cell_name(b)} is {_pair(geo, mb)}. Whatever "
                f"{geo.cell_name(pivot)} holds, one of the three is {sym}, so "
                f"{_removal_of(geo, d, elims)}, {_which(elims)} all three."
            )
            return _step("XYZ-wing", sentence, cand, cells=[pivot, a, b], eliminations=elims)
    return None


def w_wing(cand: Candidates, t: Tables) -> Step | None:
    """Two far-apart {x,y} cells joined by a strong link on x: one of them is y."""
    geo = t.geometry
    masks = cand.masks
    houses = geo.houses
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    links_by_bit: dict[int, list[tuple[int, Cell, Cell]]] = {}
    for a, b in combinations(bivalue, 2):
        if masks[a] != masks[b] or t.sees(a, b):
            continue
        for x in bits_to_digits(masks[a]):
            xbit = 1 << (x - 1)
            ybit = masks[a] & ~xbit
            y = ybit.bit_length()
            if xbit not in links_by_bit:
                links_by_bit[xbit] = _strong_links(cand, t, xbit)
            for h, p, q in links_by_bit[xbit]:
                for c, e in ((p, q), (q, p)):
                    if c in (a, b) or e in (a, b) or not (t.sees(c, a) and t.sees(e, b)):
                        continue
                    targets = _seeing_both(cand, t, ybit, a, b)
                    if not targets:
                        continue
                    elims = [(z, y) for z in targets]
                    sx, sy = geo.symbol(x), geo.symbol(y)
                    sentence = (
                        f"{geo.cell_name(a)} and {geo.cell_name(b)} are both "
                        f"{_pair(geo, masks[a])}. In {houses[h].name}, {sx} must go in "
                        f"{geo.cell_name(c)} or {geo.cell_name(e)}; {geo.cell_name(c)} sees "
                        f"{geo.cell_name(a)} and {geo.cell_name(e)} sees {geo.cell_name(b)}, so "
                        f"one of {geo.cell_name(a)} and {geo.cell_name(b)} is not {sx} and is "
                        f"{sy}: {_removal_of(geo, y, elims)}, {_which(elims)} both."
                    )
                    return _step(
                        "W-wing",
                        sentence,
                        cand,
                        houses=[houses[h]],
                        cells=[a, c, e, b],
                        eliminations=elims,
                    )
    return None


# ---------------------------------------------------------------------------------------------
# Uniqueness: unique rectangle type 1 (only for puzzles known to have one solution).


def unique_rectangle(cand: Candidates, t: Tables) -> Step | None:
    """Three corners of a rectangle are {a,b}: the fourth must not be a or b alone.

    Sound only for a puzzle with exactly one solution, and only where swapping a and b in
    the four cells keeps every house valid: each house touching a corner must hold exactly
    two corners on one side of the rectangle (so two boxes/regions, not one or four).
    """
    geo = t.geometry
    masks = cand.masks
    n = geo.size
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    for p, q in combinations(bivalue, 2):
        if masks[p] != masks[q] or t.row_of[p] != t.row_of[q]:
            continue
        pair = masks[p]
        c1, c2 = t.col_of[p], t.col_of[q]
        for r2 in range(n):
            if r2 == t.row_of[p]:
                continue
            u, v = r2 * n + c1, r2 * n + c2
            mu, mv = masks[u], masks[v]
            for same, extra, m_extra in ((u, v, mv), (v, u, mu)):
                if masks[same] != pair or m_extra & pair != pair or m_extra == pair:
                    continue
                corners = (p, q, u, v)
                if not _swappable(t, p, q, u, v):
                    continue
                elims = [(extra, dd) for dd in bits_to_digits(pair)]
                sentence = (
                    f"{_cells(geo, sorted(corners))} form a rectangle over two {_boxes(geo)}, "
                    f"and three of them are {_pair(geo, pair)}. If {geo.cell_name(extra)} were "
                    f"just that too, the four cells could swap "
                    f"{_digits(geo, bits_to_digits(pair))} and the puzzle would have two "
                    "solutions; it has one, so "
                    f"{geo.cell_name(extra)} is neither: remove {_removals(geo, elims)}."
                )
                return _step(
                    "Unique rectangle",
                    sentence,
                    cand,
                    cells=sorted(corners),
                    eliminations=elims,
                )
    return None


def _boxes(geo: Geometry) -> str:
    return "regions" if geo.variant == "jigsaw" else "boxes"


def _swappable(t: Tables, p: Cell, q: Cell, u: Cell, v: Cell) -> bool:
    """True when every house touching the corners holds exactly two, on one side."""
    # p, q share a row; u is under p and v under q. Sides: (p, q), (u, v), (p, u), (q, v).
    sides = {frozenset((p, q)), frozenset((u, v)), frozenset((p, u)), frozenset((q, v))}
    corners = (p, q, u, v)
    touched = {h for c in corners for h in t.geometry.cell_houses[c]}
    for h in touched:
        inside = frozenset(c for c in corners if c in t.house_cells[h])
        if inside not in sides:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Fiendish extras that carry most of top95 past its first stall: finned fish, XY-chain, BUG+1.


def _finned_fish(size: int) -> Callable[[Candidates, Tables], Step | None]:
    def finned(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        masks = cand.masks
        house_bits, peer_bits = t.house_bits, t.peer_bits
        memo = _failed.get()
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            key = None if memo is None else (_FINNED_NAMES[size], d, digit_boards(cand)[d - 1])
            if memo is not None and key in memo:
                continue  # failed before on the same places of d
            on = digit_boards(cand)[bit.bit_length() - 1]
            for base, cover, position, kinds in _orientations(t):
                # Up to two fin places beyond the fish's own.
                lines = _line_spreads(t, masks, bit, base, position, size + 2)
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
                    spot_board = base_board & on
                    spread_positions = [p for p in range(geo.size) if union >> p & 1]
                    in_base: set[Cell] | None = None
                    for cover_lines in combinations(spread_positions, size):
                        # Rejected on bitboards first (most tries end here): the targets are
                        # the digit's places in the cover lines, outside the base lines,
                        # seeing every fin.
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
                        if not near_fins:
                            continue
                        targets = [
                            c
                            for p in cover_lines
                            for c in t.house_cells[cover[p]]
                            if c in near_fins and c not in in_base and masks[c] & bit
                        ]
                        if not targets:
                            continue
                        sym = geo.symbol(d)
                        elims = [(c, d) for c in targets]
                        fin = "fin" if len(fins) == 1 else "fins"
                        sentence = (
                            f"In {_plural(kinds[0], base_lines)}, {sym} can only go in "
                            f"{_plural(kinds[1], list(cover_lines))}, except for the {fin} "
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
            if memo is not None and key is not None:
                memo.add(key)  # nothing for this digit on this board
        return None

    finned.__doc__ = f"A {_FISH_NAMES[size]} with extra places (fins): targets must see them all."
    return finned


finned_x_wing = _finned_fish(2)
finned_swordfish = _finned_fish(3)

# Chains longer than this read poorly and add almost nothing on top95.
MAX_CHAIN_CELLS = 12


def xy_chain(cand: Candidates, t: Tables) -> Step | None:
    """A chain of two-candidate cells: if the first is not z, the last is z; cells seeing both
    ends lose z. The shortest chain with an elimination is shown."""
    geo = t.geometry
    masks = cand.masks
    bivalue = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    near = {c: [n for n in bivalue if t.sees(c, n)] for c in bivalue}
    best: tuple[list[tuple[Cell, Digit]], Digit, list[Cell]] | None = None
    for start in bivalue:
        for z in bits_to_digits(masks[start]):
            zbit = 1 << (z - 1)
            x = (masks[start] & ~zbit).bit_length()
            parent: dict[tuple[Cell, Digit], tuple[Cell, Digit] | None] = {(start, x): None}
            frontier = [(start, x)]
            length = 1
            while frontier and length < MAX_CHAIN_CELLS:
                if best is not None and length + 1 >= len(best[0]):
                    break
                length += 1
                following = []
                for cell, val in frontier:
                    vbit = 1 << (val - 1)
                    for n in near[cell]:
                        if n == start or not masks[n] & vbit:
                            continue
                        key = (n, (masks[n] & ~vbit).bit_length())
                        if key in parent:
                            continue
                        parent[key] = (cell, val)
                        following.append(key)
                        if key[1] != z or length < 3:
                            continue
                        targets = [c for c in _seeing_both(cand, t, zbit, start, n)]
                        if targets:
                            chain = [key]
                            back = parent[key]
                            while back is not None:
                                chain.append(back)
                                back = parent[back]
                            chain.reverse()
                            best = (chain, z, targets)
                            break
                    if best is not None and len(best[0]) == length:
                        break
                frontier = following
    if best is None:
        return None
    chain, z, targets = best
    start, end = chain[0][0], chain[-1][0]
    sym = geo.symbol(z)
    links = [f"if {geo.cell_name(start)} is not {sym}, it is {geo.symbol(chain[0][1])}"]
    links += [f"{geo.cell_name(c)} is {geo.symbol(v)}" for c, v in chain[1:]]
    elims = [(c, z) for c in targets]
    sentence = (
        f"Along the chain of two-candidate cells, {', so '.join(links)}. So "
        f"{geo.cell_name(start)} or {geo.cell_name(end)} is {sym}, and "
        f"{_removal_of(geo, z, elims)}, {_which(elims)} both."
    )
    return _step("XY-chain", sentence, cand, cells=[c for c, _ in chain], eliminations=elims)


def bug_plus_one(cand: Candidates, t: Tables) -> Step | None:
    """Bivalue universal grave + 1: all open cells have two candidates but one, which has
    three; unless it takes the digit that has three places in its houses, the puzzle would
    have no solution or two. Only on classic boxed grids (where the BUG argument is known)."""
    geo = t.geometry
    if geo.variant != "standard":
        return None
    masks = cand.masks
    odd = [c for c, m in enumerate(masks) if m and m.bit_count() != 2]
    if len(odd) != 1 or masks[odd[0]].bit_count() != 3:
        return None
    cell = odd[0]
    for d in bits_to_digits(masks[cell]):
        bit = 1 << (d - 1)
        trial = list(masks)
        trial[cell] &= ~bit
        if all(
            sum(1 for c in cells if trial[c] & (1 << (k - 1))) in (0, 2)
            for cells in t.house_cells
            for k in range(1, geo.size + 1)
        ):
            sentence = (
                f"Every open cell but {geo.cell_name(cell)} has two candidates. If "
                f"{geo.cell_name(cell)} were not {geo.symbol(d)}, every digit would have "
                "exactly two places in each house that still needs it, a deadly pattern "
                f"with no solution or two; the puzzle has one, so {geo.cell_name(cell)} is "
                f"{geo.symbol(d)}."
            )
            return _step("BUG+1", sentence, cand, cells=[cell], placements=[(cell, d)])
    return None


Node = tuple[Cell, Digit]  # "this cell holds this digit"


def _strong_graph(cand: Candidates, t: Tables) -> dict[Node, list[Node]]:
    """Strong links between candidates: one of the two must be true.

    Two digits of a two-candidate cell, and a digit's two places in a house.
    """
    masks = cand.masks
    strong: dict[Node, list[Node]] = {}
    for cell, m in enumerate(masks):
        if m.bit_count() == 2:
            a, b = bits_to_digits(m)
            strong.setdefault((cell, a), []).append((cell, b))
            strong.setdefault((cell, b), []).append((cell, a))
    for d in range(1, t.geometry.size + 1):
        for _h, a, b in _strong_links(cand, t, 1 << (d - 1)):
            strong.setdefault((a, d), []).append((b, d))
            strong.setdefault((b, d), []).append((a, d))
    return strong


def alternating_chain(cand: Candidates, t: Tables) -> Step | None:
    """An alternating inference chain: strong and weak links in turn between candidates.

    Assume the first candidate false; each strong link then makes the next true and each weak
    link (same cell, or same digit in cells that see each other) the next false. The chain
    ends on a true candidate, so the first or the last is true, and whatever contradicts both
    goes. Only candidates with a strong link can carry the chain, which keeps the search
    small. The shortest chain with an elimination is shown; all one digit is an X-chain.
    """
    masks = cand.masks
    strong = _strong_graph(cand, t)
    weak: dict[Node, list[Node]] = {}
    for cell, d in strong:
        near = [(cell, e) for e in bits_to_digits(masks[cell]) if e != d and (cell, e) in strong]
        near += [(p, d) for p in t.peer_sets[cell] if (p, d) in strong]
        weak[(cell, d)] = near
    best: list[Node] | None = None
    best_elims: list[tuple[Cell, Digit]] = []
    for start in sorted(strong):
        # parent links, keyed by (node, is_true); the start is assumed false.
        parent: dict[tuple[Node, bool], tuple[Node, bool] | None] = {(start, False): None}
        frontier = [(start, False)]
        length = 1
        while frontier and length < MAX_CHAIN_CELLS:
            if best is not None and length + 1 >= len(best):
                break
            length += 1
            following: list[tuple[Node, bool]] = []
            for node, true in frontier:
                for nxt in weak[node] if true else strong[node]:
                    key = (nxt, not true)
                    if key in parent or nxt == start:
                        continue
                    parent[key] = (node, true)
                    following.append(key)
                    if true or length < 4:
                        continue  # a chain ends on a strong link, after at least one weak
                    elims = _chain_eliminations(cand, t, start, nxt)
                    if elims and (best is None or length < len(best)):
                        chain = [nxt]
                        back = parent[key]
                        while back is not None:
                            chain.append(back[0])
                            back = parent[back]
                        best, best_elims = chain[::-1], elims
            frontier = following
    if best is None:
        return None
    return _chain_step(cand, t, best, best_elims)


def _chain_eliminations(cand: Candidates, t: Tables, a: Node, b: Node) -> list[tuple[Cell, Digit]]:
    """What contradicts both ends of a chain, one of which is true."""
    masks = cand.masks
    (ca, da), (cb, db) = a, b
    if da == db and ca != cb:
        return [(c, da) for c in _seeing_both(cand, t, 1 << (da - 1), ca, cb)]
    if ca == cb:
        keep = (1 << (da - 1)) | (1 << (db - 1))
        return [(ca, d) for d in bits_to_digits(masks[ca] & ~keep)]
    if t.sees(ca, cb):
        out = []
        if masks[ca] >> (db - 1) & 1:
            out.append((ca, db))
        if masks[cb] >> (da - 1) & 1:
            out.append((cb, da))
        return out
    return []


def _chain_step(
    cand: Candidates, t: Tables, chain: list[Node], elims: list[tuple[Cell, Digit]]
) -> Step:
    geo = t.geometry

    def says(node: Node, true: bool) -> str:
        cell, d = node
        return f"{geo.cell_name(cell)} {'is' if true else 'is not'} {geo.symbol(d)}"

    parts = [says(node, i % 2 == 1) for i, node in enumerate(chain[1:], start=1)]
    single_digit = len({d for _, d in chain}) == 1
    name = "X-chain" if single_digit else "Alternating chain"
    first, last = chain[0], chain[-1]
    sentence = (
        f"Following strong and weak links in turn: if {says(chain[0], False)}, then "
        f"{', so '.join(parts)}. So "
        f"{says(first, True)} or {says(last, True)}, and whatever contradicts both goes: "
        f"remove {_removals(geo, elims)}."
    )
    return _step(name, sentence, cand, cells=[c for c, _ in chain], eliminations=elims)


# ---------------------------------------------------------------------------------------------
# The ladder: easiest first. Grades map the hardest rung a solve needs to a named scale.

Technique = Callable[[Candidates, Tables], "Step | None"]

TECHNIQUES: tuple[tuple[str, Grade, Technique], ...] = (
    ("Hidden single", "Easy", hidden_single),
    ("Naked single", "Easy", naked_single),
    ("Pointing", "Medium", intersection),  # also yields "Box/line reduction"
    ("Naked pair", "Medium", naked_pair),
    ("Hidden pair", "Medium", hidden_pair),
    ("Naked triple", "Medium", naked_triple),
    ("Hidden triple", "Medium", hidden_triple),
    ("X-wing", "Hard", x_wing),
    ("Skyscraper", "Hard", skyscraper),
    ("Two-string kite", "Hard", two_string_kite),
    ("Naked quad", "Hard", naked_quad),
    ("Hidden quad", "Hard", hidden_quad),
    ("XY-wing", "Hard", xy_wing),
    ("Swordfish", "Hard", swordfish),
    ("XYZ-wing", "Fiendish", xyz_wing),
    ("W-wing", "Fiendish", w_wing),
    ("Simple colouring", "Fiendish", simple_colouring),
    ("Jellyfish", "Fiendish", jellyfish),
    ("Finned X-wing", "Fiendish", finned_x_wing),
    ("Unique rectangle", "Fiendish", unique_rectangle),
    ("BUG+1", "Fiendish", bug_plus_one),
    ("Finned swordfish", "Fiendish", finned_swordfish),
    ("XY-chain", "Fiendish", xy_chain),
    ("X-chain", "Fiendish", alternating_chain),  # also yields "Alternating chain"
)

# Techniques that assume the puzzle has exactly one solution.
UNIQUENESS = frozenset({"Unique rectangle", "BUG+1"})

GRADE_OF: dict[str, Grade] = {name: grade for name, grade, _ in TECHNIQUES}
GRADE_OF["Box/line reduction"] = "Medium"
GRADE_OF["Alternating chain"] = "Fiendish"
GRADE_OF["Guess"] = "Diabolical"
GRADE_OF["Contradiction"] = "Diabolical"

# Every technique name a step can carry, easiest first (for ordered counts).
ORDER: tuple[str, ...] = (
    "Hidden single",
    "Naked single",
    "Pointing",
    "Box/line reduction",
    *(name for name, _, _ in TECHNIQUES[3:]),
    "Alternating chain",
    "Guess",
)
