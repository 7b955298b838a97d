"""Flattening the straightened grid and cutting each cell's digit out.

cell_glyphs, glyph_sets
    For each of the 81 cells, the biggest ink blob near the cell's centre (with the pieces of
    a broken stroke beside it), normalised to a ``GLYPH x GLYPH`` ink map (1.0 = full ink)
    the classifier reads, or None for an empty cell.
    Grid lines are never a glyph: they span the cell's window or sit at its border. The
    window reaches a little into the neighbours, so a bent page's digit still counts. A
    digit a crease or a bent line runs through is cut again without the long straight strokes.
    ``glyph_sets`` cuts at several ink contrasts, for the reader's second opinions.

The same ``glyph_in_window`` serves the reader and the training script (synthetic cells and
photo cells alike), so the classifier learns exactly the pictures it will be shown.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_web.photo.grid import CELL, PAD, straight_runs

GLYPH = 28  # side of a normalised glyph
INNER = 20  # the glyph's longest side inside it
# How much darker than its neighbourhood a pixel must be to count as ink (of 255, on the
# flattened picture); the reader cuts again at the SECOND_OPINIONS and weighs the three
# readings together: a faint stroke one threshold loses, another keeps.
INK_CONTRAST = 25
SECOND_OPINIONS = (15, 35)


def prepare(square: np.ndarray, contrast: int = INK_CONTRAST) -> tuple[np.ndarray, np.ndarray]:
    """(flat, ink): the picture divided by its paper's brightness and stretched, then ink 255.

    The paper's brightness is the picture with the ink taken out (a max filter wider than a
    stroke) and smoothed: dividing by it evens out shadows and uneven light, and the stretch
    gives a faint print the contrast of a sharp one.
    """
    paper = cv2.GaussianBlur(cv2.dilate(square, np.ones((9, 9), np.uint8)), (0, 0), CELL / 4)
    flat = square.astype(np.float32) / np.maximum(paper.astype(np.float32), 1.0)
    low = float(np.percentile(flat, 1))
    flat = np.clip((flat - low) / max(1.0 - low, 0.05), 0.0, 1.0)
    flat8 = (flat * 255).astype(np.uint8)
    return flat8, ink_of(flat8, contrast)


def ink_of(flat: np.ndarray, contrast: int = INK_CONTRAST) -> np.ndarray:
    """Ink (255) of a flattened picture: pixels ``contrast`` darker than their surroundings."""
    blurred = cv2.GaussianBlur(flat, (3, 3), 0)
    return cv2.adaptiveThreshold(
        blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, CELL + 1, contrast
    )


def cell_glyphs(square: np.ndarray) -> list[np.ndarray | None]:
    """The 81 cells' glyphs in row-major order (None: empty) of a straightened grid."""
    return glyph_sets(square, (INK_CONTRAST,))[0]


def glyph_sets(square: np.ndarray, contrasts: tuple[int, ...]) -> list[list[np.ndarray | None]]:
    """Per ink contrast, the 81 glyphs of a straightened grid (as :func:`cell_glyphs`).

    The picture is flattened once (:func:`prepare`); each contrast only thresholds and cuts.
    """
    return flat_glyph_sets(prepare(square)[0], contrasts)


def flat_glyph_sets(flat: np.ndarray, contrasts: tuple[int, ...]) -> list[list[np.ndarray | None]]:
    """As :func:`glyph_sets`, of a straightened grid already flattened by :func:`prepare`."""
    return [_cut(flat, ink_of(flat, contrast)) for contrast in contrasts]


def _cut(flat: np.ndarray, ink: np.ndarray) -> list[np.ndarray | None]:
    """The 81 glyphs of a flattened grid and its ink map."""
    gray = cv2.copyMakeBorder(flat, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
    ink = cv2.copyMakeBorder(ink, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=0)
    span = CELL + 2 * PAD
    glyphs: list[np.ndarray | None] = []
    for r in range(9):
        for c in range(9):
            y, x = r * CELL, c * CELL
            glyphs.append(
                glyph_in_window(gray[y : y + span, x : x + span], ink[y : y + span, x : x + span])
            )
    return glyphs


def glyph_in_window(gray: np.ndarray, ink: np.ndarray) -> np.ndarray | None:
    """The normalised glyph of the cell centred in a ``CELL + 2 * PAD`` window, or None.

    The glyph is the largest blob near the centre that touches no edge of the window (grid
    lines do), joined by the fragments lying within reach of it (a faint stroke breaks).
    When there is none but ink reaching the window's edge crosses its middle (a digit fused
    with a crease or a bent line), the long straight strokes are taken out and it is cut again.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyph = _largest_near_centre(gray, count, labels, stats)
    if glyph is not None or not _crossed(labels, stats):
        return glyph
    lines = cv2.dilate(long_strokes(ink), np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        cv2.bitwise_and(ink, cv2.bitwise_not(lines)), connectivity=8
    )
    return _largest_near_centre(gray, count, labels, stats, BRIDGED)


# Slants (across / along) of the straight strokes taken out of a crossed cell: level to 45
# degrees both ways, and the same about the vertical (a tenth apart: a one-pixel line that
# long fits in a 3-pixel stroke within about a twentieth of its slant).
STROKE_SLOPES = tuple(s * k / 10 for k in range(11) for s in ((1,) if k == 0 else (1, -1)))
STROKE = CELL  # a straight run this long is a line or a crease, never part of a digit


def long_strokes(ink: np.ndarray, length: int = STROKE) -> np.ndarray:
    """The ink lying on straight runs ``length`` pixels long or more at a STROKE_SLOPES slant
    about either axis."""
    return straight_runs(ink, length, STROKE_SLOPES, both_axes=True)


def _crossed(labels: np.ndarray, stats: np.ndarray) -> bool:
    """Whether ink reaching the window's edge passes through its middle (a fifth of a cell)."""
    span = labels.shape[0]
    lo, hi = round(span / 2 - CELL / 10), round(span / 2 + CELL / 10)
    middle = labels[lo:hi, lo:hi]
    if not middle.any():  # most empty cells: nothing there at all
        return False
    for label in np.unique(middle):
        x, y, w, h, _ = (int(v) for v in stats[label])
        if label and not (x > 0 and y > 0 and x + w < span and y + h < span):
            return True
    return False


JOINED = 0.12 * CELL  # a fragment this near the glyph's box is a piece of it
BRIDGED = 0.25 * CELL  # the same once strokes are taken out (a stroke crossed is cut in two)


def _largest_near_centre(
    gray: np.ndarray, count: int, labels: np.ndarray, stats: np.ndarray, grow: float = JOINED
) -> np.ndarray | None:
    """The glyph of the largest blob near the window's centre and the fragments within
    ``grow`` of it, or None."""
    span = CELL + 2 * PAD
    centre, reach = span / 2, 0.36 * CELL
    pieces = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        inside = x > 0 and y > 0 and x + w < span and y + h < span
        near = abs(x + w / 2 - centre) < reach and abs(y + h / 2 - centre) < reach
        if inside and near and area >= 3 and max(w, h) <= 0.95 * CELL:
            pieces.append((area, label, x, y, x + w, y + h))
    if not pieces:
        return None
    pieces.sort(reverse=True)
    _, first, x0, y0, x1, y1 = pieces[0]
    chosen = [first]
    for _, label, a0, b0, a1, b1 in pieces[1:]:
        if a0 < x1 + grow and a1 > x0 - grow and b0 < y1 + grow and b1 > y0 - grow:
            nx0, ny0, nx1, ny1 = min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1)
            if max(nx1 - nx0, ny1 - ny0) <= 0.95 * CELL:
                chosen.append(label)
                x0, y0, x1, y1 = nx0, ny0, nx1, ny1
    if max(x1 - x0, y1 - y0) < 0.28 * CELL:  # either way up: the grid may lie on its side
        return None
    blob = labels == first if len(chosen) == 1 else np.isin(labels, chosen)
    mask = cv2.dilate(blob.astype(np.uint8), np.ones((3, 3), np.uint8))
    return normalise(gray, mask, (x0, y0, x1 - x0, y1 - y0))


def normalise(gray: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """Ink map of the masked blob, scaled to fit ``INNER`` and centred in ``GLYPH`` (float32)."""
    x, y, w, h = box
    paper = _percentile(gray, 90)
    crop = gray[max(0, y - 1) : y + h + 1, max(0, x - 1) : x + w + 1].astype(np.float32)
    keep = mask[max(0, y - 1) : y + h + 1, max(0, x - 1) : x + w + 1]
    darkest = float(crop.min())
    contrast = max(paper - darkest, 24.0)
    inkmap = np.clip((paper - crop) / contrast, 0.0, 1.0) * keep
    ch, cw = inkmap.shape
    scale = INNER / max(ch, cw)
    nh, nw = max(1, round(ch * scale)), max(1, round(cw * scale))
    small = cv2.resize(inkmap, (nw, nh), interpolation=cv2.INTER_AREA)
    glyph = np.zeros((GLYPH, GLYPH), dtype=np.float32)
    top, left = (GLYPH - nh) // 2, (GLYPH - nw) // 2
    glyph[top : top + nh, left : left + nw] = small
    return glyph


def _percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (linear between neighbours) by a partial sort, cheaper."""
    flat = values.ravel()
    where = q / 100 * (flat.size - 1)
    low, high = int(np.floor(where)), int(np.ceil(where))
    part = np.partition(flat, (low, high))
    below = float(part[low])
    return below + (float(part[high]) - below) * (where - low)
