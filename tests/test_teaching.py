"""The teaching pages: steps, search, hint, the difficulty panel and /api/explain."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_puzzles import (
    CONFLICT,
    EASY,
    EASY_SOLUTION,
    EASY_TYPO,
    HYPER_PUZZLE,
    IMPOSSIBLE,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    SIXTEEN_PUZZLE,
    TWO_SOLUTIONS,
    X_PUZZLE,
)

from sudoku_web import create_app
from sudoku_web.core.board import find_conflicts, parse_puzzle, standard
from sudoku_web.core.hints import hint_steps
from sudoku_web.core.logic import explain

TOP95 = [
    line.strip().replace(".", "0")
    for line in (Path(__file__).parent / "data" / "top95.txt").read_text().split()
    if line.strip()
]
# The first top95 puzzle needs only pointing; one that needs a guess is picked below.
HARD = TOP95[0]


def _post_hint(client: Any, grid: str, givens: str | None = None) -> Any:
    data = {f"cells-{i}": ("" if ch == "0" else ch) for i, ch in enumerate(grid)}
    if givens:
        data["givens"] = givens
    return client.post("/hint", data=data)


def _panel(html: str) -> str:
    match = re.search(r'<section class="hint-panel.*?</section>', html, re.S)
    assert match, "no hint panel"
    return match.group(0)


def _wrong_entry() -> tuple[int, str]:
    """A cell and digit of EASY that breaks no rule yet is not the solution's."""
    geo = standard(9)
    for cell, ch in enumerate(EASY):
        if ch != "0":
            continue
        for digit in "123456789":
            typed = EASY[:cell] + digit + EASY[cell + 1 :]
            if digit != EASY_SOLUTION[cell] and not find_conflicts(parse_puzzle(typed, geo), geo):
                return cell, digit
    raise AssertionError("no such entry")


# ---- Steps page ------------------------------------------------------------------------------


def test_steps_page_of_a_top95_puzzle_shows_numbered_steps_with_grids(client: Any) -> None:
    response = client.get(f"/p/{HARD}/steps")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<li id="step-1"' in html
    assert "In column 2, 4 can only go in r6c2, so it goes there." in html
    assert 'class="grid pm-grid size-9' in html
    assert "Candidates before step 1" in html
    assert "Grade for a person: <strong>Medium</strong>" in html


def test_steps_page_is_paged_by_step_and_strikes_eliminations(client: Any) -> None:
    first = client.get(f"/p/{HARD}/steps").get_data(as_text=True)
    assert f"/p/{HARD}/steps?step=21#step-21" in first  # the pager
    page = client.get(f"/p/{HARD}/steps?step=25")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert '<li id="step-21"' in html and '<li id="step-1"' not in html
    assert client.get(f"/p/{HARD}/steps?step=9999").status_code == 404
    assert client.get(f"/p/{HARD}/steps?step=x").status_code == 404
    # Some step of this puzzle is a pointing elimination: struck candidates appear.
    every = "".join(
        client.get(f"/p/{HARD}/steps?step={n}").get_data(as_text=True) for n in (1, 21, 41, 61)
    )
    assert 'class="struck"' in every and "Pointing" in every


def test_guess_steps_are_shown_as_guesses(app: Any, client: Any) -> None:
    from sudoku_web.core.logic import explain

    # Forcing chains finish every top95 puzzle; two of the "hardest" still need a guess.
    hardest = (Path(__file__).parent / "data" / "hardest.txt").read_text().split()
    puzzles = [p[:81].replace(".", "0") for p in hardest]
    guessing = next(p for p in puzzles if explain(p, standard(9)).guesses)
    explanation = explain(guessing, standard(9))
    first_guess = next(i for i, s in enumerate(explanation.steps) if s.technique == "Guess") + 1
    html = client.get(f"/p/{guessing}/steps?step={first_guess}").get_data(as_text=True)
    assert f'id="step-{first_guess}" class="step guess' in html
    assert "the engine would guess" in html
    assert "steps are guesses" in html or "step is a guess" in html


@pytest.mark.parametrize(
    ("puzzle", "status"),
    [(CONFLICT, 422), ("12y" + "0" * 78, 422), ("0" * 81, 422)],
)
def test_steps_page_of_an_invalid_puzzle_is_422_with_the_form_messages(
    client: Any, puzzle: str, status: int
) -> None:
    response = client.get(f"/p/{puzzle}/steps")
    assert response.status_code == status
    assert "This puzzle has" in response.get_data(as_text=True)


def test_steps_link_in_another_spelling_redirects(client: Any) -> None:
    dotted = EASY.replace("0", ".")
    response = client.get(f"/p/{dotted}/steps")
    assert response.status_code == 301
    assert response.headers["Location"].endswith(f"/p/{EASY}/steps")


@pytest.mark.parametrize("puzzle", [TWO_SOLUTIONS, IMPOSSIBLE])
def test_steps_page_of_a_puzzle_without_one_solution_says_so(client: Any, puzzle: str) -> None:
    response = client.get(f"/p/{puzzle}/steps")
    assert response.status_code == 200
    assert "exactly one solution" in response.get_data(as_text=True)


def test_steps_pages_of_variants(client: Any) -> None:
    assert client.get(f"/x/{X_PUZZLE}/steps").status_code == 200
    jigsaw = client.get(f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/steps")
    assert jigsaw.status_code == 200
    assert "pm-grid size-9 jigsaw" in jigsaw.get_data(as_text=True)


def test_steps_page_renders_the_first_ten_top95_puzzles(client: Any) -> None:
    # What a steps page costs is measured by benchmarks/; soundness over all of top95 is
    # test_logic.test_sound_and_graded_as_explained_on_top95.
    for puzzle in TOP95[:10]:
        assert client.get(f"/p/{puzzle}/steps").status_code == 200


# ---- Search page ---------------------------------------------------------------------------


# The engine guesses once on this one (r9c3: 9 fails, 8 holds).
ONE_GUESS = TOP95[5]


def test_search_page_shows_the_engines_run_and_the_pencil_marks(client: Any) -> None:
    response = client.get(f"/p/{ONE_GUESS}/search")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Pencil marks after the first reduce" in html
    assert "Place the 17 givens; the reduce then settles 6 cells." in html
    assert "Stuck: guess at r9c3 (8, 9)" in html
    assert 'class="ev ev-try depth-1"' in html
    assert "r9c3 = 9 fails: r7c4 has no candidate left." in html
    assert "In all: 1 guess,\n    1 backtrack;" in html


def test_search_page_notes_a_cut_trace(app: Any) -> None:
    app.config["TRACE_MAX_EVENTS"] = 2
    html = app.test_client().get(f"/p/{ONE_GUESS}/search").get_data(as_text=True)
    assert "The story is cut after 2 lines" in html
    assert "In all: 1 guess," in html  # the totals still count the whole run


# ---- Hint ------------------------------------------------------------------------------------


def test_hint_for_a_partial_grid_names_the_technique_and_cell_not_the_digit(client: Any) -> None:
    response = _post_hint(client, EASY)
    assert response.status_code == 200
    panel = _panel(response.get_data(as_text=True))
    assert "Next: hidden single at r1c6" in panel
    heading = re.search(r"<h2.*?</h2>", panel, re.S)
    assert heading and "1" not in heading.group(0).replace("r1c6", "")
    # The reasoning (which names the digit) waits behind a disclosure.
    assert "<details>" in panel and "gives the digit away" in panel
    # The form comes back with the grid and remembers the puzzle.
    html = response.get_data(as_text=True)
    assert f'name="givens" value="{EASY}"' in html
    assert 'id="cells-2" maxlength="1"' in html or 'value="3"' in html


def test_edit_this_puzzle_remembers_the_givens_for_the_first_hint(client: Any) -> None:
    # Opened from a share page's "Edit this puzzle": the first Hint already knows which
    # digits are the puzzle's and which the user typed, so a wrong entry is caught at once.
    html = client.get(f"/?p={EASY}").get_data(as_text=True)
    assert f'name="givens" value="{EASY}"' in html
    # A puzzle that is not valid is not remembered (nothing to check entries against).
    conflict = "55" + EASY[2:]
    assert 'name="givens"' not in client.get(f"/?p={conflict}").get_data(as_text=True)


def test_hint_names_a_wrong_entry_without_its_digit(client: Any) -> None:
    cell, digit = _wrong_entry()
    typed = EASY[:cell] + digit + EASY[cell + 1 :]
    panel = _panel(_post_hint(client, typed, EASY).get_data(as_text=True))
    name = standard(9).cell_name(cell)
    assert "wrong" in panel.split(">", 1)[0]
    assert f"{name} does not match the puzzle's solution" in panel
    assert EASY_SOLUTION[cell] not in re.sub(r"r\d+c\d+", "", re.sub(r"<[^>]+>", "", panel))


def test_hint_without_known_givens_points_at_the_conflicting_cells(client: Any) -> None:
    panel = _panel(_post_hint(client, EASY_TYPO).get_data(as_text=True))
    assert "no solution any more" in panel
    assert "r1c3" in panel


def test_hint_for_a_complete_grid_says_solved(client: Any) -> None:
    panel = _panel(_post_hint(client, EASY_SOLUTION).get_data(as_text=True))
    assert "Solved!" in panel


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (CONFLICT, "r1c1 and r1c2 both hold 5 in row 1 and box 1."),
        ("0" * 81, "The grid is empty"),
    ],
)
def test_hint_for_an_invalid_grid_is_422_with_the_form_messages(
    client: Any, grid: str, message: str
) -> None:
    response = _post_hint(client, grid)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in html
    assert "hint-panel" not in html


def test_form_has_a_hint_button_posting_to_the_hint_page(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'formaction="/hint"' in html


# ---- Difficulty panel ------------------------------------------------------------------------
#
# The grades live on their own page, <share link>/difficulty; a result page of a solved puzzle
# only holds a slot for them (filled by sudoku.js, or a <noscript> frame), the links to the
# steps and the search, and never computes a grade itself.


def _difficulty_section(html: str) -> str:
    match = re.search(r'<section class="difficulty.*?</section>', html, re.S)
    assert match, "no difficulty section"
    return match.group(0)


def _panel_of(html: str) -> str:
    """The difficulty page's ``#difficulty-panel`` (its ``?embed=1`` twin, with h3 headings, is what
    static/js/fragment.js moves into a result page)."""
    match = re.search(r'<div id="difficulty-panel">.*?\n</div>', html, re.S)
    assert match, "no difficulty panel"
    return match.group(0)


def _puzzle_graded(*grades: str) -> str:
    from sudoku_web.core.logic import explain

    return next(p for p in TOP95 if explain(p, standard(9)).grade in grades)


def test_result_page_holds_a_slot_for_the_grades_and_links_to_the_steps(client: Any) -> None:
    response = client.get(f"/p/{HARD}")
    assert response.status_code == 200
    section = _difficulty_section(response.get_data(as_text=True))
    assert "How hard is it?" in section
    url = f"/p/{HARD}/difficulty"
    assert f'class="difficulty-slot" data-fragment="{url}?embed=1"' in section
    # Without JavaScript a frame of the same page shows the grades.
    noscript = re.search(r"<noscript>(.*?)</noscript>", section, re.S)
    assert noscript
    assert f'<iframe class="difficulty-frame" src="{url}?embed=1"' in noscript.group(1)
    assert 'title="The puzzle\'s grades, for a person and for the engine"' in noscript.group(1)
    assert f'href="/p/{HARD}/steps"' in section
    assert f'href="/p/{HARD}/search"' in section
    # The grades themselves are not in the result page.
    assert "For a person" not in section and "For the engine" not in section


def test_difficulty_fragment_shows_both_grades(client: Any) -> None:
    response = client.get(f"/p/{HARD}/difficulty")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    panel = _panel_of(response.get_data(as_text=True))
    assert "For a person: <strong>Medium</strong>" in panel
    assert "For the engine: <strong>No guessing</strong>" in panel
    assert '<ol class="grade-scale" aria-label="Human grade scale">' in panel
    assert re.search(r'class="grade-1 current"\s+aria-current="true">Medium</li>', panel)
    assert "at most" not in panel
    # Opened on its own, it links back to the result page.
    assert f'href="/p/{HARD}">The puzzle' in response.get_data(as_text=True)


def test_difficulty_fragment_explains_when_the_grades_disagree(client: Any) -> None:
    from sudoku_web.core.logic import explain, grade_note
    from sudoku_web.core.solver import solve

    geo = standard(9)
    for puzzle in TOP95:
        note = grade_note(explain(puzzle, geo), solve(puzzle, geometry=geo).stats)
        if note:
            break
    else:
        pytest.skip("no disagreement in top95")
    panel = _panel_of(client.get(f"/p/{puzzle}/difficulty").get_data(as_text=True))
    assert 'class="grade-note"' in panel


def test_result_page_does_not_compute_a_grade(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_web.core import logic
    from sudoku_web.web.runtime import solving

    calls: list[str] = []

    def spy(name: str, real: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return real(*args, **kwargs)

        return wrapped

    real_grade, real_explain = logic.grade, logic.explain
    for module in (logic, solving):
        monkeypatch.setattr(module, "grade", spy("grade", real_grade))
        monkeypatch.setattr(module, "explain", spy("explain", real_explain))
    client = app.test_client()
    response = client.get(f"/p/{HARD}")
    assert response.status_code == 200
    assert f'data-fragment="/p/{HARD}/difficulty?embed=1"' in response.get_data(as_text=True)
    assert calls == []
    # The fragment is where the grade is worked out.
    assert client.get(f"/p/{HARD}/difficulty").status_code == 200
    assert calls == ["grade"]


def test_result_page_survives_a_grader_that_fails(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sudoku_web.web.runtime import solving

    class Graded(Exception):
        pass

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise Graded

    monkeypatch.setattr(solving, "grade", boom)
    client = app.test_client()
    assert client.get(f"/p/{HARD}").status_code == 200
    with pytest.raises(Graded):
        client.get(f"/p/{HARD}/difficulty")


def test_unsolvable_result_page_has_no_grade(client: Any) -> None:
    html = client.get(f"/p/{IMPOSSIBLE}").get_data(as_text=True)
    assert "How hard is it?" not in html
    assert "data-fragment" not in html and "difficulty-frame" not in html


def test_result_page_with_many_solutions_has_no_grade_slot(client: Any) -> None:
    html = client.get(f"/p/{TWO_SOLUTIONS}").get_data(as_text=True)
    assert "How hard is it?" not in html and "/difficulty" not in html


@pytest.mark.parametrize(
    ("puzzle", "why"), [(TWO_SOLUTIONS, "has more than one"), (IMPOSSIBLE, "has none")]
)
def test_difficulty_fragment_of_a_puzzle_without_one_solution_is_404_with_a_sentence(
    client: Any, puzzle: str, why: str
) -> None:
    response = client.get(f"/p/{puzzle}/difficulty")
    assert response.status_code == 404
    panel = " ".join(_panel_of(response.get_data(as_text=True)).split())
    assert f"Only a puzzle with exactly one solution has a grade, and this one {why}." in panel
    assert "For a person" not in panel
    assert "ETag" not in response.headers
    assert "public" not in response.headers.get("Cache-Control", "")


def test_difficulty_fragment_of_a_conflicting_puzzle_is_422(client: Any) -> None:
    response = client.get(f"/p/{CONFLICT}/difficulty")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "r1c1 and r1c2 both hold 5" in html
    assert "difficulty-panel" not in html


def test_difficulty_fragment_in_another_spelling_redirects(client: Any) -> None:
    dotted = EASY.replace("0", ".")
    response = client.get(f"/p/{dotted}/difficulty")
    assert response.status_code == 301
    assert response.headers["Location"].endswith(f"/p/{EASY}/difficulty")
    relabelled = JIGSAW_REGIONS.translate(str.maketrans("AB", "BA"))
    jigsaw = client.get(f"/jigsaw/{relabelled}/{JIGSAW_PUZZLE}/difficulty")
    assert jigsaw.status_code == 301
    assert jigsaw.headers["Location"].endswith(
        f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/difficulty"
    )


@pytest.mark.parametrize(
    ("page", "fragment"),
    [
        (f"/x/{X_PUZZLE}", f"/x/{X_PUZZLE}/difficulty"),
        (f"/hyper/{HYPER_PUZZLE}", f"/hyper/{HYPER_PUZZLE}/difficulty"),
        (
            f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}",
            f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/difficulty",
        ),
    ],
)
def test_difficulty_fragment_of_variants(client: Any, page: str, fragment: str) -> None:
    result = client.get(page)
    assert result.status_code == 200
    section = _difficulty_section(result.get_data(as_text=True))
    assert f'data-fragment="{fragment}?embed=1"' in section
    response = client.get(fragment)
    assert response.status_code == 200
    panel = _panel_of(response.get_data(as_text=True))
    assert "For a person: <strong>" in panel and "For the engine: <strong>" in panel


def test_difficulty_fragment_may_be_framed_by_the_site_only(client: Any) -> None:
    response = client.get(f"/p/{EASY}/difficulty")
    assert response.status_code == 200
    assert response.headers.getlist("Content-Security-Policy") == [
        response.headers["Content-Security-Policy"]
    ]
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in csp and "frame-ancestors 'none'" not in csp
    assert csp.count("frame-ancestors") == 1
    # The rest of the policy stays as strict as everywhere else.
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    # Its 404 (shown in the same frame) too.
    missing = client.get(f"/p/{TWO_SOLUTIONS}/difficulty")
    assert "frame-ancestors 'self'" in missing.headers["Content-Security-Policy"]
    assert missing.headers["X-Frame-Options"] == "SAMEORIGIN"


@pytest.mark.parametrize(
    "path",
    [f"/p/{EASY}", f"/p/{EASY}/steps", f"/p/{EASY}/search", f"/p/{CONFLICT}/difficulty"],
)
def test_every_other_page_still_refuses_framing(client: Any, path: str) -> None:
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "frame-ancestors 'self'" not in csp
    assert response.headers["X-Frame-Options"] == "DENY"


def test_difficulty_fragment_served_again_may_still_be_framed(client: Any) -> None:
    path = f"/p/{EASY}/difficulty"
    first = client.get(path)
    again = client.get(path)  # from the by-URL cache
    assert again.status_code == 200
    assert "frame-ancestors 'self'" in again.headers["Content-Security-Policy"]
    assert again.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert again.headers["ETag"] == first.headers["ETag"]


@pytest.mark.parametrize("cache_size", [0, 64], ids=["cache-off", "cache-on"])
def test_difficulty_fragment_revalidated_may_still_be_framed(app: Any, cache_size: int) -> None:
    # A browser applies a 304's CSP to its stored copy: a 304 with the default 'none' would
    # blank the no-JavaScript frame on revalidation (conditional or the LRU's fast path).
    from sudoku_web.web.runtime import cache

    app.extensions[cache.EXTENSION] = cache.MemoryStore(cache_size * 100_000)
    client = app.test_client()
    path = f"/p/{EASY}/difficulty"
    etag = client.get(path).headers["ETag"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert "frame-ancestors 'self'" in again.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" not in again.headers["Content-Security-Policy"]
    assert again.headers["X-Frame-Options"] == "SAMEORIGIN"


def test_the_framed_panel_leaves_out_the_link_back(client: Any) -> None:
    path = f"/p/{EASY}/difficulty"
    alone = client.get(path).get_data(as_text=True)
    framed = client.get(path + "?embed=1").get_data(as_text=True)
    assert f'href="/p/{EASY}">The puzzle' in alone
    assert "The puzzle's result page" not in framed
    assert "For a person" in framed


# ---- /api/explain ---------------------------------------------------------------------------


def test_api_explain_shape(client: Any) -> None:
    response = client.get(f"/api/explain?puzzle={HARD}")
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "solved" and body["puzzle"] == HARD
    assert body["variant"] == "standard"
    assert body["grade"]["human"]["grade"] == "Medium"
    assert body["grade"]["human"]["scale"] == ["Easy", "Medium", "Hard", "Fiendish", "Diabolical"]
    assert set(body["grade"]["machine"]) == {"label", "guesses", "backtracks"}
    assert body["technique_counts"] == {"Hidden single": 60, "Naked single": 4, "Pointing": 7}
    assert body["logic"]["solved_by_logic"] is True
    step = body["steps"][0]
    assert step == {
        "number": 1,
        "technique": "Hidden single",
        "grade": "Easy",
        "sentence": "In column 2, 4 can only go in r6c2, so it goes there.",
        "houses": ["column 2"],
        "cells": ["r6c2"],
        "cell_indices": [46],
        "placements": [{"cell": "r6c2", "index": 46, "digit": "4"}],
        "eliminations": [],
    }
    assert body["steps_url"].endswith(f"/p/{HARD}/steps")
    assert response.headers["Cache-Control"].startswith("public")


def test_api_explain_post_and_errors(client: Any) -> None:
    assert client.post("/api/explain", json={"puzzle": EASY}).get_json()["status"] == "solved"
    bad = client.get(f"/api/explain?puzzle={CONFLICT}")
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["cells"] == ["r1c1", "r1c2"]
    assert client.get("/api/explain").status_code == 400
    assert client.post("/api/explain", data="nope").status_code == 400
    many = client.get(f"/api/explain?puzzle={TWO_SOLUTIONS}").get_json()
    assert many["status"] == "multiple" and many["steps"] == [] and many["grade"] is None


def test_api_explain_has_pencil_marks_and_the_search_story(client: Any) -> None:
    top95_first = (
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    ).replace(".", "0")
    body = client.get(f"/api/explain?puzzle={top95_first}").get_json()
    marks = body["candidates"]
    assert len(marks) == 81
    assert marks[0] == "4" and marks[6] == "8"  # givens stay themselves
    assert all(len(m) >= 1 for m in marks) and any(len(m) > 1 for m in marks)
    assert "4" not in marks[1]  # r1c2 sees the 4 in r1c1
    search = body["search"]
    # The engine's own run: no guess on this one, as the difficulty panel says.
    assert search["outcome"] == "solved" and search["guesses"] == 0
    assert search["guesses"] == body["grade"]["machine"]["guesses"]
    kinds = [e["kind"] for e in search["events"]]
    assert kinds[0] == "reduce" and "guess" not in kinds and kinds[-1] == "solved"
    story = client.get(f"/api/explain?puzzle={ONE_GUESS}").get_json()["search"]
    guess = next(e for e in story["events"] if e["kind"] == "guess")
    assert guess["cell"] == "r9c3" and guess["candidates"] == ["8", "9"]


def test_grade_cut_short_is_an_upper_bound_and_not_cached(app: Any) -> None:
    puzzle = _puzzle_graded("Fiendish", "Hard")
    app.config["GRADE_DEADLINE_MS"] = 0  # every rung past Medium is "out of time"
    client = app.test_client()
    response = client.get(f"/p/{puzzle}/difficulty")
    assert response.status_code == 200
    panel = _panel_of(response.get_data(as_text=True))
    assert "</strong> at most</h2>" in panel  # under the page's own h1
    assert "upper bound" in panel
    assert "no-store" in response.headers["Cache-Control"]
    assert "ETag" not in response.headers
    assert "public" not in response.headers["Cache-Control"]
    # Not kept either: asked again, it is worked out again (and still not cacheable).
    again = client.get(f"/p/{puzzle}/difficulty")
    assert "no-store" in again.headers["Cache-Control"] and "ETag" not in again.headers


def test_result_page_stays_cacheable_when_the_grade_is_cut_short(app: Any) -> None:
    puzzle = _puzzle_graded("Fiendish", "Hard")
    app.config["GRADE_DEADLINE_MS"] = 0
    response = app.test_client().get(f"/p/{puzzle}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"].startswith("public")
    assert "no-store" not in response.headers["Cache-Control"]
    assert "ETag" in response.headers
    assert "at most" not in response.get_data(as_text=True)


def test_grade_in_time_is_cacheable_and_matches_the_steps_page(client: Any) -> None:
    puzzle = _puzzle_graded("Fiendish")
    response = client.get(f"/p/{puzzle}/difficulty")
    assert "For a person: <strong>Fiendish</strong></h2>" in _panel_of(
        response.get_data(as_text=True)
    )
    assert response.headers["Cache-Control"].startswith("public")
    assert "ETag" in response.headers
    again = client.get(
        f"/p/{puzzle}/difficulty", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304
    steps = client.get(f"/p/{puzzle}/steps").get_data(as_text=True)
    assert "Grade for a person: <strong>Fiendish</strong>" in steps
    page = client.get(f"/p/{puzzle}")
    assert page.headers["Cache-Control"].startswith("public") and "ETag" in page.headers


# ---- Hints from pencil marks and hints that point ------------------------------------------


def _flat_marks(drop: tuple[int, int] | None = None) -> str:
    """EASY's pencil marks as 729 characters, optionally without one (cell, digit)."""
    from sudoku_web.core.logic import pencil_marks

    marks = pencil_marks(EASY, standard(9))
    out = []
    for cell, (value, mask) in enumerate(zip(marks.values, marks.masks, strict=True)):
        for d in range(1, 10):
            keep = value == d or (not value and mask >> (d - 1) & 1)
            out.append(str(d) if keep and (cell, d) != drop else ".")
    return "".join(out)


def test_hint_from_pencil_marks_that_lost_a_cells_digit_says_so(client: Any) -> None:
    from sudoku_web.core.logic import pencil_marks

    # A cell's own digit struck from the person's marks (a cell left with two candidates or
    # more, so it stays open): every later step would mislead.
    marks = pencil_marks(EASY, standard(9))
    cell = next(c for c, m in enumerate(marks.masks) if m.bit_count() >= 3)
    text = _flat_marks(drop=(cell, int(EASY_SOLUTION[cell])))
    page = client.post("/hint", data={"paste": text}).get_data(as_text=True)
    name = standard(9).cell_name(cell)
    assert f"Your pencil marks in {name} leave out the digit" in _panel(page)
    assert re.search(rf'<td class="[^"]*\bwrong\b[^"]*"><label[^>]*for="cells-{cell}"', page)


def test_hint_from_whole_pencil_marks_is_the_next_step(client: Any) -> None:
    page = client.post("/hint", data={"paste": _flat_marks()}).get_data(as_text=True)
    assert "Next: " in _panel(page)
    # The marks stay in the box for the next press; the grid shows the placed cells.
    assert re.search(r"<textarea[^>]*>\s*[1-9.]{729}</textarea>", page)


def test_a_hint_past_its_deadline_says_it_only_removes_candidates() -> None:
    """A hard puzzle whose next digit lies several elimination steps away: with no time the
    hint is the first step found, marked cut short on the page and in the API, never a
    placement presented as the next digit; with time it reaches a placement."""
    steps = explain(HARD, standard(9)).steps
    stall = next(s for s in steps if s.technique not in ("Hidden single", "Naked single"))
    grid = list(stall.before.values)  # no single left here: the hint starts by eliminating
    puzzle = "".join(map(str, grid))
    full = hint_steps(grid, standard(9))
    assert not full.cut_short and full.last is not None and full.last.placements
    assert len(full.steps) > 1  # the way to the placement passes eliminations
    hurried = create_app({"TESTING": True, "EXPLAIN_DEADLINE_MS": 0})
    with hurried.test_request_context():
        cut = hint_steps(grid, standard(9), deadline_ms=0)
    assert cut.cut_short and len(cut.steps) == 1 and not cut.steps[0].placements
    page = _post_hint(hurried.test_client(), puzzle).get_data(as_text=True)
    assert "reached its time limit after these steps" in _panel(page)
    body = (
        hurried.test_client()
        .post("/api/hint", json={"puzzle": puzzle, "entries": puzzle})
        .get_json()
    )
    assert body["cut_short"] is True and not any(s["placements"] for s in body["steps"])


def test_a_16x16_of_singles_is_not_split_into_pages_of_six(client: Any) -> None:
    """Its singles draw no grid (their sentences say it all), so a page holds 20 steps."""
    page = client.get(f"/p/{SIXTEEN_PUZZLE}/steps").get_data(as_text=True)
    shown = set(re.findall(r'id="step-(\d+)"', page))
    assert len(shown) == 20
    pages = re.findall(r'aria-label="Step pages">.*?</nav>', page, re.S)[0]
    total = int(re.search(r"(\d+) steps\.", page).group(1))  # type: ignore[union-attr]
    assert pages.count("<li>") <= -(-total // 20) + 1


def test_a_pencil_grid_strikes_only_the_steps_marks_and_shares_nothing_else() -> None:
    from sudoku_web.web.render.teaching_display import pencil_grid

    geo = standard(9)
    top95 = (Path(__file__).parent / "data" / "top95.txt").read_text().split()
    explanation = explain(top95[0][:81], geo)
    step = next(s for s in explanation.steps if s.eliminations)
    html = str(pencil_grid(geo, step.before, explanation.givens, step).rows_html())
    struck = re.findall(r'<i class="struck">(\w)</i>', html)
    assert sorted(struck) == sorted(geo.symbol(d) for _, d in step.eliminations)
    # The same candidates drawn for no step: nothing struck, and every open cell lists exactly
    # its candidates (the plain marks are shared between grids, so a struck one must not stick).
    plain = str(pencil_grid(geo, step.before, explanation.givens).rows_html())
    assert "struck" not in plain and "placed" not in plain
    cells = re.findall(r"<td[^>]*>(.*?)</td>", plain)
    assert len(cells) == 81
    for cell, (value, mask) in enumerate(zip(step.before.values, step.before.masks, strict=True)):
        if value:
            assert cells[cell] == geo.symbol(value)
        else:
            shown = re.findall(r"<i>(\w?)</i>", cells[cell])
            assert shown == [geo.symbol(d) if mask >> (d - 1) & 1 else "" for d in range(1, 10)]


def test_the_shared_pencil_marks_stay_bounded_on_big_boards(monkeypatch: Any) -> None:
    from sudoku_web.web.render import teaching_display

    monkeypatch.setattr(teaching_display, "_PLAIN_MARKS", {})
    sixteen = standard(16)
    for mask in range(1, 3 * teaching_display.PLAIN_MARKS_KEPT):
        marks, html = teaching_display._plain_marks(sixteen, mask)
        assert len(marks) == 16 and html.startswith('<span class="pm">')
    assert len(teaching_display._PLAIN_MARKS) == teaching_display.PLAIN_MARKS_KEPT
