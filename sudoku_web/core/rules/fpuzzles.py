"""f-puzzles puzzles: read and written, from JSON, ``?load=`` links and SudokuPad links.

f-puzzles keeps a puzzle as JSON (``size``, ``grid[r][c]`` with ``value``/``given``/
``region``, then one field per constraint) and links to it as ``?load=`` and that JSON
LZString-compressed to base64 (:mod:`lzstring`). SudokuPad opens such a puzzle from its own
links with the prefix ``fpuzzles`` or ``fpuz`` before the same payload; its ``scl`` links
store its own format, which keeps only shapes (lines, circles, text), never what they mean.

Reading is strict: a constraint field that no rule kind reads is refused by name (a solve
that ignored a rule would be a wrong answer); cosmetic elements (plain lines, circles,
rectangles, text, cosmetic cages) are ignored and said so in :attr:`Imported.ignored`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from lzstring import LZString

from ..board import Geometry, InvalidPuzzle, PuzzleError
from ..wording import N_, Words, listing, words
from .base import Reading, Rule, RuleError
from .board import build, default_regions
from .registry import fpuzzles_kind

# Bounds, checked before any work: a compressed payload longer than this is refused
# (LZString output can grow with the square of its input), and so is JSON longer than this.
MAX_PAYLOAD = 40_000
MAX_JSON = 400_000
SIZES = range(4, 17)
LOAD_URL = "https://f-puzzles.com/?load="

# Fields that are not constraints.
_META = frozenset(
    {"size", "title", "author", "ruleset", "grid", "solution", "highlightConflicts", "version"}
)
# f-puzzles options that do not change the puzzle.
_OPTIONS = frozenset({"disabledlogic", "truecandidatesoptions", "successMessage"})
_COSMETIC = {
    "line": N_("plain lines"),
    "circle": N_("circles"),
    "rectangle": N_("rectangles"),
    "text": N_("text"),
    "cage": N_("cosmetic cages"),
}
# Constraints f-puzzles has that no rule kind here reads, in words for the refusal.
_UNKNOWN_WORDS = {
    "betweenline": N_("between lines"),
    "clone": N_("clones"),
    "quadruple": N_("quadruples"),
    "minimum": N_("minimum cells"),
    "maximum": N_("maximum cells"),
    "extraregion": N_("extra regions"),
    "disjointgroups": N_("disjoint groups"),
    "doublearrow": N_("double arrows"),
    "entropicline": N_("entropic lines"),
    "regionsumline": N_("region sum lines"),
    "zipperline": N_("zipper lines"),
    "zipper": N_("zipper lines"),
    "modularline": N_("modular lines"),
    "lockoutline": N_("lockout lines"),
    "xsum": N_("X-sums"),
    "skyscraper": N_("skyscrapers"),
    "antidiagonal": N_("anti-diagonals"),
}


@dataclass(frozen=True)
class Imported:
    """A puzzle read from f-puzzles: its board (rules included), givens, and what was left."""

    geometry: Geometry
    givens: tuple[int, ...]
    title: str = ""
    author: str = ""
    ignored: tuple[Words, ...] = ()  # sentences: cosmetic elements not drawn

    @property
    def puzzle(self) -> str:
        """The givens as one line of text (``.`` for a blank)."""
        return "".join(self.geometry.symbol(v) for v in self.givens)


def refusal(message: Words) -> RuleError:
    """A :class:`RuleError` with one sentence."""
    return RuleError([PuzzleError("rule", str(message), (), message)])


def read(data: object) -> Imported:
    """The puzzle of an f-puzzles JSON object; raises :class:`RuleError` (or
    :class:`~sudoku_web.core.board.InvalidPuzzle` for a bad region map) naming every problem."""
    if not isinstance(data, Mapping):
        raise refusal(words(N_("An f-puzzles puzzle is a JSON object.")))
    size = data.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or size not in SIZES:
        raise refusal(
            words(
                N_("The f-puzzles size is {size}; sudoku-web solves 4x4 to 16x16 grids."),
                size=repr(size),
            )
        )
    givens, regions = _grid(data.get("grid"), size)
    unknown = []
    ignored = []
    rules: list[Rule] = []
    errors: list[PuzzleError] = []
    reading = Reading(size)
    for name, value in data.items():
        if name in _META or name in _OPTIONS or value in (None, False, [], "", {}):
            continue
        if name in _COSMETIC:
            ignored.append(_COSMETIC[name])
            continue
        kind = fpuzzles_kind(name)
        if kind is None:
            unknown.append(_UNKNOWN_WORDS.get(name, f"{name!r} constraints"))  # its own word
            continue
        try:
            rules.extend(kind.read_fpuzzles(name, value, reading))
        except RuleError as exc:
            errors.extend(exc.errors)
    if unknown:
        raise refusal(
            words(
                N_("This puzzle has {constraints}, which sudoku-web does not know yet."),
                constraints=listing(Words(what) for what in unknown),
            )
        )
    if errors:
        raise RuleError(errors)
    geometry = build(size, rules, regions)
    notes = tuple(
        words(
            N_(
                "This puzzle's {elements} are decoration; they were not drawn and carry"
                " no rule here."
            ),
            elements=Words(what),
        )
        for what in ignored
    )
    title = data.get("title")
    author = data.get("author")
    return Imported(
        geometry,
        givens,
        title if isinstance(title, str) else "",
        author if isinstance(author, str) else "",
        notes,
    )


def _grid(grid: object, size: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The givens and (when any cell names one) the region map of ``grid``."""
    if not isinstance(grid, list) or len(grid) != size:
        raise refusal(words(N_("The f-puzzles grid must have {size} rows."), size=size))
    givens = []
    regions = list(default_regions(size))
    own_regions = False
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != size:
            raise refusal(
                words(
                    N_("Row {row} of the f-puzzles grid must have {size} cells."),
                    row=r + 1,
                    size=size,
                )
            )
        for c, cell in enumerate(row):
            if not isinstance(cell, Mapping):
                raise refusal(
                    words(
                        N_("Cell {cell} of the f-puzzles grid is not an object."),
                        cell=f"r{r + 1}c{c + 1}",
                    )
                )
            value = cell.get("value")
            given = cell.get("given") is True and value not in (None, "")
            if given and not (isinstance(value, int) and 1 <= value <= size):
                raise refusal(
                    words(
                        N_("{cell} holds {value}, not a digit 1 to {size}."),
                        cell=f"r{r + 1}c{c + 1}",
                        value=repr(value),
                        size=size,
                    )
                )
            givens.append(value if given and isinstance(value, int) else 0)
            if cell.get("givenPencilMarks"):
                raise refusal(
                    words(
                        N_(
                            "This puzzle has given pencil marks ({cell}), which sudoku-web"
                            " does not know yet."
                        ),
                        cell=f"r{r + 1}c{c + 1}",
                    )
                )
            if "region" in cell:
                region = cell["region"]
                if not isinstance(region, int) or not 0 <= region < size:
                    raise refusal(
                        words(N_("{cell} is in no region of the grid."), cell=f"r{r + 1}c{c + 1}")
                    )
                regions[r * size + c] = region
                own_regions = True
    return tuple(givens), (tuple(regions) if own_regions else None)


def write(
    geometry: Geometry, givens: Sequence[int], title: str = "", author: str = ""
) -> dict[str, Any]:
    """The f-puzzles JSON object of a board and its givens."""
    size = geometry.size
    regions = geometry.regions
    if regions is not None and regions == default_regions(size):
        regions = None
    cells: list[dict[str, Any]] = [
        {"value": value, "given": True} if value else {} for value in givens[: size * size]
    ]
    if regions is not None:
        for cell, region in zip(cells, regions, strict=True):
            cell["region"] = region
    grid = [cells[r * size : (r + 1) * size] for r in range(size)]
    out: dict[str, Any] = {"size": size, "grid": grid}
    if title:
        out["title"] = title
    if author:
        out["author"] = author
    for rule in geometry.rules:
        rule.write_fpuzzles(out, size)
    return out


def load_text(geometry: Geometry, givens: Sequence[int], title: str = "") -> str:
    """The JSON text a ``load=`` payload compresses: :func:`write`'s object, compact, ASCII."""
    return json.dumps(write(geometry, givens, title), separators=(",", ":"))


def load_string(geometry: Geometry, givens: Sequence[int], title: str = "") -> str:
    """The ``load=`` payload (LZString, base64) of a board and its givens."""
    return str(LZString.compressToBase64(load_text(geometry, givens, title)))


def load_link(geometry: Geometry, givens: Sequence[int], title: str = "") -> str:
    """An "Open in f-puzzles" link of a board and its givens."""
    return LOAD_URL + load_string(geometry, givens, title)


_BASE64 = re.compile(r"[A-Za-z0-9+/=]+")
_SUDOKUPAD = re.compile(r"(?:puzzleid=|/|^)(fpuzzles|fpuz|scl|ctc)([A-Za-z0-9+/=%_-]+)")
_LOAD = re.compile(r"[?&]load=([^&#\s]+)")


def decode(text: str) -> object:
    """The f-puzzles JSON in a paste: the JSON itself, its ``load=`` payload, an f-puzzles
    link, or a SudokuPad link carrying an f-puzzles puzzle. Raises :class:`RuleError`
    saying what the text is when it is none of these."""
    text = text.strip()
    if len(text) > MAX_JSON:
        raise refusal(
            words(
                N_("The puzzle text has {length} characters; at most {most}."),
                length=len(text),
                most=MAX_JSON,
            )
        )
    if text.startswith("{"):
        return _json(text)
    if "f-puzzles.com" in text and "id=" in text and "load=" not in text:
        raise refusal(
            words(
                N_(
                    "This f-puzzles link is a short one: the puzzle stays on f-puzzles' server."
                    " Open it in f-puzzles and copy the link it shares with the puzzle in it"
                    " (?load=...)."
                )
            )
        )
    if match := _LOAD.search(text):
        return _payload(match[1])
    if match := _SUDOKUPAD.search(text):
        prefix, payload = match[1], match[2]
        if prefix in ("scl", "ctc"):
            raise refusal(
                words(
                    N_(
                        "This SudokuPad link stores the puzzle in SudokuPad's own format, which"
                        " keeps only its shapes (lines, circles, text), not the rules they stand"
                        " for. Open the puzzle in f-puzzles (or ask its setter for the"
                        " f-puzzles link) and paste that link: it names every constraint."
                    )
                )
            )
        return _payload(payload)
    if _BASE64.fullmatch(text):
        return _payload(text)
    raise refusal(words(N_("This is not an f-puzzles puzzle, link or load= string.")))


def _payload(payload: str) -> object:
    payload = unquote(payload).replace(" ", "+")
    if len(payload) > MAX_PAYLOAD:
        raise refusal(
            words(
                N_("The link's puzzle has {length} characters; at most {most}."),
                length=len(payload),
                most=MAX_PAYLOAD,
            )
        )
    if not _BASE64.fullmatch(payload):
        raise refusal(words(N_("The link's puzzle is not LZString base64 text.")))
    try:
        text = LZString.decompressFromBase64(payload)
    except Exception:  # noqa: BLE001 - the codec fails in any way its loop meets on garbage
        text = None
    if not text or not isinstance(text, str):
        raise refusal(words(N_("The link's puzzle does not decompress: it may be cut short.")))
    return _json(text)


def _json(text: str) -> object:
    if len(text) > MAX_JSON:
        raise refusal(
            words(
                N_("The puzzle's JSON has {length} characters; at most {most}."),
                length=len(text),
                most=MAX_JSON,
            )
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise refusal(words(N_("The puzzle's JSON does not parse: it may be cut short."))) from None


def load(source: str | Mapping[str, Any]) -> Imported:
    """The puzzle of a paste (see :func:`decode`) or of a JSON object already parsed."""
    data = source if isinstance(source, Mapping) else decode(source)
    try:
        return read(data)
    except InvalidPuzzle as exc:
        raise RuleError(exc.errors) from None
