"""A mistyped cage sum on the web: the page and the API say which cage and what sum.

The puzzles are published killers (tests/data/killer_krazydad.txt, ``cagemap:sums:solution``)
with one sum changed: with every cage kept their sums miss 405 (a 422 that names the likely
sum); with one cage left out the puzzle has no solution (a result page that names it).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from sudoku_web.core.board import Geometry, standard
from sudoku_web.core.cages import Cage, SumsMismatch, link_spelling, parse_cages

DATA = Path(__file__).parent / "data" / "killer_krazydad.txt"
KILLERS = [line.strip() for line in DATA.read_text().splitlines() if line.strip()]
EMPTY = "0" * 81


def _right(line: str) -> tuple[Cage, ...]:
    cage_map, sums, _ = line.split(":")
    return parse_cages(f"{cage_map}:{sums}", standard(9))


def _mistyped(line: str, index: int) -> tuple[Cage, ...]:
    """Every cage of the killer, the ``index``-th sum (in the file's order) one too many."""
    cage_map, sums, _ = line.split(":")
    totals = sums.split(",")
    totals[index] = str(int(totals[index]) + 1)
    with pytest.raises(SumsMismatch) as caught:
        parse_cages(f"{cage_map}:{','.join(totals)}", standard(9))
    return caught.value.cages


def _link(cages: tuple[Cage, ...]) -> str:
    return f"/killer/{link_spelling(cages, standard(9))}"


def _wrong_cage(right: tuple[Cage, ...], typed: tuple[Cage, ...]) -> tuple[Cage, Cage]:
    """(as typed, as published) of the one cage whose sum differs."""
    (typed_cage,) = set(typed) - set(right)
    (right_cage,) = [c for c in right if c.cells == typed_cage.cells]
    return typed_cage, right_cage


def _words(typed: Cage, right: Cage) -> str:
    geo = standard(9)
    n = len(typed.cells)
    where = geo.cell_name(min(typed.cells))
    return f"The cage at {where} ({n} cells) adds up to {right.total}, not {typed.total}?"


def _api_cages(cages: tuple[Cage, ...], geo: Geometry) -> list[dict[str, Any]]:
    return [{"sum": c.total, "cells": [geo.cell_name(x) for x in c.cells]} for c in cages]


def _fix_links(page: str) -> list[tuple[str, str]]:
    """(link, words) of the sum doctor's fixes on a page, most likely first."""
    section = page.split('class="doctor sum-doctor"', 1)[1].split("</section>", 1)[0]
    found = re.findall(r'<a (?:class="button primary" )?href="([^"]+)">([^<]+)</a>', section)
    return [(html.unescape(href), html.unescape(words)) for href, words in found]


@pytest.mark.parametrize("line", KILLERS[:2])
def test_a_share_link_whose_sums_miss_405_names_the_mistyped_cage(client: Any, line: str) -> None:
    right = _right(line)
    typed = _mistyped(line, 5)
    typed_cage, right_cage = _wrong_cage(right, typed)
    response = client.get(_link(typed))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "must add up to 405; they add up to 406" in page  # the problem, as before
    assert "Probably a mistyped sum: try this fix" in page
    fixes = _fix_links(page)
    assert (_link(right), _words(typed_cage, right_cage)) in fixes
    # Every fix offered opens a puzzle with exactly one solution.
    for href, _ in fixes:
        opened = client.get(href)
        assert opened.status_code == 200
        assert "status-solved" in opened.get_data(as_text=True)


def test_the_api_names_the_mistyped_cage_and_the_sum_of_one_solution(client: Any) -> None:
    line = KILLERS[0]
    geo = standard(9)
    typed = _mistyped(line, 5)
    typed_cage, right_cage = _wrong_cage(_right(line), typed)
    response = client.post(
        "/api/solve", json={"variant": "killer", "cages": _api_cages(typed, geo)}
    )
    assert response.status_code == 422
    answer = response.get_json()
    assert answer["status"] == "invalid" and "405" in answer["errors"][0]["message"]
    doctor = answer["doctor"]
    assert doctor["complete"] is True
    cells = [geo.cell_name(c) for c in typed_cage.cells]
    expected = {"cells": cells, "from": typed_cage.total, "to": right_cage.total}
    listed = [{k: fix[k] for k in ("cells", "from", "to")} for fix in doctor["sum_fixes"]]
    assert expected in listed
    fix = doctor["sum_fixes"][listed.index(expected)]
    assert urlsplit(fix["share_url"]).path == _link(_right(line))


def test_an_impossible_killer_names_the_cage_whose_sum_is_wrong(client: Any) -> None:
    """One cage left out (so the sums need not add up to 405) and another's sum one too many:
    no solution; the sum doctor tries nearby sums and finds the published one."""
    line = KILLERS[1]
    geo = standard(9)
    right = _right(line)[1:]
    changed = right[1]
    typed = (right[0], Cage(changed.total + 1, changed.cells), *right[2:])
    link = _link(typed)
    page = client.get(link).get_data(as_text=True)
    assert "status-unsolvable" in page
    assert "Probably a mistyped sum: try this fix" in page
    assert (_link(right), _words(typed[1], changed)) in _fix_links(page)

    body = {"variant": "killer", "puzzle": EMPTY, "cages": _api_cages(typed, geo)}
    answer = client.post("/api/solve", json=body).get_json()
    assert answer["status"] == "unsolvable"
    cells = [geo.cell_name(c) for c in changed.cells]
    listed = answer["doctor"]["sum_fixes"]
    assert {"cells": cells, "from": changed.total + 1, "to": changed.total} in [
        {k: fix[k] for k in ("cells", "from", "to")} for fix in listed
    ]


def test_a_classic_impossible_puzzle_has_no_sum_doctor(client: Any) -> None:
    puzzle = "123456780" + "0" * 8 + "9" + "0" * 63  # r1c9 can only be 9, yet r2c9 holds 9
    answer = client.post("/api/solve", json={"puzzle": puzzle}).get_json()
    assert answer["status"] == "unsolvable"
    assert "sum_fixes" not in answer["doctor"]
    page = client.get(answer["share_url"]).get_data(as_text=True)
    assert "sum-doctor" not in page and "mistyped sum" not in page
    assert "doctor-heading" in page  # the givens' doctor, as before
