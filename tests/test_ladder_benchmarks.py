"""The ladder's measuring tools tell the truth: ``benchmarks/explain_digest.py`` sees a changed
step and only that, and ``benchmarks/rung_costs.py`` times the rungs the ladder really ran and
leaves the ladder as it found it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchmarks import explain_digest, rung_costs
from sudoku_web.core import logic
from sudoku_web.core.board import standard
from sudoku_web.core.techniques import GRADE_OF, TECHNIQUES


def test_a_digest_is_the_same_for_the_same_puzzle_and_differs_for_another() -> None:
    first, second = explain_digest.puzzles("top95", 40)[:2]
    assert explain_digest.digest(first) == explain_digest.digest(first)
    assert explain_digest.digest(first) != explain_digest.digest(second)


def test_compare_names_the_puzzle_whose_explanation_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = tmp_path / "before.tsv", tmp_path / "after.tsv"
    explain_digest.write(["top95"], 40, 1, str(before))
    assert explain_digest.compare(str(before), str(before)) == 0
    lines = before.read_text().splitlines()
    name, index, rest = lines[1].split("\t", 2)
    changed = f"{name}\t{index}\t{'0' * 16}\t{rest.split(chr(9), 1)[1]}"
    after.write_text("\n".join([lines[0], changed, *lines[2:]]) + "\n")
    assert explain_digest.compare(str(before), str(after)) == 1
    out = capsys.readouterr().out
    assert f"top95 #{index}" in out
    assert "1 differ (0 in grade, hardest or guesses)" in out


def test_rung_costs_counts_the_rungs_run_and_restores_the_ladder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert rung_costs.main(["--set", "top95", "--every", "30", "--limit", "2"]) == 0
    assert logic.TECHNIQUES is TECHNIQUES
    rows = capsys.readouterr().out.split("\n\n")[0].splitlines()[2:]  # the rung table
    names = {row[:34].strip() for row in rows}
    assert "Pointing" in names
    assert "Hidden single" not in names  # the fast grade places singles in a batch
    assert names <= {name for name, _, _ in TECHNIQUES}


def test_rung_costs_counts_each_stall_by_the_step_that_ended_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # hardest #1 needs a guess, #2 forcing chains, #0 only Medium rungs
    assert rung_costs.main(["--set", "hardest", "--every", "1", "--limit", "3", "--explain"]) == 0
    out = capsys.readouterr().out.split("stalls past the Hard rungs: ")[1]
    total = int(out.split(",")[0])
    ended = {line[:20].strip(): int(line[20:27]) for line in out.splitlines()[2:5]}
    steps: Counter[str] = Counter()
    geometry = standard(9)
    for grid in explain_digest.puzzles("hardest", 1)[:3]:
        for step in logic.explain(grid, geometry).steps:
            steps[GRADE_OF[step.technique] if step.technique != "Guess" else "guess"] += 1
    assert ended == {
        "a Fiendish rung": steps["Fiendish"],
        "forcing logic": steps["Diabolical"],
        "guess": steps["guess"],
    }
    assert steps["Diabolical"] and steps["guess"]  # the sample has both kinds of stall
    assert total == sum(ended.values())
