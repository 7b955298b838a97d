"""Every teaching route works within its budget from the config, and says what a deadline cut.

No request of any route costs more than ~300 ms of server time. Speed itself is
measured by ``benchmarks/route_audit.py`` (never by a timed test); these tests assert the
machinery: each route hands its configured bounds to the core, a deadline of 0 gives a 200
that says the explanation or grade was cut and is sent ``no-store``, and big grids get fewer
steps per page. The audit's own request builder is checked to cover every route of the app,
so a new route cannot slip out of the audit.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from web_puzzles import EASY

from benchmarks import route_audit
from sudoku_web import create_app
from sudoku_web.core import logic
from sudoku_web.core.board import standard
from sudoku_web.web.runtime import solving

TOP95 = [
    line.strip().replace(".", "0")
    for line in (Path(__file__).parent / "data" / "top95.txt").read_text().split()
    if line.strip()
]
# Needs more than Medium techniques: past a deadline the cheap techniques alone do not finish it.
FIENDISH = TOP95[3]
CUT_NOTE = "The explanation reached its time limit"


def _client(**config: Any) -> Any:
    return create_app({"TESTING": True, "REQUEST_DEADLINE_MS": None, **config}).test_client()


def test_the_fiendish_puzzle_needs_more_than_the_cheap_techniques() -> None:
    """The premise of the tests below: cut at once, its explanation is marked cut."""
    assert logic.explain(FIENDISH, standard(9)).grade not in ("Easy", "Medium")
    assert logic.explain(FIENDISH, standard(9), deadline_ms=0).cut_short


@pytest.mark.parametrize(
    "config",
    [{"EXPLAIN_DEADLINE_MS": 0}, {"REQUEST_DEADLINE_MS": 0}],
    ids=["explain deadline", "request deadline"],
)
def test_a_steps_page_past_its_deadline_says_so_and_is_not_stored(config: dict[str, Any]) -> None:
    client = _client(**config)
    response = client.get(f"/p/{FIENDISH}/steps")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert CUT_NOTE in page and "at most" in page
    assert "no-store" in response.headers["Cache-Control"]
    assert "ETag" not in response.headers


def test_a_steps_page_within_its_deadline_is_complete_and_cacheable() -> None:
    response = _client(EXPLAIN_DEADLINE_MS=None).get(f"/p/{FIENDISH}/steps")
    assert response.status_code == 200
    assert CUT_NOTE not in response.get_data(as_text=True)
    assert response.headers["Cache-Control"].startswith("public")


def test_the_difficulty_panel_past_its_deadline_is_an_upper_bound() -> None:
    for config in ({"GRADE_DEADLINE_MS": 0}, {"REQUEST_DEADLINE_MS": 0}):
        response = _client(**config).get(f"/p/{FIENDISH}/difficulty")
        page = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "at most" in page and "upper bound" in page
        assert "no-store" in response.headers["Cache-Control"]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_the_explain_api_past_its_deadline_says_the_grade_is_an_upper_bound(method: str) -> None:
    client = _client(REQUEST_DEADLINE_MS=0)
    if method == "GET":
        response = client.get(f"/api/explain?puzzle={FIENDISH}")
    else:
        response = client.post("/api/explain", json={"puzzle": FIENDISH})
    body = response.get_json()
    assert response.status_code == 200
    assert body["logic"]["cut_short"] is True
    assert body["grade"]["human"]["upper_bound"] is True
    assert "no-store" in response.headers["Cache-Control"]


def _spy(monkeypatch: pytest.MonkeyPatch, name: str) -> list[float | None]:
    """Record the ``deadline_ms`` each call of ``solving.<name>`` gets (then call it)."""
    seen: list[float | None] = []
    real = getattr(solving, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["deadline_ms"])
        return real(*args, **kwargs)

    monkeypatch.setattr(solving, name, spy)
    return seen


@pytest.mark.parametrize(
    "url", [f"/p/{FIENDISH}/steps", f"/api/explain?puzzle={FIENDISH}"], ids=["steps", "api"]
)
def test_teaching_routes_pass_the_configured_explain_deadline(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    seen = _spy(monkeypatch, "explain")
    assert _client(EXPLAIN_DEADLINE_MS=123).get(url).status_code == 200
    assert seen == [123.0]
    # Under a request deadline the explanation gets at most what is left less the reserve.
    seen.clear()
    # (A minute's request deadline: a busy box never spends it before the explanation starts.)
    client = _client(EXPLAIN_DEADLINE_MS=120_000, REQUEST_DEADLINE_MS=60_000, RENDER_RESERVE_MS=500)
    assert client.get(url).status_code == 200
    assert len(seen) == 1 and seen[0] is not None and 0 < seen[0] <= 59_500


def test_the_difficulty_panel_passes_the_configured_grade_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _spy(monkeypatch, "grade")
    assert _client(GRADE_DEADLINE_MS=77).get(f"/p/{FIENDISH}/difficulty").status_code == 200
    assert seen == [77.0]
    seen.clear()
    client = _client(GRADE_DEADLINE_MS=120_000, REQUEST_DEADLINE_MS=60_000, RENDER_RESERVE_MS=400)
    assert client.get(f"/p/{FIENDISH}/difficulty").status_code == 200
    assert len(seen) == 1 and seen[0] is not None and 0 < seen[0] <= 59_600


def _steps_shown(page: str) -> int:
    return len(set(re.findall(r'id="step-(\d+)"', page)))


def test_big_grids_get_fewer_steps_per_page() -> None:
    """A page draws at most STEPS_PAGE_CELLS cells of step grids: 20 steps of 9x9; on a 16x16
    at most 6 grids (its singles draw none, so a page holds more steps than grids), and the
    pages together still hold every step."""
    client = _client()
    nine = client.get(f"/p/{FIENDISH}/steps").get_data(as_text=True)
    assert _steps_shown(nine) == 20
    sixteen = route_audit.sparse_unique16(random.Random(3), floor=200)
    first = client.get(f"/p/{sixteen}/steps")
    assert first.status_code == 200
    page = first.get_data(as_text=True)
    grids = page.count('<table class="grid pm-grid')
    assert grids <= 20 * 81 // 256 < _steps_shown(page) <= 20
    total = int(re.search(r"(\d+) steps\.", page).group(1))  # type: ignore[union-attr]
    last = client.get(f"/p/{sixteen}/steps?step={total}")
    assert last.status_code == 200 and f'id="step-{total}"' in last.get_data(as_text=True)
    wider = _client(STEPS_PAGE_CELLS=10_000).get(f"/p/{sixteen}/steps").get_data(as_text=True)
    assert _steps_shown(wider) == min(20, total)


def _dense16(rng: random.Random) -> str:
    """A 16x16 solution with a fifth of its cells open (unique in practice, quick to solve)."""
    solution = route_audit._solution(16, rng)
    return route_audit._text([0 if rng.random() < 0.2 else v for v in solution], 16)


def _boards() -> list[route_audit.Board]:
    """Cheap stand-ins for the audit's boards (its real ones take seconds to build)."""
    rng = random.Random(12)
    regions = route_audit.random_map(9, rng, swaps=500)
    boards = [
        route_audit.Board("9x9", "standard", 9, EASY),
        route_audit.Board("x 9x9", "x", 9, EASY),
        route_audit.Board("hyper 9x9", "hyper", 9, EASY),
        route_audit.Board("16x16", "standard", 16, _dense16(rng)),
        route_audit.Board("jigsaw 9x9", "jigsaw", 9, "0" * 81, regions),
    ]
    return boards + route_audit.killer_boards(rng, boards)  # the audit's own: one data line


def test_the_audit_sends_requests_to_every_route_and_none_fails() -> None:
    """Every rule of the url map gets requests from the audit (new routes included), and
    none of them is answered with a 5xx."""
    app = create_app({"TESTING": True})
    client = app.test_client()
    boards = _boards()
    rng = random.Random(1)
    for rule in app.url_map.iter_rules():
        calls = route_audit.calls_for(rule, app, boards, rng)
        assert calls, f"the audit sends nothing to {rule.rule}"
        for call in calls:
            _, _, status, _ = route_audit.send(client, call)
            assert status < 500, (rule.rule, call.label)


def test_a_random_jigsaw_map_is_valid_and_canonical() -> None:
    from sudoku_web.core.board import jigsaw
    from sudoku_web.web.puzzles.urls import canonical_regions

    for seed in range(3):
        regions = route_audit.random_map(16, random.Random(seed), swaps=2000)
        assert canonical_regions(jigsaw(regions)) == regions
        assert regions != route_audit.random_map(16, random.Random(seed + 10), swaps=2000)


def test_the_doctor_leaves_the_render_reserve_of_the_request_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from web_puzzles import EASY_TYPO

    seen = _spy(monkeypatch, "diagnose")
    client = _client(DOCTOR_DEADLINE_MS=5000, REQUEST_DEADLINE_MS=1000, RENDER_RESERVE_MS=400)
    assert client.get(f"/p/{EASY_TYPO}").status_code == 200
    assert len(seen) == 1 and seen[0] is not None and seen[0] <= 600
