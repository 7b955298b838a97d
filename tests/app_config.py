"""The configuration of the apps the tests make: what a page says, not how fast it says it."""

from __future__ import annotations

from typing import Any

#: Tests assert what a page says, not how fast it is said: no wall-clock deadline here (the
#: node and step budgets still bound every run, and they cut the same work on any machine), so
#: a box busy with other work or other test workers never cuts a solve, a diagnosis, an
#: explanation or a grade short. Generation and the photo reader take a number, not None: a
#: minute, which no loaded box reaches (live generation is bounded by its attempts too). The
#: deadline paths are tested with apps of their own, and speed is measured by benchmarks/.
ROOMY: dict[str, Any] = {
    "TESTING": True,
    "REQUEST_DEADLINE_MS": None,
    "SOLVE_DEADLINE_MS": None,
    "DOCTOR_DEADLINE_MS": None,
    "EXPLAIN_DEADLINE_MS": None,
    "GRADE_DEADLINE_MS": None,
    "GENERATE_DEADLINE_MS": 60_000,
    "PHOTO_DEADLINE_MS": 60_000,
}
