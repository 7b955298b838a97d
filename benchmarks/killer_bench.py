"""Killers: the engine (uniqueness proven) against OR-tools CP-SAT counting to two solutions.

``python -m benchmarks.killer_bench`` (part of ``make bench``; ``--quick`` for fewer rounds).
Sets: ``killer_krazydad.txt`` (100 published 9x9 killers, no givens; ``--shared FILE``
runs another file of that format instead, such as the 1,000 of
``../shared/puzzles/killer_krazydad.txt``) and ``killer_generated.txt`` (killers of other
boards made by :mod:`sudoku_web.core.cage_maker`: 4x4, 6x6, killer-X 9x9, killer jigsaw
9x9; ``--regenerate`` remakes it, and keeps only those CP-SAT also finds unique).

Each engine runs in its own process (so each one's peak RSS is its own), the two alternating
within each round, ``--rounds`` rounds. CP-SAT gets one worker and stops at the second
solution; its time per puzzle includes building the model (a few Python calls per house and
cage), like the engine's includes its own setup; CP-SAT's own ``wall_time`` is reported too.
Per puzzle, the median over rounds; per round, the total (the spread is over rounds). Wall
time (``time.perf_counter``): on a loaded box both engines suffer alike. Figures go in
``benchmarks/RESULTS.md`` ("Killer engine").
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_web.core.board import Geometry, standard, x_sudoku
from sudoku_web.core.cages import from_link, link_spelling, parse_cages
from sudoku_web.core.solver import solve, verify

DATA = Path(__file__).parent / "data"
KRAZYDAD = DATA / "killer_krazydad.txt"
GENERATED = DATA / "killer_generated.txt"
# Every solve of ours should come in under this (the product's request budget is 300 ms).
GOAL_MS = 300.0


def load(path: Path) -> list[tuple[Geometry, str]]:
    """(board with cages, solution) per line: KrazyDad's ``cagemap:sums:solution`` lines, or
    the generated set's ``variant size regions cages solution`` lines."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        if ":" in line:
            cagemap, sums, solution = line.split(":")
            board = standard(9)
            out.append((board.with_cages(parse_cages(f"{cagemap}:{sums}", board)), solution))
            continue
        variant, size, regions, cages, solution = line.split()
        board = _board(variant, int(size), regions)
        out.append((board.with_cages(from_link(cages, board)), solution))
    return out


def _board(variant: str, size: int, regions: str) -> Geometry:
    from sudoku_web.core.variants import find_variant

    return find_variant(variant).geometry(size, None if regions == "-" else regions)


def ours(boards: Sequence[tuple[Geometry, str]]) -> list[tuple[float, float]]:
    """(ms, ms) per puzzle: the engine's solve with uniqueness (twice: same figure)."""
    times = []
    for board, solution in boards:
        started = time.perf_counter()
        result = solve("." * board.cells, geometry=board, deadline_ms=None)
        ms = (time.perf_counter() - started) * 1000
        if result.status != "solved" or result.solution != solution:
            raise AssertionError(f"engine: {result.status} on {link_spelling(board.cages, board)}")
        times.append((ms, ms))
    return times


def cpsat(boards: Sequence[tuple[Geometry, str]]) -> list[tuple[float, float]]:
    """(ms with the model's build, CP-SAT's own wall ms) per puzzle, counting to two."""
    times = []
    for board, solution in boards:
        started = time.perf_counter()
        count, first, wall = cpsat_count(board)
        ms = (time.perf_counter() - started) * 1000
        if count != 1 or first != solution:
            raise AssertionError(
                f"CP-SAT: {count} solutions on {link_spelling(board.cages, board)}"
            )
        times.append((ms, wall * 1000))
    return times


def cpsat_count(board: Geometry) -> tuple[int, str, float]:
    """(solutions found, at most 2; the first as text; CP-SAT's wall seconds)."""
    from ortools.sat.python import cp_model

    n = board.size
    model = cp_model.CpModel()
    cell = [model.new_int_var(1, n, f"c{i}") for i in range(board.cells)]
    for house in board.houses:
        model.add_all_different([cell[c] for c in house.cells])
    for cage in board.cages:
        members = [cell[c] for c in cage.cells]
        model.add_all_different(members)
        model.add(sum(members) == cage.total)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[str] = []

        def on_solution_callback(self) -> None:
            values = [self.value(v) for v in cell]
            self.found.append("".join(board.symbol(v) for v in values))
            if len(self.found) >= 2:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    counter = Counter()
    solver.solve(model, counter)
    first = counter.found[0] if counter.found else ""
    return len(counter.found), first, solver.wall_time


ENGINES = {"ours": ours, "cpsat": cpsat}


def worker(engine: str, path: Path) -> None:
    """One engine over one set in this process; prints JSON (times, peak RSS in MB)."""
    boards = load(path)
    run = ENGINES[engine]
    run(boards[:2])  # warm: imports and the board's tables, for both alike
    times = run(boards)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"times": times, "rss_mb": rss}))


def _round(engine: str, path: Path) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks.killer_bench", "--worker", engine, str(path)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def compare(path: Path, rounds: int) -> None:
    """Alternate the two engines ``rounds`` times on ``path``; print the figures."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in ENGINES}
    for r in range(rounds):
        order = list(ENGINES) if r % 2 == 0 else list(reversed(ENGINES))
        for name in order:
            runs[name].append(_round(name, path))
    count = len(runs["ours"][0]["times"])
    print(f"\n{path.name}: {count} killers, {rounds} rounds (engines alternating)")
    header = "engine  total s per round (min-max)    mean   median    p99     max  ms   peak RSS MB"
    print(header)
    for name, results in runs.items():
        for column, label in ((0, name), (1, "  (CP-SAT's own wall)")):
            if name == "ours" and column == 1:
                continue
            totals = [sum(t[column] for t in res["times"]) / 1000 for res in results]
            per = [
                statistics.median(res["times"][i][column] for res in results) for i in range(count)
            ]
            per.sort()
            p99 = per[min(len(per) - 1, int(0.99 * len(per)))]
            rss = max(res["rss_mb"] for res in results)
            spread = f"({min(totals):.2f}-{max(totals):.2f})"
            print(
                f"{label:<22} {statistics.median(totals):7.2f} {spread}"
                f"  {statistics.mean(per):6.1f} {statistics.median(per):7.1f} {p99:7.1f} "
                f"{per[-1]:7.1f}      {rss:6.0f}"
            )
    slow = [t for res in runs["ours"] for t, _ in res["times"] if t > GOAL_MS]
    print(f"ours over {GOAL_MS:.0f} ms: {len(slow)} of {count * rounds} solves")


def regenerate(per_kind: int = 20) -> None:
    """Remake the generated set: ``per_kind`` killers per kind, seeds 0.., each one kept only
    when CP-SAT also finds exactly one solution (its solution ours)."""
    from sudoku_web.core import cage_maker
    from sudoku_web.core.board import region_text
    from sudoku_web.core.generate import random_jigsaw, solution_grid

    kinds: list[tuple[str, int]] = [("standard", 4), ("standard", 6), ("x", 9), ("jigsaw", 9)]
    lines = []
    for variant, size in kinds:
        kept = 0
        seed = 0
        while kept < per_kind:
            rng = random.Random(f"{variant}-{size}-{seed}")
            seed += 1
            if variant == "jigsaw":
                board = random_jigsaw(size, rng)
            else:
                board = x_sudoku(size) if variant == "x" else standard(size)
            grid = solution_grid(board, rng)
            if grid is None:
                continue
            cages = cage_maker.partition(grid, board, rng, cage_maker.SIZE_WEIGHTS["Hard"])
            found = cage_maker.unique(cages, grid, board, rng)
            if found is None:
                continue
            caged = board.with_cages(found)
            solution = "".join(board.symbol(v) for v in grid)
            count, first, _ = cpsat_count(caged)
            if count != 1 or first != solution or not verify(grid, [0] * board.cells, caged):
                continue
            regions = region_text(board.regions) if board.regions else "-"
            link = link_spelling(caged.cages, caged)
            lines.append(f"{variant} {size} {regions} {link} {solution}")
            kept += 1
    GENERATED.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} killers to {GENERATED}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=2, metavar=("ENGINE", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3 rounds")
    parser.add_argument(
        "--shared", type=Path, metavar="FILE", help="9x9 killers in the same format instead"
    )
    parser.add_argument("--regenerate", action="store_true", help="remake the generated set")
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[0], Path(args.worker[1]))
        return
    if args.regenerate:
        regenerate()
        return
    rounds = 3 if args.quick else args.rounds
    nine = args.shared or KRAZYDAD
    for path in (nine, GENERATED):
        compare(path, rounds)


if __name__ == "__main__":
    main()
