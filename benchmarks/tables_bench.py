"""What a geometry's engine tables cost: build time and bytes, and fresh 16x16 jigsaw maps.

``python -m benchmarks.tables_bench [--reps 5] [--maps 40]`` prints, per geometry, the
median wall time to build its tables from scratch (min and max too), the bytes tracemalloc
sees the build allocate, and the tables' own count (``nbytes``, what the byte-bounded cache
adds up). Then it plays the hostile case: ``--maps`` 16x16 jigsaw maps never seen before,
each solving the empty grid under the web's request budget (20,000 guesses, 250 ms, table
build included), and prints the per-request time and the process's memory afterwards.

Wall time, so other programs on the box slow it down; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc

from sudoku_web.core import solver, solver_tables
from sudoku_web.core.board import BOX_SHAPES, Geometry, jigsaw
from sudoku_web.core.variants import geometry_for

GEOMETRIES = [
    ("standard", 4),
    ("standard", 6),
    ("standard", 9),
    ("x", 9),
    ("hyper", 9),
    ("jigsaw", 9),
    ("standard", 16),
    ("x", 16),
    ("jigsaw", 16),
]


def random_map(size: int, rng: random.Random) -> str:
    """A connected jigsaw map: the boxes, reshaped by random swaps that keep regions whole."""
    rows, cols = BOX_SHAPES[size]
    label = [(r // rows) * (size // cols) + c // cols for r in range(size) for c in range(size)]

    def near(cell: int) -> list[int]:
        r, c = divmod(cell, size)
        steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [a * size + b for a, b in steps if 0 <= a < size and 0 <= b < size]

    def whole(region: int) -> bool:
        cells = {k for k, lab in enumerate(label) if lab == region}
        seen, todo = set(), [next(iter(cells))]
        while todo:
            cell = todo.pop()
            if cell not in seen:
                seen.add(cell)
                todo.extend(k for k in near(cell) if k in cells)
        return seen == cells

    for _ in range(size * size * 2):
        a = rng.randrange(size * size)
        b = rng.choice(near(a))
        ra, rb = label[a], label[b]
        if ra == rb:
            continue
        # a joins b's region; some other cell of b's region joins a's, if both stay whole.
        for z in rng.sample([k for k, lab in enumerate(label) if lab == rb and k != b], 6):
            label[a], label[z] = rb, ra
            if whole(ra) and whole(rb):
                break
            label[a], label[z] = ra, rb
    return "".join("0123456789ABCDEFG"[v] for v in label)


def fresh(variant: str, size: int, rng: random.Random) -> Geometry:
    """A geometry object never built before (tables are cached per object)."""
    if variant == "jigsaw":
        return jigsaw(random_map(size, rng))
    made = geometry_for(variant, size)
    return Geometry(made.size, made.variant, made.houses, made.box_shape)


def build_figures(reps: int, rng: random.Random) -> None:
    """Build time and bytes per geometry."""
    print("| geometry | build ms (median, min-max) | traced MB | own count MB |")
    print("|---|---|---|---|")
    for variant, size in GEOMETRIES:
        times = []
        for _ in range(reps):
            geo = fresh(variant, size, rng)
            gc.collect()
            started = time.perf_counter()
            solver_tables._Tables(geo)
            times.append((time.perf_counter() - started) * 1000)
        solver_tables._powers.cache_clear()  # counted in each table's own figure: measure it too
        geo = fresh(variant, size, rng)
        tracemalloc.start()
        built = solver_tables._Tables(geo)
        traced = tracemalloc.get_traced_memory()[0] / 2**20
        tracemalloc.stop()
        print(
            f"| {variant} {size}x{size} | {statistics.median(times):.1f} "
            f"({min(times):.1f}-{max(times):.1f}) | {traced:.2f} | {built.nbytes / 2**20:.2f} |"
        )


def rss_mb() -> float:
    """The process's resident set, from /proc."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def hostile_maps(count: int, rng: random.Random) -> None:
    """Fresh 16x16 jigsaw maps, one empty-grid solve each under the web's budget."""
    solver.prebuild_common_tables()
    maps = [random_map(16, rng) for _ in range(count)]
    before = rss_mb()
    times, statuses = [], []
    for regions in maps:
        geo = jigsaw(regions)
        started = time.perf_counter()
        result = solver.solve("." * 256, geometry=geo, deadline_ms=250)
        times.append((time.perf_counter() - started) * 1000)
        statuses.append(result.status)
    counts = ", ".join(f"{s} {statuses.count(s)}" for s in sorted(set(statuses)))
    print(
        f"\n{count} fresh 16x16 jigsaw maps, the empty grid each (250 ms deadline, build "
        f"included): median {statistics.median(times):.0f} ms, max {max(times):.0f} ms ({counts}); "
        f"RSS {before:.0f} -> {rss_mb():.0f} MB; table cache {solver.tables_bytes() / 2**20:.1f} "
        f"MB of its {solver_tables.TABLES_BUDGET_BYTES / 2**20:.0f} MB budget"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tables_bench", description=__doc__)
    parser.add_argument("--reps", type=int, default=5, help="builds per geometry")
    parser.add_argument("--maps", type=int, default=40, help="fresh 16x16 jigsaw maps")
    args = parser.parse_args()
    rng = random.Random(12)
    build_figures(args.reps, rng)
    hostile_maps(args.maps, rng)


if __name__ == "__main__":
    main()
