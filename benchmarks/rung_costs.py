"""Where the ladder's time goes: CPU per rung, calls and finds, over a puzzle sample.

    python -m benchmarks.rung_costs                      # grade, 100 top1465 puzzles
    python -m benchmarks.rung_costs --explain --every 7  # explain, every 7th puzzle

Each rung of :data:`sudoku_web.core.techniques.TECHNIQUES` is wrapped in a timer (process
time) for the run, and :func:`sudoku_web.core.logic.grade` (the difficulty panel's work) or
:func:`~sudoku_web.core.logic.explain` (the steps page's) runs over every ``--every``-th
puzzle of ``--set`` (top1465 by default, the sample ``release_compare`` uses), with no
deadline. Prints the whole run's mean, median, p95 and max per puzzle, then per rung its CPU,
share, calls, steps found and CPU per call, dearest first. The timers add a little to each
call; compare two trees with the same command, alternately, on one machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence

from benchmarks.data_files import data_file
from sudoku_web.core import logic
from sudoku_web.core.board import standard
from sudoku_web.core.techniques import TECHNIQUES, Candidates, Step, Tables, Technique


def _timed(
    name: str,
    technique: Technique,
    spent: dict[str, float],
    calls: Counter[str],
    hits: Counter[str],
) -> Technique:
    def rung(cand: Candidates, tables: Tables) -> Step | None:
        started = time.process_time()
        step = technique(cand, tables)
        spent[name] += time.process_time() - started
        calls[name] += 1
        hits[name] += step is not None
        return step

    return rung


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sample with timed rungs and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="top1465", help="a puzzle file's name without .txt")
    parser.add_argument("--every", type=int, default=14, help="every Nth puzzle")
    parser.add_argument("--limit", type=int, default=100, help="at most this many puzzles")
    parser.add_argument("--explain", action="store_true", help="explain instead of grade")
    args = parser.parse_args(argv)
    lines = data_file(f"{args.set}.txt").read_text().splitlines()
    grids = [s.strip()[:81] for s in lines if s.strip() and not s.startswith("#")]
    sample = grids[:: args.every][: args.limit]
    spent: dict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    # The timed rungs replace the ladder logic reads, for this run only.
    timed = tuple((name, rung, _timed(name, f, spent, calls, hits)) for name, rung, f in TECHNIQUES)
    setattr(logic, "TECHNIQUES", timed)  # noqa: B010
    geometry = standard(9)
    work = logic.explain if args.explain else logic.grade
    times = []
    try:
        for grid in sample:
            started = time.process_time()
            work(grid, geometry)
            times.append((time.process_time() - started) * 1000)
    finally:
        setattr(logic, "TECHNIQUES", TECHNIQUES)  # noqa: B010
    times.sort()
    total = sum(times) / 1000
    print(
        f"{work.__name__} over {len(sample)} puzzles of {args.set} (every {args.every}th): "
        f"{total:.2f} s CPU; per puzzle mean {statistics.mean(times):.1f} ms, median "
        f"{statistics.median(times):.1f}, p95 {times[int(0.95 * (len(times) - 1))]:.1f}, "
        f"max {times[-1]:.1f}"
    )
    print(f"{'rung':34} {'CPU s':>7} {'share':>6} {'calls':>6} {'finds':>6} {'ms/call':>8}")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(
            f"{name:34} {seconds:7.3f} {seconds / total:6.1%} {calls[name]:6d} "
            f"{hits[name]:6d} {1000 * seconds / calls[name]:8.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
