"""Killer techniques: what cage sums tell, on any board with cages.

Vocabulary (on top of :mod:`.base`; the arithmetic is :mod:`.sums`):

cage
    Cells whose digits differ and add up to its total (:attr:`Geometry.cages
    <sudoku_web.core.board.Geometry.cages>`). A sentence names one by its total and its
    first cell, where the total is printed: "the 17-cage at r1c1".
combination
    A set of distinct digits making a cage's sum ("17 in two cells is 8+9"). Digits already
    placed in a cage are taken off its total first: its open cells form a smaller cage.

Techniques (each returns the first step it finds, cages named in ``Step.cages`` so a page
can outline them): :func:`cage_combination` and :func:`cage_overlap` (a digit a cage needs,
confined to one house, or a house's digit confined to one cage); the 45 rule is
:mod:`.innies`. :func:`cage_contradiction` names a cage that breaks its rule.

Roads not taken: a cage's pencil marks are not reduced to its combinations before the
first step, because "17 in two cells is 8+9" is the first thing a person is taught; the
engine's reduce (the search page's pencil marks) does it at once.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..board import Cage, Geometry, House
from ..cages import combinations
from ..wording import N_, Listing, Np_, Value, Words, counted, listing, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _first_found,
    _step,
    bits_to_digits,
    cell_list,
    digit_list,
    holds,
)
from .sums import distinct_sum

_NUMBER = {
    1: N_("one"),
    2: N_("two"),
    3: N_("three"),
    4: N_("four"),
    5: N_("five"),
    6: N_("six"),
    7: N_("seven"),
}


@dataclass(frozen=True)
class CageTables:
    """What the killer techniques look up on one board with cages, built once."""

    cage_of: tuple[int, ...]  # per cell, its cage's index, or -1
    order: tuple[int, ...]  # cages in the order they are tried: fewest combinations first
    # Per cage: a function from all masks (or values) to its cells' ones.
    cage_state: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]
    # Per house: the same over its cells and the cells of every cage meeting it.
    house_state: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]


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
    return CageTables(
        cage_of=tuple(cage_of),
        order=tuple(order),
        cage_state=tuple(_getter(c.cells) for c in cages),
        house_state=tuple(
            _getter(
                sorted(
                    {*h.cells}.union(*(cages[cage_of[c]].cells for c in h.cells if cage_of[c] >= 0))
                )
            )
            for h in geometry.houses
        ),
    )


def _getter(cells: Sequence[Cell]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    pick = operator.itemgetter(*cells)
    if len(cells) == 1:
        return lambda values: (pick(values),)
    return pick


def cage_name(geometry: Geometry, cage: Cage) -> str:
    """``the 17-cage at r1c1``: a cage by its total and the cell its total is printed in."""
    return cage_words(geometry, cage).english()


def cage_words(geometry: Geometry, cage: Cage, start: bool = False) -> Words:
    """:func:`cage_name` as a sentence's value (``The 17-cage at r1c1`` at its ``start``)."""
    template = N_("The {total}-cage at {cell}") if start else N_("the {total}-cage at {cell}")
    return words(template, total=str(cage.total), cell=geometry.cell_name(cage.cells[0]))


def _count(k: int) -> Value:
    """A count of cells as a sentence says it (``two``; past seven, the number)."""
    return words(_NUMBER[k]) if k in _NUMBER else str(k)


def _sums(geo: Geometry, sets: Sequence[int]) -> Listing:
    """``1+2+6, 1+3+5 or 2+3+4``: digit sets as sums."""
    ordered = sorted(bits_to_digits(s) for s in sets)
    return listing(("+".join(geo.symbol(d) for d in digits) for digits in ordered), "or")


def _outcome(
    geo: Geometry, cells: Sequence[Cell], masks: Sequence[int], support: Sequence[int]
) -> tuple[list[tuple[Cell, Digit]], list[tuple[Cell, Digit]], Listing]:
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
    said: list[Value] = [holds(geo, c, d) for c, d in placements]
    for keep, group in keeps.items():
        said.append(
            counted(
                Np_("{cells} keeps only {digits}", "{cells} keep only {digits}"),
                len(group),
                cells=cell_list(geo, group),
                digits=digit_list(geo, bits_to_digits(keep)),
            )
        )
    return placements, eliminations, listing(said, ";")


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
    said: dict[str, Value] = {"cage": cage_words(geo, cage, start=True), "rest": str(rest)}
    if placed:
        said["done"] = digit_list(geo, sorted(cand.values[c] for c in cage.cells if cand.values[c]))
    if k == 1:
        template = (
            N_("{cage} already holds {done}, so its last cell, {cell}, is {rest}.")
            if placed
            else N_("{cage} is one cell, {cell}, is {rest}.")
        )
        sentence = words(template, cell=geo.cell_name(open_cells[0]), **said)
    else:
        template = (
            N_(
                "{cage} already holds {done}, so its other {count} cells add up to {rest}: "
                "{reasons}; so {outcome}."
            )
            if placed
            else N_("{cage} has {count} cells: {reasons}; so {outcome}.")
        )
        if not placed:
            del said["rest"]  # the cage's total is its sum: the reasons say it
        reasons = [_ways(geo, rest, k, fits), *_why_not(geo, open_cells, full, support, fits, rest)]
        sentence = words(
            template, count=_count(k), reasons=listing(reasons, ";"), outcome=outcome, **said
        )
    return _step(
        "Cage combination",
        sentence,
        cand,
        cells=open_cells,
        placements=placements,
        eliminations=eliminations,
        cages=(index,),
    )


def _ways(geo: Geometry, rest: int, k: int, fits: Sequence[int]) -> Words:
    """``17 in two cells is 8+9``, or which of the ways to make a sum fit the candidates."""
    every = combinations(geo.size, k, rest)
    said: dict[str, Value] = {"rest": str(rest), "count": _count(k), "ways": str(len(every))}
    if len(every) == len(fits) and len(fits) <= 4:
        template = (
            N_("{rest} in {count} cells is {sums}")
            if len(fits) == 1
            else N_("{rest} in {count} cells is one of {sums}")
            if len(fits) > 2
            else N_("{rest} in {count} cells is either {sums}")
        )
        del said["ways"]
        return words(template, sums=_sums(geo, fits), **said)
    if len(fits) <= 4:
        return counted(
            Np_(
                "of the {ways} ways to make {rest} in {count} cells, only {sums} fits the "
                "candidates left",
                "of the {ways} ways to make {rest} in {count} cells, only {sums} fit the "
                "candidates left",
            ),
            len(fits),
            sums=_sums(geo, fits),
            **said,
        )
    if len(fits) == len(every):
        return words(
            N_("all {ways} ways to make {rest} in {count} cells fit the candidates left"), **said
        )
    return words(
        N_("{fits} of the {ways} ways to make {rest} in {count} cells fit the candidates left"),
        fits=str(len(fits)),
        **said,
    )


def _why_not(
    geo: Geometry,
    cells: Sequence[Cell],
    masks: Sequence[int],
    support: Sequence[int],
    fits: Sequence[int],
    rest: int,
) -> list[Words]:
    """Why a cell loses digits that a fitting way still uses: the other cell of a pair lacks
    the partner digit, or no filling puts the digit there; and, past four ways, the digits
    no way uses."""
    union = functools.reduce(operator.or_, fits, 0)
    said: list[Words] = []
    unused = 0
    for i, cell in enumerate(cells):
        gone = masks[i] & ~support[i]
        unused |= gone & ~union
        kept_out = bits_to_digits(gone & union)
        if not kept_out:
            continue
        if len(cells) == 2:
            partner = cells[1 - i]
            said.append(
                words(
                    N_("{partner} cannot be {partners}, so {cell} cannot be {digits}"),
                    partner=geo.cell_name(partner),
                    partners=listing((str(rest - d) for d in kept_out), "or"),
                    cell=geo.cell_name(cell),
                    digits=digit_list(geo, kept_out, "or"),
                )
            )
        else:
            said.append(
                words(
                    N_("no filling of its cells puts {digits} in {cell}"),
                    digits=digit_list(geo, kept_out, "or"),
                    cell=geo.cell_name(cell),
                )
            )
    if unused and len(fits) > 4:
        said.insert(
            0,
            words(
                N_("none of them uses {digits}"),
                digits=digit_list(geo, bits_to_digits(unused), "or"),
            ),
        )
    return said


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
        if len(spots) == 1:
            where = words(N_("its only place there"))
        elif shared:
            template = N_("both in {house}") if len(spots) == 2 else N_("all in {house}")
            where = words(template, house=shared[0].words)
        else:
            where = words(N_("which all see {cells}"), cells=cell_list(geo, targets))
        if len(fits) == 1:
            why = words(N_("{sums} is the only combination"), sums=_sums(geo, fits))
        elif len(fits) <= 4:
            why = words(N_("every combination that fits has one: {sums}"), sums=_sums(geo, fits))
        else:
            why = words(N_("all {count} combinations that fit have one"), count=str(len(fits)))
        sentence = words(
            N_(
                "{cage} needs a {digit} ({why}), and it can only go in {spots}, {where}; so "
                "{digit} is removed from {removed}."
            ),
            cage=cage_words(geo, cage, start=True),
            digit=geo.symbol(d),
            why=why,
            spots=listing((geo.cell_name(c) for c in spots), "or"),
            where=where,
            removed=cell_list(geo, targets),
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
        said: dict[str, Value] = {
            "house": house.words,
            "digit": geo.symbol(d),
            "spots": listing((geo.cell_name(c) for c in spots), "or"),
            "cage": cage_words(geo, cage),
            "outcome": outcome,
        }
        if len(fits) <= 4 and len(open_cells) > 1:
            template = N_(
                "In {house}, {digit} can only go in {spots}, all in {cage}; so that cage holds "
                "{digit} ({sums}), and {outcome}."
            )
            said["sums"] = _sums(geo, fits)
        else:
            template = N_(
                "In {house}, {digit} can only go in {spots}, all in {cage}; so that cage holds "
                "{digit}, and {outcome}."
            )
        sentence = words(template, **said)
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
# Contradictions


def cage_contradiction(cand: Candidates, t: Tables) -> Step | None:
    """A step naming a cage that breaks its rule: a digit twice, digits that add up to more
    than its total, or a full cage adding up to another total. (A cage whose open cells can
    make its sum no other way is named by :func:`cage_combination`, which works that out.)"""
    geo = t.geometry
    values = cand.values
    for index, (cage, held) in enumerate(zip(geo.cages, _cage_values(geo, values), strict=True)):
        placed = [v for v in held if v]
        if len(set(placed)) < len(placed):
            return _doubled(cand, geo, index)
        rest = cage.total - sum(placed)
        open_count = len(held) - len(placed)
        if rest < 0 or (rest and not open_count) or (open_count and rest < open_count):
            return _dead_cage(cand, geo, index, rest)
    return None


def _cage_values(geo: Geometry, values: Sequence[int]) -> list[tuple[int, ...]]:
    """Each cage's values (0 for open cells), in cage order."""
    getters = cage_tables(geo).cage_state
    return [getter(values) for getter in getters]


def _doubled(cand: Candidates, geo: Geometry, index: int) -> Step:
    """The contradiction of a cage holding a digit twice."""
    cage = geo.cages[index]
    seen: dict[Digit, Cell] = {}
    for cell in cage.cells:
        v = cand.values[cell]
        if v in seen:
            sentence = words(
                N_(
                    "{cell} and {other} both hold {digit} in {house}, so a digit placed "
                    "earlier is wrong."
                ),
                cell=geo.cell_name(seen[v]),
                other=geo.cell_name(cell),
                digit=geo.symbol(v),
                house=cage_words(geo, cage),
            )
            return _step("Contradiction", sentence, cand, cells=[seen[v], cell], cages=(index,))
        if v:
            seen[v] = cell
    raise AssertionError("no digit is doubled")  # pragma: no cover


def _dead_cage(cand: Candidates, geo: Geometry, index: int, rest: int) -> Step:
    """The contradiction of a cage that can no longer make its sum."""
    cage = geo.cages[index]
    if all(cand.values[c] for c in cage.cells):
        what = words(N_("its digits add up to {sum}"), sum=str(cage.total - rest))
    elif rest < 0:
        what = words(N_("its placed digits already add up to {sum}"), sum=str(cage.total - rest))
    else:
        what = words(N_("its open cells cannot add up to the {rest} still missing"), rest=str(rest))
    sentence = words(
        N_("{cage} adds up to {total}, but {what}, so a digit placed earlier is wrong."),
        cage=cage_words(geo, cage, start=True),
        total=str(cage.total),
        what=what,
    )
    return _step("Contradiction", sentence, cand, cells=cage.cells, cages=(index,))
