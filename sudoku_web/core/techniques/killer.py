"""Killer techniques: what cage sums tell, on any board with cages.

Vocabulary (on top of :mod:`.base`; the arithmetic is :mod:`.sums`):

cage
    Cells whose digits differ and add up to its total (:attr:`Geometry.cages
    <sudoku_web.core.board.Geometry.cages>`). A sentence names one by its total and its
    first cell, where the total is printed: "the 17-cage at r1c1".
combination
    A set of distinct digits making a cage's sum ("17 in two cells is 8+9"). Digits already
    placed in a cage are taken off its total first: its open cells form a smaller cage.
region
    One house, or a band of neighbouring rows or columns, or two neighbouring boxes: cells
    holding every digit once per house, so they add up to N(N+1)/2 per house (45 on 9x9).
innies and outies
    The 45 rule: the cages wholly inside a region add up to part of its total; the rest is
    held by its cells outside those cages (innies), or, for a cage reaching out of the
    region, by that cage's total less its cells outside the region (outies).

Techniques (each returns the first step it finds, cages named in ``Step.cages`` so a page
can outline them): :func:`cage_combination`, :func:`cage_overlap` (a digit a cage needs,
confined to one house, or a house's digit confined to one cage) and :func:`innies_outies`;
:func:`cage_contradiction` names a cage that can no longer make its sum.

Roads not taken: a cage's pencil marks are not reduced to its combinations before the
first step, because "17 in two cells is 8+9" is the first thing a person is taught; the
engine's reduce (the search page's pencil marks) does it at once. Regions stop at unions of
neighbouring rows, columns or two boxes: wider unions add cells to every sum and rarely a step.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..board import Cage, Geometry, House
from ..cages import combinations
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _and,
    _cells,
    _digits,
    _first_found,
    _or,
    _step,
    bits_to_digits,
)
from .sums import MAX_SIGNED_CELLS, distinct_sum, signed_sum

_PLURAL = {"row": "rows", "column": "columns", "box": "boxes", "region": "regions"}
_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


@dataclass(frozen=True)
class Region:
    """Cells holding every digit once per house, and how the cages meet them."""

    name: str
    houses: tuple[House, ...]
    total: int  # what the region's digits add up to
    inside: tuple[int, ...]  # cages wholly inside (indices into geometry.cages)
    # Cages partly inside: (cage, its cells inside, its cells outside).
    partial: tuple[tuple[int, tuple[Cell, ...], tuple[Cell, ...]], ...]
    loose: tuple[Cell, ...]  # the region's cells in no cage
    watched: tuple[Cell, ...]  # every cell an equation of the region reads


@dataclass(frozen=True)
class CageTables:
    """What the killer techniques look up on one board with cages, built once."""

    cage_of: tuple[int, ...]  # per cell, its cage's index, or -1
    order: tuple[int, ...]  # cages in the order they are tried: fewest combinations first
    regions: tuple[Region, ...]
    # Per cage and per region: a function from all masks (or values) to its cells' ones.
    cage_state: tuple[Callable[[Sequence[int]], object], ...]
    region_state: tuple[Callable[[Sequence[int]], object], ...]
    # Per house: the same over its cells and the cells of every cage meeting it.
    house_state: tuple[Callable[[Sequence[int]], object], ...]


@functools.lru_cache(maxsize=16)  # bounded: killers come from user input
def cage_tables(geometry: Geometry) -> CageTables:
    """The (cached) killer tables of a board with cages."""
    cages = geometry.cages
    cage_of = [-1] * geometry.cells
    for i, cage in enumerate(cages):
        for cell in cage.cells:
            cage_of[cell] = i
    order = sorted(
        range(len(cages)),
        key=lambda i: (
            len(combinations(geometry.size, len(cages[i].cells), cages[i].total)),
            cages[i].cells[0],
        ),
    )
    regions = _regions(geometry, cage_of)
    return CageTables(
        cage_of=tuple(cage_of),
        order=tuple(order),
        regions=regions,
        cage_state=tuple(_getter(c.cells) for c in cages),
        region_state=tuple(_getter(r.watched) for r in regions),
        house_state=tuple(
            _getter(
                sorted(
                    {*h.cells}.union(*(cages[cage_of[c]].cells for c in h.cells if cage_of[c] >= 0))
                )
            )
            for h in geometry.houses
        ),
    )


def _getter(cells: Sequence[Cell]) -> Callable[[Sequence[int]], object]:
    pick = operator.itemgetter(*cells)
    if len(cells) == 1:
        return lambda values: (pick(values),)
    return pick


def _regions(geometry: Geometry, cage_of: Sequence[int]) -> tuple[Region, ...]:
    """Every house, every band of 2..N-1 neighbouring rows or columns, every two boxes (or
    jigsaw regions) side by side, each as a :class:`Region` (same cells only once)."""
    houses = geometry.houses
    n = geometry.size
    groups: list[tuple[str, tuple[House, ...]]] = [(h.name, (h,)) for h in houses]
    for kind in ("row", "column"):
        lines = sorted((h for h in houses if h.kind == kind), key=lambda h: h.index)
        for width in range(2, len(lines)):
            for start in range(len(lines) - width + 1):
                band = tuple(lines[start : start + width])
                name = f"{_PLURAL[kind]} {band[0].index + 1}-{band[-1].index + 1}"
                groups.append((name, band))
    boxes = [h for h in houses if h.kind in ("box", "region")]
    for i, a in enumerate(boxes):
        near = {c + d for c in a.cells for d in (1, -1, n, -n)}
        for b in boxes[i + 1 :]:
            if near & set(b.cells) and _side_by_side(a, b, n):
                groups.append((f"{_PLURAL[a.kind]} {a.index + 1} and {b.index + 1}", (a, b)))
    seen: set[frozenset[Cell]] = set()
    out = []
    for name, group in groups:
        cells = frozenset(c for h in group for c in h.cells)
        if cells in seen or len(cells) == geometry.cells:
            continue
        seen.add(cells)
        out.append(_region(geometry, name, group, cells, cage_of))
    return tuple(out)


def _side_by_side(a: House, b: House, n: int) -> bool:
    """True when a cell of ``a`` and a cell of ``b`` are next to each other in a row or column."""
    cells = set(b.cells)
    for c in a.cells:
        if (c % n and c - 1 in cells) or (c % n < n - 1 and c + 1 in cells):
            return True
        if c - n in cells or c + n in cells:
            return True
    return False


def _region(
    geometry: Geometry,
    name: str,
    group: tuple[House, ...],
    cells: frozenset[Cell],
    cage_of: Sequence[int],
) -> Region:
    n = geometry.size
    inside: list[int] = []
    partial = []
    touched = sorted({cage_of[c] for c in cells if cage_of[c] >= 0})
    for i in touched:
        cage = geometry.cages[i]
        within = tuple(c for c in cage.cells if c in cells)
        beyond = tuple(c for c in cage.cells if c not in cells)
        if beyond:
            partial.append((i, within, beyond))
        else:
            inside.append(i)
    loose = tuple(sorted(c for c in cells if cage_of[c] < 0))
    watched = sorted({*loose, *(c for _, a, b in partial for c in (*a, *b))})
    return Region(
        name=name,
        houses=group,
        total=len(group) * n * (n + 1) // 2,
        inside=tuple(inside),
        partial=tuple(partial),
        loose=loose,
        watched=tuple(watched) or tuple(sorted(cells))[:1],
    )


def cage_name(geometry: Geometry, cage: Cage) -> str:
    """``the 17-cage at r1c1``: a cage by its total and the cell its total is printed in."""
    return f"the {cage.total}-cage at {geometry.cell_name(cage.cells[0])}"


def _count(k: int) -> str:
    return _NUMBER.get(k, str(k))


def _sums(geo: Geometry, sets: Sequence[int]) -> str:
    """``1+2+6, 1+3+5 or 2+3+4``: digit sets as sums."""
    ordered = sorted(bits_to_digits(s) for s in sets)
    return _or(["+".join(geo.symbol(d) for d in digits) for digits in ordered])


def _outcome(
    geo: Geometry, cells: Sequence[Cell], masks: Sequence[int], support: Sequence[int]
) -> tuple[list[tuple[Cell, Digit]], list[tuple[Cell, Digit]], str]:
    """The placements and eliminations where ``support`` narrows ``masks``, and the words
    for them ("r1c1 is 8; r1c2 and r1c3 keep only 1 and 2")."""
    placements: list[tuple[Cell, Digit]] = []
    eliminations: list[tuple[Cell, Digit]] = []
    keeps: dict[int, list[Cell]] = {}
    for cell, mask, keep in zip(cells, masks, support, strict=True):
        if not mask or not mask & ~keep:
            continue
        if keep and not keep & (keep - 1):
            placements.append((cell, keep.bit_length()))
        else:
            eliminations.extend((cell, d) for d in bits_to_digits(mask & ~keep))
            keeps.setdefault(keep, []).append(cell)
    words = [f"{geo.cell_name(c)} is {geo.symbol(d)}" for c, d in placements]
    for keep, group in keeps.items():
        verb = "keeps" if len(group) == 1 else "keep"
        words.append(f"{_cells(geo, group)} {verb} only {_digits(geo, bits_to_digits(keep))}")
    return placements, eliminations, "; ".join(words)


def _open_part(cand: Candidates, cage: Cage) -> tuple[list[Cell], int, int]:
    """A cage's open cells, what they must add up to, and the digits placed in it (bits)."""
    values = cand.values
    open_cells = [c for c in cage.cells if not values[c]]
    placed = 0
    for c in cage.cells:
        if values[c]:
            placed |= 1 << (values[c] - 1)
    return open_cells, cage.total - sum(values[c] for c in cage.cells), placed


@functools.lru_cache(maxsize=4096)  # bounded: the ladder asks the same cage many times
def _fills(
    masks: tuple[int, ...], total: int, size: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return distinct_sum(masks, total, size)


# ---------------------------------------------------------------------------------------------
# Cage combinations


def cage_combination(cand: Candidates, t: Tables) -> Step | None:
    """A cage's open cells keep only the digits some combination of its sum puts there."""
    geo = t.geometry
    if not geo.cages:
        return None
    kt = cage_tables(geo)
    masks, values = cand.masks, cand.values
    return _first_found(
        "Cage combination",
        kt.order,
        lambda i: (kt.cage_state[i](masks), kt.cage_state[i](values)),
        lambda i: _combination(cand, t, i),
    )


def _combination(cand: Candidates, t: Tables, index: int) -> Step | None:
    geo = t.geometry
    cage = geo.cages[index]
    open_cells, rest, placed = _open_part(cand, cage)
    if not open_cells:
        return None
    masks = tuple(cand.masks[c] & ~placed for c in open_cells)
    support, fits = _fills(masks, rest, geo.size)
    if not fits:
        return _dead_cage(cand, geo, index, rest)
    full = tuple(cand.masks[c] for c in open_cells)
    placements, eliminations, outcome = _outcome(geo, open_cells, full, support)
    if not placements and not eliminations:
        return None
    k = len(open_cells)
    every = combinations(geo.size, k, rest)
    head = cage_name(geo, cage)
    head = head[0].upper() + head[1:]
    if placed:
        done = sorted(cand.values[c] for c in cage.cells if cand.values[c])
        head += (
            f" already holds {_digits(geo, done)}, so its other {_count(k)} "
            f"{'cell holds' if k == 1 else 'cells add up to'} {rest}"
        )
    else:
        head += f" has {_count(k)} cells"
    if k == 1:
        reason = ""
    elif len(every) == len(fits) and len(fits) <= 4:
        verb = "is" if len(fits) == 1 else "is one of" if len(fits) > 2 else "is either"
        reason = f": {rest} in {_count(k)} cells {verb} {_sums(geo, fits)}"
    elif len(fits) <= 4:
        reason = (
            f": of the {len(every)} ways to make {rest} in {_count(k)} cells, only "
            f"{_sums(geo, fits)} {'fits' if len(fits) == 1 else 'fit'} the candidates left"
        )
    else:
        reason = (
            f": {len(fits)} ways to make {rest} in {_count(k)} cells fit the candidates left, "
            "and none of them puts the other digits where they are removed"
        )
    sentence = f"{head}{reason}; so {outcome}."
    return _step(
        "Cage combination",
        sentence,
        cand,
        cells=open_cells,
        placements=placements,
        eliminations=eliminations,
        cages=(index,),
    )


# ---------------------------------------------------------------------------------------------
# Cage/house overlap


def cage_overlap(cand: Candidates, t: Tables) -> Step | None:
    """A digit every combination of a cage needs, whose places in the cage all see a cell
    outside it, leaves that cell; a house's digit whose places all lie in one cage is that
    cage's, so the cage's other cells lose it (and the combinations without it go)."""
    geo = t.geometry
    if not geo.cages:
        return None
    kt = cage_tables(geo)
    masks, values = cand.masks, cand.values
    step = _first_found(
        "Cage/house overlap",
        kt.order,
        lambda i: (kt.cage_state[i](masks), kt.cage_state[i](values)),
        lambda i: _needed_digit(cand, t, i),
    )
    if step is not None:
        return step
    houses = geo.houses
    return _first_found(
        "House in a cage",
        range(len(houses)),
        lambda h: (kt.house_state[h](masks), kt.house_state[h](values)),
        lambda h: _house_in_cage(cand, t, kt, houses[h]),
    )


def _needed_digit(cand: Candidates, t: Tables, index: int) -> Step | None:
    geo = t.geometry
    cage = geo.cages[index]
    open_cells, rest, placed = _open_part(cand, cage)
    if len(open_cells) < 2:
        return None
    masks = tuple(cand.masks[c] & ~placed for c in open_cells)
    _, fits = _fills(masks, rest, geo.size)
    if not fits:
        return None
    needed = functools.reduce(operator.and_, fits)
    cage_bits = sum(1 << c for c in cage.cells)
    for d in bits_to_digits(needed):
        bit = 1 << (d - 1)
        spots = [c for c in open_cells if cand.masks[c] & bit]
        seen = -1
        for c in spots:
            seen &= t.peer_bits[c]
        seen &= ~cage_bits
        targets = [c for c in range(geo.cells) if seen >> c & 1 and cand.masks[c] & bit]
        if not targets:
            continue
        common = set(geo.cell_houses[spots[0]]).intersection(
            *(geo.cell_houses[c] for c in spots[1:])
        )
        shared = [geo.houses[h] for h in sorted(common)]
        where = f"all in {shared[0].name}" if shared else f"which all see {_cells(geo, targets)}"
        if len(spots) == 1:
            where = "its only place there"
        name = cage_name(geo, cage)
        why = (
            f"{_sums(geo, fits)} is the only combination"
            if len(fits) == 1
            else f"every combination that fits has one: {_sums(geo, fits)}"
            if len(fits) <= 4
            else f"all {len(fits)} combinations that fit have one"
        )
        sentence = (
            f"{name[0].upper()}{name[1:]} needs a {geo.symbol(d)} ({why}), and it can only go "
            f"in {_or([geo.cell_name(c) for c in spots])}, {where}; so "
            f"{geo.symbol(d)} is removed from {_cells(geo, targets)}."
        )
        return _step(
            "Cage/house overlap",
            sentence,
            cand,
            houses=shared[:1],
            cells=spots,
            eliminations=[(c, d) for c in targets],
            cages=(index,),
        )
    return None


def _house_in_cage(cand: Candidates, t: Tables, kt: CageTables, house: House) -> Step | None:
    geo = t.geometry
    masks = cand.masks
    for d in range(1, geo.size + 1):
        bit = 1 << (d - 1)
        spots = [c for c in house.cells if masks[c] & bit]
        if len(spots) < 2:
            continue
        index = kt.cage_of[spots[0]]
        if index < 0 or any(kt.cage_of[c] != index for c in spots):
            continue
        cage = geo.cages[index]
        open_cells, rest, placed = _open_part(cand, cage)
        inside = set(house.cells)
        narrowed = tuple(
            (masks[c] & ~placed) if c in inside else (masks[c] & ~placed & ~bit) for c in open_cells
        )
        support, every = _fills(narrowed, rest, geo.size)
        fits = tuple(f for f in every if f & bit)
        if not fits:
            continue
        if len(fits) < len(every):
            support = _support_with(narrowed, rest, geo.size, fits)
        full = [masks[c] for c in open_cells]
        placements, eliminations, outcome = _outcome(geo, open_cells, full, support)
        if not placements and not eliminations:
            continue
        name = cage_name(geo, cage)
        where = _or([geo.cell_name(c) for c in spots])
        sentence = (
            f"In {house.name}, {geo.symbol(d)} can only go in {where}, all in {name}; so that "
            f"cage holds {geo.symbol(d)}"
        )
        if len(fits) <= 4 and len(open_cells) > 1:
            sentence += f" ({_sums(geo, fits)})"
        sentence += f", and {outcome}."
        return _step(
            "Cage/house overlap",
            sentence,
            cand,
            houses=[house],
            cells=spots,
            placements=placements,
            eliminations=eliminations,
            cages=(index,),
        )
    return None


def _support_with(
    masks: Sequence[int], total: int, size: int, fits: Sequence[int]
) -> tuple[int, ...]:
    """Per cell, the digits some filling from one of the digit sets ``fits`` puts there."""
    support = [0] * len(masks)
    for digits in fits:
        part, ok = _fills(tuple(m & digits for m in masks), total, size)
        if ok:
            support = [a | b for a, b in zip(support, part, strict=True)]
    return tuple(support)


# ---------------------------------------------------------------------------------------------
# Innies and outies


@dataclass(frozen=True)
class _Equation:
    """``sum(plus) - sum(minus) == value`` over open cells, and how it was reached."""

    plus: tuple[Cell, ...]
    minus: tuple[Cell, ...]
    value: int
    out: tuple[int, ...]  # the partial cages counted by their cells outside the region


def innies_outies(cand: Candidates, t: Tables) -> Step | None:
    """The 45 rule: a region's total less its cages wholly inside leaves what its few other
    cells (innies, and outies of cages reaching out) add up to; they keep only the digits
    that can make it."""
    geo = t.geometry
    if not geo.cages:
        return None
    kt = cage_tables(geo)
    masks, values = cand.masks, cand.values
    return _first_found(
        "Innies and outies",
        range(len(kt.regions)),
        lambda r: (kt.region_state[r](masks), kt.region_state[r](values)),
        lambda r: _innies_outies(cand, t, kt.regions[r]),
    )


def _equations(cand: Candidates, geo: Geometry, region: Region) -> list[_Equation]:
    """The region's equations, fewest open cells first: every partial cage by its cells
    inside, every one by its cells outside, and each by whichever has fewer open cells."""
    values = cand.values
    base = region.total - sum(geo.cages[i].total for i in region.inside)
    choices: list[tuple[bool, ...]] = [
        tuple(False for _ in region.partial),
        tuple(True for _ in region.partial),
        tuple(
            sum(1 for c in beyond if not values[c]) < sum(1 for c in within if not values[c])
            for _, within, beyond in region.partial
        ),
    ]
    out: list[_Equation] = []
    for choice in dict.fromkeys(choices):
        value = base
        plus = [c for c in region.loose if not values[c]]
        value -= sum(values[c] for c in region.loose)
        minus: list[Cell] = []
        outside = []
        for by_out, (i, within, beyond) in zip(choice, region.partial, strict=True):
            if by_out:
                value -= geo.cages[i].total
                minus.extend(c for c in beyond if not values[c])
                value += sum(values[c] for c in beyond)
                outside.append(i)
            else:
                plus.extend(c for c in within if not values[c])
                value -= sum(values[c] for c in within)
        if plus or minus:
            out.append(_Equation(tuple(sorted(plus)), tuple(sorted(minus)), value, tuple(outside)))
    out.sort(key=lambda eq: len(eq.plus) + len(eq.minus))  # the fewest cells read easiest
    return out


def _innies_outies(cand: Candidates, t: Tables, region: Region) -> Step | None:
    geo = t.geometry
    for eq in _equations(cand, geo, region):
        cells = [*eq.plus, *eq.minus]
        masks = [cand.masks[c] for c in cells]
        support = _equation_support(t, eq, cells, masks)
        if support is None or not any(s for s in support):
            continue  # too wide to search, or a contradiction the ladder finds elsewhere
        placements, eliminations, outcome = _outcome(geo, cells, masks, support)
        if placements or eliminations:
            return _innies_step(cand, t, region, eq, placements, eliminations, outcome)
    return None


def _equation_support(
    t: Tables, eq: _Equation, cells: Sequence[Cell], masks: Sequence[int]
) -> tuple[int, ...] | None:
    """What each cell of the equation can hold, or None when it is too wide to search."""
    distinct = all(b in t.peer_sets[a] for i, a in enumerate(cells) for b in cells[:i])
    if distinct and not (eq.plus and eq.minus):
        total = eq.value if eq.plus else -eq.value
        return _fills(tuple(masks), total, t.geometry.size)[0]
    if len(cells) > MAX_SIGNED_CELLS:
        return None
    signs = [1] * len(eq.plus) + [-1] * len(eq.minus)
    apart = [
        sum(1 << j for j in range(i) if cells[j] in t.peer_sets[a]) for i, a in enumerate(cells)
    ]
    return signed_sum(masks, signs, eq.value, apart)


def _innies_step(
    cand: Candidates,
    t: Tables,
    region: Region,
    eq: _Equation,
    placements: list[tuple[Cell, Digit]],
    eliminations: list[tuple[Cell, Digit]],
    outcome: str,
) -> Step:
    geo = t.geometry
    inside_sum = sum(geo.cages[i].total for i in region.inside)
    name = region.name[0].upper() + region.name[1:]
    verb = "add" if len(region.houses) > 1 else "adds"
    parts = [f"{name} {verb} up to {region.total}"]
    if region.inside:
        many = len(region.inside) > 1
        parts.append(
            f"the {_count(len(region.inside)) + ' ' if many else ''}"
            f"{'cages' if many else 'cage'} wholly inside {'add' if many else 'adds'} "
            f"up to {inside_sum}"
        )
    if eq.out:
        reaching = [cage_name(geo, geo.cages[i]) for i in eq.out]
        out_sum = sum(geo.cages[i].total for i in eq.out)
        parts.append(
            f"{_and(reaching)} {'reach' if len(eq.out) > 1 else 'reaches'} out of it "
            f"({out_sum} in all)"
        )
    known = _known_cells(cand, geo, region, eq)
    if known:
        parts.append(f"{_cells(geo, known)} {'are' if len(known) > 1 else 'is'} placed")
    sentence = "; ".join(parts) + f"; so {_written(geo, eq)}, and {outcome}."
    used = (*region.inside, *(i for i, _, _ in region.partial))
    return _step(
        "Innies and outies",
        sentence,
        cand,
        houses=region.houses,
        cells=(*eq.plus, *eq.minus),
        placements=placements,
        eliminations=eliminations,
        cages=tuple(sorted(used)),
    )


def _known_cells(cand: Candidates, geo: Geometry, region: Region, eq: _Equation) -> list[Cell]:
    """The placed cells the equation took off its value."""
    values = cand.values
    cells = list(region.loose)
    for i, within, beyond in region.partial:
        cells.extend(beyond if i in eq.out else within)
    return sorted(c for c in cells if values[c])


def _written(geo: Geometry, eq: _Equation) -> str:
    """``r2c4 + r2c5 = 17``, ``r2c4 - r3c7 = 2`` or ``r3c7 + r4c1 = 12`` (outies alone)."""
    if not eq.plus:
        return " + ".join(geo.cell_name(c) for c in eq.minus) + f" = {-eq.value}"
    left = " + ".join(geo.cell_name(c) for c in eq.plus)
    if eq.minus:
        left += "".join(f" - {geo.cell_name(c)}" for c in eq.minus)
    return f"{left} = {eq.value}"


# ---------------------------------------------------------------------------------------------
# Contradictions


def cage_contradiction(cand: Candidates, t: Tables) -> Step | None:
    """A step naming a cage that breaks its rule: a digit twice, digits that add up to more
    than its total, or a full cage adding up to another total. (A cage whose open cells can
    make its sum no other way is named by :func:`cage_combination`, which works that out.)"""
    geo = t.geometry
    values = cand.values
    for index, cage in enumerate(geo.cages):
        seen: dict[Digit, Cell] = {}
        for cell in cage.cells:
            v = values[cell]
            if not v:
                continue
            if v in seen:
                sentence = (
                    f"{geo.cell_name(seen[v])} and {geo.cell_name(cell)} both hold "
                    f"{geo.symbol(v)} in {cage_name(geo, cage)}, so a digit placed earlier is "
                    "wrong."
                )
                return _step("Contradiction", sentence, cand, cells=[seen[v], cell], cages=(index,))
            seen[v] = cell
        rest = cage.total - sum(values[c] for c in cage.cells)
        open_count = len(cage.cells) - len(seen)
        if rest < 0 or (rest and not open_count) or (open_count and rest < open_count):
            return _dead_cage(cand, geo, index, rest)
    return None


def _dead_cage(cand: Candidates, geo: Geometry, index: int, rest: int) -> Step:
    """The contradiction of a cage that can no longer make its sum."""
    cage = geo.cages[index]
    name = cage_name(geo, cage)
    if all(cand.values[c] for c in cage.cells):
        what = f"its digits add up to {cage.total - rest}"
    elif rest < 0:
        what = f"its placed digits already add up to {cage.total - rest}"
    else:
        what = f"its open cells cannot add up to the {rest} still missing"
    sentence = (
        f"{name[0].upper()}{name[1:]} adds up to {cage.total}, but {what}, so a digit "
        "placed earlier is wrong."
    )
    return _step("Contradiction", sentence, cand, cells=cage.cells, cages=(index,))


def cage_mates(geometry: Geometry) -> tuple[tuple[Cell, ...], ...]:
    """Per cell, the other cells of its cage (none outside cages)."""
    mates: list[tuple[Cell, ...]] = [() for _ in range(geometry.cells)]
    for cage in geometry.cages:
        for cell in cage.cells:
            mates[cell] = tuple(c for c in cage.cells if c != cell)
    return tuple(mates)
