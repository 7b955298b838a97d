"""Where the ladder's time goes: CPU per rung, calls and finds, and per stall, over a sample.

    python -m benchmarks.rung_costs                      # grade, 100 top1465 puzzles
    python -m benchmarks.rung_costs --explain --every 7  # explain, every 7th puzzle
    python -m benchmarks.rung_costs --base ef0b313       # and an earlier release's, after

Each rung of the ladder (``TECHNIQUES``) is wrapped in a timer (process time) for the run,
and ``grade`` (the difficulty panel's work) or ``explain`` (the steps page's) runs over
every ``--every``-th puzzle of ``--set`` (top1465 by default, the sample ``release_compare``
uses), with no deadline. Prints the whole run's mean, median, p95 and max per puzzle, then per
rung its CPU, share, calls, steps found and CPU per call, dearest first.

Then the *stalls*: the positions where every rung up to Hard found nothing, so the Fiendish
rungs were asked. Each stall is counted from its first Fiendish rung to the rung that found
a step, by what ended it (a Fiendish rung, forcing logic, or a guess when none found one),
with the CPU of those rungs: what a hard puzzle costs is mostly how often it stalls.

``--base REV`` runs the same command afterwards on ``git archive REV`` (with this tree's
Python and libraries), so two releases' stalls can be compared; a release from before
``sudoku_web.core`` (its ladder in ``sudoku_web.logic``) works too. The timers add a little
to each call; compare two trees with the same command, one after the other, on one machine.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# What ends a stall, in the order printed.
ENDINGS = ("Fiendish", "Diabolical", "guess")


class _Stalls:
    """The stall being counted and the totals, fed by the timed rungs."""

    def __init__(self) -> None:
        self.open = False  # a stall began and no rung has found a step since
        self.spent = 0.0
        self.count: Counter[str] = Counter()
        self.cpu: dict[str, float] = defaultdict(float)

    def rung(self, grade: str, seconds: float, found: bool) -> None:
        """One rung call: a Fiendish rung's call opens a stall unless one is open, and an
        easier rung's call ends an open one (no rung found a step there: a guess)."""
        if grade not in ("Fiendish", "Diabolical"):
            self.close("guess")
        elif not self.open:
            self.open = True
        if self.open:
            self.spent += seconds
            if found:
                self.close(grade)

    def close(self, ending: str) -> None:
        """End the open stall (if any) with ``ending``."""
        if self.open:
            self.count[ending] += 1
            self.cpu[ending] += self.spent
        self.open, self.spent = False, 0.0


def _timed(
    name: str,
    grade: str,
    technique: Callable[[Any, Any], Any],
    spent: dict[str, float],
    calls: Counter[str],
    hits: Counter[str],
    stalls: _Stalls,
) -> Callable[[Any, Any], Any]:
    def rung(cand: Any, tables: Any) -> Any:
        started = time.process_time()
        step = technique(cand, tables)
        seconds = time.process_time() - started
        spent[name] += seconds
        calls[name] += 1
        hits[name] += step is not None
        stalls.rung(grade, seconds, step is not None)
        return step

    return rung


def _ladder() -> tuple[Any, Any]:
    """The logic module and the board module of the tree first on ``sys.path``."""
    try:
        return (
            importlib.import_module("sudoku_web.core.logic"),
            importlib.import_module("sudoku_web.core.board"),
        )
    except ModuleNotFoundError:  # a release from before the core sub-package
        return importlib.import_module("sudoku_web.logic"), importlib.import_module(
            "sudoku_web.board"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sample with timed rungs and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="top1465", help="a puzzle file's name without .txt")
    parser.add_argument("--every", type=int, default=14, help="every Nth puzzle")
    parser.add_argument("--limit", type=int, default=100, help="at most this many puzzles")
    parser.add_argument("--explain", action="store_true", help="explain instead of grade")
    parser.add_argument("--base", help="then the same on this revision (git archive)")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # the archived tree (--base)
    args = parser.parse_args(argv)
    if args.tree:
        sys.path.insert(0, args.tree)
    from benchmarks.data_files import data_file

    logic, board = _ladder()
    lines = data_file(f"{args.set}.txt").read_text().splitlines()
    grids = [s.strip()[:81] for s in lines if s.strip() and not s.startswith("#")]
    sample = grids[:: args.every][: args.limit]
    spent: dict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    stalls = _Stalls()
    # The timed rungs replace the ladder logic reads, for this run only.
    ladder = logic.TECHNIQUES
    timed = tuple(
        (name, grade, _timed(name, grade, f, spent, calls, hits, stalls))
        for name, grade, f in ladder
    )
    setattr(logic, "TECHNIQUES", timed)  # noqa: B010
    geometry = board.standard(9)
    work = logic.explain if args.explain else logic.grade
    times = []
    try:
        for grid in sample:
            started = time.process_time()
            work(grid, geometry)
            stalls.close("guess")  # a stall still open at the end was ended by a guess
            times.append((time.process_time() - started) * 1000)
    finally:
        setattr(logic, "TECHNIQUES", ladder)  # noqa: B010
    times.sort()
    total = sum(times) / 1000
    print(
        f"{args.tree and f'[{args.base}] ' or ''}{work.__name__} over {len(sample)} puzzles "
        f"of {args.set} (every {args.every}th): {total:.2f} s CPU; per puzzle mean "
        f"{statistics.mean(times):.1f} ms, median {statistics.median(times):.1f}, p95 "
        f"{times[int(0.95 * (len(times) - 1))]:.1f}, max {times[-1]:.1f}"
    )
    print(f"{'rung':34} {'CPU s':>7} {'share':>6} {'calls':>6} {'finds':>6} {'ms/call':>8}")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(
            f"{name:34} {seconds:7.3f} {seconds / total:6.1%} {calls[name]:6d} "
            f"{hits[name]:6d} {1000 * seconds / calls[name]:8.3f}"
        )
    count = sum(stalls.count.values())
    print(f"\nstalls past the Hard rungs: {count}, {count / len(sample):.1f} per puzzle")
    print(f"{'ended by':20} {'stalls':>6} {'CPU s':>7} {'share':>6} {'ms/stall':>8}")
    for ending in ENDINGS:
        n, seconds = stalls.count[ending], stalls.cpu[ending]
        label = {"Diabolical": "forcing logic", "Fiendish": "a Fiendish rung"}.get(ending, ending)
        print(
            f"{label:20} {n:6d} {seconds:7.3f} {seconds / total:6.1%} "
            f"{1000 * seconds / n if n else 0:8.3f}"
        )
    if args.base and not args.tree:
        return _run_base(args.base, argv if argv is not None else sys.argv[1:])
    return 0


def _run_base(rev: str, argv: Sequence[str]) -> int:
    """This command again on ``git archive rev`` (its package first on the path)."""
    from benchmarks.release_compare import extract

    with tempfile.TemporaryDirectory() as into:
        tree = extract(rev, Path(into), "sudoku_web")
        print()
        sys.stdout.flush()
        command = [sys.executable, "-m", "benchmarks.rung_costs", *argv, "--tree", str(tree)]
        return subprocess.run(command, cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
