"""A bound on how many workers do one costly kind of work at once, across processes.

gunicorn's workers are separate processes, so a lock in one is invisible to the others.
A slot is a file under one private directory per process (:func:`slots_dir`, made in the
master when the app is preloaded, as ``sudoku-web serve`` does, so every worker forked from
it agrees; without preloading each worker has its own and the bound is per worker); holding
the slot is holding an exclusive ``flock`` on it. The kernel drops the lock when its file is
closed or its process dies, so a worker killed at its timeout mid-read never leaks a slot
(a semaphore would).

Each :func:`slot` call opens its own file description (locks belong to it), so threads of
one process (the development server) and forked workers bound each other the same way.
"""

from __future__ import annotations

import fcntl
import functools
import logging
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

logger = logging.getLogger(__name__)

#: How often a waiting request looks for a free slot.
POLL_S = 0.02


@functools.cache
def slots_dir() -> Path:
    """This process's private directory for slot files (mode 0700, in the temp dir), made
    once; forked children inherit the answer."""
    return Path(tempfile.mkdtemp(prefix="sudoku-web-slots-"))


def _open(directory: Path, name: str) -> int | None:
    """The slot file's new descriptor; None when it cannot be made (then nothing is bounded,
    and the log says so: refusing every photo would be worse)."""
    try:
        directory.mkdir(mode=0o700, exist_ok=True)  # a temp cleaner may have removed it
        return os.open(directory / name, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        logger.warning("slot file %s/%s unavailable (%s); not bounding", directory, name, exc)
        return None


@contextmanager
def slot(directory: Path, kind: str, count: int, wait_s: float) -> Iterator[bool]:
    """Holds one of ``count`` slots of ``kind`` while the block runs; yields False (and holds
    nothing) when none came free within ``wait_s`` seconds."""
    give_up = time.monotonic() + max(0.0, wait_s)
    while True:
        for index in range(count):
            fd = _open(directory, f"{kind}-{index}")
            if fd is None:
                yield True
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield True
            finally:
                os.close(fd)  # closing the only descriptor of this open file drops the lock
            return
        if time.monotonic() >= give_up:
            yield False
            return
        time.sleep(POLL_S)
