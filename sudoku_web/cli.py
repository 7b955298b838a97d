"""The ``sudoku-web`` console script: one subcommand per job (``solve``, ``generate``,
``pool``, ``serve``).

Each subcommand is an ``add_<name>_parser(subparsers)`` function that registers its options
and sets ``func`` to a ``run_<name>(args) -> int`` handler, so adding one is two functions and
one line in :func:`build_parser`.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import secrets
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Any, TextIO

from .core.board import Geometry, InvalidPuzzle, PuzzleError, infer_size, parse_puzzle, pretty
from .core.cages import link_spelling, parse_cages
from .core.rules import fpuzzles
from .core.rules.board import attach
from .core.rules.spelling import parse as parse_rules
from .core.solver import DEFAULT_DEADLINE_MS, DEFAULT_MAX_NODES, SolveResult, solve
from .core.variants import CLASSIC, VARIANTS, find_variant, layout_of

# The boards the commands take (``--variant``): a killer is the classic board plus cages.
VARIANT_KEYS = [info.key for info in VARIANTS]

# Exit statuses: 0 all fine, 1 at least one puzzle was invalid (or, for generate, at least
# one puzzle did not reach the grade asked for), 2 bad usage (argparse).
EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="sudoku-web",
        description="A fast, trustworthy Sudoku solver (command line).",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_solve_parser(subparsers)
    add_generate_parser(subparsers)
    add_pool_parser(subparsers)
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
    source = p.add_mutually_exclusive_group()
    source.add_argument("puzzle", nargs="?", help="puzzle text, row-major; '.' or '0' for blanks")
    source.add_argument(
        "-f", "--file", metavar="FILE", help="file with one puzzle per line ('-' for stdin)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    p.add_argument("--variant", choices=VARIANT_KEYS, default=CLASSIC.key, help="board variant")
    p.add_argument(
        "--size", type=int, default=None, help="grid size N (default: from the cell count)"
    )
    p.add_argument(
        "--regions", metavar="MAP", default=None, help="jigsaw region map, one label per cell"
    )
    p.add_argument(
        "--cages",
        metavar="FILE|TEXT",
        default=None,
        help="killer cages for every puzzle: a file, or the text itself (one cage per line "
        "'15: r1c1 r1c2', or a cage map and its sums); with cages the puzzle may be left out",
    )
    p.add_argument(
        "--fpuzzles",
        metavar="FILE|TEXT",
        default=None,
        help="an f-puzzles puzzle: its JSON (a file or the text), its load= string, or an "
        "f-puzzles or SudokuPad link; solves its givens unless a puzzle is given too",
    )
    p.add_argument(
        "--rules",
        metavar="TEXT",
        default=None,
        help="rules for every puzzle in sudoku-web's spelling (thermometers, arrows, dots ...: "
        "'th_11121314.kn')",
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
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="with --file: solve in N processes, output still in input order "
        "(default: every core; 1 solves in this process)",
    )
    p.set_defaults(func=run_solve)


# Lines per task sent to a worker process: large enough that pickling and the round trip
# are a small share of the work (~0.3 ms per 9x9), small enough to stream. At most
# CHUNKS_AHEAD tasks per process are in flight, so memory stays bounded on any file.
CHUNK_LINES = 500
CHUNKS_AHEAD = 3


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
    info = find_variant(args.variant)
    if info.needs_cages and args.cages is None:
        print(f"sudoku-web: --variant {info.key} needs --cages", file=sys.stderr)
        return EXIT_USAGE
    ruled = args.fpuzzles is not None or args.rules is not None
    if ruled or args.cages is not None:
        try:
            board = _ruled_board(args, info.key) if ruled else _caged_board(args, info.key)
        except (InvalidPuzzle, OSError) as exc:
            print(f"sudoku-web: the {'rules' if ruled else 'cages'}: {exc}", file=sys.stderr)
            return EXIT_INVALID
        options = {"geometry": board, "max_nodes": args.max_nodes, "deadline_ms": deadline}
        if args.puzzle is None and args.file is None:
            args.puzzle = "." * board.cells  # a killer needs no givens
    if args.puzzle is None and args.file is None:
        print("sudoku-web: give a puzzle, --file, or --cages", file=sys.stderr)
        return EXIT_USAGE
    if args.puzzle is not None:
        result = solve(args.puzzle, **options)
        if args.json:
            print(json.dumps(_as_json(result)), file=out)
        else:
            print(_as_text(result), file=out)
        return EXIT_INVALID if result.status == "invalid" else EXIT_OK
    jobs = args.jobs if args.jobs is not None else _cores()
    if jobs < 1:
        print("sudoku-web: --jobs must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    chunks = _chunks(_lines(args.file), CHUNK_LINES)
    status = EXIT_OK
    for invalid, lines in _solve_chunks(chunks, options, args.json, jobs):
        if invalid:
            status = EXIT_INVALID
        out.write("".join(line + "\n" for line in lines))
    return status


def _caged_board(args: argparse.Namespace, variant: str) -> Geometry:
    """The board of ``--variant``/``--size``/``--regions`` with the cages of ``--cages`` (a
    file when one has that name, else the text)."""
    text = args.cages
    if os.path.isfile(text):
        with open(text, encoding="utf-8") as handle:
            text = handle.read(200_000)
    size = args.size or (infer_size(args.puzzle) if args.puzzle else None) or 9
    board = layout_of(find_variant(variant)).geometry(size, args.regions)
    return board.with_cages(parse_cages(text, board))


def _ruled_board(args: argparse.Namespace, variant: str) -> Geometry:
    """The board of ``--fpuzzles`` (its givens become the puzzle when none is given), or of
    ``--variant``/``--size``/``--regions`` with the rules of ``--rules``."""
    if args.fpuzzles is not None:
        text = args.fpuzzles
        if os.path.isfile(text):
            with open(text, encoding="utf-8") as handle:
                text = handle.read(fpuzzles.MAX_JSON + 1)
        imported = fpuzzles.load(text)
        if args.puzzle is None and args.file is None:
            args.puzzle = imported.puzzle
        return imported.geometry
    size = args.size or (infer_size(args.puzzle) if args.puzzle else None) or 9
    board = layout_of(find_variant(variant)).geometry(size, args.regions)
    return attach(board, parse_rules(args.rules, board.size))


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _chunks(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    """Consecutive lists of ``size`` lines (the last one shorter)."""
    it = iter(lines)
    while chunk := list(islice(it, size)):
        yield chunk


def _solve_chunks(
    chunks: Iterator[list[str]], options: dict[str, Any], as_json: bool, jobs: int
) -> Iterator[tuple[bool, list[str]]]:
    """Each chunk's output lines (and whether it held an invalid puzzle), in input order.

    With more than one job and more than one chunk, chunks go to a pool of processes, at most
    ``jobs * CHUNKS_AHEAD`` at a time; results are taken in submission order, so output order
    is input order and only a bounded window of lines is ever held.
    """
    first = next(chunks, None)
    if first is None:
        return
    second = next(chunks, None)
    if jobs == 1 or second is None:  # one chunk: starting processes would only cost time
        yield _solve_chunk(first, options, as_json)
        if second is not None:
            yield _solve_chunk(second, options, as_json)
        for chunk in chunks:
            yield _solve_chunk(chunk, options, as_json)
        return
    # spawn, not fork: forking a process that runs threads (a web server, a test runner) can
    # deadlock, and Python warns about it.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: deque[Future[tuple[bool, list[str]]]] = deque()
        for chunk in _prepend(first, second, chunks):
            pending.append(pool.submit(_solve_chunk, chunk, options, as_json))
            if len(pending) >= jobs * CHUNKS_AHEAD:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _prepend(first: list[str], second: list[str], rest: Iterator[list[str]]) -> Iterator[list[str]]:
    yield first
    yield second
    yield from rest


def _solve_chunk(
    chunk: list[str], options: dict[str, Any], as_json: bool
) -> tuple[bool, list[str]]:
    """Solve one chunk of lines; runs in a worker process (module level, so it pickles)."""
    invalid = False
    lines = []
    for line in chunk:
        result = solve(line, **options)
        invalid = invalid or result.status == "invalid"
        if as_json:
            lines.append(json.dumps(_as_json(result)))
        else:
            lines.append(result.solution or result.status)
    return invalid, lines


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


def _grade_word(text: str) -> str:
    """argparse type for a grade: the difficulty panel's word, any letter case."""
    from .core.logic import GRADES

    for word in GRADES:
        if text.strip().lower() == word.lower():
            return word
    raise argparse.ArgumentTypeError(f"{text!r} is not a grade; use one of {', '.join(GRADES)}")


def add_generate_parser(subparsers: Any) -> None:
    """Register ``generate``: new puzzles of a chosen grade, one per line."""
    p = subparsers.add_parser(
        "generate",
        help="make new puzzles of a chosen grade (one per line)",
        description=(
            "Generate puzzles with exactly one solution whose human grade (the difficulty "
            "panel's word, by the grader) is the one asked for. One puzzle per line, '0' for "
            "blanks; a jigsaw's line is '<puzzle> <regions>'. With --seed the output is the "
            "same on every machine: the first puzzle is the one that seed gives everywhere "
            "(the library and /api/generate), puzzle i after it uses the seed '<S>:<i>'. "
            "A puzzle that did not reach the grade within --max-attempts is left out (with "
            '--json it is printed with "reached": false) and the exit status is 1.'
        ),
    )
    p.add_argument("-g", "--grade", type=_grade_word, default="Easy", help="grade (default Easy)")
    p.add_argument("--variant", choices=VARIANT_KEYS, default=CLASSIC.key, help="board variant")
    p.add_argument(
        "--killer",
        action="store_true",
        help="cages and no givens on the board of --variant (killer-X: --variant x --killer); "
        "the line is '<puzzle> <cages>', the cages in their share-link spelling",
    )
    p.add_argument("--size", type=int, default=9, help="grid size N (default 9)")
    p.add_argument(
        "--regions",
        metavar="MAP",
        default=None,
        help="jigsaw region map (default: a new random map per puzzle)",
    )
    p.add_argument("-n", "--count", type=int, default=1, help="how many puzzles (default 1)")
    p.add_argument("--seed", default=None, help="seed for reproducible output")
    p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    p.add_argument(
        "--asymmetric",
        action="store_true",
        help="givens need not be symmetric (boxed grids are symmetric by default)",
    )
    p.add_argument(
        "--max-attempts",
        type=int,
        default=None,
        help="solution grids tried per puzzle (default 50, 200 with --pool)",
    )
    p.add_argument(
        "--pool",
        action="store_true",
        help="also add the puzzles to the pool file (the web serves rare grades from it)",
    )
    p.add_argument(
        "--pool-file",
        metavar="FILE",
        default=None,
        help="pool file for --pool and --from-pool (default: the one the package ships)",
    )
    p.add_argument(
        "--from-pool",
        action="store_true",
        help="take the puzzles from the pool file, picked by the seed as the web picks them "
        "(every grade of a killer at once; nothing is generated)",
    )
    p.set_defaults(func=run_generate)


def run_generate(args: argparse.Namespace, out: TextIO) -> int:
    """Handle ``generate``; returns the exit status."""
    from .core import pool
    from .core.generate import DEFAULT_MAX_ATTEMPTS, generate

    if args.count < 1:
        print("sudoku-web: --count must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    if args.from_pool:
        return _generate_from_pool(args, out)
    attempts = args.max_attempts or (200 if args.pool else DEFAULT_MAX_ATTEMPTS)
    pool_path = args.pool_file or pool.SHIPPED
    kinds = pool.load(pool_path) if args.pool else {}
    status = EXIT_OK
    for index in range(args.count):
        seed: int | str | None = args.seed
        if args.seed is not None and index:
            seed = f"{args.seed}:{index}"
        try:
            found = generate(
                args.variant,
                args.size,
                args.grade,
                seed=seed,
                regions=args.regions,
                symmetric=False if args.asymmetric else None,
                max_attempts=attempts,
                cages=True if args.killer else None,
            )
        except (InvalidPuzzle, ValueError) as exc:
            print(f"sudoku-web: {exc}", file=sys.stderr)
            return EXIT_USAGE
        if not found.reached:
            status = EXIT_INVALID
            print(
                f"sudoku-web: no {found.asked} puzzle in {found.attempts} attempts "
                f"(seed {found.seed!r}; the closest was {found.grade})",
                file=sys.stderr,
            )
        if args.json:
            print(json.dumps(generated_json(found)), file=out)
        elif found.reached:
            parts = [found.puzzle, found.regions, _cages_text(found.geometry)]
            print(" ".join(part for part in parts if part), file=out, flush=True)
        if args.pool and found.reached:
            pool.add(kinds, found)
    if args.pool:
        pool.save(kinds, pool_path)
    return status


def _generate_from_pool(args: argparse.Namespace, out: TextIO) -> int:
    """``generate --from-pool``: the pool's puzzles for the seeds (see :func:`run_generate`)."""
    from .core import pool

    kinds = pool.load(args.pool_file or pool.SHIPPED)
    try:
        key = pool.kind_key(args.variant, args.size, caged=args.killer)
    except InvalidPuzzle as exc:
        print(f"sudoku-web: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for index in range(args.count):
        seed = args.seed if args.seed is not None else secrets.token_hex(6)
        if args.seed is not None and index:
            seed = f"{args.seed}:{index}"
        entry = pool.pick_keyed(kinds, key, args.grade, seed)
        if entry is None:
            print(f"sudoku-web: the pool has no {args.grade} puzzle of {key}", file=sys.stderr)
            return EXIT_INVALID
        parts = [entry.puzzle, entry.regions, _cages_text(entry.geometry)]
        if args.json:
            body = {
                "puzzle": entry.puzzle,
                "variant": entry.geometry.variant,
                "size": entry.geometry.size,
                "regions": entry.regions,
                "cages": _cages_text(entry.geometry) or None,
                "grade": entry.grade,
                "source": "pool",
                "seed": seed,
            }
            print(json.dumps(body), file=out)
        else:
            print(" ".join(part for part in parts if part), file=out, flush=True)
    return EXIT_OK


def generated_json(found: Any) -> dict[str, Any]:
    """A JSON-ready summary of a :class:`~sudoku_web.core.generate.Generated`."""
    return {
        "puzzle": found.puzzle,
        "variant": found.geometry.variant,
        "size": found.geometry.size,
        "regions": found.regions,
        "cages": _cages_text(found.geometry) or None,
        "grade": found.grade,
        "asked": found.asked,
        "reached": found.reached,
        "clues": found.clues,
        "solution": found.solution,
        "seed": found.seed,
        "attempts": found.attempts,
        "elapsed_ms": round(found.elapsed_ms, 1),
    }


def _cages_text(geometry: Geometry) -> str:
    """A board's cages in their share-link spelling ("" without cages)."""
    return link_spelling(geometry.cages, geometry)


def add_pool_parser(subparsers: Any) -> None:
    """Register ``pool``: show, fill and regrade the pool of pre-generated puzzles."""
    p = subparsers.add_parser(
        "pool",
        help="show, fill or regrade the pool of pre-generated puzzles",
        description=(
            "The web serves a grade it cannot find within a second from this pool. 'show' "
            "counts entries per kind and grade; 'fill' generates puzzles for every kind the "
            "web offers until each grade has --count (within --max-attempts per grade); "
            "'regrade' grades every entry again with the current grader and files it under "
            "its grade now (run it after the technique ladder changes)."
        ),
    )
    p.add_argument("action", choices=("show", "fill", "regrade"))
    p.add_argument("--file", default=None, help="pool file (default: the one the package ships)")
    p.add_argument("-n", "--count", type=int, default=24, help="fill: entries per kind and grade")
    p.add_argument(
        "--kind",
        action="append",
        default=None,
        metavar="VARIANT-SIZE",
        help="fill: only this kind (repeatable), e.g. standard-9, jigsaw-9, killer-9, killer-x-9",
    )
    p.add_argument(
        "--grade", action="append", type=_grade_word, default=None, help="fill: only this grade"
    )
    p.add_argument(
        "--max-attempts",
        type=int,
        default=2000,
        help="fill: solution grids tried per kind and grade (default 2000)",
    )
    p.add_argument(
        "--seed",
        default=None,
        help="fill: seed of this run (default: a new one, so another run adds other puzzles)",
    )
    p.set_defaults(func=run_pool)


def run_pool(args: argparse.Namespace, out: TextIO) -> int:
    """Handle ``pool``; returns the exit status."""
    from .core import pool
    from .core.logic import GRADES

    path = args.file or pool.SHIPPED
    kinds = pool.load(path)
    if args.action == "regrade":
        kinds, moved, dropped = pool.regrade(kinds)
        pool.save(kinds, path)
        print(f"regraded: {moved} moved, {dropped} dropped", file=out)
    elif args.action == "fill":
        wanted = args.kind or [*(pool.kind_key(v, n) for v, n in pool.KINDS), *pool.CAGED_KINDS]
        for key in wanted:
            try:
                pool.parse_key(key)
            except InvalidPuzzle as exc:
                print(f"sudoku-web: --kind {key}: {exc}", file=sys.stderr)
                return EXIT_USAGE
            _fill_kind(args, kinds, path, key, out)
    for key, grades in sorted(kinds.items()):
        counts = ", ".join(f"{g} {len(grades.get(g, []))}" for g in GRADES)
        print(f"{key}: {counts}", file=out)
    return EXIT_OK


def _fill_kind(args: argparse.Namespace, kinds: Any, path: Any, key: str, out: TextIO) -> None:
    """``pool fill`` for one kind key: each grade asked for, up to ``--count`` entries."""
    from .core import pool
    from .core.generate import generate
    from .core.logic import GRADES, Grade

    info, size, caged = pool.parse_key(key)
    run_seed = args.seed if args.seed is not None else secrets.token_hex(4)

    def keep(board: Geometry, got: Grade) -> None:
        """A killer graded on the way, filed while its grade has room and once the engine
        proves its one solution."""
        if len(kinds.get(key, {}).get(got, [])) >= args.count:
            return
        if solve([0] * board.cells, geometry=board, deadline_ms=None).status == "solved":
            if pool.add_entry(kinds, pool.Entry(board, "0" * board.cells, got)):
                pool.save(kinds, path)

    for asked in args.grade or GRADES:
        tried = 0
        index = 0
        started = time.perf_counter()
        while len(kinds.get(key, {}).get(asked, [])) < args.count:
            if tried >= args.max_attempts:
                break
            found = generate(
                info.key,
                size,
                asked,
                seed=f"pool:{run_seed}:{key}:{asked}:{index}",
                max_attempts=min(50, args.max_attempts - tried),
                cages=caged,
                graded_board=keep if caged else None,
            )
            tried += found.attempts
            index += 1
            # A miss is still graded: filed under its own grade while that has room (a
            # killer's attempt costs about a second; none is thrown away).
            room = len(kinds.get(key, {}).get(found.grade, [])) < args.count
            if (found.reached or room) and pool.add(kinds, found):
                pool.save(kinds, path)
        have = len(kinds.get(key, {}).get(asked, []))
        took = time.perf_counter() - started
        print(f"{key} {asked}: {have} ({tried} attempts, {took:.0f} s)", file=out, flush=True)


def add_serve_parser(subparsers: Any) -> None:
    """Register ``serve``: the production server (gunicorn), see :mod:`sudoku_web.hosting.serve`."""
    from .hosting import serve

    p = subparsers.add_parser(
        "serve",
        help="run the production server (gunicorn, 127.0.0.1:8000 by default)",
        description=(
            "Run sudoku-web under gunicorn; settings from SUDOKU_WEB_* (see docs/self-hosting.md)."
        ),
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
