"""One explanation per puzzle: the steps pages, /api/explain and the difficulty panel of one
puzzle run the logic solver once (sudoku_web.web.runtime.explanations)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_web import create_app
from sudoku_web.core import logic
from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.solver import solve
from sudoku_web.web.runtime import explanations, memo, solving

TOP95 = [
    line.strip().replace(".", "0")
    for line in (Path(__file__).parent / "data" / "top95.txt").read_text().split()
    if line.strip()
]
HARD = TOP95[6]  # Diabolical: a long explanation (several steps pages), no guess


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts the web's calls into the core's explain and grade."""
    calls = {"explain": 0, "grade": 0}

    def counted(name: str, real: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)

        return run

    monkeypatch.setattr(solving, "explain", counted("explain", logic.explain))
    monkeypatch.setattr(solving, "grade", counted("grade", logic.grade))
    return calls


def _app(**config: Any) -> Any:
    # The app's answer store off, so every request reaches the logic solver; roomy deadlines,
    # so a box busy with other work does not cut the explanation (a cut one is not kept).
    roomy = {
        "REQUEST_DEADLINE_MS": None,
        "EXPLAIN_DEADLINE_MS": 20_000,
        "GRADE_DEADLINE_MS": 20_000,
    }
    return create_app({"TESTING": True, "CACHE_MAX_BYTES": 0, **roomy, **config})


def test_steps_pages_api_and_panel_share_one_explanation(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    client = _app().test_client()
    first = client.get(f"/p/{HARD}/steps")
    second = client.get(f"/p/{HARD}/steps?step=21")
    api = client.get(f"/api/explain?puzzle={HARD}")
    panel = client.get(f"/p/{HARD}/difficulty")
    assert [r.status_code for r in (first, second, api, panel)] == [200] * 4
    assert calls == {"explain": 1, "grade": 0}
    # The same answers as a fresh app computing each on its own.
    fresh = _app(EXPLANATION_CACHE_BYTES=0).test_client()
    assert fresh.get(f"/p/{HARD}/steps?step=21").data == second.data
    assert fresh.get(f"/api/explain?puzzle={HARD}").get_json() == api.get_json()
    assert fresh.get(f"/p/{HARD}/difficulty").data == panel.data
    assert calls["grade"] == 1  # the fresh app's panel graded on its own


def test_panel_first_grades_fast_and_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    client = _app().test_client()
    assert client.get(f"/p/{HARD}/difficulty").status_code == 200
    assert client.get(f"/p/{HARD}/steps").status_code == 200
    assert calls == {"explain": 1, "grade": 1}


def test_an_explanation_cut_by_its_deadline_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    client = _app(EXPLAIN_DEADLINE_MS=0).test_client()
    for _ in range(2):
        response = client.get(f"/p/{HARD}/steps")
        assert response.status_code == 200
        assert "no-store" in response.headers["Cache-Control"]
    assert calls["explain"] == 2


def test_off_when_its_budget_is_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    client = _app(EXPLANATION_CACHE_BYTES=0).test_client()
    client.get(f"/p/{HARD}/steps")
    client.get(f"/p/{HARD}/steps?step=21")
    assert calls["explain"] == 2


def test_the_table_stays_within_its_bytes() -> None:
    budget = 600 * 1024  # two or three of them
    app = _app(EXPLANATION_CACHE_BYTES=budget)
    client = app.test_client()
    for puzzle in TOP95[:12]:
        assert client.get(f"/api/explain?puzzle={puzzle}").status_code == 200
    table = app.extensions[explanations.EXTENSION]
    assert 0 < len(table) < 12
    assert table.bytes <= budget


@pytest.mark.parametrize("puzzle", [TOP95[1], TOP95[33]])
def test_the_size_estimate_errs_high(puzzle: str) -> None:
    geo = standard(9)
    solution = parse_puzzle(solve(puzzle, geometry=geo).solutions[0], geo)
    explanation = logic.explain(puzzle, geo, solution=solution)
    assert explanations.explanation_bytes(explanation) >= memo.deep_sizeof(explanation)
