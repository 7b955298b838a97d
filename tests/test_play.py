"""Playing a shared puzzle: ``<share link>/play``, its picture, the form without JavaScript,
``/api/check`` and ``/api/hint`` (sudoku_web.web.play.routes)."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from typing import Any

import pytest
from app_config import ROOMY
from flask import Flask
from PIL import Image
from web_puzzles import (
    CONFLICT,
    EASY,
    EASY_SOLUTION,
    FOUR_PUZZLE,
    FOUR_SOLUTION,
    HYPER_PUZZLE,
    HYPER_SOLUTION,
    IMPOSSIBLE,
    JIGSAW6_PUZZLE,
    JIGSAW6_REGIONS,
    JIGSAW6_SOLUTION,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    JIGSAW_SOLUTION,
    SIX_PUZZLE,
    SIX_SOLUTION,
    SIXTEEN_PUZZLE,
    SIXTEEN_SOLUTION,
    TWO_SOLUTIONS,
    X_PUZZLE,
    X_SOLUTION,
)

from sudoku_web import create_app
from sudoku_web.core.board import SYMBOLS
from sudoku_web.core.solver import SolveResult
from sudoku_web.web.runtime import solving

# (share link, puzzle, solution, variant, regions) for every variant and size.
GAMES = [
    (f"/p/{EASY}", EASY, EASY_SOLUTION, "standard", None),
    (f"/p/{FOUR_PUZZLE}", FOUR_PUZZLE, FOUR_SOLUTION, "standard", None),
    (f"/p/{SIX_PUZZLE}", SIX_PUZZLE, SIX_SOLUTION, "standard", None),
    (f"/p/{SIXTEEN_PUZZLE}", SIXTEEN_PUZZLE, SIXTEEN_SOLUTION, "standard", None),
    (f"/x/{X_PUZZLE}", X_PUZZLE, X_SOLUTION, "x", None),
    (f"/hyper/{HYPER_PUZZLE}", HYPER_PUZZLE, HYPER_SOLUTION, "hyper", None),
    (
        f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}",
        JIGSAW_PUZZLE,
        JIGSAW_SOLUTION,
        "jigsaw",
        JIGSAW_REGIONS,
    ),
    (
        f"/jigsaw/{JIGSAW6_REGIONS}/{JIGSAW6_PUZZLE}",
        JIGSAW6_PUZZLE,
        JIGSAW6_SOLUTION,
        "jigsaw",
        JIGSAW6_REGIONS,
    ),
]
IDS = ["9x9", "4x4", "6x6", "16x16", "x", "hyper", "jigsaw", "jigsaw6"]

# top95 #20: the hint from its digits alone needs eliminations first; a pencil mark of the
# right digit alone in r1c1 makes r1c1 a naked single.
NO_SINGLES = "008400030000300000900001574790008000000007005140000020009060002050000400000090056"


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def cell_markup(page: str) -> dict[int, str]:
    """Each grid cell's ``<td>`` markup by its index."""
    found = re.findall(r'(<td [^>]*data-cell="(\d+)"[^>]*>.*?</td>)', page, re.S)
    return {int(index): markup for markup, index in found}


def scrambled(solution: str) -> str:
    """Another grid of the same symbols: every symbol moved on by one (1->2, ..., N->1)."""
    symbols = SYMBOLS[: round(len(solution) ** 0.5)]
    return "".join(symbols[(symbols.index(ch) + 1) % len(symbols)] for ch in solution)


def check(client: Any, **body: Any) -> Any:
    return client.post("/api/check", json=body)


# ---- The page --------------------------------------------------------------------------------


@pytest.mark.parametrize(("link", "puzzle", "solution", "variant", "regions"), GAMES, ids=IDS)
def test_every_variant_plays_with_the_givens_locked(
    client: Any, link: str, puzzle: str, solution: str, variant: str, regions: str | None
) -> None:
    response = client.get(link + "/play")
    assert response.status_code == 200
    page = text(response)
    cells = cell_markup(page)
    assert len(cells) == len(puzzle)
    for index, ch in enumerate(puzzle):
        markup = cells[index]
        if ch != "0":
            # A given: its symbol, no field to change it, and a label that says so.
            assert "<input" not in markup and f">{ch}</td>" in markup
            assert "(given)" in markup
        else:
            # An open cell: an empty field of its own, nothing of the solution.
            assert f'name="c{index}"' in markup and 'value=""' in markup
            assert not re.search(r">\s*[0-9A-G]\s*<", markup)
    assert solution not in page
    assert 'data-puzzle="' + puzzle + '"' in page


@pytest.mark.parametrize(("link", "puzzle", "solution", "variant", "regions"), GAMES, ids=IDS)
def test_the_page_and_its_picture_do_not_depend_on_the_solution(
    monkeypatch: pytest.MonkeyPatch,
    link: str,
    puzzle: str,
    solution: str,
    variant: str,
    regions: str | None,
) -> None:
    """Rendered again with another "solution" swapped in, the page and the picture are the
    same bytes: nothing of the solution can be in them (data attributes included)."""
    before = [create_app(ROOMY).test_client().get(link + path).data for path in _PATHS]
    original = solving.cached_solve

    def swapped(*args: Any, **kwargs: Any) -> SolveResult:
        result = original(*args, **kwargs)
        return dataclasses.replace(result, solutions=(scrambled(result.solutions[0]),))

    monkeypatch.setattr(solving, "cached_solve", swapped)
    after = [create_app(ROOMY).test_client().get(link + path).data for path in _PATHS]
    assert before == after
    # The swap did reach the play module: the real solution is now "wrong".
    body = {"puzzle": puzzle, "variant": variant, "regions": regions, "entries": solution}
    answer = create_app({"TESTING": True}).test_client().post("/api/check", json=body)
    assert answer.json["kind"] == "wrong"


_PATHS = ("/play", "/play.png")


def test_link_preview_shows_the_puzzle_unsolved(client: Any) -> None:
    page = text(client.get(f"/p/{EASY}/play"))
    image = re.search(r'<meta property="og:image" content="([^"]+)"', page)
    assert image is not None and image.group(1) == f"http://localhost/p/{EASY}/play.png"
    assert f'<meta name="twitter:image" content="http://localhost/p/{EASY}/play.png">' in page
    assert '<meta property="og:title" content="Play this 9x9 Sudoku">' in page
    assert f'<link rel="canonical" href="http://localhost/p/{EASY}/play">' in page
    assert "32 givens" in page  # the description counts them
    picture = client.get(f"/p/{EASY}/play.png")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert Image.open(io.BytesIO(picture.data)).size == (600, 630)
    # Not the result page's picture (that one draws the solution).
    assert picture.data != client.get(f"/p/{EASY}.png").data
    assert picture.headers.get("ETag")


@pytest.mark.parametrize(
    ("spelled", "canonical"),
    [
        (f"/p/{EASY.replace('0', '.')}/play", f"/p/{EASY}/play"),
        (f"/x/{X_PUZZLE.replace('0', '.')}/play", f"/x/{X_PUZZLE}/play"),
        (f"/hyper/{HYPER_PUZZLE.replace('0', '.')}/play", f"/hyper/{HYPER_PUZZLE}/play"),
        (
            f"/jigsaw/{JIGSAW_REGIONS.lower()}/{JIGSAW_PUZZLE}/play",
            f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/play",
        ),
        (
            f"/p/{SIXTEEN_PUZZLE.lower()}/play.png",
            f"/p/{SIXTEEN_PUZZLE}/play.png",
        ),
    ],
)
def test_other_spellings_redirect_to_the_canonical_play_url(
    client: Any, spelled: str, canonical: str
) -> None:
    response = client.get(spelled)
    assert response.status_code == 301
    assert response.headers["Location"] == canonical


def test_a_redirect_keeps_the_query_string(client: Any) -> None:
    response = client.get(f"/p/{EASY.replace('0', '.')}/play?from=pool")
    assert response.headers["Location"] == f"/p/{EASY}/play?from=pool"


def test_a_posted_form_at_another_spelling_is_sent_to_the_canonical_link(client: Any) -> None:
    response = client.post(f"/p/{EASY.replace('0', '.')}/play", data={"action": "check"})
    assert response.status_code == 301
    assert response.headers["Location"] == f"/p/{EASY}/play"


def test_a_bad_puzzle_gets_the_invalid_page_with_its_cells_marked(client: Any) -> None:
    response = client.get(f"/p/{CONFLICT}/play")
    assert response.status_code == 422
    page = text(response)
    assert "Not a valid puzzle" in page and "r1c1 and r1c2 both hold 5" in page
    assert page.count(" invalid") >= 2  # both cells marked
    bad_map = client.get(f"/jigsaw/{'A' * 81}/{JIGSAW_PUZZLE}/play")
    assert bad_map.status_code == 422
    assert client.get(f"/p/{CONFLICT}/play.png").status_code == 422


@pytest.mark.parametrize(
    ("puzzle", "words"),
    [(TWO_SOLUTIONS, "more than one solution"), (IMPOSSIBLE, "has no solution")],
)
def test_a_puzzle_without_one_solution_says_it_cannot_be_played(
    client: Any, puzzle: str, words: str
) -> None:
    response = client.get(f"/p/{puzzle}/play")
    assert response.status_code == 200
    page = text(response)
    assert words in page
    assert f'href="/p/{puzzle}"' in page  # to the result page, which says more
    assert "<form" not in page.split("<main", 1)[1]  # nothing to check against
    posted = client.post(f"/p/{puzzle}/play", data={"action": "check"})
    assert posted.status_code == 200 and words in text(posted)


def test_a_puzzle_the_solver_gave_up_on_is_not_playable_either() -> None:
    """The solver's bound reached is said, never a server error: the page and its POST,
    and /api/check and /api/hint answer 200 with status gave_up, as /api/solve does."""
    client = create_app({"TESTING": True, "SOLVE_MAX_NODES": 1}).test_client()
    page = client.get(f"/p/{NO_SINGLES}/play")
    assert page.status_code == 200 and "could not finish this puzzle" in text(page)
    posted = client.post(f"/p/{NO_SINGLES}/play", data={"action": "hint"})
    assert posted.status_code == 200 and "could not finish this puzzle" in text(posted)
    assert client.post("/api/solve", json={"puzzle": NO_SINGLES}).json["status"] == "gave_up"
    for url in ("/api/check", "/api/hint"):
        answer = client.post(url, json={"puzzle": NO_SINGLES, "entries": NO_SINGLES})
        assert answer.status_code == 200, url
        assert answer.json["status"] == "gave_up" and "kind" not in answer.json
        assert "could not finish this puzzle" in answer.json["message"]


def test_the_result_page_offers_both_links(client: Any) -> None:
    page = text(client.get(f"/p/{EASY}"))
    assert f'<a id="play-url" href="http://localhost/p/{EASY}/play">' in page
    assert "Share to play" in page and "Share the solution" in page
    assert f'<a id="share-url" href="http://localhost/p/{EASY}">' in page
    # Only a puzzle with one solution can be played.
    assert "play-url" not in text(client.get(f"/p/{TWO_SOLUTIONS}"))


# ---- The form without JavaScript -------------------------------------------------------------


def test_check_by_form_marks_wrong_entries_and_keeps_them(client: Any) -> None:
    wrong = "5" if EASY_SOLUTION[0] != "5" else "4"
    data = {"c0": wrong, "c1": EASY_SOLUTION[1], "c3": "19", "action": "check"}
    response = client.post(f"/p/{EASY}/play", data=data)
    assert response.status_code == 200
    page = text(response)
    assert "1 entry is wrong: r1c1 (marked in the grid)." in page
    cells = cell_markup(page)
    assert f'value="{wrong}"' in cells[0] and 'aria-invalid="true"' in cells[0]
    assert f'value="{EASY_SOLUTION[1]}"' in cells[1] and 'aria-invalid="false"' in cells[1]
    assert 'value="19"' in cells[3] and "pencil" in cells[3]  # marks kept as marks
    assert "(wrong)" in cells[0]  # screen readers hear it too
    # The solution's digit for the wrong cell is not given away.
    assert f'value="{EASY_SOLUTION[0]}"' not in page


def test_check_by_form_says_solved_and_right_so_far(client: Any) -> None:
    full = {
        f"c{i}": ch for i, (ch, g) in enumerate(zip(EASY_SOLUTION, EASY, strict=True)) if g == "0"
    }
    page = text(client.post(f"/p/{EASY}/play", data={**full, "action": "check"}))
    assert "Solved!" in page
    page = text(client.post(f"/p/{EASY}/play", data={"c0": EASY_SOLUTION[0]}))
    assert "Nothing is wrong so far: 33 of 81 cells are filled." in page


def test_hint_by_form_gives_the_next_step_and_keeps_the_entries(client: Any) -> None:
    data = {"c0": EASY_SOLUTION[0], "action": "hint"}
    page = text(client.post(f"/p/{EASY}/play", data=data))
    assert re.search(r"<h2>Next: [a-z ]+ at r\d+c\d+</h2>", page)
    assert "Show the reasoning" in page
    assert f'value="{EASY_SOLUTION[0]}"' in cell_markup(page)[0]
    assert "hint-cell" in page


def test_hint_by_form_reads_several_digits_as_pencil_marks(client: Any) -> None:
    plain = text(client.post(f"/p/{NO_SINGLES}/play", data={"action": "hint"}))
    assert "Next: naked single at r1c1" not in plain
    right = solve_digit(NO_SINGLES, 0)
    # Two marks: the right digit and one the digits already rule out in row 1 (the 8).
    page = text(client.post(f"/p/{NO_SINGLES}/play", data={"c0": right + "8", "action": "hint"}))
    assert "<h2>Next: naked single at r1c1</h2>" in page


def test_hint_by_form_points_at_wrong_marks_first(client: Any) -> None:
    wrong_marks = "".join(d for d in "12" if d != EASY_SOLUTION[0])
    page = text(client.post(f"/p/{EASY}/play", data={"c0": wrong_marks + "7", "action": "hint"}))
    assert "The pencil marks in r1c1 leave out the right digit" in page


def test_a_bad_symbol_in_the_form_is_named_with_its_cell(client: Any) -> None:
    response = client.post(f"/p/{EASY}/play", data={"c0": "Z", "c1": "9" * 100})
    assert response.status_code == 422
    page = text(response)
    assert "r1c1 holds &#39;Z&#39;" in page
    assert "r1c2 holds" in page


def solve_digit(puzzle: str, index: int) -> str:
    from sudoku_web.core.solver import solve

    return solve(puzzle).solutions[0][index]


# ---- /api/check ------------------------------------------------------------------------------


def test_check_names_wrong_entries_never_digits(client: Any) -> None:
    wrong = "5" if EASY_SOLUTION[0] != "5" else "4"
    entries = wrong + EASY_SOLUTION[1] + EASY[2:]
    answer = check(client, puzzle=EASY, entries=entries)
    assert answer.status_code == 200
    body = answer.json
    assert body["status"] == "solved"  # the puzzle's outcome, as in /api/solve
    assert body["kind"] == "wrong"
    assert body["wrong"] == [{"cell": "r1c1", "index": 0}]
    assert body["complete"] is False and body["solved"] is False
    assert body["filled"] == 34 and body["cells"] == 81
    assert EASY_SOLUTION not in answer.get_data(as_text=True)
    assert "no-store" in answer.headers["Cache-Control"]


def test_check_a_complete_grid(client: Any) -> None:
    body = check(client, puzzle=EASY, entries=EASY_SOLUTION).json
    assert body["kind"] == "solved" and body["complete"] is True and body["solved"] is True
    assert body["wrong"] == []
    blank_givens = "".join("0" if g != "0" else s for g, s in zip(EASY, EASY_SOLUTION, strict=True))
    assert check(client, puzzle=EASY, entries=blank_givens).json["solved"] is True


@pytest.mark.parametrize(("link", "puzzle", "solution", "variant", "regions"), GAMES, ids=IDS)
def test_check_and_reveal_for_every_variant(
    client: Any, link: str, puzzle: str, solution: str, variant: str, regions: str | None
) -> None:
    first_open = puzzle.index("0")
    size = round(len(puzzle) ** 0.5)
    name = f"r{first_open // size + 1}c{first_open % size + 1}"
    body = check(
        client, puzzle=puzzle, variant=variant, regions=regions, entries=puzzle, reveal=name
    ).json
    assert body["kind"] == "right" and body["variant"] == variant
    assert body["revealed"] == {"cell": name, "index": first_open, "digit": solution[first_open]}
    assert check(client, puzzle=puzzle, variant=variant, regions=regions, entries=solution).json[
        "solved"
    ]


def test_check_reports_marks_that_leave_out_the_answer(client: Any) -> None:
    marks = {"r1c1": "".join(d for d in "123" if d != EASY_SOLUTION[0]), "r1c2": "12345678"}
    body = check(client, puzzle=EASY, entries=EASY, marks=marks).json
    assert body["kind"] == "marks"
    assert {"cell": "r1c1", "index": 0} in body["wrong_marks"]


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        (None, 400, "JSON object"),
        ("deep", 400, "JSON object"),
        ({"puzzle": "\ud800" + EASY[1:]}, 422, "r1c1"),
        ({"puzzle": EASY, "entries": "\ud800" + EASY[1:]}, 422, "r1c1"),
        ({"puzzle": EASY, "marks": {"\ud800": "1"}}, 422, "not a cell"),
        ([EASY], 400, "JSON object"),
        ({"entries": EASY}, 400, '"puzzle" string'),
        ({"puzzle": 5}, 400, '"puzzle" string'),
        ({"puzzle": EASY, "entries": list(EASY)}, 400, '"entries" must be a string'),
        ({"puzzle": EASY, "variant": ["x"]}, 400, '"variant" must be a string'),
        ({"puzzle": EASY, "marks": "r1c1=1"}, 400, '"marks" must be an object'),
        ({"puzzle": EASY, "reveal": 3}, 400, '"reveal" must name a cell'),
        ({"puzzle": EASY, "reveal": "r10c1"}, 400, '"reveal" must name a cell'),
        ({"puzzle": EASY, "reveal": "r1c3"}, 400, "r1c3 is a given"),
        ({"puzzle": EASY, "entries": EASY + "1"}, 422, "82"),
        ({"puzzle": EASY, "entries": "Z" + EASY[1:]}, 422, "r1c1"),
        ({"puzzle": EASY, "entries": "x" * 10_000}, 422, "too long for a grid"),
        ({"puzzle": EASY, "entries": "004" + EASY[3:]}, 422, "change the givens at r1c3"),
        ({"puzzle": EASY, "marks": {"r1c99": "1"}}, 422, "not a cell"),
        ({"puzzle": EASY, "marks": {"x" * 5000: "1"}}, 422, "not a cell"),
        ({"puzzle": EASY, "marks": {"r1c1": 12}}, 422, "r1c1 needs a short string"),
        ({"puzzle": EASY, "marks": {"r1c1": "1" * 100}}, 422, "r1c1 needs a short string"),
        ({"puzzle": EASY, "marks": {"r1c1": "1Z"}}, 422, "r1c1 holds"),
        ({"puzzle": CONFLICT}, 422, "r1c1 and r1c2 both hold 5"),
        ({"puzzle": "9" * 3000}, 422, "too long"),
        ({"puzzle": JIGSAW_PUZZLE, "variant": "jigsaw"}, 422, "region map"),
        ({"puzzle": EASY, "variant": "samurai"}, 422, "Unknown variant"),
        ({"puzzle": TWO_SOLUTIONS}, 422, "more than one solution"),
        ({"puzzle": IMPOSSIBLE}, 422, "no solution"),
    ],
)
def test_check_refuses_bad_requests_with_a_clear_message(
    client: Any, body: Any, code: int, words: str
) -> None:
    if body is None:
        answer = client.post("/api/check", data="{not json", content_type="application/json")
    elif body == "deep":
        deep = "[" * 5000 + "]" * 5000
        answer = client.post("/api/check", data=deep, content_type="application/json")
    else:  # json.dumps escapes lone surrogates, as a browser's JSON.stringify does
        answer = client.post("/api/check", data=json.dumps(body), content_type="application/json")
    assert answer.status_code == code
    assert answer.is_json
    assert words in str(answer.json)


def test_check_reports_a_garbled_grid_in_a_few_lines(client: Any) -> None:
    marks = {f"cell{i}": "1" for i in range(100)}  # a problem each
    answer = check(client, puzzle=EASY, entries="Z" * 1999, marks=marks)
    assert answer.status_code == 422
    errors = answer.json["errors"]
    assert len(errors) == 21 and errors[-1]["message"] == "… and 82 more problems like these."
    first = errors[0]["message"]
    assert first.startswith("entries: ") and "1999" in first.replace(",", "")  # "1,999" in English


def test_check_bounds_the_body_and_the_method(client: Any) -> None:
    huge = {"puzzle": EASY, "marks": {f"r1c{i}": "1" for i in range(5000)}}
    answer = client.post("/api/check", json=huge)
    assert answer.status_code == 413 and answer.is_json
    answer = client.get("/api/check")
    assert answer.status_code == 405 and answer.is_json


# ---- /api/hint -------------------------------------------------------------------------------


def test_hint_starts_from_the_persons_pencil_marks(client: Any) -> None:
    plain = client.post("/api/hint", json={"puzzle": NO_SINGLES}).json
    assert plain["kind"] == "next"
    assert plain["steps"][-1]["cells"] != ["r1c1"] or len(plain["steps"]) > 1
    marks = {"r1c1": solve_digit(NO_SINGLES, 0)}
    body = client.post("/api/hint", json={"puzzle": NO_SINGLES, "marks": marks}).json
    assert body["kind"] == "next"
    assert [s["technique"] for s in body["steps"]] == ["Naked single"]
    assert body["steps"][0]["cells"] == ["r1c1"]
    assert body["highlight"]["cells"] == [0]


def test_hint_points_at_wrong_entries_before_any_step(client: Any) -> None:
    wrong = "5" if EASY_SOLUTION[0] != "5" else "4"
    body = client.post("/api/hint", json={"puzzle": EASY, "entries": wrong + EASY[1:]}).json
    assert body["kind"] == "wrong" and body["wrong"] == [{"cell": "r1c1", "index": 0}]
    assert "steps" not in body


def test_hint_on_a_solved_grid_says_solved(client: Any) -> None:
    body = client.post("/api/hint", json={"puzzle": EASY, "entries": EASY_SOLUTION}).json
    assert body["kind"] == "solved"


def test_the_api_answers_are_json_for_a_jigsaw_with_its_regions(app: Flask) -> None:
    client = app.test_client()
    body = client.post(
        "/api/hint",
        json={"puzzle": JIGSAW_PUZZLE, "variant": "jigsaw", "regions": JIGSAW_REGIONS.lower()},
    ).json
    assert body["regions"] == JIGSAW_REGIONS and body["kind"] in ("next", "stuck")


def test_the_play_page_tells_how_hard_the_puzzle_is(client: Any) -> None:
    page = text(client.get(f"/p/{EASY}/play"))
    assert f'data-fragment="/p/{EASY}/difficulty?embed=1"' in page
    assert f'src="/p/{EASY}/difficulty?embed=1"' in page  # without JavaScript
    panel = text(client.get(f"/p/{EASY}/difficulty?embed=1"))
    assert "For a person" in panel and EASY_SOLUTION not in panel
