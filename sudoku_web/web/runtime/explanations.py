"""One explanation per puzzle: the logic solver's run kept per worker, bounded in bytes.

The steps page (each of its pages), ``/api/explain`` and the difficulty panel of one puzzle
ask for the same explanation; :func:`~sudoku_web.web.runtime.solving.explain_result` runs the ladder
once and keeps the answer here, and the panel takes its grade from a kept explanation when
there is one (a complete explanation's grade is the grade, whatever the deadline). The hint
runs on the person's own grid and marks, which the kept runs do not pass through, and is not
served from here.

Deadlines: an explanation its deadline cut short depends on the load and is never kept
(the request is marked uncacheable, as before); so every kept one is complete and serves
any deadline.

Per app (``app.extensions``), ``EXPLANATION_CACHE_BYTES`` (default 2 MiB, 0 turns it off).
The table is process-local, beside the app's store (:mod:`sudoku_web.web.runtime.cache`), because an
explanation is a large object graph: it is never pickled, and its size is estimated from its
steps (:func:`explanation_bytes`) rather than walked.
"""

from __future__ import annotations

import sys
from typing import Any, Final

from flask import Flask, current_app

from ...core.logic import Explanation
from .memo import ByteLRU

EXTENSION: Final = "sudoku_explanations"

#: Config defaults (the environment sets them as ``SUDOKU_WEB_EXPLANATION_CACHE_BYTES``).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {
    # About ten hard 9x9 explanations (~200 KB each); a 16x16 one is several times that.
    "EXPLANATION_CACHE_BYTES": 2 * 1024 * 1024,
}

_INT: Final = sys.getsizeof(1 << 20)  # a candidate mask's int object
_NEW_INTS: Final = 16  # masks a step changes (its placement's peers, its eliminations)


def explanation_bytes(explanation: Explanation) -> int:
    """The bytes an explanation holds, estimated from its steps, in microseconds (walking it
    with :func:`~sudoku_web.web.runtime.memo.deep_sizeof` takes tens of milliseconds): each step's
    position (two tuples of ``cells`` entries and the masks it changed), its sentence and its
    lists. It errs on the high side (each step charged ``_NEW_INTS`` new masks and 1 KB)."""
    cells = len(explanation.givens)
    per_position = 2 * sys.getsizeof(explanation.givens) + _NEW_INTS * _INT
    total = 1024 + cells * _INT + per_position
    for step in explanation.steps:
        listed = len(step.cells) + 2 * (len(step.placements) + len(step.eliminations))
        total += 1024 + per_position + sys.getsizeof(step.sentence) + 64 * listed
        total += 256 * len(step.links)
    return total


def _table(app: Flask) -> ByteLRU[str, Explanation] | None:
    table: ByteLRU[str, Explanation] | None = app.extensions.get(EXTENSION)
    if table is None:
        limit = int(app.config.get("EXPLANATION_CACHE_BYTES", 0) or 0)
        if limit <= 0:
            return None
        table = app.extensions.setdefault(EXTENSION, ByteLRU(limit))
    return table


def recall(key: str) -> Explanation | None:
    """The kept explanation for ``key`` (see :func:`keep`), or None."""
    table = _table(current_app)
    return None if table is None else table.get(key)


def keep(key: str, explanation: Explanation) -> None:
    """Keeps a complete explanation under ``key``, which names the puzzle, its geometry and
    every budget the run depends on; one its deadline cut short is not kept."""
    table = _table(current_app)
    if table is not None and not explanation.cut_short:
        table.put(key, explanation, explanation_bytes(explanation))
