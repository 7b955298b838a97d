"""This tree against a previous release, back to back on one machine (``make loadtest-compare``).

    python -m benchmarks.release_compare                  # ef0b313 vs this tree, 3 rounds each
    python -m benchmarks.release_compare --base <rev> --rounds 5 --duration 15
    python -m benchmarks.release_compare --skip-load      # only the in-process CPU table
    python -m benchmarks.release_compare --skip-load --cpu-routes page --cpu-puzzles 60

The previous release is extracted with ``git archive <rev>`` into a temporary directory and
run from there with the same virtualenv (``PYTHONPATH`` puts its package first), so both
releases use the same Python and libraries. Two measures, each alternating base / this tree
round by round so that a neighbour's load on a shared machine falls on both alike:

cold mixed load
    gunicorn as shipped (``python -m <release>.serve``: its workers, settings and caches), a
    fresh server per round, ``--clients`` (8) closed-loop client processes for ``--duration``
    seconds. For each of ``top1465``'s puzzles, in order and never twice in a round, the
    requests a visitor makes: the result page, its link-preview picture, the difficulty
    panel, the steps page, the search page and ``/api/solve``; the clients share one
    sequence, so every puzzle's requests are spread over the workers as a browser's are.
    Prints requests/s, p50/p99 overall and per route, the ratio this tree / base, per route
    the share of answers a deadline cut short (``Cache-Control: no-store``: a release that
    cuts more does less work for the same requests), the workers' peak RSS, the service's
    PSS (master and workers, each page shared after the fork counted once), and each
    failed request's status and path. The server's environment is this process's, so
    ``SUDOKU_WEB_THREADS=1`` reaches both releases (one that predates it ignores it).

server CPU per route, in process
    The release's ``create_app`` with its answer caches off, Flask's test client, and
    ``--cpu-puzzles`` (100) top1465 puzzles (every 14th, from the first); each puzzle's
    result page, picture, difficulty panel and steps page in that order, CPU time
    (``time.process_time``) of each request. One puzzle outside the sample warms every
    route first (imports, templates). ``--cpu-routes page`` asks the result page alone
    (no heavier page between two of them); ``--cpu-passes K`` asks the whole sample K times
    and keeps each request's least CPU time (the answer caches and the kept explanations
    are off, so every pass does the whole work: the least is the request that the
    neighbours disturbed least). Prints mean and p95 per route per release. The
    shipped deadlines stay on (the figures then match what a server does), unless
    ``--lift-deadlines``: on a loaded machine a 150 ms wall-clock deadline cuts the grade
    short and lowers its CPU, so only lifted deadlines show the whole work.

Every figure is a median over the rounds with its range (min-max): on a loaded box, report
the spread and say so. Figures go in ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .loadtest import (
    HOST,
    TOP1465,
    _children,
    free_port,
    http_get,
    http_get_head,
    machine,
    peak_rss_mb,
    percentile,
    pss_mb,
    puzzle_paths,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASE = "ef0b313"
#: The routes of the mixed load, per puzzle, as suffixes of its share link ``/p/<puzzle>``
#: (``/api/solve`` takes the puzzle as a query instead).
MIXED_ROUTES: dict[str, str] = {
    "page": "/p/{}",
    "png": "/p/{}.png",
    "difficulty": "/p/{}/difficulty",
    "steps": "/p/{}/steps",
    "search": "/p/{}/search",
    "api": "/api/solve?puzzle={}",
}
#: The routes of the in-process CPU table, in the order each puzzle asks them.
CPU_ROUTES: dict[str, str] = {
    "page": "/p/{}",
    "png": "/p/{}.png",
    "difficulty": "/p/{}/difficulty",
    "steps": "/p/{}/steps",
}
# Run in a subprocess with the release's tree first on sys.path: only ``create_app`` and
# Flask's test client, which every release has.
_CPU_SCRIPT = r"""
import json, sys, time
from sudoku_web import create_app
routes, puzzles, warm, extra, passes = json.loads(sys.stdin.read())
app = create_app({"TESTING": False, "RESULT_CACHE_SIZE": 0, "CACHE_MAX_BYTES": 0, **extra})
client = app.test_client()
for fmt in routes.values():
    client.get(fmt.format(warm))
out = {name: [float("inf")] * len(puzzles) for name in routes}
for _ in range(passes):
    for i, puzzle in enumerate(puzzles):
        for name, fmt in routes.items():
            started = time.process_time()
            response = client.get(fmt.format(puzzle))
            out[name][i] = min(out[name][i], (time.process_time() - started) * 1000)
            if response.status_code != 200:
                raise SystemExit(f"{fmt.format(puzzle)}: {response.status_code}")
print(json.dumps(out))
"""


@dataclass
class Release:
    """A tree to run: its label, directory and the module its server starts from."""

    label: str
    root: Path

    @property
    def serve_module(self) -> str:
        """``sudoku_web.hosting.serve`` now, ``sudoku_web.serve`` in older releases."""
        hosting = self.root / "sudoku_web" / "hosting" / "serve.py"
        return "sudoku_web.hosting.serve" if hosting.exists() else "sudoku_web.serve"

    def env(self) -> dict[str, str]:
        """The environment that imports this tree's package before the installed one."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(self.root), os.environ.get("PYTHONPATH")])
        )
        return env


@dataclass
class LoadRound:
    """One round of the mixed load on one release."""

    label: str
    requests: int
    errors: int
    rps: float
    p50_ms: float
    p99_ms: float
    cpu_ms: float  # the workers' CPU time (user + system) per answered request
    per_route: dict[str, tuple[float, float]] = field(default_factory=dict)  # p50, p99
    failed: dict[str, int] = field(default_factory=dict)  # 'status path' (-1: no answer) -> count
    cut_short: dict[str, float] = field(default_factory=dict)  # route -> share of no-store
    worker_peak_rss_mb: float = 0.0  # the largest VmHWM of a worker at the round's end
    service_pss_mb: float = 0.0  # the master's and workers' PSS summed, at the round's end


def extract(rev: str, into: Path, *paths: str) -> Path:
    """``git archive rev`` (only ``paths`` when given) unpacked under ``into``; the tree's
    directory. The one way the benchmarks unpack an earlier commit."""
    tree = into / rev
    tree.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, *paths],
        capture_output=True,
        check=True,
    ).stdout
    with tempfile.TemporaryFile() as tmp:
        tmp.write(archive)
        tmp.seek(0)
        with tarfile.open(fileobj=tmp) as tar:
            tar.extractall(tree, filter="data")
    return tree


def mixed_paths(limit: int | None = None) -> list[str]:
    """Every top1465 puzzle's requests of :data:`MIXED_ROUTES`, puzzle after puzzle."""
    puzzles = [p.removeprefix("/") for p in puzzle_paths("/", TOP1465)][:limit]
    return [fmt.format(p) for p in puzzles for fmt in MIXED_ROUTES.values()]


def _route_of(path: str) -> str:
    if path.startswith("/api/"):
        return "api"
    for name in ("png", "difficulty", "steps", "search"):
        if path.endswith(MIXED_ROUTES[name].removeprefix("/p/{}")):
            return name
    return "page"


def _client(
    port: int,
    paths: Sequence[str],
    counter: Any,  # multiprocessing.Value("l"): a shared int with a lock
    stop_at: float,
    out: mp.Queue[list[tuple[int, float, int, bool]]],
) -> None:
    """A closed loop taking the next path of the shared sequence; (index, latency s, status,
    whether the answer says ``no-store``: a deadline cut its work short)."""
    records: list[tuple[int, float, int, bool]] = []
    while time.monotonic() < stop_at:
        with counter.get_lock():
            i = counter.value
            counter.value += 1
        if i >= len(paths):
            break
        started = time.monotonic()
        try:
            status, head = http_get_head(port, paths[i], timeout=30)
        except OSError:
            status, head = -1, b""
        records.append((i, time.monotonic() - started, status, b"no-store" in head))
    out.put(records)


def run_load(release: Release, paths: Sequence[str], args: argparse.Namespace) -> LoadRound:
    """One round of the cold mixed load on a fresh server of ``release``."""
    port = free_port()
    env = release.env()
    env.update(
        SUDOKU_WEB_BIND=f"{HOST}:{port}",
        SUDOKU_WEB_ACCESS_LOG="/dev/null",
        SUDOKU_WEB_LOG_LEVEL="warning",
    )
    if args.workers:
        env["SUDOKU_WEB_WORKERS"] = str(args.workers)
    server = subprocess.Popen(
        [sys.executable, "-m", release.serve_module],
        cwd=release.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_until_up(server, port)
        workers = _children(server.pid)
        cpu_before = sum(_cpu_seconds(pid) for pid in workers)
        counter = mp.Value("l", 0)
        queue: mp.Queue[list[tuple[int, float, int, bool]]] = mp.Queue()
        started = time.monotonic()
        stop_at = started + args.duration
        procs = [
            mp.Process(target=_client, args=(port, paths, counter, stop_at, queue))
            for _ in range(args.clients)
        ]
        for proc in procs:
            proc.start()
        records = [r for _ in procs for r in queue.get(timeout=args.duration + 60)]
        for proc in procs:
            proc.join(timeout=10)
        elapsed = time.monotonic() - started
        cpu = sum(_cpu_seconds(pid) for pid in workers) - cpu_before
        peak_rss = max((peak_rss_mb(pid) for pid in workers), default=0.0)
        service_pss = sum(pss_mb(pid) for pid in (server.pid, *_children(server.pid)))
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    ok = [r for r in records if 200 <= r[2] < 400]
    latencies = sorted(r[1] * 1000 for r in ok)
    per_route: dict[str, tuple[float, float]] = {}
    cut_short: dict[str, float] = {}
    for name in MIXED_ROUTES:
        times = sorted(r[1] * 1000 for r in ok if _route_of(paths[r[0]]) == name)
        if times:
            per_route[name] = (round(percentile(times, 0.5), 1), round(percentile(times, 0.99), 1))
            cut = [r[3] for r in ok if _route_of(paths[r[0]]) == name]
            cut_short[name] = round(sum(cut) / len(cut), 3)
    return LoadRound(
        label=release.label,
        requests=len(records),
        errors=len(records) - len(ok),
        rps=round(len(records) / elapsed, 1),
        p50_ms=round(percentile(latencies, 0.5), 1) if latencies else 0.0,
        p99_ms=round(percentile(latencies, 0.99), 1) if latencies else 0.0,
        cpu_ms=round(cpu * 1000 / max(1, len(ok)), 2),
        per_route=per_route,
        cut_short=cut_short,
        failed=dict(Counter(f"{r[2]} {paths[r[0]]}" for r in records if not 200 <= r[2] < 400)),
        worker_peak_rss_mb=round(peak_rss, 1),
        service_pss_mb=round(service_pss, 1),
    )


def _cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` in seconds (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_until_up(server: subprocess.Popen[str], port: int) -> None:
    """Until the server answers ``/healthz`` (or any status at all), at most 120 s (a new
    server warms up before forking its workers, which a loaded machine slows down)."""
    deadline = time.monotonic() + 120
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"server exited:\n{server.stderr.read() if server.stderr else ''}")
        try:
            http_get(port, "/healthz", timeout=10)
            time.sleep(1.0)  # every worker forked and imported (preload: the app is loaded)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


#: ``--lift-deadlines``: every wall-clock deadline of the teaching pages far away, in both
#: releases' config names, so the figures are the whole work whatever the machine's load (on
#: a loaded box the shipped 150 ms deadlines cut the grade short, which lowers its CPU).
LIFTED: dict[str, float] = {
    "EXPLAIN_DEADLINE_MS": 60_000,
    "GRADE_DEADLINE_MS": 60_000,
    "REQUEST_DEADLINE_MS": 120_000,
}


def run_cpu(
    release: Release,
    puzzles: Sequence[str],
    warm: str,
    lift: bool = False,
    routes: Sequence[str] = tuple(CPU_ROUTES),
    passes: int = 1,
) -> dict[str, list[float]]:
    """The in-process CPU times per route of ``release`` (see the module docstring), for
    ``routes`` (names of :data:`CPU_ROUTES`), each request's least over ``passes``."""
    asked = {name: CPU_ROUTES[name] for name in routes}
    extra = dict(LIFTED) if lift else {}
    if passes > 1:  # a later pass must not find the explanation an earlier one kept
        extra["EXPLANATION_CACHE_BYTES"] = 0
    done = subprocess.run(
        [sys.executable, "-c", _CPU_SCRIPT],
        input=json.dumps([asked, list(puzzles), warm, extra, passes]),
        cwd=release.root,
        env=release.env(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"{release.label}: {done.stderr[-2000:]}")
    times: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return times


def _spread(values: Sequence[float], digits: int = 1) -> str:
    """``median (min-max)`` of one figure over the rounds."""
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def load_report(rounds: dict[str, list[LoadRound]], base: str, new: str) -> str:
    """The mixed-load table: both releases, overall and per route, and the ratio."""
    lines = [
        "| release | requests/s | worker CPU ms / request | p50 / p99 ms | "
        + " | ".join(f"{n} p50 / p99 ms" for n in MIXED_ROUTES)
        + " | errors |",
        "|---|---:|---:|---|" + "---|" * len(MIXED_ROUTES) + "---:|",
    ]
    for label, runs in rounds.items():
        cells = [
            _spread([r.per_route.get(n, (0.0, 0.0))[0] for r in runs], 0)
            + " / "
            + _spread([r.per_route.get(n, (0.0, 0.0))[1] for r in runs], 0)
            for n in MIXED_ROUTES
        ]
        lines.append(
            f"| {label} | {_spread([r.rps for r in runs])} | {_spread([r.cpu_ms for r in runs])} | "
            f"{_spread([r.p50_ms for r in runs], 0)} / {_spread([r.p99_ms for r in runs], 0)} | "
            + " | ".join(cells)
            + f" | {sum(r.errors for r in runs)} |"
        )
    lines.append("")
    for label, runs in rounds.items():
        shares = ", ".join(
            f"{n} {_spread([100 * r.cut_short.get(n, 0.0) for r in runs], 0)} %"
            for n in MIXED_ROUTES
        )
        rss = _spread([r.worker_peak_rss_mb for r in runs])
        pss = _spread([r.service_pss_mb for r in runs])
        lines.append(
            f"{label}: answers a deadline cut short (no-store) {shares}; worker peak RSS {rss} MB;"
            f" the service's PSS {pss} MB"
        )
    ratios = [n.rps / b.rps for b, n in zip(rounds[base], rounds[new], strict=True) if b.rps > 0]
    cpu = [b.cpu_ms / n.cpu_ms for b, n in zip(rounds[base], rounds[new], strict=True) if n.cpu_ms]
    lines.append("")
    lines.append(
        f"worker CPU per request, {base} / {new} (the throughput the CPU allows), round by "
        "round: " + ", ".join(f"{r:.1%}" for r in cpu) + f"; median {statistics.median(cpu):.1%}"
    )
    lines.append(
        f"throughput {new} / {base}, round by round: "
        + ", ".join(f"{r:.1%}" for r in ratios)
        + f"; median {statistics.median(ratios):.1%}"
    )
    return "\n".join(lines)


def cpu_report(runs: dict[str, list[dict[str, list[float]]]]) -> str:
    """The in-process table: mean and p95 per route per release, median (range) over runs."""
    lines = [
        "| route | " + " | ".join(f"{label}: mean / p95 ms" for label in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for name in next(iter(runs.values()))[0]:
        cells = []
        for per_run in runs.values():
            means = [statistics.fmean(r[name]) for r in per_run]
            p95s = [percentile(sorted(r[name]), 0.95) for r in per_run]
            cells.append(f"{_spread(means, 2)} / {_spread(p95s, 2)}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The command line of the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.release_compare", description=__doc__
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--base", default=DEFAULT_BASE, help="the previous release (a git rev)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per release, alternating")
    parser.add_argument("--duration", type=float, default=12.0, help="seconds of load a round")
    parser.add_argument("--clients", type=int, default=8, help="client processes")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (shipped)")
    parser.add_argument("--cpu-puzzles", type=int, default=100, help="in-process sample")
    parser.add_argument("--cpu-rounds", type=int, default=2, help="in-process runs a release")
    parser.add_argument(
        "--cpu-routes",
        nargs="+",
        choices=list(CPU_ROUTES),
        default=list(CPU_ROUTES),
        help="in-process: the routes asked per puzzle (default all, in this order)",
    )
    parser.add_argument(
        "--cpu-passes", type=int, default=1, help="in-process: each request's least of K"
    )
    parser.add_argument("--skip-load", action="store_true", help="only the in-process table")
    parser.add_argument(
        "--lift-deadlines", action="store_true", help="in-process: teaching deadlines far off"
    )
    parser.add_argument("--skip-cpu", action="store_true", help="only the mixed load")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Extracts the base release, runs both measures alternating, prints both tables."""
    args = build_parser().parse_args(argv)
    # A TERM stops the run through the servers' ``finally``, not around it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(f"machine: {machine()}; load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="release-compare-") as tmp:
        base = Release(args.base, extract(args.base, Path(tmp)))
        new = Release("this tree", ROOT)
        order = [base, new]
        if not args.skip_cpu:
            top = [p.removeprefix("/") for p in puzzle_paths("/", TOP1465)]
            sample, warm = top[::14][: args.cpu_puzzles], top[1]
            cpu: dict[str, list[dict[str, list[float]]]] = {r.label: [] for r in order}
            for n in range(args.cpu_rounds):
                for release in order if n % 2 == 0 else order[::-1]:
                    times = run_cpu(
                        release, sample, warm, args.lift_deadlines, args.cpu_routes, args.cpu_passes
                    )
                    cpu[release.label].append(times)
                    print(f"  cpu round {n + 1}: {release.label} done", flush=True)
            lifted = ", deadlines lifted" if args.lift_deadlines else ", shipped deadlines"
            print(f"\nServer CPU per request, in process, {len(sample)} top1465 puzzles{lifted}:\n")
            print(cpu_report(cpu), flush=True)
        if not args.skip_load:
            paths = mixed_paths()
            rounds: dict[str, list[LoadRound]] = {r.label: [] for r in order}
            errors = 0
            for n in range(args.rounds):
                for release in order if n % 2 == 0 else order[::-1]:
                    outcome = run_load(release, paths, args)
                    rounds[release.label].append(outcome)
                    errors += outcome.errors
                    print(
                        f"  load round {n + 1}: {release.label} {outcome.rps} req/s, "
                        f"p50 {outcome.p50_ms} p99 {outcome.p99_ms} ms, "
                        f"{outcome.cpu_ms} ms CPU/request, "
                        f"{outcome.errors} errors {outcome.failed or ''}, "
                        f"worker peak RSS {outcome.worker_peak_rss_mb} MB, "
                        f"service PSS {outcome.service_pss_mb} MB; "
                        f"load average {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
            print(
                f"\nCold mixed load: {args.clients} clients, {args.duration:.0f} s a round, "
                f"{args.rounds} rounds a release, alternating:\n"
            )
            print(load_report(rounds, base.label, new.label))
            if errors:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
