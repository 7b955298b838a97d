r"""The production server: gunicorn with defaults sized for a small VPS.

Two equivalent ways to run it, sharing :data:`DEFAULTS` and :func:`settings_from_env`::

    sudoku-web serve [--bind HOST:PORT] [--workers N] [--print-config]
    gunicorn -c python:sudoku_web.hosting.gunicorn_conf 'sudoku_web:create_app()'

Every setting can be overridden by an environment variable (``SUDOKU_WEB_BIND`` ...; see
:data:`ENV_VARS`) and command-line flags override the environment. Both set
``SUDOKU_WEB_ENV=production`` unless it is already set, so a debug flag left on by mistake
stops the server at startup (see :mod:`sudoku_web.web.runtime.security`).

Worker count, decided: ``cores + 1`` worker processes, at most 8. Solving is CPU-bound and
nginx buffers slow clients, so processes beyond the core count only queue for the CPU while
each costs memory (more with 16x16 pages and tables cached; benchmarks/RESULTS.md has the
worst mix); the one spare covers the moments a worker is busy in I/O or being recycled. On
the 1-2 core, 512 MB-1 GB boxes this targets that is 2-3 workers. gunicorn's usual
``2 * cores + 1`` is tuned for I/O-bound apps and would put five workers on a two-core
512 MB box for no extra throughput. More processes would also let a cheap page run beside a
costly one, but each holds about 30 MB of its own where a second thread holds a few
(benchmarks/RESULTS.md: five sync workers, 261 MB under the mixed load against 214 MB for
three workers of two threads); so the threads below do that.

Threads, decided: two per worker (gunicorn's ``gthread`` worker, taking a connection only
while a thread of its own is free: ``worker_connections``, :func:`settings_from_env`);
``SUDOKU_WEB_THREADS=1`` gives the ``sync`` worker. A steps page or a difficulty panel costs
up to a hundred times a result page; with one thread a result page that reaches a worker
busy with one waits for all of it, with two it runs beside it (sharing the interpreter
lock). Under the cold mixed load that took the result page's p99 from above the previous
release's to below it; the price is gthread's ~0.4 ms of CPU a request, so at saturation
the cheapest answers come fewer a second (benchmarks/RESULTS.md, "Two threads a worker,
budgets in work time"). What makes two threads the default rather than an option:

* budgets count work, not waiting (:mod:`sudoku_web.web.runtime.work_clock`), so a teaching
  page sharing its worker is not cut short for the wait (with wall-clock budgets a fifth
  were, against a tenth with one thread);
* memory is bounded per worker (:func:`recycle_if_large`): two big-board requests at once
  leave a worker's heap at their joint peak, so a worker past ``worker_max_private_mb`` is
  replaced by a fresh fork of the warm master;
* threads are safe: every table a worker shares is safe across its threads (stores and
  byte-bounded tables lock, ``web/runtime/memo.py``; the engine's tables count their bytes
  under a lock; single-slot memos swap one immutable tuple; a run's deadline, clock and
  memos are ``ContextVar``\s), and ``tests/test_threads.py`` checks every page byte for byte
  from six threads.

Exposure, decided: gunicorn is never the public face. Its workers read a request
themselves, so a few dozen clients sending their headers slowly can hold every thread of
every worker (measured with one thread a worker: 50 such connections made ``/healthz`` fail
19 of 20 probes), and the answers gunicorn writes on its own (``400``, ``414``, ``431``)
carry none of the app's security headers. A buffering proxy (nginx,
``deploy/nginx-sudoku-web.conf``) reads the whole request first; :func:`warn_if_exposed`
says so loudly when the bind address is not loopback.
"""

from __future__ import annotations

import argparse
import functools
import gc
import ipaddress
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..core.solver import prebuild_common_tables

APP_URI: Final = "sudoku_web:create_app()"
MAX_DEFAULT_WORKERS: Final = 8


def cpu_count() -> int:
    """CPUs this process may run on (respects taskset/cpusets, unlike os.cpu_count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_workers(cores: int | None = None) -> int:
    """``cores + 1``, capped at 8 (see the module docstring for why)."""
    return min((cores if cores is not None else cpu_count()) + 1, MAX_DEFAULT_WORKERS)


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true/false, got {text!r}")


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"expected 0 or more, got {text!r}")
    return value


#: gunicorn setting -> (environment variable, parser). The single source of names.
ENV_VARS: Final[Mapping[str, tuple[str, Callable[[str], Any]]]] = {
    "bind": ("SUDOKU_WEB_BIND", str),
    "workers": ("SUDOKU_WEB_WORKERS", _positive_int),
    "threads": ("SUDOKU_WEB_THREADS", _positive_int),
    "worker_max_private_mb": ("SUDOKU_WEB_WORKER_MAX_PRIVATE_MB", _positive_int),
    "timeout": ("SUDOKU_WEB_TIMEOUT", _positive_int),
    "graceful_timeout": ("SUDOKU_WEB_GRACEFUL_TIMEOUT", _positive_int),
    "keepalive": ("SUDOKU_WEB_KEEPALIVE", _positive_int),
    "max_requests": ("SUDOKU_WEB_MAX_REQUESTS", _positive_int),
    "max_requests_jitter": ("SUDOKU_WEB_MAX_REQUESTS_JITTER", _positive_int),
    "preload_app": ("SUDOKU_WEB_PRELOAD", _bool),
    "accesslog": ("SUDOKU_WEB_ACCESS_LOG", str),
    "errorlog": ("SUDOKU_WEB_ERROR_LOG", str),
    "loglevel": ("SUDOKU_WEB_LOG_LEVEL", str),
    "forwarded_allow_ips": ("SUDOKU_WEB_FORWARDED_ALLOW_IPS", str),
    "forwarder_headers": ("SUDOKU_WEB_FORWARDER_HEADERS", str),
    "header_map": ("SUDOKU_WEB_HEADER_MAP", str),
    "limit_request_line": ("SUDOKU_WEB_LIMIT_REQUEST_LINE", _positive_int),
    "limit_request_fields": ("SUDOKU_WEB_LIMIT_REQUEST_FIELDS", _positive_int),
    "limit_request_field_size": ("SUDOKU_WEB_LIMIT_REQUEST_FIELD_SIZE", _positive_int),
    "control_socket_disable": ("SUDOKU_WEB_CONTROL_SOCKET_DISABLE", _bool),
}

#: Settings :func:`settings_from_env` derives from others (no variable of their own).
DERIVED: Final = ("worker_connections",)
#: Settings the server hooks read (:data:`HOOKS`), not gunicorn's own.
HOOK_SETTINGS: Final = ("worker_max_private_mb",)

#: Defaults for a small VPS behind nginx. ``workers`` is filled in from the CPU count.
DEFAULTS: Final[Mapping[str, Any]] = {
    # Loopback only: nginx is the public face (TLS, rate limits, slow clients).
    "bind": "127.0.0.1:8000",
    "workers": None,
    "threads": 2,
    # Past this much private memory after a costly request, a worker finishes what it holds
    # and is replaced by a fresh fork of the warm master (:func:`recycle_if_large`). Not a
    # gunicorn setting: the hook reads it.
    "worker_max_private_mb": 48,
    # Every request is bounded by the app to a fraction of a second of work (and three times
    # that of wall-clock time), so 10 s (the heartbeat after which gunicorn kills and
    # replaces a silent worker; with threads the worker's main loop beats, so it catches a
    # hung worker, not a long request) is far beyond any legitimate request.
    "timeout": 10,
    # On stop or restart, workers finish what they are doing: well under a second.
    "graceful_timeout": 5,
    # None: nginx talks HTTP/1.0 to the upstream by default, closing after each answer. A
    # threaded worker's idle kept-alive connection would also count against the one connection
    # per thread it takes (worker_connections), holding a thread's place for nothing.
    "keepalive": 0,
    # Recycling is a leak guard only: the app's memory is bounded (a store of CACHE_MAX_BYTES,
    # 8 MiB) and a worker's RSS stays flat once the LRU is full (benchmarks/RESULTS.md,
    # measured with recycling off). A recycled worker
    # starts with an empty LRU and re-solves every hot link, so the old 2,000 recycled each
    # worker every few seconds under load and halved the cached-page throughput. 50,000 is
    # hours at a small site's rates and still catches a leak in a dependency; the jitter
    # (10%) keeps workers from restarting together.
    "max_requests": 50_000,
    "max_requests_jitter": 5_000,
    # Load the app in the master before forking: a config error (debug in production) stops
    # the server at once, and workers share the loaded code copy-on-write.
    "preload_app": True,
    # "-" is stdout/stderr: journald (systemd) collects and rotates them.
    "accesslog": "-",
    "errorlog": "-",
    "loglevel": "info",
    # Trust X-Forwarded-* only from the local nginx.
    "forwarded_allow_ips": "127.0.0.1,::1",
    # No header may set the WSGI SCRIPT_NAME or PATH_INFO (gunicorn lets a trusted peer do so
    # by default, and a SCRIPT_NAME that does not prefix the path made it answer 500): the app
    # is mounted at the root. A header name with an underscore is refused (400) rather than
    # dropped, so such a request is answered plainly; nginx never passes one on.
    "forwarder_headers": "",
    "header_map": "refuse",
    # gunicorn's default, above the app's MAX_URL_LENGTH (2048) so the app's own 414 page (in
    # the site's style, with its headers) answers first; gunicorn's bare 414 only beyond it.
    "limit_request_line": 4094,
    # Browsers send 10-20 header fields; 50 leaves room for proxies and refuses (431) a
    # request that pads itself with hundreds. gunicorn's defaults are 100 and 8190 bytes each.
    "limit_request_fields": 50,
    "limit_request_field_size": 8190,
    # gunicorn >= 25 opens a runtime control socket (change worker count, reload) in
    # $XDG_RUNTIME_DIR or ~/.gunicorn. Nobody needs it on a VPS run by systemd, whose user has
    # no writable home; off unless asked for. Ignored by older gunicorn.
    "control_socket_disable": True,
}


def settings_from_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The gunicorn settings: :data:`DEFAULTS` overridden by ``SUDOKU_WEB_*`` variables.

    Raises ValueError naming the variable when one cannot be parsed.
    """
    env = os.environ if environ is None else environ
    settings = dict(DEFAULTS)
    for name, (var, parse) in ENV_VARS.items():
        raw = env.get(var)
        if raw is None or raw.strip() == "":
            continue
        try:
            settings[name] = parse(raw.strip())
        except ValueError as exc:
            raise ValueError(f"{var}={raw!r}: {exc}") from None
    if not settings["workers"]:
        settings["workers"] = default_workers()
    settings["threads"] = max(1, settings["threads"])
    # gthread accepts connections up to worker_connections (1,000 by default) and queues
    # them for its threads: a worker whose threads are busy would take a cheap page and make
    # it wait while another worker idles. One connection per thread leaves the rest in the
    # listen queue for whichever worker frees a thread first. (Sync workers ignore it.)
    settings["worker_connections"] = settings["threads"]
    return settings


def mark_production(environ: dict[str, str] | os._Environ[str] | None = None) -> None:
    """Sets ``SUDOKU_WEB_ENV=production`` unless the operator chose something else."""
    (os.environ if environ is None else environ).setdefault("SUDOKU_WEB_ENV", "production")


#: The puzzle a new server's pages are first drawn for (:func:`warm_up_app`): line 45 of
#: top95, whose explanation climbs the whole ladder to forcing chains.
WARM_UP_PUZZLE: Final = (
    "040500000800090030076020000014600000000009007000003600001004050060000003007100200"
)
#: The pages drawn for it: every template and every lazily built table a page needs.
WARM_UP_PATHS: Final = (
    "/p/{}",
    "/p/{}/difficulty",
    "/p/{}/steps",
    "/p/{}/search",
    "/p/{}.png",
    "/api/explain?puzzle={}",
)


_WARM: Final = "sudoku_web_warmed_up"  # set on gunicorn's arbiter once the app is warm


def warm_up_app(app: Any) -> list[int]:
    """Draws :data:`WARM_UP_PUZZLE`'s pages once through the WSGI ``app`` (no socket), so
    the first visitor's pages cost what later ones do: templates compiled, the technique
    ladder's and the drawing's tables built, lazy imports done. Their statuses."""
    from werkzeug.test import Client

    client = Client(app)
    return [client.get(path.format(WARM_UP_PUZZLE)).status_code for path in WARM_UP_PATHS]


def freeze_heap(server: Any = None, worker: Any = None) -> None:
    """gunicorn's ``pre_fork`` hook: move the preloaded app (engine tables, templates,
    modules) into the collector's permanent generation before a worker is forked.

    Workers then never rescan those objects in full collections, and do not write to their
    pages when they do (so copy-on-write memory stays shared between workers). With the app
    preloaded, it is first warmed up (:func:`warm_up_app`, once per master), so every worker
    starts warm and shares what the warm-up built.
    """
    prebuild_common_tables()  # the fixed geometries' engine tables, shared by the workers
    if server is not None and server.cfg.preload_app and not getattr(server, _WARM, False):
        warm_up_app(server.app.wsgi())
        setattr(server, _WARM, True)
    gc.collect()
    gc.freeze()


def warm_up_worker(worker: Any) -> None:
    """gunicorn's ``post_worker_init`` hook: a worker that loaded the app itself (no
    preload) warms it up (:func:`warm_up_app`) before taking its first request."""
    if not worker.cfg.preload_app:
        warm_up_app(worker.wsgi)


def exposed_addresses(binds: Sequence[str]) -> list[str]:
    """The addresses in ``binds`` that other machines can reach: not loopback, not a socket.

    A host name other than ``localhost`` counts as exposed (it may resolve anywhere), and so
    does an empty host (gunicorn reads ``:8000`` as every interface). ``fd://`` (a socket
    handed over by systemd) is left alone: where it listens is the socket unit's business.
    """
    from gunicorn.util import parse_address  # type: ignore[import-untyped]

    exposed = []
    for bind in binds:
        if bind.startswith(("unix:", "fd://")):
            continue
        host, _port = parse_address(bind)
        if host in ("localhost", "ip6-localhost"):
            continue
        try:
            if ipaddress.ip_address(host).is_loopback:
                continue
        except ValueError:
            pass
        exposed.append(bind)
    return exposed


def exposure_warning(exposed: Sequence[str]) -> str:
    """What :func:`warn_if_exposed` writes when gunicorn listens on ``exposed``."""
    return (
        f"sudoku-web is listening on {', '.join(exposed)}, which other machines can reach. "
        "gunicorn must not face clients itself: its workers read each request, so a few "
        "dozen clients sending their headers slowly hold every worker and the site stops "
        "answering, and gunicorn's own error answers (400, 414, 431) carry none of the app's "
        "security headers. Put nginx (deploy/nginx-sudoku-web.conf) or another buffering "
        "proxy in front and bind to 127.0.0.1 (SUDOKU_WEB_BIND; docs/self-hosting.md)."
    )


def warn_if_exposed(server: Any) -> None:
    """gunicorn's ``on_starting`` hook: a loud warning when a bind address is not loopback.

    It goes to gunicorn's error log, and to stderr as well when that log is a file, so an
    operator starting the server by hand sees it either way.
    """
    exposed = exposed_addresses(server.cfg.bind)
    if not exposed:
        return
    message = exposure_warning(exposed)
    banner = "!" * 78
    server.log.warning("%s\nWARNING: %s\n%s", banner, message, banner)
    if server.cfg.errorlog != "-":
        print(f"{banner}\nWARNING: {message}\n{banner}", file=sys.stderr, flush=True)


#: A request whose work took at least this many milliseconds (the app's work clock, in the
#: WSGI environ under ``work_clock.WORK_MS_KEY``) is followed by a look at the worker's
#: memory: the costly ones are where it grows, and the look (``smaps_rollup``) costs ~0.2 ms.
COSTLY_WORK_MS: Final = 20.0


def rollup_mb(pid: int | str, *fields: str) -> float:
    """The sum of ``fields`` (``"Pss:"`` ...) of ``/proc/<pid>/smaps_rollup``, in MB; 0 when
    the process is gone (or the system has no such file)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            lines = rollup.readlines()
    except OSError:
        return 0.0
    return sum(int(line.split()[1]) for line in lines if line.startswith(fields)) / 1024


def private_mb(pid: int | str = "self") -> float:
    """The private memory (clean and dirty pages no other process shares) of ``pid``, in MB:
    what a worker holds beyond the pages it still shares with the master after the fork."""
    return rollup_mb(pid, "Private_Clean:", "Private_Dirty:")


def recycle_if_large(worker: Any, req: Any, environ: Mapping[str, Any], resp: Any) -> None:
    """gunicorn's ``post_request`` hook: after a costly request (:data:`COSTLY_WORK_MS`), a
    worker whose private memory has passed ``worker_max_private_mb`` stops taking requests,
    finishes the ones it holds and exits; the master forks a fresh one, warm from the
    preload. Every table and store of the app is bounded, but a worker's heap keeps the
    high-water mark of its costliest requests (freed memory is reused, seldom returned), so
    a run of big-board teaching pages would otherwise leave every worker at its peak."""
    # Imported here: the command line loads this module and must not load the web stack.
    from ..web.runtime.work_clock import WORK_MS_KEY

    if float(environ.get(WORK_MS_KEY, 0.0)) < COSTLY_WORK_MS or not worker.alive:
        return
    limit = _private_limit_mb()
    used = private_mb()
    if used > limit:
        worker.log.info(
            "worker %s: %.0f MB private memory past %s MB, recycled", worker.pid, used, limit
        )
        worker.alive = False


@functools.cache
def _private_limit_mb() -> int:
    return int(settings_from_env()["worker_max_private_mb"])


#: gunicorn server hooks, set by both :func:`make_application` and ``gunicorn_conf``.
HOOKS: Final[Mapping[str, Callable[..., None]]] = {
    "on_starting": warn_if_exposed,
    "pre_fork": freeze_heap,
    "post_worker_init": warm_up_worker,
    "post_request": recycle_if_large,
}


def make_application(settings: Mapping[str, Any], app_uri: str = APP_URI) -> Any:
    """A gunicorn application driven from Python with ``settings`` (no config file, no argv).

    gunicorn is imported here, not at module level, so ``sudoku-web solve`` and the other
    subcommands do not pay its ~80 ms import.
    """
    from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]
    from gunicorn.util import import_app

    class SudokuWebApplication(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for name, value in settings.items():
                # Skip settings this gunicorn predates (control_socket_disable before 25.1).
                if name in self.cfg.settings:
                    self.cfg.set(name, value)
            for hook, function in HOOKS.items():
                self.cfg.set(hook, function)

        def load(self) -> Any:
            # "module:factory()" calls the factory, as gunicorn's own command line does.
            return import_app(app_uri)

    return SudokuWebApplication()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the serve options to ``parser`` (shared with the ``sudoku-web serve`` subcommand)."""
    parser.add_argument("--bind", help="HOST:PORT or unix:PATH (env SUDOKU_WEB_BIND)")
    parser.add_argument("--workers", type=int, help="worker processes (env SUDOKU_WEB_WORKERS)")
    parser.add_argument("--app", default=APP_URI, help=f"WSGI app to serve (default {APP_URI})")
    parser.add_argument(
        "--print-config", action="store_true", help="print the effective settings and exit"
    )


def run(args: argparse.Namespace) -> int:
    """Runs gunicorn with the environment's settings and ``args``; returns an exit status."""
    try:
        settings = settings_from_env()
    except ValueError as exc:
        print(f"sudoku-web serve: {exc}", file=sys.stderr)
        return 2
    if args.bind:
        settings["bind"] = args.bind
    if args.workers:
        settings["workers"] = args.workers
    if args.print_config:
        for name in sorted(settings):
            print(f"{name} = {settings[name]!r}")
        return 0
    mark_production()
    make_application(settings, args.app).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sudoku_web.hosting.serve`` / ``sudoku-web serve``: run the production server."""
    parser = argparse.ArgumentParser(
        prog="sudoku-web serve", description="Run sudoku-web under gunicorn."
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
