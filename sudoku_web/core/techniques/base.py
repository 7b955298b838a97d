"""Shared scaffolding of the technique modules: candidates, steps, tables, the memo of
searches made in vain, and the wording helpers every sentence uses.

Vocabulary (on top of :mod:`sudoku_web.core.board`):

candidates
    A :class:`Candidates` snapshot: the placed value of every cell (0 if open) and, for each
    open cell, a bitmask of the digits still possible there (bit ``v-1`` stands for ``v``).
    Placed cells have mask 0, so "cells where 5 can go" is simply ``masks[c] & bit``.
strong link
    A digit with exactly two places in a house: one of the two cells must hold it.
sees
    Two cells see each other when they share a house (they are peers).
step
    One deduction: the technique, the houses and cells it reasons about, the digits it
    places and the candidates it eliminates, the candidates before it, and a sentence.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, Literal, TypeVar

from ..board import Geometry, House
from ..rules.pairs import differ
from ..wording import N_, Listing, Words, english, listing, words

Grade = Literal["Easy", "Medium", "Hard", "Fiendish", "Diabolical"]
GRADES: tuple[Grade, ...] = ("Easy", "Medium", "Hard", "Fiendish", "Diabolical")
# The grade each technique name implies. The package's ladder (``techniques/__init__.py``)
# fills it from its rungs; Python runs the package before any of its modules, so it is full
# whenever a step exists. It lives here so that a step can name its grade without this
# module importing back up into the package that assembles the ladder.
GRADE_OF: dict[str, Grade] = {}

Cell = int
Digit = int
Node = tuple[Cell, Digit]  # "this cell holds this digit"
# A grouped node of a chain: a digit's places (two or more) inside the overlap of two houses,
# a box and a row say; "one of these cells holds this digit".
Group = tuple[tuple[Cell, ...], Digit]
# A link of a chain: from one node to the next, strong (one of the two is true) or weak (not
# both are true).
Link = tuple[Node | Group, Node | Group, bool]


def node_cells(node: Node | Group) -> tuple[Cell, ...]:
    """The cells of a chain node: one for a candidate, two or more for a grouped node."""
    cells = node[0]
    return (cells,) if isinstance(cells, int) else cells


@dataclass(frozen=True)
class Candidates:
    """A position: placed values (0 for open) and candidate masks (0 for placed cells)."""

    values: tuple[int, ...]
    masks: tuple[int, ...]
    # Bitboard (bit ``c`` for cell ``c``) of the placed cells that are not givens: placed by
    # a step or entered by the person. Only the avoidable rectangle asks (a deadly pattern
    # must not form among cells that are not givens); 0, "not known", keeps it from firing,
    # so a position built without this is never unsound, only without that technique.
    deduced: int = 0

    def digits(self, cell: Cell) -> tuple[Digit, ...]:
        """The candidate digits of an open cell, ascending; () for a placed cell."""
        return bits_to_digits(self.masks[cell])

    @property
    def solved(self) -> bool:
        """True when every cell holds a value."""
        return all(self.values)

    @property
    def open_cells(self) -> int:
        """How many cells are still open."""
        return sum(1 for v in self.values if not v)


@dataclass(frozen=True)
class Step:
    """One explained deduction, with the candidates as they were before it."""

    technique: str
    # The sentence as written, for a step the core did not word as a template; empty when
    # ``words`` says it (:attr:`sentence` is then its English, made when first asked).
    told: str
    houses: tuple[House, ...]
    cells: tuple[Cell, ...]  # the cells the reasoning rests on (to highlight)
    placements: tuple[tuple[Cell, Digit], ...]
    eliminations: tuple[tuple[Cell, Digit], ...]
    before: Candidates
    # For drawing a chain on the grid: links between candidates in the order the chain
    # reads, each (from, to, strong); the first link starts at the chain's start. Empty for
    # techniques that are not chains.
    links: tuple[Link, ...] = ()
    # For outlining on the grid: the cages the reasoning uses (indices into the geometry's
    # cages). Empty for techniques that do not read cage sums.
    cages: tuple[int, ...] = ()
    # For outlining on the grid: the rules the reasoning reads (indices into the geometry's
    # rules). Empty for techniques that read only houses and cages.
    rules: tuple[int, ...] = ()
    # The sentence as a catalog template and its values (``sentence`` is its English), for
    # the pages to say it in the visitor's language; None for a sentence not worded so.
    words: Words | Listing | None = None

    @functools.cached_property
    def sentence(self) -> str:
        """The step in English: :attr:`words` filled in, else :attr:`told` (grading never
        asks, so a step's English is written only when a page or the API shows it)."""
        return self.told if self.words is None else english(self.words)

    @property
    def grade(self) -> Grade:
        """The grade this technique implies (see :data:`GRADE_OF`)."""
        return GRADE_OF.get(self.technique, "Diabolical")


def house_uniques(masks: Sequence[int], cells: Iterable[Cell]) -> int:
    """The digits (as bits) with exactly one place among ``cells``: its hidden singles.

    The one hidden-single scan: the technique, the fast grade and the forcing branches use it.
    """
    once = twice = 0
    for c in cells:
        m = masks[c]
        twice |= once & m
        once |= m
    return once & ~twice


def set_bits(board: int) -> list[int]:
    """The set bits of a bitboard (cells, or the nodes of a node set), ascending."""
    out = []
    while board:  # highest first, then reversed: no negative int per bit, as ``b & -b`` makes
        high = board.bit_length() - 1
        out.append(high)
        board ^= 1 << high
    out.reverse()
    return out


# Bounded: a 9x9 board has 512 masks, a 16x16 one 65,536 (the busy ones stay).
@functools.lru_cache(maxsize=4096)
def bits_to_digits(mask: int) -> tuple[Digit, ...]:
    """The digits whose bits are set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return tuple(out)


@dataclass(frozen=True)
class Tables:
    """Lookup tables for one geometry, built once (see :func:`tables_for`)."""

    geometry: Geometry
    house_cells: tuple[tuple[Cell, ...], ...]
    peer_sets: tuple[frozenset[Cell], ...]
    rows: tuple[int, ...]  # house indices of the rows, top to bottom
    cols: tuple[int, ...]
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    # (a, b, a∩b) for houses whose overlap has two or more cells and b reaches beyond a.
    intersections: tuple[tuple[int, int, frozenset[Cell]], ...]
    # Bitboards (bit ``c`` stands for cell ``c``): a cell's peers, a house's cells. The hot
    # searches reject candidates patterns with a few int operations before building lists.
    peer_bits: tuple[int, ...] = ()
    house_bits: tuple[int, ...] = ()
    # Per intersection: A's cells inside and outside the overlap, B's cells outside it (in
    # house order), so the pointing scan needs no set lookups.
    intersection_parts: tuple[tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[Cell, ...]], ...] = ()
    # Per house, a function from all masks to the house's masks (a tuple, for memo keys).
    house_masks: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...] = ()
    # Per house, True when its cells come in ascending order (bit order is house order).
    house_ascending: tuple[bool, ...] = ()

    def sees(self, a: Cell, b: Cell) -> bool:
        """True when two distinct cells share a house."""
        return b in self.peer_sets[a]


@functools.lru_cache(maxsize=64)  # bounded: jigsaw geometries and cages come from user input
def tables_for(geometry: Geometry) -> Tables:
    """The (cached) tables for a geometry.

    On a board with cages, two cells of one cage see each other too (they cannot hold the
    same digit), and so do the pairs of a rule that is "these two differ" (anti-knight,
    anti-king, a killer cage without a total), so every pattern and chain reads them as it
    reads a house; everything else is the house layout's tables (:attr:`Geometry.base`).
    """
    apart = _apart(geometry)
    if geometry.cages or apart:
        return _with_cages(tables_for(geometry.base), geometry, apart)
    houses = geometry.houses
    cells = tuple(h.cells for h in houses)
    rows = tuple(sorted((i for i, h in enumerate(houses) if h.kind == "row"), key=_index(houses)))
    cols = tuple(
        sorted((i for i, h in enumerate(houses) if h.kind == "column"), key=_index(houses))
    )
    n = geometry.size
    pairs = []
    sets = [frozenset(c) for c in cells]
    for a, b in combinations(range(len(houses)), 2):
        common = sets[a] & sets[b]
        if len(common) < 2:
            continue
        if sets[b] - common:
            pairs.append((a, b, common))
        if sets[a] - common:
            pairs.append((b, a, common))
    # Pointing (box -> line) reads easier than claiming (line -> box): try boxes first.
    pairs.sort(key=lambda p: (houses[p[0]].kind in ("row", "column"), p[0], p[1]))
    return Tables(
        geometry=geometry,
        house_cells=cells,
        peer_sets=tuple(frozenset(p) for p in geometry.peers),
        rows=rows,
        cols=cols,
        row_of=tuple(c // n for c in range(n * n)),
        col_of=tuple(c % n for c in range(n * n)),
        intersections=tuple(pairs),
        peer_bits=tuple(_bitboard(p) for p in geometry.peers),
        house_bits=tuple(_bitboard(c) for c in cells),
        house_masks=tuple(_getter(c) for c in cells),
        house_ascending=tuple(list(c) == sorted(c) for c in cells),
        intersection_parts=tuple(
            (
                tuple(c for c in cells[a] if c in common),
                tuple(c for c in cells[a] if c not in common),
                tuple(c for c in cells[b] if c not in common),
            )
            for a, b, common in pairs
        ),
    )


@functools.lru_cache(maxsize=64)  # bounded as tables_for
def placement_peers(geometry: Geometry) -> tuple[frozenset[Cell], ...]:
    """Per cell, the cells a digit placed there leaves: its peers and its cage's cells. A
    rule's pairs are not among them: a rule's own step says what a placement removes there
    (an explanation names "anti-knight"), where the tables' peers read them for patterns."""
    if not geometry.cages:
        return tuple(frozenset(p) for p in geometry.peers)
    return _with_cages(tables_for(geometry.base), geometry).peer_sets


def _apart(geometry: Geometry) -> tuple[tuple[Cell, Cell], ...]:
    """The pairs of cells some rule of the board keeps different (its relation is exactly
    "the two digits differ"), beyond its houses and cages."""
    if not geometry.rules:
        return ()
    different = differ(geometry.size)
    out: list[tuple[Cell, Cell]] = []
    for rule in geometry.rules:
        relation = rule.relation(geometry)
        if relation is not None and relation[1] == different:
            out.extend(relation[0])
    return tuple(out)


def _with_cages(
    plain: Tables, geometry: Geometry, apart: Sequence[tuple[Cell, Cell]] = ()
) -> Tables:
    """The house layout's tables with each cage's cells added to one another's peers, and
    each pair of ``apart`` to each other's."""
    peer_sets = list(plain.peer_sets)
    for cage in geometry.cages:
        for cell in cage.cells:
            peer_sets[cell] = peer_sets[cell].union(c for c in cage.cells if c != cell)
    for a, b in apart:
        peer_sets[a] = peer_sets[a] | {b}
        peer_sets[b] = peer_sets[b] | {a}
    return dataclasses.replace(
        plain,
        geometry=geometry,
        peer_sets=tuple(peer_sets),
        peer_bits=tuple(_bitboard(p) for p in peer_sets),
    )


def _getter(cells: tuple[Cell, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    pick = operator.itemgetter(*cells)
    if len(cells) == 1:
        return lambda masks: (pick(masks),)
    return pick


def _bitboard(cells: Iterable[Cell]) -> int:
    board = 0
    for c in cells:
        board |= 1 << c
    return board


# Per-digit techniques (fish, finned fish, skyscraper, kite, colouring, empty rectangle) depend
# only on where a digit can still go, and the subsets only on one house's candidates. Inside
# :func:`remembering`, a digit (house) searched in vain by a technique is skipped while its
# places (candidates) stay the same: the explanation's ladder reruns every rung after each
# step, and most digits and houses do not change in between. The loop is written once, in
# :func:`per_digit_since` (its memo is ``_vain_places``) and :func:`per_house` (this one,
# which other searches use too: keys of states searched in vain).
_failed: ContextVar[set[tuple[str, int, object]] | None] = ContextVar("_failed", default=None)


# The chain rungs search a whole position, so they cannot skip a digit or a house. But at a
# stall a forcing step often removes one candidate and the next stall asks every rung again:
# inside :func:`remembering`, such a rung keeps the last position it searched in vain, and a
# position that has only lost candidates since then is skipped when those losses made nothing
# it looks for (see :func:`still_vain`; each rung says what "nothing new" means for it).
_vain: ContextVar[dict[str, Candidates] | None] = ContextVar("_vain", default=None)


# A per-digit rung that searched a digit in vain and finds its places changed since may be
# told which places it lost (see :func:`per_digit`): the digit's places at that search, by
# (rung, digit).
_vain_places: ContextVar[dict[tuple[str, Digit], int] | None] = ContextVar(
    "_vain_places", default=None
)


@contextmanager
def remembering() -> Iterator[None]:
    """Within this block, techniques skip digits where they failed on the same places, and
    positions that changed nothing they look for since they searched in vain."""
    token, vain_token = _failed.set(set()), _vain.set({})
    places_token = _vain_places.set({})
    try:
        yield
    finally:
        _vain_places.reset(places_token)
        _vain.reset(vain_token)
        _failed.reset(token)


# What a position lost since an earlier one: (cell, the digits it lost, as a mask).
Losses = list[tuple[Cell, int]]


def still_vain(
    name: str,
    cand: Candidates,
    t: Tables,
    nothing_new: Callable[[Candidates, Candidates, Tables, Losses], bool],
) -> bool:
    """True when the rung ``name`` is known to find nothing in ``cand``.

    That is: inside :func:`remembering`, it searched in vain at an earlier position, ``cand``
    is that position less some candidates (cells placed since count as losing theirs), and
    ``nothing_new(before, cand, t, losses)`` says the losses made no pattern the rung looks
    for (losing candidates otherwise only leaves it less to remove). Such a position is then
    remembered in the earlier one's place: it too was searched in vain, in effect.
    """
    found = _changes_since_vain(name, cand)
    if found is None:
        return False
    before, changes = found
    if any(now & ~was for _, was, now in changes):
        return False  # a candidate came back: not the same line of positions
    losses = [(cell, was & ~now) for cell, was, now in changes]
    if not nothing_new(before, cand, t, losses):
        return False
    searched_in_vain(name, cand)
    return True


def changed_since_vain(name: str, cand: Candidates) -> int | None:
    """The cells (a bitboard) whose candidates changed since the technique ``name`` last
    searched a whole position in vain, or None when there is no such position (outside
    :func:`remembering`, or not yet): a technique whose patterns each lie within a few
    houses need only look where those cells are."""
    found = _changes_since_vain(name, cand)
    if found is None:
        return None
    changed = 0
    for cell, _, _ in found[1]:
        changed |= 1 << cell
    return changed


def lost_since_vain(name: str, cand: Candidates) -> int | None:
    """The cells (a bitboard) that lost candidates since the technique ``name`` last searched
    a whole position in vain, or None when there is no such position or a candidate came
    back since: a technique whose patterns rest on a few cells' candidates, and remove only
    fewer as candidates go, need only look at the patterns resting on a cell that lost some
    (any other was there, the same, at the search in vain), in their usual order."""
    found = _changes_since_vain(name, cand)
    if found is None:
        return None
    lost = 0
    for cell, was, now in found[1]:
        if now & ~was:
            return None
        lost |= 1 << cell
    return lost


def _changes_since_vain(
    name: str, cand: Candidates
) -> tuple[Candidates, list[tuple[Cell, int, int]]] | None:
    """The position the technique ``name`` last searched in vain, and each cell whose
    candidates differ in ``cand`` (cell, then, now); None when there is no such position."""
    global _last_changes
    memo = _vain.get()
    before = None if memo is None else memo.get(name)
    if before is None or len(before.masks) != len(cand.masks):
        return None
    # Several rungs searched the same position in vain and are asked at the same next one.
    then, now, changes = _last_changes
    if then is not before.masks or now is not cand.masks:
        pairs = zip(before.masks, cand.masks, strict=True)
        changes = [(cell, was, now) for cell, (was, now) in enumerate(pairs) if was != now]
        _last_changes = (before.masks, cand.masks, changes)
    return before, changes


# One slot: the last pair of positions compared by :func:`_changes_since_vain`, and their
# differences (never changed in place). A single tuple is swapped in whole, as in
# :func:`digit_boards`.
_last_changes: tuple[tuple[int, ...], tuple[int, ...], list[tuple[Cell, int, int]]] = ((), (), [])


def searched_in_vain(name: str, cand: Candidates) -> None:
    """Remember ``cand`` as the last position the rung ``name`` searched in vain (inside
    :func:`remembering`; see :func:`still_vain`)."""
    memo = _vain.get()
    if memo is not None:
        memo[name] = cand


# What every technique is: a search of a position for the first step it finds (see the ladder,
# ``TECHNIQUES`` in the package).
Technique = Callable[[Candidates, Tables], Step | None]


# A per-digit search told what the digit lost since (see :func:`per_digit`).
DigitSearch = Callable[[Candidates, Tables, Digit, int | None], Step | None]


def per_digit(
    name: str, search: Callable[[Candidates, Tables, Digit], Step | None], doc: str | None = None
) -> Technique:
    """The technique ``name`` that tries ``search`` on each digit in turn.

    For the per-digit techniques (their pattern depends only on where the digit can go):
    within :func:`remembering`, a digit searched in vain is skipped while its places stay the
    same. The technique's docstring is ``doc``, else ``search``'s.
    """
    doc = doc or search.__doc__
    return per_digit_since(name, lambda cand, t, d, _lost: search(cand, t, d), doc)


def per_digit_since(name: str, search: DigitSearch, doc: str | None = None) -> Technique:
    """:func:`per_digit` for a search that also takes ``lost``: None, or the digit's places
    (a bitboard) lost since it was searched in vain, the digit's places then being the
    current ones and those.

    Such a search may look only at the patterns whose cells (those that make the pattern what
    it is) meet ``lost``, in its usual order: a pattern that does not was there, the same, at
    the search in vain, and what a pattern removes only shrinks as places go, so it removed
    nothing then and removes nothing now. The first one found is then the full search's.
    """

    def technique(cand: Candidates, t: Tables) -> Step | None:
        boards = digit_boards(cand)
        memo = _vain_places.get()
        if memo is None:  # a lone step (a hint): nothing to remember
            for i in range(len(boards)):
                step = search(cand, t, i + 1, None)
                if step is not None:
                    return step
            return None
        for i, on in enumerate(boards):
            key = (name, i + 1)
            was = memo.get(key)
            if was == on:
                continue  # searched in vain before on the same places
            lost = None if was is None or on & ~was else was & ~on
            step = search(cand, t, i + 1, lost)
            if step is not None:
                return step
            memo[key] = on
        return None

    return _named(technique, name, doc)


def per_house(
    name: str, search: Callable[[Candidates, Tables, int], Step | None], doc: str | None = None
) -> Technique:
    """The technique ``name`` that tries ``search`` on each house (by index) in turn.

    For the techniques that look inside one house (their pattern depends only on the house's
    candidates): within :func:`remembering`, a house searched in vain is skipped while its
    candidates stay the same. When every house was searched in vain at the technique's last
    call, only the houses of the cells that changed since are looked at (rather than each
    house's candidates): most calls come one step after a call in vain. The technique's
    docstring is ``doc``, else ``search``'s.
    """

    def technique(cand: Candidates, t: Tables) -> Step | None:
        masks, getters = cand.masks, t.house_masks
        houses: Iterable[int] = range(len(getters))
        changed = changed_since_vain(name, cand)
        if changed is not None:
            houses = [h for h, cells in enumerate(t.house_bits) if cells & changed]
        step = _first_found(name, houses, lambda h: getters[h](masks), lambda h: search(cand, t, h))
        if step is None:
            searched_in_vain(name, cand)
        return step

    return _named(technique, name, doc or search.__doc__)


def _named(technique: Technique, name: str, doc: str | None) -> Technique:
    """``technique`` named as a module would name it (``finned_x_wing``), with ``doc``."""
    technique.__name__ = technique.__qualname__ = name.lower().replace(" ", "_").replace("-", "_")
    technique.__doc__ = doc
    return technique


def _first_found(
    name: str,
    items: Iterable[int],
    state: Callable[[int], object],
    search: Callable[[int], Step | None],
) -> Step | None:
    """The one memo-skip loop: ``search`` each item whose ``state`` has not failed before."""
    memo = _failed.get()
    if memo is None:  # a lone step (a hint): nothing to remember
        for item in items:
            step = search(item)
            if step is not None:
                return step
        return None
    for item in items:
        key = (name, item, state(item))
        if key in memo:
            continue  # searched in vain before on the same state
        step = search(item)
        if step is not None:
            return step
        memo.add(key)
    return None


# Whether steps need their sentences: :func:`sudoku_web.core.logic.grade` only needs what a
# step places and removes, and telling a forcing step (following its branches again with
# every reason recorded) costs more than finding it.
_telling: ContextVar[bool] = ContextVar("_telling", default=True)


@contextmanager
def untold() -> Iterator[None]:
    """Within this block, costly techniques may leave their steps' sentences empty."""
    token = _telling.set(False)
    try:
        yield
    finally:
        _telling.reset(token)


# One slot: the ladder asks for the same position's digit boards many times in a row. A
# single tuple is swapped in whole, so threads never see a mismatched pair.
_last_boards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


def digit_boards(cand: Candidates) -> tuple[int, ...]:
    """Per digit (index ``d - 1``), the bitboard of the open cells where ``d`` can go."""
    global _last_boards
    masks, boards = _last_boards
    if masks is cand.masks:
        return boards
    boards = boards_of(cand.masks)
    _last_boards = (cand.masks, boards)
    return boards


def boards_of(masks: Sequence[int]) -> tuple[int, ...]:
    """:func:`digit_boards` of any masks, not kept: for an earlier position, which would
    otherwise push the position the rungs are asked about out of the slot."""
    out = [0] * math.isqrt(len(masks))  # one per digit: N*N cells hold N digits
    for c, m in enumerate(masks):
        cell = 1 << c
        while m:
            low = m & -m
            out[low.bit_length() - 1] |= cell
            m ^= low
    return tuple(out)


def _index(houses: Sequence[House]) -> Callable[[int], int]:
    return lambda i: houses[i].index


# ---------------------------------------------------------------------------------------------
# Wording helpers: every sentence names cells as r4c7, houses by name, digits by symbol.


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _or(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _cells(geo: Geometry, cells: Iterable[Cell]) -> str:
    return _and([geo.cell_name(c) for c in cells])


def _digits(geo: Geometry, digits: Iterable[Digit]) -> str:
    return _and([geo.symbol(d) for d in digits])


def cell_list(geo: Geometry, cells: Iterable[Cell]) -> Listing:
    """Cells as a sentence's list value (``r1c1, r1c2 and r1c3``)."""
    return listing(geo.cell_name(c) for c in cells)


def digit_list(
    geo: Geometry, digits: Iterable[Digit], joint: Literal["and", "or"] = "and"
) -> Listing:
    """Digits as a sentence's list value (``1, 4 and 7``)."""
    return listing((geo.symbol(d) for d in digits), joint)


def house_list(houses: Iterable[House]) -> Listing:
    """Houses as a sentence's list value (``row 1 and column 4``)."""
    return listing(h.words for h in houses)


def holds(geo: Geometry, cell: Cell, digit: Digit, true: bool = True) -> Words:
    """``r1c2 is 5`` (or ``r1c2 is not 5``): a chain's statement about one candidate."""
    template = N_("{cell} is {digit}") if true else N_("{cell} is not {digit}")
    return words(template, cell=geo.cell_name(cell), digit=geo.symbol(digit))


def removals(geo: Geometry, elims: Sequence[tuple[Cell, Digit]]) -> Listing:
    """``r7c3 (2), r8c3 (2, 8)``: eliminations grouped by cell, as a sentence's value."""
    by_cell: dict[Cell, list[Digit]] = {}
    for cell, digit in elims:
        by_cell.setdefault(cell, []).append(digit)
    return listing(
        f"{geo.cell_name(c)} ({', '.join(geo.symbol(d) for d in sorted(ds))})"
        for c, ds in sorted(by_cell.items())
    )


def removal_of(geo: Geometry, digit: Digit, elims: Sequence[tuple[Cell, Digit]]) -> Words:
    """``5 is removed from r2c5 and r2c7`` for eliminations of one digit."""
    return words(
        N_("{digit} is removed from {cells}"),
        digit=geo.symbol(digit),
        cells=cell_list(geo, sorted(c for c, _ in elims)),
    )


def _removals(geo: Geometry, elims: Sequence[tuple[Cell, Digit]]) -> str:
    """``r7c3 (2), r8c3 (2, 8)``: eliminations grouped by cell."""
    return english(removals(geo, elims))


def _removal_of(geo: Geometry, digit: Digit, elims: Sequence[tuple[Cell, Digit]]) -> str:
    """``5 is removed from r2c5 and r2c7`` for eliminations of one digit."""
    return removal_of(geo, digit, elims).english()


def _which(elims: Sequence[tuple[Cell, Digit]]) -> str:
    return "which sees" if len({c for c, _ in elims}) == 1 else "which see"


def seeing(elims: Sequence[tuple[Cell, Digit]]) -> int:
    """How many cells ``elims`` touch: the count a sentence's plural form ("which see") reads."""
    return len({c for c, _ in elims})


def _step(
    technique: str,
    sentence: str | Words | Listing,
    before: Candidates,
    *,
    houses: Iterable[House] = (),
    cells: Iterable[Cell] = (),
    placements: Iterable[tuple[Cell, Digit]] = (),
    eliminations: Iterable[tuple[Cell, Digit]] = (),
    links: Iterable[Link] = (),
    cages: Iterable[int] = (),
    rules: Iterable[int] = (),
) -> Step:
    """A :class:`Step` from any iterables (eliminations sorted, without repeats); a sentence
    given as :class:`Words` (or a :class:`Listing` of sentences) is kept beside its English."""
    said = None if isinstance(sentence, str) else sentence
    return Step(
        technique,
        sentence if isinstance(sentence, str) else "",
        tuple(houses),
        tuple(cells),
        tuple(placements),
        tuple(sorted(set(eliminations))),
        before,
        tuple(links),
        tuple(cages),
        tuple(rules),
        said,
    )


def _places(cand: Candidates, cells: Iterable[Cell], bit: int) -> list[Cell]:
    """The cells among ``cells`` where the digit with ``bit`` is still a candidate."""
    masks = cand.masks
    return [c for c in cells if masks[c] & bit]


# A strong link: (house index, a, b), a before b in the house's order.
StrongLink = tuple[int, Cell, Cell]
_Found = TypeVar("_Found")


class PositionMemo(Generic[_Found]):
    """One slot, like :func:`digit_boards`: the position last asked, its tables, and per
    digit bit what ``find`` answered there. Rungs that run one after another at a position
    ask for the same per-digit data; another position (or tables) empties the slot, and the
    whole slot is swapped in at once, never changed for a position already replaced."""

    def __init__(self, find: Callable[[Candidates, Tables, int], _Found]) -> None:
        self._find = find
        self._slot: tuple[tuple[int, ...], Tables | None, dict[int, _Found]] = ((), None, {})

    def __call__(self, cand: Candidates, t: Tables, bit: int) -> _Found:
        """``find(cand, t, bit)``, computed once per position."""
        masks, tables, known = self._slot
        if masks is not cand.masks or tables is not t:
            known = {}
            self._slot = (cand.masks, t, known)
        found = known.get(bit)
        if found is None:
            found = known[bit] = self._find(cand, t, bit)
        return found


def _find_strong_links(cand: Candidates, t: Tables, bit: int) -> tuple[StrongLink, ...]:
    links = []
    on = digit_boards(cand)[bit.bit_length() - 1]
    ascending = t.house_ascending
    for h, house in enumerate(t.house_bits):
        x = on & house
        rest = x & (x - 1)
        if rest and not rest & (rest - 1):  # exactly two places: list them in house order
            a, b = (x ^ rest).bit_length() - 1, rest.bit_length() - 1
            if not ascending[h] and t.house_cells[h].index(a) > t.house_cells[h].index(b):
                a, b = b, a
            links.append((h, a, b))
    return tuple(links)


# (house index, a, b) for every house where the digit has exactly two places, a before b in
# the house's order; the single-digit rungs, the wings and the chains ask for the same
# position's links one after another.
_strong_links = PositionMemo(_find_strong_links)


def _seeing_both(cand: Candidates, t: Tables, bit: int, a: Cell, b: Cell) -> list[Cell]:
    """Open cells holding the digit that see both ``a`` and ``b`` (neither of them)."""
    return sorted(c for c in t.peer_sets[a] & t.peer_sets[b] if cand.masks[c] & bit)
