"""A puzzle's URLs, and which geometry a request means (the web's half of each variant).

A variant is one entry of the registry (:mod:`sudoku_web.core.variants`); this module is the
web's half of it, derived from the entry: the choices offered on the form (``/?v=x`` ...), the
geometry named by a form or an API request, and **the one links helper**: the share links'
rules and endpoints, and every URL of a puzzle (:func:`share_url`, :func:`edit_url`,
:func:`result_links`), used by every view and, through :class:`Links`, every template.

URL scheme (every character is a digit or an upper-case letter, so chat and mail linkifiers
keep the whole link):

============================  =================================================================
``/p/<puzzle>``               classic boxed grids; the size follows from the length
                              (16, 36, 81 or 256 cells: 4x4, 6x6, 9x9, 16x16)
``/x/<puzzle>``               X-sudoku (both main diagonals are houses), boxed sizes as above
``/hyper/<puzzle>``           hyper / windoku, 9x9
``/jigsaw/<regions>/<puzzle>``  jigsaw, N from 4 to 16; ``regions`` is N*N letters, one per
                              cell row-major, relabelled ``A``, ``B``, ... in reading order
``/killer/<cages>/<puzzle>``  a board with cages: the classic one; ``/killer-x/...``,
                              ``/killer-hyper/...``, ``/killer-jigsaw/<regions>/<cages>/...``
                              the others (each entry's ``cage_prefix``); ``<cages>`` is
                              :func:`sudoku_web.core.cages.link_spelling`; a board with
                              cages and no givens leaves out ``/<puzzle>``: ``/killer/<cages>``
============================  =================================================================

``/rules/<puzzle>/<rules>``   a board with rules (thermometers, arrows, dots ...): the givens
                              (``9x9`` for none), then the rules' spelling
                              (:mod:`sudoku_web.core.rules.links`);
                              ``/rules/<puzzle>/<rules>/<regions>`` on a region map
============================  =================================================================

``<puzzle>`` is the symbols with ``0`` for blanks, letters upper case. A puzzle's pages sit
under its share link: ``.png`` (the link-preview picture), ``/steps``, ``/search``,
``/difficulty``, ``/play`` and ``/play.png``. Any other spelling (dots, lower case, other
region labels) answers ``301`` to the canonical one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from flask import url_for

from ...core.board import (
    BOX_SHAPES,
    REGION_LETTERS,
    Geometry,
    House,
    InvalidPuzzle,
    PuzzleError,
    infer_size,
    jigsaw,
    region_labels,
    region_text,
    standard,
)
from ...core.cages import cages_from_list, from_link, link_spelling
from ...core.rules import links as rule_links
from ...core.variants import (
    CAGED,
    CLASSIC,
    DEFAULT_JIGSAW,
    REGIONAL,
    VARIANTS,
    VariantInfo,
    find_variant,
    layout_of,
    variant_of,
)
from ...core.wording import N_, Words, words
from ..runtime.memo import byte_cache
from .core_names import said

# ---- Routes ------------------------------------------------------------------------------------

#: The pages under a share link: page name -> (blueprint, URL suffix). "" is the result page.
SHARE_PAGES: dict[str, tuple[str, str]] = {
    "": ("pages", ""),
    "png": ("pages", ".png"),
    "steps": ("teach", "/steps"),
    "search": ("teach", "/search"),
    "difficulty": ("teach", "/difficulty"),
    "play": ("play", "/play"),
    "play_png": ("play", "/play.png"),
    "fpuzzles": ("pages", "/fpuzzles"),
}

#: A solved puzzle's teaching pages, each at ``<share link>/<page>`` (see web/teach/routes.py).
TEACH_PAGES = ("steps", "search", "difficulty")

#: The variants with share links of their own (a killer's are its layout's, with cages).
ROUTED: tuple[VariantInfo, ...] = tuple(info for info in VARIANTS if not info.has_layout)

#: A board with rules: its share-link rule without and with a region map (``mapped``), and
#: the entry whose messages a bad link gets (a bad region map is drawn as typed).
RULES_LINKS: dict[bool, tuple[str, VariantInfo]] = {
    False: ("/rules/<puzzle>/<rules>", CLASSIC),
    True: ("/rules/<puzzle>/<rules>/<regions>", REGIONAL),
}


def endpoint(info: VariantInfo, page: str = "", *, caged: bool = False) -> str:
    """A share-link page's endpoint name within its blueprint: ``puzzle`` for the classic
    result page, ``x_puzzle_steps`` for an X-sudoku's steps page, ``killer_x_puzzle`` for
    an X-sudoku with cages."""
    stem = f"{info.cage_prefix.replace('-', '_')}_puzzle" if caged else info.endpoint
    return f"{stem}_{page}" if page else stem


def rules_endpoint(page: str = "", *, mapped: bool = False) -> str:
    """A rules puzzle's page endpoint within its blueprint: ``rules_puzzle`` for the result
    page, ``rules_mapped_puzzle_steps`` for the steps page of one on a region map."""
    stem = "rules_mapped_puzzle" if mapped else "rules_puzzle"
    return f"{stem}_{page}" if page else stem


def rule(info: VariantInfo, puzzle: str, *, caged: bool = False) -> str:
    """A variant's share-link rule: ``/x/<puzzle>``, ``/jigsaw/<regions>/<puzzle>``, and
    with cages ``/killer-x/<cages>/<puzzle>`` (``puzzle`` "": ``/killer-x/<cages>``, the
    link of a board with cages and no givens)."""
    regions = "<regions>/" if info.takes_regions else ""
    if caged:
        return f"/{info.cage_prefix}/{regions}<cages>" + (f"/{puzzle}" if puzzle else "")
    return f"/{info.prefix}/{regions}{puzzle}"


def link_puzzle(geometry: Geometry, puzzle: str) -> str:
    """The puzzle as its share link spells it: "" for a board with cages and no givens (its
    cages are the whole puzzle; a board with rules always spells its givens), else
    ``puzzle``."""
    return "" if geometry.cages and not geometry.rules and not puzzle.strip("0") else puzzle


def link_givens(geometry: Geometry, puzzle: str) -> str:
    """The givens a share link's ``puzzle`` stands for: its blank cells for "" (a killer)
    and, on a board with rules, for ``NxN``
    (:func:`~sudoku_web.core.rules.links.givens_part`)."""
    if geometry.rules:
        return rule_links.link_givens(puzzle)
    return puzzle or "0" * geometry.cells


# ---- The form's picker -------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One entry of the variant picker on ``GET /``: ``/?v=<key>``."""

    key: str  # "" for the classic grid (plain "/")
    label: str
    variant: str
    size: int
    info: VariantInfo = field(compare=False, repr=False, default=CLASSIC)

    @property
    def heading(self) -> str:
        """The form's heading: ``Solve a Sudoku``, ``Solve an X-sudoku puzzle``."""
        if not self.key:
            return "Solve a Sudoku"
        return f"Solve {with_article(f'{self.label} {self.info.noun}')}"

    @property
    def form_url(self) -> str:
        """The empty form of this choice: ``/``, ``/?v=x``, ``/?v=jigsaw&n=6``."""
        return url_for("pages.index", **dict[str, Any](self.form_args))

    @property
    def form_args(self) -> tuple[tuple[str, str], ...]:
        """The form's own fields for this choice (``v`` and, for a jigsaw not 9x9, ``n``)."""
        args = [("v", self.key)] if self.key else []
        if self.info.takes_regions and self.size != self.info.default_size:
            args.append(("n", str(self.size)))
        return tuple(args)


def _choices() -> tuple[Choice, ...]:
    """The picker: each variant at its default size, then the other sizes it offers."""
    first = [(info, info.default_size) for info in VARIANTS]
    rest = [(info, size) for info in VARIANTS for size in info.form_sizes[1:]]
    return tuple(
        Choice(info.picker_key(size), info.picker_label(size), info.key, size, info)
        for info, size in first + rest
    )


CHOICES: tuple[Choice, ...] = _choices()

#: The picker's words and the form's headings, marked for the catalog (the templates show them
#: through ``catalog_words``); tests/test_languages.py keeps this list complete.
PICKER_WORDS: Final = (
    N_("Classic 9x9"),
    N_("X-sudoku"),
    N_("Hyper"),
    N_("Jigsaw"),
    N_("Killer"),
    N_("Solve a Sudoku"),
    N_("Solve an X-sudoku puzzle"),
    N_("Solve a Hyper puzzle"),
    N_("Solve a Jigsaw puzzle"),
    N_("Solve a Killer sudoku"),
    N_("Solve a 4x4 Sudoku"),
    N_("Solve a 6x6 Sudoku"),
    N_("Solve a 16x16 Sudoku"),
)
_BY_KEY = {c.key: c for c in CHOICES}


def choice(key: str | None, size: str | None = None) -> Choice:
    """The picker entry for ``?v=<key>`` (classic for anything unknown).

    A jigsaw may also name its size (``?v=jigsaw&n=6``), any N the engine takes.
    """
    picked = _BY_KEY.get((key or "").strip().lower(), CHOICES[0])
    info = picked.info
    if info.takes_regions and size and size.isascii() and size.isdigit():
        if int(size) in info.sizes:  # isascii: "٣".isdigit() is True, and int() takes it too
            return Choice(picked.key, picked.label, info.key, int(size), info)
    return picked


def choice_of(geometry: Geometry) -> Choice:
    """The picker entry (with its size) of a board: the killer's for the classic 9x9 with
    cages; on other boards cages are an option of the board's own form."""
    info = variant_of(geometry)
    if geometry.cages and layout_of(CAGED) is info and geometry.size == CAGED.default_size:
        info = CAGED
    key = info.picker_key(geometry.size)
    picked = _BY_KEY.get(key)
    if picked is None:  # a size the picker does not offer (an X 4x4): the variant's form
        picked = _BY_KEY.get(info.form_key, CHOICES[0])
    if picked.size != geometry.size:
        label = info.picker_label(geometry.size)
        return Choice(picked.key, label, info.key, geometry.size, info)
    return picked


def form_key(geometry: Geometry) -> str:
    """The ``?v=`` key of the picker entry for a geometry ("" for classic 9x9)."""
    return variant_of(geometry).picker_key(geometry.size)


# ---- Region maps -------------------------------------------------------------------------------


def default_regions(size: int) -> str:
    """The region map a fresh jigsaw form of this size starts from."""
    if size == 9:
        return DEFAULT_JIGSAW
    if size in BOX_SHAPES:
        index = standard(size).box_index
    else:  # no boxes for 5, 7, 8, ...: one region per row, to be repainted
        index = tuple(cell // size for cell in range(size * size))
    return region_text(index)


# board.jigsaw memoises every map it is given, in entries; the web goes through this cache,
# bounded in bytes (a 9x9 jigsaw geometry with its peer tables is ~50 KB, a 16x16 ~1 MB).
# Keyed on the canonical map, so spellings share.
_build_jigsaw: Callable[[str], Geometry] = getattr(jigsaw, "__wrapped__", jigsaw)


def jigsaw_geometry(regions: str) -> Geometry:
    """The jigsaw geometry of a region map (any labels); raises InvalidPuzzle like
    :func:`sudoku_web.core.board.jigsaw`, whose messages name the region and its size."""
    labels = region_labels(regions)
    number: dict[str, int] = {}
    for label in labels:
        number.setdefault(label, len(number))
    if len(number) <= len(REGION_LETTERS):
        try:
            return _jigsaw_canonical("".join(REGION_LETTERS[number[label]] for label in labels))
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
    return region_text(geometry.regions)


@byte_cache(1024 * 1024)
def sketch(size: int, regions: tuple[int, ...] | None = None) -> Geometry:
    """A drawing-only jigsaw board: rows (so cells know their row), and the map's regions as
    borders and tints when given (a fresh form before its regions are set draws none)."""
    rows = [House("row", r, tuple(range(r * size, (r + 1) * size))) for r in range(size)]
    return Geometry(size, REGIONAL.key, tuple(rows), None, regions)  # type: ignore[arg-type]


def region_sketch(text: str) -> Geometry | None:
    """The drawing of a region map that may be invalid (see :func:`sketch`), so a rejected
    map can be shown with its bad cells marked.

    None when the map is not a square of a jigsaw size; it cannot be drawn then.
    """
    labels = region_labels(text)
    size = infer_size("0" * len(labels))
    if size is None or len(labels) != size * size:
        return None
    number: dict[str, int] = {}
    return sketch(size, tuple(number.setdefault(label, len(number)) for label in labels))


# ---- Geometries of requests --------------------------------------------------------------------


def geometry_of(
    variant: str | None,
    puzzle: str,
    regions: str | None = None,
    cages: Cages = None,
    rules: str | None = None,
) -> Geometry:
    """The geometry a request names: variant (default classic), size from the puzzle's length,
    and cages (a link's spelling, any labels, or the API's list).

    Variants without a region map take the size from the cell count when it is one of their
    sizes and otherwise assume their default (the reader then reports the wrong length
    against it). A jigsaw's size comes from its region map. Raises :class:`InvalidPuzzle`
    for an unknown variant, a missing or bad region map, a region map given to another
    variant, bad cages, or a killer without cages. ``rules``: a rules link's spelling (its
    size from the puzzle or the map, see :func:`sudoku_web.core.rules.links.board`).
    """
    if rules is not None:
        return rule_links.board(puzzle, rules, regions)
    if variant == CLASSIC.key and not regions and not cages and len(puzzle) == 81:
        if puzzle.isalnum():
            return standard(9)  # a classic share link as built: the common case
    asked = find_variant(variant)
    info = layout_of(asked)
    if info.takes_regions:
        if not regions:
            return info.geometry(info.default_size, None)  # says a map is needed
        board = jigsaw_geometry(regions)  # through the web's byte-bounded cache
    else:
        size = infer_size(puzzle or blank_cells(cages))
        board = info.geometry(size if size in info.sizes else info.default_size, regions)
    return with_link_cages(board, cages, needed=asked.needs_cages)


def blank_cells(cages: Cages) -> str:
    """One blank per cell of a link's cage spelling (labels first, one a cell; see
    :func:`sudoku_web.core.cages.link_spelling`): a board's size when its link has no
    puzzle."""
    return "0" * len(cages.partition("-")[0]) if isinstance(cages, str) else ""


#: Cages as requests spell them: a link's spelling, or the API's ``[{"sum", "cells"}, ...]``.
Cages = str | Sequence[Mapping[str, object]] | None


def with_link_cages(board: Geometry, cages: Cages, *, needed: bool = False) -> Geometry:
    """``board`` with the cages of a link spelling (or the API's list); InvalidPuzzle for bad
    ones, or for none when ``needed`` (a killer is its cages)."""
    if not cages:
        if needed:
            message = "A killer puzzle needs its cages: draw them, or list them with their sums."
            raise InvalidPuzzle([PuzzleError("cage", message)])
        return board
    if not isinstance(cages, str):
        return board.with_cages(cages_from_list(cages, board))
    return _caged(board, cages)


@byte_cache(4 * 1024 * 1024)  # per board and spelling: links come from users
def _caged(board: Geometry, cages: str) -> Geometry:
    return board.with_cages(from_link(cages, board))


def form_geometry(picked: Choice, regions: str | None = None) -> Geometry:
    """The geometry a fresh form of this choice draws (a jigsaw's from ``regions`` if valid)."""
    info = layout_of(picked.info)
    if info.takes_regions:
        try:
            return jigsaw_geometry(regions or default_regions(picked.size))
        except InvalidPuzzle:
            return jigsaw_geometry(default_regions(picked.size))
    return info.geometry(picked.size)


# ---- A puzzle's URLs: the one links helper -----------------------------------------------------


def share_url(geometry: Geometry, puzzle: str, page: str = "", *, external: bool = False) -> str:
    """A canonical puzzle's share link (``page`` "") or a page under it (see
    :data:`SHARE_PAGES`: ``png``, ``steps``, ``search``, ``difficulty``, ``play`` ...)."""
    name, args = _share_target(geometry, puzzle, page)
    return url_for(name, _external=external, **args)


def _share_target(geometry: Geometry, puzzle: str, page: str) -> tuple[str, dict[str, Any]]:
    """The endpoint and path arguments of a puzzle's page (see :func:`share_url`)."""
    blueprint, _ = SHARE_PAGES[page]
    if geometry.rules:  # /rules/<puzzle>/<rules>[/<regions>] (core.rules.links)
        found = rule_links.parts(geometry)
        given = rule_links.givens_part(puzzle, geometry.size)
        args: dict[str, Any] = {"puzzle": given, "rules": found.rules}
        if found.regions is not None:
            args["regions"] = found.regions
        return f"{blueprint}.{rules_endpoint(page, mapped=found.regions is not None)}", args
    name = f"{blueprint}.{endpoint(variant_of(geometry), page, caged=bool(geometry.cages))}"
    args = dict[str, Any](_map_args(geometry))
    if link_puzzle(geometry, puzzle):
        args["puzzle"] = puzzle
    return name, args


def is_canonical_rules_link(
    geometry: Geometry, puzzle: str, rules: str | None, regions: str | None
) -> bool:
    """True when a rules link's parts are spelled as :func:`share_url` builds them for this
    board (a board without rules has a link of its variant instead)."""
    if not geometry.rules or rules is None:
        return False
    found = rule_links.parts(geometry)
    return (rules, regions) == (found.rules, found.regions) and bool(puzzle)


def page_url(geometry: Geometry, puzzle: str, *, png: bool = False, external: bool = False) -> str:
    """The canonical result page (or preview picture) of a canonical puzzle."""
    return share_url(geometry, puzzle, "png" if png else "", external=external)


def teach_url(page: str, geometry: Geometry, puzzle: str, **args: Any) -> str:
    """The URL of a puzzle's teaching page (``steps``, ``search``, ``difficulty``), with
    ``args`` as its query."""
    name, link_args = _share_target(geometry, puzzle, page)
    return url_for(name, **args, **link_args)


@byte_cache(1024 * 1024)  # per geometry
def _map_args(geometry: Geometry) -> tuple[tuple[str, str], ...]:
    """A jigsaw's ``regions`` and a board's ``cages`` arguments for its links."""
    args = []
    if geometry.regions is not None:
        args.append(("regions", canonical_regions(geometry)))
    if geometry.cages:
        args.append(("cages", link_spelling(geometry.cages, geometry)))
    return tuple(args)


def canonical_cages(geometry: Geometry) -> str:
    """The share-link spelling of a board's cages ("" for none)."""
    return link_spelling(geometry.cages, geometry)


def cages_json(geometry: Geometry) -> list[dict[str, Any]]:
    """A board's cages as the API takes them: ``[{"sum": 15, "cells": ["r1c1", ...]}]``."""
    return [
        {"sum": cage.total, "cells": [geometry.cell_name(c) for c in cage.cells]}
        for cage in geometry.cages
    ]


def form_args(geometry: Geometry) -> tuple[tuple[str, str], ...]:
    """The form's fields that open it on this board: ``v``, ``n`` (size), ``r`` (map)."""
    args = list(choice_of(geometry).form_args)
    if geometry.regions is not None:
        args.append(("r", canonical_regions(geometry)))
    if geometry.cages:
        args.append(("k", canonical_cages(geometry)))
    return tuple(args)


def edit_url(geometry: Geometry, puzzle: str | None = None) -> str:
    """The form opened on this variant (and puzzle): ``/?v=x&p=...``."""
    args = dict[str, Any](form_args(geometry))
    if geometry.rules:
        args["rules"] = rule_links.parts(geometry).rules
    if puzzle:
        args["p"] = puzzle
    return url_for("pages.index", **args)


def print_url(edit_url: str) -> str:
    """The print page of a puzzle from its "Edit this puzzle" URL (the same arguments)."""
    query = edit_url.partition("?")[2]
    return url_for("pages.printout") + (f"?{query}" if query else "")


class Links(NamedTuple):
    """A canonical puzzle's links, for its pages and their templates (a named tuple: a
    result page makes one per request, a third of the cost of a frozen dataclass's)."""

    page: str  # the share link, a path: /p/<puzzle>
    share: str  # the same, absolute (for copying and link previews)
    edit: str  # the form opened on the puzzle
    print: str  # the print page of the same puzzle
    picture: str  # the link-preview picture, absolute: <share>.png
    play: str  # the play page, absolute
    steps: str  # the teaching pages, paths
    search: str
    difficulty: str
    # "Open in f-puzzles", a path: <share link>/fpuzzles (a page offers it only where
    # f-puzzles holds the board whole: render.exports.written_whole)
    fpuzzles: str

    def fields(self) -> tuple[str, ...]:
        """Every link, in field order (``Links(*links.fields())`` is the same links)."""
        return tuple(self)


def result_links(geometry: Geometry, puzzle: str) -> Links:
    """Every link of a canonical puzzle (see :class:`Links`)."""
    edit = edit_url(geometry, link_puzzle(geometry, puzzle))
    return Links(
        share_url(geometry, puzzle),
        share_url(geometry, puzzle, external=True),
        edit,
        print_url(edit),
        share_url(geometry, puzzle, "png", external=True),
        share_url(geometry, puzzle, "play", external=True),
        *(share_url(geometry, puzzle, page) for page in (*TEACH_PAGES, "fpuzzles")),
    )


def form_url(geometry: Geometry) -> str:
    """The empty form of this board's variant and size ("New puzzle" on a puzzle's pages)."""
    return choice_of(geometry).form_url


@byte_cache(64 * 1024)  # per geometry: a result page names its board three times
def describe(geometry: Geometry) -> str:
    """Words for a board in English: ``9x9 X-sudoku``, ``6x6 Jigsaw sudoku``, ``16x16
    Sudoku``, ``9x9 Killer sudoku``, ``9x9 Killer X-sudoku``."""
    return board_words(geometry).english()


def board_name(geometry: Geometry) -> str:
    """:func:`describe` in the request's language (page headings)."""
    return said(describe(geometry), board_words(geometry))


@byte_cache(256 * 1024)  # per geometry (a few hundred bytes each)
def board_words(geometry: Geometry) -> Words:
    """:func:`describe`'s words, for the pages to say in the visitor's language."""
    info = variant_of(geometry)
    if geometry.cages and layout_of(CAGED) is not info:
        name = words(N_("Killer {variant}"), variant=Words(info.name))
    else:
        name = Words(CAGED.name if geometry.cages else info.name)
    return words(N_("{size}x{size} {variant}"), size=str(geometry.size), variant=name)


#: Letters whose spoken name starts with a vowel sound ("an X-sudoku", "an F-puzzle").
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")
_FIRST_WORD_END: Final = re.compile(r"[\s-]")
_DIGITS: Final = re.compile(r"\d+")


def with_article(words: str, *, capital: bool = False) -> str:
    """``words`` after "a" or "an", by how the first word is spoken, not spelled: "an X-sudoku"
    (a letter alone is read as its name), "an 8x8", "an 11x11", "a 16x16 Sudoku", "a Hyper
    puzzle", "an Irregular puzzle"; "A"/"An" with ``capital``."""
    first = _FIRST_WORD_END.split(words.strip(), maxsplit=1)[0]
    number = _DIGITS.match(first)
    if number:
        digits = number.group()
        # eight, eighty, eight hundred ...; eleven and eighteen (thousand, million ...)
        vowel = digits[0] == "8" or (digits[:2] in ("11", "18") and len(digits) % 3 == 2)
    elif len(first) == 1:
        vowel = first.upper() in _VOWEL_LETTERS
    else:
        vowel = first[:1].lower() in "aeiou"
    article = "an" if vowel else "a"
    return f"{article.capitalize() if capital else article} {words}"


def givens_words(geometry: Geometry, givens: str) -> str:
    """What a puzzle starts from, for sentences: ``28 givens``, or for a board with cages
    and no givens ``34 cages and no givens``."""
    count = len(givens) - givens.count("0")
    if not count and geometry.cages:
        return f"{len(geometry.cages)} cages and no givens"
    return f"{count} givens"


def is_classic(geometry: Geometry) -> bool:
    """True for the plain 9x9 board (pages name every other board)."""
    return geometry == standard(9)
