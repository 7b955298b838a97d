"""Where the benchmarks' puzzle files live: ``benchmarks/data``, except the sets the tests read
too (``top95.txt``, ``hardest.txt``, ``easy50.txt``), whose one copy is in ``tests/data``.
Their sources and conversions are in ``benchmarks/data/SOURCES.md``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_DATA = ROOT / "benchmarks" / "data"
TESTS_DATA = ROOT / "tests" / "data"


def data_file(name: str) -> Path:
    """The file ``name`` (say ``"top95.txt"``) in whichever of the two folders holds it."""
    here = BENCH_DATA / name
    return here if here.exists() else TESTS_DATA / name
