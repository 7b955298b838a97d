"""Contradictions and singles: hidden and naked."""

from __future__ import annotations

from ..wording import N_, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _step,
    bits_to_digits,
    house_uniques,
)
from .killer import cage_contradiction
from .rule_steps import rule_contradiction


def contradiction(cand: Candidates, t: Tables) -> Step | None:
    """A step naming the first impossibility (a doubled digit, an empty cell or house, a cage
    that cannot make its sum, a rule no filling keeps)."""
    geo = t.geometry
    if _whole(cand, t):  # the usual answer (an explanation asks after every step), in one pass
        return _parts_broken(cand, t)
    for house in geo.houses:
        seen: dict[Digit, Cell] = {}
        for cell in house.cells:
            v = cand.values[cell]
            if v and v in seen:
                other = seen[v]
                sentence = words(
                    N_(
                        "{cell} and {other} both hold {digit} in {house}, so a digit placed "
                        "earlier is wrong."
                    ),
                    cell=geo.cell_name(other),
                    other=geo.cell_name(cell),
                    digit=geo.symbol(v),
                    house=house.words,
                )
                return _step("Contradiction", sentence, cand, houses=[house], cells=[other, cell])
            seen[v] = cell
    for cell, (v, m) in enumerate(zip(cand.values, cand.masks, strict=True)):
        if not v and not m:
            sentence = words(
                N_("{cell} has no candidate left, so a digit placed earlier is wrong."),
                cell=geo.cell_name(cell),
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
            sentence = words(
                N_(
                    "{digit} can no longer go anywhere in {house}, so a digit placed earlier "
                    "is wrong."
                ),
                digit=geo.symbol(d),
                house=house.words,
            )
            return _step("Contradiction", sentence, cand, houses=[house], cells=house.cells)
    return _parts_broken(cand, t)


def _parts_broken(cand: Candidates, t: Tables) -> Step | None:
    """The contradiction of a cage, else of a rule, of a position whose houses are whole."""
    geo = t.geometry
    broken = cage_contradiction(cand, t) if geo.cages else None
    if broken is None and geo.rules:
        broken = rule_contradiction(cand, t)
    return broken


def _whole(cand: Candidates, t: Tables) -> bool:
    """True when no house doubles a digit, no open cell is empty and every house still has a
    place for every digit: what :func:`contradiction` looks for first, told without naming it
    (every cell is in a house, so its empty-cell check is covered)."""
    values, masks = cand.values, cand.masks
    full = (1 << t.geometry.size) - 1
    for cells in t.house_cells:
        placed = possible = 0
        for c in cells:
            v = values[c]
            m = masks[c]
            if v:
                bit = 1 << (v - 1)
                if placed & bit:
                    return False
                placed |= bit
            elif not m:
                return False
            possible |= m
        if placed | possible != full:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Singles


def hidden_single(cand: Candidates, t: Tables) -> Step | None:
    """A digit with one place left in a house goes there."""
    geo = t.geometry
    masks = cand.masks
    for house in geo.houses:
        only = house_uniques(masks, house.cells)
        if not only:
            continue
        d = bits_to_digits(only)[0]
        bit = 1 << (d - 1)
        cell = next(c for c in house.cells if masks[c] & bit)
        sentence = words(
            N_("In {house}, {digit} can only go in {cell}, so it goes there."),
            house=house.words,
            digit=geo.symbol(d),
            cell=geo.cell_name(cell),
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
            sentence = words(
                N_("{cell} has only one candidate left, {digit}, so it goes there."),
                cell=geo.cell_name(cell),
                digit=geo.symbol(d),
            )
            return _step("Naked single", sentence, cand, cells=[cell], placements=[(cell, d)])
    return None
