"""The most expensive requests known, each with a fresh input, for the hostile load test.

Every request is built from a random source so that no cache (the app's result and page
caches, its per-geometry engine tables) helps: a new 16x16 jigsaw region map, new sparse
16x16 givens, or a known 16x16 puzzle disguised by a random symmetry (relabelled symbols,
permuted rows and columns within their bands and stacks, permuted bands and stacks, maybe
transposed), which keeps its difficulty but not its text; the published 16x16 rules puzzle
with its symbols relabelled; a thousand cells of thermometers climbing as a relabelled
solution does. Each builder returns a
:class:`Request`; :data:`KINDS` names them for the report.

Photos (:data:`PHOTO_KINDS`, run on their own by ``loadtest --photos``): a photo of a printed
puzzle from ``tests/data/photos`` (nothing caches a reading, so the same photo is read anew
each time), a decompression-bomb PNG (a small file that declares 30000x30000 pixels) and an
upload over the 8 MiB limit, each as the multipart ``POST /api/read`` a browser sends.

Glossary: a *kind* is one family of expensive request (``steps16``, ``jigsaw16-map`` ...);
a *map* is a jigsaw region map, one label per cell, row-major; *sparse* givens are a few
non-conflicting symbols on an otherwise empty grid, which leaves the engine a wide search.
"""

from __future__ import annotations

import functools
import io
import json
import random
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

N = 16
BOX = 4
SYMBOLS = "123456789ABCDEFG"
LABELS = "ABCDEFGHIJKLMNOP"

#: A 16x16 puzzle with one solution (tests/web_puzzles.py), disguised afresh for each request.
UNIQUE16 = (
    "0804030D2BG50000AD070020E09300F50E2000A0840000000G900014000CB00000E0200B30010706000B"
    "60D0G70005C0307D01005A240F080C000000680B009004000E007012CG001B5A7C02F08D3000E03G0050"
    "000AF0000200B03140E00807504E008F1C30000G20B000C70D00E08F7AD802G0BE500C01CF01460E9000"
    "003D"
)

#: The app's MAX_CONTENT_LENGTH default: the largest body it accepts.
MAX_BODY = 16_384


@dataclass(frozen=True)
class Request:
    """One HTTP request: method, path, and a body with its content type (or none)."""

    kind: str
    method: str
    path: str
    body: bytes = b""
    content_type: str = ""


# ---- fresh inputs -------------------------------------------------------------------------


def box_map() -> list[int]:
    """The 16x16 box layout as a region map (region index per cell)."""
    return [(r // BOX) * BOX + c // BOX for r in range(N) for c in range(N)]


def _neighbours(cell: int) -> list[int]:
    r, c = divmod(cell, N)
    return [
        rr * N + cc
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < N and 0 <= cc < N
    ]


def _connected(cells: set[int]) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for nb in _neighbours(todo.pop()):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def random_map(rng: random.Random, swaps: int = 200) -> list[int]:
    """A random valid 16x16 jigsaw map: 16 connected regions of 16 cells.

    Starts from the boxes and repeatedly trades a cell of region A on its border with B for
    a cell of B on its border with A, whenever both regions stay connected; every
    intermediate map is valid, so the result is too.
    """
    regions = box_map()
    members = [{i for i, g in enumerate(regions) if g == k} for k in range(N)]
    done = 0
    while done < swaps:
        a = rng.randrange(N * N)
        ra = regions[a]
        others = [regions[nb] for nb in _neighbours(a) if regions[nb] != ra]
        if not others:
            continue
        rb = rng.choice(others)
        border = [b for b in members[rb] if any(regions[nb] == ra for nb in _neighbours(b))]
        b = rng.choice(border)
        new_a = members[ra] - {a} | {b}
        new_b = members[rb] - {b} | {a}
        if _connected(new_a) and _connected(new_b):
            members[ra], members[rb] = new_a, new_b
            regions[a], regions[b] = rb, ra
            done += 1
    return regions


def map_text(regions: list[int]) -> str:
    """The map in its canonical share-link spelling: labels A, B, ... in reading order."""
    order: dict[int, str] = {}
    for g in regions:
        if g not in order:
            order[g] = LABELS[len(order)]
    return "".join(order[g] for g in regions)


def sparse_givens(rng: random.Random, regions: list[int], count: int) -> str:
    """``count`` random non-conflicting givens (rows, columns, ``regions``), as a link."""
    grid = [0] * (N * N)
    used: set[tuple[str, int, int]] = set()
    cells = list(range(N * N))
    rng.shuffle(cells)
    placed = 0
    for cell in cells:
        if placed == count:
            break
        r, c = divmod(cell, N)
        for value in rng.sample(range(1, N + 1), N):
            keys = {("r", r, value), ("c", c, value), ("g", regions[cell], value)}
            if not keys & used:
                used |= keys
                grid[cell] = value
                placed += 1
                break
    return "".join("0" if v == 0 else SYMBOLS[v - 1] for v in grid)


def impossible16(rng: random.Random, fillers: int = 5) -> str:
    """20 givens, no two in conflict, that force three symbols into two cells of row 1.

    Symbols a, b, c are each given in boxes 2-4 (rows 2-4, a Latin arrangement), which bars
    them from row 1's cells in those boxes, and each once in columns 3 and 4 (rows 5-16, in
    different bands), which bars them from r1c3 and r1c4; row 1 then has only r1c1 and r1c2
    for three symbols. A few random fillers elsewhere make each one fresh. The engine
    refutes it quickly; the doctor then looks for the typo.
    """
    grid = [0] * (N * N)
    trio = rng.sample(range(1, N + 1), 3)
    rows = rng.sample(range(1, BOX), 3)
    for box in range(1, BOX):
        for i, value in enumerate(trio):
            grid[rows[(i + box) % 3] * N + box * BOX + rng.randrange(BOX)] = value
    # Columns 2 and 3 (0-based) each hold the trio, each symbol in two different bands (so
    # never twice in one box): column 3's copy sits one band round from column 2's.
    bands = rng.sample(range(1, BOX), 3)
    for i, value in enumerate(trio):
        for column, band in ((2, bands[i]), (3, bands[(i + 1) % 3])):
            grid[(band * BOX + rng.randrange(BOX)) * N + column] = value
    regions = box_map()
    used = {
        key
        for cell, value in enumerate(grid)
        if value
        for key in (("r", cell // N, value), ("c", cell % N, value), ("g", regions[cell], value))
    }
    placed = 0
    while placed < fillers:
        cell = rng.randrange(BOX * N, N * N)  # rows 5-16: nothing new is barred from row 1
        value = rng.choice([v for v in range(1, N + 1) if v not in trio])
        keys = {("r", cell // N, value), ("c", cell % N, value), ("g", regions[cell], value)}
        if grid[cell] or keys & used:
            continue
        grid[cell] = value
        used |= keys
        placed += 1
    return "".join("0" if v == 0 else SYMBOLS[v - 1] for v in grid)


def disguised_unique16(rng: random.Random) -> str:
    """:data:`UNIQUE16` under a random symmetry of the 16x16 grid: same logic, new text."""
    grid = [0 if ch == "0" else SYMBOLS.index(ch) + 1 for ch in UNIQUE16]
    relabel = [0, *rng.sample(range(1, N + 1), N)]

    def lines() -> list[int]:
        bands = rng.sample(range(BOX), BOX)
        return [b * BOX + i for b in bands for i in rng.sample(range(BOX), BOX)]

    rows, cols = lines(), lines()
    transpose = rng.random() < 0.5
    out = []
    for r in range(N):
        for c in range(N):
            rr, cc = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
            out.append(relabel[grid[rr * N + cc]])
    return "".join("0" if v == 0 else SYMBOLS[v - 1] for v in out)


# ---- the requests -------------------------------------------------------------------------


def _json(kind: str, path: str, payload: dict[str, str]) -> Request:
    return Request(kind, "POST", path, json.dumps(payload).encode(), "application/json")


def _form(kind: str, path: str, fields: dict[str, str]) -> Request:
    body = urlencode(fields).encode()
    return Request(kind, "POST", path, body, "application/x-www-form-urlencoded")


def jigsaw16_map(rng: random.Random) -> Request:
    """A result page on a fresh 16x16 jigsaw map (a new geometry: its engine tables)."""
    regions = random_map(rng)
    return Request(
        "jigsaw16-map", "GET", f"/jigsaw/{map_text(regions)}/{sparse_givens(rng, regions, 24)}"
    )


def sparse16_page(rng: random.Random) -> Request:
    """A result page of a sparse 16x16 puzzle (two solutions to find, a suggestion to make)."""
    return Request("sparse16-page", "GET", f"/p/{sparse_givens(rng, box_map(), 30)}")


def sparse16_png(rng: random.Random) -> Request:
    """The link-preview picture of a sparse 16x16 puzzle (it solves the puzzle to draw it)."""
    return Request("sparse16-png", "GET", f"/p/{sparse_givens(rng, box_map(), 30)}.png")


def steps16(rng: random.Random) -> Request:
    """The first steps page of a disguised unique 16x16 puzzle (a long explanation)."""
    return Request("steps16", "GET", f"/p/{disguised_unique16(rng)}/steps")


def search16(rng: random.Random) -> Request:
    """The engine's search page of an impossible 16x16 puzzle."""
    return Request("search16", "GET", f"/p/{impossible16(rng)}/search")


def explain16(rng: random.Random) -> Request:
    """``POST /api/explain`` of a disguised unique 16x16 puzzle."""
    return _json("explain16", "/api/explain", {"puzzle": disguised_unique16(rng)})


def explain16_impossible(rng: random.Random) -> Request:
    """``POST /api/explain`` of an impossible 16x16 puzzle (the search story)."""
    return _json("explain16-impossible", "/api/explain", {"puzzle": impossible16(rng)})


def doctor16(rng: random.Random) -> Request:
    """``POST /api/solve`` of an impossible 16x16 puzzle: the typo doctor on every POST."""
    return _json("doctor16", "/api/solve", {"puzzle": impossible16(rng)})


def doctor16_page(rng: random.Random) -> Request:
    """The result page of an impossible 16x16 puzzle (the doctor's panel)."""
    return Request("doctor16-page", "GET", f"/p/{impossible16(rng)}")


def hint16(rng: random.Random) -> Request:
    """The form's Hint button on a disguised unique 16x16 puzzle."""
    return _form("hint16", "/hint", {"v": "16x16", "paste": disguised_unique16(rng)})


# ---- boards with rules: a published 16x16 one, and a thousand cells of thermometers -------

#: The published 16x16 rules puzzle (region map, killer cages without totals) whose steps
#: are the longest of tests/data/variants_fpuzzles.jsonl.
RULES16 = "sudokutools-21"
RULES_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "variants_fpuzzles.jsonl"


@functools.cache
def _rules16() -> tuple[str, str, str]:
    """:data:`RULES16`'s givens, rules spelling and region map, as its share link spells them."""
    from sudoku_web.core.rules import fpuzzles, links

    entry = next(
        row
        for line in RULES_DATA.read_text().splitlines()
        if (row := json.loads(line))["id"] == RULES16
    )
    geometry = (imported := fpuzzles.load(entry["load"])).geometry
    parts = links.parts(geometry)
    assert parts.regions is not None
    givens = "".join(geometry.symbol(v) if v else "0" for v in imported.givens)
    return givens, parts.rules, parts.regions


def relabelled_rules16(rng: random.Random) -> tuple[str, str, str]:
    """:data:`RULES16` with its symbols relabelled: its cages have no totals, so the puzzle
    keeps its one solution and its logic, under new text."""
    givens, rules, regions = _rules16()
    relabel = dict(zip(SYMBOLS, rng.sample(SYMBOLS, N), strict=True))
    return "".join(relabel.get(ch, ch) for ch in givens), rules, regions


@functools.cache
def _solution16() -> list[int]:
    from sudoku_web.core.board import standard
    from sudoku_web.core.solver import solve

    (solution,) = solve(UNIQUE16, geometry=standard(16)).solutions
    return [SYMBOLS.index(ch) + 1 for ch in solution]


def thermometers16(rng: random.Random) -> str:
    """A thermometer on every pair of side-by-side cells of a 16x16 grid (960 cells), each
    climbing as a relabelled solution does: rules that keep a solution, in our spelling."""
    relabel = [0, *rng.sample(range(1, N + 1), N)]
    solution = [relabel[v] for v in _solution16()]
    names = "123456789abcdefg"
    out = []
    for a in range(N * N):
        r, c = divmod(a, N)
        for b in (a + 1 if c + 1 < N else -1, a + N if r + 1 < N else -1):
            if b >= 0:
                low, high = sorted((a, b), key=lambda cell: solution[cell])
                out.append("th_" + "".join(names[x // N] + names[x % N] for x in (low, high)))
    return ".".join(out)


def rules16_steps(rng: random.Random) -> Request:
    """The steps page of the published 16x16 rules puzzle, relabelled."""
    givens, rules, regions = relabelled_rules16(rng)
    return Request("rules16-steps", "GET", f"/rules/{givens}/{rules}/{regions}/steps")


def rules16_explain(rng: random.Random) -> Request:
    """``POST /api/explain`` of the published 16x16 rules puzzle, relabelled."""
    givens, rules, regions = relabelled_rules16(rng)
    payload = {"puzzle": givens, "variant": "jigsaw", "regions": regions, "rules": rules}
    return _json("rules16-explain", "/api/explain", payload)


def thermo16_hint(rng: random.Random) -> Request:
    """``POST /api/hint`` of an empty 16x16 grid under a thousand cells of thermometers."""
    return _json(
        "thermo16-hint", "/api/hint", {"puzzle": "0" * N * N, "rules": thermometers16(rng)}
    )


def big_body(rng: random.Random) -> Request:
    """``POST /api/solve`` with a body just under the limit: a sparse 16x16 puzzle spelled
    with spaces up to the reader's 2,000 characters, and an unknown field filling the rest."""
    puzzle = sparse_givens(rng, box_map(), 30)
    spelled = (" " * ((2_000 - N * N) // (N * N))).join(puzzle)
    payload = {"puzzle": spelled, "note": ""}
    room = MAX_BODY - len(json.dumps(payload).encode()) - 16
    payload["note"] = "x" * room
    return _json("big-body", "/api/solve", payload)


#: Every kind, in the order the hostile clients cycle through them.
KINDS: dict[str, Callable[[random.Random], Request]] = {
    "jigsaw16-map": jigsaw16_map,
    "sparse16-page": sparse16_page,
    "sparse16-png": sparse16_png,
    "steps16": steps16,
    "search16": search16,
    "explain16": explain16,
    "explain16-impossible": explain16_impossible,
    "doctor16": doctor16,
    "doctor16-page": doctor16_page,
    "hint16": hint16,
    "rules16-steps": rules16_steps,
    "rules16-explain": rules16_explain,
    "thermo16-hint": thermo16_hint,
    "big-body": big_body,
}


# ---- photos ------------------------------------------------------------------------------------

#: The test photos of printed puzzles (with their givens in ``imageN.dat``).
PHOTOS = Path(__file__).resolve().parent.parent / "tests" / "data" / "photos"
#: The app's PHOTO_MAX_CONTENT_LENGTH default.
MAX_PHOTO_BODY = 8 * 1024 * 1024
BOUNDARY = "----sudoku-web-photo"


def multipart(
    filename: str | None, data: bytes, content_type: str = "image/jpeg", field: str = "photo"
) -> tuple[bytes, str]:
    """A browser's ``multipart/form-data`` body with one file field (no file part at all
    when ``filename`` is None: an ordinary field instead), and its Content-Type."""
    if filename is None:
        head = f'Content-Disposition: form-data; name="{field}"\r\n\r\n'
    else:
        head = (
            f'Content-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
            f"Content-Type: {content_type}\r\n\r\n"
        )
    body = f"--{BOUNDARY}\r\n{head}".encode() + data + f"\r\n--{BOUNDARY}--\r\n".encode()
    return body, f"multipart/form-data; boundary={BOUNDARY}"


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return (
        struct.pack(">I", len(payload))
        + kind
        + payload
        + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)
    )


@functools.cache
def bomb_png(width: int = 30_000, height: int = 30_000) -> bytes:
    """A valid 1-bit all-black PNG of ``width`` x ``height``: ~110 KB on disk,
    900 million pixels once decoded (the decompression bomb an upload limit cannot see)."""
    row = b"\x00" * (1 + (width + 7) // 8)  # filter byte + packed bits
    packer = zlib.compressobj(9)
    parts = [packer.compress(row * 500) for _ in range(height // 500)]
    parts += [packer.compress(row * (height % 500)), packer.flush()]
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", b"".join(parts))
        + _chunk(b"IEND", b"")
    )


@functools.cache
def no_sudoku_photo() -> bytes:
    """A photo-like JPEG with no grid in it: a sky-to-ground gradient, a sun, a house, a line
    of text and sensor noise (seeded)."""
    from PIL import Image, ImageDraw

    rng = random.Random(7)
    image = Image.new("RGB", (800, 600))
    draw = ImageDraw.Draw(image)
    for y in range(600):
        tone = int(90 + 120 * y / 600)
        draw.line([(0, y), (800, y)], fill=(tone // 2, tone // 2 + 40, 255 - tone // 2))
    draw.ellipse((600, 60, 700, 160), fill=(250, 220, 90))
    draw.rectangle((150, 300, 420, 520), fill=(150, 70, 60))
    draw.polygon([(130, 300), (285, 190), (440, 300)], fill=(90, 40, 30))
    draw.text((40, 560), "Summer at the lake, 2019", fill=(255, 255, 255))
    pixels = image.load()
    assert pixels is not None
    for _ in range(20_000):
        x, y = rng.randrange(800), rng.randrange(600)
        r, g, b = pixels[x, y]  # type: ignore[misc]
        pixels[x, y] = (min(255, r + 40), min(255, g + 40), min(255, b + 40))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def photo_files() -> list[Path]:
    """The test photos, in name order."""
    return sorted(PHOTOS.glob("*.jpg"))


def _upload(kind: str, filename: str | None, data: bytes, ctype: str = "image/jpeg") -> Request:
    body, content_type = multipart(filename, data, ctype)
    return Request(kind, "POST", "/api/read", body, content_type)


def photo(rng: random.Random) -> Request:
    """A test photo as the phone stored it. Sent as is: no cache keeps readings, so the same
    bytes cost a full reading each time (and re-encoding them would measure the reader's
    tolerance of re-compression, which benchmarks/photo_bench.py's accuracy figures cover)."""
    path = rng.choice(photo_files())
    return _upload("photo", path.name, path.read_bytes())


def photo_bomb(rng: random.Random) -> Request:
    """The decompression-bomb PNG: refused from its header (413) before any decoding."""
    return _upload("photo-bomb", "bomb.png", bomb_png(), "image/png")


def photo_over_limit(rng: random.Random) -> Request:
    """An upload just over the 8 MiB limit (random bytes named .jpg): 413 unread."""
    return _upload("photo-over-limit", "big.jpg", rng.randbytes(MAX_PHOTO_BODY))


#: The photo kinds (``loadtest --photos``), apart from :data:`KINDS`, whose target they do not
#: share (a photo's reading takes far more than 300 ms).
PHOTO_KINDS: dict[str, Callable[[random.Random], Request]] = {
    "photo": photo,
    "photo-bomb": photo_bomb,
    "photo-over-limit": photo_over_limit,
}
#: Every kind by name.
ALL_KINDS = {**KINDS, **PHOTO_KINDS}
