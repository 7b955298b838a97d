"""Finding the grid and straightening it.

find_grid
    The largest convex four-sided outline that is roughly square (a newspaper page also holds
    text, other grids and shadows: the biggest square-ish quadrilateral is the puzzle's frame);
    a bent page's frame bows, so each corner is then taken at the outline's outermost point.
    An outline cut by the photo's border (the grid runs off the picture) is taken as the
    four corners its frame lines and that border give, when that covers more than its
    simplification (which a border-cut outline, running into the open cells, leads astray)
    or when no simplification is square-ish; a square-ish test allows a steep angle.
grid_candidates
    find_grid's corners first, then other readings of the same outline where they differ:
    where it turns most sharply (a bowed frame), its five or six sides cut back to four (a
    corner cut off by a shadow or the edge), an oblong part joined with its neighbours (a
    grid split by a fold), its three sides closed by the photo's border (a frame line lost
    where the grid touches or crosses the border). The reader cuts each and keeps the best
    reading.
straighten
    A perspective warp of that quadrilateral onto a square of ``9 * CELL`` pixels (with a
    margin around it, where a bent page's curved lines are looked for).
straight_runs
    The ink lying on long straight runs at given slants: the lattice's lines, the glyph
    cutting's creases.

Cutting each cell's digit out is :mod:`sudoku_web.photo.glyphs`.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL = 40  # pixels per cell once straightened
PAD = CELL // 5  # how far a cell's window reaches into its neighbours

CUT_GAIN = 1.1  # how much more a grid cut by the border must cover than its simplified outline
CORNER_REACH = 0.15  # how far (of a side) a corner may move to the outline's outermost point
TURN_REACH = 0.3  # how far (of a side) a sharp turn of the outline may lie from a corner
OBLONG = 1.35  # an outline this oblong (pair of sides to pair) may be part of a grid
JOINS = 4  # the most neighbouring outlines an oblong one is joined with, one at a time
SAME = 3.0  # pixels: two candidate corners closer than this are the same
TOUCH = 0.01  # of the photo's longer side: an outline this near a border touches it
SIDE_TURN = 25  # degrees: the most a side's segment may lean from its side's direction
TURN_SPAN = 0.03  # share of the perimeter on either side over which the outline's turn is taken
MIN_TURN = 35  # degrees: the least turn of the outline at a frame's corner
Quad = np.ndarray  # 4x2 float32 corners: top-left, top-right, bottom-right, bottom-left


def find_grid(gray: np.ndarray) -> Quad | None:
    """Corners of the largest square-ish four-sided outline, or None when there is none."""
    found = grid_candidates(gray)
    return found[0] if found else None


def grid_candidates(gray: np.ndarray) -> list[Quad]:
    """The largest square-ish outline's corners, as :func:`find_grid` takes them, then each
    other reading of it that differs: where it turns most sharply (:func:`_turning_corners`),
    its sides extended past a cut-off corner (:func:`_side_lines`), when it is oblong,
    joined with a neighbouring outline (:func:`_joined`), and when it touches the photo's
    border, its other three sides closed by that border (:func:`_closed_by_border`). Empty
    when there is none.

    They differ on a strongly bowed frame (its simplification can put a corner on a bulge),
    a frame missing a corner, a grid split in two, or a ragged outline (where a sharp turn
    can be something touching the frame): the reader cuts each and keeps the best reading.
    """
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
        hull = cv2.convexHull(contour)  # bridges a broken frame
        cut = _cut_by_border(hull, h, w)
        if cut is not None and not _square_ish(cut):
            cut = None
        closed = _closed_by_border(hull, h, w)
        for outline in (contour, hull):
            quad = _four_corners(outline)
            if quad is not None and _square_ish(quad):
                if cut is not None and _area(cut) > CUT_GAIN * _area(quad):
                    return _distinct([cut, closed])  # the outline ran into cells cut open
                turning = _near(_turning_corners(outline), quad)
                joined = _joined(contour, contours, quad)
                # closed second: past the reader's deadline later candidates go unread
                return _distinct(
                    [_outermost(outline, quad), closed, turning, _side_lines(hull), *joined]
                )
        if cut is not None:
            return _distinct([cut, closed])
        # a bowed frame's outline simplifies to 5-8 points, a frame cut at a corner to 5-6
        found = _distinct(
            [*(_turning_corners(o) for o in (contour, hull)), _side_lines(hull), closed]
        )
        if found:
            return found
    return []


def _near(corners: Quad | None, quad: Quad) -> Quad | None:
    """``corners`` when each lies within TURN_REACH of a side from ``quad``'s, else None."""
    if corners is None:
        return None
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    return (
        corners
        if float(np.linalg.norm(corners - quad, axis=1).max()) <= TURN_REACH * side
        else None
    )


def _oblong(quad: Quad) -> float:
    """How much longer one pair of opposite sides is, on average, than the other (1: square)."""
    sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    pairs = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return pairs[1] / max(pairs[0], 1.0)


def _joined(contour: np.ndarray, others: list[np.ndarray], quad: Quad) -> list[Quad]:
    """An oblong outline (OBLONG) joined with each of the other outlines, largest first,
    that make it squarer by 0.2 or more: at most JOINS of them.

    Lines too faint to close, or a fold, can split a grid into a band of rows and the rest:
    the bigger part alone still passes as square-ish, but it is oblong, which a grid's frame
    seldom is even at a steep angle; joined with the rest, it is square again. (The squarest
    join is not always the grid: a block of text beside it can square it too.)
    """
    ratio = _oblong(quad)
    if ratio < OBLONG:
        return []
    out: list[Quad] = []
    for other in others:
        if other is contour:
            continue
        joined = _four_corners(cv2.convexHull(np.vstack([contour, other])))
        if joined is not None and _square_ish(joined) and _oblong(joined) < ratio - 0.2:
            out.append(joined)
            if len(out) == JOINS:
                break
    return out


def _distinct(quads: list[Quad | None]) -> list[Quad]:
    """The square-ish quadrilaterals given, each once (corners within SAME pixels are one)."""
    out: list[Quad] = []
    for quad in quads:
        if quad is None or not _square_ish(quad):
            continue
        if all(float(np.abs(quad - other).max()) > SAME for other in out):
            out.append(quad)
    return out


def _area(quad: Quad) -> float:
    """The quadrilateral's area in pixels."""
    return float(cv2.contourArea(quad.reshape(-1, 1, 2)))


def _cut_by_border(hull: np.ndarray, h: int, w: int) -> Quad | None:
    """The four corners of an outline cut by the photo's border, or None if it is not.

    Where a grid runs off the picture its outline follows the border between the two frame
    lines that reach it; those two points are corners, the other two the outline's extreme
    points towards the far corners (simplifying such an outline drops the wrong points).
    Where it runs off two borders meeting at a corner of the photo (the grid cut slantwise
    there), that corner of the photo is one corner, the furthest points along each border
    from it two more, and the outline's extreme point away from it the fourth.
    """
    points = hull.reshape(-1, 2).astype(np.float32)
    borders = (  # the border's points, the axis along it, the far corners' directions
        (points[:, 1] <= 1, 0, ((1, 1), (-1, 1))),
        (points[:, 0] >= w - 2, 1, ((-1, -1), (-1, 1))),
        (points[:, 1] >= h - 2, 0, ((-1, -1), (1, -1))),
        (points[:, 0] <= 1, 1, ((1, -1), (1, 1))),
    )
    cut = [i for i, border in enumerate(borders) if int(border[0].sum()) >= 2]
    if len(cut) == 2 and (cut[1] - cut[0]) % 2 == 1:
        return _cut_at_corner(points, [borders[i][0] for i in cut], h, w)
    if len(cut) != 1:
        return None
    on, along, directions = borders[cut[0]]
    edge, rest = points[on], points[~on]
    if len(rest) < 2 or np.ptp(edge[:, along]) < 1:
        return None
    corners = [edge[np.argmin(edge[:, along])], edge[np.argmax(edge[:, along])]]
    corners += [rest[np.argmax(rest @ np.array(d, dtype=np.float32))] for d in directions]
    quad = order_corners(np.array(corners, dtype=np.float32))
    return quad if len({tuple(p) for p in quad.tolist()}) == 4 else None


def _closed_by_border(hull: np.ndarray, h: int, w: int) -> Quad | None:
    """The corners of an outline touching one border of the photo, its frame taken as that
    border and the outline's longest side towards each of the three other sides; or None.

    Where the grid's frame line lies on the photo's border, or the border cuts into the
    grid's first row, that line is lost to the ink threshold, and thin lines a blurred
    photo breaks leave the outline a ragged polygon whose simplification cuts across the
    grid. Its other three sides are still the frame's: extended to the border they give the
    grid's corners there (grown across the border by :func:`sudoku_web.photo.edges.over_the_edge`
    when the inner lines' spacing says the border cuts a row short).
    """
    points = hull.reshape(-1, 2).astype(np.float64)
    tol = max(2.0, TOUCH * max(h, w))
    touching = (
        points[:, 1] <= tol,
        points[:, 0] >= w - 1 - tol,
        points[:, 1] >= h - 1 - tol,
        points[:, 0] <= tol,
    )
    touched = [side for side, near in enumerate(touching) if near.any()]
    if len(touched) != 1:
        return None
    border = touched[0]
    approx = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    middle = points.mean(axis=0)
    normals = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], dtype=np.float64)
    best: dict[int, tuple[float, tuple[np.ndarray, np.ndarray]]] = {}
    for i in range(len(approx)):
        a, b = approx[i].astype(np.float64), approx[(i + 1) % len(approx)].astype(np.float64)
        length = float(np.linalg.norm(b - a))
        if length < 1:
            continue
        normal = np.array([b[1] - a[1], a[0] - b[0]]) / length
        normal *= 1.0 if float(normal @ ((a + b) / 2 - middle)) >= 0 else -1.0
        side = int(np.argmax(normals @ normal))
        if float(normals[side] @ normal) < np.cos(np.radians(SIDE_TURN)):
            continue
        if side != border and length > best.get(side, (0.0,))[0]:
            best[side] = (length, (a, b))
    if len(best) != 3:
        return None
    corners_of_photo = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    lines = {side: segment for side, (_, segment) in best.items()}
    lines[border] = (corners_of_photo[border], corners_of_photo[(border + 1) % 4])
    corners = []
    for side in range(4):  # corner i joins side i-1 (before it) and side i
        corner = _meet(lines[(side - 1) % 4], lines[side])
        if corner is None:
            return None
        corners.append(corner)
    quad = np.array(corners, dtype=np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    return order_corners(quad)


def _cut_at_corner(points: np.ndarray, on: list[np.ndarray], h: int, w: int) -> Quad | None:
    """The corners of an outline running off two borders that meet at a corner of the photo
    (``on``: which of its points lie on each border); see :func:`_cut_by_border`."""
    both = on[0] & on[1]
    photo = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    touching = points[on[0] | on[1]]
    corner = photo[np.argmin(np.linalg.norm(photo[:, None] - touching[None], axis=2).min(axis=1))]
    corners = [corner]
    for mask in on:
        edge = points[mask & ~both]
        if len(edge) == 0:
            return None
        corners.append(edge[np.argmax(np.linalg.norm(edge - corner, axis=1))])
    rest = points[~(on[0] | on[1])]
    if len(rest) == 0:
        return None
    corners.append(rest[np.argmax(np.linalg.norm(rest - corner, axis=1))])
    quad = order_corners(np.array(corners, dtype=np.float32))
    return quad if len({tuple(p) for p in quad.tolist()}) == 4 else None


def _side_lines(hull: np.ndarray) -> Quad | None:
    """The outline's simplification with five or six sides cut back to four, or None.

    A frame whose corner is cut off (by the photo's edge, a shadow or a fold) simplifies to
    a pentagon: the cut is the side with the widest angles at both ends, and the corner is
    where the two sides beside it meet when extended. Cut sides are dropped one at a time
    until four remain.
    """
    approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
    points = [p.astype(np.float64) for p in approx.reshape(-1, 2)]
    if len(points) not in (5, 6):
        return None
    while len(points) > 4:
        n = len(points)
        angles = [_angle(points[i - 1], points[i], points[(i + 1) % n]) for i in range(n)]
        cut = max(range(n), key=lambda i: angles[i] + angles[(i + 1) % n])
        before = (points[cut - 1], points[cut])
        after = (points[(cut + 1) % n], points[(cut + 2) % n])
        corner = _meet(before, after)
        if corner is None:
            return None
        points[cut] = corner
        del points[(cut + 1) % n]
    quad = order_corners(np.array(points, dtype=np.float32))
    return quad if cv2.isContourConvex(quad.reshape(-1, 1, 2)) else None


def _angle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """The angle at ``b`` between the lines to ``a`` and ``c``, in radians."""
    u, v = a - b, c - b
    cos = float(u @ v) / max(float(np.linalg.norm(u) * np.linalg.norm(v)), 1e-9)
    return float(np.arccos(np.clip(cos, -1.0, 1.0)))


def _meet(
    first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]
) -> np.ndarray | None:
    """Where the lines through two segments meet, or None when they are nearly parallel."""
    d1, d2 = first[1] - first[0], second[1] - second[0]
    cross = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(cross) < 0.2 * np.linalg.norm(d1) * np.linalg.norm(d2):  # under some 12 degrees
        return None
    t = ((second[0] - first[0])[0] * d2[1] - (second[0] - first[0])[1] * d2[0]) / cross
    meet: np.ndarray = first[0] + t * d1
    return meet


def _turning_corners(outline: np.ndarray) -> Quad | None:
    """The four points where the outline turns by most, in reading order, or None.

    The outline is walked in steps of a few pixels; at each point the turn is the angle
    between the chords to the points TURN_SPAN of the perimeter before and after it (about a
    cell: a side bowed by a cell turns by some 11 degrees over it, a corner by 40-140).
    Four peaks of at least MIN_TURN, each apart from the others by a tenth of the perimeter.
    """
    points = outline.reshape(-1, 2).astype(np.float64)
    closed = np.vstack([points, points[:1]])
    lengths = np.linalg.norm(np.diff(closed, axis=0), axis=1)
    perimeter = float(lengths.sum())
    if perimeter < 40:
        return None
    count = int(min(1200, perimeter / 2))
    at = np.cumsum(np.concatenate([[0.0], lengths]))
    walk = np.linspace(0, perimeter, count, endpoint=False)
    path = np.stack([np.interp(walk, at, closed[:, i]) for i in range(2)], axis=1)
    span = max(2, round(TURN_SPAN * count))
    before = path - np.roll(path, span, axis=0)
    after = np.roll(path, -span, axis=0) - path
    cross = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    turn = np.arctan2(cross, np.einsum("ij,ij->i", before, after))
    turn *= 1.0 if turn.sum() >= 0 else -1.0  # the outline's own sense of going round
    apart = count // 10
    peaks: list[int] = []
    left = turn.copy()
    for _ in range(4):
        best = int(np.argmax(left))
        if left[best] < np.radians(MIN_TURN):
            return None
        peaks.append(best)
        near = (np.arange(count) - best) % count
        left[(near < apart) | (near > count - apart)] = -np.inf
    quad = order_corners(path[sorted(peaks)].astype(np.float32))
    return quad if len({tuple(p) for p in quad.tolist()}) == 4 else None


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
    """Opposite sides within a factor 3 of each other (a page at a steep angle: the far side
    short), each pair's mean within a factor 2 of the other's (a square, not a column)."""
    sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    if min(sides) < 1:
        return False
    if max(sides) / min(sides) < 2.0:
        return True
    pairs = (sides[0], sides[2]), (sides[1], sides[3])
    if any(max(pair) / min(pair) >= 3.0 for pair in pairs):
        return False
    means = [sum(pair) / 2 for pair in pairs]
    return max(means) / min(means) < 2.0


def straighten(gray: np.ndarray, quad: Quad, margin: int = 0) -> np.ndarray:
    """The quadrilateral warped onto a ``9 * CELL`` square (uint8), ``margin`` pixels around it.

    The margin shows what lies just outside the frame (a bowed side bulges past its corners);
    past the photo's edge the picture's border pixels are repeated (lines run on; the cells
    are cut with paper there instead, :func:`paper_beyond`).
    """
    whole = 9 * CELL + 2 * margin
    return cv2.warpPerspective(
        gray,
        warp_matrix(quad, margin),
        (whole, whole),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )


def off_photo(shape: tuple[int, ...], quad: Quad, margin: int = 0) -> np.ndarray:
    """Which pixels of :func:`straighten`'s square (same ``quad`` and ``margin``) come from
    beyond the edge of a photo of ``shape`` (a bool array)."""
    whole = 9 * CELL + 2 * margin
    beyond = cv2.warpPerspective(
        np.zeros(shape[:2], np.uint8),
        warp_matrix(quad, margin),
        (whole, whole),
        flags=cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=255,
    )
    mask: np.ndarray = beyond > 0
    return mask


def paper_beyond(square: np.ndarray, beyond: np.ndarray) -> np.ndarray:
    """``square`` with its pixels from beyond the photo's edge (``beyond``) set to the paper's
    grey, the median of the rest: the repeated border pixels there would draw a digit the
    edge cuts on as streaks, which the classifier reads as strokes (a cut 2 read as 1)."""
    if not beyond.any() or beyond.all():
        return square
    out = square.copy()
    out[beyond] = np.uint8(np.median(square[~beyond]))
    return out


def warp_matrix(quad: Quad, margin: int = 0) -> np.ndarray:
    """The perspective matrix taking the quadrilateral's corners to the straightened square's."""
    side = 9 * CELL
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    return cv2.getPerspectiveTransform(quad, corners + margin)


def straight_runs(
    ink: np.ndarray, length: int, slopes: tuple[float, ...], *, both_axes: bool = False
) -> np.ndarray:
    """The ink lying on straight runs ``length`` pixels long or more, at each of ``slopes``
    (rise across per pixel along axis 1; with ``both_axes`` also along axis 0): an opening by
    a one-pixel line at each slant. The lattice finds grid lines with it, the glyph cutting
    the creases and lines that run through a digit."""
    out = np.zeros_like(ink)
    for slope in slopes:
        rise = round(abs(slope) * (length - 1))
        kernel = np.zeros((rise + 1, length), np.uint8)
        ends = ((0, rise), (length - 1, 0)) if slope > 0 else ((0, 0), (length - 1, rise))
        cv2.line(kernel, ends[0], ends[1], 1)
        out |= cv2.morphologyEx(ink, cv2.MORPH_OPEN, kernel)
        if both_axes and abs(slope) < 1:  # 45 degrees is the same stroke either way
            out |= cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ascontiguousarray(kernel.T))
    return np.ascontiguousarray(out)
