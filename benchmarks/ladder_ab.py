"""The ladder of an earlier commit against this tree's, in one process, rung by rung.

    python -m benchmarks.ladder_ab --base 35881bd               # grade, 100 top1465, 1 round
    python -m benchmarks.ladder_ab --base main --mode explain --rounds 3

On a machine shared with other work, two processes run one after the other differ by a fifth
or more from load alone, more than most single changes to a rung. Here both ladders live in
one process: the base's ``sudoku_web/core`` (``git archive``) and this tree's are copied into a
temporary directory under two other package names (the core imports only relatively), and
for each puzzle of the sample (every ``--every``-th puzzle of ``--set``, top1465 unless told,
from the first, at most ``--count``) both trees grade (or explain) it one right after the
other, the order swapped every puzzle.
Each rung's CPU (``time.process_time``) is summed per tree. The two must agree on every
puzzle (grade, hardest technique and guesses; for explain, every step's technique, sentence,
cells, placements, eliminations and links), else the run stops: a speed change may not
change a step.

Prints per tree the mean, p95 and max CPU per puzzle over all rounds, and the rungs whose
total moved most. Figures go in ``benchmarks/RESULTS.md``.

With ``--deadline-ms N`` each run gets that deadline (as the web's pages do), and each tree's
wall time past it is printed too (how well the deadline is kept); two runs must then agree
only when neither was cut short, since where a deadline cuts depends on the moment.
"""

from __future__ import annotations

import argparse
import importlib
import math
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.data_files import data_file
from benchmarks.release_compare import extract

ROOT = Path(__file__).resolve().parent.parent
# The package names the two copies are imported under.
PACKAGES = {"base": "ladder_ab_base", "this": "ladder_ab_this"}


def copy_trees(rev: str, into: Path) -> None:
    """Copy the base commit's ``sudoku_web/core`` and this tree's into ``into`` as two
    packages (:data:`PACKAGES`), importable once ``into`` is on ``sys.path``.

    This tree is copied too rather than imported where it is: measured against itself, the
    installed package ran 3-12% slower per rung than a copy, on every rung alike."""
    (extract(rev, into / "base", "sudoku_web/core") / "sudoku_web").rename(into / PACKAGES["base"])
    shutil.copytree(
        ROOT / "sudoku_web" / "core",
        into / PACKAGES["this"] / "core",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for package in PACKAGES.values():
        (into / package / "__init__.py").write_text("")


def timed(logic: Any, spent: defaultdict[str, float]) -> None:
    """Wrap every rung of ``logic``'s ladder so that its CPU adds up in ``spent``."""

    def wrap(name: str, rung: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        def run(cand: Any, t: Any) -> Any:
            start = time.process_time()
            try:
                return rung(cand, t)
            finally:
                spent[name] += time.process_time() - start

        return run

    logic.TECHNIQUES = tuple((n, g, wrap(n, f)) for n, g, f in logic.TECHNIQUES)


def fingerprint(result: Any, mode: str) -> object:
    """What must agree between the trees: the grade's verdict, or every step of explain."""
    if mode == "grade":
        return (result.grade, result.hardest, result.guesses)
    return [
        (
            s.technique,
            s.sentence,
            [h.name for h in s.houses],
            s.cells,
            s.placements,
            s.eliminations,
            s.links,
        )
        for s in result.steps
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the commit to compare against")
    parser.add_argument("--mode", choices=("grade", "explain"), default="grade")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--set", default="top1465", help="a puzzle file's name without .txt")
    parser.add_argument("--every", type=int, default=14, help="every Nth puzzle of the set")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--deadline-ms", type=float, default=None, help="each run's deadline")
    args = parser.parse_args(argv)

    lines = data_file(f"{args.set}.txt").read_text().splitlines()
    grids = [line.strip()[:81] for line in lines if line.strip() and not line.startswith("#")]
    sample = grids[:: args.every][: args.count]
    with tempfile.TemporaryDirectory() as tmp:
        copy_trees(args.base, Path(tmp))
        sys.path.insert(0, tmp)
        for name in [m for m in sys.modules if m.split(".")[0] in PACKAGES.values()]:
            del sys.modules[name]  # a run before this one's copies, in the same process
        trees = {s: importlib.import_module(f"{p}.core.logic") for s, p in PACKAGES.items()}
        geometries = {
            s: importlib.import_module(f"{p}.core.board").standard(9) for s, p in PACKAGES.items()
        }
        spent: dict[str, defaultdict[str, float]] = {side: defaultdict(float) for side in trees}
        per: dict[str, list[float]] = {side: [] for side in trees}
        past: dict[str, list[float]] = {side: [] for side in trees}  # wall ms past the deadline
        for side, logic in trees.items():
            timed(logic, spent[side])
        for r in range(args.rounds):
            for k, grid in enumerate(sample):
                order = ("base", "this") if (k + r) % 2 == 0 else ("this", "base")
                seen = []
                for side in order:
                    logic = trees[side]
                    run = logic.grade if args.mode == "grade" else logic.explain
                    start, wall = time.process_time(), time.perf_counter()
                    result = run(grid, geometries[side], deadline_ms=args.deadline_ms)
                    per[side].append(time.process_time() - start)
                    if args.deadline_ms is not None:
                        elapsed = 1000 * (time.perf_counter() - wall)
                        past[side].append(elapsed - args.deadline_ms)
                    seen.append(None if result.cut_short else fingerprint(result, args.mode))
                if None not in seen and seen[0] != seen[1]:
                    print(f"{args.set} #{k * args.every}: the trees disagree", file=sys.stderr)
                    return 1
    print(f"{args.mode}, {len(sample)} {args.set} puzzles x {args.rounds} rounds, base {args.base}")
    for side in trees:
        times = sorted(per[side])
        p95 = times[math.ceil(len(times) * 0.95) - 1]
        mean = sum(times) / len(times)
        print(
            f"  {side:5s} mean {1000 * mean:6.1f} ms  p95 {1000 * p95:6.1f} ms  "
            f"max {1000 * times[-1]:6.0f} ms"
        )
        if past[side]:
            over = sorted(past[side])
            late = sum(1 for ms in over if ms > 0)
            print(
                f"        wall time past the {args.deadline_ms:g} ms deadline: {late} runs, "
                f"p95 {over[math.ceil(len(over) * 0.95) - 1]:6.1f} ms  max {over[-1]:6.1f} ms"
            )
    names = set(spent["base"]) | set(spent["this"])
    moved = sorted(names, key=lambda n: -abs(spent["this"][n] - spent["base"][n]))
    print(f"  {'rung':32s} {'base s':>8s} {'this s':>8s}  ratio")
    for name in moved[:15]:
        before, after = spent["base"][name], spent["this"][name]
        ratio = f"{after / before:5.2f}" if before else "  -"
        print(f"  {name:32s} {before:8.3f} {after:8.3f}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
