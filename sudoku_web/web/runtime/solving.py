"""The core, called within the request's budgets and through the app's cache.

The views' calls into the engine, the typo doctor, the logic solver's explanations and grades
and the search story are here, each with its budget from :mod:`sudoku_web.web.runtime.budgets` (a
hint and the game's panels are called by their views with :func:`hint_deadline`, and
generation by its own with ``GENERATE_DEADLINE_MS``); deterministic answers
are kept in the app's store (:mod:`sudoku_web.web.runtime.cache`) under a key naming everything they
depend on, and an answer cut short by a deadline is never kept and marks its response
``no-store``. So a ``POST`` of an impossible puzzle runs the doctor once, not on every post.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from flask import current_app

from ...core.board import Geometry, parse_puzzle, standard
from ...core.doctor import (
    Diagnosis,
    Suggestion,
    SumDiagnosis,
    diagnose,
    diagnose_sums,
    suggest_given,
)
from ...core.logic import Explanation, GradeResult, explain, grade, graded
from ...core.solver import SolveResult, solve
from ..render import teaching_display
from . import cache, explanations, work_clock
from .budgets import Budget, DoctorBudget, TeachBudget


def solve_puzzle(puzzle: str, budget: Budget, geometry: Geometry | None = None) -> SolveResult:
    """Solve a canonical puzzle within ``budget``: every page's and the API's solve (the
    search story, :func:`search_story`, reruns the engine with its recorder on)."""
    return solve(
        puzzle,
        geometry=geometry or standard(9),
        max_nodes=budget.max_nodes,
        deadline_ms=budget.deadline_ms,
    )


def cached_solve(
    puzzle: str, geometry: Geometry | None = None, key: cache.SolveKey | None = None
) -> SolveResult:
    """:func:`solve_puzzle` with the app's budget, through the store.

    ``key`` is :func:`~sudoku_web.web.runtime.cache.solve_key` of the same puzzle and geometry, when
    the caller has it. A result cut short by the deadline is not stored and marks the request
    uncacheable.
    """
    geo = geometry or standard(9)
    key = key or cache.solve_key(puzzle, geo)
    budget = key.budget
    result: SolveResult = cache.remembered(
        "solve|" + key.text, lambda: solve_puzzle(puzzle, budget, geo), cache.is_deterministic
    )
    return result


def remaining_ms() -> float | None:
    """What is left of ``REQUEST_DEADLINE_MS`` for this request, in the request's work time
    (:mod:`sudoku_web.web.runtime.work_clock`; None: no request deadline)."""
    deadline = current_app.config.get("REQUEST_DEADLINE_MS")
    if deadline is None:
        return None
    return max(0.0, float(deadline) - work_clock.spent_ms())


def doctor_budget() -> DoctorBudget:
    """The app's doctor budget."""
    return DoctorBudget.from_config(current_app.config)


def work_left_ms() -> float | None:
    """What is left of ``REQUEST_DEADLINE_MS`` for the core, keeping ``RENDER_RESERVE_MS``
    for drawing the answer (None: no request deadline)."""
    left = remaining_ms()
    if left is None:
        return None
    reserve = current_app.config.get("RENDER_RESERVE_MS") or 0
    return max(0.0, left - float(reserve))


def teach_budget() -> TeachBudget:
    """The app's teaching budget."""
    return TeachBudget.from_config(current_app.config)


def deadline_now(own_ms: float | None) -> float | None:
    """A core call's deadline now (the doctor's, an explanation's, a grade's): its own, or
    :func:`work_left_ms` if that is less (None: neither bounds it)."""
    left = work_left_ms()
    if left is None:
        return own_ms
    return left if own_ms is None else min(own_ms, left)


# ---- The typo doctor ------------------------------------------------------------------------


def suggest_for(result: SolveResult, budget: DoctorBudget) -> Suggestion | None:
    """One extra given that makes a ``multiple`` result unique; None otherwise or if none found."""
    if result.status != "multiple" or result.geometry is None:
        return None
    return suggest_given(
        result.puzzle,
        result.geometry,
        result.solutions,
        max_nodes=budget.max_nodes,
        deadline_ms=budget.deadline_ms,
    )


def cached_diagnosis(result: SolveResult, key: cache.SolveKey) -> Diagnosis | None:
    """The doctor's answer for an ``unsolvable`` result (None for any other status), kept
    like a page; an incomplete one, cut by the deadline, is not kept and marks the request
    uncacheable."""
    if result.status != "unsolvable" or result.geometry is None:
        return None
    return diagnose_puzzle(key.puzzle, result.geometry)


def diagnose_puzzle(puzzle: str, geometry: Geometry) -> Diagnosis | None:
    """The doctor's answer for a canonical puzzle known to have no solution (the hint's
    check of a user's grid), kept like a page; None when the doctor finds it solvable."""
    budget = doctor_budget()
    key = cache.solve_key(puzzle, geometry)
    deadline = deadline_now(budget.deadline_ms)

    def run() -> tuple[Diagnosis | None]:
        try:
            found = diagnose(puzzle, geometry, max_nodes=budget.max_nodes, deadline_ms=deadline)
        except ValueError:
            return (None,)
        return (found,)

    answer: tuple[Diagnosis | None] = cache.remembered(
        cache.text_key("doctor", key.text, budget.key),
        run,
        lambda found: found[0] is None or found[0].complete,
    )
    return answer[0]


def cached_sum_diagnosis(puzzle: str, geometry: Geometry) -> SumDiagnosis | None:
    """Which cage's sum was probably mistyped (the core's :func:`diagnose_sums`) for a
    canonical puzzle on a board with cages (as given: their sums may miss the grid's
    total), within the doctor's budget and what is left of the request's, kept like a page
    (an answer the deadline cut is not kept); None for a board without cages."""
    if not geometry.cages:
        return None
    budget = doctor_budget()
    key = cache.solve_key(puzzle, geometry)
    deadline = deadline_now(budget.deadline_ms)

    def run() -> SumDiagnosis:
        return diagnose_sums(puzzle, geometry, max_nodes=budget.max_nodes, deadline_ms=deadline)

    answer: SumDiagnosis = cache.remembered(
        cache.text_key("sums", key.text, budget.key), run, lambda found: not found.timed_out
    )
    return answer


@dataclass(frozen=True)
class SuggestionAnswer:
    """The search for one extra given: what it found, and whether its deadline cut it short
    (then "none found" is not the last word, and the page says so)."""

    suggestion: Suggestion | None
    cut_short: bool = False


def cached_suggestion(result: SolveResult, key: cache.SolveKey) -> SuggestionAnswer | None:
    """:func:`suggest_for` within the doctor's budget and what is left of the request's,
    kept like a page (an answer cut by the deadline is not kept); None unless ``multiple``."""
    if result.status != "multiple":
        return None
    budget = doctor_budget()
    deadline = deadline_now(budget.deadline_ms)

    def run() -> SuggestionAnswer:
        started = time.perf_counter()
        found = suggest_for(result, DoctorBudget(budget.max_nodes, deadline))
        spent = (time.perf_counter() - started) * 1000
        return SuggestionAnswer(found, found is None and deadline is not None and spent >= deadline)

    answer: SuggestionAnswer = cache.remembered(
        cache.text_key("suggest", key.text, budget.key), run, lambda a: not a.cut_short
    )
    return answer


# ---- The logic solver and the search story ---------------------------------------------------


def explain_result(result: SolveResult, geometry: Geometry) -> Explanation | None:
    """The logic solver's explanation of a ``solved`` result (None for other outcomes).

    The engine's solution is passed in, so no second solve happens and the uniqueness
    techniques may be used (the puzzle is known to have one solution). A complete
    explanation is kept (:mod:`sudoku_web.web.runtime.explanations`) for the other pages of the same
    puzzle; one cut short by its deadline is not, and marks the request uncacheable.
    """
    budget = teach_budget()
    if result.status != "solved" or not result.solutions:
        return None
    key = _explanation_key(result, geometry, budget.max_steps)
    kept = explanations.recall(key)
    if kept is not None:
        return kept
    found = _logic_run(explain, result, geometry, budget.max_steps, budget.explain_deadline_ms)
    if found is not None:
        explanations.keep(key, found)
    return found


def grade_result(result: SolveResult, geometry: Geometry) -> GradeResult | None:
    """The human grade of a ``solved`` result within ``GRADE_DEADLINE_MS`` (the same answer
    as the steps page's explanation, without building its steps); None for other outcomes.
    When the explanation is kept already (:func:`explain_result`), its grade, at no cost."""
    budget = teach_budget()
    if result.status == "solved" and result.solutions:
        kept = explanations.recall(_explanation_key(result, geometry, budget.max_steps))
        if kept is not None:
            return graded(kept)
    return _logic_run(grade, result, geometry, budget.max_steps, budget.grade_deadline_ms)


def _explanation_key(result: SolveResult, geometry: Geometry, max_steps: int) -> str:
    """What a complete explanation depends on: the puzzle, its geometry, the step cap."""
    return cache.text_key(result.puzzle, cache.geometry_key(geometry), max_steps)


_Run = TypeVar("_Run", Explanation, GradeResult)


def _logic_run(
    run: Callable[..., _Run],
    result: SolveResult,
    geometry: Geometry,
    max_steps: int,
    deadline_ms: float | None,
) -> _Run | None:
    """``explain`` or ``grade`` of a solved result with the engine's solution, within the
    teaching budget; a run its deadline cut marks the request uncacheable."""
    if result.status != "solved" or not result.solutions:
        return None
    answer = run(
        result.puzzle.replace(".", "0"),
        geometry,
        solution=parse_puzzle(result.solutions[0], geometry),
        max_steps=max_steps,
        deadline_ms=deadline_now(deadline_ms),
    )
    if answer.cut_short:
        cache.mark_uncacheable()
    return answer


def hint_deadline() -> float | None:
    """A hint's deadline: the explanation's (``EXPLAIN_DEADLINE_MS``), capped by what is
    left of the request's."""
    return deadline_now(teach_budget().explain_deadline_ms)


def search_story(grid: list[int], geometry: Geometry) -> teaching_display.SearchView:
    """The engine's own run told as a story (at most ``TRACE_MAX_EVENTS`` lines), under the
    solve budget of the result page, so their guesses and backtracks agree; its deadline is
    also capped by what is left of the request's (:func:`deadline_now`: ``/api/explain``
    solves and explains first). A run the deadline cut marks the request uncacheable."""
    budget = Budget.from_config(current_app.config)
    result = solve(
        grid,
        geometry=geometry,
        max_nodes=budget.max_nodes,
        deadline_ms=deadline_now(budget.deadline_ms),
        record=teach_budget().trace_max_events,
    )
    if not cache.is_deterministic(result):
        cache.mark_uncacheable()
    return teaching_display.search_view(result)
