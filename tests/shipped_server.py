"""``sudoku-web serve`` as shipped (gunicorn, the real app, shipped settings) on a free
loopback port, for the tests that talk raw HTTP to it."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve_shipped(workers: int) -> Iterator[int]:
    """Start the server, wait until ``/healthz`` answers, yield its port; on the way out stop
    it and check that no worker logged a traceback."""
    with serve_shipped_master(workers) as (port, _master):
        yield port


@contextmanager
def serve_shipped_master(
    workers: int, env_extra: Mapping[str, str] | None = None
) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """:func:`serve_shipped` with ``SUDOKU_WEB_*`` settings of the test's own
    (``env_extra``), yielding the port and gunicorn's master process."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUDOKU_WEB_", "FLASK_"))}
    env.update(PYTHONPATH=str(ROOT), SUDOKU_WEB_ACCESS_LOG="/dev/null", **(env_extra or {}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_web.cli", "serve", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise
            time.sleep(0.2)
        finally:
            conn.close()
    try:
        yield port, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err[-2000:]
