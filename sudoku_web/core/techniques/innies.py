"""Innies and outies: the 45 rule over houses and unions of neighbouring houses.

Vocabulary (on top of :mod:`.killer`):

region
    One house, or a band of neighbouring rows or columns, or two neighbouring boxes (or
    jigsaw regions): cells holding every digit once per house, so they add up to N(N+1)/2
    per house (45 on 9x9).
innies and outies
    The cages wholly inside a region add up to part of its total; the rest is held by its
    cells outside those cages (innies), or, for a cage reaching out of the region, by that
    cage's total less its cells outside the region (outies).
equation
    What a region leaves: ``sum(innies) - sum(outies) = value`` over its open cells, each
    partial cage counted by its cells inside or by its cells outside.

Roads not taken: regions stop at bands of neighbouring rows or columns and at two boxes
side by side: wider unions add cells to every sum and rarely a step. Equations over cells
of several houses are searched up to four cells (:data:`.sums.MAX_SIGNED_CELLS`); cells that
all see each other are a virtual cage, worked out like a real one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..board import Geometry, House
from ..wording import N_, Listing, Np_, Value, Words, counted, listing, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _first_found,
    _step,
    cell_list,
)
from .killer import _count, _fills, _getter, _outcome, cage_tables, cage_words
from .sums import MAX_SIGNED_CELLS, signed_sum

#: A band of neighbouring rows or columns, and two boxes (jigsaw regions) side by side.
_BANDS = {"row": N_("rows {first}-{last}"), "column": N_("columns {first}-{last}")}
_PAIRS = {"box": N_("boxes {first} and {second}"), "region": N_("regions {first} and {second}")}


@dataclass(frozen=True)
class Region:
    """Cells holding every digit once per house, and how the cages meet them."""

    name: Words
    houses: tuple[House, ...]
    total: int  # what the region's digits add up to
    inside: tuple[int, ...]  # cages wholly inside (indices into geometry.cages)
    # Cages partly inside: (cage, its cells inside, its cells outside).
    partial: tuple[tuple[int, tuple[Cell, ...], tuple[Cell, ...]], ...]
    loose: tuple[Cell, ...]  # the region's cells in no cage
    cells: frozenset[Cell]
    watched: tuple[Cell, ...]  # every cell an equation of the region reads


@dataclass(frozen=True)
class RegionTables:
    """The regions of one board with cages, built once."""

    regions: tuple[Region, ...]
    # Per region: a function from all masks (or values) to the cells its equations read.
    state: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]


@functools.lru_cache(maxsize=16)  # bounded: killers come from user input
def region_tables(geometry: Geometry) -> RegionTables:
    """The (cached) regions of a board with cages."""
    regions = _regions(geometry, cage_tables(geometry).cage_of)
    return RegionTables(regions, tuple(_getter(r.watched) for r in regions))


def _regions(geometry: Geometry, cage_of: Sequence[int]) -> tuple[Region, ...]:
    """Every house, every band of 2..N-1 neighbouring rows or columns, every two boxes (or
    jigsaw regions) side by side, each as a :class:`Region` (same cells only once)."""
    houses = geometry.houses
    n = geometry.size
    groups: list[tuple[Words, tuple[House, ...]]] = [(h.words, (h,)) for h in houses]
    for kind in ("row", "column"):
        lines = sorted((h for h in houses if h.kind == kind), key=lambda h: h.index)
        for width in range(2, len(lines)):
            for start in range(len(lines) - width + 1):
                band = tuple(lines[start : start + width])
                name = words(
                    _BANDS[kind], first=str(band[0].index + 1), last=str(band[-1].index + 1)
                )
                groups.append((name, band))
    boxes = [h for h in houses if h.kind in ("box", "region")]
    for i, a in enumerate(boxes):
        near = {c + d for c in a.cells for d in (1, -1, n, -n)}
        for b in boxes[i + 1 :]:
            if near & set(b.cells) and _side_by_side(a, b, n):
                name = words(_PAIRS[a.kind], first=str(a.index + 1), second=str(b.index + 1))
                groups.append((name, (a, b)))
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
    name: Words,
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
        cells=cells,
        watched=tuple(watched) or tuple(sorted(cells))[:1],
    )


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
    rt = region_tables(geo)
    masks, values = cand.masks, cand.values
    return _first_found(
        "Innies and outies",
        range(len(rt.regions)),
        lambda r: (rt.state[r](masks), rt.state[r](values)),
        lambda r: _innies_outies(cand, t, rt.regions[r]),
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
    outcome: Listing,
) -> Step:
    geo = t.geometry
    inside_sum = sum(geo.cages[i].total for i in region.inside)
    name = dataclasses.replace(region.name, capital=True)
    parts: list[Value] = [
        counted(
            Np_("{region} adds up to {total}", "{region} add up to {total}"),
            len(region.houses),
            region=name,
            total=str(region.total),
        )
    ]
    if region.inside:
        if len(region.inside) > 1:
            parts.append(
                words(
                    N_("the {count} cages wholly inside add up to {sum}"),
                    count=_count(len(region.inside)),
                    sum=str(inside_sum),
                )
            )
        else:
            parts.append(words(N_("the cage wholly inside adds up to {sum}"), sum=str(inside_sum)))
    if eq.out:
        parts.append(
            counted(
                Np_(
                    "{cages} reaches out of it ({sum} in all)",
                    "{cages} reach out of it ({sum} in all)",
                ),
                len(eq.out),
                cages=listing(cage_words(geo, geo.cages[i]) for i in eq.out),
                sum=str(sum(geo.cages[i].total for i in eq.out)),
            )
        )
    terms = [str(region.total)]
    if region.inside:
        terms.append(f"- {inside_sum}")
    if eq.out:
        terms.append(f"- {sum(geo.cages[i].total for i in eq.out)}")
    known = _known_cells(cand, geo, region, eq)
    if known:
        inner = sum(cand.values[c] for c in known if c in region.cells)
        outer = sum(cand.values[c] for c in known if c not in region.cells)
        parts.append(
            counted(
                Np_("{cells} is placed", "{cells} are placed"),
                len(known),
                cells=cell_list(geo, known),
            )
        )
        terms.extend([f"- {inner}"] if inner else [])
        terms.extend([f"+ {outer}"] if outer else [])
    arithmetic = " ".join(terms)
    sentence = words(
        N_("{facts}; so {equation} ({arithmetic}), and {outcome}."),
        facts=listing(parts, ";"),
        equation=_written(geo, eq),
        arithmetic=arithmetic,
        outcome=outcome,
    )
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
