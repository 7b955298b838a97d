"""Following a grid's curved lines: the 10x10 crossings of a bent page, and the remap they give.

A perspective warp straightens a flat page; a bent or creased page keeps curved lines after
it, so cells cut on a straight 9x9 pattern slide off their digits. ``follow_lines`` looks for
each of the 20 lines near where the straight warp (then the frame's own curves) put it. A
line's ink is what survives an opening with a long kernel along it (digits and text are
shorter); the line is sampled every half cell along it, each sample taking the inked run
nearest where the samples before it lead (so a curve is followed, not a stronger line
nearby). The frame lines are tracked from the corners, which the warp pins; the inner lines
around the blend of the frame's curves, so a page bent by half a cell is still searched in the
right place. A sample that strays from its neighbours is dropped and the gap bridged along
that blend; a faint inner line found too seldom is blended from the lines beside it.

A frame line found too seldom (its middle bowed off the picture, or lost to a strong bend)
is continued from the two inner lines beside it. A line's ink is looked for level and
slanted (``SLOPES``): near the corners of a page bent by most of a cell the lines lean. No
lattice (None) when too many inner lines are found too seldom, when a line kinks (it jumped
onto a neighbour) or the lines crowd or part: the reader then keeps the straight warp, as it does
when the crossings lie within BENT of it (``is_bent``), where the straight cut already finds
every digit. ``unbend`` remaps the photo so that every crossing lands where the straight
cutter expects it.
"""

from __future__ import annotations

import statistics

import cv2
import numpy as np

from sudoku_web.photo.grid import CELL, PAD, paper_beyond, straight_runs

MARGIN = CELL  # pixels of picture kept around the straightened frame: a bowed side bulges
STEP = CELL // 2  # distance between samples along a line
SEARCH = 0.3 * CELL  # how far across a line its ink is looked for, around the prediction
TRACK = 0.15 * CELL  # how far a sample may sit from the running median of its neighbours
MIN_COVER = 0.35  # share of a sample strip the line's ink must cover to count as found
MIN_FOUND = 0.5  # share of a line's samples that must be found
KINK = 0.2 * CELL  # the most a line's slope may change from one sample to the next (pixels)
MIN_INNER = 2  # inner lines (of 8) that must be found on each axis
# Cells: neighbouring lines nearer or further apart than this anywhere mean a line was lost
# (one that jumped onto its neighbour leaves a gap near 0 beside one near 2).
CROWD, PART = 0.55, 1.55
SLOPES = (0.0, 0.2, -0.2, 0.4, -0.4)  # slants (across / along) a line's ink is looked for at
BENT = PAD  # pixels: a lattice closer to a flat one is cut right anyway (the cut reaches PAD)


def follow_lines(padded_flat: np.ndarray) -> np.ndarray | None:
    """The (10, 10, 2) crossings (x, y) of a flattened, straightened grid with MARGIN around it.

    ``padded_flat`` is the flattened picture (ink dark) of ``9 * CELL + 2 * MARGIN`` pixels a
    side, the frame's corners at ``MARGIN`` and ``MARGIN + 9 * CELL``. None: not found surely.
    """
    ink = cv2.adaptiveThreshold(
        cv2.GaussianBlur(padded_flat, (3, 3), 0),
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        CELL + 1,
        15,
    )
    across = np.ones((3, 1), np.uint8)
    rows = _long_runs(cv2.dilate(ink, across))
    cols = _long_runs(cv2.dilate(ink, across.T).T).T
    horizontal = _lines(_cover(rows))
    vertical = _lines(_cover(np.ascontiguousarray(cols.T)))
    if horizontal is None or vertical is None:
        return None
    return _crossings(horizontal, vertical)


def _long_runs(ink: np.ndarray) -> np.ndarray:
    """The ink lying on runs of ``0.6 * CELL`` pixels or more, level or at a SLOPES slant.

    A strongly bent page's line slants near the frame's corners (a sag of most of a cell
    leans it by a quarter); a level opening alone would cut it into dashes there.
    """
    return straight_runs(ink, int(0.6 * CELL), SLOPES)


def _along() -> np.ndarray:
    """Where a line is sampled, along it (padded picture's pixels)."""
    return MARGIN + np.arange(0, 9 * CELL + 1, STEP)


def _cover(mask: np.ndarray) -> np.ndarray:
    """(samples, rows): per sample strip along axis 1, the share of its columns inked, by row."""
    width = mask.shape[1]
    sums = np.zeros((mask.shape[0], width + 1), dtype=np.float32)
    np.cumsum(mask > 0, axis=1, dtype=np.float32, out=sums[:, 1:])
    along = _along()
    lo = np.maximum(0, along - STEP // 2)
    hi = np.minimum(width, along + STEP // 2 + 1)
    return np.ascontiguousarray(((sums[:, hi] - sums[:, lo]) / (hi - lo)).T)


def _lines(cover: np.ndarray) -> np.ndarray | None:
    """(10, samples) positions across the lines sampled in ``cover`` (see _cover), or None.

    An inner line found at too few samples (a faint thin line) is blended from the nearest
    lines found on either side; a frame line found too seldom (bowed off the picture) is
    continued from the two inner lines beside it (with neither frame line found, the inner
    lines are looked for around the straight warp's). At least MIN_INNER inner lines, and
    the two beside each frame line not found, must be found.
    """
    along = _along()
    straight = MARGIN + np.arange(10) * CELL
    lines: list[np.ndarray | None] = [None] * 10
    half = len(along) // 2
    raw: dict[int, np.ndarray] = {}
    for k in (0, 9):
        # a frame line is sure at the corners: followed from each end, each half from its end
        flat = np.full(len(along), float(straight[k]))
        ends = _track(cover, flat, 0), _track(cover, flat, len(along) - 1)
        raw[k] = np.concatenate([ends[0][:half], ends[1][half:]])
        lines[k] = _fill(raw[k], along)
    top, bottom = lines[0], lines[9]
    # A frame line bowed past the picture's edge, or lost to a strong bend, is looked for
    # again once the inner lines are known; meanwhile the other frame line, moved across,
    # is the guide, or with neither found the straight warp's frame.
    if top is None and bottom is None:
        top, bottom = np.full(len(along), straight[0]), np.full(len(along), straight[9])
    elif top is None or bottom is None:
        found = top if top is not None else bottom
        assert found is not None
        top, bottom = (found, found + 9 * CELL) if top is not None else (found - 9 * CELL, found)
    for k in range(1, 9):
        guide = top + (bottom - top) * k / 9
        lines[k] = _fill(_track(cover, guide, half), along, guide)
    for k, inner in ((0, 1), (9, 8)):
        if lines[k] is None:
            lines[k] = _extrapolated(lines, raw[k], k, inner)
    known = [k for k, line in enumerate(lines) if line is not None]
    if len(known) < 2 + MIN_INNER or lines[0] is None or lines[9] is None:
        return None
    found = np.empty((10, len(along)))
    for k in range(10):
        line = lines[k]
        if line is None:
            below = max(j for j in known if j < k)
            above = min(j for j in known if j > k)
            low, high = lines[below], lines[above]
            assert low is not None and high is not None
            line = low + (high - low) * (k - below) / (above - below)
        found[k] = line
    gaps = np.diff(found, axis=0)
    if gaps.min() < CROWD * CELL or gaps.max() > PART * CELL:
        return None
    return found


def _extrapolated(
    lines: list[np.ndarray | None], raw: np.ndarray, frame: int, inner: int
) -> np.ndarray | None:
    """A frame line found too seldom, continued from the two inner lines next to it.

    Where its own samples lie within TRACK of that continuation they are kept; elsewhere (off
    the picture, or lost) the continuation stands. None when those inner lines are not found.
    """
    step = inner - frame
    near, far = lines[inner], lines[inner + step]
    if near is None or far is None:
        return None
    guess = near + (near - far)
    keep = ~np.isnan(raw) & (np.abs(np.nan_to_num(raw) - guess) <= TRACK)
    line: np.ndarray = np.where(keep, raw, guess)
    return line


def _track(cover: np.ndarray, predicted: np.ndarray, start: int) -> np.ndarray:
    """The line's position at each sample (NaN where not found), looked for near ``predicted``.

    From sample ``start`` outwards, each sample takes the run of inked rows nearest the
    prediction within SEARCH, the prediction moved by how far the line strayed at the last
    sample found before it on that side (so a curve is followed, not a stronger line nearby).
    """
    out = np.full(cover.shape[0], np.nan)
    first = _nearest_line(cover[start], float(predicted[start]))
    if first is None:
        return out
    out[start] = first
    for step in (1, -1):
        stray = first - float(predicted[start])
        for i in range(start + step, cover.shape[0] if step > 0 else -1, step):
            found = _nearest_line(cover[i], float(predicted[i]) + stray)
            if found is not None:
                out[i] = found
                stray = found - float(predicted[i])
    return out


def _nearest_line(profile: np.ndarray, centre: float) -> float | None:
    """The middle of the inked run (cover >= MIN_COVER) nearest ``centre``, within SEARCH."""
    lo = max(0, int(centre - SEARCH))
    inked = (profile[lo : min(len(profile), int(centre + SEARCH) + 1)] >= MIN_COVER).tolist()
    if not any(inked):
        return None
    middle = min(range(len(inked)), key=lambda i: (not inked[i], abs(lo + i - centre)))
    a = b = middle
    while a > 0 and inked[a - 1]:
        a -= 1
    while b < len(inked) - 1 and inked[b + 1]:
        b += 1
    return lo + (a + b) / 2


def _fill(
    found: np.ndarray, along: np.ndarray, guide: np.ndarray | None = None
) -> np.ndarray | None:
    """The line at every sample: strays from the local median dropped, gaps filled.

    A gap (or a missing end) follows ``guide`` (an inner line: the blend of the frame's
    curves) moved by how far the line lies from it on either side; without a guide the
    line is interpolated straight and held level past its last sample.
    """
    ok = ~np.isnan(found)
    if ok.sum() < MIN_FOUND * len(found):
        return None
    idx = np.flatnonzero(ok)
    values = found[idx]
    listed = values.tolist()
    keep = np.array(
        [
            abs(v - statistics.median(listed[max(0, j - 2) : j + 3])) <= TRACK
            for j, v in enumerate(listed)
        ]
    )
    if keep.sum() < MIN_FOUND * len(found):
        return None
    base = np.zeros(len(along)) if guide is None else guide
    line: np.ndarray = base + np.interp(along, along[idx[keep]], values[keep] - base[idx[keep]])
    if np.abs(np.diff(line, 2)).max() > KINK:  # jumped onto a neighbouring line
        return None
    return line


def _crossings(horizontal: np.ndarray, vertical: np.ndarray) -> np.ndarray:
    """(10, 10, 2) points (x, y) where horizontal line r meets vertical line c."""
    straight = (MARGIN + np.arange(10) * CELL).astype(np.float64)
    y, x = np.meshgrid(straight, straight, indexing="ij")  # [r, c]
    rows, cols = np.arange(10)[:, None], np.arange(10)[None, :]
    for _ in range(4):  # x on the vertical line at y, then y on the horizontal line at x
        x = _at(vertical[cols, :], y)
        y = _at(horizontal[rows, :], x)
    return np.stack([x, y], axis=-1).astype(np.float32)


def _at(lines: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Each line's position at ``where`` along it, between its samples (ends held flat)."""
    last = lines.shape[-1] - 1
    t = np.clip((where - MARGIN) / STEP, 0, last)
    i = np.minimum(t.astype(np.int64), last - 1)
    f = t - i
    low = np.take_along_axis(lines, i[..., None], axis=-1)[..., 0]
    high = np.take_along_axis(lines, i[..., None] + 1, axis=-1)[..., 0]
    result: np.ndarray = low * (1 - f) + high * f
    return result


def is_bent(points: np.ndarray) -> bool:
    """Whether some crossing lies more than BENT pixels from where the straight cut puts it."""
    return bend(points) > BENT


def bend(points: np.ndarray) -> float:
    """Pixels the crossings stray at most from the straight lattice (the straight cut's)."""
    straight = MARGIN + np.arange(10, dtype=np.float32) * CELL
    grid = np.stack(np.meshgrid(straight, straight), axis=-1)
    return float(np.abs(points - grid).max())


def unbend(gray: np.ndarray, matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The ``9 * CELL`` square cut from the photo so that each cell's crossings are its corners.

    ``matrix`` is the perspective warp from the photo ``gray`` to the padded square the
    crossings were found in. Inside a cell the source is the bilinear blend of its four
    crossings, taken back to the photo through the warp's inverse: one resampling, as the
    straight warp has. Pixels from beyond the photo's edge are paper (:func:`paper_beyond`).
    """
    side = 9 * CELL
    t = (np.arange(side, dtype=np.float32) + 0.5) / CELL
    cell = np.minimum(t.astype(np.int32), 8)
    frac = t - cell
    r, c = cell[:, None], cell[None, :]
    fy, fx = frac[:, None, None], frac[None, :, None]
    top = points[r, c] * (1 - fx) + points[r, c + 1] * fx
    bottom = points[r + 1, c] * (1 - fx) + points[r + 1, c + 1] * fx
    padded = (top * (1 - fy) + bottom * fy - 0.5).astype(np.float32)
    source = cv2.perspectiveTransform(padded.reshape(-1, 1, 2), np.linalg.inv(matrix))
    source = source.reshape(side, side, 2)
    square = cv2.remap(
        gray, source[..., 0], source[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    h, w = gray.shape[:2]
    x, y = source[..., 0], source[..., 1]
    return paper_beyond(square, (x < 0) | (x > w - 1) | (y < 0) | (y > h - 1))
