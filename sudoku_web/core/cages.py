"""Killer cages: read, written and checked.

A :class:`Cage` is a set of cells whose symbols are all different and add up to its
``total``; a board's cages are :attr:`Geometry.cages <sudoku_web.core.board.Geometry.cages>`
(``geometry.with_cages(cages)``). Cages are one more rule on any board: killer (classic
houses plus cages), killer-X, killer jigsaw, 4x4 ... 16x16.

Spellings, each a matched pair:

lines (:func:`parse_cages` / :func:`format_cages`)
    One cage per line, the sum then its cells: ``15: r1c1 r1c2 r2c1`` (also
    ``15 = r1c1, r1c2``). Blank lines and lines starting with ``#`` are skipped.
cage map (:func:`parse_cages` / :func:`format_cage_map`)
    One label per cell, row by row, like a jigsaw region map (layout characters ignored,
    ``.`` a cell in no cage), then the sums in the order the labels first appear: ``A=15
    B=7 ...`` or ``15,7,...``. On one line ``cagemap:sums[:solution]`` (a trailing solution is
    ignored), the shared killer data's format.
link (:func:`link_spelling` / :func:`from_link`)
    Compact, URL-safe and canonical: the cage map with labels ``A-Z a-z 0-9`` given in order
    of first appearance (two characters a cell past 62 cages), ``_`` for a cell in no cage,
    then ``-`` and the sums joined by ``-``. :func:`parse_cages` reads it too.
API (:func:`cages_from_list`)
    ``[{"sum": 15, "cells": ["r1c1", 3]}, ...]``, cells as names or 0-based indices.

Every reader returns the cages sorted and raises :class:`InvalidPuzzle` with every problem
:func:`cage_errors` finds (code ``"cage"``, messages naming the cells). Text is bounded
(:data:`MAX_TEXT`) and checked before any work that grows faster than its length.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence

from .board import IGNORED, Cage, Geometry, InvalidPuzzle, PuzzleError, find_conflicts
from .wording import N_, Np_, Value, Words, abridged, counted, words

__all__ = [
    "MAX_TEXT",
    "Cage",
    "SumsMismatch",
    "cage_errors",
    "cages_from_list",
    "combinations",
    "covers_grid",
    "format_cage_map",
    "format_cages",
    "grid_errors",
    "grid_total",
    "from_link",
    "link_spelling",
    "parse_cages",
]

#: The longest cage text read (a 16x16 board of one-cell cages in lines is about 3,000).
MAX_TEXT = 12_000
# Labels of the link spelling (and of format_cage_map), in the order they are handed out.
LINK_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_NO_CAGE_LINK = "_"
_NO_CAGE_MAP = "."
_CELL = re.compile(r"[rR](\d{1,3})[cC](\d{1,3})")
_LINE = re.compile(r"^\s*(\d+)\s*[:=]\s*(.*?)\s*$")
# Sums longer than this are refused as such before they become ints (a 16x16 grid's is 2176).
_SUM_DIGITS = 6
# Characters that are never labels of a cage map: layout, and the separators of the sums.
_NOT_LABELS = IGNORED | frozenset(":=,;")


def _error(message: Words, cells: Iterable[int] = ()) -> PuzzleError:
    return PuzzleError("cage", message.english(), tuple(cells), message)


def _said(template: str, /, **values: Value) -> PuzzleError:
    """A cage problem naming no cells: ``template`` (marked with ``N_``) filled in."""
    return _error(words(template, **values))


def _names(cells: Sequence[int], geometry: Geometry, shown: int = 6) -> Value:
    """``r1c1, r1c2 and r2c1`` (``and N more`` past ``shown``), joined as the language joins."""
    return abridged([geometry.cell_name(c) for c in cells], shown)


def combinations(size: int, count: int, total: int) -> tuple[int, ...]:
    """Every set of ``count`` distinct digits 1..size adding up to ``total``, as bitmasks
    (bit d-1 for digit d), ascending; () when none. Each answer is computed once and kept
    (the arguments are checked first, so the cache holds at most 16 x 16 x 137 answers)."""
    if not 1 <= size <= 16 or not 1 <= count <= size:
        return ()
    if not count * (count + 1) // 2 <= total <= count * (2 * size - count + 1) // 2:
        return ()
    return _combinations(size, count, total)


@functools.cache
def _combinations(size: int, count: int, total: int) -> tuple[int, ...]:
    found = (
        sum(1 << (d - 1) for d in digits)
        for digits in itertools.combinations(range(1, size + 1), count)
        if sum(digits) == total
    )
    return tuple(sorted(found))


def grid_total(geometry: Geometry) -> int:
    """What the whole grid adds up to: N times 1+2+...+N (405 on 9x9)."""
    n = geometry.size
    return n * n * (n + 1) // 2


def cage_errors(
    geometry: Geometry, cages: Sequence[Cage], grid: Sequence[int] | None = None
) -> list[PuzzleError]:
    """Every problem with ``cages`` on ``geometry`` (and with ``grid``'s givens, if given).

    Cells outside the grid or listed twice, empty cages, overlapping cages, sums that no set
    of distinct digits of the cage's size makes, cages covering the grid whose sums do not add
    up to the grid's total, and givens that break their cage (a repeated digit, or digits no
    set making the sum contains). Too many cages is one error, found before anything else.
    """
    n_cells = geometry.cells
    if len(cages) > n_cells:
        return [_too_many(len(cages), n_cells)]
    if sum(len(cage.cells) for cage in cages) > 2 * n_cells:
        return [
            _said(
                N_("The cages list more than {most} cells on a {cells}-cell grid."),
                most=2 * n_cells,
                cells=n_cells,
            )
        ]
    errors: list[PuzzleError] = []
    owner: dict[int, int] = {}
    overlaps: dict[tuple[int, int], list[int]] = {}
    for index, cage in enumerate(cages):
        problem = _cells_problem(cage, geometry)
        if problem is not None:
            errors.append(problem)
            continue
        for cell in cage.cells:
            if cell in owner:
                overlaps.setdefault((owner[cell], index), []).append(cell)
            else:
                owner[cell] = index
        if not combinations(geometry.size, len(cage.cells), cage.total):
            errors.append(_impossible_sum(cage, geometry))
    for (first, second), cells in overlaps.items():
        errors.append(
            _error(
                words(
                    N_(
                        "The cages with sums {first} and {second} overlap at {cells}: a cell"
                        " belongs to one cage at most."
                    ),
                    first=cages[first].total,
                    second=cages[second].total,
                    cells=_names(cells, geometry),
                ),
                cells,
            )
        )
    if not errors and len(owner) == n_cells:
        total = sum(cage.total for cage in cages)
        if total != grid_total(geometry):
            errors.append(
                _said(
                    N_(
                        "The cages cover the whole grid, so their sums must add up to {grid};"
                        " they add up to {total}."
                    ),
                    grid=grid_total(geometry),
                    total=total,
                )
            )
    if grid is not None and not errors:
        errors.extend(_given_errors(geometry, cages, grid))
    return errors


def _cells_problem(cage: Cage, geometry: Geometry) -> PuzzleError | None:
    """A cage with no cells, cells outside the grid, or a cell listed twice."""
    n_cells = geometry.cells
    if not cage.cells:
        return _said(N_("A cage with sum {total} has no cells."), total=cage.total)
    outside = [c for c in cage.cells if not 0 <= c < n_cells]
    if outside:
        return _error(
            words(
                N_(
                    "The cage with sum {total} lists cells outside the {size}x{size} grid"
                    " (cell numbers {numbers})."
                ),
                total=cage.total,
                size=geometry.size,
                numbers=", ".join(map(str, outside[:4])),
            ),
            [c for c in cage.cells if 0 <= c < n_cells],
        )
    if len(set(cage.cells)) != len(cage.cells):
        seen: set[int] = set()
        repeated: set[int] = set()
        for cell in cage.cells:
            (repeated if cell in seen else seen).add(cell)
        twice = sorted(repeated)
        said = words(
            N_("The cage with sum {total} lists {cells} twice."),
            total=cage.total,
            cells=_names(twice, geometry),
        )
        return _error(said, twice)
    return None


def _impossible_sum(cage: Cage, geometry: Geometry) -> PuzzleError:
    count, n = len(cage.cells), geometry.size
    where = _names(cage.cells, geometry)
    if count > n:
        said = words(
            N_(
                "The cage at {cells} has sum {total}, which it cannot make: a cage holds at"
                " most {size} different digits, this one has {count} cells."
            ),
            cells=where,
            total=cage.total,
            size=n,
            count=count,
        )
    else:
        said = counted(
            Np_(
                "The cage at {cells} has sum {total}, which it cannot make: {count} different"
                " digit 1-{size} adds up to {low} to {high}.",
                "The cage at {cells} has sum {total}, which it cannot make: {count} different"
                " digits 1-{size} add up to {low} to {high}.",
            ),
            count,
            cells=where,
            total=cage.total,
            count=count,
            size=n,
            low=count * (count + 1) // 2,
            high=count * (2 * n - count + 1) // 2,
        )
    return _error(said, cage.cells)


def _given_errors(
    geometry: Geometry, cages: Sequence[Cage], grid: Sequence[int]
) -> list[PuzzleError]:
    """Givens that break their cage: a repeated digit, or digits no way of making the sum has."""
    errors: list[PuzzleError] = []
    for cage in cages:
        given = [c for c in cage.cells if grid[c]]
        if not given:
            continue
        seen: dict[int, int] = {}
        repeated: list[int] = []
        for cell in given:
            value = grid[cell]
            if value in seen:
                repeated.extend((seen[value], cell))
            seen[value] = cell
        if repeated:
            errors.append(
                _error(
                    words(
                        N_(
                            "{cells} repeat a digit in the cage with sum {total}: a cage's"
                            " digits are all different."
                        ),
                        cells=_names(sorted(set(repeated)), geometry),
                        total=cage.total,
                    ),
                    sorted(set(repeated)),
                )
            )
            continue
        mask = 0
        for cell in given:
            mask |= 1 << (grid[cell] - 1)
        if not any(
            combo & mask == mask
            for combo in combinations(geometry.size, len(cage.cells), cage.total)
        ):
            total = sum(grid[c] for c in given)
            if len(given) == len(cage.cells):
                template = N_(
                    "The cage at {cells} has sum {total}, but its digits add up to {sum}."
                )
            elif total >= cage.total:
                template = N_(
                    "The cage at {cells} has sum {total}, but its givens already add up to {sum}."
                )
            else:
                template = N_(
                    "The cage at {cells} has sum {total}, but no set of different digits making"
                    " the sum holds its givens."
                )
            said = words(template, cells=_names(cage.cells, geometry), total=cage.total, sum=total)
            errors.append(_error(said, given))
    return errors


class SumsMismatch(InvalidPuzzle):
    """The cages read well and cover the grid, but their sums miss its total: most likely one
    sum was mistyped. ``cages`` are the cages as read, for the typo doctor
    (:func:`sudoku_web.core.doctor.diagnose_sums`) to say which."""

    def __init__(self, errors: Sequence[PuzzleError], cages: tuple[Cage, ...]) -> None:
        super().__init__(errors)
        self.cages = cages


def covers_grid(geometry: Geometry, cages: Sequence[Cage]) -> bool:
    """True when the cages hold every cell of the grid (counted, so for checked cages)."""
    return sum(len(cage.cells) for cage in cages) == geometry.cells


def _checked(geometry: Geometry, cages: Iterable[Cage]) -> tuple[Cage, ...]:
    ordered = tuple(sorted(cages))
    errors = cage_errors(geometry, ordered)
    if errors:
        total = sum(cage.total for cage in ordered)
        if len(errors) == 1 and covers_grid(geometry, ordered) and total != grid_total(geometry):
            raise SumsMismatch(errors, ordered)
        raise InvalidPuzzle(errors)
    return ordered


def _too_long(text: str) -> InvalidPuzzle:
    # The counts as English writes them (thousands grouped), in every language.
    return InvalidPuzzle(
        [
            _said(
                N_("The cage text has {count} characters; at most {most} are read."),
                count=f"{len(text):,}",
                most=f"{MAX_TEXT:,}",
            )
        ]
    )


def _too_many(count: int, cells: int) -> PuzzleError:
    return _said(
        N_("{count} cages on {cells} cells: a cage needs at least one cell."),
        count=count,
        cells=cells,
    )


def parse_cages(text: str, geometry: Geometry) -> tuple[Cage, ...]:
    """The cages in ``text``: one cage per line (``15: r1c1 r1c2``), a cage map and sums, or
    a share link's spelling (:func:`link_spelling`).

    Lines are read when the text names a cell as ``rNcM``, a link when the text is one word
    of labels then ``-`` and sums, else a cage map. Raises :class:`InvalidPuzzle` naming every
    problem found. An empty text is no cages.
    """
    if len(text) > MAX_TEXT:
        raise _too_long(text)
    if not text.strip():
        return ()
    if _LINK.fullmatch(text.strip()):
        return from_link(text.strip(), geometry)
    if _CELL.search(text):
        return _checked(geometry, _parse_lines(text, geometry))
    return _checked(geometry, _parse_map(text, geometry))


def _cell_of(row: int, col: int, geometry: Geometry) -> int | None:
    n = geometry.size
    return (row - 1) * n + col - 1 if 1 <= row <= n and 1 <= col <= n else None


def _parse_lines(text: str, geometry: Geometry) -> list[Cage]:
    cages: list[Cage] = []
    errors: list[PuzzleError] = []
    n = geometry.size
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            errors.append(
                _said(
                    N_(
                        "Line {number} ({line}) is not a cage: write the sum, a colon, then its"
                        " cells, as in 15: r1c1 r1c2."
                    ),
                    number=number,
                    line=repr(line.strip()[:40]),
                )
            )
            continue
        rest = match.group(2)
        cells: list[int] = []
        for cell_match in _CELL.finditer(rest):
            row, col = int(cell_match.group(1)), int(cell_match.group(2))
            cell = _cell_of(row, col, geometry)
            if cell is None:
                errors.append(
                    _said(
                        N_("Line {number}: {cell} is outside the {size}x{size} grid."),
                        number=number,
                        cell=cell_match.group(),
                        size=n,
                    )
                )
            else:
                cells.append(cell)
        leftover = _CELL.sub(" ", rest).replace(",", " ").replace(";", " ").split()
        if leftover:
            errors.append(
                _said(
                    N_(
                        "Line {number}: {text} is not a cell; cells are written rNcM (row N,"
                        " column M), as in r1c1."
                    ),
                    number=number,
                    text=repr(leftover[0][:20]),
                )
            )
        elif not cells and not errors:
            errors.append(
                _said(
                    N_("Line {number}: the cage with sum {total} has no cells."),
                    number=number,
                    total=match.group(1),
                )
            )
        if len(match.group(1)) > _SUM_DIGITS:
            errors.append(
                _said(
                    N_("Line {number}: the sum {total}... is too big."),
                    number=number,
                    total=match.group(1)[:12],
                )
            )
        elif cells:
            cages.append(Cage(int(match.group(1)), tuple(sorted(cells))))
        if len(cages) > geometry.cells:
            break
    if errors:
        raise InvalidPuzzle(errors)
    return cages


def _parse_map(text: str, geometry: Geometry) -> list[Cage]:
    """A cage map's cages: N*N labels, then the sums (``A=15 B=7`` or ``15,7``)."""
    n_cells = geometry.cells
    if ":" in text and "\n" not in text.strip():
        parts = text.strip().split(":")
        map_text, sums_text = parts[0], parts[1] if len(parts) > 1 else ""
        labels = [ch for ch in map_text if ch not in _NOT_LABELS]
    else:
        labels = []
        sums_lines: list[str] = []
        for line in text.splitlines():
            if len(labels) >= n_cells:
                sums_lines.append(line)
                continue
            labels.extend(ch for ch in line if ch not in _NOT_LABELS)
        sums_text = "\n".join(sums_lines)
    if len(labels) != n_cells:
        raise InvalidPuzzle(
            [
                _said(
                    N_(
                        "Read as a cage map, the text has {count} labels where a {size}x{size}"
                        " grid needs {cells} (one per cell), followed by the sums; or write one"
                        " cage per line, as in 15: r1c1 r1c2."
                    ),
                    count=len(labels),
                    size=geometry.size,
                    cells=n_cells,
                )
            ]
        )
    order: dict[str, list[int]] = {}
    for cell, label in enumerate(labels):
        if label != _NO_CAGE_MAP:
            order.setdefault(label, []).append(cell)
    return _with_sums(order, sums_text, geometry)


_LINK = re.compile(r"[A-Za-z0-9_]+(?:-\d{1,6})+")
_NAMED_SUM = re.compile(r"([^\s=:,;]+)\s*[=:]\s*(\d{1,6})")


def _with_sums(order: dict[str, list[int]], sums_text: str, geometry: Geometry) -> list[Cage]:
    """The cages of a map's labels (in first-appearance order) with the sums of ``sums_text``."""
    labels = list(order)
    named = _NAMED_SUM.findall(sums_text)
    if named:
        by_label: dict[str, int] = {}
        for label, total in named:
            if label in by_label:
                raise InvalidPuzzle(
                    [_said(N_("Cage {label} is given two sums."), label=repr(label))]
                )
            by_label[label] = int(total)
        unknown = [label for label in by_label if label not in order]
        missing = [label for label in labels if label not in by_label]
        errors = []
        if unknown:
            errors.append(
                _said(
                    N_("Sums are given for {labels}, which label no cell of the map."),
                    labels=", ".join(map(repr, unknown[:6])),
                )
            )
        if missing:
            errors.append(
                _error(
                    words(
                        N_("The cages {labels} have no sum."),
                        labels=", ".join(map(repr, missing[:6])),
                    ),
                    [c for label in missing for c in order[label]],
                )
            )
        if errors:
            raise InvalidPuzzle(errors)
        return [Cage(by_label[label], tuple(order[label])) for label in labels]
    sums = sums_text.replace(",", " ").replace(";", " ").split()
    bad = [w for w in sums if not w.isdigit() or len(w) > 6]
    if bad:
        raise InvalidPuzzle(
            [
                _said(
                    N_(
                        "{text} is not a sum: after the map, give the sums as numbers in the"
                        " order the labels first appear (15,7,...) or as A=15 B=7 ..."
                    ),
                    text=repr(bad[0][:20]),
                )
            ]
        )
    if len(sums) != len(labels):
        raise InvalidPuzzle(
            [
                _said(
                    N_(
                        "The map has {cages} cages but {sums} sums are given: one sum per cage,"
                        " in the order the labels first appear."
                    ),
                    cages=len(labels),
                    sums=len(sums),
                )
            ]
        )
    return [Cage(int(w), tuple(order[label])) for w, label in zip(sums, labels, strict=True)]


def format_cages(cages: Sequence[Cage], geometry: Geometry) -> str:
    """One cage per line, ``15: r1c1 r1c2``, in reading order of their first cells."""
    lines = []
    for cage in sorted(cages, key=lambda c: c.cells):
        lines.append(f"{cage.total}: " + " ".join(geometry.cell_name(c) for c in cage.cells))
    return "\n".join(lines)


def _labelled(cages: Sequence[Cage], geometry: Geometry) -> tuple[list[int], list[Cage]]:
    """Per cell the index of its cage in first-appearance order (-1 for none), and the cages
    in that order."""
    cage_of = [-1] * geometry.cells
    for index, cage in enumerate(cages):
        for cell in cage.cells:
            cage_of[cell] = index
    order: dict[int, int] = {}
    for index in cage_of:
        if index >= 0 and index not in order:
            order[index] = len(order)
    return [order.get(i, -1) for i in cage_of], [cages[i] for i in order]


def format_cage_map(cages: Sequence[Cage], geometry: Geometry) -> str | None:
    """The cage map (N lines of N labels, ``.`` in no cage) then the sums as ``15,7,...``;
    None past 62 cages (one character per label)."""
    if len(cages) > len(LINK_LABELS):
        return None
    labels, ordered = _labelled(cages, geometry)
    n = geometry.size
    rows = [
        " ".join(LINK_LABELS[i] if i >= 0 else _NO_CAGE_MAP for i in labels[r * n : (r + 1) * n])
        for r in range(n)
    ]
    return "\n".join(rows) + "\n" + ",".join(str(cage.total) for cage in ordered)


def link_spelling(cages: Sequence[Cage], geometry: Geometry) -> str:
    """The canonical, compact, URL-safe spelling of a board's cages; "" for none."""
    if not cages:
        return ""
    labels, ordered = _labelled(cages, geometry)
    base = len(LINK_LABELS)
    if len(ordered) <= base:
        cells = "".join(LINK_LABELS[i] if i >= 0 else _NO_CAGE_LINK for i in labels)
    else:
        cells = "".join(
            LINK_LABELS[i // base] + LINK_LABELS[i % base] if i >= 0 else _NO_CAGE_LINK * 2
            for i in labels
        )
    return cells + "-" + "-".join(str(cage.total) for cage in ordered)


def from_link(text: str, geometry: Geometry) -> tuple[Cage, ...]:
    """The cages of a link spelling (any labels, not only the canonical ones); raises
    :class:`InvalidPuzzle`. ``link_spelling(from_link(t))`` is the canonical form of ``t``."""
    if len(text) > MAX_TEXT:
        raise _too_long(text)
    if not text:
        return ()
    cells_text, _, sums_text = text.partition("-")
    n_cells = geometry.cells
    width = 1 if len(cells_text) == n_cells else 2 if len(cells_text) == 2 * n_cells else 0
    allowed = set(LINK_LABELS) | {_NO_CAGE_LINK}
    if not width or not set(cells_text) <= allowed:
        raise InvalidPuzzle(
            [
                _said(
                    N_(
                        "The link's cages are not a map of {cells} labels ({first}-{last},"
                        " {none} for none) followed by the sums."
                    ),
                    cells=n_cells,
                    first=LINK_LABELS[0],
                    last=LINK_LABELS[-1],
                    none=_NO_CAGE_LINK,
                )
            ]
        )
    order: dict[str, list[int]] = {}
    for cell in range(n_cells):
        label = cells_text[cell * width : (cell + 1) * width]
        if _NO_CAGE_LINK not in label:
            order.setdefault(label, []).append(cell)
    return _checked(geometry, _with_sums(order, sums_text.replace("-", " "), geometry))


def cages_from_list(items: Sequence[Mapping[str, object]], geometry: Geometry) -> tuple[Cage, ...]:
    """The API's cages, ``[{"sum": 15, "cells": ["r1c1", 3]}, ...]`` (cells as ``rNcM`` names
    or 0-based indices); raises :class:`InvalidPuzzle` naming every bad cage."""
    if len(items) > geometry.cells:
        raise InvalidPuzzle([_too_many(len(items), geometry.cells)])
    cages: list[Cage] = []
    errors: list[PuzzleError] = []
    budget = 2 * geometry.cells
    for number, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            errors.append(
                _said(N_('Cage {number} is not an object with "sum" and "cells".'), number=number)
            )
            continue
        total = item.get("sum")
        raw_cells = item.get("cells")
        if isinstance(total, bool) or not isinstance(total, int):
            errors.append(_said(N_('Cage {number}: "sum" must be a whole number.'), number=number))
            continue
        if not isinstance(raw_cells, list | tuple) or not raw_cells:
            errors.append(
                _said(
                    N_('Cage {number}: "cells" must be a non-empty list of cells.'), number=number
                )
            )
            continue
        budget -= len(raw_cells)
        if budget < 0:
            raise InvalidPuzzle(
                [
                    _said(
                        N_("The cages list more than {most} cells in all."), most=2 * geometry.cells
                    )
                ]
            )
        cells: list[int] = []
        for raw in raw_cells:
            cell = _api_cell(raw, geometry)
            if cell is None:
                errors.append(
                    _said(
                        N_(
                            "Cage {number}: {text} is not a cell of the {size}x{size} grid (rNcM,"
                            " or 0 to {last})."
                        ),
                        number=number,
                        text=repr(str(raw)[:20]),
                        size=geometry.size,
                        last=geometry.cells - 1,
                    )
                )
            else:
                cells.append(cell)
        if len(cells) == len(raw_cells):
            cages.append(Cage(total, tuple(sorted(cells))))
    if errors:
        raise InvalidPuzzle(errors)
    return _checked(geometry, cages)


def _api_cell(raw: object, geometry: Geometry) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if 0 <= raw < geometry.cells else None
    if isinstance(raw, str):
        match = _CELL.fullmatch(raw.strip())
        if match:
            return _cell_of(int(match.group(1)), int(match.group(2)), geometry)
    return None


def grid_errors(grid: Sequence[int], geometry: Geometry) -> list[PuzzleError]:
    """Why ``grid``'s givens cannot start a puzzle on ``geometry``: no givens on a board
    without cages or rules (countless solutions; almost surely a slip; a killer needs none),
    equal givens in one house, givens that break a cage."""
    if not any(grid) and not geometry.cages and not geometry.rules:
        return [PuzzleError("empty", EMPTY_GRID, (), Words(EMPTY_GRID))]
    return find_conflicts(grid, geometry) + (
        _given_errors(geometry, geometry.cages, grid) if geometry.cages else []
    )


#: The words for a grid with no givens on a board without cages.
EMPTY_GRID = N_("The grid is empty: enter the puzzle's givens in the grid or paste it.")
