"""Remake the digit classifier's weights (``digits.npz``); run at training time only.

    python -m sudoku_web.photo.train [--photos DIR] [--out PATH] [--seed N]

Training data: digits rendered from the system's fonts (Debian: ``apt-get install
fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf fonts-urw-base35``)
onto synthetic grid cells with jitter, rotation, perspective, blur, uneven light, noise and
JPEG loss, the print sometimes faint, bold, thin, fading or broken and crossed by a crease;
plus the cells of the photos in ``--photos`` (Wicht and Hennebert's Sudoku dataset,
CC-BY-4.0, e.g. ``../shared/photos``), except its held-aside test split (:func:`held_aside`),
which is never used for training or tuning. Every glyph, synthetic or real, is cut out by
the reader's own ``glyphs.glyph_in_window``. Needs only the serving dependencies (numpy,
OpenCV, Pillow).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sudoku_web.photo import digits
from sudoku_web.photo.glyphs import cell_glyphs, glyph_in_window, prepare
from sudoku_web.photo.grid import CELL, PAD, find_grid, straighten
from sudoku_web.photo.image import load_gray
from sudoku_web.photo.reading import turn_cells

FONT_DIRS = (Path("/usr/share/fonts"),)
SKIP_FONTS = ("italic", "oblique", "emoji", "symbol", "math", "dingbat", "d050000l", "z003")
HIDDEN = 128
SCALE = 3  # synthetic cells are drawn this many times larger, then shrunk (anti-aliasing)


def held_aside(photos: Sequence[Path]) -> tuple[list[Path], list[Path]]:
    """(training, test): every 4th photo by sorted file name is the fixed test split."""
    ordered = sorted(photos, key=lambda p: p.name)
    test = [p for i, p in enumerate(ordered) if i % 4 == 3]
    return [p for p in ordered if p not in test], test


def labels(photo: Path) -> list[int]:
    """The 81 givens of a photo's ``.dat`` file (two header lines, then nine rows)."""
    rows = photo.with_suffix(".dat").read_text().splitlines()[2:]
    values = [int(v) for row in rows for v in row.split()]
    if len(values) != 81:
        raise ValueError(f"{photo.with_suffix('.dat')}: {len(values)} values, not 81")
    return values


def fonts() -> list[Path]:
    """Upright text fonts installed on this machine, in a fixed order."""
    found = sorted(
        p
        for d in FONT_DIRS
        for pattern in ("*.ttf", "*.otf")
        for p in d.rglob(pattern)
        if not any(s in p.name.lower() for s in SKIP_FONTS)
    )
    if not found:
        sys.exit("no fonts: apt-get install fonts-dejavu-core fonts-liberation fonts-freefont-ttf")
    return found


def synthetic(count: int, rng: np.random.Generator) -> Iterator[tuple[np.ndarray, int]]:
    """(glyph, class) pairs from digits drawn on synthetic cells; class 0 for blots."""
    faces = fonts()
    made = 0
    while made < count:
        font = faces[int(rng.integers(len(faces)))]
        value = int(rng.integers(10)) if rng.random() < 0.9 else 0
        glyph = glyph_in_window(*_synthetic_window(font, value, rng))
        if glyph is not None:
            made += 1
            yield glyph, value


def _synthetic_window(
    font: Path, value: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A 3x3-cell patch around one drawn cell, degraded like a photo; its centre window.

    Besides the photo's own faults (perspective, blur, uneven light, noise, JPEG), the centre
    cell's print is sometimes faint, bold, thin or broken (a stroke fading out, specks of it
    lost), and a crease or a stray line sometimes crosses it: the faults of a newspaper.
    """
    big = 3 * CELL * SCALE
    paper = int(rng.integers(150, 256))
    faint = rng.random() < 0.2
    ink = int(paper - rng.integers(30, 80)) if faint else int(rng.integers(0, max(1, paper - 90)))
    canvas = Image.new("L", (big, big), 0)  # how much ink covers each pixel, 0-255
    draw = ImageDraw.Draw(canvas)
    for k in range(4):
        width = int(rng.integers(1, 4)) * SCALE if k in (0, 3) or rng.random() < 0.5 else SCALE
        at = k * CELL * SCALE
        draw.line([(at, 0), (at, big)], fill=255, width=width)
        draw.line([(0, at), (big, at)], fill=255, width=width)
    for r in range(3):
        for c in range(3):
            if (r, c) != (1, 1) and rng.random() < 0.4:
                _draw_digit(draw, font, int(rng.integers(1, 10)), r, c, rng)
    centre = Image.new("L", (big, big), 0)
    if value:
        _draw_digit(ImageDraw.Draw(centre), font, value, 1, 1, rng)
    else:
        _draw_blot(ImageDraw.Draw(centre), rng)
    cover = np.maximum(np.asarray(canvas, np.float32), _worn(centre, rng)) / 255
    if rng.random() < 0.15:
        cover = np.maximum(cover, _crease(big, rng))
    pixels = paper - (paper - ink) * cover
    pixels = _warp(pixels, paper, rng)
    small = cv2.resize(pixels, (3 * CELL, 3 * CELL), interpolation=cv2.INTER_AREA)
    sigma = float(rng.uniform(0, 1.3))
    if sigma > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    light = np.linspace(float(rng.uniform(0.55, 1.0)), 1.0, 3 * CELL, dtype=np.float32)
    small = small * (light[:, None] if rng.random() < 0.5 else light[None, :])
    small = small + rng.normal(0, float(rng.uniform(0, 10)), small.shape)
    gray = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        gray = _jpeg(gray, int(rng.integers(30, 90)))
    flat, ink_map = prepare(gray)
    window = slice(CELL - PAD, 2 * CELL + PAD)
    return flat[window, window], ink_map[window, window]


def _worn(layer: Image.Image, rng: np.random.Generator) -> np.ndarray:
    """The centre cell's ink cover, sometimes bold, thin, fading out along a direction (the
    lost bowl of a faint 3) or with specks of it lost."""
    cover: np.ndarray = np.asarray(layer, np.float32)
    roll = rng.random()
    if roll < 0.15:  # bold
        cover = cv2.dilate(cover, np.ones((SCALE + 1, SCALE + 1), np.uint8))
    elif roll < 0.3:  # thin
        cover = cv2.erode(cover, np.ones((SCALE + 1, SCALE + 1), np.uint8))
    if rng.random() < 0.25:  # fading: the ink weakens from one side to the other
        side = cover.shape[0]
        angle = rng.uniform(0, 2 * np.pi)
        ys, xs = (np.mgrid[0:side, 0:side].astype(np.float32) - side / 2) / (CELL * SCALE / 2)
        along = np.clip((np.cos(angle) * xs + np.sin(angle) * ys + 1) / 2, 0, 1)
        cover = cover * (1 - float(rng.uniform(0.4, 0.9)) * along)
    if rng.random() < 0.15:  # specks lost
        lost = np.ones_like(cover)
        for _ in range(int(rng.integers(1, 4))):
            at = (1.5 + rng.uniform(-0.3, 0.3, 2)) * CELL * SCALE
            radius = int(rng.uniform(0.04, 0.1) * CELL * SCALE)
            cv2.circle(lost, (int(at[0]), int(at[1])), radius, 0.0, -1)
        cover = cover * lost
    return cover


def _crease(side: int, rng: np.random.Generator) -> np.ndarray:
    """Ink cover (0-1) of a fold's shadow or a stray line crossing the patch near its centre."""
    cover = np.zeros((side, side), np.float32)
    angle = rng.uniform(0, np.pi)
    at = (1.5 + rng.uniform(-0.3, 0.3, 2)) * CELL * SCALE
    reach = side * np.array([np.cos(angle), np.sin(angle)])
    ends = [tuple(int(v) for v in at + s * reach) for s in (-1, 1)]
    width = int(rng.integers(1, 4)) * SCALE
    cv2.line(cover, ends[0], ends[1], float(rng.uniform(0.3, 0.9)), width)
    return cover


def _draw_digit(
    draw: ImageDraw.ImageDraw,
    font: Path,
    value: int,
    r: int,
    c: int,
    rng: np.random.Generator,
) -> None:
    """One digit in cell (r, c) of the patch, 45-80% of the cell high, a little off-centre."""
    face = _face(font, int(rng.integers(11, 20)) * CELL * SCALE // 20)
    cx = (c + 0.5 + rng.uniform(-0.08, 0.08)) * CELL * SCALE
    cy = (r + 0.5 + rng.uniform(-0.08, 0.08)) * CELL * SCALE
    draw.text((cx, cy), str(value), fill=255, font=face, anchor="mm")


@lru_cache(maxsize=512)
def _face(font: Path, size: int) -> ImageFont.FreeTypeFont:
    """A font at a size, loaded once (sizes come in 5% steps of the cell)."""
    return ImageFont.truetype(str(font), size)


def _draw_blot(draw: ImageDraw.ImageDraw, rng: np.random.Generator) -> None:
    """Something in an empty cell that is not a digit: a speck, a smudge or a dash."""
    unit = CELL * SCALE
    cx, cy = (1.5 + rng.uniform(-0.2, 0.2)) * unit, (1.5 + rng.uniform(-0.2, 0.2)) * unit
    w, h = rng.uniform(0.05, 0.5) * unit, rng.uniform(0.05, 0.25) * unit
    if rng.random() < 0.5:
        draw.ellipse([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], fill=255)
    else:
        draw.line(
            [(cx - w / 2, cy), (cx + w / 2, cy + rng.uniform(-h, h))], fill=255, width=SCALE * 2
        )


def _warp(pixels: np.ndarray, paper: int, rng: np.random.Generator) -> np.ndarray:
    """A small random perspective distortion around the patch's centre."""
    side = pixels.shape[0]
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    moved = corners + rng.uniform(-0.04, 0.04, corners.shape).astype(np.float32) * side
    angle = np.deg2rad(rng.uniform(-4, 4))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    moved = (moved - side / 2) @ rot.T + side / 2
    matrix = cv2.getPerspectiveTransform(corners, moved.astype(np.float32))
    return cv2.warpPerspective(pixels, matrix, (side, side), borderValue=float(paper))


def _jpeg(gray: np.ndarray, quality: int) -> np.ndarray:
    """The patch after a round trip through JPEG at ``quality``."""
    buffer = io.BytesIO()
    Image.fromarray(gray).save(buffer, "JPEG", quality=quality)
    return np.asarray(Image.open(buffer).convert("L"), dtype=np.uint8)


def photo_cells(
    photo: Path, jitter: float, rng: np.random.Generator
) -> list[tuple[np.ndarray, int]]:
    """(glyph, class) for the glyphs of one labelled photo, its corners moved by ``jitter`` px.

    The photo is turned the way its glyphs best match its labels; a photo whose grid is not
    found, or whose glyphs match its labels in fewer than 75 cells, gives nothing.
    """
    gray = load_gray(photo.read_bytes())
    quad = find_grid(gray)
    if quad is None:
        return []
    quad = quad + rng.uniform(-jitter, jitter, quad.shape).astype(np.float32)
    glyphs = cell_glyphs(straighten(gray, quad))
    truth = labels(photo)
    best = max(range(4), key=lambda t: _agreement(turn_cells(glyphs, t), truth))
    turned = turn_cells(glyphs, best)
    if _agreement(turned, truth) < 75:
        return []
    return [(g, v) for g, v in zip(turned, truth, strict=True) if g is not None]


def _agreement(glyphs: Sequence[np.ndarray | None], truth: Sequence[int]) -> int:
    """Cells where having a glyph matches having a given."""
    return sum((g is not None) == (v != 0) for g, v in zip(glyphs, truth, strict=True))


def fit(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, epochs: int = 14) -> digits.Model:
    """A two-layer perceptron fitted by Adam on cross-entropy with a little weight decay."""
    n, d = x.shape
    mean = x.mean(axis=0)
    params = [
        rng.normal(0, np.sqrt(2 / d), (d, HIDDEN)).astype(np.float32),
        np.zeros(HIDDEN, np.float32),
        rng.normal(0, np.sqrt(2 / HIDDEN), (HIDDEN, 10)).astype(np.float32),
        np.zeros(10, np.float32),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        rate = 2e-3 * (0.5 ** (epoch / 4))
        order = rng.permutation(n)
        for start in range(0, n, 128):
            batch = order[start : start + 128]
            grads = _gradients(params, mean, x[batch], y[batch])
            step += 1
            for p, g, m, s in zip(params, grads, moments, squares, strict=True):
                m[:] = 0.9 * m + 0.1 * g
                s[:] = 0.999 * s + 0.001 * g * g
                p -= rate * (m / (1 - 0.9**step)) / (np.sqrt(s / (1 - 0.999**step)) + 1e-8)
    return digits.Model(mean, *params)


def _gradients(
    params: list[np.ndarray], mean: np.ndarray, x: np.ndarray, y: np.ndarray
) -> list[np.ndarray]:
    """Gradients of the mean cross-entropy (plus 1e-4 L2) for one batch."""
    w1, b1, w2, b2 = params
    hidden, probs = digits.forward(digits.Model(mean, w1, b1, w2, b2), x)
    delta = probs.copy()
    delta[np.arange(len(y)), y] -= 1
    delta /= len(y)
    back = (delta @ w2.T) * (hidden > 0)
    centred = x - mean
    return [centred.T @ back + 1e-4 * w1, back.sum(0), hidden.T @ delta + 1e-4 * w2, delta.sum(0)]


def _glyphs(args: argparse.Namespace, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The training glyphs as feature rows and classes: synthetic, then the training photos."""
    started = time.perf_counter()
    samples = list(synthetic(args.synthetic, rng))
    print(f"synthetic glyphs: {len(samples)} ({time.perf_counter() - started:.0f} s)")
    if args.photos is not None:
        train, test = held_aside(list(args.photos.glob("*.jpg")))
        real = [s for p in train for k in range(args.jitters) for s in photo_cells(p, 2.0 * k, rng)]
        print(f"photo glyphs: {len(real)} from {len(train)} photos ({len(test)} held aside)")
        samples += real
    x = digits.features(np.stack([g for g, _ in samples]))
    return x, np.array([v for _, v in samples], dtype=np.int64)


def main(argv: Sequence[str] | None = None) -> None:
    """Build the training set, fit, report accuracy on it, write the weights."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=None, help="labelled photos (*.jpg + .dat)")
    parser.add_argument("--synthetic", type=int, default=12000, help="synthetic glyphs")
    parser.add_argument("--jitters", type=int, default=2, help="cuts of each training photo")
    parser.add_argument("--out", type=Path, default=digits.WEIGHTS)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--cache", type=Path, default=None, help="keep/reuse the glyphs here")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    if args.cache is not None and args.cache.exists():
        with np.load(args.cache) as saved:
            x, y = saved["x"], saved["y"]
        print(f"glyphs: {len(y)} from {args.cache}")
    else:
        x, y = _glyphs(args, rng)
        if args.cache is not None:
            np.savez_compressed(args.cache, x=x, y=y)
    model = fit(x, y, rng)
    predicted = digits.forward(model, x)[1].argmax(axis=1)
    print(f"training accuracy: {(predicted == y).mean():.4f} on {len(y)} glyphs")
    digits.save(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
