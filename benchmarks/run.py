"""Benchmark the engine against a Norvig baseline and MiniSat, in one run.

``python -m benchmarks.run`` (``make bench``) or ``--quick`` (``make bench-quick``). For each
puzzle set it prints: puzzles solved and verified, puzzles/s, mean / median / p99 / max ms
per puzzle, peak RSS, and the same job's rate for the baseline (Norvig, first solution only)
and for MiniSat (first solution plus a second call that proves uniqueness). The engine always
checks uniqueness. Its short runs are noisy on a shared 2-core box, so it is timed over
several passes: the rate is from the median pass, the per-puzzle figures are each puzzle's
median over the passes; the references are timed over passes too (median). All times are
process CPU time (``time.process_time``), so other programs on the box slow the figures down
(shared caches, turbo) but do not count their own time as ours. Figures are ratios first;
absolute numbers move with the machine.
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.solver import solve, verify

from . import norvig
from .data_files import data_file
from .machine import cpu_model

SETS = ["easy50", "top95", "hardest", "top1465", "17clue"]
# Sets too big to run the (slow) references on whole: they get an evenly spaced sample.
REFERENCE_SAMPLE = {"17clue": 2000}
QUICK_LIMIT = {"top1465": 300, "17clue": 3000}


@dataclass
class Row:
    """One set's figures."""

    name: str
    count: int
    ok: int
    rate: float
    pass_seconds: list[float]
    per_puzzle_ms: list[float]
    rss_mb: float
    traced_kb: float
    norvig_rate: float
    norvig_n: int
    sat_rate: float
    sat_n: int


def load(name: str, limit: int | None = None) -> list[str]:
    """The puzzles of ``benchmarks/data/<name>.txt``, at most ``limit``."""
    lines = [ln.strip() for ln in data_file(f"{name}.txt").read_text().splitlines() if ln.strip()]
    return lines[:limit] if limit else lines


def sample(puzzles: list[str], size: int | None) -> list[str]:
    """An evenly spaced sample (all of them when ``size`` is None or large enough)."""
    if size is None or size >= len(puzzles):
        return puzzles
    step = len(puzzles) / size
    return [puzzles[int(i * step)] for i in range(size)]


def engine_pass(puzzles: list[str]) -> tuple[float, list[float], int]:
    """One timed pass: total seconds, ms per puzzle, puzzles solved uniquely and verified."""
    geo = standard(9)
    times: list[float] = []
    solutions: list[str | None] = []
    clock = time.process_time
    start = clock()
    for p in puzzles:
        t0 = clock()
        result = solve(p)
        times.append((clock() - t0) * 1000)
        solutions.append(result.solution)
    seconds = clock() - start
    # solve() verified every solution already; check again here, independently of its
    # status, outside the timed loop (the references are timed without such a check).
    ok = sum(
        verify(parse_puzzle(s), parse_puzzle(p), geo)
        for p, s in zip(puzzles, solutions, strict=True)
        if s is not None
    )
    return seconds, times, ok


def reference_rate(
    puzzles: list[str], job: Callable[[str], bool], passes: int
) -> tuple[float, int]:
    """Puzzles/s of a reference solver over ``puzzles`` (median of ``passes``); how many right."""
    seconds = []
    ok = 0
    for _ in range(passes):
        ok = 0
        start = time.process_time()
        for p in puzzles:
            ok += job(p)
        seconds.append(time.process_time() - start)
    return len(puzzles) / statistics.median(seconds), ok


def run_set(name: str, passes: int, ref_passes: int, quick: bool, with_sat: bool) -> Row:
    """All figures for one set."""
    puzzles = load(name, QUICK_LIMIT.get(name) if quick else None)
    solve(puzzles[0])  # build the 9x9 tables outside the timed passes
    totals: list[float] = []
    per_puzzle: list[list[float]] = []
    ok = 0
    for _ in range(passes):
        seconds, times, ok = engine_pass(puzzles)
        totals.append(seconds)
        per_puzzle.append(times)
    medians = [statistics.median(ts) for ts in zip(*per_puzzle, strict=True)]
    tracemalloc.start()
    for p in puzzles[:200]:
        solve(p)
    traced = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    ref = sample(puzzles, REFERENCE_SAMPLE.get(name))
    norvig_rate, _ = reference_rate(ref, lambda p: norvig.solve(p) is not None, ref_passes)
    sat_rate = 0.0
    if with_sat:
        from .sat import SatSolver

        sat = SatSolver()
        try:
            sat_rate, _ = reference_rate(ref, lambda p: sat.count(p)[0] == 1, ref_passes)
        finally:
            sat.close()
    return Row(
        name,
        len(puzzles),
        ok,
        len(puzzles) / statistics.median(totals),
        totals,
        medians,
        rss,
        traced,
        norvig_rate,
        len(ref),
        sat_rate,
        len(ref),
    )


def report(rows: list[Row]) -> str:
    """A Markdown table of the rows."""
    out = [
        "| set | solved+verified | engine puzzles/s | mean ms | median ms | p99 ms | max ms "
        "| median pass s | Norvig puzzles/s | engine / Norvig | MiniSat puzzles/s "
        "| engine / MiniSat | peak RSS MB | traced peak KB |",
        "|---" * 14 + "|",
    ]
    for r in rows:
        ms = sorted(r.per_puzzle_ms)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        sampled = "" if r.norvig_n == r.count else f" (sample of {r.norvig_n})"
        sat = f"{r.sat_rate:,.0f}{sampled}" if r.sat_rate else "-"
        sat_ratio = f"{r.rate / r.sat_rate:.2f}x" if r.sat_rate else "-"
        out.append(
            f"| {r.name} | {r.ok}/{r.count} | {r.rate:,.0f} | {statistics.fmean(ms):.3f} "
            f"| {statistics.median(ms):.3f} | {p99:.3f} | {ms[-1]:.2f} "
            f"| {statistics.median(r.pass_seconds):.2f} | {r.norvig_rate:,.0f}{sampled} "
            f"| {r.rate / r.norvig_rate:.1f}x | {sat} | {sat_ratio} | {r.rss_mb:.0f} "
            f"| {r.traced_kb:.0f} |"
        )
    return "\n".join(out)


def machine() -> str:
    """nproc, CPU model and Python version, for the record."""
    import os

    model = cpu_model() or "unknown CPU"
    return (
        f"{os.cpu_count()} CPUs ({model}), {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()} {platform.release()}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sets, fewer passes")
    parser.add_argument("--passes", type=int, default=None, help="engine passes per set")
    parser.add_argument(
        "--ref-passes", type=int, default=None, help="Norvig and MiniSat passes per set"
    )
    parser.add_argument("--sets", nargs="+", choices=SETS, default=SETS)
    parser.add_argument("--no-sat", action="store_true", help="skip the MiniSat reference")
    args = parser.parse_args(argv)
    passes = args.passes or (3 if args.quick else 5)
    ref_passes = args.ref_passes or (1 if args.quick else 3)
    with_sat = not args.no_sat
    if with_sat:
        try:
            import pysat  # noqa: F401
        except ImportError:
            print("python-sat is not installed (pip install '.[bench]'): skipping MiniSat")
            with_sat = False
    print(f"machine: {machine()}")
    print(
        f"engine passes per set: {passes}, reference passes: {ref_passes}; uniqueness checked"
        " and every solution verified; process CPU time"
    )
    rows = []
    for name in args.sets:
        row = run_set(name, passes, ref_passes, args.quick, with_sat)
        rows.append(row)
        median_s = statistics.median(row.pass_seconds)
        print(f"  {name}: {row.ok}/{row.count} in {median_s:.2f} s ({row.rate:,.0f}/s)", flush=True)
    print()
    print(report(rows))
    failed = sum(r.count - r.ok for r in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
