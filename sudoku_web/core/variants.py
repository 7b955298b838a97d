"""The variant registry: every kind of Sudoku the engine plays, one entry each.

Modelled on python-chess's ``VARIANTS`` list and ``find_variant(name)``: a variant is one
:class:`VariantInfo` (its key, its names, its share-link prefix, the sizes it comes in, the
function that builds its houses, which houses are shaded, and an example puzzle), and
everything else derives from the entry: the engine's :func:`geometry` (``board.geometry_for``),
the web's routes (one loop over :data:`VARIANTS` in ``sudoku_web.web.request_path``), its form
picker, link previews and the API's ``variant`` field.

Adding a variant means writing its geometry builder (a function returning a
:class:`~sudoku_web.core.board.Geometry`, in :mod:`sudoku_web.core.board`) and appending one
entry here.

Vocabulary:

key
    The variant's machine name: ``standard``, ``x``, ``hyper``, ``jigsaw`` (the API's
    ``variant``, :attr:`Geometry.variant <sudoku_web.core.board.Geometry.variant>`).
prefix
    The first path segment of its share links: ``/p/<puzzle>``, ``/x/<puzzle>``,
    ``/jigsaw/<regions>/<puzzle>``.
form sizes
    The sizes offered on the form's picker, the default first (``standard``: 9, 4, 6, 16).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import (
    BOX_SHAPES,
    JIGSAW_SIZES,
    Geometry,
    HouseKind,
    InvalidPuzzle,
    PuzzleError,
    Variant,
    hyper,
    jigsaw,
    standard,
    x_sudoku,
)

#: ``build(size, regions)``: the geometry of one board of the variant; raises InvalidPuzzle
#: for a size (or region map) it does not take.
Builder = Callable[[int, "str | None"], Geometry]


@dataclass(frozen=True)
class Example:
    """A puzzle offered under the form: its size, text, a jigsaw's region map, and words."""

    size: int
    puzzle: str
    regions: str = ""
    label: str = ""


@dataclass(frozen=True)
class VariantInfo:
    """One variant: everything the engine, the pages and the API need to know about it."""

    key: Variant
    name: str  # in sentences: "9x9 X-sudoku", "6x6 Jigsaw sudoku"
    short: str  # on the picker and under link previews; "" for the classic grid
    prefix: str  # share links: /<prefix>/<puzzle>
    sizes: tuple[int, ...]  # every size the engine takes
    form_sizes: tuple[int, ...]  # the picker's entries, default first
    build: Builder
    takes_regions: bool = False  # a region map is part of the board (and of its share link)
    shaded: frozenset[HouseKind] = frozenset()  # house kinds drawn tinted (X's diagonals ...)
    tint_regions: bool = False  # each region its own tint (jigsaw)
    examples: tuple[Example, ...] = ()

    def geometry(self, size: int, regions: str | None = None) -> Geometry:
        """The board of this variant at ``size``; InvalidPuzzle when it has no such size."""
        if size not in self.sizes:
            sizes = ", ".join(f"{n}x{n}" for n in self.sizes)
            message = f"{self.name} grids come in {sizes}; {size}x{size} is not one."
            raise InvalidPuzzle([PuzzleError("length", message)])
        return self.build(size, regions)

    @property
    def default_size(self) -> int:
        """The size the form opens on."""
        return self.form_sizes[0]


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
        message = "A jigsaw puzzle needs a region map: one letter per cell, row by row."
        raise InvalidPuzzle([PuzzleError("regions", message)])
    geometry = jigsaw(regions)
    if geometry.size != size:
        message = (
            f"The region map is {geometry.size}x{geometry.size} but the puzzle is {size}x{size}."
        )
        raise InvalidPuzzle([PuzzleError("regions", message)])
    return geometry


def _no_regions(regions: str | None) -> None:
    if regions:
        message = "Only jigsaw puzzles take a region map; leave it out or use variant jigsaw."
        raise InvalidPuzzle([PuzzleError("regions", message)])


# The 9x9 jigsaw the form opens on: a real irregular map, so the variant is recognisable at
# a glance; people repaint it (or type their own) for their puzzle.
DEFAULT_JIGSAW = "AAABBBCCCAADBBBCCCAADBBBEECAADFFFEECDDDDFFFECGGGDFFFEHGIIDIIEEHGIIIIHHEHGGGGIHHHH"

_BOXED = tuple(BOX_SHAPES)  # 4, 6, 9, 16

VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo(
        "standard",
        name="Sudoku",
        short="",
        prefix="p",
        sizes=_BOXED,
        form_sizes=(9, 4, 6, 16),
        build=_boxed(standard),
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
        name="X-sudoku",
        short="X-sudoku",
        prefix="x",
        sizes=_BOXED,
        form_sizes=(9,),
        build=_boxed(x_sudoku),
        shaded=frozenset({"diagonal"}),
        examples=(
            Example(
                9,
                "000060000250000000000301000000050000804020050030000000000692000790000000008100000",
            ),
        ),
    ),
    VariantInfo(
        "hyper",
        name="Hyper sudoku",
        short="Hyper",
        prefix="hyper",
        sizes=(9,),
        form_sizes=(9,),
        build=_hyper,
        shaded=frozenset({"window"}),
        examples=(
            Example(
                9,
                "004030000210000000000001000000070000705020060000500000000082070300050000008100300",
            ),
        ),
    ),
    VariantInfo(
        "jigsaw",
        name="Jigsaw sudoku",
        short="Jigsaw",
        prefix="jigsaw",
        sizes=tuple(JIGSAW_SIZES),
        form_sizes=(9,),
        build=_jigsaw,
        takes_regions=True,
        tint_regions=True,
        examples=(
            Example(
                9,
                "000000020040001900300009000800010600900000000000000000003000000405090003000000006",
                DEFAULT_JIGSAW,
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
    key = "standard" if name is None else name.strip().lower()
    found = _BY_KEY.get(key)
    if found is None:
        names = ", ".join(_BY_KEY)
        message = f"Unknown variant {name!r}; use one of {names}."
        raise InvalidPuzzle([PuzzleError("variant", message)])
    return found


def variant_of(geometry: Geometry) -> VariantInfo:
    """The registry entry of a geometry."""
    return _BY_KEY[geometry.variant]
