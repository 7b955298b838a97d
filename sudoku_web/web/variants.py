"""Variants on the web: which geometry a request means, and each puzzle's canonical URLs.

A variant is one entry of the registry (:mod:`sudoku_web.core.variants`); this module is the
web's half of it, derived from the entry: the choices offered on the form (``/?v=x`` ...), the
geometry named by a form or an API request, and the share links' rules, endpoints and URLs.

URL scheme (decided in issue 7; every character is a digit or an upper-case letter, so chat
and mail linkifiers keep the whole link):

============================  =================================================================
``/p/<puzzle>``               classic boxed grids; the size follows from the length
                              (16, 36, 81 or 256 cells: 4x4, 6x6, 9x9, 16x16)
``/x/<puzzle>``               X-sudoku (both main diagonals are houses), boxed sizes as above
``/hyper/<puzzle>``           hyper / windoku, 9x9
``/jigsaw/<regions>/<puzzle>``  jigsaw, N from 4 to 16; ``regions`` is N*N letters, one per
                              cell row-major, relabelled ``A``, ``B``, ... in reading order
============================  =================================================================

``<puzzle>`` is the symbols with ``0`` for blanks, letters upper case. Appending ``.png``
gives the link-preview picture. Any other spelling (dots, lower case, other region labels)
answers ``301`` to the canonical one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import url_for

from ..core.board import (
    BOX_SHAPES,
    Geometry,
    House,
    InvalidPuzzle,
    Variant,
    clean_cells,
    infer_size,
    jigsaw,
    standard,
)
from ..core.variants import DEFAULT_JIGSAW, VARIANTS, VariantInfo, find_variant, variant_of
from .memo import byte_cache

# Canonical region labels: region k (numbered by first appearance) is LETTERS[k].
LETTERS = "ABCDEFGHIJKLMNOP"


def endpoint(info: VariantInfo, page: str = "") -> str:
    """A share-link page's endpoint name within its blueprint: ``puzzle`` for the classic
    result page, ``x_puzzle_steps`` for an X-sudoku's steps page."""
    base = "puzzle" if info.key == "standard" else f"{info.key}_puzzle"
    return f"{base}_{page}" if page else base


def rule(info: VariantInfo, puzzle: str) -> str:
    """A variant's share-link rule: ``/x/<puzzle>``, ``/jigsaw/<regions>/<puzzle>``."""
    regions = "<regions>/" if info.takes_regions else ""
    return f"/{info.prefix}/{regions}{puzzle}"


@dataclass(frozen=True)
class Choice:
    """One entry of the variant picker on ``GET /``: ``/?v=<key>``."""

    key: str  # "" for the classic grid (plain "/")
    label: str
    variant: Variant
    size: int


def _choices() -> tuple[Choice, ...]:
    """The picker: each variant at its default size, then the other sizes it offers."""
    first = [(info, info.default_size) for info in VARIANTS]
    rest = [(info, size) for info in VARIANTS for size in info.form_sizes[1:]]
    out = []
    for info, size in first + rest:
        default = size == info.default_size
        if info.key == "standard":
            key = "" if default else f"{size}x{size}"
            label = f"Classic {size}x{size}" if default else f"{size}x{size}"
        else:
            key = info.key if default else f"{info.key}-{size}x{size}"
            label = info.short if default else f"{info.short} {size}x{size}"
        out.append(Choice(key, label, info.key, size))
    return tuple(out)


CHOICES: tuple[Choice, ...] = _choices()
_BY_KEY = {c.key: c for c in CHOICES}


def choice(key: str | None, size: str | None = None) -> Choice:
    """The picker entry for ``?v=<key>`` (classic for anything unknown).

    A jigsaw may also name its size (``?v=jigsaw&n=6``), any N the engine takes.
    """
    picked = _BY_KEY.get((key or "").strip().lower(), CHOICES[0])
    info = find_variant(picked.variant)
    if info.takes_regions and size and size.isascii() and size.isdigit():
        if int(size) in info.sizes:  # isascii: "٣".isdigit() is True, and int() takes it too
            return Choice(picked.key, picked.label, info.key, int(size))
    return picked


def form_key(geometry: Geometry) -> str:
    """The ``?v=`` key of the picker entry for a geometry ("" for classic 9x9)."""
    info = variant_of(geometry)
    if info.key != "standard":
        return info.key  # a jigsaw names its size with ?n=
    n = geometry.size
    return "" if n == info.default_size else f"{n}x{n}"


def default_regions(size: int) -> str:
    """The region map a fresh jigsaw form of this size starts from."""
    if size == 9:
        return DEFAULT_JIGSAW
    if size in BOX_SHAPES:
        index = standard(size).box_index
    else:  # no boxes for 5, 7, 8, ...: one region per row, to be repainted
        index = tuple(cell // size for cell in range(size * size))
    return "".join(LETTERS[r] for r in index)


# board.jigsaw memoises every map it is given, in entries; the web goes through this cache,
# bounded in bytes (a 9x9 jigsaw geometry with its peer tables is ~50 KB, a 16x16 ~1 MB).
# Keyed on the canonical map, so spellings share.
_build_jigsaw: Callable[[str], Geometry] = getattr(jigsaw, "__wrapped__", jigsaw)


def jigsaw_geometry(regions: str) -> Geometry:
    """The jigsaw geometry of a region map (any labels); raises InvalidPuzzle like
    :func:`sudoku_web.core.board.jigsaw`, whose messages name the region and its size."""
    labels = clean_cells(regions)
    number: dict[str, int] = {}
    for label in labels:
        number.setdefault(label, len(number))
    if len(number) <= len(LETTERS):
        try:
            return _jigsaw_canonical("".join(LETTERS[number[label]] for label in labels))
        except InvalidPuzzle:
            pass  # say what is wrong in the labels people typed, not the canonical ones
    return _build_jigsaw(regions)


@byte_cache(8 * 1024 * 1024)
def _jigsaw_canonical(regions: str) -> Geometry:
    return _build_jigsaw(regions)


def canonical_regions(geometry: Geometry) -> str:
    """The share-link spelling of a jigsaw's map: ``A``, ``B``, ... by first appearance."""
    if geometry.regions is None:
        raise ValueError("only jigsaw geometries have a region map")
    return "".join(LETTERS[r] for r in geometry.regions)


@byte_cache(1024 * 1024)
def region_sketch(text: str) -> Geometry | None:
    """A drawing-only geometry for a region map that may be invalid (rows, columns, and the
    map's regions as borders), so a rejected map can be shown with its bad cells marked.

    None when the map is not a square of a jigsaw size; it cannot be drawn then.
    """
    labels = clean_cells(text)
    size = infer_size("0" * len(labels))
    if size is None or len(labels) != size * size:
        return None
    number: dict[str, int] = {}
    index = tuple(number.setdefault(label, len(number)) for label in labels)
    rows = [House("row", r, tuple(range(r * size, (r + 1) * size))) for r in range(size)]
    return Geometry(size, "jigsaw", tuple(rows), None, index)


def geometry_of(variant: str | None, puzzle: str, regions: str | None = None) -> Geometry:
    """The geometry a request names: variant (default classic), size from the puzzle's length.

    Variants without a region map take the size from the cell count when it is one of their
    sizes and otherwise assume their default (the reader then reports the wrong length
    against it). A jigsaw's size comes from its region map. Raises :class:`InvalidPuzzle`
    for an unknown variant, a missing or bad region map, or a region map given to another
    variant.
    """
    if variant == "standard" and not regions and len(puzzle) == 81 and puzzle.isalnum():
        return standard(9)  # a classic share link as built: the common case
    info = find_variant(variant)
    if info.takes_regions:
        if not regions:
            return info.geometry(info.default_size, None)  # says a map is needed
        return jigsaw_geometry(regions)  # through the web's byte-bounded cache
    size = infer_size(puzzle)
    return info.geometry(size if size in info.sizes else info.default_size, regions)


def form_geometry(picked: Choice, regions: str | None = None) -> Geometry:
    """The geometry a fresh form of this choice draws (a jigsaw's from ``regions`` if valid)."""
    info = find_variant(picked.variant)
    if info.takes_regions:
        try:
            return jigsaw_geometry(regions or default_regions(picked.size))
        except InvalidPuzzle:
            return jigsaw_geometry(default_regions(picked.size))
    return info.geometry(picked.size)


def page_url(geometry: Geometry, puzzle: str, *, png: bool = False, external: bool = False) -> str:
    """The canonical result page (or preview picture) of a canonical puzzle."""
    name = "web." + endpoint(variant_of(geometry), "png" if png else "")
    return url_for(name, puzzle=puzzle, _external=external, **dict[str, Any](_map_args(geometry)))


def _map_args(geometry: Geometry) -> tuple[tuple[str, str], ...]:
    """A jigsaw's ``regions`` argument for its links (nothing for other variants)."""
    if geometry.regions is None:
        return ()
    return (("regions", canonical_regions(geometry)),)


def _edit_args(geometry: Geometry) -> tuple[tuple[str, str], ...]:
    args = []
    if key := form_key(geometry):
        args.append(("v", key))
    if geometry.regions is not None:
        if geometry.size != 9:
            args.append(("n", str(geometry.size)))
        args.append(("r", canonical_regions(geometry)))
    return tuple(args)


def print_url(edit_url: str) -> str:
    """The print page of a puzzle from its "Edit this puzzle" URL (the same arguments)."""
    query = edit_url.partition("?")[2]
    return url_for("printout.page") + (f"?{query}" if query else "")


def edit_url(geometry: Geometry, puzzle: str | None = None) -> str:
    """The form opened on this variant (and puzzle): ``/?v=x&p=...``."""
    args = dict[str, Any](_edit_args(geometry))
    if puzzle:
        args["p"] = puzzle
    return url_for("web.index", **args)


@dataclass(frozen=True)
class Links:
    """A canonical puzzle's links on its result page."""

    page: str  # the share link, a path: /p/<puzzle>
    share: str  # the same, absolute (for copying and link previews)
    edit: str  # the form opened on the puzzle
    print: str  # the print page of the same puzzle


def result_links(geometry: Geometry, puzzle: str) -> Links:
    """:func:`page_url` (plain and absolute), :func:`edit_url` and :func:`print_url` of a
    canonical puzzle."""
    edit = edit_url(geometry, puzzle)
    return Links(
        page_url(geometry, puzzle),
        page_url(geometry, puzzle, external=True),
        edit,
        print_url(edit),
    )


#: A solved puzzle's teaching pages, each at ``<share link>/<page>`` (see teaching.py).
TEACH_PAGES = ("steps", "search", "difficulty")


def teach_url(page: str, geometry: Geometry, puzzle: str, **args: Any) -> str:
    """The URL of a puzzle's teaching page (``steps``, ``search``, ``difficulty``)."""
    name = "teach." + endpoint(variant_of(geometry), page)
    return url_for(name, puzzle=puzzle, **args, **dict[str, Any](_map_args(geometry)))


def describe(geometry: Geometry) -> str:
    """Words for a board: ``9x9 X-sudoku``, ``6x6 Jigsaw sudoku``, ``16x16 Sudoku``."""
    return f"{geometry.size}x{geometry.size} {variant_of(geometry).name}"
