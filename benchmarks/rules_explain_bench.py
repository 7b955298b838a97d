"""Puzzles with rules explained: how many without a guess, in how many steps, how long.

``python -m benchmarks.rules_explain_bench [--deadline-ms 150] [--sets published own]``
explains every puzzle of ``tests/data/variants_fpuzzles.jsonl`` (published, f-puzzles) and
``tests/data/rules_explain_puzzles.jsonl`` (our own, see :mod:`benchmarks.rules_own`) with its
known solution, as the steps page does (``explain`` with a deadline), and prints one row a
puzzle (steps, of them the rules' own, forcing with rules, guesses, grade, hardest technique,
cut short, seconds) and each set's share solved without a guess. Every step is checked
against the solution on the way (a step that removes a solution's digit stops the run).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sudoku_web.core.board import Geometry
from sudoku_web.core.logic import Explanation, explain
from sudoku_web.core.rules import fpuzzles
from sudoku_web.core.rules.board import build
from sudoku_web.core.rules.registry import KINDS
from sudoku_web.core.rules.spelling import parse

DATA = Path(__file__).parent.parent / "tests" / "data"
RULE_STEPS = {kind.STEP for kind in KINDS if kind.STEP}
Puzzle = tuple[str, Geometry, list[int], list[int]]


def published() -> list[Puzzle]:
    """The shared f-puzzles puzzles: id, board, givens, solution."""
    out = []
    for line in (DATA / "variants_fpuzzles.jsonl").read_text().splitlines():
        entry = json.loads(line)
        imported = fpuzzles.load(entry["load"])
        board = imported.geometry
        solution = [board.symbols.index(ch) + 1 for ch in entry["solution"]]
        out.append((entry["id"], board, list(imported.givens), solution))
    return out


def own() -> list[Puzzle]:
    """Our own puzzles (benchmarks/rules_own.py): id, board, givens, solution."""
    out = []
    for line in (DATA / "rules_explain_puzzles.jsonl").read_text().splitlines():
        entry = json.loads(line)
        size = entry["size"]
        board = build(size, parse(entry["rules"], size))
        givens = [0 if ch == "." else board.symbols.index(ch) + 1 for ch in entry["givens"]]
        solution = [board.symbols.index(ch) + 1 for ch in entry["solution"]]
        out.append((entry["id"], board, givens, solution))
    return out


def sound(explanation: Explanation, solution: list[int]) -> bool:
    """True when no step removes or misplaces a digit of the solution."""
    for step in explanation.steps:
        if any(solution[c] == d for c, d in step.eliminations):
            return False
        if any(solution[c] != d for c, d in step.placements):
            return False
    return True


def row(puzzle: Puzzle, deadline_ms: float | None) -> tuple[str, bool]:
    """One puzzle's table row, and whether it was explained without a guess."""
    name, board, givens, solution = puzzle
    started = time.perf_counter()
    explanation = explain(givens, board, solution=solution, deadline_ms=deadline_ms)
    seconds = time.perf_counter() - started
    if not sound(explanation, solution):
        raise SystemExit(f"{name}: a step removes a digit of the solution")
    counts = explanation.technique_counts
    ruled = sum(n for t, n in counts.items() if t in RULE_STEPS)
    forcing = counts.get("Forcing chain with rules", 0)
    cells = f"{board.size}x{board.size}"
    text = (
        f"| {name} | {cells} | {len(explanation.steps)} | {ruled} | {forcing} | "
        f"{explanation.guesses} | {explanation.grade} | {explanation.hardest} | "
        f"{'yes' if explanation.cut_short else ''} | {seconds:.2f} |"
    )
    return text, explanation.solved_by_logic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadline-ms", type=float, default=None, help="explain's deadline")
    parser.add_argument("--sets", nargs="*", default=["published", "own"])
    args = parser.parse_args()
    sets = {"published": published, "own": own}
    print(
        "| puzzle | size | steps | rule steps | forcing with rules | guesses | grade | "
        "hardest | cut short | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    shares = []
    for name in args.sets:
        puzzles = sets[name]()
        solved = 0
        for puzzle in puzzles:
            text, logic = row(puzzle, args.deadline_ms)
            solved += logic
            print(text, flush=True)
        shares.append(f"{name}: {solved}/{len(puzzles)} without a guess")
    print("; ".join(shares))


if __name__ == "__main__":
    main()
