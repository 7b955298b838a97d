"""Sums over cells whose digits may repeat, as bitsets of reachable totals.

A set of totals is an int with bit ``s`` set when the total ``s`` is reachable. Used by the
rules whose cells add up to a number: arrows, little killers, sandwiches.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .base import digits


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


# The largest group of cells that share a house which :func:`narrow_groups` keeps apart.
MAX_GROUP = 4


def narrow_groups(
    masks: Sequence[int], targets: int, groups: Sequence[tuple[int, ...]]
) -> tuple[list[int], int]:
    """Like :func:`narrow`, but the cells of each group (positions in ``masks``; the groups
    part them) hold different digits: each group's totals are found with its digits apart,
    and the groups' totals combined (digits may repeat between groups)."""
    k = len(masks)
    found = [_group_sums(tuple(masks[i] for i in group)) for group in groups]
    reach = [totals for totals, _ in found]
    g = len(groups)
    prefix = [1] * (g + 1)
    suffix = [1] * (g + 1)
    for i in range(g):
        prefix[i + 1] = combine(prefix[i], reach[i])
    for i in range(g - 1, -1, -1):
        suffix[i] = combine(suffix[i + 1], reach[i])
    hit = prefix[g] & targets
    kept = [0] * k
    if not hit:
        return kept, 0
    for group, (_, table), i in zip(groups, found, range(g), strict=True):
        others = combine(prefix[i], suffix[i + 1])
        for total, support in table.items():
            if (others << total) & hit:
                for at, mask in zip(group, support, strict=True):
                    kept[at] |= mask
    return kept, hit


@functools.lru_cache(maxsize=50_000)
def _group_sums(masks: tuple[int, ...]) -> tuple[int, dict[int, tuple[int, ...]]]:
    """For a group of cells with different digits: the totals it can make (bit ``s``:
    total ``s``), and each total with the digits each cell takes in some way of making it.
    By the first cell's digits, each with the rest's sums without it (remembered too: a
    search meets the same rests again)."""
    first, rest = masks[0], masks[1:]
    if not rest:
        return first << 1, {d: (1 << (d - 1),) for d in digits(first)}
    out: dict[int, list[int]] = {}
    reach = 0
    for d in digits(first):
        bit = 1 << (d - 1)
        sub_reach, sub = _group_sums(tuple(m & ~bit for m in rest))
        reach |= sub_reach << d
        for total, support in sub.items():
            mine = out.get(total + d)
            if mine is None:
                out[total + d] = [bit, *support]
            else:
                mine[0] |= bit
                for i, kept in enumerate(support, 1):
                    mine[i] |= kept
    return reach, {total: tuple(support) for total, support in out.items()}


def groups_of(cells: Sequence[int], peers: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The cells' positions parted into groups of at most :data:`MAX_GROUP` cells that all
    share houses with each other (taken greedily in order)."""
    groups: list[list[int]] = []
    for i, c in enumerate(cells):
        seen = set(peers[c])
        for group in groups:
            if len(group) < MAX_GROUP and all(cells[j] in seen for j in group):
                group.append(i)
                break
        else:
            groups.append([i])
    return tuple(tuple(group) for group in groups)
