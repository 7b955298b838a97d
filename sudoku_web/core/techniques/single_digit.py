"""Single-digit patterns: skyscraper, two-string kite, simple colouring."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from ..board import Geometry
from .base import (
    Candidates,
    Cell,
    Digit,
    Step,
    Tables,
    _and,
    _cells,
    _failed,
    _removal_of,
    _seeing_both,
    _step,
    _strong_links,
    _which,
    digit_boards,
)


def _two_links(kind: str) -> Callable[[Candidates, Tables], Step | None]:
    def chain(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        houses = geo.houses
        lines = ("row", "column")
        memo = _failed.get()
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            key = None if memo is None else (kind, d, digit_boards(cand)[d - 1])
            if memo is not None and key in memo:
                continue  # failed before on the same places of d
            links = [link for link in _strong_links(cand, t, bit) if houses[link[0]].kind in lines]
            for (h1, p, q), (h2, r, s) in combinations(links, 2):
                k1, k2 = houses[h1].kind, houses[h2].kind
                if (kind == "Skyscraper") != (k1 == k2):
                    continue
                for a, b in ((p, q), (q, p)):
                    for c, e in ((r, s), (s, r)):
                        if len({a, b, c, e}) < 4 or not _joined(t, kind, k1, b, e):
                            continue
                        if kind == "Skyscraper" and _aligned(t, k1, a, c):
                            continue  # an X-wing, not a skyscraper
                        targets = [x for x in _seeing_both(cand, t, bit, a, c) if x not in (b, e)]
                        if not targets:
                            continue
                        sym = geo.symbol(d)
                        elims = [(x, d) for x in targets]
                        joint = _and([h.name for h in geo.shared_houses(b, e)])
                        sentence = (
                            f"{sym} must go in {geo.cell_name(a)} or {geo.cell_name(b)} "
                            f"({houses[h1].name}), and in {geo.cell_name(c)} or "
                            f"{geo.cell_name(e)} ({houses[h2].name}). {geo.cell_name(b)} and "
                            f"{geo.cell_name(e)} cannot both be {sym} ({joint}), so "
                            f"{geo.cell_name(a)} or {geo.cell_name(c)} is {sym}, and "
                            f"{_removal_of(geo, d, elims)}, {_which(elims)} both."
                        )
                        return _step(
                            kind,
                            sentence,
                            cand,
                            houses=[houses[h1], houses[h2], *geo.shared_houses(b, e)],
                            cells=[a, b, e, c],
                            eliminations=elims,
                        )
            if memo is not None and key is not None:
                memo.add(key)  # nothing for this digit on this board
        return None

    chain.__doc__ = f"{kind}: two strong links on one digit whose near ends see each other."
    return chain


def _joined(t: Tables, kind: str, line_kind: str, b: Cell, e: Cell) -> bool:
    """Skyscraper: the near ends share the crossing line; kite: they share a box (region)."""
    if kind == "Skyscraper":
        return _aligned(t, line_kind, b, e)
    return any(h.kind not in ("row", "column") for h in t.geometry.shared_houses(b, e))


def _aligned(t: Tables, line_kind: str, a: Cell, b: Cell) -> bool:
    """For links in rows: same column; for links in columns: same row."""
    if line_kind == "row":
        return t.col_of[a] == t.col_of[b]
    return t.row_of[a] == t.row_of[b]


skyscraper = _two_links("Skyscraper")
two_string_kite = _two_links("Two-string kite")


def simple_colouring(cand: Candidates, t: Tables) -> Step | None:
    """Colour a digit's strong-link chains in two colours; one colour holds every true place."""
    geo = t.geometry
    memo = _failed.get()
    for d in range(1, geo.size + 1):
        bit = 1 << (d - 1)
        key = None if memo is None else ("Simple colouring", d, digit_boards(cand)[d - 1])
        if memo is not None and key in memo:
            continue  # failed before on the same places of d
        adjacent: dict[Cell, set[Cell]] = {}
        link_houses: dict[frozenset[Cell], int] = {}
        for h, a, b in _strong_links(cand, t, bit):
            adjacent.setdefault(a, set()).add(b)
            adjacent.setdefault(b, set()).add(a)
            link_houses.setdefault(frozenset((a, b)), h)
        seen: set[Cell] = set()
        for start in sorted(adjacent):
            if start in seen:
                continue
            colour = {start: 0}
            todo = [start]
            odd = False
            while todo:
                cell = todo.pop()
                for nxt in adjacent[cell]:
                    if nxt not in colour:
                        colour[nxt] = 1 - colour[cell]
                        todo.append(nxt)
                    elif colour[nxt] == colour[cell]:
                        odd = True  # only in a contradictory position; reason from nothing
            seen.update(colour)
            if odd or len(colour) < 3:
                continue  # a lone strong link is the kite/intersection's business
            found = _colour_wrap(cand, t, d, colour) or _colour_trap(cand, t, d, colour)
            if found:
                return found
        if memo is not None and key is not None:
            memo.add(key)  # nothing for this digit on this board
    return None


def _colour_names(geo: Geometry, colour: dict[Cell, int]) -> tuple[list[Cell], list[Cell]]:
    blue = sorted(c for c, k in colour.items() if k == 0)
    green = sorted(c for c, k in colour.items() if k == 1)
    return blue, green


def _colour_wrap(cand: Candidates, t: Tables, d: Digit, colour: dict[Cell, int]) -> Step | None:
    geo = t.geometry
    blue, green = _colour_names(geo, colour)
    for name, group in (("blue", blue), ("green", green)):
        for a, b in combinations(group, 2):
            if t.sees(a, b):
                sym = geo.symbol(d)
                elims = [(c, d) for c in group]
                other = green if name == "blue" else blue
                sentence = (
                    f"Following {sym}'s strong links, either the blue cells ({_cells(geo, blue)}) "
                    f"or the green cells ({_cells(geo, green)}) all hold {sym}. Two {name} cells, "
                    f"{geo.cell_name(a)} and {geo.cell_name(b)}, see each other, so {name} is "
                    f"false: {_removal_of(geo, d, elims)} and {sym} goes in "
                    f"{_cells(geo, other)}."
                )
                return _step(
                    "Simple colouring",
                    sentence,
                    cand,
                    houses=geo.shared_houses(a, b),
                    cells=blue + green,
                    eliminations=elims,
                )
    return None


def _colour_trap(cand: Candidates, t: Tables, d: Digit, colour: dict[Cell, int]) -> Step | None:
    geo = t.geometry
    bit = 1 << (d - 1)
    blue, green = _colour_names(geo, colour)
    elims = []
    for cell, m in enumerate(cand.masks):
        if not m & bit or cell in colour:
            continue
        near = t.peer_sets[cell]
        if any(b in near for b in blue) and any(g in near for g in green):
            elims.append((cell, d))
    if not elims:
        return None
    sym = geo.symbol(d)
    sentence = (
        f"Following {sym}'s strong links, either the blue cells ({_cells(geo, blue)}) or the "
        f"green cells ({_cells(geo, green)}) all hold {sym}. Whichever it is, a cell that sees "
        f"both a blue and a green cell cannot be {sym}: {_removal_of(geo, d, elims)}."
    )
    return _step("Simple colouring", sentence, cand, cells=blue + green, eliminations=elims)


# ---------------------------------------------------------------------------------------------
# Empty rectangle: a box (or any house not a line) whose places for a digit lie on one row and
# one column, with a strong link on that digit in a line outside it.


def empty_rectangle(cand: Candidates, t: Tables) -> Step | None:
    """A box's places for a digit lie on one row and one column (its "cross"); a strong link
    whose one end is on the cross's row (column) removes the digit where the other end's
    column (row) meets the cross's column (row)."""
    geo = t.geometry
    memo = _failed.get()
    for d in range(1, geo.size + 1):
        bit = 1 << (d - 1)
        key = ("Empty rectangle", d, digit_boards(cand)[d - 1])
        if memo is not None and key in memo:
            continue  # failed before on the same places of d
        links = [
            link
            for link in _strong_links(cand, t, bit)
            if geo.houses[link[0]].kind in ("row", "column")
        ]
        for h, house in enumerate(geo.houses):
            if house.kind in ("row", "column") or not links:
                continue
            for r, c in _crosses(cand, t, house.cells, bit):
                step = _rectangle_step(cand, t, d, h, (r, c), links)
                if step is not None:
                    return step
        if memo is not None:
            memo.add(key)  # nothing for this digit on this board
    return None


def _crosses(
    cand: Candidates, t: Tables, cells: tuple[Cell, ...], bit: int
) -> list[tuple[int, int]]:
    """(row, column) pairs whose union holds every place of the digit in ``cells``, for
    places spread over two rows and two columns at least (else it is plain pointing)."""
    spots = [c for c in cells if cand.masks[c] & bit]
    rows = {t.row_of[c] for c in spots}
    cols = {t.col_of[c] for c in spots}
    if len(spots) < 2 or len(rows) < 2 or len(cols) < 2:
        return []
    return [
        (r, c)
        for r in sorted(rows)
        for c in sorted(cols)
        if all(t.row_of[x] == r or t.col_of[x] == c for x in spots)
    ]


def _rectangle_step(
    cand: Candidates,
    t: Tables,
    d: Digit,
    h: int,
    cross: tuple[int, int],
    links: list[tuple[int, Cell, Cell]],
) -> Step | None:
    """The first strong link that turns the cross of house ``h`` into an elimination."""
    geo = t.geometry
    n = geo.size
    inside = set(geo.houses[h].cells)
    r, c = cross
    for line, a, b in links:
        by_column = geo.houses[line].kind == "column"
        for x, y in ((a, b), (b, a)):
            # x on the cross's row (a column link) or column (a row link), outside the house
            if x in inside or (t.row_of[x] != r if by_column else t.col_of[x] != c):
                continue
            if (t.col_of[x] == c) if by_column else (t.row_of[x] == r):
                continue
            target = t.row_of[y] * n + c if by_column else r * n + t.col_of[y]
            if target in inside or target == y or not cand.masks[target] & (1 << (d - 1)):
                continue
            return _empty_rectangle_sentence(cand, t, d, h, cross, (line, x, y), target)
    return None


def _empty_rectangle_sentence(
    cand: Candidates,
    t: Tables,
    d: Digit,
    h: int,
    cross: tuple[int, int],
    link: tuple[int, Cell, Cell],
    target: Cell,
) -> Step:
    geo = t.geometry
    house, line = geo.houses[h], geo.houses[link[0]]
    x, y = link[1], link[2]
    sym, r, c = geo.symbol(d), cross[0], cross[1]
    arm = f"column {c + 1}" if line.kind == "column" else f"row {r + 1}"
    spots = [cell for cell in house.cells if cand.masks[cell] & (1 << (d - 1))]
    sentence = (
        f"In {house.name}, {sym} can only go in row {r + 1} or column {c + 1} (an empty "
        f"rectangle), and in {line.name} only in {geo.cell_name(x)} or {geo.cell_name(y)}. If "
        f"{geo.cell_name(x)} is {sym}, {house.name}'s {sym} is in {arm}; if not, "
        f"{geo.cell_name(y)} is. {geo.cell_name(target)} sees {geo.cell_name(y)} and "
        f"{house.name}'s part of {arm}, so either way {sym} is removed from it."
    )
    return _step(
        "Empty rectangle",
        sentence,
        cand,
        houses=[house, line],
        cells=[*spots, x, y],
        eliminations=[(target, d)],
    )
