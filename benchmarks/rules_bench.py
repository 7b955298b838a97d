"""Rules: the engine (uniqueness proven) against OR-tools CP-SAT counting to two solutions.

``python -m benchmarks.rules_bench`` times both on the same boards: the published f-puzzles
set (``tests/data/variants_fpuzzles.jsonl``) and our own (``tests/data/rules_puzzles.jsonl``,
remade by ``--make``: for each rule kind and size, rules read off a random solution and
givens added until the engine and CP-SAT both find one solution). CP-SAT gets one worker,
stops at the second solution, and its time includes building its model; ours includes
reading nothing (the board is built before the clock starts for both). Times are process
CPU time (``time.process_time``, CP-SAT's worker thread included), so other programs on a
shared box slow both down but do not count as theirs. Figures go in
``benchmarks/RESULTS.md`` ("Rules engine").

The CP-SAT model states each rule independently of the engine: pair rules by their allowed
pairs (:meth:`Rule.relation`), the others by their meaning (a benchmark may name kinds; the
package may not).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_web.core.board import Geometry
from sudoku_web.core.rules import fpuzzles
from sudoku_web.core.rules.board import build
from sudoku_web.core.rules.spelling import parse
from sudoku_web.core.solver import solve

TESTS = Path(__file__).parent.parent / "tests" / "data"
PUBLISHED = TESTS / "variants_fpuzzles.jsonl"
OWN = TESTS / "rules_puzzles.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    """The entries of a JSON-lines set (``fpuzzles`` or ``load``, ``solution``, ``id``)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def board_of(entry: dict[str, Any]) -> tuple[Geometry, tuple[int, ...]]:
    imported = fpuzzles.load(entry.get("load") or entry["fpuzzles"])
    return imported.geometry, imported.givens


# --- CP-SAT --------------------------------------------------------------------------------


def cpsat_count(
    board: Geometry, givens: Sequence[int], limit: float = 120.0
) -> tuple[int, str, float]:
    """(solutions found, at most 2; the first as text; seconds including the model build)."""
    from ortools.sat.python import cp_model

    started = time.process_time()
    n = board.size
    model = cp_model.CpModel()
    cell = [model.new_int_var(1, n, f"c{i}") for i in range(board.cells)]
    for i, v in enumerate(givens):
        if v:
            model.add(cell[i] == v)
    for house in board.houses:
        model.add_all_different([cell[c] for c in house.cells])
    for rule in board.rules:
        found = rule.relation(board)
        if found is not None:
            pairs, allow = found
            allowed = [
                (a, b)
                for a in range(1, n + 1)
                for b in range(1, n + 1)
                if allow[a - 1] >> (b - 1) & 1
            ]
            for x, y in pairs:
                model.add_allowed_assignments([cell[x], cell[y]], allowed)
            continue
        _state(model, cell, rule, board)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[str] = []

        def on_solution_callback(self) -> None:
            self.found.append("".join(board.symbol(self.value(v)) for v in cell))
            if len(self.found) >= 2:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.max_time_in_seconds = limit
    counter = Counter()
    solver.solve(model, counter)
    first = counter.found[0] if counter.found else ""
    return len(counter.found), first, time.process_time() - started


def _state(model: Any, cell: list[Any], rule: Any, board: Geometry) -> None:
    """One rule that is not a pair relation, as CP-SAT constraints."""
    n = board.size
    key = rule.KEY
    if key == "th":
        for a, b in zip(rule.cells, rule.cells[1:], strict=False):
            model.add(cell[a] < cell[b])
    elif key == "ar":
        bulb = sum(cell[c] * 10 ** (len(rule.bulb) - 1 - i) for i, c in enumerate(rule.bulb))
        model.add(sum(cell[c] for c in rule.shaft) == bulb)
    elif key == "lk":
        model.add(sum(cell[c] for c in rule.cells_on(n)) == rule.total)
    elif key == "kc":
        members = [cell[c] for c in rule.cells]
        model.add_all_different(members)
        if rule.total is not None:
            model.add(sum(members) == rule.total)
    elif key == "rb":
        members = [cell[c] for c in dict.fromkeys(rule.cells)]
        model.add_all_different(members)
        high, low = model.new_int_var(1, n, ""), model.new_int_var(1, n, "")
        model.add_max_equality(high, members)
        model.add_min_equality(low, members)
        model.add(high - low == len(members) - 1)
    elif key == "oe":
        wanted = [(v,) for v in range(1, n + 1) if (v % 2 == 1) == (rule.parity == "o")]
        for c in rule.cells:
            model.add_allowed_assignments([cell[c]], wanted)
    elif key == "sw":
        _sandwich(model, cell, rule.cells_on(n), rule.total, n)
    elif key == "dg":
        pass  # a house of the board: stated with the houses
    else:
        raise ValueError(f"no CP-SAT statement for {rule.NAME}")


def _sandwich(model: Any, cell: list[Any], line: Sequence[int], total: int, n: int) -> None:
    """The digits strictly between the line's 1 and N add up to ``total``."""
    is_low = [model.new_bool_var("") for _ in line]
    is_high = [model.new_bool_var("") for _ in line]
    for c, low, high in zip(line, is_low, is_high, strict=True):
        model.add(cell[c] == 1).only_enforce_if(low)
        model.add(cell[c] != 1).only_enforce_if(~low)
        model.add(cell[c] == n).only_enforce_if(high)
        model.add(cell[c] != n).only_enforce_if(~high)
    terms = []
    for j, c in enumerate(line):
        seen_low = sum(is_low[:j])
        seen_high = sum(is_high[:j])
        # Every helper is fixed by the cells (solutions are counted over cells): one_seen
        # iff exactly one end lies before j, end iff j is an end, inside iff one and not other.
        one_seen = model.new_bool_var("")
        model.add(seen_low + seen_high == 1).only_enforce_if(one_seen)
        model.add(seen_low + seen_high != 1).only_enforce_if(~one_seen)
        end = model.new_bool_var("")
        model.add(is_low[j] + is_high[j] >= 1).only_enforce_if(end)
        model.add(is_low[j] + is_high[j] == 0).only_enforce_if(~end)
        inside = model.new_bool_var("")
        model.add_bool_and([one_seen, ~end]).only_enforce_if(inside)
        model.add_bool_or([~one_seen, end]).only_enforce_if(~inside)
        value = model.new_int_var(0, n, "")
        model.add(value == cell[c]).only_enforce_if(inside)
        model.add(value == 0).only_enforce_if(~inside)
        terms.append(value)
    model.add(sum(terms) == total)


# --- timing --------------------------------------------------------------------------------


def compare(entries: list[dict[str, Any]], rounds: int) -> list[dict[str, Any]]:
    """Per puzzle: our median ms and status, CP-SAT's median ms and count."""
    rows = []
    for entry in entries:
        board, givens = board_of(entry)
        ours, theirs = [], []
        status = count = None
        for _ in range(rounds):
            t = time.process_time()
            result = solve(list(givens), geometry=board, max_nodes=10**7, deadline_ms=None)
            ours.append((time.process_time() - t) * 1000)
            status = result.status
            assert result.solution == entry["solution"], entry["id"]
            found, first, seconds = cpsat_count(board, givens)
            theirs.append(seconds * 1000)
            count = found
            assert found == 1 and first == entry["solution"], entry["id"]
        rows.append(
            {
                "id": entry["id"],
                "size": board.size,
                "kinds": entry.get("kinds", []),
                "ours_ms": statistics.median(ours),
                "cpsat_ms": statistics.median(theirs),
                "status": status,
                "cpsat_count": count,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


# --- our own set -----------------------------------------------------------------------------

# What each generated puzzle carries: (id, size, our spelling of the global rules, kinds read
# off the solution). Kinds read off a solution: see ``_read_off``.
PLAN = [
    ("th6", 6, "", ["th"]),
    ("th9", 9, "", ["th"]),
    ("th16", 16, "", ["th"]),
    ("ar6", 6, "", ["ar"]),
    ("ar9", 9, "", ["ar"]),
    ("kr6", 6, "", ["krw", "krb", "ngw", "ngb"]),
    ("kr9", 9, "", ["krw", "krb"]),
    ("xv6", 6, "", ["xv", "ngxv"]),
    ("xv9", 9, "", ["xv", "ngxv"]),
    ("lk6", 6, "", ["lk"]),
    ("lk9", 9, "", ["lk"]),
    ("sw6", 6, "", ["sw"]),
    ("sw9", 9, "", ["sw"]),
    ("kc6", 6, "", ["kc"]),
    ("kc9", 9, "", ["kc"]),
    ("kc16", 16, "", ["kc"]),
    ("wh6", 6, "", ["wh"]),
    ("wh9", 9, "", ["wh"]),
    ("rb6", 6, "", ["rb"]),
    ("rb9", 9, "", ["rb"]),
    ("pd9", 9, "", ["pd"]),
    ("oe6", 6, "", ["oe"]),
    ("oe9", 9, "", ["oe"]),
    ("kn9", 9, "kn", []),
    ("ki9", 9, "ki", []),
    ("nc9", 9, "nc", ["krw"]),
    ("dg9", 9, "dg_p.dg_m", ["th"]),
    ("kn6", 6, "kn", ["oe"]),
    ("dg16", 16, "dg_m", ["kc"]),
    ("mix9", 9, "", ["th", "ar", "xv", "wh", "rb"]),
]


def _solution(size: int, rules: str, rng: random.Random) -> list[int]:
    """A random grid keeping the global rules: the engine's first solution of a few random
    givens (retried until some solution exists)."""
    board = build(size, parse(rules, size))
    while True:
        grid = [0] * board.cells
        for cell in rng.sample(range(board.cells), size):
            grid[cell] = rng.randint(1, size)
        result = solve(grid, geometry=board, max_nodes=20_000, deadline_ms=5000)
        if result.solutions:
            return [board.symbols.index(ch) + 1 for ch in result.solutions[0]]


def _token(cells: Sequence[int], size: int) -> str:
    from sudoku_web.core.rules.base import cells_token

    return cells_token(cells, size)


def _read_off(kind: str, grid: list[int], n: int, rng: random.Random) -> list[str]:
    """Rules of ``kind`` that ``grid`` keeps, in our spelling."""
    if kind in ("krw", "krb", "xv"):
        return _read_pairs(kind, grid, n, rng)
    if kind in ("ngw", "ngb", "ngxv"):
        return [f"ng_{kind[2:]}"]
    out: list[str] = []
    if kind in ("th", "wh", "rb", "pd", "ar"):
        for _ in range(n * 3):
            line = _walk(grid, n, kind, rng)
            if line:
                out.append(line)
        return out[: n // 2 + 2]
    if kind == "lk":
        for col in range(1, n - 1):
            cells = [i * n + col + i for i in range(n) if col + i < n]
            total = sum(grid[c] for c in cells)
            out.append(f"lk_0{'0123456789abcdefg'[col]}_dr_{total}")
        return rng.sample(out, min(len(out), n // 2 + 1))
    if kind == "sw":
        for r in range(n):
            row = grid[r * n : r * n + n]
            a, b = sorted((row.index(1), row.index(n)))
            out.append(f"sw_r_{r + 1}_{sum(row[a + 1 : b])}")
        return rng.sample(out, n - 1)
    if kind == "kc":
        return _cages(grid, n, rng)
    if kind == "oe":
        cells = rng.sample(range(n * n), n * 2)
        odd = sorted(c for c in cells if grid[c] % 2)
        even = sorted(c for c in cells if not grid[c] % 2)
        return [f"oe_o_{_token(odd, n)}", f"oe_e_{_token(even, n)}"]
    raise ValueError(kind)


def _read_pairs(kind: str, grid: list[int], n: int, rng: random.Random) -> list[str]:
    """The dots or letters ``grid`` keeps between orthogonal neighbours (some of them)."""
    out: list[str] = []
    for a in range(n * n):
        for b in (a + 1, a + n):
            if b >= n * n or (b == a + 1 and b % n == 0):
                continue
            x, y = grid[a], grid[b]
            cells = _token([a, b], n)
            if kind == "krw" and abs(x - y) == 1:
                out.append(f"kr_w_{cells}")
            elif kind == "krb" and (x == 2 * y or y == 2 * x):
                out.append(f"kr_b_{cells}")
            elif kind == "xv" and x + y in (5, 10):
                out.append(f"xv_{'x' if x + y == 10 else 'v'}_{cells}")
    return out


def _walk(grid: list[int], n: int, kind: str, rng: random.Random) -> str | None:
    """A random line the grid keeps as ``kind`` (thermometer, whispers, renban, palindrome,
    arrow with its bulb first), or None."""
    r, c = rng.randrange(n), rng.randrange(n)
    path = [(r, c)]
    for _ in range(rng.randint(2, 5)):
        steps = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc)]
        rng.shuffle(steps)
        for rr, cc in steps:
            if 0 <= rr < n and 0 <= cc < n and (rr, cc) not in path:
                values = [grid[x * n + y] for x, y in path] + [grid[rr * n + cc]]
                if _keeps(kind, values, path + [(rr, cc)], n):
                    path.append((rr, cc))
                    r, c = rr, cc
                    break
        else:
            break
    if len(path) < 3:
        return None
    cells = [x * n + y for x, y in path]
    token = _token(cells, n)
    if kind == "ar":
        return (
            f"ar_{token[:2]}_{token}" if grid[cells[0]] == sum(grid[x] for x in cells[1:]) else None
        )
    if kind == "pd":
        values = [grid[x] for x in cells]
        return f"pd_{token}" if values == values[::-1] else None
    return f"{kind}_{token}"


def _keeps(kind: str, values: list[int], path: list[tuple[int, int]], n: int) -> bool:
    if kind == "th":
        return values[-2] < values[-1]
    if kind == "wh":
        return abs(values[-2] - values[-1]) >= 5 if n >= 9 else abs(values[-2] - values[-1]) >= 3
    if kind == "rb":
        return len(set(values)) == len(values) and max(values) - min(values) == len(values) - 1
    if kind == "ar":
        return sum(values[1:]) <= values[0]
    if kind == "pd":
        return True  # checked on the whole line
    raise ValueError(kind)


def _cages(grid: list[int], n: int, rng: random.Random) -> list[str]:
    """Random cages of 2-4 cells with different digits, covering about half the grid."""
    free = set(range(n * n))
    out = []
    while len(free) > n * n // 2:
        start = rng.choice(sorted(free))
        cage = [start]
        while len(cage) < rng.randint(2, 4):
            near = [
                c
                for x in cage
                for c in _around(x, n)
                if c in free and c not in cage and grid[c] not in {grid[y] for y in cage}
            ]
            if not near:
                break
            cage.append(rng.choice(near))
        free -= set(cage)
        if len(cage) > 1:
            out.append(f"kc_{_token(sorted(cage), n)}_{sum(grid[c] for c in cage)}")
    return out


def _around(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [
        (r + dr) * n + c + dc
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if 0 <= r + dr < n and 0 <= c + dc < n
    ]


def make(seed: int = 32) -> None:
    """Remake ``tests/data/rules_puzzles.jsonl``: each plan's rules on a random solution,
    givens added until the engine finds one solution, then CP-SAT confirms it."""
    rng = random.Random(seed)
    OWN.write_text("")
    for ident, size, globals_, kinds in PLAN:
        for _attempt in range(20):
            grid = _solution(size, globals_, rng)
            texts = [t for t in globals_.split(".") if t]
            for kind in kinds:
                texts += _read_off(kind, grid, size, rng)
            try:
                board = build(size, parse(".".join(texts), size))
            except Exception:  # a line the generator drew badly: draw again
                continue
            givens = _givens(board, grid, rng)
            if givens is None:
                continue
            found, first, _ = cpsat_count(board, givens, limit=60)
            text = "".join(board.symbol(v) for v in grid)
            if found != 1 or first != text:
                continue
            entry = {
                "id": f"own-{ident}",
                "kinds": sorted({r.KEY for r in board.rules}),
                "size": size,
                "fpuzzles": fpuzzles.write(board, givens, f"sudoku-web test {ident}"),
                "solution": text,
            }
            with OWN.open("a") as out:  # written as made: a long run keeps what it made
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
            print(
                ident, sum(1 for v in givens if v), "givens", len(board.rules), "rules", flush=True
            )
            break
        else:
            print(ident, "not made", flush=True)


def _givens(board: Geometry, grid: list[int], rng: random.Random) -> tuple[int, ...] | None:
    """Givens of ``grid`` added at random until the engine proves one solution, then
    dropped again where the solution stays unique."""
    order = rng.sample(range(board.cells), board.cells)
    givens = [0] * board.cells
    step = max(1, board.size // 4)  # givens added a few at a time (a 16x16 needs many)
    for start in range(0, board.cells + 1, step):
        for cell in order[max(0, start - step) : start]:
            givens[cell] = grid[cell]
        result = solve(givens, geometry=board, max_nodes=50_000, deadline_ms=5000)
        if result.status == "solved":
            break
        if result.status not in ("multiple", "gave_up"):
            return None
    else:
        return None
    for cell in order:
        if givens[cell]:
            givens[cell] = 0
            result = solve(givens, geometry=board, max_nodes=5_000, deadline_ms=1000)
            if result.status != "solved":
                givens[cell] = grid[cell]
    return tuple(givens)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--make", action="store_true", help="remake our own set first")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("published", "own"), default=None)
    args = parser.parse_args()
    if args.make:
        make()
    sets = {"published": load(PUBLISHED), "own": load(OWN)}
    for name, entries in sets.items():
        if args.only and name != args.only:
            continue
        rows = compare(entries, args.rounds)
        ours = sum(r["ours_ms"] for r in rows)
        theirs = sum(r["cpsat_ms"] for r in rows)
        worst = max(rows, key=lambda r: r["ours_ms"])
        print(
            f"{name}: {len(rows)} puzzles; ours {ours:.0f} ms in all (median "
            f"{statistics.median(r['ours_ms'] for r in rows):.1f}, worst {worst['ours_ms']:.0f} "
            f"{worst['id']}); CP-SAT {theirs:.0f} ms in all (median "
            f"{statistics.median(r['cpsat_ms'] for r in rows):.1f})"
        )


if __name__ == "__main__":
    main()
