"""The puzzle pool: generated puzzles kept by kind and grade, for grades too rare to find live.

Vocabulary (generation terms are in :mod:`sudoku_web.core.generate`):

kind key
    ``<variant>-<size>``: ``standard-9``, ``x-9``, ``hyper-9``, ``jigsaw-9``, ``standard-16``;
    for a board with cages its share links' ``cage_prefix`` instead of the variant:
    ``killer-9`` (the killer), ``killer-6``, ``killer-x-9`` (killer-X).
entry
    One pooled puzzle as text: the puzzle in share-link spelling (``0`` for blanks), and for a
    jigsaw its region map first, ``<regions>/<puzzle>``. A board with cages has them before
    the puzzle, in their share-link spelling (:func:`sudoku_web.core.cages.link_spelling`),
    and leaves the puzzle out when it has no givens: ``<cages>`` or ``<cages>/<puzzle>``
    (``<regions>/<cages>...`` on a jigsaw).
pool file
    JSON: ``{"format": 1, "kinds": {kind key: {grade: [entry, ...]}}}``. The package ships one
    (``sudoku_web/data/pool.json``, filled by ``sudoku-web pool fill``); entries are kept in
    the order they were added, so a seed picks the same entry until the file changes.

The pool is only as true as the grader that filed it: when the technique ladder changes,
``sudoku-web pool regrade`` grades every entry again and files it under its new grade (the
test suite checks every shipped entry against the current grader).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .board import Geometry, parse_puzzle, region_text
from .cages import from_link, link_spelling
from .generate import Generated
from .logic import GRADES, Grade, grade
from .solver import solve
from .variants import VARIANTS, VariantInfo, find_variant, geometry_for, layout_of, variant_of

FORMAT = 1
#: The pool the package ships.
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "pool.json"

Kinds = dict[str, dict[str, list[str]]]

#: At most this many entries per kind and grade: the pool ships in the wheel and is read at
#: start, so it stays small; a regrade that moves more into one grade keeps the first ones.
MAX_PER_GRADE = 40

#: The kinds ``sudoku-web pool fill`` fills by default: those the web's New puzzle form offers.
KINDS: tuple[tuple[str, int], ...] = tuple(
    (info.key, size) for info in VARIANTS for size in info.pool_sizes[:1]
) + tuple((info.key, size) for info in VARIANTS for size in info.pool_sizes[1:])


#: Boards with cages filled by default besides the killer's own (``pool_sizes`` of the killer
#: entry): each entry's ``caged_pool_sizes`` (``killer-6``, ``killer-x-9``).
CAGED_KINDS: tuple[str, ...] = tuple(
    f"{info.cage_prefix}-{size}" for info in VARIANTS for size in info.caged_pool_sizes
)


def kind_key(variant: str, size: int, caged: bool = False) -> str:
    """``standard-9`` and so on: how a kind is filed (``killer-9``, ``killer-x-9`` with
    cages, whether asked as the killer variant or as a board with ``caged``)."""
    info = find_variant(variant)
    if info.needs_cages or caged:
        return f"{layout_of(info).cage_prefix}-{size}"
    return f"{info.key}-{size}"


def key_of(geometry: Geometry) -> str:
    """The kind key a board is filed under."""
    info = variant_of(geometry)
    return kind_key(info.key, geometry.size, caged=bool(geometry.cages))


def parse_key(key: str) -> tuple[VariantInfo, int, bool]:
    """A kind key's board variant, size and whether it has cages (raises InvalidPuzzle for
    a key that names no variant and no cage prefix)."""
    name, _, size = key.rpartition("-")
    number = int(size) if size.isdigit() else 0
    for info in VARIANTS:
        if not info.has_layout and info.cage_prefix == name:
            return info, number, True
    info = find_variant(name)
    return layout_of(info), number, info.needs_cages


@dataclass(frozen=True)
class Entry:
    """One pooled puzzle, ready to use."""

    geometry: Geometry
    puzzle: str  # "0" for blanks
    grade: Grade  # the grade it is filed under

    @property
    def regions(self) -> str | None:
        """A jigsaw's region map, else None."""
        return None if self.geometry.regions is None else region_text(self.geometry.regions)

    @property
    def text(self) -> str:
        """How it is written in the pool file."""
        return entry_text(
            self.puzzle, self.regions, link_spelling(self.geometry.cages, self.geometry)
        )


def entry_text(puzzle: str, regions: str | None, cages: str = "") -> str:
    """How an entry is written in the pool file (see the module's vocabulary)."""
    if cages and not puzzle.strip("0"):
        puzzle = ""  # a killer without givens: its cages are the whole puzzle
    return "/".join(part for part in (regions, cages, puzzle) if part)


def read_entry(text: str, variant: str, size: int, filed: Grade) -> Entry:
    """An entry of the pool file as an :class:`Entry`, for a kind asked by its variant and
    size (the killer variant: its cages come with the entry). Raises InvalidPuzzle when
    broken."""
    return read_keyed(text, kind_key(variant, size), filed)


def read_keyed(text: str, key: str, filed: Grade) -> Entry:
    """An entry of the pool file as an :class:`Entry`, for the kind filed under ``key``."""
    info, size, caged = parse_key(key)
    parts = text.split("/")
    regions = parts.pop(0) if info.takes_regions and len(parts) > 1 else None
    geo = geometry_for(info.key, size, regions)
    if caged:
        geo = geo.with_cages(from_link(parts.pop(0), geo))
    puzzle = parts[0] if parts else "0" * geo.cells
    parse_puzzle(puzzle, geo)  # the shape and symbols must fit
    return Entry(geo, puzzle, filed)


def load(path: Path | str = SHIPPED) -> Kinds:
    """The kinds of a pool file (empty when the file does not exist)."""
    path = Path(path)
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: pool format {data.get('format')!r}, expected {FORMAT}")
    kinds: Kinds = data["kinds"]
    return kinds


@functools.cache
def shipped() -> Kinds:
    """The shipped pool, read once per process (it never changes while running)."""
    return load(SHIPPED)


def save(kinds: Kinds, path: Path | str = SHIPPED) -> None:
    """Write a pool file: kinds and grades in a fixed order, one entry per line."""
    ordered = {
        key: {g: kinds[key][g] for g in GRADES if kinds[key].get(g)}
        for key in sorted(kinds)
        if any(kinds[key].values())
    }
    text = json.dumps({"format": FORMAT, "kinds": ordered}, indent=1)
    Path(path).write_text(text + "\n", encoding="utf-8")


def count(kinds: Kinds, variant: str, size: int, asked: str) -> int:
    """How many entries a kind has for a grade."""
    return len(kinds.get(kind_key(variant, size), {}).get(asked, []))


def pick(kinds: Kinds, variant: str, size: int, asked: Grade, seed: int | str) -> Entry | None:
    """The entry a seed picks for a kind and grade (the same one for the same seed and file),
    or None when the pool has none."""
    return pick_keyed(kinds, kind_key(variant, size), asked, seed)


def pick_keyed(kinds: Kinds, key: str, asked: Grade, seed: int | str) -> Entry | None:
    """:func:`pick` for a kind key (``killer-x-9``: a board with cages)."""
    entries = kinds.get(key, {}).get(asked, [])
    if not entries:
        return None
    index = random.Random(f"pool:{seed}").randrange(len(entries))
    return read_keyed(entries[index], key, asked)


def add(kinds: Kinds, found: Generated) -> bool:
    """File a generated puzzle under its grade; False when it is already there."""
    return add_entry(kinds, Entry(found.geometry, found.puzzle, found.grade))


def add_entry(kinds: Kinds, entry: Entry) -> bool:
    """File an entry under its grade; False when it is already there."""
    bucket = kinds.setdefault(key_of(entry.geometry), {}).setdefault(entry.grade, [])
    text = entry.text
    if text in bucket:
        return False
    bucket.append(text)
    return True


def check(entry: Entry) -> Grade | None:
    """The entry's grade now, by the grader; None when it no longer has exactly one solution."""
    result = solve(entry.puzzle, geometry=entry.geometry, deadline_ms=None)
    if result.status != "solved" or result.solution is None:
        return None
    return grade_of(entry, result.solution)


def grade_of(entry: Entry, solution: str) -> Grade:
    """The grader's grade of an entry whose one solution (as the engine spells it) is known."""
    geo = entry.geometry
    givens = parse_puzzle(entry.puzzle, geo)
    return grade(givens, geo, solution=parse_puzzle(solution, geo)).grade


def entries(kinds: Kinds) -> Iterable[Entry]:
    """Every entry of a pool, with the grade it is filed under."""
    for key, grades in kinds.items():
        for filed, texts in grades.items():
            for text in texts:
                yield read_keyed(text, key, filed)  # type: ignore[arg-type]


def regrade(kinds: Kinds) -> tuple[Kinds, int, int]:
    """The pool with every entry filed under its grade now; also how many moved and how
    many were dropped (no longer exactly one solution, or beyond :data:`MAX_PER_GRADE`)."""
    out: Kinds = {}
    moved = dropped = 0
    for entry in entries(kinds):
        now = check(entry)
        if now is None:
            dropped += 1
            continue
        moved += now != entry.grade
        bucket = out.setdefault(key_of(entry.geometry), {}).setdefault(now, [])
        text = entry.text
        if text in bucket:
            continue
        if len(bucket) >= MAX_PER_GRADE:
            dropped += 1
            continue
        bucket.append(text)
    return out, moved, dropped
