"""Our own puzzles with rules, made from a known solution: rules that hold in it, then givens
from it until the engine finds one solution. For the explanation figures (the share of
puzzles explained without a guess, ``benchmarks/RESULTS.md``) and for the tests that check
every step against the solution.

``python -m benchmarks.rules_own --out tests/data/rules_explain_puzzles.jsonl`` writes them:
one JSON object a line (``id``, ``size``, ``rules`` in our spelling, ``givens`` and
``solution`` as text, ``kinds``). The same seed makes the same puzzles unless the engine's
time budget cuts one of its solves short (on a loaded machine).

Each puzzle leans on one kind (several rules of it) with one or two other kinds beside it;
the rules are drawn from the solution (a thermometer climbs where the digits climb, a sandwich
sums what lies between the 1 and the largest digit ...), so every rule holds.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from sudoku_web.core.board import standard
from sudoku_web.core.rules.board import build, default_box
from sudoku_web.core.rules.spelling import parse
from sudoku_web.core.solver import solve

COORDS = "123456789abcdefg"
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
ORTHO = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAGONALS = {"ul": (-1, -1), "ur": (-1, 1), "dl": (1, -1), "dr": (1, 1)}
# Rules of the leading kind a puzzle gets, and the givens the engine may ask for at most.
PER_KIND = 6
MAX_GIVENS = 60


def cell(r: int, c: int) -> str:
    """A cell in our spelling (row, column; 1-based characters)."""
    return COORDS[r] + COORDS[c]


def solution(size: int, rng: random.Random) -> list[int]:
    """A random solution of the empty board: the engine's first, digits relabelled and rows
    and columns shuffled within their bands and stacks."""
    board = standard(size)
    first = solve([0] * board.cells, geometry=board).solutions[0]
    grid = [board.symbols.index(ch) + 1 for ch in first]
    relabel = list(range(1, size + 1))
    rng.shuffle(relabel)
    br, bc = default_box(size)
    rows = _shuffled_bands(size, br, rng)
    cols = _shuffled_bands(size, bc, rng)
    return [relabel[grid[rows[r] * size + cols[c]] - 1] for r in range(size) for c in range(size)]


def _shuffled_bands(size: int, band: int, rng: random.Random) -> list[int]:
    bands = list(range(size // band))
    rng.shuffle(bands)
    out = []
    for b in bands:
        inside = list(range(b * band, b * band + band))
        rng.shuffle(inside)
        out.extend(inside)
    return out


def _walk(
    s: Sequence[int],
    n: int,
    rng: random.Random,
    steps: list[tuple[int, int]],
    ok: Callable[[list[tuple[int, int]], tuple[int, int]], bool],
) -> list[tuple[int, int]]:
    """A random walk whose every extension keeps ``ok(path, next)``."""
    path = [(rng.randrange(n), rng.randrange(n))]
    while len(path) < n:
        r, c = path[-1]
        moves = steps.copy()
        rng.shuffle(moves)
        for dr, dc in moves:
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < n and 0 <= nxt[1] < n and nxt not in path and ok(path, nxt):
                path.append(nxt)
                break
        else:
            break
    return path


def _value(s: Sequence[int], n: int, rc: tuple[int, int]) -> int:
    return s[rc[0] * n + rc[1]]


def _thermo(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    path = _walk(s, n, rng, KING, lambda p, x: _value(s, n, x) > _value(s, n, p[-1]))
    path = path[: rng.randint(2, 5)]
    return "th_" + "".join(cell(*x) for x in path) if len(path) >= 2 else None


def _arrow(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    bulb = (rng.randrange(n), rng.randrange(n))
    target = _value(s, n, bulb)
    path = [bulb]
    total = 0
    for _ in range(4):
        r, c = path[-1]
        moves = [(r + dr, c + dc) for dr, dc in KING]
        rng.shuffle(moves)
        nxt = next((m for m in moves if 0 <= m[0] < n and 0 <= m[1] < n and m not in path), None)
        if nxt is None:
            return None
        path.append(nxt)
        total += _value(s, n, nxt)
        if total == target and len(path) > 1:
            line = "".join(cell(*x) for x in path)
            return f"ar_{cell(*bulb)}_{line}"
        if total > target:
            return None
    return None


def _pair(colour: str) -> Callable[[Sequence[int], int, random.Random], str | None]:
    def make(s: Sequence[int], n: int, rng: random.Random) -> str | None:
        a = (rng.randrange(n), rng.randrange(n))
        dr, dc = rng.choice(ORTHO)
        b = (a[0] + dr, a[1] + dc)
        if not (0 <= b[0] < n and 0 <= b[1] < n):
            return None
        x, y = _value(s, n, a), _value(s, n, b)
        cells = "".join(cell(*p) for p in sorted((a, b)))
        if colour == "w" and abs(x - y) == 1:
            return f"kr_w_{cells}"
        if colour == "b" and (x == 2 * y or y == 2 * x):
            return f"kr_b_{cells}"
        if colour == "x" and x + y == 10:
            return f"xv_x_{cells}"
        if colour == "v" and x + y == 5:
            return f"xv_v_{cells}"
        return None

    return make


def _little(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    name, (dr, dc) = rng.choice(sorted(DIAGONALS.items()))
    r0 = -1 if dr > 0 else n
    c0 = rng.randrange(n) - dc
    cells = [(r0 + k * dr, c0 + k * dc) for k in range(1, n + 1)]
    cells = [x for x in cells if 0 <= x[0] < n and 0 <= x[1] < n]
    if len(cells) < 2:
        return None
    total = sum(_value(s, n, x) for x in cells)
    return f"lk_{_outside(r0, n)}{_outside(c0, n)}_{name}_{total}"


def _sandwich(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    line = rng.choice("rc")
    index = rng.randrange(n)
    cells = [(index, k) if line == "r" else (k, index) for k in range(n)]
    values = [_value(s, n, x) for x in cells]
    a, b = sorted((values.index(1), values.index(n)))
    return f"sw_{line}_{index + 1}_{sum(values[a + 1 : b])}"


def _whispers(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    gap = 5 if n >= 9 else n // 2
    path = _walk(s, n, rng, KING, lambda p, x: abs(_value(s, n, x) - _value(s, n, p[-1])) >= gap)
    path = path[: rng.randint(3, 6)]
    if len(path) < 3:
        return None
    suffix = "" if gap == 5 else f"_{gap}"
    return "wh_" + "".join(cell(*x) for x in path) + suffix


def _renban(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    k = rng.randint(3, 4)

    def ok(p: list[tuple[int, int]], x: tuple[int, int]) -> bool:
        vals = [_value(s, n, y) for y in (*p, x)]
        return len(set(vals)) == len(vals) and max(vals) - min(vals) < k

    path = _walk(s, n, rng, ORTHO, ok)[:k]
    return "rb_" + "".join(cell(*x) for x in path) if len(path) == k else None


def _parity(s: Sequence[int], n: int, rng: random.Random) -> str | None:
    picks = {(rng.randrange(n), rng.randrange(n)) for _ in range(4)}
    want = rng.choice("oe")
    cells = sorted(x for x in picks if (_value(s, n, x) % 2 == 1) == (want == "o"))
    return f"oe_{want}_" + "".join(cell(*x) for x in cells) if cells else None


MAKERS: dict[str, Callable[[Sequence[int], int, random.Random], str | None]] = {
    "th": _thermo,
    "ar": _arrow,
    "krw": _pair("w"),
    "krb": _pair("b"),
    "xvx": _pair("x"),
    "xvv": _pair("v"),
    "lk": _little,
    "sw": _sandwich,
    "wh": _whispers,
    "rb": _renban,
    "oe": _parity,
}


def _outside(x: int, n: int) -> str:
    """A row or column of a clue's place in our spelling: ``0`` above or left of the grid,
    else 1-based (``n + 1`` below or right of it)."""
    return "0" if x < 0 else COORDS[min(x, n)]


LEADS = ("th", "ar", "krw", "krb", "xvx", "lk", "sw", "wh", "rb", "oe")


def make(size: int, lead: str, rng: random.Random) -> dict[str, object] | None:
    """One puzzle leaning on the kind ``lead`` (see :data:`LEADS`), or None when the engine
    could not make it unique within :data:`MAX_GIVENS` givens."""
    s = solution(size, rng)
    rules: list[str] = []
    kinds = [lead, *rng.sample([k for k in LEADS if k != lead], 2)]
    for kind in kinds:
        want = PER_KIND if kind == lead else 2
        for _ in range(200):
            if sum(r.startswith(kind[:2]) for r in rules) >= want:
                break
            text = MAKERS[kind](s, size, rng)
            if text and text not in rules:
                rules.append(text)
    try:
        board = build(size, parse(".".join(rules), size))
    except ValueError:
        return None
    givens = [0] * board.cells
    for _ in range(MAX_GIVENS):
        result = solve(givens, geometry=board)
        if result.status == "solved":
            break
        if result.status != "multiple":
            return None
        a, b = (parse_row(t, board) for t in result.solutions[:2])
        differ = [c for c in range(board.cells) if a[c] != b[c]]
        pick = rng.choice(differ)
        givens[pick] = s[pick]
    else:
        return None
    text = "".join(board.symbol(v) if v else "." for v in givens)
    return {
        "size": size,
        "kinds": kinds,
        "rules": ".".join(rules),
        "givens": text,
        "solution": "".join(board.symbol(v) for v in s),
    }


def parse_row(text: str, board: object) -> list[int]:
    """A solution's text as digits."""
    symbols = board.symbols  # type: ignore[attr-defined]
    return [symbols.index(ch) + 1 for ch in text]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", default="rules-explain")
    parser.add_argument("--per-lead", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = []
    for size in (6, 9):
        for lead in LEADS:
            made = 0
            for _ in range(10):
                puzzle = make(size, lead, rng)
                if puzzle is None:
                    continue
                puzzle = {"id": f"own-{size}-{lead}-{made + 1}", **puzzle}
                lines.append(json.dumps(puzzle))
                made += 1
                if made >= args.per_lead:
                    break
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} puzzles written to {args.out}")


if __name__ == "__main__":
    main()
