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


# ---- solve --jobs ---------------------------------------------------------------------------


def test_solve_jobs_keeps_input_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--jobs 2 over several chunks prints exactly what --jobs 1 prints, in input order."""
    import sudoku_web.cli as cli

    monkeypatch.setattr(cli, "CHUNK_LINES", 3)  # 10 lines: four chunks over two processes
    lines = [HARD, EMPTY, CONFLICT, HARD[::-1], "." * 80 + "1"] * 2
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["solve", "--file", str(path), "--jobs", "1"]) == 1
    one = capsys.readouterr().out
    assert main(["solve", "--file", str(path), "--jobs", "2"]) == 1
    two = capsys.readouterr().out
    assert two == one
    assert two.splitlines()[:3] == [HARD_SOLUTION, "multiple", "invalid"]
    assert len(two.splitlines()) == 10


def test_solve_jobs_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sudoku_web.cli as cli

    monkeypatch.setattr(cli, "CHUNK_LINES", 1)
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{HARD}\n{EMPTY}\n")
    assert main(["solve", "--file", str(path), "--jobs", "2", "--json"]) == 0
    statuses = [json.loads(line)["status"] for line in capsys.readouterr().out.splitlines()]
    assert statuses == ["solved", "multiple"]


def test_solve_jobs_must_be_positive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{HARD}\n")
    assert main(["solve", "--file", str(path), "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


# ---- generate and pool ----------------------------------------------------------------------


def _proper(puzzle: str, variant: str = "standard", regions: str | None = None) -> str:
    """The grader's grade of a puzzle that must have exactly one solution."""
    from sudoku_web.core.logic import grade
    from sudoku_web.core.solver import solve
    from sudoku_web.core.variants import geometry_for

    size = int(len(puzzle) ** 0.5)
    geo = geometry_for(variant, size, regions)
    assert solve(puzzle, geometry=geo, deadline_ms=None).status == "solved"
    return grade(parse_puzzle(puzzle, geo), geo).grade


def test_generate_prints_one_puzzle_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--grade", "medium", "--count", "3", "--seed", "s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and len(set(lines)) == 3
    assert all(len(line) == 81 and _proper(line) == "Medium" for line in lines)
    # Reproducible, and the first puzzle is the one the seed gives everywhere.
    assert main(["generate", "--grade", "Medium", "--count", "3", "--seed", "s"]) == 0
    assert capsys.readouterr().out.splitlines() == lines
    from sudoku_web.core.generate import generate

    assert generate("standard", 9, "Medium", seed="s").puzzle == lines[0]


def test_generate_json_and_jigsaw(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--variant", "jigsaw", "--size", "6", "--seed", "1", "--json"]
    assert main(args) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["reached"] and body["grade"] == "Easy" and body["variant"] == "jigsaw"
    assert len(body["regions"]) == 36 and body["clues"] == 36 - body["puzzle"].count("0")
    assert _proper(body["puzzle"], "jigsaw", body["regions"]) == "Easy"
    assert main(["generate", "--variant", "jigsaw", "--size", "6", "--seed", "1"]) == 0
    assert capsys.readouterr().out.split() == [body["puzzle"], body["regions"]]


def test_generate_unreached_grade_is_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    """A 4x4 never needs more than singles: nothing printed, a plain note, exit status 1."""
    args = ["generate", "--size", "4", "--grade", "Hard", "--max-attempts", "2", "--seed", "1"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no Hard puzzle in 2 attempts" in captured.err and "closest was Easy" in captured.err
    assert main([*args, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["reached"] is False


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--grade", "Impossible"],
        ["generate", "--variant", "nonsense"],
    ],
)
def test_generate_bad_usage(args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2


def test_generate_bad_size_is_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--variant", "hyper", "--size", "6"]) == 2
    assert "Hyper" in capsys.readouterr().err


def test_generate_into_a_pool_then_show_and_regrade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pool.json"
    args = ["generate", "--size", "4", "--count", "2", "--seed", "p"]
    assert main([*args, "--pool", "--pool-file", str(path)]) == 0
    puzzles = capsys.readouterr().out.splitlines()
    assert json.loads(path.read_text())["kinds"] == {"standard-4": {"Easy": puzzles}}
    assert main(["pool", "show", "--file", str(path)]) == 0
    assert "standard-4: Easy 2, Medium 0" in capsys.readouterr().out
    assert main(["pool", "regrade", "--file", str(path)]) == 0
    assert "0 moved, 0 dropped" in capsys.readouterr().out


def test_pool_fill(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fill: each kind and grade up to --count, within --max-attempts; says what it has."""
    path = tmp_path / "pool.json"
    args = ["pool", "fill", "--file", str(path), "--kind", "standard-4", "--count", "2"]
    assert main([*args, "--grade", "Easy", "--grade", "Hard", "--max-attempts", "5"]) == 0
    out = capsys.readouterr().out
    assert "standard-4 Easy: 2" in out and "standard-4 Hard: 0 (5 attempts, " in out
    assert len(json.loads(path.read_text())["kinds"]["standard-4"]["Easy"]) == 2


# Killers: cages from a file or as text, no givens needed.

KILLER = (Path(__file__).parent / "data" / "killer_krazydad.txt").read_text().split()[0]


def test_solve_a_killer_from_a_cage_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cagemap, sums, solution = KILLER.split(":")
    cage_file = tmp_path / "cages.txt"
    cage_file.write_text(f"{cagemap}:{sums}\n")
    assert main(["solve", "--cages", str(cage_file), "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["status"] == "solved" and body["solution"] == solution
    assert body["puzzle"] == EMPTY
    # The killer entry is the classic board plus the cages; givens are taken too.
    puzzle = solution[:5] + "." * 76
    assert main(["solve", puzzle, "--variant", "killer", "--cages", f"{cagemap}:{sums}"]) == 0
    out = capsys.readouterr().out
    assert "solved" in out and out.splitlines()[0].replace(" ", "").startswith(solution[:3])


def test_solve_cages_as_lines_on_a_small_board(capsys: pytest.CaptureFixture[str]) -> None:
    # 4x4 X board: dominoes in every row, sums of the grid 1234/3412/4321/2143.
    lines = "3: r1c1 r1c2\n7: r1c3 r1c4\n7: r2c1 r2c2\n3: r2c3 r2c4\n7: r3c1 r3c2\n3: r3c3 r3c4"
    assert main(["solve", "--cages", lines, "--size", "4", "--variant", "x", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["status"] in {"solved", "multiple"}
    for text in body["solutions"]:
        assert int(text[0]) + int(text[1]) == 3 and int(text[2]) + int(text[3]) == 7


def test_solve_bad_cages_name_the_cells(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--cages", "10: r1c1 r1c2\n5: r1c2 r1c3"]) == 1
    assert "overlap at r1c2" in capsys.readouterr().err


def test_killer_needs_cages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", EMPTY, "--variant", "killer"]) == 2
    assert "needs --cages" in capsys.readouterr().err


def test_generate_a_killer_prints_its_cages(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--variant", "killer", "--size", "4", "--seed", "2", "--json"]
    main([*args, "--max-attempts", "1"])
    body = json.loads(capsys.readouterr().out)
    assert body["puzzle"] == "0" * 16 and body["clues"] == 0
    # The cages it prints solve back to its solution, uniquely, through solve --cages.
    assert main(["solve", "--cages", body["cages"], "--size", "4", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["status"] == "solved" and solved["solution"] == body["solution"]


def test_killers_go_into_the_pool_and_come_out_by_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A killer is filed with its cages; --from-pool gives it back for any seed, the same
    cages for the same seed, and they solve back uniquely."""
    pool_file = tmp_path / "pool.json"
    made = ["generate", "--variant", "killer", "--size", "4", "--seed", "3", "--json"]
    assert main([*made, "--pool", "--pool-file", str(pool_file)]) == 0
    body = json.loads(capsys.readouterr().out)
    assert "killer-4" in json.loads(pool_file.read_text())["kinds"]
    taken = ["generate", "--variant", "killer", "--size", "4", "--from-pool"]
    taken += ["--pool-file", str(pool_file), "-g", body["grade"], "--json", "--seed", "any"]
    assert main(taken) == 0
    picked = json.loads(capsys.readouterr().out)
    assert (picked["cages"], picked["grade"], picked["source"]) == (
        body["cages"],
        body["grade"],
        "pool",
    )
    assert main(["solve", "--cages", picked["cages"], "--size", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == body["solution"]


@pytest.mark.parametrize("asked", ["Easy", "Medium", "Hard", "Fiendish", "Diabolical"])
def test_a_killer_of_every_grade_from_the_shipped_pool(
    asked: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["generate", "--variant", "killer", "--from-pool", "-g", asked, "--seed", "s"]
    assert main(args) == 0
    puzzle, cages = capsys.readouterr().out.split()
    assert puzzle == "0" * 81 and cages
    assert main(["solve", "--cages", cages, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "solved"


def test_from_pool_says_when_the_pool_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["generate", "--variant", "killer", "--from-pool", "--pool-file", str(tmp_path / "p")]
    assert main(args) == 1
    assert "the pool has no Easy puzzle of killer-9" in capsys.readouterr().err
