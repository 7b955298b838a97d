"""Finding the grid, straightening it, and cutting each cell's digit out.

find_grid
    The largest convex four-sided outline that is roughly square (a newspaper page also holds
    text, other grids and shadows: the biggest square-ish quadrilateral is the puzzle's frame);
    a bent page's frame bows, so each corner is then taken at the outline's outermost point.
straighten
    A perspective warp of that quadrilateral onto a square of ``9 * CELL`` pixels (with a
    margin around it, where a bent page's curved lines are looked for).
cell_glyphs, glyph_sets
    For each of the 81 cells, the biggest ink blob near the cell's centre (with the pieces of
    a broken stroke beside it), normalised to a ``GLYPH x GLYPH`` ink map (1.0 = full ink)
    the classifier reads, or None for an empty cell.
    Grid lines are never a glyph: they span the cell's window or sit at its border. The
    window reaches a little into the neighbours, so a bent page's digit still counts.
    ``glyph_sets`` cuts at several ink contrasts, for the reader's second opinions.

The same ``glyph_in_window`` serves the reader and the training script (synthetic cells and
photo cells alike), so the classifier learns exactly the pictures it will be shown.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL = 40  # pixels per cell once straightened
PAD = CELL // 5  # how far a cell's window reaches into its neighbours
GLYPH = 28  # side of a normalised glyph
INNER = 20  # the glyph's longest side inside it
# How much darker than its neighbourhood a pixel must be to count as ink (of 255, on the
# flattened picture); the reader cuts again at the SECOND_OPINIONS to find the cells whose
# reading hangs on where that line is drawn (a faint stroke kept or lost).
INK_CONTRAST = 25
SECOND_OPINIONS = (15, 35)

CORNER_REACH = 0.15  # how far (of a side) a corner may move to the outline's outermost point
Quad = np.ndarray  # 4x2 float32 corners: top-left, top-right, bottom-right, bottom-left


def find_grid(gray: np.ndarray) -> Quad | None:
    """Corners of the largest square-ish four-sided outline, or None when there is none."""
    h, w = gray.shape
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    block = max(15, (min(h, w) // 40) | 1)
    ink = cv2.adaptiveThreshold(
        blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7
    )
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contours = sorted(contours, key=cv2.contourArea, reverse=True)[:12]
    min_area = 0.04 * h * w
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            break
        for outline in (contour, cv2.convexHull(contour)):  # the hull bridges a broken frame
            quad = _four_corners(outline)
            if quad is not None and _square_ish(quad):
                return _outermost(outline, quad)
    return None


def _outermost(outline: np.ndarray, quad: Quad) -> Quad:
    """Each corner moved to the outline's point furthest out in its diagonal direction nearby.

    A bent page's frame bows, so simplifying its outline can put a corner on a bulge of a
    side; the true corner is the outline's extreme point towards that corner (up-left for
    the top-left one), within CORNER_REACH of a side's length of where it was put. A move
    of less than a fifth of that is left alone: a flat frame's corners are already right.
    """
    points = outline.reshape(-1, 2).astype(np.float32)
    reach = CORNER_REACH * float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    out = quad.copy()
    for i, direction in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
        near = points[np.linalg.norm(points - quad[i], axis=1) <= reach]
        if len(near):
            best = near[np.argmax(near @ np.array(direction, dtype=np.float32))]
            if np.linalg.norm(best - quad[i]) > reach / 5:  # a pixel or two is no bulge
                out[i] = best
    return out


def _four_corners(contour: np.ndarray) -> Quad | None:
    """The contour simplified to a convex quadrilateral, in reading order, if it is one."""
    perimeter = cv2.arcLength(contour, True)
    for eps in (0.02, 0.035, 0.05, 0.07):
        approx = cv2.approxPolyDP(contour, eps * perimeter, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return order_corners(approx.reshape(4, 2).astype(np.float32))
    return None


def order_corners(points: np.ndarray) -> Quad:
    """Four points as top-left, top-right, bottom-right, bottom-left."""
    total = points.sum(axis=1)
    diff = np.diff(points, axis=1).ravel()
    return np.array(
        [
            points[np.argmin(total)],
            points[np.argmin(diff)],
            points[np.argmax(total)],
            points[np.argmax(diff)],
        ],
        dtype=np.float32,
    )


def _square_ish(quad: Quad) -> bool:
    """Opposite sides within a factor 2 of each other and of the other pair (perspective)."""
    sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    if min(sides) < 1:
        return False
    return max(sides) / min(sides) < 2.0


def straighten(gray: np.ndarray, quad: Quad, margin: int = 0) -> np.ndarray:
    """The quadrilateral warped onto a ``9 * CELL`` square (uint8), ``margin`` pixels around it.

    The margin shows what lies just outside the frame (a bowed side bulges past its corners);
    past the photo's edge the picture's border pixels are repeated.
    """
    whole = 9 * CELL + 2 * margin
    return cv2.warpPerspective(
        gray,
        warp_matrix(quad, margin),
        (whole, whole),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )


def warp_matrix(quad: Quad, margin: int = 0) -> np.ndarray:
    """The perspective matrix taking the quadrilateral's corners to the straightened square's."""
    side = 9 * CELL
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    return cv2.getPerspectiveTransform(quad, corners + margin)


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
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
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
    grow = 0.12 * CELL
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
