"""Sue de Coq: where two houses meet, the digits their overlap must share out.

Vocabulary (on top of :mod:`.base`):

intersection
    The cells two houses share: a box and a row or column in a classic grid, and any two
    houses with two or more cells in common on other boards (a jigsaw region and a row, a
    hyper window and a box).
Sue de Coq
    Open cells ``C`` of an intersection holding digits ``V``, at least two more than cells;
    cells ``L`` of the first house outside the intersection and cells ``B`` of the second,
    each holding some of ``V``, with no digit of ``L`` also in ``B``, such that ``C``, ``L``
    and ``B`` have as many cells as digits between them. Among those cells, ``L``'s digits
    can only be in the first house, ``B``'s only in the second, and the rest of ``V`` only
    in ``C``: no digit can be there twice, so each is there exactly once. ``L``'s digits
    and ``C``'s own then go from the rest of the first house, ``B``'s and ``C``'s own from
    the rest of the second.

Roads not taken: the search depends only on the two houses' candidates, so inside
:func:`.base.remembering` an intersection searched in vain is skipped until either house
changes. At most :data:`MAX_SIDE` cells on each side: more make a set nobody spots. Both
sides were once listed in full for each core and then paired: at the forcing stalls of top95's
slowest puzzles, 22 of the 82,566 pairs whose gains fit had no digit in common. Building the
second side from the cells free of the first side's digits finds the same patterns in the same
order in about two thirds of the time (69 ms to 45 ms over those stalls, the memo's keys read
once per house included); it keeps nothing between calls, so there is nothing to bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..board import Geometry
from ..wording import N_, Listing, Np_, Value, Words, counted, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _failed,
    _step,
    bits_to_digits,
    cell_list,
    digit_list,
    removals,
)

MAX_SIDE = 3  # cells taken from each house outside the intersection
MAX_CORE = 4  # cells taken from the intersection (a 16x16 box meets a line in four)

# A side of the pattern: its cells and their digits (mask).
_Side = tuple[tuple[Cell, ...], int]


def sue_de_coq(cand: Candidates, t: Tables) -> Step | None:
    """Cells where two houses meet, with cells of each house beside them, holding as many
    digits as cells: each digit is there once, so it goes from the rest of its house."""
    masks = cand.masks
    memo = _failed.get()
    # Each house's candidates, for the memo's keys (a house meets several others).
    houses = [getter(masks) for getter in t.house_masks] if memo is not None else []
    for index, (a, b, _common) in enumerate(t.intersections):
        if a > b:
            continue  # each pair of houses once
        inside, a_out, b_out = t.intersection_parts[index]
        if not a_out:
            continue  # both houses must reach beyond the overlap
        core_cells = [c for c in inside if masks[c]]
        if len(core_cells) < 2:
            continue
        if memo is not None:
            key = ("Sue de Coq", index, (houses[a], houses[b]))
            if key in memo:
                continue  # searched in vain before: same candidates in both houses
        found = _search(masks, core_cells, a_out, b_out)
        if found is not None:
            return _tell(cand, t, a, b, *found)
        if memo is not None:
            memo.add(key)
    return None


def _search(
    masks: Sequence[int], core_cells: list[Cell], a_out: Sequence[Cell], b_out: Sequence[Cell]
) -> tuple[_Side, _Side, _Side, list[tuple[Cell, Digit]]] | None:
    """The first core with a side in each house that removes something."""
    a_open = [c for c in a_out if masks[c]]
    b_open = [c for c in b_out if masks[c]]
    for n in range(2, min(MAX_CORE, len(core_cells)) + 1):
        for core in combinations(core_cells, n):
            v = 0
            for c in core:
                v |= masks[c]
            need = v.bit_count() - n  # cells the two sides must add beyond their new digits
            if not 2 <= need <= 2 * MAX_SIDE:
                continue  # nothing to share out, or more than two sides can take
            # The two sides share no digit, and almost no pair of sides the gains allow is
            # disjoint (22 of 82,566 at the forcing stalls of top95's slowest puzzles): so the
            # first side takes only cells free of some cell the second could take, and the
            # second is built, for each first side, from the cells free of its digits.
            b_usable = _usable(masks, b_open, v)
            others = {masks[c] for c in b_usable}
            a_usable = [
                c for c in _usable(masks, a_open, v) if any(not masks[c] & m for m in others)
            ]
            # A side gains at least one cell, and at least need with the other's (at most
            # MAX_SIDE): the first gains from that to below need, the second the rest.
            for line, gain in _sides(masks, a_usable, v, max(1, need - MAX_SIDE), need):
                free = [c for c in b_usable if not masks[c] & line[1]]
                if not free:
                    continue
                for box, _ in _sides(masks, free, v, need - gain, need - gain + 1):
                    elims = _eliminations(masks, core_cells, a_open, b_open, (core, v), line, box)
                    if elims:
                        return (core, v), line, box, elims
    return None


def _usable(masks: Sequence[int], spots: list[Cell], v: int) -> list[Cell]:
    """The cells among ``spots`` a side could take: holding a digit of ``v``, and fewer than
    :data:`MAX_SIDE` others (such a cell leaves no side of MAX_SIDE cells anything to gain)."""
    return [c for c in spots if masks[c] & v and (masks[c] & ~v).bit_count() < MAX_SIDE]


def _sides(
    masks: Sequence[int], usable: list[Cell], v: int, lowest: int, below: int
) -> list[tuple[_Side, int]]:
    """Sets of up to :data:`MAX_SIDE` cells among ``usable``, fewest cells first, with their
    gain (how many cells they add beyond the digits they bring from outside ``v``) when it
    is at least ``lowest`` and below ``below``."""
    out = []
    for k in range(1, min(MAX_SIDE, len(usable)) + 1):
        for cells in combinations(usable, k):
            digits = 0
            for c in cells:
                digits |= masks[c]
            gain = k - (digits & ~v).bit_count()
            if lowest <= gain < below:
                out.append(((cells, digits), gain))
    return out


def _eliminations(
    masks: Sequence[int],
    core_cells: list[Cell],
    a_open: list[Cell],
    b_open: list[Cell],
    core: _Side,
    line: _Side,
    box: _Side,
) -> list[tuple[Cell, Digit]]:
    """What the pattern removes: the first house's digits (and the core's own) from the rest
    of it, the second's (and the core's own) from the rest of that."""
    own = core[1] & ~line[1] & ~box[1]
    out: list[tuple[Cell, Digit]] = []
    rest_a = [c for c in a_open if c not in line[0]]
    rest_b = [c for c in b_open if c not in box[0]]
    rest_in = [c for c in core_cells if c not in core[0]]  # in both houses
    # The intersection's other cells are in both houses' rests.
    every = line[1] | box[1] | own
    for cells, digits in ((rest_a, line[1] | own), (rest_b, box[1] | own), (rest_in, every)):
        for c in cells:
            out += [(c, d) for d in bits_to_digits(masks[c] & digits)]
    return out


def _tell(
    cand: Candidates,
    t: Tables,
    a: int,
    b: int,
    core: _Side,
    line: _Side,
    box: _Side,
    elims: list[tuple[Cell, Digit]],
) -> Step:
    geo = t.geometry
    ha, hb = geo.houses[a], geo.houses[b]
    own = core[1] & ~line[1] & ~box[1]
    n = len(core[0]) + len(line[0]) + len(box[0])
    extra = core[1].bit_count() - len(core[0])

    def held(side: _Side) -> Words:
        return words(
            N_("{cells} ({digits})"),
            cells=cell_list(geo, side[0]),
            digits=_digit_list(geo, side[1]),
        )

    values: dict[str, Value] = {
        "house": ha.words,
        "other": hb.words,
        "cells": cell_list(geo, core[0]),
        "digits": _digit_list(geo, core[1]),
        "extra": str(extra),
        "line": held(line),
        "box": held(box),
        "n": str(n),
        "line_digits": _digit_list(geo, line[1]),
        "box_digits": _digit_list(geo, box[1]),
        "removals": removals(geo, elims),
    }
    if own:
        values["own"] = _digit_list(geo, own)
        forms = Np_(
            "Where {house} meets {other}, {cells} can hold {digits}, {extra} digit more than "
            "cells. With {line} in {house} and {box} in {other}, that makes {n} cells for {n} "
            "digits. Among them, every {line_digits} is in {house} and every {box_digits} in "
            "{other}, and every {own} where they meet, so no digit can be there twice: each is "
            "there exactly once, and goes from the rest of its house. Remove {removals}.",
            "Where {house} meets {other}, {cells} can hold {digits}, {extra} digits more than "
            "cells. With {line} in {house} and {box} in {other}, that makes {n} cells for {n} "
            "digits. Among them, every {line_digits} is in {house} and every {box_digits} in "
            "{other}, and every {own} where they meet, so no digit can be there twice: each is "
            "there exactly once, and goes from the rest of its house. Remove {removals}.",
        )
    else:
        forms = Np_(
            "Where {house} meets {other}, {cells} can hold {digits}, {extra} digit more than "
            "cells. With {line} in {house} and {box} in {other}, that makes {n} cells for {n} "
            "digits. Among them, every {line_digits} is in {house} and every {box_digits} in "
            "{other}, so no digit can be there twice: each is there exactly once, and goes from "
            "the rest of its house. Remove {removals}.",
            "Where {house} meets {other}, {cells} can hold {digits}, {extra} digits more than "
            "cells. With {line} in {house} and {box} in {other}, that makes {n} cells for {n} "
            "digits. Among them, every {line_digits} is in {house} and every {box_digits} in "
            "{other}, so no digit can be there twice: each is there exactly once, and goes from "
            "the rest of its house. Remove {removals}.",
        )
    sentence = counted(forms, extra, **values)
    return _step(
        "Sue de Coq",
        sentence,
        cand,
        houses=[ha, hb],
        cells=[*core[0], *line[0], *box[0]],
        eliminations=elims,
    )


def _digit_list(geo: Geometry, mask: int) -> Listing:
    return digit_list(geo, bits_to_digits(mask))
