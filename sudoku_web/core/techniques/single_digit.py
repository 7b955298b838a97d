"""Single-digit patterns: skyscraper, two-string kite, simple colouring, multi-colouring,
empty rectangle.

cluster
    A digit's places joined by strong links (directly or through each other); colouring it
    in two colours in turn along the links, one colour holds the digit in all its cells and
    the other in none.
colour wrap, colour trap
    A colour proved false because its cells see each other (or, across two clusters, both
    colours of the other cluster); a cell outside seeing two colours one of which is true.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from ..board import Geometry, house_words
from ..wording import N_, Np_, Value, Words, counted, words
from .base import (
    Candidates,
    Cell,
    Digit,
    Link,
    PositionMemo,
    Step,
    Tables,
    Technique,
    _bitboard,
    _seeing_both,
    _step,
    _strong_links,
    cell_list,
    digit_boards,
    house_list,
    per_digit_since,
)

_LINES = ("row", "column")


def _two_links_digit(
    kind: str, cand: Candidates, t: Tables, d: Digit, lost: int | None
) -> Step | None:
    """The first skyscraper (kite) on digit ``d`` that removes something (only those with a
    link in a house that ``lost`` places, when given: see :func:`.base.per_digit_since`)."""
    houses = t.geometry.houses
    bit = 1 << (d - 1)
    links = [link for link in _strong_links(cand, t, bit) if houses[link[0]].kind in _LINES]
    hot = -1 if lost is None else lost
    house_bits = t.house_bits
    for (h1, p, q), (h2, r, s) in combinations(links, 2):
        if not (house_bits[h1] | house_bits[h2]) & hot:
            continue
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
                if targets:
                    return _two_links_step(cand, t, kind, d, (h1, a, b), (h2, c, e), targets)
    return None


def _two_links_step(
    cand: Candidates,
    t: Tables,
    kind: str,
    d: Digit,
    first: tuple[int, Cell, Cell],
    second: tuple[int, Cell, Cell],
    targets: list[Cell],
) -> Step:
    """Links ``a``-``b`` and ``c``-``e`` whose near ends ``b`` and ``e`` see each other."""
    geo = t.geometry
    houses = geo.houses
    (h1, a, b), (h2, c, e) = first, second
    elims = [(x, d) for x in targets]
    sentence = counted(
        Np_(
            "{digit} must go in {a} or {b} ({first}), and in {c} or {e} ({second}). {b} and {e} "
            "cannot both be {digit} ({joint}), so {a} or {c} is {digit}, and {digit} is removed "
            "from {removed}, which sees both.",
            "{digit} must go in {a} or {b} ({first}), and in {c} or {e} ({second}). {b} and {e} "
            "cannot both be {digit} ({joint}), so {a} or {c} is {digit}, and {digit} is removed "
            "from {removed}, which see both.",
        ),
        len(targets),
        digit=geo.symbol(d),
        a=geo.cell_name(a),
        b=geo.cell_name(b),
        c=geo.cell_name(c),
        e=geo.cell_name(e),
        first=houses[h1].words,
        second=houses[h2].words,
        joint=house_list(geo.shared_houses(b, e)),
        removed=cell_list(geo, targets),
    )
    return _step(
        kind,
        sentence,
        cand,
        houses=[houses[h1], houses[h2], *geo.shared_houses(b, e)],
        cells=[a, b, e, c],
        eliminations=elims,
    )


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


def _two_links(kind: str) -> Technique:
    doc = f"{kind}: two strong links on one digit whose near ends see each other."
    return per_digit_since(kind, functools.partial(_two_links_digit, kind), doc)


skyscraper = _two_links("Skyscraper")
two_string_kite = _two_links("Two-string kite")


# ---------------------------------------------------------------------------------------------
# Colouring: a digit's strong links join its places into clusters. Along a strong link one end
# holds the digit if the other does not, so colouring a cluster's cells in turn (two colours)
# leaves one colour holding the digit in every cell and the other in none.


@dataclass(frozen=True)
class _Cluster:
    """A digit's places joined by strong links, in two colours (index 0 holds its first cell)."""

    colours: tuple[tuple[Cell, ...], tuple[Cell, ...]]  # each colour's cells, ascending
    boards: tuple[int, int]  # the same as bitboards
    links: tuple[tuple[Cell, Cell], ...]  # its strong links, as found from its first cell

    @property
    def size(self) -> int:
        """How many cells the cluster colours."""
        return len(self.colours[0]) + len(self.colours[1])


def _find_clusters(cand: Candidates, t: Tables, bit: int) -> tuple[_Cluster, ...]:
    adjacent: dict[Cell, set[Cell]] = {}
    for _, a, b in _strong_links(cand, t, bit):
        adjacent.setdefault(a, set()).add(b)
        adjacent.setdefault(b, set()).add(a)
    clusters = []
    seen: set[Cell] = set()
    for start in sorted(adjacent):
        if start not in seen:
            coloured, cluster = _colour_from(adjacent, start)
            seen.update(coloured)
            if cluster is not None:
                clusters.append(cluster)
    return tuple(clusters)


# The digit's clusters, by first cell; a cluster whose colouring fails (two cells of one
# colour joined by a strong link: only in a broken position) is left out. Kept for the
# position: simple and multi-colouring ask one after the other.
_clusters = PositionMemo(_find_clusters)


def _touches(t: Tables, cluster: _Cluster, lost: int | None) -> bool:
    """Whether a house holding a cell of ``cluster`` lost places (always, when not known).

    A cluster whose houses all keep their places was the same cluster, with the same
    strong links, at the search in vain (see :func:`.base.per_digit_since`)."""
    if lost is None:
        return True
    board = cluster.boards[0] | cluster.boards[1]
    return bool((board | _seen_from(t, board)) & lost)


def _colour_from(
    adjacent: dict[Cell, set[Cell]], start: Cell
) -> tuple[dict[Cell, int], _Cluster | None]:
    """Colour the cluster of ``start``: its cells' colours, and the cluster (None if the
    colouring fails)."""
    colour = {start: 0}
    todo = [start]
    links: list[tuple[Cell, Cell]] = []
    drawn: set[frozenset[Cell]] = set()
    odd = False
    while todo:
        cell = todo.pop()
        for nxt in sorted(adjacent[cell]):
            pair = frozenset((cell, nxt))
            if pair in drawn:
                continue  # a link in a row and a box at once is one link
            drawn.add(pair)
            links.append((cell, nxt))
            if nxt not in colour:
                colour[nxt] = 1 - colour[cell]
                todo.append(nxt)
            elif colour[nxt] == colour[cell]:
                odd = True  # reason from nothing here: other steps show the contradiction
    if odd:
        return colour, None
    blue = tuple(sorted(c for c, k in colour.items() if k == 0))
    green = tuple(sorted(c for c, k in colour.items() if k == 1))
    return colour, _Cluster((blue, green), (_bitboard(blue), _bitboard(green)), tuple(links))


def _seen_from(t: Tables, board: int) -> int:
    """The cells (a bitboard) that see at least one cell of ``board``."""
    out = 0
    while board:
        low = board & -board
        out |= t.peer_bits[low.bit_length() - 1]
        board ^= low
    return out


def _first_seeing(t: Tables, cells: Iterable[Cell], board: int) -> tuple[Cell, Cell] | None:
    """The first cell of ``cells`` that sees a cell of ``board``, and the first it sees."""
    for a in cells:
        near = t.peer_bits[a] & board
        if near:
            return a, (near & -near).bit_length() - 1
    return None


def _cluster_links(d: Digit, *clusters: _Cluster) -> list[Link]:
    """The clusters' strong links as chain links on digit ``d`` (for drawing)."""
    return [((a, d), (b, d), True) for cluster in clusters for a, b in cluster.links]


def _either(geo: Geometry, sym: str, cluster: _Cluster, names: tuple[Words, Words]) -> Words:
    """``7 is either in all the blue cells (r1c1 and r5c5) or in the green cell r1c5``."""
    parts: list[Words] = []
    for name, cells in zip(names, cluster.colours, strict=True):
        if len(cells) == 1:
            parts.append(
                words(N_("in the {colour} cell {cell}"), colour=name, cell=geo.cell_name(cells[0]))
            )
        else:
            parts.append(
                words(
                    N_("in all the {colour} cells ({cells})"),
                    colour=name,
                    cells=cell_list(geo, cells),
                )
            )
    return words(
        N_("{digit} is either {first} or {second}"), digit=sym, first=parts[0], second=parts[1]
    )


# The colours of a colouring (the first cluster's, another's), and as a sentence starts with them.
_FIRST = (words(N_("blue")), words(N_("green")))
_SECOND = (words(N_("yellow")), words(N_("purple")))
_FIRST_CAPITAL = (words(N_("Blue")), words(N_("Green")))


def _simple_colouring_digit(cand: Candidates, t: Tables, d: Digit, lost: int | None) -> Step | None:
    """Colour a digit's strong-link chains in two colours; one colour holds every true place."""
    for cluster in _clusters(cand, t, 1 << (d - 1)):
        if cluster.size < 3:
            continue  # a lone strong link is the kite/intersection's business
        if not _touches(t, cluster, lost):
            continue  # there, the same, at the search in vain
        found = _colour_wrap(cand, t, d, cluster) or _colour_trap(cand, t, d, cluster)
        if found:
            return found
    return None


def _colour_wrap(cand: Candidates, t: Tables, d: Digit, cluster: _Cluster) -> Step | None:
    """Two cells of one colour see each other: that colour is false."""
    geo = t.geometry
    for k in (0, 1):
        pair = _first_seeing(t, cluster.colours[k], cluster.boards[k])
        if pair is None:
            continue
        a, b = pair
        sym = geo.symbol(d)
        elims = [(c, d) for c in cluster.colours[k]]
        sentence = words(
            N_(
                "{digit}'s strong links join its places into a cluster: {either}. Two {colour} "
                "cells, {a} and {b}, see each other, so {colour} is false: {digit} is removed "
                "from {removed} and {digit} goes in {cells}."
            ),
            digit=sym,
            either=_either(geo, sym, cluster, _FIRST),
            colour=_FIRST[k],
            a=geo.cell_name(a),
            b=geo.cell_name(b),
            removed=cell_list(geo, cluster.colours[k]),
            cells=cell_list(geo, cluster.colours[1 - k]),
        )
        return _step(
            "Simple colouring",
            sentence,
            cand,
            houses=geo.shared_houses(a, b),
            cells=cluster.colours[0] + cluster.colours[1],
            eliminations=elims,
            links=[*_cluster_links(d, cluster), ((a, d), (b, d), False)],
        )
    return None


def _colour_trap(cand: Candidates, t: Tables, d: Digit, cluster: _Cluster) -> Step | None:
    """A cell outside the cluster that sees both colours cannot hold the digit."""
    geo = t.geometry
    on = digit_boards(cand)[d - 1] & ~(cluster.boards[0] | cluster.boards[1])
    trapped = on & _seen_from(t, cluster.boards[0]) & _seen_from(t, cluster.boards[1])
    if not trapped:
        return None
    elims = [(c, d) for c in range(len(cand.masks)) if trapped >> c & 1]
    sym = geo.symbol(d)
    sentence = words(
        N_(
            "{digit}'s strong links join its places into a cluster: {either}. Whichever it is, a "
            "cell that sees both a blue and a green cell cannot be {digit}: {digit} is removed "
            "from {removed}."
        ),
        digit=sym,
        either=_either(geo, sym, cluster, _FIRST),
        removed=cell_list(geo, [c for c, _ in elims]),
    )
    return _step(
        "Simple colouring",
        sentence,
        cand,
        cells=cluster.colours[0] + cluster.colours[1],
        eliminations=elims,
        links=_cluster_links(d, cluster),
    )


simple_colouring = per_digit_since("Simple colouring", _simple_colouring_digit)


# ---------------------------------------------------------------------------------------------
# Multi-colouring (SudokuWiki's name; HoDoKu's "Multi Colors"): two clusters of one digit, each
# coloured as above, that see each other. At least one has three cells or more: two lone
# strong links seeing each other are a skyscraper, a kite or a shorter X-chain.


def _multi_colouring_digit(cand: Candidates, t: Tables, d: Digit, lost: int | None) -> Step | None:
    """Two colourings of one digit: a colour that sees both colours of the other cluster is
    false (a wrap); a colour seeing one of the other's means one of the two opposite colours
    is true, so cells seeing both of those lose the digit (a trap)."""
    clusters = _clusters(cand, t, 1 << (d - 1))
    hot = {id(c) for c in clusters if _touches(t, c, lost)}
    if not hot:
        return None  # every pair was there, the same, at the search in vain
    for a, b in permutations(clusters, 2):
        if a.size + b.size >= 5 and (id(a) in hot or id(b) in hot):
            step = _clusters_wrap(cand, t, d, a, b)
            if step is not None:
                return step
    for a, b in combinations(clusters, 2):  # seeing each other goes both ways
        if a.size + b.size >= 5 and (id(a) in hot or id(b) in hot):
            step = _clusters_trap(cand, t, d, a, b)
            if step is not None:
                return step
    return None


def _clusters_wrap(cand: Candidates, t: Tables, d: Digit, a: _Cluster, b: _Cluster) -> Step | None:
    """A colour of ``a`` whose cells see both colours of ``b``: it is false."""
    geo = t.geometry
    for k in (0, 1):
        first = _first_seeing(t, a.colours[k], b.boards[0])
        second = _first_seeing(t, a.colours[k], b.boards[1])
        if first is None or second is None:
            continue
        sym = geo.symbol(d)
        (x1, y1), (x2, y2) = first, second
        template = (
            N_(
                "{clusters} {Colour} {x} sees {other} {y} and {another} {z}, so if {colour} were "
                "true, {other} and {another} would both be false: {colour} is false, {digit} is "
                "removed from {removed} and {digit} goes in {cells}."
            )
            if x1 == x2
            else N_(
                "{clusters} {Colour} {x} sees {other} {y} and {colour} {w} sees {another} {z}, "
                "so if {colour} were true, {other} and {another} would both be false: {colour} "
                "is false, {digit} is removed from {removed} and {digit} goes in {cells}."
            )
        )
        values: dict[str, Value] = {
            "clusters": _two_clusters(geo, sym, a, b),
            "Colour": _FIRST_CAPITAL[k],
            "colour": _FIRST[k],
            "other": _SECOND[0],
            "another": _SECOND[1],
            "x": geo.cell_name(x1),
            "y": geo.cell_name(y1),
            "z": geo.cell_name(y2),
            "digit": sym,
            "removed": cell_list(geo, a.colours[k]),
            "cells": cell_list(geo, a.colours[1 - k]),
        }
        if x1 != x2:
            values["w"] = geo.cell_name(x2)
        elims = [(c, d) for c in a.colours[k]]
        sentence = words(template, **values)
        weak = [((x1, d), (y1, d), False), ((x2, d), (y2, d), False)]
        return _multi_step(cand, sentence, (a, b), elims, weak)
    return None


def _clusters_trap(cand: Candidates, t: Tables, d: Digit, a: _Cluster, b: _Cluster) -> Step | None:
    """A colour of ``a`` sees a colour of ``b``: one of the two opposite colours is true, so
    cells seeing both of those lose the digit."""
    geo = t.geometry
    on = digit_boards(cand)[d - 1]
    for k, j in ((0, 0), (0, 1), (1, 0), (1, 1)):
        pair = _first_seeing(t, a.colours[k], b.boards[j])
        if pair is None:
            continue
        trapped = on & _seen_from(t, a.boards[1 - k]) & _seen_from(t, b.boards[1 - j])
        if not trapped:
            continue
        x, y = pair
        sym = geo.symbol(d)
        near, far = _FIRST[1 - k], _SECOND[1 - j]
        elims = [(c, d) for c in range(len(cand.masks)) if trapped >> c & 1]
        sentence = counted(
            Np_(
                "{clusters} {Colour} {x} sees {other} {y}, so {colour} and {other} are not both "
                "true: {near} or {far} is, and {digit} is removed from {removed}, which sees both "
                "a {near} and a {far} cell.",
                "{clusters} {Colour} {x} sees {other} {y}, so {colour} and {other} are not both "
                "true: {near} or {far} is, and {digit} is removed from {removed}, which see both "
                "a {near} and a {far} cell.",
            ),
            len(elims),
            clusters=_two_clusters(geo, sym, a, b),
            Colour=_FIRST_CAPITAL[k],
            colour=_FIRST[k],
            other=_SECOND[j],
            x=geo.cell_name(x),
            y=geo.cell_name(y),
            near=near,
            far=far,
            digit=sym,
            removed=cell_list(geo, [c for c, _ in elims]),
        )
        return _multi_step(cand, sentence, (a, b), elims, [((x, d), (y, d), False)])
    return None


def _two_clusters(geo: Geometry, sym: str, a: _Cluster, b: _Cluster) -> Words:
    return words(
        N_(
            "{digit}'s strong links join its places into clusters: in one, {first}; in another, "
            "{second}."
        ),
        digit=sym,
        first=_either(geo, sym, a, _FIRST),
        second=_either(geo, sym, b, _SECOND),
    )


def _multi_step(
    cand: Candidates,
    sentence: Words,
    clusters: tuple[_Cluster, _Cluster],
    elims: list[tuple[Cell, Digit]],
    weak: Sequence[Link],
) -> Step:
    a, b = clusters
    d = elims[0][1]
    return _step(
        "Multi-colouring",
        sentence,
        cand,
        cells=a.colours[0] + a.colours[1] + b.colours[0] + b.colours[1],
        eliminations=elims,
        links=[*_cluster_links(d, a), *weak, *_cluster_links(d, b)],
    )


multi_colouring = per_digit_since("Multi-colouring", _multi_colouring_digit)


# ---------------------------------------------------------------------------------------------
# Empty rectangle: a box (or any house not a line) whose places for a digit lie on one row and
# one column, with a strong link on that digit in a line outside it.


def _empty_rectangle_digit(cand: Candidates, t: Tables, d: Digit, lost: int | None) -> Step | None:
    """A box's places for a digit lie on one row and one column (its "cross"); a strong link
    whose one end is on the cross's row (column) removes the digit where the other end's
    column (row) meets the cross's column (row).

    Given ``lost`` (see :func:`.base.per_digit_since`), a box that lost no place is tried
    only with the links in houses that did."""
    geo = t.geometry
    bit = 1 << (d - 1)
    links = [link for link in _strong_links(cand, t, bit) if geo.houses[link[0]].kind in _LINES]
    if not links:
        return None
    hot = -1 if lost is None else lost
    house_bits = t.house_bits
    hot_links = [link for link in links if house_bits[link[0]] & hot]
    for h, house in enumerate(geo.houses):
        if house.kind in _LINES:
            continue
        near = links if house_bits[h] & hot else hot_links
        if not near:
            continue
        for r, c in _crosses(cand, t, house.cells, bit):
            step = _rectangle_step(cand, t, d, h, (r, c), near)
            if step is not None:
                return step
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
    r, c = cross
    row, column = house_words("row", r), house_words("column", c)
    spots = [cell for cell in house.cells if cand.masks[cell] & (1 << (d - 1))]
    sentence = words(
        N_(
            "In {house}, {digit} can only go in {row} or {column} (an empty rectangle), and in "
            "{line} only in {x} or {y}. If {x} is {digit}, the {digit} of {house} is in {arm}; "
            "if not, {y} is. {target} sees {y} and the part of {house} in {arm}, so either way "
            "{digit} is removed from it."
        ),
        house=house.words,
        digit=geo.symbol(d),
        row=row,
        column=column,
        line=line.words,
        x=geo.cell_name(x),
        y=geo.cell_name(y),
        arm=column if line.kind == "column" else row,
        target=geo.cell_name(target),
    )
    return _step(
        "Empty rectangle",
        sentence,
        cand,
        houses=[house, line],
        cells=[*spots, x, y],
        eliminations=[(target, d)],
    )


empty_rectangle = per_digit_since("Empty rectangle", _empty_rectangle_digit)
