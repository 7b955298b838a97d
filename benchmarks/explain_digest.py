"""Fingerprints of the ladder's explanations and grades, to show a speed change changed nothing.

Run ``python -m benchmarks.explain_digest --out before.tsv`` on the old tree and again with
``--out after.tsv`` on the new one, then ``python -m benchmarks.explain_digest --compare
before.tsv after.tsv``: it lists every puzzle whose explanation or grade differs. Each line
of a digest file is one puzzle: its set and index, a SHA-1 of every step's technique,
sentence, houses, cells, placements, eliminations, links and cages, then explain's grade,
hardest technique and guesses, and the fast grade's (:func:`sudoku_web.core.logic.grade`).
No deadline is used, so the digest does not depend on the load of the machine.

``--sets`` picks the puzzle files (top95, hardest, top1465, easy50, and killer: the 100
KrazyDad killers, explained empty with their cages), ``--every N`` every Nth
puzzle of each, ``--jobs`` worker processes (the digest is the same for any job count).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from benchmarks.data_files import data_file
from benchmarks.killer_logic_bench import read_killer
from sudoku_web.core.board import standard
from sudoku_web.core.logic import explain, grade

SETS = ("top95", "hardest", "top1465", "easy50", "killer")
KILLERS = "killer_krazydad.txt"


def puzzles(name: str, every: int) -> list[str]:
    """The puzzles of the set ``name``, every ``every``-th one: 81-character grids, or for
    the killer set the file's lines (cage map, sums and solution)."""
    if name == "killer":
        lines = data_file(KILLERS).read_text().split()
        return lines[::every]
    lines = data_file(f"{name}.txt").read_text().splitlines()
    grids = [line.strip()[:81] for line in lines if line.strip() and not line.startswith("#")]
    return grids[::every]


def digest(puzzle: str) -> str:
    """The tab-separated fingerprint of one puzzle's explanation and fast grade."""
    if ":" in puzzle:
        geometry, solution = read_killer(puzzle)
        explanation = explain("0" * 81, geometry, solution=solution)
        fast = grade("0" * 81, geometry, solution=solution)
    else:
        geometry = standard(9)
        explanation = explain(puzzle, geometry)
        fast = grade(puzzle, geometry)
    sha = hashlib.sha1()
    for step in explanation.steps:
        fields = (
            step.technique,
            step.sentence,
            [h.name for h in step.houses],
            step.cells,
            step.placements,
            step.eliminations,
            step.links,
            step.cages,
        )
        sha.update(repr(fields).encode())
    return "\t".join(
        (
            sha.hexdigest()[:16],
            str(len(explanation.steps)),
            explanation.grade,
            str(explanation.hardest),
            str(explanation.guesses),
            fast.grade,
            str(fast.hardest),
            str(fast.guesses),
        )
    )


def write(sets: Sequence[str], every: int, jobs: int, out: str) -> None:
    """Write the digest of every chosen puzzle to ``out``, one line each."""
    keys = [(name, i) for name in sets for i, _ in enumerate(puzzles(name, every))]
    grids = [p for name in sets for p in puzzles(name, every)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        lines = list(pool.map(digest, grids, chunksize=4))
    with open(out, "w", encoding="utf-8") as f:
        for (name, i), line in zip(keys, lines, strict=True):
            f.write(f"{name}\t{i * every}\t{line}\n")


def compare(before: str, after: str) -> int:
    """Print the puzzles whose lines differ; 0 when none does (and both cover the same)."""
    old = _read(before)
    new = _read(after)
    differ = [key for key in old if key in new and old[key] != new[key]]
    missing = sorted(set(old) ^ set(new))
    for key in differ:
        print(f"{key[0]} #{key[1]}:\n  before {old[key]}\n  after  {new[key]}")
    grades = sum(1 for k in differ if old[k].split("\t")[2:] != new[k].split("\t")[2:])
    print(
        f"{len(old)} before, {len(new)} after, {len(differ)} differ "
        f"({grades} in grade, hardest or guesses), {len(missing)} in only one file"
    )
    return 1 if differ or missing else 0


def _read(path: str) -> dict[tuple[str, str], str]:
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t", 2) for line in f if line.strip()]
    return {(name, index): rest for name, index, rest in rows}


def main(argv: Sequence[str] | None = None) -> int:
    """Write a digest file, or compare two."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", choices=SETS, default=["top95", "hardest"])
    parser.add_argument("--every", type=int, default=1, help="every Nth puzzle of each set")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", help="the digest file to write")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("give --out FILE or --compare BEFORE AFTER")
    write(args.sets, args.every, args.jobs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
