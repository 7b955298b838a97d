"""Uniqueness: unique rectangle types 2 to 6 and the hidden rectangle.

Each works on the rectangles of :func:`.uniqueness.rectangles` (four open corners holding
the same two digits a and b, over two boxes, where swapping a and b keeps every house valid)
and on one argument: if the corners ended as a, b / b, a, the puzzle would have two
solutions, so whatever keeps the pattern from closing must hold. Sound only for a puzzle
known to have exactly one solution (the ladder skips these rungs otherwise).

type 2
    The floor holds just a and b, both roof corners add the same one digit c: one of them
    is c, so c leaves every cell that sees both.
type 3
    The floor holds just a and b, the roof adds several digits: one roof corner holds one
    of them, so the roof acts as one more cell with those digits in a naked subset of a
    house both roof corners share.
type 4
    The floor holds just a and b, and in a house both roof corners share a can only go in
    the roof: one of them is a, so neither can be b.
type 5
    Two diagonal corners or three add the same one digit c (the others hold just a and b):
    one of them is c, so c leaves every cell that sees all of them.
type 6
    Two diagonal corners hold just a and b, and a has only the rectangle's two places in
    both its rows (or both its columns): the other two corners cannot be a.
hidden rectangle
    One corner holds just a and b, and a has only the rectangle's places in the row and the
    column of the opposite corner: that corner cannot be b.
"""

from __future__ import annotations

from itertools import combinations

from ..board import House
from ..wording import N_, Np_, counted, listing, words
from .base import (
    Candidates,
    Cell,
    Step,
    Tables,
    _step,
    bits_to_digits,
    cell_list,
    digit_boards,
    digit_list,
    house_list,
    removals,
)
from .uniqueness import OPPOSITE, SIDES, Rectangle, _rectangle_words, _two_solutions, rectangles

# The biggest naked subset type 3 looks for, the roof counting as one cell (a quad).
MAX_SUBSET = 4


def unique_rectangle_2(cand: Candidates, t: Tables) -> Step | None:
    """Floor {a,b}, both roof corners {a,b,c}: c leaves the cells that see both."""
    masks = cand.masks
    for rect in rectangles(cand, t):
        pair = rect[0]
        for _, roof in _floors(masks, rect):
            extra = masks[roof[0]] & ~pair
            if extra != masks[roof[1]] & ~pair or extra.bit_count() != 1:
                continue
            step = _extra_step(cand, t, rect, roof, extra, "Unique rectangle type 2")
            if step is not None:
                return step
    return None


def unique_rectangle_5(cand: Candidates, t: Tables) -> Step | None:
    """Two diagonal corners or three add the same one digit c: c leaves the cells seeing all."""
    masks = cand.masks
    for rect in rectangles(cand, t):
        pair, corners = rect
        with_extra = tuple(c for c in corners if masks[c] != pair)
        if len(with_extra) not in (2, 3):
            continue
        extra = masks[with_extra[0]] & ~pair
        if extra.bit_count() != 1 or any(masks[c] & ~pair != extra for c in with_extra):
            continue
        diagonal = len(with_extra) == 2 and with_extra in ((corners[0], corners[3]), corners[1:3])
        if len(with_extra) != 3 and not diagonal:
            continue
        step = _extra_step(cand, t, rect, with_extra, extra, "Unique rectangle type 5")
        if step is not None:
            return step
    return None


def _floors(
    masks: tuple[int, ...], rect: Rectangle
) -> list[tuple[tuple[Cell, Cell], tuple[Cell, Cell]]]:
    """(floor, roof) for each side holding just the pair whose opposite side adds digits."""
    pair, corners = rect
    out = []
    for s, (i, j) in enumerate(SIDES):
        k, m = SIDES[s ^ 1]
        if masks[corners[i]] == pair == masks[corners[j]] and masks[corners[k]] != pair:
            if masks[corners[m]] != pair:
                out.append(((corners[i], corners[j]), (corners[k], corners[m])))
    return out


def _extra_step(
    cand: Candidates,
    t: Tables,
    rect: Rectangle,
    holders: tuple[Cell, ...],
    extra: int,
    technique: str,
) -> Step | None:
    """One of ``holders`` is the extra digit: remove it from the cells seeing them all."""
    geo = t.geometry
    pair, corners = rect
    masks = cand.masks
    seeing = set.intersection(*(set(t.peer_sets[c]) for c in holders))
    digit = extra.bit_length()
    elims = [(c, digit) for c in sorted(seeing) if masks[c] & extra and c not in corners]
    if not elims:
        return None
    others = [c for c in corners if c not in holders]
    forms = (
        Np_(
            "{rectangle}; {others} holds nothing else and {holders} only add {digit}. If "
            "neither were {digit}, {swap}; it has one, so one of them is {digit}: remove "
            "{removals}.",
            "{rectangle}; {others} hold nothing else and {holders} only add {digit}. If "
            "neither were {digit}, {swap}; it has one, so one of them is {digit}: remove "
            "{removals}.",
        )
        if len(holders) == 2
        else Np_(
            "{rectangle}; {others} holds nothing else and {holders} only add {digit}. If none "
            "of them were {digit}, {swap}; it has one, so one of them is {digit}: remove "
            "{removals}.",
            "{rectangle}; {others} hold nothing else and {holders} only add {digit}. If none "
            "of them were {digit}, {swap}; it has one, so one of them is {digit}: remove "
            "{removals}.",
        )
    )
    sentence = counted(
        forms,
        len(others),
        rectangle=_rectangle_words(geo, rect),
        others=cell_list(geo, others),
        holders=cell_list(geo, holders),
        digit=geo.symbol(digit),
        swap=_two_solutions(geo, pair),
        removals=removals(geo, elims),
    )
    return _step(technique, sentence, cand, cells=corners, eliminations=elims)


#: The naked subset a type 3 rectangle's roof makes, by its size, as a sentence names it.
SUBSETS = {2: N_("naked pair"), 3: N_("naked triple"), 4: N_("naked quad")}


def unique_rectangle_3(cand: Candidates, t: Tables) -> Step | None:
    """Floor {a,b}, roof adding digits X: the roof is one cell with X in a naked subset."""
    masks = cand.masks
    for rect in rectangles(cand, t):
        pair = rect[0]
        for _, roof in _floors(masks, rect):
            extra = (masks[roof[0]] | masks[roof[1]]) & ~pair
            if extra.bit_count() < 2 or extra.bit_count() >= MAX_SUBSET:
                continue
            shared = set(t.geometry.cell_houses[roof[0]]) & set(t.geometry.cell_houses[roof[1]])
            for h in sorted(shared):
                step = _roof_subset(cand, t, rect, roof, extra, h)
                if step is not None:
                    return step
    return None


def _roof_subset(
    cand: Candidates, t: Tables, rect: Rectangle, roof: tuple[Cell, Cell], extra: int, h: int
) -> Step | None:
    """The roof as one cell holding ``extra``, in a naked subset of house ``h``, or None."""
    masks = cand.masks
    open_cells = [c for c in t.house_cells[h] if masks[c] and c not in roof]
    fits = [c for c in open_cells if (masks[c] | extra).bit_count() < MAX_SUBSET + 1]
    for size in range(1, MAX_SUBSET):
        for subset in combinations(fits, size):
            union = extra
            for c in subset:
                union |= masks[c]
            if union.bit_count() != size + 1:
                continue
            elims = [
                (c, d)
                for c in open_cells
                if c not in subset and masks[c] & union
                for d in bits_to_digits(masks[c] & union)
            ]
            if elims:
                return _type_3_step(cand, t, rect, roof, extra, h, subset, union, elims)
    return None


def _type_3_step(
    cand: Candidates,
    t: Tables,
    rect: Rectangle,
    roof: tuple[Cell, Cell],
    extra: int,
    h: int,
    subset: tuple[Cell, ...],
    union: int,
    elims: list[tuple[Cell, int]],
) -> Step:
    geo = t.geometry
    pair, corners = rect
    house = geo.houses[h]
    floor = [c for c in corners if c not in roof]
    helpers = listing(
        f"{geo.cell_name(c)} ({', '.join(geo.symbol(d) for d in cand.digits(c))})" for c in subset
    )
    sentence = words(
        N_(
            "{rectangle}; {floor} hold nothing else, and {roof} add {extra}. If neither held one "
            "of those, {swap}; it has one, so one of them does, and the two act as one cell with "
            "{extra}. With {helpers} that makes a {subset} of {digits} in {house}: remove "
            "{removals}."
        ),
        rectangle=_rectangle_words(geo, rect),
        floor=cell_list(geo, floor),
        roof=cell_list(geo, roof),
        extra=digit_list(geo, bits_to_digits(extra)),
        swap=_two_solutions(geo, pair),
        helpers=helpers,
        subset=words(SUBSETS[len(subset) + 1]),
        digits=digit_list(geo, bits_to_digits(union)),
        house=house.words,
        removals=removals(geo, elims),
    )
    return _step(
        "Unique rectangle type 3",
        sentence,
        cand,
        houses=[house],
        cells=[*corners, *subset],
        eliminations=elims,
    )


def unique_rectangle_4(cand: Candidates, t: Tables) -> Step | None:
    """Floor {a,b}, a only in the roof within a house: the roof corners cannot be b."""
    geo = t.geometry
    masks = cand.masks
    boards = digit_boards(cand)
    for rect in rectangles(cand, t):
        pair, corners = rect
        for floor, roof in _floors(masks, rect):
            both = (1 << roof[0]) | (1 << roof[1])
            for h in sorted(set(geo.cell_houses[roof[0]]) & set(geo.cell_houses[roof[1]])):
                for a, b in _orders(pair):
                    if boards[a - 1] & t.house_bits[h] != both:
                        continue
                    elims = [(roof[0], b), (roof[1], b)]
                    house = geo.houses[h]
                    sentence = words(
                        N_(
                            "{rectangle}; {floor} hold nothing else. In {house}, {a} can only "
                            "go in {roof}, so one of them is {a}; if the other were {b}, {swap}; "
                            "it has one, so remove {removals}."
                        ),
                        rectangle=_rectangle_words(geo, rect),
                        floor=cell_list(geo, floor),
                        house=house.words,
                        a=geo.symbol(a),
                        b=geo.symbol(b),
                        roof=cell_list(geo, roof),
                        swap=_two_solutions(geo, pair),
                        removals=removals(geo, elims),
                    )
                    return _step(
                        "Unique rectangle type 4",
                        sentence,
                        cand,
                        houses=[house],
                        cells=corners,
                        eliminations=elims,
                    )
    return None


def _orders(pair: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The pair's two digits both ways round: (a, b) and (b, a)."""
    a, b = bits_to_digits(pair)
    return ((a, b), (b, a))


def unique_rectangle_6(cand: Candidates, t: Tables) -> Step | None:
    """Diagonal {a,b} corners, a locked to the rectangle in both rows (or both columns):
    the other two corners cannot be a."""
    geo = t.geometry
    masks = cand.masks
    boards = digit_boards(cand)
    for rect in rectangles(cand, t):
        pair, corners = rect
        for floor, roof in ((0, 3), (1, 2)), ((1, 2), (0, 3)):
            if masks[corners[floor[0]]] != pair or masks[corners[floor[1]]] != pair:
                continue
            for a, b in _orders(pair):
                lines = _locked_lines(t, boards[a - 1], corners)
                if not lines:
                    continue
                elims = [(corners[roof[0]], a), (corners[roof[1]], a)]
                ends = [geo.cell_name(corners[i]) for i in roof]
                sentence = words(
                    N_(
                        "{rectangle}; {floor} hold nothing else. In {lines}, {digit} can only go "
                        "in the corners, so if {either} were {digit}, both would be, with "
                        "{other} in the other two, and {swap}; it has one, so {ends} are not "
                        "{digit}: remove {removals}."
                    ),
                    rectangle=_rectangle_words(geo, rect),
                    floor=cell_list(geo, [corners[i] for i in floor]),
                    lines=house_list(lines),
                    digit=geo.symbol(a),
                    either=listing(ends, "or"),
                    other=geo.symbol(b),
                    swap=_two_solutions(geo, pair),
                    ends=listing(ends),
                    removals=removals(geo, elims),
                )
                return _step(
                    "Unique rectangle type 6", sentence, cand, cells=corners, eliminations=elims
                )
    return None


def _locked_lines(t: Tables, board: int, corners: tuple[Cell, ...]) -> list[House]:
    """Both rows, or else both columns, of the rectangle where the digit (its bitboard
    ``board``) has only the two corners; [] when neither pair of lines does."""
    geo = t.geometry
    for sides, kind in (((0, 1), (2, 3)), "row"), (((0, 2), (1, 3)), "column"):
        names = []
        for i, j in sides:
            line = t.rows[t.row_of[corners[i]]] if kind == "row" else t.cols[t.col_of[corners[i]]]
            if board & t.house_bits[line] != (1 << corners[i]) | (1 << corners[j]):
                break
            names.append(geo.houses[line])
        else:
            return names
    return []


def hidden_rectangle(cand: Candidates, t: Tables) -> Step | None:
    """Corner {a,b}; a only in the rectangle in the row and column of the opposite corner:
    that corner cannot be b."""
    geo = t.geometry
    masks = cand.masks
    boards = digit_boards(cand)
    for rect in rectangles(cand, t):
        pair, corners = rect
        for i, base in enumerate(corners):
            if masks[base] != pair:
                continue
            far = corners[OPPOSITE[i]]
            row, col = t.rows[t.row_of[far]], t.cols[t.col_of[far]]
            # The corner beside the far one in its row, and the one in its column.
            beside = next(c for c in corners if c != far and t.row_of[c] == t.row_of[far])
            above = next(c for c in corners if c != far and t.col_of[c] == t.col_of[far])
            for a, b in _orders(pair):
                board = boards[a - 1]
                if board & t.house_bits[row] != (1 << far) | (1 << beside):
                    continue
                if board & t.house_bits[col] != (1 << far) | (1 << above):
                    continue
                elims = [(far, b)]
                sentence = words(
                    N_(
                        "{rectangle}; {base} holds nothing else. In {row} and {column}, {digit} "
                        "can only go in the corners, so if {far} were {other}, {cells} would be "
                        "{digit} and {base} {other}, and {swap}; it has one, so remove "
                        "{removals}."
                    ),
                    rectangle=_rectangle_words(geo, rect),
                    base=geo.cell_name(base),
                    row=geo.houses[row].words,
                    column=geo.houses[col].words,
                    digit=geo.symbol(a),
                    far=geo.cell_name(far),
                    other=geo.symbol(b),
                    cells=cell_list(geo, [above, beside]),
                    swap=_two_solutions(geo, pair),
                    removals=removals(geo, elims),
                )
                return _step(
                    "Hidden rectangle",
                    sentence,
                    cand,
                    houses=[geo.houses[row], geo.houses[col]],
                    cells=corners,
                    eliminations=elims,
                )
    return None
