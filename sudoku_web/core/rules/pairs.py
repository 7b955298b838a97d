"""Relations between two cells as bitmask tables: the engine's side of dots, letters,
whisper steps and "no two neighbours may ..." rules.

A relation on a board of N symbols is a table ``allow`` of N masks: ``allow[v - 1]`` holds
the symbols the other cell may take when one cell holds ``v``. Relations here are
symmetric, so one table serves both directions. :func:`narrow_pairs` keeps, in each cell
of each pair, the symbols some candidate of the other cell allows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from ..board import Geometry
from ..wording import N_, Words, words
from .base import Deduction, GlobalRule, Propagator, Relation, Rule, as_eliminations, mask_words


def table(size: int, related: Callable[[int, int], bool]) -> tuple[int, ...]:
    """The relation ``related(a, b)`` (symbols 1..size) as an allow table."""
    return tuple(
        sum(1 << (b - 1) for b in range(1, size + 1) if related(a, b)) for a in range(1, size + 1)
    )


class Reach(dict[int, int]):
    """The symbols an allow table permits beside any candidate mask: ``reach[mask]``, a
    dict lookup once a mask has been met (filled on a miss, up to a bound)."""

    __slots__ = ("allow",)

    def __init__(self, allow: tuple[int, ...]) -> None:
        super().__init__()
        self.allow = allow

    def __missing__(self, mask: int) -> int:
        out = 0
        rest = mask
        allow = self.allow
        while rest:
            low = rest & -rest
            rest ^= low
            out |= allow[low.bit_length() - 1]
        if len(self) < 70_000:
            self[mask] = out
        return out


def narrow_pairs(pairs: Sequence[tuple[int, int]], allow: tuple[int, ...]) -> Propagator:
    """A propagator keeping each pair's cells to what the other cell's candidates allow,
    to a fixpoint (arc consistency); see :class:`PairNarrowing`."""
    return PairNarrowing(pairs, allow)


class PairNarrowing:
    """Arc consistency over pairs of cells keeping one symmetric relation, remembering.

    It remembers the masks it left: a pair neither of whose cells has changed since then
    (on this branch or another) is consistent still, so only the pairs of changed cells are
    revised (both ways: a cell of another branch may have grown), and the pairs of the
    cells that revision narrows, until nothing changes or a cell is left empty. It may be
    shared (the explanations keep one per board, across requests and threads): what it
    remembers is one completed run's masks, replaced whole, never edited.
    """

    __slots__ = ("around", "cells", "left", "reach")

    def __init__(self, pairs: Sequence[tuple[int, int]], allow: tuple[int, ...]) -> None:
        self.reach = Reach(allow)
        self.cells = sorted({c for pair in pairs for c in pair})
        beside: dict[int, list[int]] = {c: [] for c in self.cells}
        for a, b in pairs:
            beside[a].append(b)
            beside[b].append(a)
        self.around = {c: tuple(others) for c, others in beside.items()}
        # Each cell's mask (in ``cells`` order) when the last completed run ended.
        self.left: tuple[int, ...] = (-1,) * len(self.cells)

    def __call__(self, m: list[int]) -> bool:
        """Narrow ``m`` in place; True when something was removed. A contradiction stops
        at the first empty cell (``left`` is then kept: still a consistent state)."""
        queue = [c for c, was in zip(self.cells, self.left, strict=True) if m[c] != was]
        changed = self.settle(m, queue)
        if changed and not all(m[c] for c in queue):
            return True
        reach, around = self.reach, self.around
        queued = set(queue)
        while queue:
            a = queue.pop()
            queued.discard(a)
            allowed = reach[m[a]]
            for b in around[a]:
                mb = m[b]
                if mb & ~allowed:
                    m[b] = mb & allowed
                    changed = True
                    if not m[b]:
                        return True
                    if b not in queued:
                        queued.add(b)
                        queue.append(b)
        self.left = tuple([m[c] for c in self.cells])
        return changed

    def settle(self, m: list[int], changed_cells: list[int]) -> bool:
        """Keep each changed cell to what every neighbour allows (it may have grown);
        True when something was removed. Stops at an empty cell."""
        reach, around = self.reach, self.around
        changed = False
        for b in changed_cells:
            mb = kept = m[b]
            for a in around[b]:
                kept &= reach[m[a]]
            if kept != mb:
                m[b] = kept
                changed = True
                if not kept:
                    break
        return changed


def pairs_hold(
    grid: Sequence[int], pairs: Sequence[tuple[int, int]], allow: tuple[int, ...]
) -> bool:
    """True when every pair of a complete grid keeps the relation."""
    return all(allow[grid[a] - 1] >> (grid[b] - 1) & 1 for a, b in pairs)


def neighbour_pairs(size: int, steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Every pair of cells ``(a, b)`` with ``a < b`` one of ``steps`` apart (both ways)."""
    out = set()
    for r in range(size):
        for c in range(size):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    a, b = r * size + c, rr * size + cc
                    out.add((min(a, b), max(a, b)))
    return tuple(sorted(out))


ORTHOGONAL = ((0, 1), (1, 0))
KING = ((0, 1), (1, 0), (1, 1), (1, -1))
KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))


def unmarked_orthogonal(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """Orthogonal neighbours that carry no mark (dot or letter) of any rule of the board."""
    marked = {mark.cells for rule in geometry.rules for mark in rule.marks()}
    return tuple(p for p in neighbour_pairs(geometry.size, ORTHOGONAL) if p not in marked)


def unseen(pairs: Sequence[tuple[int, int]], geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """The pairs whose cells share no house (the houses keep the others different)."""
    peers = geometry.peers
    return tuple((a, b) for a, b in pairs if b not in peers[a])


def differ(size: int) -> tuple[int, ...]:
    """The allow table of "the two digits differ"."""
    return table(size, lambda a, b: a != b)


def pair_deduction(
    rule: Rule,
    masks: Sequence[int],
    geometry: Geometry,
    pairs: Sequence[tuple[int, int]],
    allow: tuple[int, ...],
) -> Deduction | None:
    """A rule over many pairs, one cell at a time, as a solver says it: the first cell (in
    order, placed cells first) whose candidates rule out digits of the cells paired with it.
    Sound as :func:`narrow_pairs`: a digit goes only when no candidate of the first cell
    allows it beside them."""
    partners: dict[int, list[int]] = {}
    for a, b in pairs:
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    reach = Reach(allow)
    order = sorted(partners, key=lambda c: (bool(masks[c] & (masks[c] - 1)), c))
    for source in order:
        allowed = reach[masks[source]]
        removed = {p: masks[p] & ~allowed for p in partners[source] if masks[p] & ~allowed}
        if not removed:
            continue
        if any(masks[p] == removed[p] for p in removed):
            return None  # a cell emptied: a contradiction, named elsewhere
        template = (
            N_("{cell} is {digits}, and {reason}")
            if not masks[source] & (masks[source] - 1)
            else N_("{cell} can only be {digits}, and {reason}")
        )
        reason = words(
            template,
            cell=geometry.cell_name(source),
            digits=mask_words(masks[source]),
            reason=rule.reason(geometry, masks, removed),
        )
        cells = (source, *sorted(removed))
        return Deduction(rule.STEP, reason, cells, as_eliminations(removed))
    return None


class PairRule(Rule):
    """A rule that is a relation between pairs of cells (:meth:`Rule.relation`): its
    eliminations and its check come from that relation."""

    # True: its steps go one cell at a time (:func:`pair_deduction`), as a solver applies a
    # global rule or a cage; False: the whole relation settles in one step (a dot, a line).
    BY_CELL: ClassVar[bool] = False
    # Why a digit goes, as a clause a step's sentence goes on from (a kind whose steps are
    # its pairs': anti-knight, anti-king, non-consecutive), marked for the catalog.
    REASON: ClassVar[str] = ""

    def pairs_relation(self, geometry: Geometry) -> Relation:
        """The relation (never None for a pair rule)."""
        found = self.relation(geometry)
        assert found is not None, f"{self.NAME} has no relation"
        return found

    def propagator(self, geometry: Geometry) -> Propagator:
        return narrow_pairs(*self.pairs_relation(geometry))

    def check(self, grid: Sequence[int], geometry: Geometry) -> bool:
        return pairs_hold(grid, *self.pairs_relation(geometry))

    def deduce(
        self, masks: Sequence[int], geometry: Geometry, propagate: Propagator
    ) -> Deduction | None:
        if not self.BY_CELL:
            return super().deduce(masks, geometry, propagate)
        return pair_deduction(self, masks, geometry, *self.pairs_relation(geometry))

    def reason(self, geometry: Geometry, masks: Sequence[int], removed: Mapping[int, int]) -> Words:
        return words(self.REASON)


class ApartDiffer(GlobalRule, PairRule):
    """Cells one of ``STEPS`` apart never hold the same digit (anti-knight, anti-king)."""

    STEPS: ClassVar[tuple[tuple[int, int], ...]]
    BY_CELL = True

    def relation(self, geometry: Geometry) -> Relation:
        pairs = unseen(neighbour_pairs(geometry.size, self.STEPS), geometry)
        return pairs, differ(geometry.size)


def pair_reason(
    said: Words, cells: tuple[int, int], masks: Sequence[int], geometry: Geometry
) -> Words:
    """Why a mark between two cells removes digits: each keeps only digits with a partner."""
    a, b = cells
    return words(
        N_(
            "{mark}; {a} can be {a_digits} and {b} {b_digits}, and a digit with no partner "
            "across the mark cannot stay"
        ),
        mark=said,
        a=geometry.cell_name(a),
        a_digits=mask_words(masks[a]),
        b=geometry.cell_name(b),
        b_digits=mask_words(masks[b]),
    )
