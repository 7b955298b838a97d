"""One app answering from many threads at once gives every page byte for byte as it does
alone: the threaded workers' probe (``SUDOKU_WEB_THREADS``, sudoku_web/hosting/serve.py).

Every module-level table, single-slot memo and per-app store the pages touch is shared by a
worker's threads. Here several threads ask one app (each through its own client, as
gunicorn's ``gthread`` worker calls one WSGI app from its pool) for the teaching pages, the
pictures and the API of puzzles that climb the whole technique ladder, of a 16x16 and of a
jigsaw (whose engine tables are built lazily, masks filed as they are first asked), with the
interpreter switching threads every few microseconds and byte budgets small enough that the
stores evict while other threads read them. No deadline is on, so each answer depends on its
request alone: it must equal the one a lone thread got first.
"""

from __future__ import annotations

import random
import re
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from app_config import ROOMY
from web_puzzles import (
    EASY,
    HYPER_PUZZLE,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    SIXTEEN_PUZZLE,
    TWO_SOLUTIONS,
    X_PUZZLE,
)

from sudoku_web import create_app
from sudoku_web.hosting.serve import WARM_UP_PUZZLE

# Line 45 of top95 climbs to forcing chains; line 4 is fiendish.
HARD = WARM_UP_PUZZLE
FIENDISH = "480300000000000071020000000705000060000200800000000000001076000300000400000050000"

PATHS = [
    *(
        f"/p/{puzzle}{page}"
        for puzzle in (EASY, HARD, FIENDISH)
        for page in ("", ".png", "/difficulty", "/steps", "/steps?step=21", "/search")
    ),
    *(f"/api/{route}?puzzle={puzzle}" for route in ("solve", "explain") for puzzle in (HARD, EASY)),
    f"/p/{TWO_SOLUTIONS}",
    f"/x/{X_PUZZLE}/steps",
    f"/hyper/{HYPER_PUZZLE}/difficulty",
    f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}",
    f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/steps",
    f"/p/{SIXTEEN_PUZZLE}",
    f"/p/{SIXTEEN_PUZZLE}/difficulty",
]
THREADS = 6
ROUNDS = 2


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """The interpreter hands the GIL to another thread every 20 microseconds (5 ms by
    default), so a race between two statements has many chances to show."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(2e-5)
    yield
    sys.setswitchinterval(before)


#: The engine's own clock, in the API's statistics and the result page's: the one figure
#: that differs from run to run.
CLOCK = re.compile(rb'("elapsed_ms":)[-+.e0-9]+|(<dt>Time</dt><dd>)[^<]*')


def _answer(client: Any, path: str) -> tuple[int, bytes]:
    response = client.get(path)
    return response.status_code, CLOCK.sub(rb"\1\2", response.get_data())


@pytest.mark.slow
def test_pages_from_many_threads_are_the_pages_of_one(fast_switching: None) -> None:
    config = {
        **ROOMY,
        # Small stores: entries are evicted while other threads look them up.
        "CACHE_MAX_BYTES": 96 * 1024,
        "CACHE_MAX_ITEM_BYTES": 64 * 1024,
        "EXPLANATION_CACHE_BYTES": 512 * 1024,
    }
    alone = create_app(config)
    expected = {path: _answer(alone.test_client(), path) for path in PATHS}
    assert all(status == 200 for status, _ in expected.values()), {
        path: status for path, (status, _) in expected.items() if status != 200
    }

    shared = create_app(config)
    mismatches: list[str] = []
    failures: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def ask(seed: int) -> None:
        client = shared.test_client()
        order = [path for _ in range(ROUNDS) for path in PATHS]
        random.Random(seed).shuffle(order)
        try:
            start.wait()
            for path in order:
                got = _answer(client, path)
                if got != expected[path]:
                    mismatches.append(path)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            failures.append(exc)

    threads = [threading.Thread(target=ask, args=(seed,)) for seed in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert not mismatches, sorted(set(mismatches))
