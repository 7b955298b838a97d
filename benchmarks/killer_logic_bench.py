"""Explain reach on killers: share explained to the end without a guess, techniques, time.

Run ``python -m benchmarks.killer_logic_bench`` (``--limit N`` for the first N puzzles of
each set). Sets: the 100-killer sample ``benchmarks/data/killer_krazydad.txt`` and, when
the shared data is there (``../shared/puzzles/killer_krazydad.txt`` beside the repository or
beside its worktree folder, or ``--shared PATH``), all 1,000 published killers it samples.
Each line is ``cagemap:sums:solution`` (see ``benchmarks/data/SOURCES.md``); each puzzle is
explained with :func:`sudoku_web.core.logic.explain` given its solution, every step is
checked against that solution (an eliminated solution digit or a wrong placement counts as
unsound), and the fast grade :func:`sudoku_web.core.logic.grade` is checked against the
explanation's. Times are wall and CPU (this process's) per puzzle: mean, median, p95, max;
on a machine shared with other work the CPU figures are the ones to compare.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.logic_bench import usage_table
from sudoku_web.core.board import Geometry, standard
from sudoku_web.core.cages import parse_cages
from sudoku_web.core.logic import explain, grade

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "benchmarks" / "data" / "killer_krazydad.txt"
SHARED = ("shared/puzzles/killer_krazydad.txt",)


@dataclass
class Figures:
    """What one set of killers adds up to."""

    name: str
    puzzles: int = 0
    by_logic: int = 0
    unsound: int = 0
    steps: int = 0
    grade_mismatches: int = 0
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    grade_ms: list[float] = field(default_factory=list)
    grade_cpu_ms: list[float] = field(default_factory=list)
    techniques: Counter[str] = field(default_factory=Counter)
    puzzles_using: Counter[str] = field(default_factory=Counter)
    grades: Counter[str] = field(default_factory=Counter)
    missed: list[int] = field(default_factory=list)  # 1-based lines with a guess


def read_killer(line: str) -> tuple[Geometry, list[int]]:
    """A ``cagemap:sums:solution`` line as a board with cages and its solution."""
    cage_map, sums, solution = line.strip().split(":")
    nine = standard(9)
    return nine.with_cages(parse_cages(f"{cage_map}:{sums}", nine)), [int(ch) for ch in solution]


def shared_file(given: str | None) -> Path | None:
    """The shared 1,000-killer file, if it is at hand."""
    if given:
        return Path(given)
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / SHARED[0]
        if path.exists():
            return path
    return None


def run(name: str, lines: list[str]) -> Figures:
    """Explain and grade every killer of a set; count and time."""
    figures = Figures(name)
    for number, line in enumerate(lines, 1):
        geometry, solution = read_killer(line)
        grid = [0] * geometry.cells
        started, cpu = time.perf_counter(), time.process_time()
        explanation = explain(grid, geometry, solution=solution)
        figures.wall_ms.append((time.perf_counter() - started) * 1000)
        figures.cpu_ms.append((time.process_time() - cpu) * 1000)
        started, cpu = time.perf_counter(), time.process_time()
        graded = grade(grid, geometry, solution=solution)
        figures.grade_ms.append((time.perf_counter() - started) * 1000)
        figures.grade_cpu_ms.append((time.process_time() - cpu) * 1000)
        figures.grade_mismatches += (graded.grade, graded.hardest, graded.guesses) != (
            explanation.grade,
            explanation.hardest,
            explanation.guesses,
        )
        figures.puzzles += 1
        figures.by_logic += explanation.solved_by_logic
        if not explanation.solved_by_logic:
            figures.missed.append(number)
        figures.steps += len(explanation.steps)
        figures.grades[explanation.grade] += 1
        for step in explanation.steps:
            figures.unsound += sum(1 for c, d in step.eliminations if solution[c] == d)
            figures.unsound += sum(1 for c, d in step.placements if solution[c] != d)
        figures.unsound += explanation.status != "solved"
        figures.techniques.update(explanation.technique_counts)
        figures.puzzles_using.update(explanation.technique_counts.keys())
    return figures


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _times(values: list[float]) -> str:
    return (
        f"mean {statistics.fmean(values):.0f} ms, median {statistics.median(values):.0f} ms, "
        f"p95 {_p95(values):.0f} ms, max {max(values):.0f} ms"
    )


def report(figures: Figures) -> str:
    """A Markdown block for one set."""
    n = figures.puzzles or 1
    lines = [
        f"### {figures.name} ({figures.puzzles} killers)",
        "",
        f"- explained to the end without a guess: {figures.by_logic}/{figures.puzzles} "
        f"({100 * figures.by_logic / n:.1f}%)"
        + (f"; with a guess: lines {figures.missed[:20]}" if figures.missed else ""),
        f"- unsound steps: {figures.unsound}; grade differing from explain's: "
        f"{figures.grade_mismatches}",
        f"- explain, wall: {_times(figures.wall_ms or [0.0])} "
        f"({figures.steps / n:.0f} steps on average)",
        f"- explain, CPU: {_times(figures.cpu_ms or [0.0])}",
        f"- grade (logic.grade), wall: {_times(figures.grade_ms or [0.0])}",
        f"- grade (logic.grade), CPU: {_times(figures.grade_cpu_ms or [0.0])}",
    ]
    usage = usage_table(figures.grades, figures.techniques, figures.puzzles_using, "killers")
    return "\n".join(lines + usage)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 1 if a step was unsound or a grade differed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--limit", type=int, default=None, help="first N killers of each set")
    parser.add_argument("--shared", default=None, help="path of the 1,000-killer file")
    parser.add_argument("--sample-only", action="store_true", help="skip the 1,000 killers")
    args = parser.parse_args(argv)
    sets = [("sample (benchmarks/data/killer_krazydad.txt)", SAMPLE)]
    shared = None if args.sample_only else shared_file(args.shared)
    if shared is not None:
        sets.append(("all shared killers (killer_krazydad.txt)", shared))
    else:
        print("(the shared 1,000 killers are not at hand: the sample only)", file=sys.stderr)
    bad = 0
    for name, path in sets:
        lines = [ln for ln in path.read_text().splitlines() if ln.strip()][: args.limit]
        figures = run(name, lines)
        bad += figures.unsound + figures.grade_mismatches
        print(report(figures), end="\n\n", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
