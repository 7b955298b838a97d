"""Typo-doctor benchmark: the full diagnosis of 9x9 puzzles with one mistyped given.

Run ``python -m benchmarks.doctor_bench`` (``--quick`` for the first 40 cases). The cases live
in ``benchmarks/data/doctor_cases.txt``; ``--regenerate`` rebuilds that file from the public
sets here (see :func:`build_cases` and ``benchmarks/data/SOURCES.md``). Each diagnosis runs
with the doctor's production defaults (deadline and node bounds), as a request would.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from benchmarks.data_files import data_file
from sudoku_web.core.board import format_puzzle, parse_puzzle, standard
from sudoku_web.core.doctor import Fix, diagnose
from sudoku_web.core.solver import solve

DATA = Path(__file__).parent / "data"
CASES_FILE = DATA / "doctor_cases.txt"
# Cases kept per source: 17-clue puzzles are minimal, and one altered given there mostly gives
# several solutions, not none; the denser magictour/Euler sets stand for typed-in puzzles.
QUOTAS = {
    "17clue.txt": 100,
    "top1465.txt": 150,
    "top95.txt": 20,
    "easy50.txt": 20,
    "hardest.txt": 10,
}
SEED = 7
MIN_GIVENS, MAX_GIVENS = 17, 30
QUICK = 40


def build_cases(seed: int = SEED) -> list[tuple[str, str, str]]:
    """(altered, original, origin) triples: one given changed so the puzzle has no solution.

    For each source in :data:`QUOTAS`, its puzzles with 17-30 givens (each has exactly one
    solution) are visited in a seeded shuffled order; each gets one altered given (a random
    given cell, a random symbol no peer given holds, so the result is not merely two equal
    givens in a house) and is kept when the solver says ``unsolvable``, until the source's
    quota is met or its puzzles run out. A puzzle already used (sources overlap) is skipped.
    """
    geo = standard(9)
    rng = random.Random(seed)
    cases: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for name, quota in QUOTAS.items():
        pool = []
        for number, line in enumerate(data_file(name).read_text().split(), start=1):
            if MIN_GIVENS <= sum(ch != "." for ch in line) <= MAX_GIVENS:
                pool.append((line, f"{name}:{number}"))
        rng.shuffle(pool)
        kept = 0
        for line, origin in pool:
            if kept == quota:
                break
            if line in seen:
                continue
            seen.add(line)
            grid = parse_puzzle(line, geo)
            cell = rng.choice([c for c, v in enumerate(grid) if v])
            taken = {grid[p] for p in geo.peers[cell]} | {grid[cell]}
            choices = [v for v in range(1, 10) if v not in taken]
            if not choices:
                continue
            grid[cell] = rng.choice(choices)
            if solve(grid, geometry=geo).status == "unsolvable":
                cases.append((format_puzzle(grid), line, origin))
                kept += 1
    # Interleave the sources so --quick sees all of them.
    rng.shuffle(cases)
    return cases


def write_cases(cases: list[tuple[str, str, str]]) -> None:
    """Save the cases, one ``altered original origin`` line each."""
    CASES_FILE.write_text("".join(f"{a} {o} {origin}\n" for a, o, origin in cases))


def read_cases() -> list[tuple[str, str, str]]:
    """The saved cases (see :func:`write_cases`)."""
    rows = []
    for line in CASES_FILE.read_text().splitlines():
        altered, original, origin = line.split()
        rows.append((altered, original, origin))
    return rows


def percentile(sorted_values: list[float], share: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    rank = max(1, round(share * len(sorted_values) + 0.4999))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures; non-zero exit if a diagnosis is wrong."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"only the first {QUICK} cases")
    parser.add_argument("--regenerate", action="store_true", help="rebuild doctor_cases.txt")
    args = parser.parse_args(argv)
    if args.regenerate or not CASES_FILE.exists():
        started = time.perf_counter()
        write_cases(build_cases())
        print(f"wrote {CASES_FILE} in {time.perf_counter() - started:.1f} s")
    cases = read_cases()[:QUICK] if args.quick else read_cases()
    geo = standard(9)
    seconds: list[float] = []
    sizes: list[int] = []
    fixes: list[int] = []
    complete = wrong = 0
    for altered, original, origin in cases:
        bad, good = parse_puzzle(altered, geo), parse_puzzle(original, geo)
        cell = next(c for c in range(81) if bad[c] != good[c])
        started = time.perf_counter()
        found = diagnose(bad, geo)
        seconds.append(time.perf_counter() - started)
        complete += found.complete
        sizes.append(len(found.conflict))
        fixes.append(len(found.fixes))
        if found.complete and Fix(cell, bad[cell], good[cell]) not in found.fixes:
            wrong += 1
            print(f"wrong: {origin} {altered}: the original symbol is not among the fixes")
    seconds.sort()
    n = len(cases)
    print(f"cases: {n} (9x9, {MIN_GIVENS}-{MAX_GIVENS} givens, one given altered)")
    print(
        f"seconds: mean {statistics.mean(seconds):.3f}  median {statistics.median(seconds):.3f}"
        f"  p95 {percentile(seconds, 0.95):.3f}  max {seconds[-1]:.3f}"
    )
    print(f"complete: {complete}/{n} ({100 * complete / n:.1f}%)")
    sizes_sorted = sorted(sizes)
    print(
        f"conflict size: mean {statistics.mean(sizes):.1f}  median {statistics.median(sizes):g}"
        f"  min {sizes_sorted[0]}  max {sizes_sorted[-1]}"
    )
    print(f"fixes per puzzle: mean {statistics.mean(fixes):.1f}  max {max(fixes)}")
    print(f"original symbol among the fixes (complete answers): {complete - wrong}/{complete}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
