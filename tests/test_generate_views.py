"""The New puzzle form, /daily and /api/generate."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from app_config import ROOMY

from sudoku_web import create_app
from sudoku_web.core import pool
from sudoku_web.core.board import parse_puzzle
from sudoku_web.core.logic import GRADES, grade
from sudoku_web.core.solver import solve
from sudoku_web.core.variants import geometry_for
from sudoku_web.web.pages import new_puzzle
from sudoku_web.web.puzzles import new_puzzles, urls


def _assert_proper(puzzle: str, variant: str, size: int, regions: str | None, asked: str) -> None:
    """One solution, and the grader's grade is the one asked for."""
    geo = geometry_for(variant, size, regions)
    result = solve(puzzle, geometry=geo, deadline_ms=None)
    assert result.status == "solved"
    givens = parse_puzzle(puzzle, geo)
    assert grade(givens, geo).grade == asked


def _puzzle_of(play_path: str) -> tuple[str, str, str | None]:
    """(variant, puzzle, regions) of a play link's path."""
    parts = urlsplit(play_path).path.strip("/").split("/")
    assert parts[-1] == "play"
    prefix = {"p": "standard", "x": "x", "hyper": "hyper", "jigsaw": "jigsaw"}[parts[0]]
    if prefix == "jigsaw":
        return prefix, parts[2], parts[1]
    return prefix, parts[1], None


# ---- /api/generate --------------------------------------------------------------------------


def test_api_generate_answers_every_field(client: Any) -> None:
    response = client.get("/api/generate?variant=standard&grade=Easy&seed=42")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert list(body) == [
        "status",
        "puzzle",
        "variant",
        "size",
        "regions",
        "grade",
        "source",
        "seed",
        "share_url",
        "play_url",
    ]
    assert (body["variant"], body["size"], body["grade"], body["source"]) == (
        "standard",
        9,
        "Easy",
        "live",
    )
    assert body["seed"] == "42" and body["regions"] is None
    assert body["share_url"] == f"http://localhost/p/{body['puzzle']}"
    assert body["play_url"] == body["share_url"] + "/play"
    _assert_proper(body["puzzle"], "standard", 9, None, "Easy")
    # The share link opens the puzzle's result page: solved, one solution.
    page = client.get(urlsplit(body["share_url"]).path)
    assert page.status_code == 200


# The seed tests are about seeds, not the clock: ROOMY's generation deadline keeps a busy test
# machine from sending one of two requests to the pool (which the answer would then say).


def test_api_generate_same_seed_same_puzzle_across_workers() -> None:
    """Two apps (as two gunicorn workers, no shared cache) give the same puzzle for a seed."""
    url = "/api/generate?variant=x&grade=Medium&seed=abc"
    first = create_app(ROOMY).test_client().get(url).get_json()
    second = create_app(ROOMY).test_client().get(url).get_json()
    assert first == second
    other = create_app(ROOMY).test_client()
    assert other.get(url.replace("abc", "abd")).get_json()["puzzle"] != first["puzzle"]


def test_api_generate_without_seed_reports_one() -> None:
    client = create_app(ROOMY).test_client()
    body = client.get("/api/generate?variant=4x4&grade=Easy").get_json()
    again = client.get(f"/api/generate?variant=4x4&grade=Easy&seed={body['seed']}").get_json()
    assert again["puzzle"] == body["puzzle"]


@pytest.mark.parametrize(
    ("query", "variant", "size"),
    [
        ("variant=x", "x", 9),
        ("variant=hyper", "hyper", 9),
        ("variant=standard&size=6", "standard", 6),
        ("variant=6x6", "standard", 6),
        ("variant=classic", "standard", 9),
    ],
)
def test_api_generate_each_variant(client: Any, query: str, variant: str, size: int) -> None:
    body = client.get(f"/api/generate?{query}&grade=Easy&seed=1").get_json()
    assert (body["variant"], body["size"], body["grade"]) == (variant, size, "Easy")
    _assert_proper(body["puzzle"], variant, size, None, "Easy")


def test_api_generate_jigsaw_has_its_regions(client: Any) -> None:
    body = client.get("/api/generate?variant=jigsaw&grade=Easy&seed=9").get_json()
    assert body["variant"] == "jigsaw" and len(body["regions"]) == 81
    assert body["share_url"].endswith(f"/jigsaw/{body['regions']}/{body['puzzle']}")
    _assert_proper(body["puzzle"], "jigsaw", 9, body["regions"], "Easy")


def test_api_generate_16x16_comes_from_the_pool(client: Any) -> None:
    """16x16 grids take seconds to carve: never live, and the answer says so."""
    if not pool.count(pool.shipped(), "standard", 16, "Easy"):
        pytest.skip("no 16x16 in the pool")
    body = client.get("/api/generate?variant=16x16&grade=Easy&seed=1").get_json()
    assert (body["source"], body["size"], body["grade"]) == ("pool", 16, "Easy")
    assert body["puzzle"] in pool.shipped()["standard-16"]["Easy"]


def test_api_generate_top_grade_is_served_from_the_pool_when_live_misses(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No live attempt left: the pool answers, with a puzzle of the grade asked for."""
    monkeypatch.setitem(new_puzzles.LIVE_ATTEMPTS, ("standard", 9), 0)
    body = client.get("/api/generate?grade=Diabolical&seed=7").get_json()
    assert (body["source"], body["grade"]) == ("pool", "Diabolical")
    assert body["puzzle"] in pool.shipped()["standard-9"]["Diabolical"]
    _assert_proper(body["puzzle"], "standard", 9, None, "Diabolical")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("variant=nonsense", "variant 'nonsense'"),
        ("variant=hyper&size=6", "at size 6"),
        ("variant=standard&size=nine", "size must be a number"),
        ("variant=standard&size=%C2%B2", "size must be a number"),  # "²": a digit to isdigit()
        ("grade=Impossible", "grade 'Impossible'"),
        ("seed=" + "x" * 65, "seed must be"),
    ],
)
def test_api_generate_bad_parameters_are_400(client: Any, query: str, words: str) -> None:
    response = client.get(f"/api/generate?{query}")
    assert response.status_code == 400
    body = response.get_json()
    assert body["status"] == "error" and words in body["message"]


def test_api_generate_unavailable_grade_is_422(client: Any) -> None:
    """4x4 grids never need more than singles: a clear 422, naming what is available."""
    response = client.get("/api/generate?variant=4x4&grade=Hard&seed=1")
    assert response.status_code == 422
    message = response.get_json()["message"]
    assert "No Hard 4x4 puzzle" in message and "Try Easy" in message


def test_api_generate_names_the_live_tries_when_none_is_found(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(new_puzzles, "POOL_ONLY", frozenset())
    response = client.get("/api/generate?variant=4x4&grade=Fiendish&seed=1")
    assert response.status_code == 422
    assert "none turned up in 20 tries and the pool has none" in response.get_json()["message"]


def test_live_generation_out_of_time_is_answered_from_the_pool() -> None:
    """With no time at all, no live puzzle is graded: the pool answers, and the answer is
    not kept (what a busy machine did in a hurry is not what the seed means)."""
    hurried = create_app({"TESTING": True, "GENERATE_DEADLINE_MS": 0}).test_client()
    body = hurried.get("/api/generate?grade=Fiendish&seed=3").get_json()
    assert body["source"] == "pool" and body["grade"] == "Fiendish"
    _assert_proper(body["puzzle"], "standard", 9, None, "Fiendish")


def test_classic_diabolical_comes_straight_from_the_pool(client: Any) -> None:
    body = client.get("/api/generate?grade=diabolical&seed=3").get_json()
    assert (body["source"], body["grade"]) == ("pool", "Diabolical")


def test_api_generate_is_get_only(client: Any) -> None:
    assert client.post("/api/generate").status_code == 405


# ---- /daily ---------------------------------------------------------------------------------


def test_daily_is_the_same_for_everyone_today(client: Any) -> None:
    first = client.get("/daily")
    second = create_app({"TESTING": True}).test_client().get("/daily")
    assert first.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    variant, puzzle, regions = _puzzle_of(first.headers["Location"])
    assert variant == "standard"
    _assert_proper(puzzle, "standard", 9, regions, "Medium")
    # Cacheable, but never past midnight UTC.
    max_age = int(re.fullmatch(r"public, max-age=(\d+)", first.headers["Cache-Control"])[1])
    assert 0 < max_age <= 24 * 3600
    assert first.headers["Expires"].endswith("00:00:00 GMT")


def test_daily_changes_with_the_day_grade_and_variant(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    today = client.get("/daily").headers["Location"]
    hard = client.get("/daily?grade=hard").headers["Location"]
    xs = client.get("/daily?v=x&grade=Easy").headers["Location"]
    assert today != hard and urlsplit(xs).path.startswith("/x/")
    _assert_proper(_puzzle_of(hard)[1], "standard", 9, None, "Hard")
    tomorrow = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    monkeypatch.setattr(new_puzzle, "utc_now", lambda: tomorrow)
    later = create_app({"TESTING": True}).test_client().get("/daily").headers["Location"]
    assert later != today


def test_daily_takes_the_api_spelling_too(client: Any) -> None:
    """/daily?variant=…&grade=… as the issue spells it (the form's v=… works as well)."""
    location = client.get("/daily?variant=jigsaw&grade=Easy").headers["Location"]
    variant, puzzle, regions = _puzzle_of(location)
    assert variant == "jigsaw"
    _assert_proper(puzzle, "jigsaw", 9, regions, "Easy")
    assert client.get("/daily?v=jigsaw&grade=easy").headers["Location"] == location


def test_daily_bad_grade_is_422(client: Any) -> None:
    response = client.get("/daily?grade=Impossible")
    assert response.status_code == 422
    assert "No grade" in response.get_data(as_text=True)


# ---- The New puzzle form ------------------------------------------------------------------


def test_new_puzzle_form_offers_every_variant_and_grade(client: Any) -> None:
    response = client.get("/new")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<form class="new-puzzle" method="get" action="/new"' in html
    for kind in new_puzzles.KINDS:
        assert f'<option value="{kind.key}"' in html and kind.label in html
    for word in GRADES:
        assert f'<option value="{word}"' in html
    assert '<label for="new-puzzle-heading-v">Variant</label>' in html
    assert 'href="/daily"' in html


def test_new_puzzle_form_is_on_the_main_page(client: Any) -> None:
    html = client.get("/?v=x").get_data(as_text=True)
    assert 'action="/new"' in html
    assert '<option value="x" selected' in html


def test_new_puzzle_opens_its_play_page(client: Any) -> None:
    response = client.get("/new?v=hyper&grade=Easy")
    assert response.status_code == 303
    assert response.headers["Cache-Control"] == "no-store"
    variant, puzzle, regions = _puzzle_of(response.headers["Location"])
    assert variant == "hyper"
    _assert_proper(puzzle, "hyper", 9, regions, "Easy")
    # Each press makes a new one.
    assert client.get("/new?v=hyper&grade=Easy").headers["Location"] != response.headers["Location"]


def test_new_puzzle_from_the_pool_says_so(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(new_puzzles.LIVE_ATTEMPTS, ("standard", 9), 0)
    location = client.get("/new?grade=Fiendish").headers["Location"]
    assert location.startswith("/p/") and location.endswith("/play?from=pool")
    # The play page it opens tells the person; the same puzzle's plain play link does not.
    assert "pre-generated pool" in client.get(location).get_data(as_text=True)
    plain = location.removesuffix("?from=pool")
    assert "pre-generated pool" not in client.get(plain).get_data(as_text=True)


def test_new_puzzle_takes_variant_as_the_api_does(client: Any) -> None:
    response = client.get("/new?variant=x&grade=Easy")
    assert response.status_code == 303
    variant, puzzle, regions = _puzzle_of(response.headers["Location"])
    assert variant == "x"
    _assert_proper(puzzle, "x", 9, regions, "Easy")


def test_the_pool_note_never_calls_an_easy_grade_rare(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(new_puzzles.LIVE_ATTEMPTS, ("standard", 9), 0)
    location = client.get("/new?grade=Easy").headers["Location"]
    html = client.get(location).get_data(as_text=True)
    assert "pre-generated pool" in html and "rare" not in html


def test_new_puzzle_offers_each_variant_only_its_grades(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for kind in new_puzzles.KINDS:  # straight to the pool: what is offered is there
        monkeypatch.setitem(new_puzzles.LIVE_ATTEMPTS, (kind.variant, kind.size), 0)
    html = client.get("/new").get_data(as_text=True)
    for kind in new_puzzles.KINDS:
        have = new_puzzles.grades_of(kind)
        assert f'data-grades="{" ".join(have)}"' in html
        for word in have:  # each offered pair is made
            assert client.get(f"/new?v={kind.key}&grade={word}").status_code == 303, (kind, word)
    assert "4x4 (Easy only)" in html


def test_new_puzzle_bad_choice_is_422_with_the_form(client: Any) -> None:
    response = client.get("/new?v=nonsense&grade=Easy")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "No puzzles of variant &#39;nonsense&#39;" in html and 'action="/new"' in html


def test_new_puzzle_unavailable_grade_says_why(client: Any) -> None:
    response = client.get("/new?v=4x4&grade=Diabolical")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "No Diabolical 4x4 puzzle is available" in html
    assert '<option value="4x4" selected' in html


def test_every_form_kind_is_a_pool_kind() -> None:
    """The pool command fills what the form offers, killers (cages and all) included."""
    offered = {(k.variant, k.size) for k in new_puzzles.KINDS}
    assert offered == set(pool.KINDS)
    assert {(c.variant, c.size) for c in urls.CHOICES} == offered


def test_a_failed_grade_is_never_the_one_offered(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The message names other grades to try, never the one that just failed."""
    kind = new_puzzles.kind_of("6x6")
    monkeypatch.setitem(new_puzzles.LIVE_ATTEMPTS, (kind.variant, kind.size), 0)
    have = new_puzzles.grades_of(kind)
    missing = next(g for g in GRADES if g not in have)
    for asked in (*have, missing):
        monkeypatch.setattr(pool, "pick", lambda *args: None)  # nothing left for any grade
        message = client.get(f"/api/generate?variant=6x6&grade={asked}").get_json()["message"]
        offered = message.partition("Try ")[2]
        assert asked not in offered and offered, message


# ---- killers: every grade from the pool, cages and all -------------------------------------


def _killer_kind() -> new_puzzles.Kind:
    return new_puzzles.kind_of("killer")


def test_killers_of_every_grade_from_the_pool(client: Any) -> None:
    """Every grade, every seed: the pool answers at once (no live search, no deadline), the
    same seed gives the same cages, and the grader agrees with the grade."""
    kind = _killer_kind()
    assert new_puzzles.grades_of(kind) == GRADES
    assert not new_puzzles.LIVE_ATTEMPTS.get((kind.variant, kind.size))
    for asked in GRADES:
        for seed in ("a", "b"):
            url = f"/api/generate?variant=killer&grade={asked}&seed={seed}"
            body = client.get(url).get_json()
            assert (body["grade"], body["source"]) == (asked, "pool"), body
            again = create_app(ROOMY).test_client().get(url).get_json()
            assert again["cages"] == body["cages"]
        board = urls.geometry_of("killer", body["puzzle"], cages=body["cages"])
        solved = solve(body["puzzle"], geometry=board, deadline_ms=None)
        assert solved.status == "solved"
        givens = parse_puzzle(body["puzzle"], board)
        solution = parse_puzzle(solved.solutions[0], board)
        assert grade(givens, board, solution=solution).grade == asked


def test_api_generate_makes_a_killer_whose_cages_solve_uniquely(client: Any) -> None:
    kind = _killer_kind()
    response = client.get(f"/api/generate?variant={kind.key}&grade=Easy&seed=5")
    assert response.status_code == 200
    body = response.get_json()
    assert body["source"] == "pool" and body["grade"] == "Easy"
    assert body["puzzle"] == "0" * 81  # a killer is its cages
    cages = body["cages"]
    assert cages and sum(c["sum"] for c in cages) == 405
    assert sorted(cell for c in cages for cell in c["cells"]) == sorted(
        f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)
    )
    solved = client.post(
        "/api/solve", json={"puzzle": body["puzzle"], "variant": kind.variant, "cages": cages}
    ).get_json()
    assert solved["status"] == "solved" and len(solved["solutions"]) == 1
    digits = solved["solution"]
    for cage in cages:  # every cage's digits add up to its sum, all different
        got = [int(digits[(int(n[1]) - 1) * 9 + int(n[3]) - 1]) for n in cage["cells"]]
        assert sum(got) == cage["sum"] and len(set(got)) == len(got)
    # Its share and play links are the killer's, and open the same cages.
    assert urlsplit(body["share_url"]).path.startswith("/killer/")
    assert body["play_url"] == body["share_url"] + "/play"
    assert client.get(urlsplit(body["play_url"]).path).status_code == 200


def test_new_puzzle_form_offers_killer_at_every_grade(client: Any) -> None:
    kind = _killer_kind()
    html = client.get("/new").get_data(as_text=True)
    assert f'<option value="{kind.key}" data-grades="{" ".join(GRADES)}">{kind.label}<' in html


@pytest.mark.parametrize("asked", GRADES)
def test_new_killer_opens_its_killer_play_page(client: Any, asked: str) -> None:
    response = client.get(f"/new?v={_killer_kind().key}&grade={asked}")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/killer/") and location.endswith("/play?from=pool")
    assert client.get(location).status_code == 200


def test_daily_killer_is_a_killer_play_page() -> None:
    for asked in GRADES:
        first = create_app(ROOMY).test_client().get(f"/daily?v=killer&grade={asked}")
        assert first.status_code == 303
        assert first.headers["Location"].startswith("/killer/")
        again = create_app(ROOMY).test_client().get(f"/daily?v=killer&grade={asked}")
        assert again.headers["Location"] == first.headers["Location"]


def test_killer_needs_no_time_to_be_made() -> None:
    """No deadline at all still answers: a killer never waits on a live search."""
    hurried = create_app({"TESTING": True, "GENERATE_DEADLINE_MS": 0}).test_client()
    response = hurried.get(f"/api/generate?variant={_killer_kind().key}&grade=Hard&seed=2")
    assert response.status_code == 200
    assert response.get_json()["grade"] == "Hard"


# ---- "New puzzle" on a puzzle's pages keeps its board ---------------------------------------

X_PUZZLE = "000060000250000000000301000000050000804020050030000000000692000790000000008100000"


@pytest.mark.parametrize(
    ("path", "expected", "selected"),
    [
        (f"/x/{X_PUZZLE}", "/new?variant=x", "x"),
        (f"/x/{X_PUZZLE}/steps", "/new?variant=x", "x"),
        (f"/x/{X_PUZZLE}/play", "/new?variant=x", "x"),
        ("/p/003000410003020004640000000100006030", "/new?variant=standard&amp;size=6", "6x6"),
        ("/p/0140402012000000", "/new?variant=standard&amp;size=4", "4x4"),
        ("/", "/new", ""),
    ],
)
def test_new_puzzle_link_keeps_the_variant(
    client: Any, path: str, expected: str, selected: str
) -> None:
    html = client.get(path).get_data(as_text=True)
    assert f'<a href="{expected}">New puzzle</a>' in html
    form = client.get(expected.replace("&amp;", "&"))
    assert form.status_code == 200  # the form, opened on that kind: no puzzle made yet
    assert f'<option value="{selected}" selected' in form.get_data(as_text=True)
