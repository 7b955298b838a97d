"""The ``sudoku-web`` console script: one subcommand per job (``solve``, ``serve``).

Each subcommand is an ``add_<name>_parser(subparsers)`` function that registers its options
and sets ``func`` to a ``run_<name>(args) -> int`` handler, so adding one is two functions and
one line in :func:`build_parser`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from .core.board import VARIANTS, PuzzleError, parse_puzzle, pretty
from .core.solver import DEFAULT_DEADLINE_MS, DEFAULT_MAX_NODES, SolveResult, solve

# Exit statuses: 0 all fine, 1 at least one puzzle was invalid, 2 bad usage (argparse).
EXIT_OK = 0
EXIT_INVALID = 1


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="sudoku-web",
        description="A fast, trustworthy Sudoku solver (command line).",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_solve_parser(subparsers)
    add_serve_parser(subparsers)
    return parser


def add_solve_parser(subparsers: Any) -> None:
    """Register ``solve``: one puzzle as an argument, or a file of one puzzle per line."""
    p = subparsers.add_parser(
        "solve",
        help="solve a puzzle, or a file of puzzles (one per line)",
        description=(
            "Solve a puzzle given as an argument (prints the grid and the status), or every "
            "line of --file (prints one line per puzzle: the solution or the status word). "
            "Uniqueness is always checked. Exit status 1 if any puzzle was invalid."
        ),
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("puzzle", nargs="?", help="puzzle text, row-major; '.' or '0' for blanks")
    source.add_argument(
        "-f", "--file", metavar="FILE", help="file with one puzzle per line ('-' for stdin)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    p.add_argument("--variant", choices=VARIANTS, default="standard", help="board variant")
    p.add_argument(
        "--size", type=int, default=None, help="grid size N (default: from the cell count)"
    )
    p.add_argument(
        "--regions", metavar="MAP", default=None, help="jigsaw region map, one label per cell"
    )
    p.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        help=f"guess budget per puzzle (default {DEFAULT_MAX_NODES})",
    )
    p.add_argument(
        "--deadline-ms",
        type=float,
        default=DEFAULT_DEADLINE_MS,
        help=f"wall-clock budget per puzzle in ms, 0 for none (default {DEFAULT_DEADLINE_MS:g})",
    )
    p.set_defaults(func=run_solve)


def run_solve(args: argparse.Namespace, out: TextIO) -> int:
    """Handle ``solve``; returns the exit status."""
    deadline = args.deadline_ms if args.deadline_ms and args.deadline_ms > 0 else None
    options: dict[str, Any] = {
        "variant": args.variant,
        "size": args.size,
        "regions": args.regions,
        "max_nodes": args.max_nodes,
        "deadline_ms": deadline,
    }
    if args.puzzle is not None:
        result = solve(args.puzzle, **options)
        if args.json:
            print(json.dumps(_as_json(result)), file=out)
        else:
            print(_as_text(result), file=out)
        return EXIT_INVALID if result.status == "invalid" else EXIT_OK
    status = EXIT_OK
    for line in _lines(args.file):
        result = solve(line, **options)
        if result.status == "invalid":
            status = EXIT_INVALID
        if args.json:
            print(json.dumps(_as_json(result)), file=out)
        else:
            print(result.solution or result.status, file=out)
    return status


def _lines(path: str) -> Iterable[str]:
    """The non-blank lines of a file ('-' for stdin), stripped."""
    if path == "-":
        yield from (line.strip() for line in sys.stdin if line.strip())
        return
    with open(path, encoding="utf-8") as handle:
        yield from (line.strip() for line in handle if line.strip())


def _as_text(result: SolveResult) -> str:
    """The grid drawn (the solution, else the givens) and a status line, or the errors."""
    if result.status == "invalid" or result.geometry is None:
        return "\n".join(["invalid"] + [f"  {e.message}" for e in result.errors])
    geo = result.geometry
    shown = result.solutions[0] if result.solutions else result.puzzle
    lines = [pretty(parse_puzzle(shown, geo), geo), ""]
    stats = result.stats
    detail = f" ({result.reason})" if result.reason else ""
    lines.append(f"{result.status}{detail}: {stats.guesses} guesses, {stats.elapsed_ms:.2f} ms")
    if result.status == "multiple":
        lines.append("(the first of at least two solutions is shown)")
    return "\n".join(lines)


def _as_json(result: SolveResult) -> dict[str, Any]:
    """A JSON-ready summary of a result."""
    stats = result.stats
    return {
        "puzzle": result.puzzle,
        "status": result.status,
        "reason": result.reason or None,
        "solution": result.solution,
        "solutions": list(result.solutions),
        "errors": [_error_json(e) for e in result.errors],
        "stats": {
            "reduce_passes": stats.reduce_passes,
            "placed_by_reduce": stats.placed_by_reduce,
            "guesses": stats.guesses,
            "backtracks": stats.backtracks,
            "max_depth": stats.max_depth,
            "nodes": stats.nodes,
            "elapsed_ms": round(stats.elapsed_ms, 3),
        },
    }


def _error_json(error: PuzzleError) -> dict[str, Any]:
    return {"code": error.code, "message": error.message, "cells": list(error.cells)}


def add_serve_parser(subparsers: Any) -> None:
    """Register ``serve``: the production server (gunicorn), see :mod:`sudoku_web.hosting.serve`."""
    from .hosting import serve

    p = subparsers.add_parser(
        "serve",
        help="run the production server (gunicorn, 127.0.0.1:8000 by default)",
        description="Run sudoku-web under gunicorn; settings from SUDOKU_WEB_* (see README).",
    )
    serve.add_arguments(p)
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the server until it is stopped; returns the exit status."""
    from .hosting import serve

    return serve.run(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``sudoku-web`` script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args, sys.stdout)
    except OSError as exc:  # an unreadable --file: say so plainly, no traceback
        print(f"sudoku-web: {exc.strerror}: {exc.filename}", file=sys.stderr)
        return EXIT_INVALID
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
