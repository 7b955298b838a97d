"""Grouped k-fold check of the digit classifier: photos it was not trained on, read end to end.

Run ``python -m benchmarks.photo_folds [--photos DIR] [--folds 4] [--cache DIR] [--verbose]``.
The shipped classifier is trained on the training split's photos, so the benchmark's figures
on that split flatter it. Here the training split (never the held-aside one) is cut into
``--folds`` groups of photos (every k-th by sorted name); for each fold a classifier is
trained exactly as ``python -m sudoku_web.photo.train`` does (the same synthetic glyphs plus
the other folds' photo glyphs) and the fold's photos are read through :func:`read_photo`
with it. Per fold and in all: grids fully right, cells right, wrong cells not marked, right
cells marked. Glyphs and fold models are kept in ``--cache`` under a digest of the training
and cutting code, so a change to the reader alone (not to training) is measured in seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import time
from pathlib import Path
from unittest import mock

import numpy as np

from benchmarks.photo_bench import photo_folder
from sudoku_web.photo import PhotoError, digits, grid, read_photo, train


def _digest(*parts: object) -> str:
    """A short digest of the training and cutting code and of ``parts``."""
    code = "".join(inspect.getsource(m) for m in (train, grid, digits))
    return hashlib.sha256((code + repr(parts)).encode()).hexdigest()[:12]


def _cached(path: Path, make: object) -> dict[str, np.ndarray]:
    """The arrays saved at ``path``, made by ``make()`` (a dict of arrays) when missing."""
    if not path.exists():
        arrays = make()  # type: ignore[operator]
        np.savez_compressed(path, **arrays)
    with np.load(path) as saved:
        return {k: saved[k] for k in saved.files}


def main() -> None:
    """Train one classifier per fold, read the fold's photos with it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=None)
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--synthetic", type=int, default=12000)
    parser.add_argument("--jitters", type=int, default=2)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/photo_folds"))
    parser.add_argument("--deadline-ms", type=float, default=30_000)
    parser.add_argument("--verbose", action="store_true", help="list every photo read wrong")
    parser.add_argument("--key", default=None, help="reuse the glyphs and models cached under it")
    args = parser.parse_args()
    folder = photo_folder(args.photos)
    if folder is None:
        print("No photos found: nothing measured.")
        return
    args.cache.mkdir(parents=True, exist_ok=True)
    training = train.held_aside(sorted(folder.glob("*.jpg")))[0]
    key = args.key or _digest(args.synthetic, args.seed, args.jitters)
    started = time.process_time()

    def make_synthetic() -> dict[str, np.ndarray]:
        pairs = list(train.synthetic(args.synthetic, np.random.default_rng(args.seed)))
        return {"x": np.stack([g for g, _ in pairs]), "y": np.array([v for _, v in pairs])}

    def make_photos() -> dict[str, np.ndarray]:
        rng = np.random.default_rng(args.seed + 1)
        out: dict[str, np.ndarray] = {}
        for p in training:
            pairs = [s for k in range(args.jitters) for s in train.photo_cells(p, 2.0 * k, rng)]
            out[p.stem + "_x"] = np.stack([g for g, _ in pairs]) if pairs else np.zeros((0, 28, 28))
            out[p.stem + "_y"] = np.array([v for _, v in pairs], dtype=np.int64)
        return out

    synth = _cached(args.cache / f"synthetic-{key}.npz", make_synthetic)
    real = _cached(args.cache / f"photos-{key}.npz", make_photos)
    print(f"glyphs ready ({time.process_time() - started:.0f} s CPU); key {key}")
    totals = np.zeros(5, dtype=np.int64)
    for fold in range(args.folds):
        held = [p for i, p in enumerate(training) if i % args.folds == fold]
        rest = [p for p in training if p not in held]

        def make_model(rest: list[Path] = rest) -> dict[str, np.ndarray]:
            x = np.concatenate([synth["x"]] + [real[p.stem + "_x"] for p in rest])
            y = np.concatenate([synth["y"]] + [real[p.stem + "_y"] for p in rest])
            model = train.fit(digits.features(x), y, np.random.default_rng(args.seed))
            return model._asdict()

        saved = _cached(args.cache / f"model-{key}-{fold}of{args.folds}.npz", make_model)
        model = digits.Model(**{k: saved[k].astype(np.float16).astype(np.float32) for k in saved})
        figures, misses = _read(held, model, args.deadline_ms)
        totals += figures
        print(f"fold {fold}: {_line(figures)}")
        if args.verbose:
            for miss in misses:
                print("   ", miss)
    print(f"all folds: {_line(totals)} ({time.process_time() - started:.0f} s CPU)")


def _read(
    photos: list[Path], model: digits.Model, deadline_ms: float
) -> tuple[np.ndarray, list[str]]:
    """(photos, grids right, cells right, wrong cells unmarked, right cells marked), misses."""
    figures = np.zeros(5, dtype=np.int64)
    misses: list[str] = []
    with mock.patch.object(digits, "shipped", return_value=model):
        for photo in photos:
            truth = train.labels(photo)
            figures[0] += 1
            try:
                reading = read_photo(photo.read_bytes(), deadline_ms=deadline_ms)
            except PhotoError as exc:
                misses.append(f"{photo.name}: refused ({exc.code})")
                continue
            wrong = [i for i in range(81) if int(reading.puzzle[i]) != truth[i]]
            figures[1] += not wrong
            figures[2] += 81 - len(wrong)
            figures[3] += sum(1 for i in wrong if i not in reading.uncertain)
            figures[4] += sum(1 for i in reading.uncertain if i not in wrong)
            if wrong:
                shown = [
                    f"r{i // 9 + 1}c{i % 9 + 1}={reading.puzzle[i]}/{truth[i]}"
                    f"{'' if i in reading.uncertain else '!'}"
                    for i in wrong
                ]
                misses.append(f"{photo.name}: {reading.status} {' '.join(shown)}")
    return figures, misses


def _line(f: np.ndarray) -> str:
    """One fold's figures as text."""
    return (
        f"grids {f[1]}/{f[0]}, cells {f[2]}/{81 * f[0]}, wrong cells unmarked {f[3]},"
        f" right cells marked {f[4]}"
    )


if __name__ == "__main__":
    main()
