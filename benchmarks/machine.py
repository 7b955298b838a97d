"""What a benchmark ran on: read once from /proc, shared by every benchmark script."""

from __future__ import annotations

from pathlib import Path


def proc_value(path: str, key: str) -> str:
    """The value of the first ``key:`` line of a /proc file, or "" when it cannot be read."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def cpu_model() -> str:
    """The CPU's model name ("" off Linux)."""
    return proc_value("/proc/cpuinfo", "model name")


def memory_mb() -> int:
    """Total memory in MB (0 off Linux)."""
    total = proc_value("/proc/meminfo", "MemTotal:").split()
    return int(total[0]) // 1024 if total else 0
