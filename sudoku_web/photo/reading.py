"""The whole reading: bytes in, a checked 9x9 reading out (or a PhotoError).

decode (bounded, EXIF-upright) -> find the grid (where its frame is unsure, each candidate
frame is read and the best reading kept; grown over the photo's edge where it runs off it,
:mod:`sudoku_web.photo.edges`; its cells off the photo read blank and marked, those whose
digit the edge may cut marked; a grid with a whole row or column off the photo is refused
as cut off) ->
straighten (following the lines of a bent page, :mod:`sudoku_web.photo.lattice`) -> check
it shows most of a 9x9 grid's 16 inner lines -> cut the glyphs (and again at two other ink
contrasts, as second opinions) -> classify them in each of the four quarter turns and keep
the turn the classifier is surest of (a stale EXIF tag leaves the digits on their side) ->
weigh the three cuttings' readings of each cell together -> fewer than MIN_GIVENS digits is
no puzzle -> let the solver proof-read
(:mod:`sudoku_web.photo.check`) -> mark the doubtful cells: read with low confidence,
changed by the proof-reader, or read otherwise by a second opinion.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from sudoku_web.core.wording import N_, Np_, Words, counted, listing, words
from sudoku_web.photo import digits
from sudoku_web.photo.check import FIRST_SOLVE_MS, Choice, Status, proofread, verdict
from sudoku_web.photo.edges import DIGIT_REACH, cells_outside, over_the_edge
from sudoku_web.photo.errors import NO_GRID_MESSAGE, PhotoError
from sudoku_web.photo.glyphs import INK_CONTRAST, SECOND_OPINIONS, flat_glyph_sets, prepare
from sudoku_web.photo.grid import (
    CELL,
    grid_candidates,
    off_photo,
    paper_beyond,
    straighten,
    warp_matrix,
)
from sudoku_web.photo.image import MAX_PIXELS, load_gray
from sudoku_web.photo.lattice import MARGIN, follow_lines, is_bent, unbend

SURE = 0.9  # a cell read with less confidence is marked for the person to check
EMPTY_SURE = 0.99  # probability of "blank" for a cell with no ink blob at all
MIN_GIVENS = 8  # fewer digits than this: not a printed puzzle
ALTERNATIVE = 0.001  # other classes at least this likely are choices for the proof-reader
SUSPECTS_SHOWN = 3  # least certain cells also marked when the reading is not proven
VETO = 1e-4  # added to each class's probability when cuttings are weighed (weigh)

_MESSAGES: dict[Status, Words] = {
    "unique": words(N_("The grid as read has exactly one solution.")),
    "conflict": words(
        N_("Some digits as read conflict in a row, column or box: check the marked cells.")
    ),
    "no_solution": words(N_("The grid as read has no solution: check the marked cells.")),
    "several": words(N_("The grid as read has more than one solution: a digit may be missing.")),
    "unchecked": words(N_("The grid was read but not checked in time: check every cell.")),
}


@dataclass(frozen=True)
class Reading:
    """What was read: 81 symbols ("0" blank), a confidence per cell, and what to check.

    ``uncertain`` holds every cell the person should look at (read with low confidence,
    changed by the proof-reader, or in a conflict), ``changed`` those the proof-reader set to
    a second choice. ``status`` is the solver's verdict on ``puzzle``; ``rotation`` the
    quarter turns clockwise the straightened grid was turned to stand upright.
    """

    puzzle: str
    size: int
    confidence: tuple[float, ...]
    uncertain: tuple[int, ...]
    changed: tuple[int, ...]
    status: Status
    said: tuple[Words, ...]  # what the person reads about it, sentence by sentence
    rotation: int = 0

    @property
    def message(self) -> str:
        """What the person reads, in English."""
        return " ".join(str(sentence) for sentence in self.said)


def read_photo(data: bytes, *, deadline_ms: float = 1500, max_pixels: int = MAX_PIXELS) -> Reading:
    """Read the Sudoku in a JPEG, PNG or WebP photo; raise PhotoError when it cannot."""
    deadline = time.perf_counter() + deadline_ms / 1000
    gray = load_gray(data, max_pixels=max_pixels)
    found: list[tuple[Cut, np.ndarray]] = []
    for quad in grid_candidates(gray):  # several where the frame is unsure
        if found and time.perf_counter() > deadline:
            break  # past the deadline the frames read so far must do
        grown = over_the_edge(gray, quad)  # a grid running off the photo: its whole frame
        quad = quad if grown is None else grown
        cuts = [read_square(square) for square in cut_squares(gray, quad)]
        found += [(cut, quad) for cut in cuts if cut is not None]
    if not found:
        raise PhotoError("no_grid", NO_GRID_MESSAGE)
    short = [cut_lines(cells_outside(f[1], gray.shape)) is not None for f in found]
    whole = [f for f, off in zip(found, short, strict=True) if not off]
    cut = [f for f, off in zip(found, short, strict=True) if off]
    pick = None
    if whole:
        pick = (
            whole[0] if len(whole) == 1 else max(whole, key=lambda f: preference(f[0][0], deadline))
        )
    if pick is None or (cut and not agrees(pick, gray.shape, deadline, "unique")):
        # no frame holds the whole grid, or the ones that do misread it where a frame
        # leaving a row or column off the photo reads without a contradiction
        agreeing = [f for f in cut if agrees(f, gray.shape, deadline, "unique", "several")]
        if pick is None or agreeing:
            (_, turns, _), quad = max(agreeing or cut, key=lambda f: preference(f[0][0], deadline))
            outside = turned_cells(cells_outside(quad, gray.shape), turns)
            raise PhotoError("cut_off", cut_off_message(outside))
    (choices, turns, others), quad = pick
    if sum(1 for options in choices if options[0][0]) < MIN_GIVENS:
        raise PhotoError("no_grid", NO_GRID_MESSAGE)
    outside = turned_cells(cells_outside(quad, gray.shape), turns)
    for cell in outside:  # not seen: a blank the person fills in, never a guessed digit
        choices[cell] = [(0, 0.0)]
    edge = turned_cells(cells_outside(quad, gray.shape, DIGIT_REACH), turns)
    reading = conclude(choices, deadline, turns, disputed(choices, others) | edge)
    if not outside:
        return reading
    note = counted(
        Np_(
            "{num} cell lies outside the photo: fill it in from the paper.",
            "{num} cells lie outside the photo: fill them in from the paper.",
        ),
        len(outside),
        num=len(outside),
    )
    return replace(reading, said=(*reading.said, note))


Cut = tuple[list[list[Choice]], int, list[list[int]]]


def agrees(
    found: tuple[Cut, np.ndarray], shape: tuple[int, ...], deadline: float, *statuses: Status
) -> bool:
    """Whether a frame's reading (its cells off the photo blank) has one of ``statuses``."""
    (choices, turns, _), quad = found
    outside = turned_cells(cells_outside(quad, shape), turns)
    first = [0 if cell in outside else options[0][0] for cell, options in enumerate(choices)]
    return verdict(first, deadline, FIRST_SOLVE_MS)[0] in statuses


def cut_lines(outside: Collection[int]) -> tuple[list[int], list[int]] | None:
    """(rows, columns) wholly among the ``outside`` cells (0-8 each), or None when none is."""
    rows = [r for r in range(9) if all(r * 9 + c in outside for c in range(9))]
    columns = [c for c in range(9) if all(r * 9 + c in outside for r in range(9))]
    return (rows, columns) if rows or columns else None


#: What a person reads when the photo's edge cuts off whole rows or columns, by what is cut
#: (a row, rows, a column, columns, or both kinds: the sentence names each as it is).
_CUT_OFF: Final = {
    (1, 0): N_(
        "Row {rows} of the grid is cut off by the photo's edge: take the photo again with"
        " the whole grid in it."
    ),
    (2, 0): N_(
        "Rows {rows} of the grid are cut off by the photo's edge: take the photo again with"
        " the whole grid in it."
    ),
    (0, 1): N_(
        "Column {columns} of the grid is cut off by the photo's edge: take the photo again"
        " with the whole grid in it."
    ),
    (0, 2): N_(
        "Columns {columns} of the grid are cut off by the photo's edge: take the photo again"
        " with the whole grid in it."
    ),
    (1, 1): N_(
        "Row {rows} and column {columns} of the grid are cut off by the photo's edge: take"
        " the photo again with the whole grid in it."
    ),
    (2, 1): N_(
        "Rows {rows}, and column {columns} of the grid are cut off by the photo's edge:"
        " take the photo again with the whole grid in it."
    ),
    (1, 2): N_(
        "Row {rows}, and columns {columns} of the grid are cut off by the photo's edge:"
        " take the photo again with the whole grid in it."
    ),
    (2, 2): N_(
        "Rows {rows}, and columns {columns} of the grid are cut off by the photo's edge:"
        " take the photo again with the whole grid in it."
    ),
}


def cut_off_message(outside: Collection[int]) -> Words:
    """What a person reads when the photo's edge cuts off whole rows or columns of the grid
    (``outside``: the cells off the photo, numbered as the grid stands upright)."""
    rows, columns = cut_lines(outside) or ([], [])
    text = _CUT_OFF[min(len(rows), 2), min(len(columns), 2)]
    return words(
        text,
        rows=listing(str(k + 1) for k in rows),
        columns=listing(str(k + 1) for k in columns),
    )


def read_square(square: np.ndarray) -> Cut | None:
    """(choices, quarter turns, second opinions) of a straightened grid, or None.

    The choices weigh the three cuttings together (:func:`weigh`); the second opinions are
    the other two cuttings' first choices, cell by cell (for :func:`disputed`). None: the
    square does not show most of a 9x9 grid's inner lines (no grid there).
    """
    flat = prepare(square)[0]
    if not has_inner_lines(flat):
        return None
    glyphs, *others = flat_glyph_sets(flat, (INK_CONTRAST, *SECOND_OPINIONS))
    turns = upright(glyphs)
    probs = [probabilities(turn_cells(g, turns)) for g in (glyphs, *others)]
    firsts = [[options[0][0] for options in cell_choices(p)] for p in probs[1:]]
    return cell_choices(weigh(probs)), turns, firsts


def preference(choices: Sequence[Sequence[Choice]], deadline: float) -> tuple[bool, int, float]:
    """How much one cutting's reading is to be preferred: exactly one solution first, then
    more digits read (a cell cut off its digit reads blank), then the classifier's surety."""
    first = [options[0][0] for options in choices]
    status = verdict(first, deadline, FIRST_SOLVE_MS)[0]
    surety = sum(math.log(max(options[0][1], 1e-9)) for options in choices)
    return status == "unique", sum(1 for value in first if value), surety


def cut_squares(gray: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The grid straightened onto ``9 * CELL`` squares: the straight warp's, and before it a
    remap along the grid's curved lines when the page is bent.

    The perspective warp alone lines up a flat page's cells; when the grid's crossings are
    found (:func:`sudoku_web.photo.lattice.follow_lines`) away from where it put them, the
    picture is also remapped so each cell is cut from where it really lies. Both are read
    and the reader keeps the better reading (:func:`preference`): a lattice found a little
    wrong costs nothing then. What lies beyond the photo's edge is cut as plain paper.
    """
    padded = straighten(gray, quad, MARGIN)
    side = 9 * CELL
    inner = (slice(MARGIN, MARGIN + side), slice(MARGIN, MARGIN + side))
    beyond = off_photo(gray.shape, quad, MARGIN)[inner]  # paper there, not repeated pixels
    square = paper_beyond(np.ascontiguousarray(padded[inner]), beyond)
    points = follow_lines(prepare(padded)[0])
    if points is not None and is_bent(points):
        return [unbend(gray, warp_matrix(quad, MARGIN), points), square]
    return [square]


def disputed(choices: Sequence[Sequence[Choice]], others: Sequence[Sequence[int]]) -> set[int]:
    """Cells whose first choice another cutting (another ink contrast) reads differently:
    ``others`` holds each other cutting's first choices, cell by cell.

    A reading that changes when the ink threshold moves a little hangs on a faint or broken
    stroke (a 3 whose lower bowl fades reads as 9), however sure the classifier is of it.
    """
    return {
        cell
        for firsts in others
        for cell, first in enumerate(firsts)
        if first != choices[cell][0][0]
    }


def conclude(
    choices: Sequence[Sequence[Choice]],
    deadline: float | None = None,
    turns: int = 0,
    doubted: Collection[int] = (),
) -> Reading:
    """The Reading of 81 cells' choices (best first): proof-read, with the cells to check.

    ``doubted`` cells are marked whatever their confidence (see :func:`disputed`).
    """
    checked = proofread(choices, deadline)
    confidence = tuple(
        round(next((p for v, p in options if v == value), 0.0), 4)
        for options, value in zip(choices, checked.values, strict=True)
    )
    uncertain = {cell for cell, p in enumerate(confidence) if p < SURE}
    uncertain |= set(checked.changed) | set(checked.conflicts) | set(doubted)
    if checked.status != "unique":  # something is misread: point at the likeliest cells too
        likeliest = sorted((p, cell) for cell, p in enumerate(confidence) if len(choices[cell]) > 1)
        uncertain |= {cell for _, cell in likeliest[:SUSPECTS_SHOWN]}
    return Reading(
        puzzle="".join(map(str, checked.values)),
        size=9,
        confidence=confidence,
        uncertain=tuple(sorted(uncertain)),
        changed=checked.changed,
        status=checked.status,
        said=(_MESSAGES[checked.status],),
        rotation=turns,
    )


def has_inner_lines(flat: np.ndarray) -> bool:
    """Whether the straightened square, flattened (:func:`sudoku_web.photo.glyphs.prepare`),
    shows most of a 9x9 grid's inner lines both ways.

    A line is darker than the middles of the cells beside it in the median along its length
    (digits cover less than half of a column); the darkness is first spread a few pixels
    across the line, so a line a bent page moves a little still counts.
    """
    dark = 255 - flat
    found = 0
    for axis, spread in ((0, (1, 7)), (1, (7, 1))):
        profile = np.median(cv2.dilate(dark, np.ones(spread, np.uint8)), axis=axis)
        for k in range(1, 9):
            line = float(profile[k * CELL - 6 : k * CELL + 7].max())
            cells = float(max(profile[(k - 1) * CELL + CELL // 2], profile[k * CELL + CELL // 2]))
            if line > cells + 15:
                found += 1
    return found >= 12


def upright(glyphs: list[np.ndarray | None]) -> int:
    """Quarter turns (clockwise) after which the classifier is surest the glyphs are digits."""
    present = [g for g in glyphs if g is not None]
    scores = []
    for turns in range(4):
        probs = digits.classify([np.rot90(g, -turns) for g in present])
        scores.append(float(np.log(probs[:, 1:].max(axis=1) + 1e-6).sum()))
    return int(np.argmax(scores))


def turn_cells(glyphs: list[np.ndarray | None], turns: int) -> list[np.ndarray | None]:
    """The 81 glyphs of the grid turned ``turns`` quarter turns clockwise, in reading order."""
    if turns == 0:
        return glyphs
    where = np.rot90(np.arange(81).reshape(9, 9), -turns).ravel()
    return [_turned(glyphs[i], turns) for i in where]


def turned_cells(cells: Collection[int], turns: int) -> set[int]:
    """Cells of the straightened grid, numbered as they stand after ``turns`` (see turn_cells)."""
    where = np.rot90(np.arange(81).reshape(9, 9), -turns).ravel()
    return {i for i, cell in enumerate(where.tolist()) if cell in cells}


def _turned(glyph: np.ndarray | None, turns: int) -> np.ndarray | None:
    """One glyph turned ``turns`` quarter turns clockwise (None stays None)."""
    return None if glyph is None else np.rot90(glyph, -turns)


def cell_choices(probs: np.ndarray) -> list[list[Choice]]:
    """Each cell's choices from its (cells, 10) class probabilities, best first: classes at
    least ALTERNATIVE likely (a sure blank's other classes are all below it)."""
    out: list[list[Choice]] = []
    for row in probs:
        order = np.argsort(-row)
        out.append(
            [(int(v), float(row[v])) for v in order if v == order[0] or row[v] >= ALTERNATIVE]
        )
    return out


def probabilities(glyphs: list[np.ndarray | None]) -> np.ndarray:
    """(81, 10) class probabilities of the cells' glyphs; a cell with no glyph is a sure blank."""
    out = np.zeros((len(glyphs), 10), dtype=np.float32)
    out[:, 0] = EMPTY_SURE
    present = [i for i, g in enumerate(glyphs) if g is not None]
    if present:
        out[present] = digits.classify([g for g in glyphs if g is not None])
    return out


def weigh(probs: Sequence[np.ndarray]) -> np.ndarray:
    """Several cuttings' (cells, 10) class probabilities as one: their geometric mean.

    Each cutting is a vote that can all but veto a class (VETO is added to every probability
    first, so no one cutting's zero is final): a stroke one threshold loses (a 3 read as 9)
    is outvoted by the cuttings that keep it and are sure of it, and a cell the cuttings
    disagree on comes out less sure (the proof-reader then weighs its alternatives against
    the solver).
    """
    logs = np.mean([np.log(p + VETO) for p in probs], axis=0)
    odds = np.exp(logs - logs.max(axis=1, keepdims=True))
    weighed: np.ndarray = odds / odds.sum(axis=1, keepdims=True)
    return weighed
