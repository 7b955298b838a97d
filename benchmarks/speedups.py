"""What each web speedup buys, measured in one process (``python -m benchmarks.speedups``).

The web layer's tricks live in :mod:`sudoku_web.web.runtime.speedups` behind ``SPEEDUPS``. This
benchmark serves the same requests through raw WSGI calls (no sockets, no server, so a busy
machine disturbs it less than a load test) to apps that differ only in that setting: every
trick on, every trick off, and each trick off alone. Configurations are interleaved round by
round, so drift in the machine's load hits them alike, and timed in CPU seconds of the
process (requests per CPU second); it prints the median over the rounds with its spread
(min-max), and each trick's share: the throughput lost when only that trick is off.

Scenarios, as in the load test: ``pages`` (uncached result pages of the top95 puzzles,
``CACHE_MAX_BYTES=0``) and ``pages+cache`` (the same links again and again with the store on:
steady state).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from werkzeug.test import EnvironBuilder

from sudoku_web import create_app
from sudoku_web.web.runtime.speedups import PIECES

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def _links() -> list[str]:
    lines = (DATA / "top95.txt").read_text().split()
    return [f"/p/{line.replace('.', '0')}" for line in lines if line]


def _environs(paths: Iterable[str]) -> list[dict[str, Any]]:
    out = []
    for path in paths:
        builder = EnvironBuilder(path=path, base_url="http://127.0.0.1:8000/")
        out.append(builder.get_environ())
        builder.close()
    return out


def _start_response(status: str, headers: list[tuple[str, str]], exc: Any = None) -> Any:
    if not status.startswith("200"):
        raise RuntimeError(f"unexpected status {status}")
    return None


def _serve(app: Any, environs: list[dict[str, Any]]) -> float:
    """CPU seconds of this process to answer every environ once (bodies read to the end):
    CPU time, not wall time, so other work on a shared machine disturbs it less."""
    call = app.wsgi_app
    start = time.process_time()
    for environ in environs:
        body = call(dict(environ), _start_response)
        for _chunk in body:
            pass
        close: Callable[[], None] | None = getattr(body, "close", None)
        if close is not None:
            close()
    return time.process_time() - start


def configs() -> dict[str, object]:
    """The SPEEDUPS settings compared: all on, all off, each trick off alone."""
    out: dict[str, object] = {"all on": True, "all off": False}
    for piece in PIECES:
        out[f"without {piece}"] = ",".join(p for p in PIECES if p != piece)
    return out


def run(scenario: str, rounds: int, repeat: int) -> dict[str, list[float]]:
    """Requests per second per configuration, one figure per round."""
    cache_bytes = 0 if scenario == "pages" else 64 * 1024 * 1024
    environs = _environs(_links()) * repeat
    apps = {
        name: create_app({"SPEEDUPS": setting, "CACHE_MAX_BYTES": cache_bytes})
        for name, setting in configs().items()
    }
    for app in apps.values():  # warm-up: skeletons proven, tables built, the store filled
        _serve(app, environs[: len(environs) // repeat])
    rates: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(rounds):
        for name, app in apps.items():
            rates[name].append(len(environs) / _serve(app, environs))
    return rates


def report(scenario: str, rates: dict[str, list[float]]) -> None:
    base = statistics.median(rates["all on"])
    print(f"\n{scenario}: requests/s, median of {len(rates['all on'])} rounds (min-max)")
    for name, values in rates.items():
        median = statistics.median(values)
        share = "" if name == "all on" else f"  {100 * (median / base - 1):+5.1f}% vs all on"
        print(f"  {name:18} {median:8.0f}  ({min(values):.0f}-{max(values):.0f}){share}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2, help="passes over top95 per round")
    parser.add_argument("--scenario", choices=["pages", "pages+cache", "both"], default="both")
    args = parser.parse_args(argv)
    scenarios = ["pages", "pages+cache"] if args.scenario == "both" else [args.scenario]
    for scenario in scenarios:
        report(scenario, run(scenario, args.rounds, args.repeat))


if __name__ == "__main__":
    main()
