"""Synthetic crops: training photos cut at the grid's edge, blurred, made small, and read.

Run ``python -m benchmarks.photo_crops [--every 5] [--cuts 0,1,3,5,7,10,15] [--test]
[--out FILE] [--names image33,image44] [--keep DIR]``. It takes every ``--every``-th photo
of the TRAINING split (``--test``: the held-aside split instead, for the final figures
only), finds its grid on the whole photo
(:func:`find_grid`) and cuts the photo on each side in turn ``cut`` per cent of the grid's
side inside the frame's outer edge (0: the frame touches the photo's border); the other
sides keep a margin of 2% of the grid, and the picture is widened along the cut side to
4:3 where the photo allows it (the grid fills the photo, as in a close phone shot). The
crop is then blurred (a Gaussian of 1 px at the final scale), shrunk to fit 640x480, and
saved as JPEG 85, then read with :func:`read_photo` and its shipped deadline.

Expected answer, from where the grid's cells lie on the crop: where a whole row or column
has its middles off it (a cut past half a cell), the refusal ``cut_off``; where no cell's
middle is off it, the givens; in between (a slanted grid with part of a row's middles off),
either the refusal or the givens with the cells off the crop read blank and marked. Each
page prints ``right``, ``cut off`` (right when expected), ``wrong N`` (``NOT FLAGGED`` when
the reading is called unique and marks none of its wrong cells; a cell off the crop counts
wrong unless blank and marked) or ``refused CODE``; totals per side and cut end the output,
with the pages and cells right (a right refusal counts its 81 cells) and the wall and CPU
time per page (mean, median, p95, max). ``--out`` writes the per-page results as TSV, to compare
two trees; ``--names`` reads only the photos named (from the whole split), ``--keep``
saves each page read into a folder as ``imageN-SIDE-CUT.jpg`` (the tests' crops were made
so).
"""

from __future__ import annotations

import argparse
import io
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from benchmarks.photo_bench import splits, spread
from sudoku_web.photo import PhotoError, read_photo
from sudoku_web.photo.edges import cells_outside
from sudoku_web.photo.grid import find_grid
from sudoku_web.photo.image import load_gray
from sudoku_web.photo.train import labels

SIDES = ("top", "right", "bottom", "left")
MARGIN = 0.02  # of the grid's side, kept beyond the frame on the sides not cut
WIDTH, HEIGHT = 640, 480  # the small phone photo the crop is shrunk to fit
BLUR = 1.0  # pixels (Gaussian sigma) at the final scale


def crop(
    gray: np.ndarray, quad: np.ndarray, side: int, cut: float
) -> tuple[np.ndarray, np.ndarray]:
    """The photo cut ``cut`` (share of the grid's side) inside the frame on ``side`` (0 top,
    1 right, 2 bottom, 3 left), blurred and shrunk; and the grid's corners on it."""
    h, w = gray.shape
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    size = float((hi - lo).mean())
    box = np.array([*(lo - MARGIN * size), *(hi + MARGIN * size)])  # x0, y0, x1, y1
    axis = side % 2 == 0  # 1: the cut runs along x (top or bottom), so y is cut
    index = {0: 1, 1: 2, 2: 3, 3: 0}[side]
    inward = 1 if side in (0, 3) else -1
    frame = lo[index % 2] if side in (0, 3) else hi[index % 2]
    box[index] = frame + inward * cut * size
    # widen the side along the cut to 4:3 (never past the cut itself)
    bw, bh = box[2] - box[0], box[3] - box[1]
    if axis:  # top or bottom cut: landscape, widen both ways along x
        extra = max(0.0, 4 / 3 * bh - bw) / 2
        box[0], box[2] = box[0] - extra, box[2] + extra
    else:  # left or right cut: portrait, widen both ways along y
        extra = max(0.0, 4 / 3 * bw - bh) / 2
        box[1], box[3] = box[1] - extra, box[3] + extra
    x0, y0 = max(0, round(box[0])), max(0, round(box[1]))
    x1, y1 = min(w, round(box[2])), min(h, round(box[3]))
    piece = gray[y0:y1, x0:x1]
    limit = (WIDTH, HEIGHT) if piece.shape[1] >= piece.shape[0] else (HEIGHT, WIDTH)
    scale = min(limit[0] / piece.shape[1], limit[1] / piece.shape[0], 1.0)
    small = cv2.resize(
        piece,
        (max(1, round(piece.shape[1] * scale)), max(1, round(piece.shape[0] * scale))),
        interpolation=cv2.INTER_AREA,
    )
    small = cv2.GaussianBlur(small, (0, 0), BLUR)
    corners = (quad - np.array([x0, y0], dtype=np.float32)) * np.float32(scale)
    return np.ascontiguousarray(small), corners.astype(np.float32)


def jpeg(gray: np.ndarray, quality: int = 85) -> bytes:
    """The picture as JPEG bytes."""
    out = io.BytesIO()
    Image.fromarray(gray).save(out, "JPEG", quality=quality)
    return out.getvalue()


def cut_off(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a whole row or column of the grid has its middles off the picture."""
    off = cells_outside(corners, shape)
    rows = any(all(r * 9 + c in off for c in range(9)) for r in range(9))
    return rows or any(all(r * 9 + c in off for r in range(9)) for c in range(9))


def judge(
    data: bytes, corners: np.ndarray, shape: tuple[int, ...], truth: list[int]
) -> tuple[str, int]:
    """(the page's result, cells right) against what is expected (the module's docstring)."""
    expect_cut = cut_off(corners, shape)
    outside = cells_outside(corners, shape)
    try:
        reading = read_photo(data)
    except PhotoError as exc:
        if exc.code == "cut_off" and (expect_cut or outside):
            return "cut off", 81
        return f"refused {exc.code}" + (" (expected cut off)" if expect_cut else ""), 0
    if expect_cut:
        return "read (expected cut off)", 0
    seen = [i for i in range(81) if i not in outside]
    bad = [i for i in seen if int(reading.puzzle[i]) != truth[i]]
    bad += [i for i in outside if reading.puzzle[i] != "0" or i not in reading.uncertain]
    if not bad:
        return "right", 81
    flagged = reading.status != "unique" or any(i in reading.uncertain for i in bad)
    return f"wrong {len(bad)}" + ("" if flagged else " NOT FLAGGED"), 81 - len(bad)


def main() -> None:
    """Crop, read and tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=None)
    parser.add_argument("--every", type=int, default=5, help="every Nth photo of the split")
    parser.add_argument("--cuts", default="0,1,3,5,7,10,15", help="per cent of the grid's side")
    parser.add_argument("--sides", default="0,1,2,3", help="0 top, 1 right, 2 bottom, 3 left")
    parser.add_argument("--test", action="store_true", help="the held-aside split (final only)")
    parser.add_argument("--out", type=Path, default=None, help="per-page results as TSV")
    parser.add_argument("--names", default="", help="only these photos (imageN,...)")
    parser.add_argument("--keep", type=Path, default=None, help="save the pages read here")
    args = parser.parse_args()
    split = splits(args.photos)[1 if args.test else 0]
    names = set(args.names.split(",")) - {""}
    photos = [p for p in split if p.stem in names] if names else split[:: args.every]
    cuts = [float(c) for c in args.cuts.split(",")]
    sides = [int(s) for s in args.sides.split(",")]
    tally: dict[tuple[int, float], list[int]] = {(s, c): [0, 0, 0] for s in sides for c in cuts}
    rows: list[str] = []
    times: list[float] = []
    cpu: list[float] = []
    for photo in photos:
        truth = labels(photo)
        gray = load_gray(photo.read_bytes())
        quad = find_grid(gray)
        if quad is None:
            print(f"{photo.stem}\tno grid on the whole photo: skipped")
            continue
        for side in sides:
            for cut in cuts:
                page, corners = crop(gray, quad, side, cut / 100)
                data = jpeg(page)
                if args.keep:
                    (args.keep / f"{photo.stem}-{SIDES[side]}-{cut:g}.jpg").write_bytes(data)
                started, used = time.perf_counter(), time.process_time()
                result, cells = judge(data, corners, page.shape, truth)
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - used) * 1000)
                tally[side, cut][0] += result in ("right", "cut off")
                tally[side, cut][1] += cells
                tally[side, cut][2] += 1
                line = f"{photo.stem}\t{SIDES[side]}\t{cut:g}\t{result}"
                print(line, flush=True)
                rows.append(line)
    print(f"\n{len(photos)} photos; right (or cut off, where a row is) / pages, cells right:")
    for (side, cut), (good, cells, pages) in tally.items():
        print(f"  {SIDES[side]:6s} {cut:4g}%  {good}/{pages}  cells {cells}/{81 * pages}")
    total = [sum(v[i] for v in tally.values()) for i in range(3)]
    print(f"  all          {total[0]}/{total[2]}  cells {total[1]}/{81 * total[2]}")
    print(f"  ms per page, wall {spread(times)}\n  ms per page, CPU  {spread(cpu)}")
    if args.out:
        args.out.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
