"""Almost locked sets: ALS-XZ, ALS-XY-wing and ALS chains.

Vocabulary (on top of :mod:`.base`):

almost locked set (ALS)
    ``k`` open cells of one house holding only ``k + 1`` digits between them (a two-candidate
    cell is the smallest). Take one digit away and the other ``k`` fill those cells.
restricted common digit
    A digit ``x`` of two ALSs, with no cell in common, where every ``x`` of one sees every
    ``x`` of the other: ``x`` is in one of them at most, so the other is locked on its
    other digits.
ALS chain
    Sets ``A1 .. An``, no two sharing a cell, each joined to the next by a restricted common
    digit, no two links in a row on the same digit. If ``A1`` has no ``z``, it holds all its
    other digits, the first link's among them; so ``A2`` lacks that digit and holds all its
    others, the second link's among them; ... so ``An`` holds ``z``. Any digit ``z`` of both
    ends but the first and the last link's is therefore in ``A1`` or ``An``: a cell outside
    both that sees every ``z`` of both loses ``z``.

The chain of two sets is the ALS-XZ, of three the ALS-XY-wing (the middle set is the pivot),
of four an ALS chain: one search (:func:`_chain`) serves all three, shortest first.
Sets of up to three cells, in any house (variants included).

Roads not taken: every stall asks the three rungs in turn on the same candidates, so the
sets, their restricted commons and what each pair of sets could eliminate are built once per
candidates (:func:`_web`, a one-slot cache like :func:`.base.digit_boards`), and within an
explanation a chain is only looked for through a set that changed since the last search in
vain (:func:`_chain`). Chains stop at :data:`MAX_ALS_CHAIN` sets: five-set chains added 7
steps over the 1,100 stalls of top95 and a 200-puzzle top1465 sample, but about 1 ms to every
stall (the slowest top95 grades took a fifth longer), and their sentence walks eight links.

The same work, cheaper (the three rungs over top95's seven slowest grades, the least CPU of
five runs: 223 ms before, 146 after, ALS-XZ 153 -> 86; not a step changed over top95,
hardest and top1465):

- From one stall to the next four houses in five keep their candidates, so a house keeps its
  sets from the last position's web (:func:`_alses`); in a house that changed, a set whose
  cells kept their candidates is taken over too. Bounded: the slot holds one position's
  houses, none for a pasted grid past :data:`MAX_SETS`. It replaces a cache of each house's
  combinations by its candidates, which no longer had a hit.
- The pairs are built digit by digit as bitmasks over the sets (:func:`_pairs`): about 1,300
  bit steps a position where testing the 2,600 pairs one by one cost twice as much. A set's
  hits, which change with every candidate elsewhere, are worked out where used instead of
  kept with the set.
- A chain's next sets are the bits of one mask, and a call that would find none is not made
  but still counted against :data:`MAX_EXTENSIONS` (:func:`_extend`), so a search cut short
  is cut at the same place as before.
- Not taken: pairs kept from the last position (the sets' indices move between positions, and
  the pairs already cost half what they did); the search's last step written out in the step
  before (some 10,000 calls fewer, about 5 ms, for one long function).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations

from ..board import Geometry, House
from ..wording import N_, Np_, Value, Words, counted, listing, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Link,
    Step,
    Tables,
    _failed,
    _step,
    cell_list,
    digit_boards,
    digit_list,
)

# Four-cell sets save 34 of 285 forcing steps on top95 but double the ALS time at every
# stall (top95 grade: 36 ms of CPU on average instead of 28, measured under load).
MAX_ALS_CELLS = 3
# The longest ALS chain, in sets; a longer one is a sentence nobody follows to its end.
MAX_ALS_CHAIN = 4
# Bounds for pasted candidate grids, far above what puzzles reach (top95 and top1465 stalls:
# at most 145 sets and 2,500 chain extensions, 90 on average): the pairs of sets grow with the
# square of their number, and the chains with a power of it.
MAX_SETS = 600
MAX_EXTENSIONS = 50_000
_NAMES = ("A", "B", "C", "D", "E")  # the sets of a chain, as its sentence calls them


@dataclass(frozen=True)
class _Als:
    house: int
    cells: tuple[Cell, ...]
    masks: tuple[int, ...]  # the cells' candidates: with ``board``, what makes a set the same
    board: int  # the cells as a bitboard
    digits: int  # the k + 1 digits, as a mask
    seen: tuple[int, ...]  # per digit index: the cells that see all of those
    spots: tuple[tuple[Cell, ...], ...]  # per digit index: the set's cells holding it


@dataclass(frozen=True)
class _Pairs:
    """The restricted commons between a position's ALSs, and which pairs of them remove."""

    # Per set, as bitmasks over the sets (bit j for set j): for each digit (index, ascending)
    # that is a restricted common with some set, the sets it is one with.
    linking: tuple[tuple[tuple[int, int], ...], ...]
    # Per set, the same as masks: the sets it shares a cell with (itself among them), the sets
    # it links to, and the sets after it that could end a chain it starts (each chain is
    # searched from one end): disjoint, with a common digit some cell outside both loses if
    # the digit is in one of the two.
    overlap: tuple[int, ...]
    near: tuple[int, ...]
    later_ends: tuple[int, ...]
    starts: int  # the sets with some link and some later end


# Per house: its cells' candidates, and the sets found in it (each made with this house).
_Houses = tuple[tuple[tuple[int, ...], tuple[_Als, ...]], ...]


class _Web:
    """One position's ALSs, and their pairs (built when first asked for)."""

    def __init__(
        self,
        sets: list[_Als],
        boards: tuple[int, ...],
        size: int,
        whole: bool,
        houses: _Houses | None,
    ) -> None:
        self.sets = tuple(sets)
        self.boards = boards  # per digit index: where it can go (bitboard)
        self.size = size
        self.whole = whole  # every set of the position (not cut to MAX_SETS)
        self.houses = houses  # for the next position's web (see _alses)
        # union's answers: the chain searches ask for the same ones again and again (the XY-wing
        # and the chain start from the same sets). Bounded by the searches on one position.
        self._unions: dict[int, int] = {}

    @functools.cached_property
    def pairs(self) -> _Pairs:
        """The sets' restricted commons and what each pair removes (the costly part)."""
        return _pairs(self.sets, self.boards, self.size)

    def union(self, among: int) -> int:
        """The sets one link from any of ``among`` (bitmasks over the sets)."""
        out = self._unions.get(among)
        if out is None:
            near = self.pairs.near
            out = 0
            rest = among
            while rest:
                low = rest & -rest
                rest ^= low
                out |= near[low.bit_length() - 1]
            self._unions[among] = out
        return out


# One slot: the three ALS rungs ask for the same candidates in a row. A single tuple is
# swapped in whole, so threads never see a mismatched pair.
_last_web: tuple[tuple[int, ...], Tables | None, _Web | None] = ((), None, None)


def _web(cand: Candidates, t: Tables) -> _Web:
    """The (cached) ALS web of a position."""
    global _last_web
    masks, tables, web = _last_web
    if masks is cand.masks and tables is t and web is not None:
        return web
    before = web.houses if web is not None and tables is t else None
    sets, houses = _alses(cand, t, before)
    whole = len(sets) <= MAX_SETS
    if not whole:  # smallest first (a stable sort keeps the houses' order)
        sets = sorted(sets, key=lambda s: len(s.cells))[:MAX_SETS]
    # A pasted grid past MAX_SETS keeps no houses: the slot holds one position's sets at most.
    web = _Web(sets, digit_boards(cand), t.geometry.size, whole, houses if whole else None)
    _last_web = (cand.masks, t, web)
    return web


def _pairs(sets: tuple[_Als, ...], boards: tuple[int, ...], size: int) -> _Pairs:
    """Every pair of sets at once, digit by digit, as bitmasks over the sets (see
    :func:`_seeing`): a set's restricted commons on x are the sets all of whose x see all of
    its x, and two sets can end a chain on x if some cell holding x sees all x of both."""
    overlap = _overlaps(sets, size * size)
    linking: list[list[tuple[int, int]]] = [[] for _ in sets]
    near = [0] * len(sets)
    ends = [0] * len(sets)
    for x in range(size):
        bit = 1 << x
        having = [i for i, s in enumerate(sets) if s.digits & bit]
        if len(having) < 2:
            continue
        seeing = _seeing(sets, having, boards[x], x, size * size)
        for i in having:
            linked = -1  # the sets all of whose x see all of i's
            for c in sets[i].spots[x]:
                linked &= seeing[c]
            linked &= ~overlap[i]
            if linked:
                linking[i].append((x, linked))
                near[i] |= linked
        for both in seeing:
            if both & (both - 1):  # two sets or more: each can end a chain at the others
                rest = both
                while rest:
                    low = rest & -rest
                    ends[low.bit_length() - 1] |= both
                    rest ^= low
    later = [e & ~overlap[i] & -(2 << i) for i, e in enumerate(ends)]  # disjoint, after i
    starts = sum(1 << i for i, e in enumerate(later) if e and near[i])
    return _Pairs(tuple(map(tuple, linking)), tuple(overlap), tuple(near), tuple(later), starts)


def _overlaps(sets: tuple[_Als, ...], n_cells: int) -> list[int]:
    """Per set, the sets sharing a cell with it (itself among them), as a bitmask."""
    holding = [0] * n_cells  # per cell: the sets it is in
    for i, s in enumerate(sets):
        for c in s.cells:
            holding[c] |= 1 << i
    out = []
    for s in sets:
        shared = 0
        for c in s.cells:
            shared |= holding[c]
        out.append(shared)
    return out


def _seeing(
    sets: tuple[_Als, ...], having: list[int], board: int, x: int, n_cells: int
) -> list[int]:
    """Per cell holding digit (index) x, the sets among ``having`` all of whose x it sees
    (bitmask over the sets). Those cells are the sets' hits on x; a set's own x cells are
    among them where they see all x of another set."""
    seeing = [0] * n_cells
    for i in having:
        me = 1 << i
        cells = sets[i].seen[x] & board  # i's hits on x
        while cells:
            low = cells & -cells
            seeing[low.bit_length() - 1] |= me
            cells ^= low
    return seeing


def _alses(
    cand: Candidates, t: Tables, before: _Houses | None = None
) -> tuple[list[_Als], _Houses]:
    """Every ALS of up to :data:`MAX_ALS_CELLS` cells, once each (first house that has it),
    and what each house holds; a house with the same candidates as in ``before`` (the last
    position's, on the same tables) has the same sets, and a set of ``before`` whose cells
    kept their candidates is still one."""
    masks = cand.masks
    found: dict[int, _Als] = {}
    houses = []
    for h, cells in enumerate(t.house_cells):
        house_masks = t.house_masks[h](masks)
        if before is not None and before[h][0] == house_masks:
            made = before[h][1]
        else:  # a set whose cells kept their candidates is the same set: not made again
            kept = {s.cells: s for s in before[h][1]} if before is not None else {}
            out = []
            for spots, union in _house_alses(house_masks):
                group = tuple([cells[i] for i in spots])
                same = kept.get(group)
                if same is None or same.masks != tuple([masks[c] for c in group]):
                    same = _make(t, masks, h, group, union)
                out.append(same)
            made = tuple(out)
        houses.append((house_masks, made))
        for s in made:
            if s.board not in found:
                found[s.board] = s
    return list(found.values()), tuple(houses)


def _house_alses(masks: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """A house's ALSs, from its cells' masks: (positions in the house, digits) each."""
    open_spots = [i for i, m in enumerate(masks) if m]
    top = min(MAX_ALS_CELLS, len(open_spots) - 1)
    # A cell with more digits than the biggest set has is in none: leave it out of the
    # combinations (at the slow top95 stalls, a tenth of the cells, a third of the triples).
    usable = [i for i in open_spots if masks[i].bit_count() <= top + 1]
    out = []
    for k in range(1, top + 1):
        for spots in combinations(usable, k):
            union = 0
            for i in spots:
                union |= masks[i]
            if union.bit_count() == k + 1:
                out.append((spots, union))
    return tuple(out)


def _make(t: Tables, masks: tuple[int, ...], h: int, group: tuple[Cell, ...], union: int) -> _Als:
    size = t.geometry.size
    seen = [0] * size
    spots: list[tuple[Cell, ...]] = [()] * size
    board = 0
    for c in group:
        board |= 1 << c
    rest = union
    while rest:
        low = rest & -rest
        rest ^= low
        d = low.bit_length() - 1
        spots[d] = tuple([c for c in group if masks[c] & low])
        sees = -1
        for c in spots[d]:
            sees &= t.peer_bits[c]
        seen[d] = sees
    cell_masks = tuple(masks[c] for c in group)
    return _Als(h, group, cell_masks, board, union, tuple(seen), tuple(spots))


def als_xz(cand: Candidates, t: Tables) -> Step | None:
    """Two almost locked sets with a restricted common digit x: any other common digit z
    goes from the cells that see every z of both sets."""
    found = _chain(_web(cand, t), 2)
    return None if found is None else _xz_step(cand, t, *found)


def als_xy_wing(cand: Candidates, t: Tables) -> Step | None:
    """Three almost locked sets, the pivot joined to each of the others by its own restricted
    common digit: a digit z of both others goes from the cells that see every z of both."""
    found = _chain(_web(cand, t), 3)
    return None if found is None else _chain_step("ALS-XY-wing", cand, t, *found)


def als_chain(cand: Candidates, t: Tables) -> Step | None:
    """Four almost locked sets joined in a row by restricted common digits, no two
    links in a row on the same digit: a digit z of both ends (but the end links') goes from
    the cells that see every z of both."""
    web = _web(cand, t)
    for length in range(4, MAX_ALS_CHAIN + 1):
        found = _chain(web, length)
        if found is not None:
            return _chain_step("ALS chain", cand, t, *found)
    return None


# A chain found: its sets, its links' digits (indices), the digit
# (index) it removes and the cells it removes it from (bitboard).
_Found = tuple[list[_Als], list[int], int, int]


def _chain(web: _Web, length: int) -> _Found | None:
    """The first chain of ``length`` sets that removes something, or None.

    Inside :func:`.base.remembering`, only chains through a set not already searched in vain
    at this length are looked for. Candidates only shrink along an explanation, so a set with
    the same cells and candidates was there all along since, with the same restricted commons
    and no more to remove: a chain of such sets alone was there at the last search that
    found nothing, and had nothing to remove then either.
    """
    memo = _failed.get()
    keys = [("ALS", length, (s.board, s.masks)) for s in web.sets]
    fresh = (1 << len(keys)) - 1
    if memo is not None:
        fresh = sum(1 << i for i, key in enumerate(keys) if key not in memo)
    if not fresh:
        return None
    budget = [MAX_EXTENSIONS]
    found = _search(web, length, fresh, budget)
    if found is None and memo is not None and budget[0] > 0 and web.whole:
        memo.update(keys)  # every chain searched in vain
    return found


def _search(web: _Web, length: int, fresh: int, budget: list[int]) -> _Found | None:
    """The first chain through a fresh set (bitmask), within ``budget`` extensions."""
    pairs = web.pairs
    near = pairs.near
    # close[r]: the sets with a fresh one at most r links away.
    close = [fresh]
    for _ in range(length - 1):
        close.append(close[-1] | web.union(close[-1]))
    starts = close[length - 1] & pairs.starts
    while starts:
        low = starts & -starts
        starts ^= low
        i = low.bit_length() - 1
        # reach[r]: the sets from which r more links can reach an end (by any digits); the
        # last is only asked among the start's neighbours, so only they are looked at.
        reach = [pairs.later_ends[i]]
        for _ in range(length - 3):
            reach.append(web.union(reach[-1]))
        if length > 2:
            reach.append(_onward(near, near[i], reach[-1]))
        if not reach[-1] & near[i]:
            continue  # no set one link from the start can get to an end in time
        need = [] if fresh & low else close[: length - 1]
        found = _extend(web, [i], [], pairs.overlap[i], reach, need, budget)
        if found is not None or budget[0] <= 0:
            return found
    return None


def _onward(near: tuple[int, ...], among: int, to: int) -> int:
    """The sets of ``among`` one link from some set of ``to`` (bitmasks over the sets)."""
    out = 0
    rest = among
    while rest:
        low = rest & -rest
        rest ^= low
        if near[low.bit_length() - 1] & to:
            out |= low
    return out


def _extend(
    web: _Web,
    path: list[int],
    digits: list[int],
    blocked: int,
    reach: list[int],
    need: list[int],
    budget: list[int],
) -> _Found | None:
    """Extend a chain's start (sets ``path``, links ``digits``) by ``len(reach)`` sets, the
    next one among ``reach[-1]``, and, until a fresh set is in, among ``need[-1]``, and not
    among ``blocked`` (the sets sharing a cell with the path's)."""
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    sets = web.sets
    pairs = web.pairs
    last = path[-1]
    allowed = reach[-1] & need[-1] if need else reach[-1]
    # In reach, and no set sharing a cell with the path's; by set, then by digit.
    nexts = pairs.near[last] & allowed & ~blocked
    while nexts:
        low = nexts & -nexts
        nexts ^= low
        j = low.bit_length() - 1
        for x, linked in pairs.linking[last]:
            if not linked & low or (digits and x == digits[-1]):
                continue  # no link on x, or two links in a row on one digit
            if len(reach) == 1:
                # z is not the first link's digit (the start holds that one) nor the last's.
                first, end = sets[path[0]], sets[j]
                zs = first.digits & end.digits & ~(1 << x) & ~(1 << (digits[0] if digits else x))
                while zs:
                    z = (zs & -zs).bit_length() - 1
                    hits = first.seen[z] & end.seen[z] & web.boards[z]
                    if hits:
                        return [sets[k] for k in (*path, j)], [*digits, x], z, hits
                    zs &= zs - 1
                continue
            rest = [] if not need or need[0] & low else need[:-1]
            block = blocked | pairs.overlap[j]
            if not pairs.near[j] & reach[-2] & (rest[-1] if rest else -1) & ~block:
                budget[0] -= 1  # the call would count itself and find no next set
                continue
            found = _extend(web, [*path, j], [*digits, x], block, reach[:-1], rest, budget)
            if found is not None:
                return found
    return None


def _told(geo: Geometry, s: _Als) -> Words:
    """``r4c5 and r4c7 (row 4: 1, 2 and 6)``: a set's cells, house and digits."""
    digits = [d + 1 for d in range(geo.size) if s.digits >> d & 1]
    return words(
        N_("{cells} ({house}: {digits})"),
        cells=cell_list(geo, s.cells),
        house=geo.houses[s.house].words,
        digits=digit_list(geo, digits),
    )


def _houses(geo: Geometry, sets: list[_Als]) -> list[House]:
    """The sets' houses, each once (a hint names them: "look at row 1 and box 2")."""
    return [geo.houses[h] for h in dict.fromkeys(s.house for s in sets)]


def _targets(geo: Geometry, z: int, board: int) -> tuple[list[Cell], list[tuple[Cell, Digit]]]:
    cells = [c for c in range(geo.cells) if board >> c & 1]
    return cells, [(c, z + 1) for c in cells]


def _xz_step(
    cand: Candidates, t: Tables, sets: list[_Als], digits: list[int], z: int, board: int
) -> Step:
    geo = t.geometry
    a, b = sets
    xs, zs = geo.symbol(digits[0] + 1), geo.symbol(z + 1)
    cells, elims = _targets(geo, z, board)
    sentence = counted(
        Np_(
            "{a} and {b} are almost locked sets: each has one digit more than cells. Every {x} of "
            "one sees every {x} of the other, so at most one holds {x}, and the other holds all "
            "its other digits, {z} among them. So {z} is in one of the two sets, and {z} is "
            "removed from {removed}, which sees every {z} of both.",
            "{a} and {b} are almost locked sets: each has one digit more than cells. Every {x} of "
            "one sees every {x} of the other, so at most one holds {x}, and the other holds all "
            "its other digits, {z} among them. So {z} is in one of the two sets, and {z} is "
            "removed from {removed}, which see every {z} of both.",
        ),
        len(cells),
        a=_told(geo, a),
        b=_told(geo, b),
        x=xs,
        z=zs,
        removed=cell_list(geo, cells),
    )
    return _step(
        "ALS-XZ",
        sentence,
        cand,
        houses=_houses(geo, sets),
        cells=[*a.cells, *b.cells],
        eliminations=elims,
        links=_links(t, cand, sets, digits, z),
    )


def _chain_step(
    name: str,
    cand: Candidates,
    t: Tables,
    sets: list[_Als],
    digits: list[int],
    z: int,
    board: int,
) -> Step:
    geo = t.geometry
    zs = geo.symbol(z + 1)
    cells, elims = _targets(geo, z, board)
    named = [
        words(N_("{name} = {set}"), name=_NAMES[i], set=_told(geo, s)) for i, s in enumerate(sets)
    ]
    first, last = _NAMES[0], _NAMES[len(sets) - 1]
    told: list[Value] = [words(N_("it would hold {digit}"), digit=geo.symbol(digits[0] + 1))]
    for i, x in enumerate(digits):
        then = zs if i + 1 == len(digits) else geo.symbol(digits[i + 1] + 1)
        told.append(
            words(
                N_(
                    "every {digit} of {next} sees every {digit} of {set}, so {next} would lose "
                    "{digit} and hold {then}"
                ),
                digit=geo.symbol(x + 1),
                next=_NAMES[i + 1],
                set=_NAMES[i],
                then=then,
            )
        )
    sentence = counted(
        Np_(
            "Take the almost locked sets {sets}: each has one digit more than cells, so a set "
            "that loses a digit holds all the others. If {first} had no {z}, {steps}. So {z} is "
            "in {first} or {last}, and {z} is removed from {removed}, which sees every {z} of "
            "both.",
            "Take the almost locked sets {sets}: each has one digit more than cells, so a set "
            "that loses a digit holds all the others. If {first} had no {z}, {steps}. So {z} is "
            "in {first} or {last}, and {z} is removed from {removed}, which see every {z} of "
            "both.",
        ),
        len(cells),
        sets=listing(named),
        first=first,
        last=last,
        z=zs,
        steps=listing(told, ";"),
        removed=cell_list(geo, cells),
    )
    return _step(
        name,
        sentence,
        cand,
        houses=_houses(geo, sets),
        cells=[c for s in sets for c in s.cells],
        eliminations=elims,
        links=_links(t, cand, sets, digits, z),
    )


def _links(t: Tables, cand: Candidates, sets: list[_Als], digits: list[int], z: int) -> list[Link]:
    """The chain as links for the drawing, read as an alternating inference chain whose nodes
    are sets: "A has no z" forces "A holds x" (strong, inside A), "A holds x" excludes "B
    holds x" (weak, between the sets), and so on to "the last set holds z". A node is drawn
    at one cell of its set holding its digit: where one cell holds both digits of a strong
    link, at that cell; else at the cell nearest the previous node."""
    masks = cand.masks

    def near(cells: list[Cell], to: Cell) -> Cell:
        return min(
            cells, key=lambda c: abs(t.row_of[c] - t.row_of[to]) + abs(t.col_of[c] - t.col_of[to])
        )

    ins = [z, *digits]  # per set: the digit the chain enters it on, and leaves it on
    outs = [*digits, z]
    links: list[Link] = []
    at: tuple[Cell, Digit] | None = None
    for s, enter, leave in zip(sets, ins, outs, strict=True):
        holding = [c for c in s.cells if masks[c] >> enter & 1]
        both = [c for c in holding if masks[c] >> leave & 1]
        entry = near(both or holding, at[0] if at else s.cells[0])
        if at is not None:
            links.append((at, (entry, enter + 1), False))
        exit_ = entry
        if not masks[entry] >> leave & 1:
            exit_ = near([c for c in s.cells if masks[c] >> leave & 1], entry)
        links.append(((entry, enter + 1), (exit_, leave + 1), True))
        at = (exit_, leave + 1)
    return links
