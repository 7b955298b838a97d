"""Sums over cells whose digits may repeat, as bitsets of reachable totals.

A set of totals is an int with bit ``s`` set when the total ``s`` is reachable. Used by the
rules whose cells add up to a number: arrows, little killers, sandwiches.
"""

from __future__ import annotations

from collections.abc import Sequence


def add(reach: int, mask: int) -> int:
    """Totals reachable after adding one digit of ``mask`` to a total in ``reach``."""
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= reach << low.bit_length()
    return out


def combine(a: int, b: int) -> int:
    """Totals ``x + y`` for ``x`` in ``a`` and ``y`` in ``b``."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        low = a & -a
        a ^= low
        out |= b << (low.bit_length() - 1)
    return out


def reachable(masks: Sequence[int]) -> int:
    """Every total the cells' candidates can make (bit ``s``: total ``s``)."""
    reach = 1
    for m in masks:
        reach = add(reach, m)
    return reach


def narrow(masks: Sequence[int], targets: int) -> tuple[list[int], int]:
    """Each cell's digits that some way of making a total in ``targets`` uses, and the
    targets reachable at all (digits may repeat)."""
    k = len(masks)
    prefix = [1] * (k + 1)
    suffix = [1] * (k + 1)
    for i, m in enumerate(masks):
        prefix[i + 1] = add(prefix[i], m)
    for i in range(k - 1, -1, -1):
        suffix[i] = add(suffix[i + 1], masks[i])
    hit = prefix[k] & targets
    if not hit:
        return [0] * k, 0
    out = []
    for i, m in enumerate(masks):
        others = combine(prefix[i], suffix[i + 1])
        kept = 0
        bits = m
        while bits:
            low = bits & -bits
            bits ^= low
            if (others << low.bit_length()) & hit:
                kept |= low
        out.append(kept)
    return out, hit
