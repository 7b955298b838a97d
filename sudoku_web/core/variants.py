"""The variant registry: every kind of Sudoku the package plays, one entry each.

Modelled on python-chess's ``VARIANTS`` list and ``find_variant(name)``: a variant is one
:class:`VariantInfo`, and everything else asks the entry, never the variant's name: the engine's
:func:`geometry_for`, the web's routes and links (one loop over :data:`VARIANTS` in
``sudoku_web.web.puzzles.request_path``, one links helper in ``sudoku_web.web.puzzles.urls``), the
form's picker and its rules in words, the pictures' shading, the generator's kinds and the API's
``variant`` field. Adding a variant starts with one entry here, but is not only that: its key
joins :data:`sudoku_web.core.board.Variant`, a new layout of houses needs its geometry builder
in :mod:`sudoku_web.core.board`, and a board drawn from a region map shares the jigsaw's
region-map functions (``docs/development.md``, "Adding a variant"). A rule on any board
(thermometer, dots, cages from f-puzzles ...) is not a variant: it is a kind of
:mod:`sudoku_web.core.rules`.
An entry holds: its key and names; its rules in words (:attr:`VariantInfo.rules`,
:attr:`VariantInfo.house_list`); its links (share-link ``prefix``, the form's ``?v=`` key,
endpoint names); the sizes it comes in; whether it takes a region map (``takes_regions``) or
cages (``takes_cages``, ``needs_cages``); what it shades; the generator's kinds (sizes, live
attempts, grades left to the pool); its examples.

Vocabulary:

key
    The variant's machine name: ``standard``, ``x``, ``hyper``, ``jigsaw``, ``killer`` (the
    API's ``variant``). For the boards' own variants it is also
    :attr:`Geometry.variant <sudoku_web.core.board.Geometry.variant>`.
layout
    The entry whose houses a variant plays on: a killer is the classic board plus cages, so
    its layout is ``standard``; cages are one more rule on any board (killer-X is the X
    board with cages), so a board's variant stays its layout's.
prefix
    The first path segment of its share links: ``/p/<puzzle>``, ``/x/<puzzle>``,
    ``/jigsaw/<regions>/<puzzle>``.
form sizes
    The sizes offered on the form's picker, the default first (``standard``: 9, 4, 6, 16).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .board import (
    BOX_SHAPES,
    JIGSAW_SIZES,
    Geometry,
    HouseKind,
    InvalidPuzzle,
    hyper,
    jigsaw,
    puzzle_error,
    standard,
    x_sudoku,
)
from .wording import N_, Words, words

#: ``build(size, regions)``: the geometry of one board of the variant; raises InvalidPuzzle
#: for a size (or region map) it does not take.
Builder = Callable[[int, "str | None"], Geometry]


@dataclass(frozen=True)
class Example:
    """A puzzle offered under the form: its size, text, a jigsaw's region map, a killer's
    cages (the cage text the form reads), and words."""

    size: int
    puzzle: str
    regions: str = ""
    label: str = ""
    cages: str = ""  # their share-link spelling (core.cages.link_spelling)


#: The word a variant's :attr:`VariantInfo.rules` draws as the shading's key.
SHADED = N_("shaded")


@dataclass(frozen=True)
class VariantInfo:
    """One variant: everything the engine, the pages, the generator and the API ask about it."""

    key: str
    name: str  # in sentences: "9x9 X-sudoku", "6x6 Jigsaw sudoku" (marked for the catalog)
    short: str  # on the picker and under link previews; "" for the classic grid
    prefix: str  # share links: /<prefix>/<puzzle>
    sizes: tuple[int, ...]  # every size the engine takes
    form_sizes: tuple[int, ...]  # the picker's entries, default first
    build: Builder
    #: Its houses in words, as in "no row, column or box repeats a digit" (marked for the
    #: catalog: the web layer shows them in the visitor's language).
    house_list: str
    #: The rules in words, said on the form: one sentence marked for the catalog, where
    #: ``{shaded}`` stands for :data:`SHADED`, drawn as the shading's key ("The two <shaded>
    #: diagonals ..."); "" for none.
    rules: str = ""
    #: The picker's words for its default size ("" when they are :attr:`short`).
    picker: str = ""
    #: The form's ``?v=`` key ("" for the classic grid: plain ``/``).
    form_key: str = ""
    #: What the form's heading calls a puzzle of it ("Solve an X-sudoku puzzle").
    noun: str = "puzzle"
    takes_regions: bool = False  # a region map is part of the board (and of its share link)
    takes_cages: bool = True  # cages may be drawn on it (killer-X, killer jigsaw ...)
    needs_cages: bool = False  # a puzzle of it is its cages (killer)
    #: The key of the entry whose houses it plays on ("" for its own); see the module's
    #: vocabulary.
    layout: str = ""
    #: The prefix of its share links when the board has cages ("" when it takes none).
    cage_prefix: str = ""
    shaded: frozenset[HouseKind] = frozenset()  # house kinds drawn tinted (X's diagonals ...)
    tint_regions: bool = False  # each region its own tint (jigsaw)
    #: The generator: live attempts per size before the pool answers (counts, not time, so
    #: a seed gives the same puzzle on any machine); sizes missing here are pool only.
    live_attempts: Mapping[int, int] = field(default_factory=dict)
    #: (size, grade) too rare to look for live: straight to the pool.
    pool_only: frozenset[tuple[int, str]] = frozenset()
    #: The sizes ``sudoku-web pool fill`` fills by default.
    pool_sizes: tuple[int, ...] = ()
    #: The sizes at which ``pool fill`` fills killers drawn on this board too (killer 6x6,
    #: killer-X 9x9), for the command line's ``generate --killer --from-pool``.
    caged_pool_sizes: tuple[int, ...] = ()
    examples: tuple[Example, ...] = ()
    aliases: tuple[str, ...] = ()  # other names people use for it ("classic")

    def geometry(self, size: int, regions: str | None = None) -> Geometry:
        """The board of this variant at ``size``; InvalidPuzzle when it has no such size."""
        if size not in self.sizes:
            sizes = ", ".join(f"{n}x{n}" for n in self.sizes)
            message = words(
                N_("{variant} grids come in {sizes}; {size}x{size} is not one."),
                variant=Words(self.name),
                sizes=sizes,
                size=size,
            )
            raise InvalidPuzzle([puzzle_error("length", message)])
        return self.build(size, regions)

    @property
    def default_size(self) -> int:
        """The size the form opens on."""
        return self.form_sizes[0]

    @property
    def endpoint(self) -> str:
        """Its share-link pages' endpoint stem: ``puzzle`` (classic), ``x_puzzle`` ..."""
        return f"{self.form_key.replace('-', '_')}_puzzle" if self.form_key else "puzzle"

    def picker_label(self, size: int) -> str:
        """The picker's words for it at ``size``: ``Classic 9x9``, ``4x4``, ``X-sudoku``."""
        if size == self.default_size:
            return self.picker or self.short
        return f"{self.short} {size}x{size}".strip()

    def picker_key(self, size: int) -> str:
        """The form's ``?v=`` key at ``size``: ``""``, ``4x4``, ``x``, ``x-4x4``."""
        if size == self.default_size or self.takes_regions:
            return self.form_key  # a jigsaw names its size with ?n=
        return "-".join(k for k in (self.form_key, f"{size}x{size}") if k)

    @property
    def has_layout(self) -> bool:
        """True when it plays on another entry's houses (a killer on the classic board)."""
        return bool(self.layout)


def _boxed(make: Callable[[int], Geometry]) -> Builder:
    def build(size: int, regions: str | None) -> Geometry:
        _no_regions(regions)
        return make(size)

    return build


def _hyper(size: int, regions: str | None) -> Geometry:
    _no_regions(regions)
    return hyper()


def _jigsaw(size: int, regions: str | None) -> Geometry:
    if not regions:
        message = words(N_("A jigsaw puzzle needs a region map: one letter per cell, row by row."))
        raise InvalidPuzzle([puzzle_error("regions", message)])
    geometry = jigsaw(regions)
    if geometry.size != size:
        message = words(
            N_("The region map is {map}x{map} but the puzzle is {size}x{size}."),
            map=geometry.size,
            size=size,
        )
        raise InvalidPuzzle([puzzle_error("regions", message)])
    return geometry


def _no_regions(regions: str | None) -> None:
    if regions:
        message = words(
            N_("Only jigsaw puzzles take a region map; leave it out or use variant jigsaw.")
        )
        raise InvalidPuzzle([puzzle_error("regions", message)])


# The 9x9 jigsaw the form opens on: a real irregular map, so the variant is recognisable at
# a glance; people repaint it (or type their own) for their puzzle.
DEFAULT_JIGSAW = "AAABBBCCCAADBBBCCCAADBBBEECAADFFFEECDDDDFFFECGGGDFFFEHGIIDIIEEHGIIIIHHEHGGGGIHHHH"

_BOXED = tuple(BOX_SHAPES)  # 4, 6, 9, 16
_HARD = ("Medium", "Hard", "Fiendish", "Diabolical")

# Live attempts (see VariantInfo.live_attempts): each kind's budget is about half a second of
# CPU at its cost per attempt (benchmarks/RESULTS.md, "Generating puzzles"); 16x16 is left
# out (one attempt alone takes 0.6-2 s). Pool-only grades: classic Diabolical ~0.5-1 % of
# attempts, 6x6 Medium and Fiendish ~0.3 %, none for 6x6 Diabolical and 4x4 above Easy.
VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo(
        "standard",
        name=N_("Sudoku"),
        short="",
        prefix="p",
        sizes=_BOXED,
        form_sizes=(9, 4, 6, 16),
        build=_boxed(standard),
        house_list=N_("row, column or box"),
        picker="Classic 9x9",
        noun="Sudoku",
        cage_prefix="killer",
        live_attempts={9: 20, 6: 40, 4: 20},
        pool_only=frozenset(
            {(9, "Diabolical")}
            | {(6, g) for g in ("Medium", "Fiendish", "Diabolical")}
            | {(4, g) for g in _HARD}
        ),
        pool_sizes=(9, 4, 6, 16),
        caged_pool_sizes=(6,),  # killer 6x6 (the killer entry fills 9x9)
        aliases=("classic", "sudoku"),
        examples=(
            Example(
                9,
                "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
                label="An easy one",
            ),
            Example(
                9,
                "850002400720000009004000000000107002305000900040000000000080070017000000000036040",
                label="A hard one",
            ),
            Example(
                9,
                "403921057907345021251876493548132976729564138136798245372689514814253769695417382",
                label="One with two solutions",
            ),
            Example(4, "0140402012000000"),
            Example(6, "003000410003020004640000000100006030"),
            Example(
                16,
                "0804030D2BG50000AD070020E09300F50E2000A0840000000G900014000CB00000E0200B3001"
                "0706000B60D0G70005C0307D01005A240F080C000000680B009004000E007012CG001B5A7C02"
                "F08D3000E03G0050000AF0000200B03140E00807504E008F1C30000G20B000C70D00E08F7AD8"
                "02G0BE500C01CF01460E9000003D",
            ),
        ),
    ),
    VariantInfo(
        "x",
        name=N_("X-sudoku"),
        short="X-sudoku",
        prefix="x",
        sizes=_BOXED,
        form_sizes=(9,),
        build=_boxed(x_sudoku),
        house_list=N_("row, column, box or main diagonal"),
        rules=N_("The two {shaded} diagonals are houses too: each holds every digit once."),
        form_key="x",
        cage_prefix="killer-x",
        shaded=frozenset({"diagonal"}),
        live_attempts={9: 8},
        pool_sizes=(9,),
        caged_pool_sizes=(9,),
        examples=(
            Example(
                9,
                "000060000250000000000301000000050000804020050030000000000692000790000000008100000",
            ),
        ),
    ),
    VariantInfo(
        "hyper",
        name=N_("Hyper sudoku"),
        short="Hyper",
        prefix="hyper",
        sizes=(9,),
        form_sizes=(9,),
        build=_hyper,
        house_list=N_("row, column, box or shaded window"),
        rules=N_("The four {shaded} 3x3 windows are houses too: each holds every digit once."),
        form_key="hyper",
        cage_prefix="killer-hyper",
        shaded=frozenset({"window"}),
        live_attempts={9: 12},
        pool_sizes=(9,),
        examples=(
            Example(
                9,
                "004030000210000000000001000000070000705020060000500000000082070300050000008100300",
            ),
        ),
    ),
    VariantInfo(
        "jigsaw",
        name=N_("Jigsaw sudoku"),
        short="Jigsaw",
        prefix="jigsaw",
        sizes=tuple(JIGSAW_SIZES),
        form_sizes=(9,),
        build=_jigsaw,
        house_list=N_("row, column or region"),
        rules=N_(
            "The thick lines mark irregular regions instead of boxes: each row, column and "
            "region holds every digit once. Set the regions below."
        ),
        form_key="jigsaw",
        cage_prefix="killer-jigsaw",
        takes_regions=True,
        tint_regions=True,
        live_attempts={9: 3},
        pool_sizes=(9,),
        examples=(
            Example(
                9,
                "000000020040001900300009000800010600900000000000000000003000000405090003000000006",
                DEFAULT_JIGSAW,
            ),
        ),
    ),
    VariantInfo(
        "killer",
        name=N_("Killer sudoku"),
        short="Killer",
        prefix="killer",
        sizes=_BOXED,
        form_sizes=(9,),
        build=_boxed(standard),
        house_list=N_("row, column or box"),
        rules=N_(
            "Each row, column and box holds every digit once, and the digits in each dashed "
            "cage are all different and add up to its sum. Draw the cages below."
        ),
        form_key="killer",
        noun="sudoku",
        needs_cages=True,
        layout="standard",
        # Every grade from the pool (cages and all): one attempt takes 0.05-4 s, past a
        # request's deadline, so none is looked for live and a seed picks the same killer
        # on any machine (benchmarks/RESULTS.md, "Killers from the pool").
        pool_sizes=(9,),
        examples=(
            # KrazyDad's "Intermediate" booklets (tests/data/killer_krazydad.txt): no givens.
            Example(
                9,
                "0" * 81,
                cages="AABBCCCCDEFGGHHIJDEFKLLMIJNOOKPMMQRNSSPPTTQRNUUVPWWQRNXYVZZWabNXYccddabeff"
                "gghhhhe-11-8-22-11-11-12-6-6-7-12-9-15-16-31-12-20-14-8-3-10-7-14-15-10-7-9-17"
                "-11-13-11-3-17-5-22",
                label="A killer from KrazyDad's booklets",
            ),
        ),
    ),
)

_BY_KEY: dict[str, VariantInfo] = {v.key: v for v in VARIANTS}


def find_variant(name: str | None) -> VariantInfo:
    """The variant called ``name`` (any case, surrounding spaces ignored; None: standard).

    Raises :class:`InvalidPuzzle` (code ``variant``) naming the known variants otherwise:
    the one place that message is written.
    """
    found = _BY_KEY.get(CLASSIC.key if name is None else name.strip().lower())
    if found is None:
        names = ", ".join(_BY_KEY)
        message = words(
            N_("Unknown variant {name}; use one of {names}."), name=repr(name), names=names
        )
        raise InvalidPuzzle([puzzle_error("variant", message)])
    return found


#: The classic board: the default wherever a variant is left out.
CLASSIC: VariantInfo = VARIANTS[0]

#: The variant whose board is drawn from a region map (the jigsaw).
REGIONAL: VariantInfo = next(v for v in VARIANTS if v.takes_regions)

#: The variant that is the classic board with cages (the killer).
CAGED: VariantInfo = next(v for v in VARIANTS if v.needs_cages)

#: The variants a board can be (each its own houses): the others play on one of them.
LAYOUTS: tuple[VariantInfo, ...] = tuple(v for v in VARIANTS if not v.has_layout)


def variant_of(geometry: Geometry) -> VariantInfo:
    """The registry entry of a geometry's houses (a killer's board is the classic one)."""
    return _BY_KEY[geometry.variant]


def layout_of(info: VariantInfo) -> VariantInfo:
    """The entry whose houses ``info`` plays on (itself unless it names a layout)."""
    return _BY_KEY[info.layout] if info.layout else info


def geometry_for(variant: str = "standard", size: int = 9, regions: str | None = None) -> Geometry:
    """The geometry for a variant name and size; ``regions`` is required for jigsaw.

    Raises :class:`InvalidPuzzle` for an unknown variant or a size the variant does not have.
    """
    return find_variant(variant).geometry(size, regions)
