"""Killers on the web: the form's cages, share links, every page of a killer, the API.

The puzzles are published killers (tests/data/killer_krazydad.txt, ``cagemap:sums:solution``):
no givens, the cages alone make the puzzle.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from sudoku_web.core.board import standard, x_sudoku
from sudoku_web.core.cages import format_cages, link_spelling, parse_cages

DATA = Path(__file__).parent / "data" / "killer_krazydad.txt"
KILLERS = [line.strip() for line in DATA.read_text().splitlines() if line.strip()]
EMPTY = "0" * 81


def _parts(line: str) -> tuple[str, str, str]:
    cage_map, sums, solution = line.split(":")
    return cage_map, sums, solution


def _board(line: str) -> Any:
    return standard(9).with_cages(parse_cages(line, standard(9)))


def _link(line: str, givens: str = EMPTY, prefix: str = "killer") -> str:
    """A killer's canonical link: its cages, then its givens when it has any."""
    geo = _board(line)
    tail = f"/{givens}" if givens.strip("0") else ""
    return f"/{prefix}/{link_spelling(geo.cages, geo)}{tail}"


def _form(cages: str, v: str = "killer", cells: dict[int, str] | None = None) -> dict[str, str]:
    data = {"v": v, "cages": cages}
    for i in range(81):
        data[f"cells-{i}"] = (cells or {}).get(i, "")
    return data


def _problems(html: str) -> list[str]:
    return re.findall(r'class="problem problem-\w+">(.*?)</li>', html)


def _text(response: Any) -> str:
    return str(response.get_data(as_text=True))


# ---- The form ----------------------------------------------------------------------------------


def test_the_killer_form_offers_a_cages_box_that_says_what_it_reads(client: Any) -> None:
    page = _text(client.get("/?v=killer"))
    assert "<h1>Solve a Killer sudoku</h1>" in page
    assert 'name="cages"' in page and "15: r1c1 r1c2 r2c1" in page  # the formats, in words
    assert 'href="/?v=killer" aria-current="page"' in page  # the picker entry
    # Other boards offer cages as an option of their own form.
    assert 'name="cages"' in _text(client.get("/?v=x"))


@pytest.mark.parametrize("spelling", ["lines", "map", "line"])
def test_cages_typed_in_any_spelling_lead_to_one_canonical_killer_link(
    client: Any, spelling: str
) -> None:
    line = KILLERS[0]
    geo = _board(line)
    cage_map, sums, _ = _parts(line)
    text = {
        "lines": format_cages(geo.cages, geo),
        "map": "\n".join(cage_map[r * 9 : r * 9 + 9] for r in range(9)) + "\n" + sums,
        "line": f"{cage_map}:{sums}",
    }[spelling]
    response = client.post("/", data=_form(text))
    assert response.status_code == 303
    assert urlsplit(response.headers["Location"]).path == _link(line)


def test_a_killer_with_no_givens_is_solved_and_its_cages_drawn(client: Any) -> None:
    line = KILLERS[1]
    geo = _board(line)
    page = _text(client.get(_link(line)))
    assert 'class="status status-solved"' in page
    assert "9x9 Killer sudoku" in page
    assert page.count('class="cage-sum"') == len(geo.cages)  # each sum once, in its cage
    solution = _parts(line)[2]
    cells = re.findall(
        r'<td class="cell solved[^"]*"[^>]*>(?:<span[^>]*>\d+</span>)?(\w)</td>', page
    )
    assert "".join(cells) == solution
    # No digit was given: the legend does not speak of givens that are not there.
    assert "digits are the givens" not in page
    assert "no given digits, only its cage sums" in page


def test_a_killer_with_givens_keeps_the_givens_legend(client: Any) -> None:
    line = KILLERS[1]
    solution = _parts(line)[2]
    page = _text(client.get(_link(line, givens=solution[:9] + EMPTY[9:])))
    assert 'class="status status-solved"' in page
    assert "digits are the givens" in page


def test_bad_cages_on_the_form_are_a_422_naming_the_cells(client: Any) -> None:
    response = client.post("/", data=_form("15: r1c1 r1c2\n9: r1c2 r1c3\n99: r2c1"))
    assert response.status_code == 422
    problems = _problems(_text(response))
    assert any("overlap at r1c2" in p for p in problems)
    assert any("r2c1" in p and "99" in p for p in problems)
    assert 'aria-invalid="true"' in _text(response)  # the cages box is marked


def test_a_killer_form_without_cages_says_so(client: Any) -> None:
    response = client.post("/", data=_form(""))
    assert response.status_code == 422
    assert any("needs its cages" in p for p in _problems(_text(response)))


def test_a_given_that_breaks_its_cage_is_reported(client: Any) -> None:
    # The cage r1c1+r1c2 adds up to 4 (1+3): a 9 in r1c1 cannot be in it.
    response = client.post(
        "/", data=_form(f"{_parts(KILLERS[0])[0]}:{_parts(KILLERS[0])[1]}", cells={0: "9"})
    )
    assert response.status_code == 422
    assert any("r1c1" in p for p in _problems(_text(response)))


def test_cages_on_an_x_board_make_a_killer_x_link(client: Any) -> None:
    response = client.post("/", data=_form("3: r1c1 r1c2", v="x", cells={0: "1"}))
    assert response.status_code == 303
    assert urlsplit(response.headers["Location"]).path.startswith("/killer-x/AA___")


def test_edit_this_puzzle_reopens_the_form_with_its_cages(client: Any) -> None:
    page = _text(client.get(_link(KILLERS[0])))
    edit = re.search(r'href="(/\?v=killer&amp;k=[^"]*)"', page)
    assert edit is not None
    query = parse_qs(urlsplit(edit.group(1).replace("&amp;", "&")).query)
    assert query["k"] == [_link(KILLERS[0]).split("/")[2]]
    form = _text(client.get(edit.group(1).replace("&amp;", "&")))
    assert re.search(r"<textarea[^>]*name=\"cages\"[^>]*>\s*4: r1c1 r1c2", form)
    assert form.count('class="cage-sum"') == len(_board(KILLERS[0]).cages)


def test_the_print_page_draws_the_cages(client: Any) -> None:
    k = _link(KILLERS[0]).split("/")[2]
    page = _text(client.get(f"/print?v=killer&k={k}"))
    assert page.count('class="cage-sum"') == len(_board(KILLERS[0]).cages)


# ---- Share links -------------------------------------------------------------------------------


def test_other_spellings_of_a_killer_link_redirect_to_the_canonical_one(client: Any) -> None:
    line = KILLERS[0]
    link = _link(line)
    cages = link.split("/")[2]
    relabelled = cages.translate(str.maketrans("AB", "BA"))  # other labels, same cages
    for other in (f"/killer/{relabelled}/{EMPTY}", f"/killer/{cages}/{'.' * 81}"):
        response = client.get(other + "/steps?step=2")
        assert response.status_code == 301
        assert response.headers["Location"].endswith(link + "/steps?step=2")


@pytest.mark.parametrize("page", ["", "/steps", "/search", "/difficulty", "/play", ".png"])
def test_a_killer_without_givens_has_no_zeros_in_its_link(client: Any, page: str) -> None:
    """The cages alone are its link; the old link with 81 zeros still opens it, by a 301."""
    line = KILLERS[0]
    link = _link(line)
    assert link.count("/") == 2 and "/0000" not in link
    assert client.get(link + page).status_code == 200
    old = client.get(f"{link}/{EMPTY}{page}")
    assert old.status_code == 301
    assert urlsplit(old.headers["Location"]).path == link + page


def test_a_killer_without_givens_is_not_said_to_have_givens(client: Any) -> None:
    link = _link(KILLERS[0])
    cages = len(_board(KILLERS[0]).cages)
    result = _text(client.get(link))
    assert "Bold" not in result and f"with {cages} cages and no givens" in result
    # Every link on the page is the short one (no run of 81 zeros anywhere).
    assert "0" * 81 not in result
    steps = _text(client.get(link + "/steps"))
    assert "givens" not in steps.partition('class="legend"')[2].partition("</p>")[0]
    assert f"with {cages} cages and no givens" in _text(client.get(link + "/play"))
    # With givens the legend still names them.
    line = KILLERS[0]
    solution = line.split(":")[2]
    with_givens = _text(client.get(_link(line, givens=solution[:9] + EMPTY[9:]) + "/steps"))
    assert "Bold digits are givens" in with_givens


@pytest.mark.parametrize(
    "suffix", ["/steps", "/search", "/difficulty", ".png", "/play", "/play.png"]
)
def test_every_page_of_a_killer_answers(client: Any, suffix: str) -> None:
    response = client.get(_link(KILLERS[2]) + suffix)
    assert response.status_code == 200
    if suffix == "/play":
        page = _text(response)
        assert _parts(KILLERS[2])[2] not in page  # no solution in the page
        assert 'data-cages="' in page and page.count('class="cage-sum"') > 0


def test_bad_cages_in_a_link_are_the_422_page(client: Any) -> None:
    response = client.get(f"/killer/AB-3/{EMPTY}")
    assert response.status_code == 422
    assert "cages" in _text(response)


# ---- API ---------------------------------------------------------------------------------------


def _api_cages(line: str, names: bool = True) -> list[dict[str, Any]]:
    geo = _board(line)
    return [
        {"sum": c.total, "cells": [geo.cell_name(x) if names else x for x in c.cells]}
        for c in geo.cages
    ]


@pytest.mark.parametrize("names", [True, False])
def test_api_solve_takes_cages_as_names_or_indices(client: Any, names: bool) -> None:
    line = KILLERS[3]
    body = client.post("/api/solve", json={"variant": "killer", "cages": _api_cages(line, names)})
    answer = body.get_json()
    assert body.status_code == 200 and answer["status"] == "solved"
    assert answer["solution"] == _parts(line)[2]
    assert answer["cages"] == _api_cages(line)
    assert urlsplit(answer["share_url"]).path == _link(line)


def test_api_cages_on_an_x_board_are_killer_x(client: Any) -> None:
    answer = client.post(
        "/api/solve", json={"variant": "x", "puzzle": EMPTY, "cages": _api_cages(KILLERS[0])}
    ).get_json()
    assert answer["variant"] == "x" and "/killer-x/" in answer["share_url"]


def test_api_bad_cages_are_a_422_naming_the_cells(client: Any) -> None:
    cages = [{"sum": 3, "cells": ["r1c1", "r1c2"]}, {"sum": 5, "cells": ["r1c2", "r9c9"]}]
    response = client.post("/api/solve", json={"puzzle": EMPTY, "cages": cages})
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert any(e["code"] == "cage" and e["cells"] == ["r1c2"] for e in errors)


@pytest.mark.parametrize("endpoint", ["explain", "check", "hint"])
def test_api_explain_check_and_hint_take_cages(client: Any, endpoint: str) -> None:
    body = {"variant": "killer", "puzzle": EMPTY, "cages": _api_cages(KILLERS[0])}
    response = client.post(f"/api/{endpoint}", json=body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["status"] == "solved"


def test_api_killer_without_cages_or_with_cages_of_the_wrong_type(client: Any) -> None:
    response = client.post("/api/solve", json={"variant": "killer", "puzzle": EMPTY})
    assert response.status_code == 422
    assert "needs its cages" in response.get_json()["errors"][0]["message"]
    response = client.post("/api/solve", json={"puzzle": EMPTY, "cages": 5})
    assert response.status_code == 400


# ---- Hostile input -----------------------------------------------------------------------------


def test_81_one_cell_cages_are_a_valid_killer(client: Any) -> None:
    solution = _parts(KILLERS[0])[2]
    cages = [{"sum": int(d), "cells": [i]} for i, d in enumerate(solution)]
    answer = client.post("/api/solve", json={"puzzle": EMPTY, "cages": cages}).get_json()
    assert answer["status"] == "solved" and answer["solution"] == solution


@pytest.mark.parametrize(
    "cages",
    [
        [{"sum": 1, "cells": [i]} for i in range(82)],  # more cages than cells
        [{"sum": 10**40, "cells": ["r1c1"]}],  # a sum no cage makes
        [{"sum": 5, "cells": ["r1c1"] * 200}],  # a cell listed over and over
        [{"sum": 5, "cells": [{"nested": [1]}]}],  # not a cell
    ],
)
def test_hostile_api_cages_are_a_clear_4xx(client: Any, cages: Any) -> None:
    response = client.post("/api/solve", json={"puzzle": EMPTY, "cages": cages})
    assert 400 <= response.status_code < 500
    assert response.get_json()["status"] in ("invalid", "error")


@pytest.mark.parametrize(
    "text",
    [
        "1: r1c1\n" * 2500,  # 20 KB of cage lines
        "".join(chr(0x4E00 + i) for i in range(1000))
        + "\n"
        + ",".join(["5"] * 1000),  # 1,000 labels
        "45: " + " ".join(f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)) * 3,
    ],
)
def test_hostile_cage_text_on_the_form_is_a_clear_4xx(client: Any, text: str) -> None:
    response = client.post("/", data=_form(text))
    assert 400 <= response.status_code < 500
    if response.status_code == 422:
        assert _problems(_text(response))


def test_x_4x4_board_with_cages_links_back_to_its_form(client: Any) -> None:
    geo = x_sudoku(4).with_cages(parse_cages("3: r1c1 r1c2", x_sudoku(4)))
    link = f"/killer-x/{link_spelling(geo.cages, geo)}/1000000000000000"
    page = _text(client.get(link))
    assert "4x4 Killer X-sudoku" in page
