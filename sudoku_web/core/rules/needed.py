"""Digits a set of cells must hold somewhere: placed in their only cell, and out of every
cell that sees all the places left for them (the cage rule's reasoning, for any rule that
knows some digits it needs: a renban's run, a cage that fills a whole house's worth)."""

from __future__ import annotations

from collections.abc import Sequence


def confine(m: list[int], cells: Sequence[int], needed: int, sees: Sequence[int]) -> bool:
    """Narrow ``m`` by the digits of ``needed`` (a mask) that ``cells`` must hold:
    a digit with one place there goes in it, and leaves every cell that sees all its places
    (``sees``: each cell's peers as bits). A digit with no place empties the first cell.
    True when something changed."""
    changed = False
    while needed:
        low = needed & -needed
        needed ^= low
        holders = [c for c in cells if m[c] & low]
        if not holders:
            m[cells[0]] = 0
            return True
        if len(holders) == 1:
            c = holders[0]
            if m[c] != low:
                m[c] = low
                changed = True
        seen = -1
        for c in holders:
            seen &= sees[c]
        while seen > 0:
            top = seen.bit_length() - 1
            seen ^= 1 << top
            if m[top] & low:
                m[top] ^= low
                changed = True
    return changed
