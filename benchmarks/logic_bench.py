"""Logic-solver benchmark: share solved without guessing, techniques used, time, soundness.

Run ``python -m benchmarks.logic_bench`` (``--quick`` for 200 puzzles per set). For each set
it explains every puzzle with :func:`sudoku_web.core.logic.explain`, checks every step against the
engine's solution (an eliminated solution digit or a wrong placement counts as unsound),
and times the explanation plus the search trace (what a steps page computes), and the fast
grade :func:`sudoku_web.core.logic.grade` (what a result page computes), checking that it equals
the explanation's. The 17-clue set is sampled: 2,000 puzzles drawn with a fixed seed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from benchmarks.data_files import data_file
from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.logic import GRADES, explain, grade
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import ORDER

SETS = ("easy50", "top95", "hardest", "top1465", "17clue")
SAMPLE = {"17clue": 2000}
SEED = 17
QUICK = 200
PANEL_MS = 150  # the difficulty panel's grade deadline (web/runtime/budgets.py)


@dataclass
class SetFigures:
    """What one puzzle set adds up to."""

    name: str
    puzzles: int = 0
    by_logic: int = 0
    unsound: int = 0
    steps: int = 0
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # explain's process time (a busy box)
    trace_ms: list[float] = field(default_factory=list)
    grade_ms: list[float] = field(default_factory=list)
    grade_cpu_ms: list[float] = field(default_factory=list)
    grade_mismatches: int = 0  # logic.grade() disagreeing with explain() (must be 0)
    techniques: Counter[str] = field(default_factory=Counter)  # steps per technique
    puzzles_using: Counter[str] = field(default_factory=Counter)
    grades: Counter[str] = field(default_factory=Counter)


def load(name: str, limit: int | None) -> list[str]:
    """The puzzles of a set (sampled with a fixed seed where :data:`SAMPLE` says so)."""
    lines = [ln.strip()[:81] for ln in data_file(f"{name}.txt").read_text().splitlines()]
    lines = [ln for ln in lines if ln]
    if name in SAMPLE:
        lines = random.Random(SEED).sample(lines, SAMPLE[name])
    return lines[:limit] if limit else lines


def run_set(name: str, puzzles: list[str]) -> SetFigures:
    """Explain and trace every puzzle of a set; count and time."""
    geo = standard(9)
    figures = SetFigures(name)
    for text in puzzles:
        result = solve(text, geometry=geo)
        if result.solution is None:
            print(f"  skipped (engine: {result.status}): {text}", file=sys.stderr)
            continue
        solution = parse_puzzle(result.solution, geo)
        grid = parse_puzzle(text, geo)
        started, cpu = time.perf_counter(), time.process_time()
        explanation = explain(grid, geo, solution=solution)
        middle = time.perf_counter()
        figures.cpu_ms.append((time.process_time() - cpu) * 1000)
        solve(text, geometry=geo, record=200)  # the search page's recorded solve
        figures.times_ms.append((middle - started) * 1000)
        figures.trace_ms.append((time.perf_counter() - middle) * 1000)
        started, cpu = time.perf_counter(), time.process_time()
        graded = grade(grid, geo, solution=solution)
        figures.grade_ms.append((time.perf_counter() - started) * 1000)
        figures.grade_cpu_ms.append((time.process_time() - cpu) * 1000)
        fast = (graded.grade, graded.hardest, graded.solved_by_logic, graded.guesses)
        full = (
            explanation.grade,
            explanation.hardest,
            explanation.solved_by_logic,
            explanation.guesses,
        )
        figures.grade_mismatches += fast != full
        figures.puzzles += 1
        figures.by_logic += explanation.solved_by_logic
        figures.steps += len(explanation.steps)
        figures.grades[explanation.grade] += 1
        for step in explanation.steps:
            figures.unsound += sum(1 for c, d in step.eliminations if solution[c] == d)
            figures.unsound += sum(1 for c, d in step.placements if solution[c] != d)
        figures.techniques.update(explanation.technique_counts)
        figures.puzzles_using.update(explanation.technique_counts.keys())
        if explanation.status != "solved":
            figures.unsound += 1  # a sound explanation with a known solution always finishes
    return figures


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def report(figures: SetFigures) -> str:
    """A Markdown block for one set."""
    n = figures.puzzles or 1
    times = figures.times_ms or [0.0]
    traces = figures.trace_ms or [0.0]
    grades = figures.grade_ms or [0.0]
    cpu = figures.cpu_ms or [0.0]
    grade_cpu = figures.grade_cpu_ms or [0.0]
    lines = [
        f"### {figures.name} ({figures.puzzles} puzzles)",
        "",
        f"- solved by logic alone: {figures.by_logic}/{figures.puzzles} "
        f"({100 * figures.by_logic / n:.1f}%)",
        f"- unsound steps: {figures.unsound}",
        f"- explain: mean {statistics.fmean(times):.1f} ms, median "
        f"{statistics.median(times):.1f} ms, p99 {_p99(times):.1f} ms, max {max(times):.1f} ms "
        f"per puzzle ({figures.steps / n:.0f} steps on average); CPU time mean "
        f"{statistics.fmean(cpu):.1f} ms, max {max(cpu):.1f} ms",
        f"- search trace: mean {statistics.fmean(traces):.1f} ms, max {max(traces):.1f} ms",
        f"- grade (logic.grade): mean {statistics.fmean(grades):.2f} ms, median "
        f"{statistics.median(grades):.2f} ms, p99 {_p99(grades):.1f} ms, max {max(grades):.1f} ms; "
        f"within the panel's {PANEL_MS} ms: {sum(g <= PANEL_MS for g in grades)}/{len(grades)} "
        f"(CPU time: mean {statistics.fmean(grade_cpu):.1f} ms, max {max(grade_cpu):.1f} ms, "
        f"within {PANEL_MS} ms: {sum(g <= PANEL_MS for g in grade_cpu)}/{len(grade_cpu)}); "
        f"differs from explain's: {figures.grade_mismatches}",
    ]
    return "\n".join(lines + usage_table(figures.grades, figures.techniques, figures.puzzles_using))


def usage_table(
    grades: Counter[str], techniques: Counter[str], using: Counter[str], noun: str = "puzzles"
) -> list[str]:
    """The report's closing lines: the grades, then a Markdown table of the techniques used."""
    lines = [
        "- grades: " + ", ".join(f"{g} {grades[g]}" for g in GRADES if grades[g]),
        "",
        f"| technique | steps | {noun} using it |",
        "|---|---:|---:|",
    ]
    for name in (*ORDER, "Contradiction"):
        if techniques[name]:
            lines.append(f"| {name} | {techniques[name]} | {using[name]} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 1 if any step was unsound or a grade differed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help=f"first {QUICK} puzzles per set")
    parser.add_argument("--sets", nargs="*", default=list(SETS), choices=SETS)
    args = parser.parse_args(argv)
    limit = QUICK if args.quick else None
    unsound = 0
    for name in args.sets:
        figures = run_set(name, load(name, limit))
        unsound += figures.unsound + figures.grade_mismatches
        print(report(figures), end="\n\n", flush=True)
    return 1 if unsound else 0


if __name__ == "__main__":
    raise SystemExit(main())
