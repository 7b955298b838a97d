"""Fish on rows and columns: X-wing, swordfish, jellyfish, and their finned (and sashimi) forms.

base lines, cover lines
    A fish of size n on a digit: n rows (the base) whose places for the digit lie in n
    columns (the cover), or the same with columns and rows swapped. Each base line needs the
    digit once, in a different cover line, so the cover lines get their digit from the base
    lines and lose it everywhere else.
fin
    A place of the digit in a base line outside the cover lines (see :func:`_finned_fish`).
sights
    For a base line's place of the digit: the digit's places off that line and off the place's
    cover line that see it, the targets it would allow if it were a fin.

Roads not taken: the finned search once tried the cover lines of every group of base lines
whose places spread over one or two positions too many. At the forcing stalls of top95's
slowest puzzles, almost no group has a fin that a place outside its base lines sees, so
each line now carries its places' sights and a group without enough positions whose sights
survive its other lines is dropped with a few ANDs; the three finned rungs also share each
digit's lines for the position (one slot, like :func:`.base.digit_boards`: one position's
lines per digit, so bounded by the board whatever its geometry). Over those stalls the
three finned rungs went from about 150 ms to 72 ms with the same steps; a depth-first walk
that pruned partial groups by their spread did not pay (it visits more nodes than the
groups it skips).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

from ..board import Geometry, House
from ..wording import N_, Listing, Np_, Value, counted, listing, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    Technique,
    _step,
    cell_list,
    digit_boards,
    per_digit_since,
    set_bits,
)

_FISH_NAMES = {2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}
_FINNED_NAMES = {2: "Finned X-wing", 3: "Finned swordfish", 4: "Finned jellyfish"}
#: The fishes as a sentence names them.
_FISH_WORDS = {2: words(N_("X-wing")), 3: words(N_("swordfish")), 4: words(N_("jellyfish"))}


# A fish's base lines, its cover lines, each cell's position across the base (its cover line),
# and their names: rows over columns, then columns over rows.
_Orientation = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, str]]


# A fish found: base line numbers, cover line numbers, the digit's places in the base lines,
# and the fins among them (none for a plain fish).
_Fish = tuple[list[int], list[int], list[Cell], list[Cell]]


def _orientations(t: Tables) -> tuple[_Orientation, _Orientation]:
    return (
        (t.rows, t.cols, t.col_of, ("row", "column")),
        (t.cols, t.rows, t.row_of, ("column", "row")),
    )


def _line_spreads(
    t: Tables, on: int, base: Sequence[int], position: Sequence[int], most: int
) -> list[tuple[int, int]]:
    """(line number, bitmask of cover positions) of the base lines holding the digit (bitboard
    ``on``) in 2 to ``most`` places: the only lines a fish of that size can be built from."""
    lines: list[tuple[int, int]] = []
    house_bits = t.house_bits
    for i, h in enumerate(base):
        places = on & house_bits[h]
        if 2 <= places.bit_count() <= most:
            spread = 0
            while places:
                low = places & -places
                spread |= 1 << position[low.bit_length() - 1]
                places ^= low
            lines.append((i, spread))
    return lines


def _fish_houses(
    geo: Geometry,
    base: Sequence[int],
    cover: Sequence[int],
    base_lines: Sequence[int],
    cover_lines: Sequence[int],
) -> list[House]:
    """The houses a fish step looks at: its base lines, then its cover lines."""
    return [geo.houses[base[i]] for i in base_lines] + [geo.houses[cover[p]] for p in cover_lines]


def _fish_digit(size: int, cand: Candidates, t: Tables, d: Digit, lost: int | None) -> Step | None:
    """The first fish of ``size`` on digit ``d`` that removes something, either orientation
    (only those with a base line that ``lost`` places, when given: see
    :func:`.base.per_digit_since`)."""
    on = digit_boards(cand)[d - 1]
    house_bits = t.house_bits
    for orientation in _orientations(t):
        base, cover, position, _ = orientation
        lines = _line_spreads(t, on, base, position, size)
        hot = -1
        if lost is not None:
            hot = 0
            for i, _ in lines:
                if house_bits[base[i]] & lost:
                    hot |= 1 << i
            if not hot:
                continue
        for group in combinations(lines, size):
            union = touched = 0
            for i, spread in group:
                union |= spread
                touched |= 1 << i
            if union.bit_count() != size or not touched & hot:
                continue
            base_lines = [i for i, _ in group]
            cover_lines = [p for p in range(t.geometry.size) if union >> p & 1]
            base_board = cover_board = 0
            for i in base_lines:
                base_board |= house_bits[base[i]]
            for p in cover_lines:
                cover_board |= house_bits[cover[p]]
            gone = on & cover_board & ~base_board
            if gone:
                elims = [(c, d) for c in set_bits(gone)]
                fish: _Fish = (base_lines, cover_lines, set_bits(on & base_board), [])
                return _fish_step(cand, t, size, d, orientation, fish, elims)
    return None


def _fish(size: int) -> Technique:
    doc = f"{size} rows (columns) whose places for a digit lie in {size} columns (rows)."
    return per_digit_since(_FISH_NAMES[size], functools.partial(_fish_digit, size), doc)


x_wing = _fish(2)
swordfish = _fish(3)
jellyfish = _fish(4)


# ---------------------------------------------------------------------------------------------
# Finned fish: a fish with extra places (fins) in its base lines. Either a fin holds the digit,
# or the fish does; a target must lose it both ways, so it lies in a cover line (outside the
# base lines) and sees every fin: on rows and columns that puts the fins in its box (on jigsaw,
# its region; on X and hyper boards a diagonal or window may join it to a fin too). Nothing
# needs the base lines to keep two places each without the fins: where one keeps one or none,
# the fish is "sashimi" (the sentence says so) and the same reasoning holds, so sashimi fish
# are found here too.


def _finned_fish(size: int) -> Technique:
    doc = f"A {_FISH_NAMES[size]} with extra places (fins): targets must see them all."
    return per_digit_since(_FINNED_NAMES[size], functools.partial(_finned_digit, size), doc)


# A base line as the finned search sees it: its number, the positions of the digit's places
# (a bitmask), the positions among them whose place nothing could see across (see
# :func:`_digit_lines`), its cells (a bitboard), and per position its ``sights``.
_Line = tuple[int, int, int, int, tuple[int, ...]]


def _finned_digit(
    size: int, cand: Candidates, t: Tables, d: Digit, lost: int | None
) -> Step | None:
    """The first finned fish of ``size`` on digit ``d``, either orientation (only those with
    a base line that ``lost`` places, when given: see :func:`.base.per_digit_since`)."""
    found = _lines_of(cand, t, d)
    hot = -1 if lost is None else lost
    # Up to two fin positions beyond the fish's own: a box that a cover line crosses spans at
    # most two more. (A jigsaw region may span more; such rarer fish are left to the chains,
    # which find what they remove.)
    most = size + 2
    for which, orientation in enumerate(_orientations(t)):
        lines = [line for line in found[which] if line[1].bit_count() <= most]
        if not any(line[3] & hot for line in lines):
            continue
        for group in combinations(lines, size):
            union = 0
            for line in group:
                union |= line[1]
            extra = union.bit_count() - size
            if not 0 < extra <= 2:
                continue
            blind = board = 0
            for line in group:
                blind |= line[2]
                board |= line[3]
            if not board & hot or not _fins_in_sight(group, union & ~blind, ~board, extra):
                continue
            step = _finned_covers(cand, t, size, d, orientation, group, union)
            if step is not None:
                return step
    return None


def _fins_in_sight(group: tuple[_Line, ...], maybe: int, free: int, extra: int) -> bool:
    """Whether ``extra`` of the positions ``maybe`` have places that some cell of ``free``
    (off the base lines) sees, on every line of ``group``.

    A left-out position's places are fins, and a target must see them all from outside the
    base lines: fewer such positions than must be left out rule the group out before the
    cover lines are tried (most groups, at the forcing stalls of top95's slowest puzzles).
    """
    alive = 0
    while maybe and alive < extra:
        low = maybe & -maybe
        p = low.bit_length() - 1
        near = free
        for line in group:
            near &= line[4][p]
        if near:
            alive += 1
        maybe ^= low
    return alive >= extra


# One slot, like base.digit_boards: the position last searched, and per digit its lines in
# both orientations. The three finned rungs search a stalled position one after another, and
# mostly the same digits (those whose places changed since each last searched in vain).
_last_lines: tuple[tuple[int, ...], Tables | None, dict[Digit, tuple[list[_Line], ...]]] = (
    (),
    None,
    {},
)


def _lines_of(cand: Candidates, t: Tables, d: Digit) -> tuple[list[_Line], ...]:
    """:func:`_digit_lines` of digit ``d`` in both orientations (cached for the position)."""
    global _last_lines
    masks, tables, known = _last_lines
    if masks is not cand.masks or tables is not t:
        known = {}
        _last_lines = (cand.masks, t, known)
    found = known.get(d)
    if found is None:
        on = digit_boards(cand)[d - 1]
        found = known[d] = tuple(_digit_lines(t, on, o) for o in _orientations(t))
    return found


def _digit_lines(t: Tables, on: int, orientation: _Orientation) -> list[_Line]:
    """The base lines holding the digit (bitboard ``on``) in two places or more.

    A line's ``sights`` (per position, -1 where the line has no place: a no-op in an AND) are
    the digit's places off the line and off that position's cover line that see the line's
    place there: the targets that place would allow if it were a fin.
    """
    base, cover, position, _ = orientation
    house_bits, peer_bits = t.house_bits, t.peer_bits
    out: list[_Line] = []
    for i, h in enumerate(base):
        board = house_bits[h]
        places = on & board
        if not places & (places - 1):
            continue  # fewer than two places
        spread = blind = 0
        sights = [-1] * len(cover)
        while places:
            low = places & -places
            c = low.bit_length() - 1
            p = position[c]
            sight = on & peer_bits[c] & ~board & ~house_bits[cover[p]]
            sights[p] = sight
            spread |= 1 << p
            if not sight:
                blind |= 1 << p
            places ^= low
        out.append((i, spread, blind, board, tuple(sights)))
    return out


def _finned_covers(
    cand: Candidates,
    t: Tables,
    size: int,
    d: Digit,
    orientation: _Orientation,
    group: tuple[_Line, ...],
    union: int,
) -> Step | None:
    """The first choice of ``size`` cover lines among ``union`` that removes something."""
    _, cover, _, _ = orientation
    house_bits = t.house_bits
    base_board = cover_union = 0
    for line in group:
        base_board |= line[3]
    positions = [p for p in range(t.geometry.size) if union >> p & 1]
    for p in positions:
        cover_union |= house_bits[cover[p]]
    # Per position, on bitboards: the targets if that position were left out, the digit's
    # places in the other cover lines, outside the base lines, that see every place of it
    # there in the base lines (the fins).
    reach = cover_union & ~base_board
    seeing: dict[int, int] = {}
    for p in positions:
        near = reach
        for line in group:
            near &= line[4][p]
        if near:
            seeing[p] = near
    # The positions left out, in the order that takes the cover lines in ascending order
    # (the complement of ascending combinations comes in descending order). Each position's
    # targets lie off its own cover line, so those of all the left-out positions lie in the
    # cover lines taken.
    extra = len(positions) - size
    for left_out in reversed(list(combinations(seeing, extra))):
        near = -1
        for p in left_out:
            near &= seeing[p]
        if near:
            cover_lines = [p for p in positions if p not in left_out]
            cover_board = 0
            for p in cover_lines:
                cover_board |= house_bits[cover[p]]
            spots = set_bits(base_board & digit_boards(cand)[d - 1])
            fins = [c for c in spots if not cover_board >> c & 1]
            elims = [(c, d) for c in set_bits(near)]
            fish: _Fish = ([line[0] for line in group], cover_lines, spots, fins)
            return _fish_step(cand, t, size, d, orientation, fish, elims)
    return None


def _fish_step(
    cand: Candidates,
    t: Tables,
    size: int,
    d: Digit,
    orientation: _Orientation,
    fish: _Fish,
    elims: list[tuple[Cell, Digit]],
) -> Step:
    """A fish's step: base lines, cover lines, the digit's places in the base lines (``spots``,
    the fins among them) and what it removes."""
    geo = t.geometry
    base, cover, _, kinds = orientation
    base_lines, cover_lines, spots, fins = fish
    lines = {"row": N_("rows {numbers}"), "column": N_("columns {numbers}")}
    said: dict[str, Value] = {
        "base": words(lines[kinds[0]], numbers=listing(str(n + 1) for n in base_lines)),
        "cover": words(lines[kinds[1]], numbers=listing(str(n + 1) for n in cover_lines)),
        "digit": geo.symbol(d),
        "removed": cell_list(geo, [c for c, _ in elims]),
    }
    if fins:
        name = _FINNED_NAMES[size]
        sashimi = _sashimi(geo, d, orientation, base_lines, spots, fins)
        said.update(fins=cell_list(geo, fins), fish=_FISH_WORDS[size])
        if sashimi is None:
            forms = Np_(
                "In {base}, {digit} can only go in {cover}, except for the fin {fins}. Either the "
                "fin holds {digit}, or the {fish} does; either way {digit} is removed from "
                "{removed}: in {cover}, seeing the fin.",
                "In {base}, {digit} can only go in {cover}, except for the fins {fins}. Either a "
                "fin holds {digit}, or the {fish} does; either way {digit} is removed from "
                "{removed}: in {cover}, seeing every fin.",
            )
        else:
            said["sashimi"] = sashimi
            forms = Np_(
                "In {base}, {digit} can only go in {cover}, except for the fin {fins}; without "
                "it, {sashimi} (a sashimi {fish}). Either the fin holds {digit}, or the {fish} "
                "does; either way {digit} is removed from {removed}: in {cover}, seeing the fin.",
                "In {base}, {digit} can only go in {cover}, except for the fins {fins}; without "
                "them, {sashimi} (a sashimi {fish}). Either a fin holds {digit}, or the {fish} "
                "does; either way {digit} is removed from {removed}: in {cover}, seeing every "
                "fin.",
            )
        sentence = counted(forms, len(fins), **said)
    else:
        name = _FISH_NAMES[size]
        sentence = words(
            N_(
                "In {base}, {digit} can only go in {cover}; each of those {count} lines needs a "
                "{digit}, so every {digit} of {cover} is among {cells}, and {digit} is removed "
                "from {removed}."
            ),
            count=str(size),
            cells=cell_list(geo, spots),
            **said,
        )
    return _step(
        name,
        sentence,
        cand,
        houses=_fish_houses(geo, base, cover, base_lines, cover_lines),
        cells=spots,
        eliminations=elims,
    )


def _sashimi(
    geo: Geometry,
    d: Digit,
    orientation: _Orientation,
    base_lines: list[int],
    spots: list[Cell],
    fins: list[Cell],
) -> Listing | None:
    """``row 4 would keep 1 only in r4c8`` for each base line that keeps fewer than two places
    without the fins (a sashimi fish); None when none does."""
    base = orientation[0]
    sym = geo.symbol(d)
    parts: list[Value] = []
    for i in base_lines:
        house = geo.houses[base[i]]
        line = set(house.cells)
        body = [c for c in spots if c in line and c not in fins]
        if len(body) == 1:
            parts.append(
                words(
                    N_("{house} would keep {digit} only in {cell}"),
                    house=house.words,
                    digit=sym,
                    cell=geo.cell_name(body[0]),
                )
            )
        elif not body:
            parts.append(
                words(N_("{house} would have no place for {digit}"), house=house.words, digit=sym)
            )
    return listing(parts) if parts else None


finned_x_wing = _finned_fish(2)
finned_swordfish = _finned_fish(3)
finned_jellyfish = _finned_fish(4)
