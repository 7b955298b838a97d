"""How much work one request may ask of the core: every budget, read from the app config once.

No request searches, diagnoses, explains or grades without a bound, so one request holds a
worker for a fraction of a second at most. Each budget is a frozen value read from the config
by its ``from_config``; its :attr:`key` is the text that goes into cache keys and ETags.

==========================  =================================================================
``SOLVE_MAX_NODES``         the engine's node budget (its own default, 20,000: ~0.5 s on the
``SOLVE_DEADLINE_MS``       slowest 9x9 inputs known) and the wall-clock safety net (250 ms)
``DOCTOR_MAX_NODES``        the typo doctor's bounds for an impossible puzzle (and the
``DOCTOR_DEADLINE_MS``      suggested given of a multiple one)
``REQUEST_DEADLINE_MS``     one request's solve and doctor: the doctor gets what is left
``EXPLAIN_DEADLINE_MS``     the logic solver's steps (steps page, ``/api/explain``)
``EXPLAIN_MAX_STEPS``
``GRADE_DEADLINE_MS``       the difficulty panel's grade
``TRACE_MAX_EVENTS``        the search story's lines (search page, ``/api/explain``); the run
                            told is the engine's own, under the solve budget above
``STEPS_PER_PAGE``          steps on one steps page (9x9; a bigger grid's step draws more
``STEPS_PAGE_CELLS``        cells, so a page draws at most this many cells in all)
``RENDER_RESERVE_MS``       what a request keeps of ``REQUEST_DEADLINE_MS`` for drawing:
                            doctor, explanation, grade and search story get the rest
``GENERATE_DEADLINE_MS``    live generation of a new puzzle (past it the pool answers)
``PHOTO_MAX_PIXELS``        reading a photo (``/api/read``, the form's "Read a photo"): the
``PHOTO_DEADLINE_MS``       largest image decoded (checked from its header first), the
``PHOTO_MAX_CONCURRENT``    reader's wall-clock bound, and how many workers read at once
==========================  =================================================================

Past a deadline the answer says what was cut (a ``gave_up`` result, an incomplete diagnosis,
an upper-bound grade) and is sent ``no-store``
(:func:`sudoku_web.web.runtime.cache.mark_uncacheable`).

``REQUEST_DEADLINE_MS`` and the explanation's, the grade's and the hint's deadlines count the
request's work (:mod:`sudoku_web.web.runtime.work_clock`: its thread's CPU time, or a third
of the wall-clock time if that is more), so a request waiting for a core is not cut short
for it; the engine's, the doctor's, generation's and the photo reader's own deadlines are
wall-clock times.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ...core import doctor
from ...core.solver import DEFAULT_MAX_NODES as _ENGINE_MAX_NODES
from ...photo import image as photo_image

DEFAULT_MAX_NODES = _ENGINE_MAX_NODES
# The deadline is the safety net for 16x16 grids, whose nodes cost more; it stops first only
# there or on an overloaded box, and then the page says so and is sent with no-store.
DEFAULT_DEADLINE_MS = 250.0

# The doctor's wall-clock bound inside a request, lower than the library's own 1.5 s. Every
# complete diagnosis of the benchmark set (benchmarks/data/doctor_cases.txt) takes at most
# ~0.08 s (p95 0.034 s); past it the page and the API say the answer is incomplete.
DEFAULT_DOCTOR_DEADLINE_MS = 350.0

#: Config defaults (the environment overrides each, ``SUDOKU_WEB_EXPLAIN_DEADLINE_MS=500``).
CONFIG_DEFAULTS: Final[dict[str, Any]] = {
    "SOLVE_MAX_NODES": DEFAULT_MAX_NODES,
    "SOLVE_DEADLINE_MS": DEFAULT_DEADLINE_MS,
    "DOCTOR_MAX_NODES": doctor.DEFAULT_MAX_NODES,
    "DOCTOR_DEADLINE_MS": DEFAULT_DOCTOR_DEADLINE_MS,
    # One request's solve and doctor together (no request over ~300 ms of work); past it
    # the doctor's answer is marked incomplete, the page says so.
    "REQUEST_DEADLINE_MS": 280,
    # A 9x9 explanation takes 10 ms on average and 50 ms at worst over top95; a sparse 16x16
    # one ~160 ms, and a minimal one can take seconds, so past this many ms only the cheap
    # techniques are tried before a guess (the grade is then marked as an upper bound). It is
    # also capped by what is left of REQUEST_DEADLINE_MS less RENDER_RESERVE_MS (no
    # request over ~300 ms of work, drawing included).
    "EXPLAIN_DEADLINE_MS": 150,
    "EXPLAIN_MAX_STEPS": 3000,
    # The difficulty panel grades with logic.grade() (top95: a few ms on average) within this
    # bound; past it the grade is an upper bound ("at most") and the panel is sent no-store.
    "GRADE_DEADLINE_MS": 150,
    "TRACE_MAX_EVENTS": 200,
    # Steps per page: a step has its own grid of candidates (~10 KB of HTML for 9x9, ~27 KB for
    # 16x16, whose 20 grids took ~130 ms to draw): a page draws at most STEPS_PAGE_CELLS cells
    # of step grids, so 20 steps of 9x9, and on a 16x16 up to 20 steps of which at most 6 draw
    # a grid (its singles draw none: teaching_display.draws_grid).
    "STEPS_PER_PAGE": 20,
    "STEPS_PAGE_CELLS": 20 * 81,
    # Kept for drawing the answer out of REQUEST_DEADLINE_MS: the doctor, the explanation and
    # the grade stop this much before the request's deadline (a 16x16 page or PNG takes
    # 20-60 ms to draw).
    "RENDER_RESERVE_MS": 60,
    # Wall-clock bound of live generation per request (/new, /daily, /api/generate); past it
    # the pool answers. No attempt starts and no grading runs past it (a grading it cuts short
    # counts for nothing), so a request stays near it: within 300 ms with the solve and the
    # page (route audit).
    "GENERATE_DEADLINE_MS": 200,
    # A photo is refused (413) from its header when it declares more pixels than this, before
    # anything is decoded. The default is the reader's own cap (a phone's biggest photo: a
    # JPEG decodes at a reduced scale, a few MB); PNG and WebP, decoded whole, stay under the
    # reader's lower cap whatever this says (sudoku_web/photo/image.py).
    "PHOTO_MAX_PIXELS": photo_image.MAX_PIXELS,
    # The reader's own wall-clock bound (a photo costs 0.05-0.25 s of CPU, see
    # benchmarks/RESULTS.md); gunicorn's worker timeout (10 s) stays far above it.
    "PHOTO_DEADLINE_MS": 2_000,
    # Workers reading a photo at the same time (across processes, web/runtime/slots.py); past it the
    # answer is a 429 with Retry-After, so pages keep a worker on a small box.
    "PHOTO_MAX_CONCURRENT": 2,
}


def _ms(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class Budget:
    """How much work one request may ask of the solver."""

    max_nodes: int = DEFAULT_MAX_NODES
    deadline_ms: float | None = DEFAULT_DEADLINE_MS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Budget:
        """The budget named by ``SOLVE_MAX_NODES`` / ``SOLVE_DEADLINE_MS``."""
        return _solve_budget(int(config["SOLVE_MAX_NODES"]), _ms(config["SOLVE_DEADLINE_MS"]))

    @functools.cached_property
    def key(self) -> str:
        """The budget as cache-key text."""
        return f"{self.max_nodes}n{self.deadline_ms}ms"


@dataclass(frozen=True)
class DoctorBudget:
    """How much work the doctor may do for one request, on top of the solve's budget."""

    max_nodes: int = doctor.DEFAULT_MAX_NODES
    deadline_ms: float | None = DEFAULT_DOCTOR_DEADLINE_MS

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> DoctorBudget:
        """The budget named by ``DOCTOR_MAX_NODES`` / ``DOCTOR_DEADLINE_MS``."""
        return _doctor_budget(int(config["DOCTOR_MAX_NODES"]), _ms(config["DOCTOR_DEADLINE_MS"]))

    @functools.cached_property
    def key(self) -> str:
        """The budget as cache-key text."""
        return f"doctor{self.max_nodes}n{self.deadline_ms}ms"


@dataclass(frozen=True)
class TeachBudget:
    """The teaching pages' bounds: explanation, grade, search story, steps per page."""

    explain_deadline_ms: float | None
    max_steps: int
    grade_deadline_ms: float | None
    trace_max_events: int
    steps_per_page: int
    steps_page_cells: int = 20 * 81

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> TeachBudget:
        """The budget named by the ``EXPLAIN_``, ``GRADE_``, ``TRACE_`` and ``STEPS_`` keys."""
        return cls(
            _ms(config["EXPLAIN_DEADLINE_MS"]),
            int(config["EXPLAIN_MAX_STEPS"]),
            _ms(config["GRADE_DEADLINE_MS"]),
            int(config["TRACE_MAX_EVENTS"]),
            max(1, int(config["STEPS_PER_PAGE"])),
            max(1, int(config["STEPS_PAGE_CELLS"])),
        )

    @functools.cached_property
    def key(self) -> str:
        """The budget as cache-key text."""
        return (
            f"explain{self.explain_deadline_ms}ms{self.max_steps}s"
            f"grade{self.grade_deadline_ms}ms"
            f"trace{self.trace_max_events}e{self.steps_per_page}pp{self.steps_page_cells}c"
        )


@dataclass(frozen=True)
class PhotoBudget:
    """How much one photo may cost: decoded pixels, the reader's deadline, readers at once."""

    max_pixels: int
    deadline_ms: float
    max_concurrent: int

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> PhotoBudget:
        """The budget named by the ``PHOTO_`` keys."""
        return cls(
            max(1, int(config["PHOTO_MAX_PIXELS"])),
            max(1.0, float(config["PHOTO_DEADLINE_MS"])),
            max(1, int(config["PHOTO_MAX_CONCURRENT"])),
        )


# One instance per configured budget (its key text is computed once), bounded by count: the
# config's few budgets, never request input.
@functools.lru_cache(maxsize=16)
def _solve_budget(max_nodes: int, deadline_ms: float | None) -> Budget:
    return Budget(max_nodes, deadline_ms)


@functools.lru_cache(maxsize=16)
def _doctor_budget(max_nodes: int, deadline_ms: float | None) -> DoctorBudget:
    return DoctorBudget(max_nodes, deadline_ms)
