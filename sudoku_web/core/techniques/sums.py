"""Which digits can make a sum: the arithmetic under the killer techniques.

Two questions, both answered per cell as a mask of the digits that take part in at least one
way to make the sum (so every other candidate of that cell can go):

* :func:`distinct_sum` for cells that must all differ (a cage, or innies in one house): the
  digit sets of the sum come from :func:`sudoku_web.core.cages.combinations`, and a forward
  and a backward pass over the cells tell which cell can take which digit of a set;
* :func:`signed_sum` for a few cells added or subtracted (innies minus outies), only some
  pairs of which must differ: a search over the cells, stopped as soon as every candidate
  has taken part (nothing can go then).

Roads not taken: trying every filling of a cage's cells costs 9! on a nine-cell cage; the
two passes cost at most the number of digit sets the first i cells can use, per cell.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from ..cages import combinations

# The cells a signed sum searches at most: past it the search is left out (see signed_sum).
MAX_SIGNED_CELLS = 4
# The digit sets the passes of a distinct sum may meet (a nine-cell cage on 9x9: 511);
# past it the cells keep every candidate (see distinct_sum).
MAX_STATES = 1024


def distinct_sum(
    masks: Sequence[int], total: int, size: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per cell, the digits of ``masks`` it holds in some filling of the cells with distinct
    digits adding up to ``total``; and the digit sets (bitmasks) those fillings use.

    ``size`` is the board's N (digits 1..N). Empty supports and no sets: no filling exists.
    When the passes would be too wide (:data:`MAX_STATES`), every candidate is kept and the
    sets are all those within the cells' candidates: weaker, never wrong.
    """
    k = len(masks)
    union = 0
    for m in masks:
        union |= m
    sets = tuple(c for c in combinations(size, k, total) if not c & ~union)
    if _too_wide(masks, size):
        return tuple(masks), sets  # every candidate kept: sound, only less sharp
    # forward[i]: the digit sets the first i cells can take (distinct, from their masks),
    # kept only while they stay inside one of the sets; backward[i]: the same for cells i..k-1.
    forward = _layers(masks, _parts(sets, k))
    fits = tuple(c for c in sets if c in forward[k])
    if not fits:
        return (0,) * k, ()
    backward = _layers(masks[::-1], _parts(fits, k))[::-1]
    support = [0] * k
    for c in fits:
        for i in range(k):
            rest_after = backward[i + 1]
            for used in forward[i]:
                if used & ~c:
                    continue
                free = masks[i] & c & ~used & ~support[i]
                while free:
                    low = free & -free
                    free ^= low
                    if (c & ~used & ~low) in rest_after:
                        support[i] |= low
    return tuple(support), fits


def _too_wide(masks: Sequence[int], size: int) -> bool:
    """True when the passes could meet more than :data:`MAX_STATES` digit sets in all (big
    cages on big boards): the step is then left to the other rungs."""
    states, product = 0, 1
    for i, mask in enumerate(masks, 1):
        product *= mask.bit_count()
        states += min(product, math.comb(size, i))
        if states > MAX_STATES:
            return True
    return False


def _parts(sets: tuple[int, ...], k: int) -> frozenset[int] | None:
    """Every subset of every digit set in ``sets`` (each of ``k`` digits), to prune the
    passes with; None when there would be more than :data:`MAX_STATES` (the passes are
    bounded anyway, see :func:`_too_wide`)."""
    if len(sets) << k > MAX_STATES:
        return None
    return _subsets(sets)


@functools.lru_cache(maxsize=128)  # bounded: at most MAX_STATES subsets an entry
def _subsets(sets: tuple[int, ...]) -> frozenset[int]:
    out: set[int] = set()
    for c in sets:
        sub = c
        while True:
            out.add(sub)
            if not sub:
                break
            sub = (sub - 1) & c
    return frozenset(out)


def _layers(masks: Sequence[int], parts: frozenset[int] | None) -> list[set[int]]:
    """After each cell in turn, the digit sets the cells so far can take (one digit of its
    mask each, all different), kept while they are among ``parts`` (when given)."""
    layers: list[set[int]] = [{0}]
    for mask in masks:
        out: set[int] = set()
        for used in layers[-1]:
            free = mask & ~used
            while free:
                low = free & -free
                free ^= low
                if parts is None or (used | low) in parts:
                    out.add(used | low)
        layers.append(out)
    return layers


def signed_sum(
    masks: Sequence[int], signs: Sequence[int], value: int, apart: Sequence[int]
) -> tuple[int, ...] | None:
    """Per cell, the digits it holds in some filling where ``sum(sign * digit) == value``.

    ``signs`` are +1 or -1; ``apart[i]`` is a bitmask of the cells (indices below ``i``) that
    must hold a digit other than cell ``i``'s. None when there are more than
    :data:`MAX_SIGNED_CELLS` cells (the search would be too wide to run on every step).
    """
    k = len(masks)
    if k > MAX_SIGNED_CELLS:
        return None
    # least[i], most[i]: the smallest and largest signed sum cells i..k-1 can add.
    least = [0] * (k + 1)
    most = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        low, high = signs[i] * (masks[i] & -masks[i]).bit_length(), signs[i] * masks[i].bit_length()
        least[i] = least[i + 1] + min(low, high)
        most[i] = most[i + 1] + max(low, high)
    search = _Search(masks, signs, value, apart, least, most)
    if k:
        search.fill(0, 0)
    return tuple(search.support)


class _Search:
    """The filling search of :func:`signed_sum`: cell by cell, the last cell's digit being
    what the sum needs; stops once every candidate has taken part."""

    def __init__(
        self,
        masks: Sequence[int],
        signs: Sequence[int],
        value: int,
        apart: Sequence[int],
        least: Sequence[int],
        most: Sequence[int],
    ) -> None:
        self.masks, self.signs, self.value, self.apart = masks, signs, value, apart
        self.least, self.most = least, most
        self.last = len(masks) - 1
        self.chosen = [0] * len(masks)
        self.support = [0] * len(masks)
        self.goal = list(masks)

    def options(self, i: int, need: int) -> list[int]:
        """The digits cell ``i`` may take: any candidate, or the one the sum needs last."""
        if i == self.last:
            digit = need * self.signs[i]
            return [digit] if digit > 0 and self.masks[i] >> (digit - 1) & 1 else []
        return [d + 1 for d in range(self.masks[i].bit_length()) if self.masks[i] >> d & 1]

    def clashes(self, i: int, digit: int) -> bool:
        """True when a cell that must differ from cell ``i`` already holds ``digit``."""
        near = self.apart[i]
        return any(near >> j & 1 and self.chosen[j] == digit for j in range(i))

    def fill(self, i: int, acc: int) -> bool:
        """Fill cell ``i`` onwards; True once every candidate is known to take part."""
        need = self.value - acc
        if need < self.least[i] or need > self.most[i]:
            return False
        for digit in self.options(i, need):
            if self.clashes(i, digit):
                continue
            self.chosen[i] = digit
            if i < self.last:
                if self.fill(i + 1, acc + self.signs[i] * digit):
                    return True
                continue
            for cell, held in enumerate(self.chosen):
                self.support[cell] |= 1 << (held - 1)
            if self.support == self.goal:
                return True
        return False
