"""The core, called within the request's budgets and through the app's cache.

Every call a view makes into the engine, the typo doctor, the logic solver and the search
story is here, each with its budget from :mod:`sudoku_web.web.budgets`; deterministic answers
are kept in the app's store (:mod:`sudoku_web.web.cache`) under a key naming everything they
depend on, and an answer cut short by a deadline is never kept and marks its response
``no-store``. So a ``POST`` of an impossible puzzle runs the doctor once, not on every post.
"""

from __future__ import annotations

from flask import current_app

from ..core.board import Geometry, parse_puzzle, standard
from ..core.doctor import Diagnosis, Suggestion, diagnose, suggest_given
from ..core.logic import Explanation, GradeResult, explain, grade
from ..core.solver import SolveResult, solve
from ..core.trace import SearchTrace, trace_search
from . import cache
from .budgets import Budget, DoctorBudget, TeachBudget


def solve_puzzle(puzzle: str, budget: Budget, geometry: Geometry | None = None) -> SolveResult:
    """Solve a canonical puzzle within ``budget``; the single call into the engine."""
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

    ``key`` is :func:`~sudoku_web.web.cache.solve_key` of the same puzzle and geometry, when
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


def doctor_budget() -> DoctorBudget:
    """The app's doctor budget."""
    return DoctorBudget.from_config(current_app.config)


def teach_budget() -> TeachBudget:
    """The app's teaching budget."""
    return TeachBudget.from_config(current_app.config)


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

    def run() -> tuple[Diagnosis | None]:
        try:
            found = diagnose(
                puzzle, geometry, max_nodes=budget.max_nodes, deadline_ms=budget.deadline_ms
            )
        except ValueError:
            return (None,)
        return (found,)

    answer: tuple[Diagnosis | None] = cache.remembered(
        cache.text_key("doctor", key.text, budget.key),
        run,
        lambda found: found[0] is None or found[0].complete,
    )
    return answer[0]


def cached_suggestion(result: SolveResult, key: cache.SolveKey) -> Suggestion | None:
    """:func:`suggest_for` with the app's budget, kept like a page."""
    if result.status != "multiple":
        return None
    budget = doctor_budget()
    found: tuple[Suggestion | None] = cache.remembered(
        cache.text_key("suggest", key.text, budget.key),
        lambda: (suggest_for(result, budget),),
        lambda _answer: True,
    )
    return found[0]


# ---- The logic solver and the search story ---------------------------------------------------


def explain_result(result: SolveResult, geometry: Geometry) -> Explanation | None:
    """The logic solver's explanation of a ``solved`` result (None for other outcomes).

    The engine's solution is passed in, so no second solve happens and the uniqueness
    techniques may be used (the puzzle is known to have one solution). An explanation cut
    short by its deadline marks the request uncacheable.
    """
    if result.status != "solved" or not result.solutions:
        return None
    budget = teach_budget()
    explanation = explain(
        result.puzzle.replace(".", "0"),
        geometry,
        solution=parse_puzzle(result.solutions[0], geometry),
        max_steps=budget.max_steps,
        deadline_ms=budget.explain_deadline_ms,
    )
    if explanation.cut_short:
        cache.mark_uncacheable()
    return explanation


def grade_result(result: SolveResult, geometry: Geometry) -> GradeResult | None:
    """The human grade of a ``solved`` result within ``GRADE_DEADLINE_MS`` (the same answer
    as the steps page's explanation, without building its steps); None for other outcomes."""
    if result.status != "solved" or not result.solutions:
        return None
    budget = teach_budget()
    graded = grade(
        result.puzzle.replace(".", "0"),
        geometry,
        solution=parse_puzzle(result.solutions[0], geometry),
        max_steps=budget.max_steps,
        deadline_ms=budget.grade_deadline_ms,
    )
    if graded.cut_short:
        cache.mark_uncacheable()
    return graded


def search_story(grid: list[int], geometry: Geometry) -> SearchTrace:
    """The engine's search story for a grid, capped by ``TRACE_MAX_EVENTS`` / ``_NODES``."""
    budget = teach_budget()
    return trace_search(
        grid, geometry, max_events=budget.trace_max_events, max_nodes=budget.trace_max_nodes
    )
