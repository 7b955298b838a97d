"""The in-process ladder comparison (benchmarks/ladder_ab.py) runs two separate copies of the
core and stops when they disagree: a speed change may not change a step."""

from __future__ import annotations

import sys

import pytest

from benchmarks import ladder_ab


def test_both_trees_grade_the_sample_and_each_rung_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the copies' folder goes away after
    assert ladder_ab.main(["--base", "HEAD", "--count", "2", "--every", "700"]) == 0
    out = capsys.readouterr().out
    assert "2 top1465 puzzles" in out
    assert "  base  mean" in out and "  this  mean" in out
    rungs = out.split(" ratio\n")[1].splitlines()
    assert len(rungs) == 15  # the rungs that moved most, each with both totals
    assert all(len(line.split()) >= 4 for line in rungs)
    copies = {m.split(".")[0] for m in sys.modules if m.startswith("ladder_ab_")}
    assert copies == set(ladder_ab.PACKAGES.values())


def test_a_step_that_differs_stops_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    seen: list[object] = []

    def one_side_differs(result: object, mode: str) -> object:
        seen.append(result)
        return len(seen) % 2  # the second tree's verdict never matches the first's

    monkeypatch.setattr(ladder_ab, "fingerprint", one_side_differs)
    assert ladder_ab.main(["--base", "HEAD", "--count", "1", "--mode", "explain"]) == 1
    assert "the trees disagree" in capsys.readouterr().err


def test_a_deadline_is_passed_on_and_the_time_past_it_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    args = ["--base", "HEAD", "--count", "2", "--every", "700", "--deadline-ms", "0"]
    assert ladder_ab.main([*args, "--mode", "explain"]) == 0
    out = capsys.readouterr().out
    # A deadline of 0 has passed before the first step: every run of both trees is late.
    assert out.count("wall time past the 0 ms deadline: 2 runs") == 2
