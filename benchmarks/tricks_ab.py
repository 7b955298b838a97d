"""Do the web layer's speed tricks earn their place? The load test with each one on and off.

    python -m benchmarks.tricks_ab                     # 3 rounds, ~20 minutes
    python -m benchmarks.tricks_ab --rounds 2 --duration 4

Each round runs :mod:`benchmarks.loadtest`'s ``pages`` (cold: no result cache, top95) and
``pages+lru`` (warm: result cache on, steady state) scenarios once per configuration of
``SUDOKU_WEB_SPEEDUPS``: every trick on, every trick off, and every trick but one; the order
of the configurations rotates from round to round, so a neighbour's load falls on each alike.
It prints each configuration's requests/s per scenario (median and range over the rounds) and
its ratio to "every trick on" measured in the same round. A trick earns its place when
turning it off costs at least 10% of either scenario's throughput.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from sudoku_web.web.runtime.speedups import PIECES

SCENARIOS = ("pages", "pages+lru")


def configurations() -> dict[str, str]:
    """Name -> ``SUDOKU_WEB_SPEEDUPS`` value (JSON: a bool or a comma-separated list)."""
    out = {"all on": "true", "all off": "false"}
    for piece in PIECES:
        rest = ",".join(p for p in PIECES if p != piece)
        out[f"without {piece}"] = json.dumps(rest)
    return out


def run_once(setting: str, duration: float) -> dict[str, float]:
    """One load test under ``setting``: requests/s per scenario."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.json"
        env = dict(os.environ, SUDOKU_WEB_SPEEDUPS=setting)
        subprocess.run(
            [sys.executable, "-m", "benchmarks.loadtest", "--only", *SCENARIOS,
             "--duration", str(duration), "--json", str(out)],
            env=env, check=False, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        figures = json.loads(out.read_text())
    outcomes = figures["outcomes"] if isinstance(figures, dict) else figures
    return {o["name"]: float(o["rps"]) for o in outcomes if o["name"] in SCENARIOS}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tricks_ab", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per scenario")
    args = parser.parse_args(argv)
    configs = configurations()
    names = list(configs)
    rps: dict[str, dict[str, list[float]]] = {n: {s: [] for s in SCENARIOS} for n in names}
    ratio: dict[str, dict[str, list[float]]] = {n: {s: [] for s in SCENARIOS} for n in names}
    for r in range(args.rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        got = {}
        for name in order:
            got[name] = run_once(configs[name], args.duration)
            print(f"round {r + 1} {name}: {got[name]}", flush=True)
        for name in names:
            for s in SCENARIOS:
                rps[name][s].append(got[name][s])
                ratio[name][s].append(got[name][s] / got["all on"][s])
    print(
        "\n| configuration | "
        + " | ".join(f"{s} req/s (median, range) | vs all on" for s in SCENARIOS)
        + " |"
    )
    print("|---" * (1 + 2 * len(SCENARIOS)) + "|")
    for name in names:
        cells = []
        for s in SCENARIOS:
            v, q = rps[name][s], ratio[name][s]
            cells.append(f"{statistics.median(v):.0f} ({min(v):.0f}-{max(v):.0f})")
            cells.append(f"{statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
