"""A grid cut by the photo's edge: the frame grown from the visible lines' spacing.

When the puzzle runs off the picture, the largest outline ``find_grid`` finds ends at the
photo's border, and the straight warp squeezes the visible rows into nine. ``over_the_edge``
looks, across each side that lies on the photo's border, for the spacing of lines from the
opposite frame line that best fits the warp's dark lines: when it puts the missing frame
line more than OFF of a cell beyond the side, the side is moved there. ``cells_outside``
then names the cells whose middle lies off the photo: the reader reads them as blank and
marks them, never guessing a digit it cannot see (and marks those whose digit the edge may
cut, with a ``reach`` of DIGIT_REACH).
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_web.photo.glyphs import prepare
from sudoku_web.photo.grid import CELL, Quad, straighten, warp_matrix

BORDER = 0.01  # a side within this share of the photo's longer side of its border lies on it
OFF = 0.15  # cells a frame line must lie beyond the side for the side to be moved
MIN_LINES = 7  # inner lines (of 8) that must fall inside the square for a spacing tried
DIGIT_REACH = 0.3  # of a cell, from its middle: where a printed digit's box ends

# side index: (its two corners, the axis across it, 0 for its near end or 9 for its far end)
_SIDES = {0: ((0, 1), 1, 0), 1: ((1, 2), 0, 9), 2: ((2, 3), 1, 9), 3: ((3, 0), 0, 0)}


def on_border(quad: Quad, shape: tuple[int, ...]) -> list[int]:
    """Sides (0 top, 1 right, 2 bottom, 3 left) whose two corners lie on the photo's border."""
    h, w = shape[:2]
    tol = BORDER * max(h, w)
    limits = {0: (1, 0.0), 1: (0, w - 1.0), 2: (1, h - 1.0), 3: (0, 0.0)}
    out = []
    for side, ((a, b), _, _) in _SIDES.items():
        coord, edge = limits[side]
        if abs(quad[a, coord] - edge) <= tol and abs(quad[b, coord] - edge) <= tol:
            out.append(side)
    return out


def over_the_edge(gray: np.ndarray, quad: Quad) -> Quad | None:
    """The quadrilateral grown over the photo's border to where the lines put the frame, or
    None when no side on the border is found to cut the grid short."""
    sides = on_border(quad, gray.shape)
    if not sides:
        return None
    dark = 255 - prepare(straighten(gray, quad))[0]
    target = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], dtype=np.float64) * CELL
    moved = False
    for side in sides:
        (a, b), axis, end = _SIDES[side]
        frame = _frame_at(dark, axis, end)
        if frame is None:
            continue
        beyond = -frame if end == 0 else frame - 9 * CELL
        if beyond > OFF * CELL:
            target[[a, b], axis] = frame
            moved = True
    if not moved:
        return None
    back = np.linalg.inv(warp_matrix(quad))
    grown = cv2.perspectiveTransform(target.reshape(-1, 1, 2).astype(np.float32), back)
    return np.asarray(grown.reshape(4, 2), dtype=np.float32)


def _frame_at(dark: np.ndarray, axis: int, end: int) -> float | None:
    """Where the grid's lines across ``axis``, evenly spaced from the frame line at the other
    end, put the frame line ``end`` (0 or 9) in the straightened square's pixels; None when
    they do not stand out.

    The spacing taken is, of those from 0.9 to 1.35 cell that leave at least MIN_LINES inner
    lines inside the square, the one whose lines there are darkest on average (within 2
    pixels: the profile is spread by a max filter).
    """
    spread = (1, 7) if axis == 1 else (7, 1)  # a line leaning a little still counts
    profile = np.median(cv2.dilate(dark, np.ones(spread, np.uint8)), axis=1 if axis == 1 else 0)
    profile = cv2.dilate(profile.reshape(-1, 1), np.ones((5, 1), np.uint8)).ravel()
    side = len(profile)
    known, sign = (side - 1.0, -1.0) if end == 0 else (0.0, 1.0)
    best, best_pitch = -1.0, float(CELL)
    for pitch in np.arange(0.9 * CELL, 1.35 * CELL, 0.5):
        at = known + sign * pitch * np.arange(1, 9)
        at = at[(at >= 0) & (at <= side - 1)]
        if len(at) < MIN_LINES:
            break
        score = float(profile[np.round(at).astype(int)].mean())
        if score > best:
            best, best_pitch = score, float(pitch)
    if best < float(np.median(profile)) + 15:
        return None
    return known + sign * 9 * best_pitch


def cells_outside(quad: Quad, shape: tuple[int, ...], reach: float = 0.0) -> set[int]:
    """Cells (row-major, as straightened) whose middle lies off a photo of ``shape``; with a
    ``reach`` (of a cell), also those with a corner of the square that far around the middle
    off it."""
    h, w = shape[:2]
    offsets = {(0.0, 0.0), (-reach, -reach), (-reach, reach), (reach, -reach), (reach, reach)}
    off = np.zeros(81, dtype=bool)
    back = np.linalg.inv(warp_matrix(quad))
    for dx, dy in offsets:
        x, y = np.meshgrid((np.arange(9) + 0.5 + dx) * CELL, (np.arange(9) + 0.5 + dy) * CELL)
        points = np.stack([x, y], axis=-1).reshape(-1, 1, 2).astype(np.float32)
        photo = cv2.perspectiveTransform(points, back).reshape(81, 2)
        off |= (photo[:, 0] < 0) | (photo[:, 0] > w - 1) | (photo[:, 1] < 0) | (photo[:, 1] > h - 1)
    return {int(cell) for cell in np.flatnonzero(off)}
