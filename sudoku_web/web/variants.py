"""Variants on the web: which geometry a request means, and each puzzle's canonical URLs.

The engine already knows every variant (:mod:`sudoku_web.core.board`); this module is the web's
side of it: the choices offered on the form (``/?v=x`` ...), the geometry named by a form or an
API request, and the share links.

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

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app, request, url_for

from ..core.board import (
    BOX_SHAPES,
    IGNORED,
    JIGSAW_SIZES,
    VARIANTS,
    Geometry,
    House,
    InvalidPuzzle,
    PuzzleError,
    Variant,
    geometry_for,
    hyper,
    infer_size,
    jigsaw,
    standard,
    x_sudoku,
)

# Canonical region labels: region k (numbered by first appearance) is LETTERS[k].
LETTERS = "ABCDEFGHIJKLMNOP"

# The 9x9 jigsaw the form opens on: a real irregular map, so the variant is recognisable at
# a glance; people repaint it (or type their own) for their puzzle.
DEFAULT_JIGSAW = "AAABBBCCCAADBBBCCCAADBBBEECAADFFFEECDDDDFFFECGGGDFFFEHGIIDIIEEHGIIIIHHEHGGGGIHHHH"

# The endpoint (in the "web" blueprint) of each variant's result page; "<name>_png" is its
# picture.
ENDPOINTS: dict[Variant, str] = {
    "standard": "puzzle",
    "x": "x_puzzle",
    "hyper": "hyper_puzzle",
    "jigsaw": "jigsaw_puzzle",
}

NAMES: dict[Variant, str] = {
    "standard": "Sudoku",
    "x": "X-sudoku",
    "hyper": "Hyper sudoku",
    "jigsaw": "Jigsaw sudoku",
}


@dataclass(frozen=True)
class Choice:
    """One entry of the variant picker on ``GET /``: ``/?v=<key>``."""

    key: str  # "" for the classic grid (plain "/")
    label: str
    variant: Variant
    size: int


CHOICES: tuple[Choice, ...] = (
    Choice("", "Classic 9x9", "standard", 9),
    Choice("x", "X-sudoku", "x", 9),
    Choice("hyper", "Hyper", "hyper", 9),
    Choice("jigsaw", "Jigsaw", "jigsaw", 9),
    Choice("4x4", "4x4", "standard", 4),
    Choice("6x6", "6x6", "standard", 6),
    Choice("16x16", "16x16", "standard", 16),
)
_BY_KEY = {c.key: c for c in CHOICES}


def choice(key: str | None, size: str | None = None) -> Choice:
    """The picker entry for ``?v=<key>`` (classic for anything unknown).

    A jigsaw may also name its size (``?v=jigsaw&n=6``), any N the engine takes.
    """
    picked = _BY_KEY.get((key or "").strip().lower(), CHOICES[0])
    if picked.variant == "jigsaw" and size and size.isdigit() and int(size) in JIGSAW_SIZES:
        return Choice(picked.key, picked.label, "jigsaw", int(size))
    return picked


def form_key(geometry: Geometry) -> str:
    """The ``?v=`` key of the picker entry for a geometry ("" for classic 9x9)."""
    if geometry.variant == "standard":
        return "" if geometry.size == 9 else f"{geometry.size}x{geometry.size}"
    return geometry.variant


def default_regions(size: int) -> str:
    """The region map a fresh jigsaw form of this size starts from."""
    if size == 9:
        return DEFAULT_JIGSAW
    if size in BOX_SHAPES:
        index = standard(size).box_index
    else:  # no boxes for 5, 7, 8, ...: one region per row, to be repainted
        index = tuple(cell // size for cell in range(size * size))
    return "".join(LETTERS[r] for r in index)


# board.jigsaw memoises every map it is given, without bound; fine for a library, not for
# maps that arrive in URLs. The web goes through this bounded cache instead (a 9x9 jigsaw
# geometry with its peer tables is ~50 KB). Keyed on the canonical map, so spellings share.
_build_jigsaw: Callable[[str], Geometry] = getattr(jigsaw, "__wrapped__", jigsaw)


def jigsaw_geometry(regions: str) -> Geometry:
    """The jigsaw geometry of a region map (any labels); raises InvalidPuzzle like
    :func:`sudoku_web.core.board.jigsaw`, whose messages name the region and its size."""
    labels = region_labels(regions)
    number: dict[str, int] = {}
    for label in labels:
        number.setdefault(label, len(number))
    if len(number) <= len(LETTERS):
        try:
            return _jigsaw_canonical("".join(LETTERS[number[label]] for label in labels))
        except InvalidPuzzle:
            pass  # say what is wrong in the labels people typed, not the canonical ones
    return _build_jigsaw(regions)


@functools.lru_cache(maxsize=128)
def _jigsaw_canonical(regions: str) -> Geometry:
    return _build_jigsaw(regions)


def canonical_regions(geometry: Geometry) -> str:
    """The share-link spelling of a jigsaw's map: ``A``, ``B``, ... by first appearance."""
    if geometry.regions is None:
        raise ValueError("only jigsaw geometries have a region map")
    return "".join(LETTERS[r] for r in geometry.regions)


def region_labels(text: str) -> list[str]:
    """The per-cell labels of a region map text (layout characters skipped)."""
    return [ch for ch in text if ch not in IGNORED]


@functools.lru_cache(maxsize=64)
def region_sketch(text: str) -> Geometry | None:
    """A drawing-only geometry for a region map that may be invalid (rows, columns, and the
    map's regions as borders), so a rejected map can be shown with its bad cells marked.

    None when the map is not a square of a jigsaw size; it cannot be drawn then.
    """
    labels = region_labels(text)
    size = infer_size("0" * len(labels))
    if size is None:
        return None
    number: dict[str, int] = {}
    index = tuple(number.setdefault(label, len(number)) for label in labels)
    rows = [House("row", r, tuple(range(r * size, (r + 1) * size))) for r in range(size)]
    return Geometry(size, "jigsaw", tuple(rows), None, index)


def geometry_of(variant: str | None, puzzle: str, regions: str | None = None) -> Geometry:
    """The geometry a request names: variant (default classic), size from the puzzle's length.

    Boxed variants take the size from the cell count when it is 16, 36, 81 or 256 and
    otherwise assume 9x9 (the reader then reports the wrong length against it). A jigsaw's
    size comes from its region map. Raises :class:`InvalidPuzzle` for an unknown variant, a
    missing or bad region map, or a region map given to another variant.
    """
    if variant == "standard" and not regions and len(puzzle) == 81 and puzzle.isalnum():
        return geometry_for("standard", 9)  # a classic share link as built: the common case
    name = (variant or "standard").strip().lower()
    if name not in VARIANTS:
        names = ", ".join(VARIANTS)
        raise InvalidPuzzle(
            [PuzzleError("variant", f"Unknown variant {variant!r}; use one of {names}.")]
        )
    if name == "jigsaw":
        if not regions:
            message = "A jigsaw puzzle needs a region map: one letter per cell, row by row."
            raise InvalidPuzzle([PuzzleError("regions", message)])
        return jigsaw_geometry(regions)
    if regions:
        message = "Only jigsaw puzzles take a region map; leave it out or use variant jigsaw."
        raise InvalidPuzzle([PuzzleError("regions", message)])
    if name == "hyper":
        return hyper()
    size = infer_size(puzzle)
    if size not in BOX_SHAPES:
        size = 9
    return geometry_for(name, size)


def form_geometry(picked: Choice, regions: str | None = None) -> Geometry:
    """The geometry a fresh form of this choice draws (a jigsaw's from ``regions`` if valid)."""
    if picked.variant == "jigsaw":
        try:
            geo = jigsaw_geometry(regions or default_regions(picked.size))
        except InvalidPuzzle:
            geo = jigsaw_geometry(default_regions(picked.size))
        return geo
    if picked.variant == "x":
        return x_sudoku(picked.size)
    if picked.variant == "hyper":
        return hyper()
    return standard(picked.size)


def page_url(geometry: Geometry, puzzle: str, *, png: bool = False, external: bool = False) -> str:
    """The canonical result page (or preview picture) of a canonical puzzle."""
    endpoint = "web." + ENDPOINTS[geometry.variant] + ("_png" if png else "")
    if geometry.variant == "jigsaw":
        regions = canonical_regions(geometry)
        return url_for(endpoint, regions=regions, puzzle=puzzle, _external=external)
    return _fill(endpoint, "puzzle", puzzle, external)


def _fill(endpoint: str, param: str, puzzle: str, external: bool, **args: str) -> str:
    """``url_for(endpoint, **args, param=puzzle)``, from a per-host template when ``puzzle``
    needs no quoting, as a canonical one never does (a ``url_for`` per link was a tenth of
    an uncached result page)."""
    if not puzzle.isalnum() or not puzzle.isascii():
        return url_for(endpoint, _external=external, **args, **{param: puzzle})
    head, tail = _link_template(endpoint, param, external, tuple(args.items()))
    return f"{head}{puzzle}{tail}"


_MARK = "PUZZLE"
_LINK_TEMPLATES = "sudoku_link_templates"
LINK_TEMPLATE_LIMIT = 64  # per process; the Host header comes from the client


_Spec = tuple[str, str, bool, tuple[tuple[str, str], ...]]  # endpoint, param, external, args


def _link_template(
    endpoint: str, param: str, external: bool, args: tuple[tuple[str, str], ...]
) -> tuple[str, str]:
    """The link cut around its puzzle, kept per scheme, host and script root."""
    return _link_templates((endpoint, param, external, args))[0]


def _link_templates(*specs: _Spec) -> tuple[tuple[str, str], ...]:
    """Link templates for ``specs``, kept together per scheme, host and script root
    (bounded: past the limit, templates are built and not kept)."""
    templates: dict[tuple[Any, ...], tuple[tuple[str, str], ...]]
    templates = current_app.extensions.setdefault(_LINK_TEMPLATES, {})
    env = request.environ
    key = (specs, env.get("wsgi.url_scheme"), env.get("HTTP_HOST"), env.get("SCRIPT_NAME"))
    found = templates.get(key)
    if found is None:
        cut = []
        for endpoint, param, external, args in specs:
            link = url_for(endpoint, _external=external, **dict(args), **{param: _MARK})
            head, _, tail = link.rpartition(_MARK)
            cut.append((head, tail))
        found = tuple(cut)
        if len(templates) < LINK_TEMPLATE_LIMIT:
            templates[key] = found
    return found


def edit_url(geometry: Geometry, puzzle: str | None = None) -> str:
    """The form opened on this variant (and puzzle): ``/?v=x&p=...``."""
    args: dict[str, Any] = {}
    if key := form_key(geometry):
        args["v"] = key
    if geometry.variant == "jigsaw":
        if geometry.size != 9:
            args["n"] = str(geometry.size)
        if geometry.regions is not None:
            args["r"] = canonical_regions(geometry)
    if not puzzle:
        return url_for("web.index", **args)
    if geometry.variant == "jigsaw":  # region maps would fill the template store
        return url_for("web.index", **args, p=puzzle)
    return _fill("web.index", "p", puzzle, False, **args)


@dataclass(frozen=True)
class Links:
    """A canonical puzzle's links on its result page."""

    page: str  # the share link, a path: /p/<puzzle>
    share: str  # the same, absolute (for copying and link previews)
    edit: str  # the form opened on the puzzle


def result_links(geometry: Geometry, puzzle: str) -> Links:
    """:func:`page_url` (plain and absolute) and :func:`edit_url` of a canonical puzzle, from
    one lookup of the host's link templates (the uncached result page's hot path)."""
    if geometry.variant == "jigsaw" or not puzzle.isalnum() or not puzzle.isascii():
        return Links(
            page_url(geometry, puzzle),
            page_url(geometry, puzzle, external=True),
            edit_url(geometry, puzzle),
        )
    templates = _result_templates(geometry)
    return Links(*(f"{head}{puzzle}{tail}" for head, tail in templates))


def _result_templates(geometry: Geometry) -> tuple[tuple[str, str], ...]:
    endpoint = "web." + ENDPOINTS[geometry.variant]
    key = form_key(geometry)
    edit_args = (("v", key),) if key else ()
    return _link_templates(
        (endpoint, "puzzle", False, ()),
        (endpoint, "puzzle", True, ()),
        ("web.index", "p", False, edit_args),
    )


def describe(geometry: Geometry) -> str:
    """Words for a board: ``9x9 X-sudoku``, ``6x6 jigsaw sudoku``, ``16x16 Sudoku``."""
    return f"{geometry.size}x{geometry.size} {NAMES[geometry.variant]}"
