"""Photo reading benchmark: grids and cells read right, time and memory per photo.

Run ``python -m benchmarks.photo_bench [--photos DIR] [--repeat N] [--verbose]``. It reads
the labelled photos of Wicht and Hennebert's Sudoku dataset (``imageN.jpg`` + ``imageN.dat``,
by default ``../shared/photos`` beside the repository) through :func:`read_photo`, with the
held-aside test split (:func:`sudoku_web.photo.train.held_aside`, never trained or tuned on)
and the training split reported separately. Per split: grids fully right, cells right,
wrong cells the reader marked as doubtful (and right cells marked: the cost of doubt),
wrong grids it flagged (a status other than "unique" or a marked wrong cell), photos
refused, and wall time per photo (mean, median, p95, max; the bytes are in memory, so
decoding is timed and disk reads are not) and this process's CPU time per photo (near what
the wall time would be on an idle machine). Peak memory is this process's max RSS. Without
the photos it says so and exits 0, measuring nothing. ``--train-only`` reads the training
split alone (for tuning without touching the held-aside one); ``--dump FILE`` writes each
photo's reading, to compare two trees photo by photo.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_web.photo import PhotoError, read_photo
from sudoku_web.photo.train import held_aside, labels

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = (ROOT.parent / "shared" / "photos", ROOT.parent.parent / "shared" / "photos")


@dataclass
class Split:
    """Figures of one split."""

    name: str
    photos: int = 0
    grids_right: int = 0
    cells_right: int = 0
    wrong_cells: int = 0
    wrong_marked: int = 0
    right_marked: int = 0
    wrong_grids_flagged: int = 0
    refused: int = 0
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    def line(self) -> str:
        """The split's figures as a few lines of text."""
        cells = 81 * self.photos
        wrong_grids = self.photos - self.grids_right
        return (
            f"{self.name}: {self.photos} photos\n"
            f"  grids fully right  {self.grids_right}/{self.photos}"
            f" ({100 * self.grids_right / max(1, self.photos):.1f}%)\n"
            f"  cells right        {self.cells_right}/{cells}"
            f" ({100 * self.cells_right / max(1, cells):.2f}%)\n"
            f"  wrong cells marked {self.wrong_marked}/{self.wrong_cells};"
            f" wrong grids flagged {self.wrong_grids_flagged}/{wrong_grids};"
            f" refused {self.refused}\n"
            f"  right cells marked {self.right_marked}/{self.cells_right}\n"
            f"  ms per photo, wall {spread(self.times_ms)}\n"
            f"  ms per photo, cpu  {spread(self.cpu_ms)}"
        )


def photo_folder(given: Path | None) -> Path | None:
    """The labelled photos' folder: ``given``, else the first of CANDIDATES that exists."""
    return given or next((p for p in CANDIDATES if p.is_dir()), None)


def splits(given: Path | None) -> tuple[list[Path], list[Path]]:
    """(training, held-aside) photos of :func:`photo_folder`; both empty, having said so,
    when there are none."""
    folder = photo_folder(given)
    if folder is None:
        print("No photos found: nothing measured.")
        return [], []
    return held_aside(sorted(folder.glob("*.jpg")))


def spread(values: list[float]) -> str:
    """Mean, median, p95 and max of ``values``."""
    ordered = sorted(values) or [0.0]
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"mean {statistics.fmean(ordered):.0f} median {statistics.median(ordered):.0f}"
        f" p95 {p95:.0f} max {ordered[-1]:.0f}"
    )


def measure(
    name: str, photos: list[Path], repeat: int, deadline_ms: float, dump: list[str] | None = None
) -> Split:
    """Read every photo ``repeat`` times (the best time counts) and score the first reading;
    each photo's reading is appended to ``dump`` as a TSV line when given."""
    split = Split(name)
    for photo in photos:
        data, truth = photo.read_bytes(), labels(photo)
        best, best_cpu = float("inf"), float("inf")
        for _ in range(repeat):
            started, cpu = time.perf_counter(), time.process_time()
            try:
                reading = read_photo(data, deadline_ms=deadline_ms)
            except PhotoError as exc:
                reading, refusal = None, exc.code
            best = min(best, (time.perf_counter() - started) * 1000)
            best_cpu = min(best_cpu, (time.process_time() - cpu) * 1000)
        split.photos += 1
        split.times_ms.append(best)
        split.cpu_ms.append(best_cpu)
        if dump is not None:
            what = f"{reading.puzzle}\t{reading.uncertain}" if reading else f"refused {refusal}"
            dump.append(f"{photo.name}\t{what}\n")
        if reading is None:
            split.refused += 1
            split.wrong_cells += 81
            split.misses.append(f"{photo.name}: refused ({refusal})")
            continue
        read = [int(ch) for ch in reading.puzzle]
        wrong = [i for i in range(81) if read[i] != truth[i]]
        split.cells_right += 81 - len(wrong)
        split.wrong_cells += len(wrong)
        split.wrong_marked += sum(1 for i in wrong if i in reading.uncertain)
        split.right_marked += sum(1 for i in reading.uncertain if i not in wrong)
        if not wrong:
            split.grids_right += 1
            continue
        flagged = reading.status != "unique" or any(i in reading.uncertain for i in wrong)
        split.wrong_grids_flagged += flagged
        split.misses.append(
            f"{photo.name}: {len(wrong)} wrong {[f'r{i // 9 + 1}c{i % 9 + 1}' for i in wrong]}"
            f" status {reading.status}{' flagged' if flagged else ' NOT FLAGGED'}"
        )
    return split


def main() -> None:
    """Measure both splits and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="reads per photo (best time)")
    parser.add_argument("--verbose", action="store_true", help="list every photo read wrong")
    parser.add_argument(
        "--deadline-ms",
        type=float,
        default=1500,
        help="each reading's deadline (the shipped 1500; raise it to see the reader's accuracy"
        " apart from a busy machine's delays, which leave readings unchecked)",
    )
    parser.add_argument("--test-only", action="store_true", help="the held-aside split alone")
    parser.add_argument(
        "--train-only", action="store_true", help="the training split alone (for tuning)"
    )
    parser.add_argument(
        "--dump",
        type=Path,
        default=None,
        help="write each photo's reading (puzzle, marked cells, or the refusal) to this TSV,"
        " to compare two trees photo by photo",
    )
    args = parser.parse_args()
    folder = photo_folder(args.photos)
    if folder is None or not folder.is_dir():
        print(f"No photos found (looked in {', '.join(map(str, CANDIDATES))}): nothing measured.")
        return
    train, test = held_aside(sorted(folder.glob("*.jpg")))
    print(
        f"photos: {folder} ({len(train) + len(test)}; held aside {len(test)});"
        f" deadline {args.deadline_ms:.0f} ms; load average {os.getloadavg()[0]:.1f}"
    )
    splits = [] if args.train_only else [("held-aside test split", test)]
    if not args.test_only:
        splits.append(("training split", train))
    dump: list[str] = []
    for name, photos in splits:
        split = measure(name, photos, args.repeat, args.deadline_ms, dump)
        print(split.line())
        if args.verbose:
            for miss in split.misses:
                print("   ", miss)
    if args.dump:
        args.dump.write_text("".join(dump))
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")


if __name__ == "__main__":
    main()
