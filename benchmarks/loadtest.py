"""Load test: the real app under gunicorn on 127.0.0.1, bounded in time and requests.

    python -m benchmarks.loadtest               # ~1 minute: 6 scenarios x 8 s + warm-ups
    python -m benchmarks.loadtest --quick       # ~30 s smoke run
    python -m benchmarks.loadtest --json out.json
    python -m benchmarks.loadtest --soak 200000 # worker memory over a long run, no recycling
    python -m benchmarks.loadtest --hostile --worst-memory   # the hostile test, a few minutes
    python -m benchmarks.loadtest --photos      # POST /api/read: photos, bombs, 9 MB

Scenarios (each on a fresh server started with ``python -m sudoku_web.hosting.serve``, shipped
defaults apart from the cache size, so worker recycling is the shipped ``max_requests``):

    baseline    GET /healthz                          trivial route of the same app
    pages       GET /p/<top95 puzzle>, cache off      RESULT_CACHE_SIZE=0 (the hard set)
    pages-easy  GET /p/<easy50 puzzle>, cache off     (b'): ordinary newspaper-style puzzles
    pages+lru   GET /p/<top95 puzzle>, cache on       RESULT_CACHE_SIZE=1024, steady state
    api         GET /api/solve?puzzle=<top95>, cache off
    kill        pages+lru while one worker is SIGKILLed halfway: the master replaces it and
                the server keeps answering (requests after the kill are counted)

For each: requests/s, p50/p99 latency, errors, and peak RSS (VmHWM) per worker process.
Targets: pages >= 40% of baseline's throughput, pages+lru >= 80%, zero errors,
peak RSS per worker <= 60 MB. The 40% target is checked against ``pages`` (top95);
``pages-easy`` is reported alongside as the typical-puzzle figure.

Warm-up: every scenario first requests its URLs once or more (``--warmup`` s); the cache-on
scenarios then warm up under load in one-second rounds until every worker has rendered every
URL (``--warmup-passes``) and throughput stops rising, within ``--warmup-max`` s. The report
says whether a worker was recycled (``max_requests``, an empty LRU) while measuring.

The hostile test (``--hostile``). A few clients (``--clients``, default 3) send
the most expensive requests known, each with a fresh input so that no cache helps
(:mod:`benchmarks.hostile`: fresh 16x16 jigsaw maps, sparse 16x16 pages and PNG previews,
16x16 steps and search pages, ``POST /api/explain``, the typo doctor on impossible 16x16
puzzles, hint POSTs, bodies just under the size limit) for ``--duration`` seconds (default
30, at most ``--max-requests``), against gunicorn with the shipped settings and the app's
default caches, while a probe times ``GET /healthz`` every 0.25 s. It prints, per kind, the
statuses, the server time (gunicorn's own, request read to response written, from its
access log), the CPU time the worker spent in the app (``benchmarks.timed_app``: on a shared
machine wall time also counts the neighbours) and the client's time; the probe's p50/p99;
errors (any 5xx, no answer, a failed probe); and the whole service's PSS (master + workers,
``/proc/<pid>/smaps_rollup``) sampled every 0.5 s and at the end. ``--worst-memory`` sends
``--steps-pages`` (450) fresh 16x16 steps pages and ``--fresh-maps`` (80) fresh 16x16 jigsaw
maps and reports the peak PSS. Targets: no request over 300 ms of server time, total PSS
under 250 MB, no errors. Loopback only; bounded in count and time.

The photo test (``--photos``): ``--clients`` clients post to ``POST /api/read`` for
``--duration`` seconds, eight photos of printed puzzles (the test photos in
``tests/data/photos``, :func:`benchmarks.hostile.photo`) for every decompression-bomb
PNG and every upload over the 8 MiB limit, with the same probe, access-log timing and PSS
sampling as the hostile test. Targets: a photo read within 1 s (p95 of server time), the
probe answered throughout, no 5xx (a ``429``, every reading slot busy, is counted apart).

Load generator: ``wrk`` when on PATH (a C client leaves the cores to the server), else (and
always for the kill scenario, which needs per-request timestamps) ``--clients`` stdlib
processes, each one request at a time; both bounded by ``--duration`` and ``--max-requests``.
Client and server share the cores: compare scenarios with each other, on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import quote

from sudoku_web.hosting.serve import rollup_mb

from . import hostile
from .data_files import data_file
from .machine import cpu_model, memory_mb

ROOT = Path(__file__).resolve().parent.parent
TOP95 = data_file("top95.txt")
EASY50 = data_file("easy50.txt")
TOP1465 = data_file("top1465.txt")
HOST = "127.0.0.1"


@dataclass
class Scenario:
    """One measured run: what to request and how the server is configured."""

    name: str
    paths: list[str]
    cache_size: int
    kill_worker: bool = False
    steady_state: bool = False  # warm every worker's LRU before measuring


@dataclass
class Outcome:
    """The measured figures of one scenario."""

    name: str
    requests: int
    errors: int
    seconds: float
    rps: float
    p50_ms: float
    p99_ms: float
    statuses: dict[str, int] = field(default_factory=dict)
    worker_peak_rss_mb: list[float] = field(default_factory=list)
    master_peak_rss_mb: float = 0.0
    ok_after_kill: int | None = None
    killed_pid: int | None = None
    warmup_requests: int = 0
    warmup_seconds: float = 0.0
    warmup_rounds: list[float] = field(default_factory=list)  # req/s of each round
    recycled_workers: int = 0  # workers replaced (max_requests) during the measured window


def puzzle_paths(prefix: str, source: Path = TOP95) -> list[str]:
    """``prefix`` + each puzzle of ``source`` in the share-link spelling (0 for blank)."""
    lines = [ln.strip() for ln in source.read_text().splitlines() if ln.strip()]
    return [prefix + quote(ln.replace(".", "0")) for ln in lines]


def top95_paths(prefix: str) -> list[str]:
    """``prefix`` + each top95 puzzle in the share-link spelling (digits, 0 for blank)."""
    return puzzle_paths(prefix, TOP95)


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def http_get(port: int, path: str, timeout: float = 10.0) -> int:
    """One GET over a new connection; the status code (raises OSError on a network error)."""
    return http_get_head(port, path, timeout)[0]


def http_get_head(port: int, path: str, timeout: float = 10.0) -> tuple[int, bytes]:
    """One GET over a new connection; the status code and the header lines, lowercased
    (raises OSError on a network error)."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n"
        sock.sendall(request.encode("ascii"))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    status_line, _, rest = b"".join(chunks).partition(b"\r\n")
    parts = status_line.split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
        raise OSError(f"bad status line {status_line[:80]!r}")
    return int(parts[1]), rest.partition(b"\r\n\r\n")[0].lower()


def _client(
    port: int,
    paths: Sequence[str],
    offset: int,
    stop_at: float,
    max_requests: int,
    out: mp.Queue[list[tuple[float, float, int]]],
) -> None:
    """A closed-loop client; puts (end_time, latency_s, status or -1) records on ``out``."""
    records: list[tuple[float, float, int]] = []
    i = offset
    while time.monotonic() < stop_at and len(records) < max_requests:
        path = paths[i % len(paths)]
        i += 1
        started = time.monotonic()
        try:
            status = http_get(port, path)
        except OSError:
            status = -1
        ended = time.monotonic()
        records.append((ended, ended - started, status))
    out.put(records)


def _children(pid: int) -> list[int]:
    """PIDs whose parent is ``pid`` (gunicorn's workers, for the master's pid)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Field 4 (ppid) follows the ")" that closes the command name.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return sorted(found)


def peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident set) of ``pid`` in MB, 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Server:
    """``python -m sudoku_web.hosting.serve`` on a free loopback port, as a context manager.

    With ``gunicorn_args`` it runs ``gunicorn -c python:sudoku_web.hosting.gunicorn_conf``
    instead (the same shipped settings and hooks) plus those flags, which the hostile test
    uses for an access log that records each request's server time. ``cache_size`` None
    keeps the app's default cache.
    """

    def __init__(
        self,
        workers: int,
        cache_size: int | None,
        app: str,
        extra_env: dict[str, str] | None = None,
        gunicorn_args: Sequence[str] = (),
    ) -> None:
        self.port = free_port()
        self.expected_workers = workers
        env = dict(os.environ)
        env.update(
            SUDOKU_WEB_BIND=f"{HOST}:{self.port}",
            SUDOKU_WEB_WORKERS=str(workers),
            SUDOKU_WEB_ACCESS_LOG="/dev/null",  # logging every request would be measured too
            SUDOKU_WEB_LOG_LEVEL="warning",
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        )
        if cache_size is not None:
            env.update(
                SUDOKU_WEB_RESULT_CACHE_SIZE=str(cache_size),
                # Until the app reads the SUDOKU_WEB_ prefix, its FLASK_ prefix carries the same.
                FLASK_RESULT_CACHE_SIZE=str(cache_size),
                # The store is bounded in bytes now (web/runtime/cache.py): ~32 KB per entry counted
                # here (result, page and URL entry of a 9x9 link), 0 = cache off.
                SUDOKU_WEB_CACHE_MAX_BYTES=str(cache_size * 32 * 1024),
            )
        env.update(extra_env or {})
        command = [sys.executable, "-m", "sudoku_web.hosting.serve", "--app", app]
        if gunicorn_args:
            conf = "python:sudoku_web.hosting.gunicorn_conf"
            command = [sys.executable, "-m", "gunicorn", "-c", conf, *gunicorn_args, app]
        self.proc = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    def __enter__(self) -> Server:
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited:\n{self.proc.stderr.read() if self.proc.stderr else ''}"
                )
            try:
                http_get(self.port, "/", timeout=2)
                # Every worker forked, so the measured window does not include one's start.
                if len(self.workers()) >= self.expected_workers:
                    return self
            except OSError:
                if time.monotonic() > deadline:
                    raise
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(self.workers())} workers after 30 s")
            time.sleep(0.1)

    def __exit__(self, *exc: object) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def workers(self) -> list[int]:
        """The live worker PIDs."""
        return _children(self.proc.pid)


_WRK_SCRIPT = """
paths = {%s}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter %% #paths) + 1])
end
"""
_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if not match:
        raise ValueError(f"unexpected wrk latency {text!r}")
    return float(match.group(1)) * _UNITS_MS[match.group(2)]


def run_wrk(
    wrk: str,
    port: int,
    paths: Sequence[str],
    args: argparse.Namespace,
    duration: float | None = None,
) -> Outcome:
    """Drives the server with wrk for ``duration`` (default ``--duration``) seconds."""
    duration = args.duration if duration is None else duration
    import tempfile

    lua = _WRK_SCRIPT % ", ".join(json.dumps(p) for p in paths)
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(lua)
        script.flush()
        threads = max(1, min(args.clients, len(os.sched_getaffinity(0))))
        result = subprocess.run(
            [wrk, f"-t{threads}", f"-c{args.clients}", f"-d{max(1, round(duration))}s",
             "--latency", "-s", script.name, f"http://{HOST}:{port}"],
            capture_output=True, text=True, timeout=duration + 60, check=True,
        )  # fmt: skip
    out = result.stdout
    total = re.search(r"(\d+) requests in ([\d.]+)(\w+)", out)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.MULTILINE)
    if not (total and rps and p50 and p99):
        raise RuntimeError(f"cannot read wrk's report:\n{out}")
    statuses: dict[str, int] = {}
    if non_2xx := re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        statuses["non-2xx/3xx"] = int(non_2xx.group(1))
    if sock := re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    ):
        # A read "error" is wrk seeing gunicorn close the connection after a response as
        # HTTP/1.1 allows; only connect/write failures and timeouts are real errors.
        connect, _read, write, timeout = (int(g) for g in sock.groups())
        if connect + write + timeout:
            statuses["socket-errors"] = connect + write + timeout
    requests = int(total.group(1))
    return Outcome(
        name="",
        requests=requests,
        errors=sum(statuses.values()),
        seconds=round(_ms(total.group(2) + total.group(3)) / 1000, 2),
        rps=round(float(rps.group(1)), 1),
        p50_ms=round(_ms(p50.group(1)), 2),
        p99_ms=round(_ms(p99.group(1)), 2),
        statuses=statuses or {"2xx/3xx": requests},
    )


def _python_load(
    port: int, paths: Sequence[str], seconds: float, args: argparse.Namespace
) -> tuple[float, list[mp.Process], mp.Queue[list[tuple[float, float, int]]]]:
    """Starts ``--clients`` stdlib client processes for ``seconds``; (start time, procs, queue)."""
    queue: mp.Queue[list[tuple[float, float, int]]] = mp.Queue()
    started = time.monotonic()
    stop_at = started + seconds
    per_client = max(1, args.max_requests // args.clients)
    procs = [
        mp.Process(target=_client, args=(port, paths, n * 7, stop_at, per_client, queue))
        for n in range(args.clients)
    ]
    for proc in procs:
        proc.start()
    return started, procs, queue


def _collect(
    procs: Sequence[mp.Process], queue: mp.Queue[list[tuple[float, float, int]]], seconds: float
) -> list[tuple[float, float, int]]:
    records: list[tuple[float, float, int]] = []
    for _ in procs:
        records.extend(queue.get(timeout=seconds + 60))
    for proc in procs:
        proc.join(timeout=10)
    return records


def _round_rps(server: Server, paths: Sequence[str], args: argparse.Namespace) -> float:
    """One second of load at the measured concurrency; its throughput in req/s."""
    if args.wrk:
        return run_wrk(args.wrk, server.port, paths, args, duration=1.0).rps
    started, procs, queue = _python_load(server.port, paths, 1.0, args)
    records = _collect(procs, queue, 1.0)
    elapsed = max((r[0] for r in records), default=started + 1.0) - started
    return len(records) / elapsed if elapsed > 0 else 0.0


def warm_up(server: Server, scenario: Scenario, args: argparse.Namespace) -> Outcome:
    """The warm-up described in the module docstring; its figures in an (unnamed) Outcome."""
    began = time.monotonic()
    # Every scenario: import paths and first template renders, one to four passes in order.
    requests = 0
    warm_until = began + args.warmup
    for i, path in enumerate(scenario.paths * 4):
        if time.monotonic() > warm_until and i >= len(scenario.paths):
            break
        http_get(server.port, path)
        requests += 1
    rounds: list[float] = []
    if scenario.steady_state:
        # Each worker's LRU: requests land on whichever worker is free, so under the measured
        # concurrency a worker misses a given URL in n requests with odds ~(1 - 1/workers)^n.
        wanted = args.warmup_passes * args.workers * len(scenario.paths)
        deadline = began + args.warmup_max
        while time.monotonic() < deadline:
            rps = _round_rps(server, scenario.paths, args)
            rounds.append(round(rps, 1))
            requests += round(rps)
            if requests >= wanted and len(rounds) >= 2 and rps <= rounds[-2] * 1.05:
                break
    return Outcome(
        name="",
        requests=0,
        errors=0,
        seconds=0.0,
        rps=0.0,
        p50_ms=0.0,
        p99_ms=0.0,
        warmup_requests=requests,
        warmup_seconds=round(time.monotonic() - began, 1),
        warmup_rounds=rounds,
    )


def run_scenario(scenario: Scenario, args: argparse.Namespace) -> Outcome:
    """Starts a server for ``scenario``, warms it up, drives it and measures it."""
    with Server(args.workers, scenario.cache_size, args.app) as server:
        warm = warm_up(server, scenario, args)
        before = set(server.workers())
        if args.wrk and not scenario.kill_worker:
            measured = run_wrk(args.wrk, server.port, scenario.paths, args)
            measured.name = scenario.name
            after = server.workers()
            measured.recycled_workers = len(set(after) - before)
            measured.worker_peak_rss_mb = [round(peak_rss_mb(p), 1) for p in after]
            measured.master_peak_rss_mb = round(peak_rss_mb(server.proc.pid), 1)
            measured.warmup_requests = warm.warmup_requests
            measured.warmup_seconds = warm.warmup_seconds
            measured.warmup_rounds = warm.warmup_rounds
            return measured
        started, procs, queue = _python_load(server.port, scenario.paths, args.duration, args)
        killed_pid: int | None = None
        killed_at = 0.0
        if scenario.kill_worker:
            time.sleep(args.duration / 2)
            victims = server.workers()
            if victims:
                killed_pid = victims[0]
                killed_at = time.monotonic()
                os.kill(killed_pid, signal.SIGKILL)
        records = _collect(procs, queue, args.duration)
        elapsed = max(r[0] for r in records) - started if records else args.duration
        after = server.workers()
        # The kill's replacement is not a recycle.
        recycled = max(0, len(set(after) - before) - (1 if killed_pid else 0))
        worker_rss = [round(peak_rss_mb(pid), 1) for pid in after]
        master_rss = round(peak_rss_mb(server.proc.pid), 1)
    latencies = sorted(r[1] * 1000 for r in records if r[2] > 0)
    statuses: dict[str, int] = {}
    for _, _, status in records:
        key = "network-error" if status < 0 else str(status)
        statuses[key] = statuses.get(key, 0) + 1
    errors = sum(1 for r in records if not 200 <= r[2] < 400)
    ok_after = (
        sum(1 for r in records if r[0] > killed_at + 0.5 and 200 <= r[2] < 400)
        if killed_pid
        else None
    )
    return Outcome(
        name=scenario.name,
        requests=len(records),
        errors=errors,
        seconds=round(elapsed, 2),
        rps=round(len(records) / elapsed, 1) if elapsed > 0 else 0.0,
        p50_ms=round(statistics.median(latencies), 2) if latencies else 0.0,
        p99_ms=round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2)
        if latencies
        else 0.0,
        statuses=statuses,
        worker_peak_rss_mb=worker_rss,
        master_peak_rss_mb=master_rss,
        ok_after_kill=ok_after,
        killed_pid=killed_pid,
        warmup_requests=warm.warmup_requests,
        warmup_seconds=warm.warmup_seconds,
        warmup_rounds=warm.warmup_rounds,
        recycled_workers=recycled,
    )


def vm_rss_mb(pid: int) -> float:
    """VmRSS (current resident set) of ``pid`` in MB, 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def soak(args: argparse.Namespace) -> int:
    """Worker memory over a long mixed run with recycling off (``--soak REQUESTS``).

    The server runs the shipped settings except ``max_requests=0`` (never recycle) and the
    app's default LRU size; the load mixes every route the load test knows with top1465 pages
    and API GETs (1,465 puzzles, more than the LRU holds, so it evicts all the time) and
    invalid links (404/422 pages). VmRSS of each worker is sampled after every chunk of load;
    the figure that matters is growth after the LRU is full. Exit 1 if a worker changed
    (recycled or died) or a request failed.
    """
    if not args.wrk:
        raise SystemExit("--soak needs wrk on PATH (apt-get install wrk)")
    mix: list[str] = []
    top1465 = puzzle_paths("/p/", TOP1465)
    api1465 = puzzle_paths("/api/solve?puzzle=", TOP1465)
    extra = (
        [args.baseline_path]
        + top95_paths("/p/")
        + puzzle_paths("/p/", EASY50)
        + top95_paths("/api/solve?puzzle=")
        + ["/p/123", "/p/" + "1" * 81, "/api/solve?puzzle=xyz", "/", "/nope"]
    )
    for i, (page, api) in enumerate(zip(top1465, api1465, strict=True)):
        mix += [page, api, extra[i % len(extra)]]
    chunk = 15.0
    print(f"machine: {machine()}")
    print(f"soak: {args.soak} requests, {len(mix)} URLs, workers={args.workers}, max_requests=0")
    with Server(args.workers, 512, args.app, extra_env={"SUDOKU_WEB_MAX_REQUESTS": "0"}) as server:
        pids = server.workers()
        samples = [(0, [round(vm_rss_mb(p), 1) for p in pids])]
        print(f"  after start: VmRSS MB {samples[0][1]}", flush=True)
        # The invalid links answer 4xx by design (checked here: never a 5xx); wrk counts
        # those as non-2xx/3xx, so its errors that count are socket errors.
        bad = [p for p in extra[-5:] if not 200 <= http_get(server.port, p) < 500]
        if bad:
            raise SystemExit(f"soak: 5xx from {bad}")
        total = errors = non_2xx = 0
        began = time.monotonic()
        while total < args.soak:
            out = run_wrk(args.wrk, server.port, mix, args, duration=chunk)
            total += out.requests
            errors += out.statuses.get("socket-errors", 0)
            non_2xx += out.statuses.get("non-2xx/3xx", 0)
            rss = [round(vm_rss_mb(p), 1) for p in pids]
            samples.append((total, rss))
            print(f"  {total:>7} requests ({out.rps:.0f} req/s): VmRSS MB {rss}", flush=True)
        changed = server.workers() != pids
        hwm = [round(peak_rss_mb(p), 1) for p in pids]
        seconds = time.monotonic() - began
    first_full = samples[1][1]
    growth = [round(b - a, 1) for a, b in zip(first_full, samples[-1][1], strict=True)]
    print(
        f"\n{total} requests in {seconds:.0f} s; per worker ~{total // len(pids)}; "
        f"VmRSS after the first chunk {first_full} -> end {samples[-1][1]} "
        f"(growth {growth} MB); peak (VmHWM) {hwm}; workers unchanged: {not changed}; "
        f"socket errors {errors}; 4xx answers {non_2xx} (the mix's invalid links)"
    )
    return 1 if changed or errors else 0


# ---- the hostile test: the most expensive requests, fresh each time ------------------------

#: gunicorn's access log line for the hostile test: the kind header the client sends, the
#: status, the server time in microseconds (request read to response written), the worker's
#: CPU time in ms (``benchmarks.timed_app``; "-" under another app), the path.
HOSTILE_LOG_FORMAT = "%({x-load-kind}i)s %(s)s %(D)s %({x-cpu-ms}o)s %(m)s %(U)s"
#: The app the hostile test serves by default: the real one, plus the X-Cpu-Ms header.
TIMED_APP = "benchmarks.timed_app:create_app()"
#: The hostile test's targets on the 2-core box with the shipped settings.
TARGET_SERVER_MS = 300.0
TARGET_PSS_MB = 250.0
#: A photo read within a second (p95 of server time), on the same box.
TARGET_PHOTO_MS = 1000.0


def send(port: int, req: hostile.Request, timeout: float = 30.0) -> int:
    """Sends ``req`` over a new connection, tagged with its kind; the status code."""
    head = [
        f"{req.method} {req.path} HTTP/1.1",
        f"Host: {HOST}",
        "Connection: close",
        f"X-Load-Kind: {req.kind}",
    ]
    if req.method == "POST":
        head += [f"Content-Type: {req.content_type}", f"Content-Length: {len(req.body)}"]
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        # Sent by a thread while the answer is read: a server may answer (413) before it has
        # read a large body, and a client that only read after sending would see a reset.
        def write() -> None:
            try:
                sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("ascii") + req.body)
            except OSError:
                pass  # answered (and closed) before the body was all sent

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except ConnectionResetError:
            if not chunks:
                raise
        writer.join(timeout)
    parts = b"".join(chunks).split(b"\r\n", 1)[0].split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
        raise OSError(f"bad status line {parts!r}")
    return int(parts[1])


def _hostile_client(
    port: int,
    kinds: Sequence[str],
    seed: int,
    stop_at: float,
    max_requests: int,
    out: mp.Queue[list[tuple[str, float, int]]],
) -> None:
    """A closed loop over ``kinds`` with fresh inputs; puts (kind, latency_s, status) records."""
    rng = random.Random(seed)
    records: list[tuple[str, float, int]] = []
    for i in range(max_requests):
        if time.monotonic() >= stop_at:
            break
        req = hostile.ALL_KINDS[kinds[i % len(kinds)]](rng)
        started = time.monotonic()
        try:
            status = send(port, req)
        except OSError:
            status = -1
        records.append((req.kind, time.monotonic() - started, status))
    out.put(records)


def pss_mb(pid: int) -> float:
    """Proportional set size of ``pid`` in MB (shared pages split among their sharers)."""
    return rollup_mb(pid, "Pss:")


class MemorySampler(threading.Thread):
    """Samples the whole service's PSS (master plus workers) every ``interval`` seconds."""

    def __init__(self, server: Server, interval: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.server, self.interval = server, interval
        self.samples: list[tuple[float, float, list[float]]] = []  # (t, total, per process)
        self.halt = threading.Event()

    def sample(self) -> float:
        """One sample now; the total in MB."""
        pids = [self.server.proc.pid, *self.server.workers()]
        each = [round(pss_mb(pid), 1) for pid in pids]
        self.samples.append((time.monotonic(), round(sum(each), 1), each))
        return sum(each)

    def run(self) -> None:
        while not self.halt.wait(self.interval):
            self.sample()

    @property
    def peak(self) -> tuple[float, list[float]]:
        """The largest total seen and its per-process split (master first)."""
        _, total, each = max(self.samples, key=lambda s: s[1], default=(0.0, 0.0, []))
        return total, each


class Probe(threading.Thread):
    """Times ``GET /healthz`` every ``interval`` seconds, as a monitoring system would."""

    def __init__(self, port: int, interval: float = 0.25, timeout: float = 10.0) -> None:
        super().__init__(daemon=True)
        self.port, self.interval, self.timeout = port, interval, timeout
        self.latencies_ms: list[float] = []
        self.failures = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            started = time.monotonic()
            try:
                ok = http_get(self.port, "/healthz", timeout=self.timeout) == 200
            except OSError:
                ok = False
            elapsed = time.monotonic() - started
            if ok:
                self.latencies_ms.append(elapsed * 1000)
            else:
                self.failures += 1
            self.halt.wait(max(0.0, self.interval - elapsed))


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value at ``fraction`` (0..1) of the sorted ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


@dataclass
class KindFigures:
    """One kind's requests in a hostile run: statuses, client latency, server time."""

    kind: str
    requests: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    client_max_ms: float = 0.0
    server_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    slowest_path: str = ""

    @property
    def errors(self) -> int:
        """5xx answers and requests that got no answer."""
        return sum(n for s, n in self.statuses.items() if s == "no answer" or s.startswith("5"))


@dataclass
class HostileOutcome:
    """The figures of one hostile run."""

    name: str
    seconds: float
    kinds: dict[str, KindFigures]
    probe_ms: list[float]
    probe_failures: int
    pss_peak_mb: float
    pss_peak_split: list[float]
    pss_end_mb: float
    pss_end_split: list[float]

    @property
    def errors(self) -> int:
        """Every 5xx or unanswered request, probe failures included."""
        return sum(k.errors for k in self.kinds.values()) + self.probe_failures

    @property
    def slowest_server_ms(self) -> float:
        """The largest server time of any request."""
        return max((max(k.server_ms, default=0.0) for k in self.kinds.values()), default=0.0)


def _read_access_log(path: Path, kinds: dict[str, KindFigures]) -> None:
    """Adds each logged request's server time and CPU time (ms) to its kind's figures.

    5xx answers are left out: a worker killed at its timeout logs the time of writing its
    error page, not of the request (the client's time, in the report, tells that story).
    """
    for line in path.read_text().splitlines():
        parts = line.split(" ", 5)
        if len(parts) < 6 or parts[0] not in kinds or parts[1].startswith("5"):
            continue  # the probe, the start-up check, a killed worker's 500
        figures = kinds[parts[0]]
        ms = int(parts[2]) / 1000
        if ms > max(figures.server_ms, default=-1.0):
            figures.slowest_path = f"{parts[4]} {parts[5][:60]}..."
        figures.server_ms.append(ms)
        if parts[3] != "-":
            figures.cpu_ms.append(float(parts[3]))


def run_hostile(
    name: str, args: argparse.Namespace, plans: Sequence[Sequence[str]], seconds: float
) -> HostileOutcome:
    """One client process per plan (a cycle of kinds) against a fresh shipped server.

    Each client sends at most ``len(plan)`` requests (``--max-requests`` caps the total) and
    stops at ``seconds``; the probe and the memory sampler run throughout, and the service's
    PSS is sampled once more at the end.
    """
    import tempfile

    kinds = {k: KindFigures(k) for plan in plans for k in plan}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "access.log"
        flags = ["--access-logfile", str(log), "--access-logformat", HOSTILE_LOG_FORMAT]
        with Server(args.workers, None, args.hostile_app, gunicorn_args=flags) as server:
            sampler, probe = MemorySampler(server), Probe(server.port)
            sampler.sample()
            sampler.start()
            probe.start()
            queue: mp.Queue[list[tuple[str, float, int]]] = mp.Queue()
            started = time.monotonic()
            cap = max(1, args.max_requests // len(plans))
            procs = [
                mp.Process(
                    target=_hostile_client,
                    args=(server.port, plan, args.seed + n, started + seconds,
                          min(cap, len(plan)), queue),
                )
                for n, plan in enumerate(plans)
            ]  # fmt: skip
            for proc in procs:
                proc.start()
            records = [r for _ in procs for r in queue.get(timeout=seconds + 120)]
            for proc in procs:
                proc.join(timeout=10)
            elapsed = time.monotonic() - started
            probe.halt.set()
            sampler.halt.set()
            probe.join()
            sampler.join()
            end_total = round(sampler.sample(), 1)
            end_split = sampler.samples[-1][2]
            peak, split = sampler.peak
        _read_access_log(log, kinds)
    for kind, latency, status in records:
        figures = kinds[kind]
        figures.requests += 1
        key = "no answer" if status < 0 else str(status)
        figures.statuses[key] = figures.statuses.get(key, 0) + 1
        figures.client_max_ms = max(figures.client_max_ms, latency * 1000)
    return HostileOutcome(
        name=name,
        seconds=round(elapsed, 1),
        kinds={k: v for k, v in kinds.items() if v.requests},
        probe_ms=probe.latencies_ms,
        probe_failures=probe.failures,
        pss_peak_mb=peak,
        pss_peak_split=split,
        pss_end_mb=end_total,
        pss_end_split=end_split,
    )


def hostile_scenario(args: argparse.Namespace) -> HostileOutcome:
    """``--hostile``: ``--clients`` clients cycling through every expensive kind for
    ``--duration`` seconds, each starting at a different kind."""
    names = list(hostile.KINDS)
    per_client = max(1, args.max_requests // args.clients)
    # Client n starts n/clients of the way round, so even a short run covers every kind.
    starts = [n * len(names) // args.clients for n in range(args.clients)]
    plans = [[names[(start + i) % len(names)] for i in range(per_client)] for start in starts]
    return run_hostile("hostile", args, plans, args.duration)


def worst_memory_scenario(args: argparse.Namespace) -> HostileOutcome:
    """``--worst-memory``: ``--steps-pages`` fresh 16x16 steps pages and ``--fresh-maps``
    fresh 16x16 jigsaw maps, shuffled and split among ``--clients`` clients; bounded by
    ``--duration`` x 10 seconds (it is bounded in count, the time is a safety net)."""
    mix = ["steps16"] * args.steps_pages + ["jigsaw16-map"] * args.fresh_maps
    random.Random(args.seed).shuffle(mix)
    plans = [mix[n :: args.clients] for n in range(args.clients)]
    return run_hostile("worst-memory", args, plans, args.duration * 10)


def photos_scenario(args: argparse.Namespace) -> HostileOutcome:
    """``--photos``: ``--clients`` clients cycling through eight photos, a bomb and an
    upload over the limit (each client starting elsewhere in the cycle), ``--duration`` s."""
    mix = ["photo"] * 8 + ["photo-bomb", "photo-over-limit"]
    per_client = max(1, args.max_requests // args.clients)
    plans = [[mix[(n * 3 + i) % len(mix)] for i in range(per_client)] for n in range(args.clients)]
    return run_hostile("photos", args, plans, args.duration)


def photos_report(outcome: HostileOutcome) -> str:
    """The hostile table of a photo run, with the photo target checked instead of 300 ms."""
    lines = hostile_report(outcome).split("\n")
    lines = [line for line in lines if not line.startswith("- slowest request")]
    photo = outcome.kinds.get("photo")
    times = photo.server_ms if photo is not None else []
    p95 = percentile(times, 0.95)
    lines.append(
        f"- photo reading (server time): p50 {percentile(times, 0.5):.0f} ms, p95 {p95:.0f} ms, "
        f"max {max(times, default=0.0):.0f} ms over {len(times)} photos; target p95 < "
        f"{TARGET_PHOTO_MS:.0f} ms: {_verdict(bool(times) and p95 < TARGET_PHOTO_MS)}"
    )
    return "\n".join(lines)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "ABOVE TARGET"


def hostile_report(outcome: HostileOutcome) -> str:
    """A Markdown table of one hostile run, with the targets checked."""
    lines = [
        f"### {outcome.name}: {sum(k.requests for k in outcome.kinds.values())} requests "
        f"in {outcome.seconds:.0f} s",
        "",
        "| kind | requests | statuses | server p50 ms | server max ms | CPU p50 ms "
        "| CPU max ms | client max ms |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for k in outcome.kinds.values():
        statuses = ", ".join(f"{s}: {n}" for s, n in sorted(k.statuses.items()))
        times = [
            f"{percentile(v, 0.5):.0f} | {max(v):.0f}" if v else "- | -"
            for v in (k.server_ms, k.cpu_ms)
        ]
        lines.append(
            f"| {k.kind} | {k.requests} | {statuses} | {times[0]} | {times[1]} "
            f"| {k.client_max_ms:.0f} |"
        )
    slowest = max(outcome.kinds.values(), key=lambda k: max(k.server_ms, default=0.0))
    worst = outcome.slowest_server_ms
    worst_cpu = max((max(k.cpu_ms, default=0.0) for k in outcome.kinds.values()), default=0.0)
    probe = outcome.probe_ms
    mb = ", ".join(f"{v:.0f}" for v in outcome.pss_peak_split)
    end = ", ".join(f"{v:.0f}" for v in outcome.pss_end_split)
    lines += [
        "",
        f"- `/healthz` probe: {len(probe)} answers, p50 {percentile(probe, 0.5):.0f} ms, "
        f"p99 {percentile(probe, 0.99):.0f} ms, max {max(probe, default=0.0):.0f} ms; "
        f"{outcome.probe_failures} failed (no 200 within 10 s)",
        f"- slowest request (server time): {worst:.0f} ms, {slowest.kind} "
        f"({slowest.slowest_path}); target < {TARGET_SERVER_MS:.0f} ms: "
        f"{_verdict(worst < TARGET_SERVER_MS)}; the most CPU one request took: "
        f"{worst_cpu:.0f} ms (the server time minus waiting for a core)",
        f"- errors (5xx, no answer, failed probes): {outcome.errors} (a 5xx has no server "
        "time: a worker killed at its timeout logs its error page's, not the request's)",
        f"- service PSS (master + workers): peak {outcome.pss_peak_mb:.0f} MB ({mb}), at the "
        f"end {outcome.pss_end_mb:.0f} MB ({end}); target < {TARGET_PSS_MB:.0f} MB: "
        f"{_verdict(outcome.pss_peak_mb < TARGET_PSS_MB)}",
    ]
    return "\n".join(lines)


def run_hostile_scenarios(args: argparse.Namespace) -> int:
    """``--hostile``, ``--worst-memory`` and/or ``--photos``: prints the reports; exit 1 on
    any error."""
    print(f"machine: {machine()}")
    print(
        f"workers={args.workers} clients={args.clients} seed={args.seed} "
        f"(shipped settings through sudoku_web.hosting.gunicorn_conf; the app's default caches)\n"
    )
    outcomes = []
    if args.hostile:
        outcomes.append(hostile_scenario(args))
        print(hostile_report(outcomes[-1]) + "\n", flush=True)
    if args.worst_memory:
        outcomes.append(worst_memory_scenario(args))
        print(hostile_report(outcomes[-1]) + "\n", flush=True)
    if args.photos:
        outcomes.append(photos_scenario(args))
        print(photos_report(outcomes[-1]) + "\n", flush=True)
    if args.json:
        payload = {"machine": machine(), "outcomes": [asdict(o) for o in outcomes]}
        args.json.write_text(json.dumps(payload, indent=2))
    return 1 if any(o.errors for o in outcomes) else 0


def machine() -> dict[str, object]:
    """What the figures were measured on."""
    return {
        "cpu": cpu_model(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "memory_mb": memory_mb(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def report(outcomes: Sequence[Outcome]) -> str:
    """A Markdown table of the outcomes plus the target checks."""
    lines = [
        "| scenario | warm-up | requests | req/s | p50 ms | p99 ms | errors "
        "| recycled | worker peak RSS MB |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for o in outcomes:
        rss = ", ".join(f"{v:.1f}" for v in o.worker_peak_rss_mb)
        warm = f"{o.warmup_seconds:.1f} s, {o.warmup_requests} req"
        lines.append(
            f"| {o.name} | {warm} | {o.requests} | {o.rps:.0f} | {o.p50_ms:.1f} "
            f"| {o.p99_ms:.1f} | {o.errors} | {o.recycled_workers} | {rss} |"
        )
    by_name = {o.name: o for o in outcomes}
    base = by_name.get("baseline")
    lines.append("")
    if base and base.rps:
        checks: tuple[tuple[str, float | None, str], ...] = (
            ("pages", 0.40, "top95, the hard set"),
            ("pages-easy", None, "easy50, typical puzzles; the 40% target is top95's"),
            ("pages+lru", 0.80, "steady state"),
            ("api", None, ""),
        )
        for name, target, note in checks:
            if name in by_name:
                ratio = by_name[name].rps / base.rps
                verdict = "" if target is None else (" ok" if ratio >= target else " BELOW")
                goal = "" if target is None else f" target >= {target:.0%}"
                why = "; ".join(filter(None, [note, goal.strip()]))
                why = f" ({why})" if why else ""
                lines.append(f"- {name}: {ratio:.0%} of baseline throughput{why}{verdict}")
    peak = max((v for o in outcomes for v in o.worker_peak_rss_mb), default=0.0)
    lines.append(f"- peak RSS of any worker: {peak:.1f} MB (target <= 60 MB)")
    for o in outcomes:
        if o.warmup_rounds:
            rounds = ", ".join(f"{r:.0f}" for r in o.warmup_rounds)
            lines.append(
                f"- {o.name} warm-up: {o.warmup_seconds:.1f} s, ~{o.warmup_requests} requests; "
                f"1 s rounds at req/s {rounds}"
            )
        if o.recycled_workers:
            lines.append(
                f"- {o.name}: {o.recycled_workers} worker(s) recycled (max_requests) during "
                "the measured window, each starting with an empty LRU"
            )
    for o in outcomes:
        if o.killed_pid is not None:
            lines.append(
                f"- kill: worker {o.killed_pid} SIGKILLed at half time; {o.ok_after_kill} "
                f"successful requests after it; statuses {o.statuses}"
            )
        elif o.errors:
            lines.append(f"- {o.name}: ERRORS {o.statuses}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadtest", description=__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--duration", type=float, default=8.0, help="seconds per scenario")
    parser.add_argument(
        "--warmup", type=float, default=1.0, help="seconds of in-order warm-up (every scenario)"
    )
    parser.add_argument(
        "--warmup-passes", type=int, default=3,
        help="cache-on warm-up: at least this many x workers requests per URL",
    )  # fmt: skip
    parser.add_argument(
        "--warmup-max", type=float, default=20.0, help="cache-on warm-up: at most these seconds"
    )
    parser.add_argument(
        "--soak", type=int, metavar="REQUESTS",
        help="instead of the scenarios: worker RSS over this many mixed requests, recycling off",
    )  # fmt: skip
    parser.add_argument(
        "--hostile", action="store_true",
        help="instead: the most expensive requests, fresh inputs, --duration s (default 30)",
    )  # fmt: skip
    parser.add_argument(
        "--worst-memory", action="store_true",
        help="instead: --steps-pages fresh 16x16 steps pages + --fresh-maps fresh jigsaw maps",
    )  # fmt: skip
    parser.add_argument(
        "--photos", action="store_true",
        help="instead: POST /api/read with photos, bombs and 9 MB uploads, --duration s",
    )  # fmt: skip
    parser.add_argument("--steps-pages", type=int, default=450, help="worst memory mix")
    parser.add_argument("--fresh-maps", type=int, default=80, help="worst memory mix")
    parser.add_argument("--seed", type=int, default=12, help="hostile inputs' random seed")
    parser.add_argument(
        "--hostile-app", default=TIMED_APP,
        help=f"WSGI app of the hostile modes (default {TIMED_APP}: the app + X-Cpu-Ms)",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers")
    parser.add_argument("--clients", type=int, default=None, help="client processes")
    parser.add_argument("--max-requests", type=int, default=None, help="cap per scenario")
    parser.add_argument("--only", nargs="*", help="scenario names to run")
    parser.add_argument("--baseline-path", default="/healthz")
    parser.add_argument("--app", default="sudoku_web:create_app()", help="WSGI app to serve")
    parser.add_argument("--quick", action="store_true", help="3 s per scenario")
    parser.add_argument(
        "--client", choices=["auto", "wrk", "python"], default="auto",
        help="load generator (auto: wrk when on PATH)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="also write the figures here")
    return parser


def settle_arguments(args: argparse.Namespace) -> argparse.Namespace:
    """Fills in the defaults that depend on the mode and the machine."""
    hostile_mode = args.hostile or args.worst_memory or args.photos
    if args.quick:
        args.duration, args.warmup, args.warmup_max = 3.0, 0.5, 8.0
    elif hostile_mode and args.duration == 8.0:
        args.duration = 30.0
    if args.workers is None:
        from sudoku_web.hosting.serve import default_workers

        args.workers = default_workers()
    if args.clients is None:
        # A few hostile clients are enough to keep 2 cores busy with expensive requests.
        args.clients = 3 if hostile_mode else 2 * args.workers
    if args.max_requests is None:
        args.max_requests = 600 if hostile_mode else 200_000
    args.wrk = shutil.which("wrk") if args.client in ("auto", "wrk") else None
    if args.client == "wrk" and args.wrk is None:
        raise SystemExit("--client wrk: wrk is not on PATH (apt-get install wrk)")
    return args


def throughput_scenarios(args: argparse.Namespace) -> list[Scenario]:
    """The throughput scenarios of the module docstring (``--only`` picks some)."""
    pages = top95_paths("/p/")
    scenarios = [
        Scenario("baseline", [args.baseline_path], cache_size=0),
        Scenario("pages", pages, cache_size=0),
        Scenario("pages-easy", puzzle_paths("/p/", EASY50), cache_size=0),
        Scenario("pages+lru", pages, cache_size=1024, steady_state=True),
        Scenario("api", top95_paths("/api/solve?puzzle="), cache_size=0),
        Scenario("kill", pages, cache_size=1024, kill_worker=True, steady_state=True),
    ]
    return [s for s in scenarios if not args.only or s.name in args.only]


def run_throughput(args: argparse.Namespace) -> int:
    """Runs the throughput scenarios and prints their report; exit 1 on errors or on no
    answers after a kill.

    The kill scenario may lose the one request the killed worker was handling, so its errors
    are reported, not failed on; what it must show is successful requests after the kill.
    """
    info = machine()
    print(f"machine: {info}")
    client = "wrk" if args.wrk else "python"
    from sudoku_web.hosting.serve import settings_from_env

    shipped = settings_from_env()
    print(
        f"workers={args.workers} clients={args.clients} duration={args.duration}s "
        f"warm-up={args.warmup}s in order (+ cache on: >= {args.warmup_passes} x workers "
        f"per URL, <= {args.warmup_max}s) max_requests={shipped['max_requests']}"
        f"+{shipped['max_requests_jitter']}"
    )
    print(f"load generator: {client} (kill scenario: python)\n")
    outcomes = []
    for scenario in throughput_scenarios(args):
        outcome = run_scenario(scenario, args)
        print(
            f"  {outcome.name}: {outcome.rps:.0f} req/s, {outcome.statuses} "
            f"(warm-up {outcome.warmup_seconds:.1f} s, {outcome.warmup_requests} req)",
            flush=True,
        )
        outcomes.append(outcome)
    print()
    print(report(outcomes))
    if args.json:
        payload = {"machine": info, "outcomes": [asdict(o) for o in outcomes]}
        args.json.write_text(json.dumps(payload, indent=2))
    failed = any(o.errors for o in outcomes if o.killed_pid is None) or any(
        o.killed_pid is not None and not o.ok_after_kill for o in outcomes
    )
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the chosen mode: throughput scenarios (default), ``--soak``, or the hostile ones."""
    args = settle_arguments(build_parser().parse_args(argv))
    if args.soak:
        return soak(args)
    if args.hostile or args.worst_memory or args.photos:
        return run_hostile_scenarios(args)
    return run_throughput(args)


if __name__ == "__main__":
    sys.exit(main())
