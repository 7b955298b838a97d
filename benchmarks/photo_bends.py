"""Synthetic bent pages: training photos bent and tilted, read, and why each is missed.

Run ``python -m benchmarks.photo_bends [--every 5] [--kinds 0,1,2,3] [--amps 0.5,0.8]
[--why] [--out FILE]``. It takes every ``--every``-th photo of the TRAINING split (never the
held-aside one), bends the page around its grid by a smooth remap (the grid's middle moved
by ``amp`` of a cell), saves it as JPEG 92 and reads it with :func:`read_photo`. The bends:

0. rows sag; 1. rows sag and columns bow by 0.6 of that; 2. an S along the rows;
3. as 1, then seen at a steep angle (the top 30% narrower);
4. as 1, then the page tilted 30 degrees away about its horizontal axis (a pinhole camera
   1.2 page heights away); 5. the same at 45 degrees; 6. as 0, tilted 40 degrees about the
   vertical axis and turned 10 degrees in the picture. Kinds 4-6 lay the photo on a plain
   table of its median grey (3 repeats its edge pixels, as the earlier tables did).

The grid is located on the flat photo by :func:`find_grid` (the synthetic page is built
around it). Each page prints ``right``, ``wrong N`` (``NOT FLAGGED`` when the reading says
it is unique and marks none of its wrong cells) or ``refused``; with ``--why`` a refused
or misread page also says where the reader stopped: no four-sided outline found, an outline
whose corners lie more than half a cell from the grid's, no lattice of lines followed, or
squares without inner lines. The totals per bend and amount end the output; ``--out``
writes the per-page results as TSV, to compare two trees.
"""

from __future__ import annotations

import argparse
import io
import math
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from benchmarks.photo_bench import splits
from sudoku_web.photo import PhotoError, read_photo
from sudoku_web.photo.glyphs import prepare
from sudoku_web.photo.grid import find_grid, straighten
from sudoku_web.photo.image import load_gray
from sudoku_web.photo.lattice import MARGIN, follow_lines, is_bent
from sudoku_web.photo.reading import cut_squares, has_inner_lines
from sudoku_web.photo.train import labels

KINDS = {
    0: "rows sag",
    1: "rows sag, columns bow",
    2: "an S along the rows",
    3: "as 1, top 30% narrower",
    4: "as 1, tilted 30 deg",
    5: "as 1, tilted 45 deg",
    6: "as 0, tilted 40 deg sideways, turned 10",
}


def _tilt(
    shape: tuple[int, int],
    corners: np.ndarray,
    degrees: float,
    sideways: bool,
    turn: float,
    amp: float,
) -> np.ndarray:
    """The homography of a page tilted ``degrees`` away (a pinhole camera 1.2 page heights
    off), turned ``turn`` degrees in the picture, scaled so the grid ``corners`` and ``amp``
    of a cell around them (where the bend bulges) fit in it."""
    h, w = shape
    cx, cy = w / 2, h / 2
    depth = 1.2 * (w if sideways else h)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    theta, phi = math.radians(degrees), math.radians(turn)
    dst = []
    for x, y in src.tolist():
        X, Y = x - cx, y - cy
        across = X if sideways else Y
        z = depth - across * math.sin(theta)  # the top (or left) side leans away
        X, Y = (X * math.cos(theta), Y) if sideways else (X, Y * math.cos(theta))
        X, Y = X * depth / z, Y * depth / z
        X, Y = X * math.cos(phi) - Y * math.sin(phi), X * math.sin(phi) + Y * math.cos(phi)
        dst.append((X, Y))
    matrix = cv2.getPerspectiveTransform(src, np.array(dst, dtype=np.float32))
    grid = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    span = (grid.max(axis=0) - grid.min(axis=0)) * (1 + 2 * amp / 9)
    scale = min(1.0, 0.92 * w / span[0], 0.92 * h / span[1])
    middle = (grid.max(axis=0) + grid.min(axis=0)) / 2
    fit = np.array(
        [[scale, 0, cx - scale * middle[0]], [0, scale, cy - scale * middle[1]], [0, 0, 1]]
    )
    tilted: np.ndarray = fit @ matrix
    return tilted


def bent(gray: np.ndarray, amp: float, kind: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo with its page bent (``kind``, ``amp`` of a cell), and where the grid's four
    corners now lie (the bends leave the grid's corners in place; the tilt moves them)."""
    h, w = gray.shape
    quad = find_grid(gray)
    if quad is None:
        raise ValueError("no grid on the flat photo")
    x0, y0 = quad[:, 0].min(), quad[:, 1].min()
    x1, y1 = quad[:, 0].max(), quad[:, 1].max()
    cell = (x1 - x0) / 9
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u = np.clip((xs - x0) / (x1 - x0), -0.2, 1.2)
    v = np.clip((ys - y0) / (y1 - y0), -0.2, 1.2)
    dx = np.zeros_like(xs)
    if kind == 2:
        dy = amp * cell * np.sin(2 * np.pi * u) * 0.7
    else:
        dy = amp * cell * np.sin(np.pi * u)
        if kind not in (0, 6):
            dx = 0.6 * amp * cell * np.sin(np.pi * v)
    page = cv2.remap(gray, xs - dx, ys - dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if kind < 3:
        return page, quad
    if kind == 3:
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        dst = np.array([[0.15 * w, 0.1 * h], [0.85 * w, 0.1 * h], [w, h], [0, h]], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
    else:
        degrees, sideways, turn = {4: (30, False, 0), 5: (45, False, 0), 6: (40, True, 10)}[kind]
        matrix = _tilt((h, w), quad, degrees, sideways, turn, amp)
    if kind == 3:
        page = cv2.warpPerspective(page, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    else:  # the photo lies on a plain table (repeating its edge would draw stripes)
        table = float(np.median(gray))
        page = cv2.warpPerspective(
            page, matrix, (w, h), borderMode=cv2.BORDER_CONSTANT, borderValue=table
        )
    corners = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), matrix).reshape(4, 2)
    return page, corners


def jpeg(gray: np.ndarray) -> bytes:
    """The picture as JPEG 92 bytes."""
    out = io.BytesIO()
    Image.fromarray(gray).save(out, "JPEG", quality=92)
    return out.getvalue()


def why(data: bytes, corners: np.ndarray) -> str:
    """Where the reader stopped on this page (see the module's docstring)."""
    gray = load_gray(data)
    quad = find_grid(gray)
    if quad is None:
        return "no outline"
    cell = float(np.linalg.norm(corners[1] - corners[0])) / 9
    off = float(np.linalg.norm(quad - corners, axis=1).max()) / cell
    points = follow_lines(prepare(straighten(gray, quad, MARGIN))[0])
    lattice = "no lattice" if points is None else ("bent" if is_bent(points) else "flat")
    lines = [has_inner_lines(prepare(square)[0]) for square in cut_squares(gray, quad)]
    return f"outline off by {off:.2f} cell, {lattice}, inner lines {lines}"


def main() -> None:
    """Bend, read and tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=None)
    parser.add_argument("--every", type=int, default=5, help="every Nth training photo")
    parser.add_argument("--kinds", default="0,1,2,3")
    parser.add_argument("--amps", default="0.5,0.8")
    parser.add_argument("--why", action="store_true", help="say where a missed page stopped")
    parser.add_argument("--out", type=Path, default=None, help="per-page results as TSV")
    args = parser.parse_args()
    photos = splits(args.photos)[0][:: args.every]
    kinds = [int(k) for k in args.kinds.split(",")]
    amps = [float(a) for a in args.amps.split(",")]
    tally: dict[tuple[int, float], list[int]] = {(k, a): [0, 0, 0] for k in kinds for a in amps}
    rows = []
    for photo in photos:
        truth = labels(photo)
        gray = load_gray(photo.read_bytes())
        for kind in kinds:
            for amp in amps:
                page, corners = bent(gray, amp, kind)
                data = jpeg(page)
                try:
                    reading = read_photo(data, deadline_ms=30_000)
                    bad = [i for i in range(81) if int(reading.puzzle[i]) != truth[i]]
                    wrong = len(bad)
                    flagged = reading.status != "unique" or any(i in reading.uncertain for i in bad)
                    result = "right" if not wrong else f"wrong {wrong}"
                    result += "" if flagged or not wrong else " NOT FLAGGED"
                except PhotoError:
                    wrong, result = -1, "refused"
                tally[kind, amp][0 if wrong == 0 else 2 if wrong < 0 else 1] += 1
                note = f"\t{why(data, corners)}" if args.why and wrong else ""
                print(f"{photo.stem}\tk{kind}\t{amp}\t{result}{note}", flush=True)
                rows.append(f"{photo.stem}\t{kind}\t{amp}\t{result}")
    print(f"\n{len(photos)} photos; right / misread / refused per bend:")
    for (kind, amp), (right, wrong, refused) in tally.items():
        print(f"  {kind}: {KINDS[kind]:42s} {amp:.1f} cell  {right} / {wrong} / {refused}")
    if args.out:
        args.out.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
