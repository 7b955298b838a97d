"""Generation benchmark: per kind and grade, time, attempts and clue counts; then the web path.

Run ``python -m benchmarks.generate_bench`` (``--quick``: fewer seeds). Two tables:

1. **Live generation** (:func:`sudoku_web.core.generate.generate`, no deadline, up to
   ``--attempts`` solution grids per puzzle) for seeds ``0 .. N-1``: how often the grade was
   reached, p50 / p95 / max wall time, attempts per puzzle and clue counts. The baseline
   column is one attempt (one solution grid carved and graded, whatever its grade), so a
   figure reads as "so many attempts' worth".
   ``cpu`` columns are this process's CPU time (``time.process_time``): on a machine shared
   with other work they show what the wall times would be on an idle one.
2. **The web** (``GET /api/generate`` through Flask's test client, the route people and the
   New puzzle form use): p50 / p95 / max per request and how many answers were live or from
   the pool, for every kind and grade the form offers. The target: every one under a second.

Peak memory (max RSS of this process) is printed at the end.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from dataclasses import dataclass, field

from sudoku_web.core.generate import generate
from sudoku_web.core.logic import GRADES
from sudoku_web.core.pool import KINDS

QUICK_SEEDS = 8
SEEDS = 40
# 16x16: one attempt takes seconds, so fewer seeds and only the grades it reaches quickly.
SEEDS_16 = 4
GRADES_16 = ("Easy", "Medium")


@dataclass
class Row:
    """Figures of one kind and grade."""

    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)
    clues: list[int] = field(default_factory=list)
    reached: int = 0
    one_attempt_ms: list[float] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def live(seeds: int, attempts: int, kinds: list[tuple[str, int]]) -> None:
    """Table 1: the generator itself."""
    print(f"Live generation: seeds 0..{seeds - 1}, up to {attempts} attempts, no deadline")
    head = f"{'kind':<12} {'grade':<10} {'reached':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
    print(
        f"{head} {'cpu p50':>8} {'cpu p95':>8} {'att.mean':>8} {'clues p50':>9} {'min-max':>8} "
        f"{'1 att ms':>8}"
    )
    for variant, size in kinds:
        big = size > 9
        for asked in GRADES_16 if big else GRADES:
            row = Row()
            for seed in range(SEEDS_16 if big else seeds):
                started, cpu = time.perf_counter(), time.process_time()
                found = generate(variant, size, asked, seed=seed, max_attempts=attempts)
                row.times_ms.append((time.perf_counter() - started) * 1000)
                row.cpu_ms.append((time.process_time() - cpu) * 1000)
                row.attempts.append(found.attempts)
                if found.reached:
                    row.reached += 1
                    row.clues.append(found.clues)
                one = generate(variant, size, asked, seed=f"one:{seed}", max_attempts=1)
                row.one_attempt_ms.append(one.elapsed_ms)
            n = len(row.times_ms)
            clues = (
                f"{statistics.median(row.clues):>9.0f} {min(row.clues):>3}-{max(row.clues):<4}"
                if row.clues
                else f"{'-':>9} {'-':>8}"
            )
            print(
                f"{variant + '-' + str(size):<12} {asked:<10} {row.reached:>4}/{n:<3} "
                f"{pct(row.times_ms, 0.5):>8.0f} {pct(row.times_ms, 0.95):>8.0f} "
                f"{max(row.times_ms):>8.0f} "
                f"{pct(row.cpu_ms, 0.5):>8.0f} {pct(row.cpu_ms, 0.95):>8.0f} "
                f"{statistics.mean(row.attempts):>8.1f} {clues} "
                f"{statistics.median(row.one_attempt_ms):>8.0f}",
                flush=True,
            )


def web(seeds: int, kinds: list[tuple[str, int]]) -> None:
    """Table 2: ``GET /api/generate`` for every kind and grade the form offers."""
    from sudoku_web import create_app

    # A fresh app without the result cache: every request generates.
    client = create_app({"TESTING": True, "RESULT_CACHE_SIZE": 0}).test_client()
    print(f"\nGET /api/generate: seeds 0..{seeds - 1} per kind and grade (no cache)")
    print(f"{'kind':<12} {'grade':<10} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  answers")
    worst = 0.0
    for variant, size in kinds:
        for asked in GRADES:
            row = Row()
            for seed in range(seeds):
                url = f"/api/generate?variant={variant}&size={size}&grade={asked}&seed={seed}"
                started = time.perf_counter()
                response = client.get(url)
                row.times_ms.append((time.perf_counter() - started) * 1000)
                body = response.get_json()
                label = body.get("source", str(response.status_code))
                row.sources[label] = row.sources.get(label, 0) + 1
            worst = max(worst, max(row.times_ms))
            answers = ", ".join(f"{k} {v}" for k, v in sorted(row.sources.items()))
            print(
                f"{variant + '-' + str(size):<12} {asked:<10} {pct(row.times_ms, 0.5):>8.0f} "
                f"{pct(row.times_ms, 0.95):>8.0f} {max(row.times_ms):>8.0f}  {answers}",
                flush=True,
            )
    print(f"slowest request: {worst:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SEEDS} seeds per row")
    parser.add_argument("--seeds", type=int, default=None, help=f"seeds per row ({SEEDS})")
    parser.add_argument("--attempts", type=int, default=200, help="live attempts per puzzle")
    parser.add_argument("--web-only", action="store_true", help="only the web table")
    parser.add_argument(
        "--kind", action="append", default=None, help="only this kind, e.g. standard-9"
    )
    args = parser.parse_args()
    seeds = args.seeds or (QUICK_SEEDS if args.quick else SEEDS)
    kinds = list(KINDS)
    if args.kind:
        kinds = [(v, n) for v, n in KINDS if f"{v}-{n}" in args.kind]
    started = time.perf_counter()
    if not args.web_only:
        live(seeds, args.attempts, kinds)
    web(seeds, kinds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\ntotal {time.perf_counter() - started:.0f} s, peak memory {peak:.0f} MB (max RSS)")


if __name__ == "__main__":
    main()
