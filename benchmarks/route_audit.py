"""Route audit: the server time of every route of the app under the worst inputs we can build.

The product asks that no single request of any route, for any input, cost more than 300 ms of
server time. This script enumerates the app's routes from ``app.url_map`` (a new route is
audited without editing this file: an unknown endpoint gets the generic share-link inputs),
builds hostile inputs for each, sends them through the WSGI test client in process, and prints
per route the p50 and max of CPU time (``time.process_time``, the main figure: the box is
shared, so wall time is inflated by other processes) and of wall time, with the slowest input.

Inputs, fresh each round (new symbols, new maps) so that no cache helps:

sparse unique 16x16
    a 16x16 solution thinned while the engine still finds one solution (the logic solver's
    worst: many steps, hard techniques)
20 givens 16x16
    several solutions (the suggested-given search)
three-in-two 16x16
    20 givens, no two in conflict, where three symbols must share two cells of row 1 (the
    old tracing solver searched for seconds before finding it; the engine refutes it at once)
typo 16x16
    a unique 16x16 with one given changed to a symbol its peers allow (the typo doctor)
jigsaw 16x16
    a fresh random map of 16 connected regions of 16 cells (the engine's table build), with a
    dense unique puzzle and a sparse one
9x9
    the hardest top95 puzzles, and top95 givens read as X and hyper (mostly impossible)

Usage::

    python -m benchmarks.route_audit [--rounds 3] [--seed 12] [--only steps] [--limit-ms 300]

Exit status 1 when any route's max CPU time is over ``--limit-ms`` (for a CI that wants it).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.data_files import data_file
from sudoku_web import create_app
from sudoku_web.core.board import find_conflicts, jigsaw, parse_puzzle, standard
from sudoku_web.core.cages import link_spelling, parse_cages
from sudoku_web.core.solver import solve
from sudoku_web.core.variants import find_variant, layout_of
from sudoku_web.web.puzzles import urls
from sudoku_web.web.puzzles.urls import ROUTED

SYMBOLS16 = "123456789ABCDEFG"
LETTERS = "ABCDEFGHIJKLMNOP"


# ---- Inputs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A puzzle to send: its variant key, size, text (``0`` for empty) and a jigsaw's map."""

    label: str
    variant: str
    size: int
    puzzle: str
    regions: str | None = None
    cages: str | None = None  # a killer's, in their share-link spelling


def _solution(size: int, rng: random.Random) -> list[int]:
    """A random classic solution: the pattern grid with bands, rows, stacks, columns and
    symbols shuffled."""
    box = {4: 2, 9: 3, 16: 4}[size]
    rows = [b * box + r for b in rng.sample(range(box), box) for r in rng.sample(range(box), box)]
    cols = [b * box + c for b in rng.sample(range(box), box) for c in rng.sample(range(box), box)]
    symbols = rng.sample(range(1, size + 1), size)
    return [symbols[(box * (r % box) + r // box + c) % size] for r in rows for c in cols]


def _text(grid: list[int], size: int) -> str:
    alphabet = "0" + SYMBOLS16[:size]
    return "".join(alphabet[v] for v in grid)


def sparse_unique16(rng: random.Random, floor: int = 100) -> str:
    """A 16x16 thinned at random while the engine still says one solution (down to ``floor``
    givens or until no cell can go)."""
    geometry = standard(16)
    grid = _solution(16, rng)
    for cell in rng.sample(range(256), 256):
        if sum(1 for v in grid if v) <= floor:
            break
        keep = grid[cell]
        grid[cell] = 0
        if solve(_text(grid, 16), geometry=geometry, max_nodes=400).status != "solved":
            grid[cell] = keep
    return _text(grid, 16)


def few_givens16(rng: random.Random, count: int = 20) -> str:
    grid = _solution(16, rng)
    keep = set(rng.sample(range(256), count))
    return _text([v if i in keep else 0 for i, v in enumerate(grid)], 16)


def three_in_two16(rng: random.Random) -> str:
    """20 givens, none in conflict, where three symbols can only go in two cells of row 1.

    A, B and C sit in each of boxes 2, 3 and 4 (rows 2-4), which keeps them out of row 1's
    columns 5-16, and in columns 3 and 4 further down, which keeps them out of cells 3 and 4
    of row 1: only cells 1 and 2 are left for three symbols.
    """
    a, b, c, *rest = rng.sample(range(1, 17), 16)
    grid = [0] * 256
    placed = {
        (1, 4): a, (2, 5): b, (3, 6): c,
        (2, 9): a, (3, 10): b, (1, 8): c,
        (3, 14): a, (1, 12): b, (2, 13): c,
        (4, 2): a, (8, 2): b, (12, 2): c,
        (8, 3): a, (12, 3): b, (4, 3): c,
    }  # fmt: skip
    for (row, col), value in placed.items():
        grid[row * 16 + col] = value
    geometry = standard(16)
    while sum(1 for v in grid if v) < 20:  # a few other symbols in the lower rows
        cell, value = rng.randrange(64, 256), rng.choice(rest)
        if grid[cell]:
            continue
        grid[cell] = value
        if find_conflicts(grid, geometry):
            grid[cell] = 0
    return _text(grid, 16)


def typo16(rng: random.Random) -> str:
    """A unique 16x16 (~110 givens) with one given changed to a symbol no peer holds."""
    text = sparse_unique16(rng, floor=110)
    geometry = standard(16)
    grid = parse_puzzle(text, geometry)
    for cell in rng.sample([i for i, v in enumerate(grid) if v], sum(1 for v in grid if v)):
        seen = {grid[p] for p in geometry.peers[cell]}
        free = [v for v in range(1, 17) if v not in seen and v != grid[cell]]
        if free:
            grid[cell] = rng.choice(free)
            return _text(grid, 16)
    return text


def _neighbours(cell: int, size: int) -> list[int]:
    r, c = divmod(cell, size)
    return [
        n
        for n, ok in ((cell - size, r > 0), (cell + size, r < size - 1), (cell - 1, c > 0),
                      (cell + 1, c < size - 1))
        if ok
    ]  # fmt: skip


def _connected(region: list[int], label: int, size: int) -> bool:
    cells = [i for i, x in enumerate(region) if x == label]
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for n in _neighbours(todo.pop(), size):
            if region[n] == label and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _swap(region: list[int], size: int, rng: random.Random) -> None:
    """Move a cell b into its neighbour a's region and give one of that region's cells next
    to b's old region back, so sizes stay equal; undone unless both stay connected."""
    a = rng.randrange(size * size)
    b = rng.choice(_neighbours(a, size))
    ra, rb = region[a], region[b]
    if ra == rb:
        return
    region[b] = ra
    back = [
        n
        for n in range(size * size)
        if region[n] == ra and n != b and any(region[m] == rb for m in _neighbours(n, size))
    ]
    if not back:
        region[b] = rb
        return
    d = rng.choice(back)
    region[d] = rb
    if not (_connected(region, ra, size) and _connected(region, rb, size)):
        region[b], region[d] = rb, ra


def random_map(size: int, rng: random.Random, swaps: int = 20_000) -> str:
    """A random jigsaw map: ``size`` connected regions of ``size`` cells, from the rows by
    random swaps of neighbouring cells that keep both regions connected; letters by first
    appearance (the canonical spelling)."""
    region = [cell // size for cell in range(size * size)]
    for _ in range(swaps):
        _swap(region, size, rng)
    first: dict[int, str] = {}
    for x in region:
        if x not in first:
            first[x] = LETTERS[len(first)]
    return "".join(first[x] for x in region)


def jigsaw_boards(rng: random.Random, size: int = 16) -> list[Board]:
    """A fresh map with a dense unique puzzle and a sparse one (several solutions)."""
    for _ in range(5):  # the engine may give up on an empty grid of an awkward map
        regions = random_map(size, rng)
        geometry = jigsaw(regions)
        found = solve("0" * size * size, geometry=geometry, max_nodes=20_000, deadline_ms=5000)
        if found.solutions:
            break
    else:
        return [Board(f"jigsaw{size} empty", "jigsaw", size, "0" * size * size, regions)]
    solution = parse_puzzle(found.solutions[0], geometry)
    dense = [v if rng.random() < 0.55 else 0 for v in solution]
    sparse = [v if rng.random() < 0.08 else 0 for v in solution]
    return [
        Board(f"jigsaw{size} 55%", "jigsaw", size, _text(dense, size), regions),
        Board(f"jigsaw{size} 8%", "jigsaw", size, _text(sparse, size), regions),
    ]


def _lines(name: str) -> list[str]:
    return [line.split()[0].replace(".", "0") for line in data_file(name).read_text().split("\n")
            if line.strip() and not line.startswith("#")]  # fmt: skip


def boards(rng: random.Random) -> list[Board]:
    """One round's boards: fresh 16x16s and maps, and a few hard 9x9s."""
    hard = rng.sample(_lines("hardest.txt"), 2) + rng.sample(_lines("top95.txt"), 2)
    out = [Board("9x9 hard", "standard", 9, p) for p in hard]
    out += [Board("x 9x9 top95", "x", 9, hard[2]), Board("hyper 9x9 top95", "hyper", 9, hard[3])]
    out += [
        Board("16x16 sparse unique", "standard", 16, sparse_unique16(rng)),
        Board("16x16 20 givens", "standard", 16, few_givens16(rng)),
        Board("16x16 three-in-two", "standard", 16, three_in_two16(rng)),
        Board("16x16 typo", "standard", 16, typo16(rng)),
    ]
    out += jigsaw_boards(rng, 16) + jigsaw_boards(rng, 9)
    out += killer_boards(rng, out)
    return out


def killer_boards(rng: random.Random, others: list[Board]) -> list[Board]:
    """A published killer (no givens) on the classic board, and its cages on the X, hyper
    and a 9x9 jigsaw board (cages covering the grid with sums adding to 405 fit any 9x9)."""
    line = rng.choice(_lines("killer_krazydad.txt"))
    geo = standard(9)
    cages = link_spelling(parse_cages(line, geo), geo)
    empty = "0" * 81
    out = [Board("killer", "killer", 9, empty, None, cages)]
    out += [Board(f"killer-{v}", v, 9, empty, None, cages) for v in ("x", "hyper")]
    jigsaw9 = next(b for b in others if b.regions and b.size == 9)
    out.append(Board("killer-jigsaw", jigsaw9.variant, 9, empty, jigsaw9.regions, cages))
    return out


# ---- Requests per route -------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request: method, URL, and a form or JSON body."""

    label: str
    method: str
    url: str
    data: dict[str, str] | None = None
    json_body: Any = None
    raw: bytes | None = None
    raw_type: str = "application/json"  # the Content-Type of ``raw``


def _variant_of(endpoint: str) -> tuple[str, str, bool] | None:
    """(variant key, page suffix, with cages) of a share-link endpoint, None for others."""
    name = endpoint.split(".", 1)[1] if "." in endpoint else endpoint
    stems = [(urls.endpoint(i, caged=c), i.key, c) for i in ROUTED for c in (False, True)]
    for base, key, caged in sorted(stems, key=lambda s: -len(s[0])):
        if name == base or name.startswith(base + "_"):
            return key, name[len(base) + 1 :], caged
    return None


def _form(board: Board, extra: dict[str, str] | None = None) -> dict[str, str]:
    key = {"standard": "" if board.size == 9 else f"{board.size}x{board.size}"}.get(
        board.variant, board.variant
    )
    data = {f"cells-{i}": ("" if ch == "0" else ch) for i, ch in enumerate(board.puzzle)}
    data |= {"v": key, "n": str(board.size)}
    if board.regions:
        data["regions"] = board.regions
    if board.cages:
        data["cages"] = board.cages
    return data | (extra or {})


def _api(board: Board) -> dict[str, str]:
    body = {"puzzle": board.puzzle, "variant": board.variant}
    if board.regions:
        body["regions"] = board.regions
    if board.cages:
        body["cages"] = board.cages
    return body


def _share_calls(
    rule: Any, app: Any, all_boards: list[Board], variant: str, page: str, caged: bool
) -> list[Call]:
    """A share-link page of one variant (with cages or without): every board of that kind,
    odd query included."""
    from flask import url_for

    def of_kind(board: Board) -> bool:
        layout = layout_of(find_variant(board.variant)).key
        return layout == variant and bool(board.cages) == caged

    out: list[Call] = []
    with app.test_request_context():
        for board in filter(of_kind, all_boards):
            args: dict[str, Any] = {"puzzle": board.puzzle}
            if board.regions:
                args["regions"] = board.regions
            if board.cages:
                args["cages"] = board.cages
            if "<path:puzzle>" in rule.rule:  # a pasted spelling with slashes: redirected
                rows = range(0, len(board.puzzle), board.size)
                args["puzzle"] = "/".join(board.puzzle[i : i + board.size] for i in rows)
            url = url_for(rule.endpoint, **args)
            if page == "steps":
                out.append(Call(board.label + " ?step=last", "GET", url + "?step=999"))
                url += "?step=1&puzzle=x&page=2&_anchor=y"
            elif page == "difficulty":
                url += "?embed=1"
            out.append(Call(board.label, "GET", url))
    return out


def _form_calls(rule: Any, board: Board, rng: random.Random) -> list[Call]:
    """The form's POSTs (solve, hint); a hint also with entries over the puzzle."""
    out = [Call(board.label, "POST", rule.rule, data=_form(board))]
    if rule.endpoint == "teach.hint":
        # A tenth of the empty cells filled at random (mostly wrong), the puzzle as givens.
        filled = "".join(
            SYMBOLS16[rng.randrange(board.size)] if ch == "0" and rng.random() < 0.1 else ch
            for ch in board.puzzle
        )
        entries = Board(board.label, board.variant, board.size, filled, board.regions)
        out.append(
            Call(board.label + " +entries", "POST", rule.rule,
                 data=_form(entries, {"givens": board.puzzle}))
        )  # fmt: skip
    return out


def _api_calls(rule: Any, app: Any, all_boards: list[Board], methods: set[str]) -> list[Call]:
    out: list[Call] = []
    for board in all_boards:
        body = _api(board)
        if rule.rule.endswith(("/check", "/hint")):  # a game: the givens as the entries so far
            body["entries"] = board.puzzle
            if rule.rule.endswith("/check"):
                body["reveal"] = "r1c1"
        if "GET" in methods:
            query = "&".join(f"{k}={v}" for k, v in body.items())
            out.append(Call(board.label, "GET", f"{rule.rule}?{query}"))
        if "POST" in methods:
            out.append(Call(board.label, "POST", rule.rule, json_body=body))
    if "POST" in methods:  # huge-but-allowed and odd bodies
        limit = app.config.get("MAX_CONTENT_LENGTH") or 64 * 1024
        padding = "x" * max(0, int(limit) - 200)
        big = json.dumps({"puzzle": "0" * 81, "pad": padding}).encode()
        out.append(Call("body at the size limit", "POST", rule.rule, raw=big))
        out.append(Call("nested 30 deep", "POST", rule.rule, raw=("[" * 30 + "]" * 30).encode()))
    return out


def _photo_calls(rule: Any, rng: random.Random) -> list[Call]:
    """The photo readers: a photo of a printed puzzle, a decompression bomb, an upload over
    the limit (benchmarks/hostile.py) and a photo with no grid in it."""
    from .hostile import PHOTO_KINDS, multipart, no_sudoku_photo

    out = []
    for kind, build in PHOTO_KINDS.items():
        request = build(rng)
        out.append(Call(kind, "POST", rule.rule, raw=request.body, raw_type=request.content_type))
    body, ctype = multipart("lake.jpg", no_sudoku_photo())
    out.append(Call("photo of no Sudoku", "POST", rule.rule, raw=body, raw_type=ctype))
    return out


def _query(board: Board) -> str:
    query = f"?v={board.variant}&n={board.size}&p={board.puzzle}&r={board.regions or ''}"
    return query + (f"&k={board.cages}" if board.cages else "")


def _fallback_calls(rule: Any, app: Any, all_boards: list[Board], methods: set[str]) -> list[Call]:
    """Routes this audit does not know by name: a plain GET, a static file, or share-link
    inputs for a route taking a puzzle."""
    if rule.endpoint == "static":
        name = sorted(p.name for p in Path(app.static_folder).iterdir() if p.is_file())[0]
        return [Call(name, "GET", f"/static/{name}")]
    if "GET" in methods and not rule.arguments:
        return [Call("plain", "GET", rule.rule)]
    out: list[Call] = []
    if "GET" in methods and "puzzle" in rule.arguments:
        for board in all_boards:
            url = rule.rule.replace("<puzzle>", board.puzzle)
            url = url.replace("<regions>", board.regions or "")
            if "<" not in url:
                out.append(Call(board.label, "GET", url))
    return out


def calls_for(rule: Any, app: Any, all_boards: list[Board], rng: random.Random) -> list[Call]:
    """The hostile requests for one URL rule."""
    endpoint, methods = rule.endpoint, set(rule.methods) - {"HEAD", "OPTIONS"}
    share = _variant_of(endpoint)
    if share is not None:
        return _share_calls(rule, app, all_boards, *share)
    if endpoint in ("pages.read_photo", "api.read_photo"):
        return _photo_calls(rule, rng)
    if endpoint.startswith("api.") or rule.rule.startswith("/api/"):
        return _api_calls(rule, app, all_boards, methods)
    if endpoint in ("pages.index", "pages.printout"):
        return [Call(b.label, "GET", rule.rule + _query(b)) for b in all_boards]
    if endpoint in ("pages.submit", "teach.hint"):
        return [call for b in all_boards for call in _form_calls(rule, b, rng)]
    if endpoint == "pages.choose":
        return _language_calls(rule, rng)
    if endpoint == "pages.script_words":
        return _script_words_calls(rule, rng)
    if rule.rule.startswith("/rules"):
        return _rules_calls(rule, all_boards, methods)
    return _fallback_calls(rule, app, all_boards, methods)


# Rules spellings sent to the rules pages: a global rule, lines, and one no kind has.
_RULES = ("kn", "th_11121314.ki.xv_x_5556", "zz_11")


def _rules_calls(rule: Any, all_boards: list[Board], methods: set[str]) -> list[Call]:
    """A rules page's share links (each board's givens with a few rules spellings), or the
    rules form's pastes: a published f-puzzles puzzle, a cut one, an SudokuPad scl link."""
    if "POST" in methods:
        published = Path(__file__).parent.parent / "tests" / "data" / "variants_fpuzzles.jsonl"
        load = json.loads(published.read_text().splitlines()[0])["load"]
        pastes = {"f-puzzles": load, "cut": load[: len(load) // 2], "scl": "scl" + "A" * 400}
        return [Call(k, "POST", rule.rule, data={"fpuzzles": v}) for k, v in pastes.items()]
    out = []
    for board, spelling in zip(all_boards, itertools.cycle(_RULES), strict=False):
        url = rule.rule.replace("<puzzle>", board.puzzle).replace("<rules>", spelling)
        if "<regions>" in url:
            if board.regions is None:
                continue
            url = url.replace("<regions>", board.regions)
        out.append(Call(f"{board.label} {spelling}", "GET", url))
    return out


def _language_calls(rule: Any, rng: random.Random) -> list[Call]:
    """The language picker's post: each language, an unknown one, a way back elsewhere, and
    a long random value (a cookie is set, a 303 or a 400 is the answer)."""
    noise = "".join(rng.choice("abcdefghij/%:\\.") for _ in range(2000))
    return [
        Call("a language", "POST", rule.rule, data={"lang": "de", "next": "/p/" + "0" * 81}),
        Call("unknown language", "POST", rule.rule, data={"lang": "xx", "next": "/"}),
        Call("elsewhere", "POST", rule.rule, data={"lang": "ja", "next": "//evil.example/"}),
        Call("noise", "POST", rule.rule, data={"lang": noise[:40], "next": noise}),
    ]


def _script_words_calls(rule: Any, rng: random.Random) -> list[Call]:
    """The scripts' words: each translated language (built once per process), an unknown
    one, and a long random name (a 404)."""
    noise = "".join(rng.choice("abcdefghij%.-") for _ in range(300))
    codes = {"German": "de", "Japanese": "ja", "unknown language": "xx", "noise": noise}
    return [Call(k, "GET", rule.rule.replace("<code>", v)) for k, v in codes.items()]


# ---- Timing ---------------------------------------------------------------------------------


@dataclass
class Timing:
    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    slowest: tuple[float, str, int, int] = (0.0, "", 0, 0)  # cpu ms, input, status, bytes
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))


def send(client: Any, call: Call) -> tuple[float, float, int, int]:
    """(cpu ms, wall ms, status, body bytes) of one request, the body read in full."""
    kwargs: dict[str, Any] = {}
    if call.data is not None:
        kwargs["data"] = call.data
    if call.json_body is not None:
        kwargs["json"] = call.json_body
    if call.raw is not None:
        kwargs["data"] = call.raw
        kwargs["content_type"] = call.raw_type
    cpu, wall = time.process_time(), time.perf_counter()
    response = client.open(call.url, method=call.method, **kwargs)
    size = len(response.get_data())
    response.close()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu * 1000, wall * 1000, response.status_code, size


def audit(rounds: int, seed: int, only: str | None) -> dict[str, Timing]:
    app = create_app({"TESTING": False})
    client = app.test_client()
    rng = random.Random(seed)
    timings: dict[str, Timing] = defaultdict(Timing)
    rules = sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, r.endpoint))
    for round_number in range(rounds):
        all_boards = boards(rng)
        for rule in rules:
            for call in calls_for(rule, app, all_boards, rng):
                name = f"{call.method} {rule.rule}"
                if only and only not in name:
                    continue
                cpu, wall, status, size = send(client, call)
                timing = timings[name]
                timing.cpu_ms.append(cpu)
                timing.wall_ms.append(wall)
                timing.statuses[status] += 1
                if cpu > timing.slowest[0]:
                    timing.slowest = (cpu, call.label, status, size)
        print(f"round {round_number + 1}/{rounds} done", file=sys.stderr)
    return timings


def report(timings: dict[str, Timing], limit_ms: float) -> bool:
    """Print the table; True when every route stays under ``limit_ms`` of CPU."""
    print(f"{'route':48} {'n':>4} {'cpu p50':>8} {'cpu max':>8} {'wall max':>9}  slowest input")
    ok = True
    for name, t in sorted(timings.items(), key=lambda kv: -max(kv[1].cpu_ms)):
        worst, label, status, size = t.slowest
        flag = "  OVER" if worst > limit_ms else ""
        ok = ok and not flag
        codes = ",".join(f"{k}x{v}" for k, v in sorted(t.statuses.items()))
        print(
            f"{name[:48]:48} {len(t.cpu_ms):4d} {statistics.median(t.cpu_ms):8.1f} "
            f"{worst:8.1f} {max(t.wall_ms):9.1f}  {label} ({status}, {size // 1024} KB)"
            f" [{codes}]{flag}"
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--only", help="audit only routes whose 'METHOD /rule' contains this")
    parser.add_argument("--limit-ms", type=float, default=300.0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    timings = audit(args.rounds, args.seed, args.only)
    ok = report(timings, args.limit_ms)
    total = sum(len(t.cpu_ms) for t in timings.values())
    print(
        f"{total} requests over {len(timings)} routes in {time.perf_counter() - started:.0f} s;"
        f" every route under {args.limit_ms:.0f} ms of CPU: {'yes' if ok else 'NO'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
