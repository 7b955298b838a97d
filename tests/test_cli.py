"""The ``sudoku-web`` console script: ``solve`` with a puzzle, a file, stdin and JSON."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sudoku_web.cli import main
from sudoku_web.core.board import parse_puzzle

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
CONFLICT = "11" + "." * 79
EMPTY = "." * 81
JIGSAW5 = "AAABBACABBCCCDBCEDDDEEEED"


def test_solve_prints_grid_and_status(capsys: pytest.CaptureFixture[str]) -> None:
    """One puzzle: the solved grid drawn with box borders, then the status line."""
    assert main(["solve", HARD]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "4 1 7 | 3 6 9 | 8 2 5"
    assert "solved" in out
    grid_text = out.split("\n\n")[0]
    assert parse_puzzle(grid_text) == parse_puzzle(HARD_SOLUTION)


def test_solve_invalid_puzzle_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """Conflicting givens: 'invalid', the message naming the cells, exit status 1."""
    assert main(["solve", CONFLICT]) == 1
    out = capsys.readouterr().out
    assert out.startswith("invalid") and "r1c1 and r1c2" in out


def test_solve_multiple_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty grid is 'multiple' and says a first solution is shown."""
    assert main(["solve", EMPTY]) == 0
    out = capsys.readouterr().out
    assert "multiple" in out and "at least two" in out


def test_solve_file_one_line_per_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--file: the solution or the status word per puzzle; blank lines skipped; exit 1."""
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{HARD}\n\n{CONFLICT}\n{EMPTY}\n")
    assert main(["solve", "--file", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [HARD_SOLUTION, "invalid", "multiple"]


def test_solve_file_all_valid_exits_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No invalid line: exit status 0."""
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{HARD}\n{EMPTY}\n")
    assert main(["solve", "-f", str(path)]) == 0


def test_solve_stdin_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'-' reads stdin; --json prints one object per line with status, solution and stats."""
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{HARD}\nxyz\n"))
    assert main(["solve", "--file", "-", "--json"]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["status"] == "solved" and first["solution"] == HARD_SOLUTION
    assert first["stats"]["nodes"] >= 1 and "elapsed_ms" in first["stats"]
    assert second["status"] == "invalid"
    assert second["errors"][0]["code"] == "length"


def test_solve_variant_options(capsys: pytest.CaptureFixture[str]) -> None:
    """--variant/--regions reach the engine: a 5x5 jigsaw is solved as one."""
    assert main(["solve", "." * 25, "--variant", "jigsaw", "--regions", JIGSAW5, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "multiple"


def test_solve_budget_option(capsys: pytest.CaptureFixture[str]) -> None:
    """--max-nodes 0 gives up at the first guess and says why."""
    assert main(["solve", EMPTY, "--max-nodes", "0"]) == 0
    assert "gave_up (nodes)" in capsys.readouterr().out


def test_missing_file_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """An unreadable file is one plain line on stderr and exit status 1."""
    assert main(["solve", "--file", "/nonexistent/puzzles.txt"]) == 1
    assert "No such file" in capsys.readouterr().err


def test_subcommand_required() -> None:
    """No subcommand is a usage error (exit status 2)."""
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
