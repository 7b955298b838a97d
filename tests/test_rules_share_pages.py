"""Every page under a rules puzzle's share link, and the play JSON with rules.

A board with rules has the link ``/rules/<givens>/<rules>[/<regions>]``
(:mod:`sudoku_web.core.rules.links`), routed by the same share-route machinery as every
other board (:func:`sudoku_web.web.puzzles.request_path.add_share_routes`): its result page,
``.png``, ``/steps``, ``/search``, ``/difficulty``, ``/play`` and ``/play.png`` each answer,
draw the rules and say them in words; other spellings answer ``301``; ``/api/check`` and
``/api/hint`` take the board as ``rules`` (the play page's way) or ``fpuzzles``. Puzzles: a few
published ones (tests/data/variants_fpuzzles.jsonl: a plain board, one with killer cages, one
with the diagonals, one on a region map) and a few of our own
(tests/data/rules_explain_puzzles.jsonl, 6x6 and 9x9).
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from sudoku_web import create_app
from sudoku_web.core.board import Geometry
from sudoku_web.core.rules import fpuzzles, links

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class RulesPuzzle:
    """A rules puzzle as its link spells it, with its solution."""

    name: str
    geometry: Geometry
    givens: str  # 0 for a blank
    solution: str
    load: str | None  # the f-puzzles load= string, for the published ones

    @property
    def rules(self) -> str:
        return links.parts(self.geometry).rules

    @property
    def regions(self) -> str | None:
        return links.parts(self.geometry).regions

    @property
    def link(self) -> str:
        tail = f"/{self.regions}" if self.regions else ""
        return f"/rules/{links.givens_part(self.givens, self.geometry.size)}/{self.rules}{tail}"


def _published(name: str) -> RulesPuzzle:
    for line in (DATA / "variants_fpuzzles.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["id"] == name:
            imported = fpuzzles.load(row["load"])
            geo = imported.geometry
            givens = "".join(geo.symbol(v) if v else "0" for v in imported.givens)
            return RulesPuzzle(name, geo, givens, row["solution"], row["load"])
    raise LookupError(name)


def _own(name: str) -> RulesPuzzle:
    for line in (DATA / "rules_explain_puzzles.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["id"] == name:
            givens = row["givens"].replace(".", "0")
            geo = links.board(givens, row["rules"], None)
            return RulesPuzzle(name, geo, givens, row["solution"], None)
    raise LookupError(name)


PUZZLES = [
    _published("sudokutools-01"),  # arrows, thermometers, anti-king
    _published("sudokutools-03"),  # killer cages
    _published("sudokutools-07"),  # the diagonals, black dots, little killers
    _published("sudokutools-22"),  # a 7x7 region map, kropki dots
    _own("own-6-wh-1"),  # 6x6 German whispers
    _own("own-9-sw-1"),  # sandwich sums
]
IDS = [p.name for p in PUZZLES]
PAGES = ("", "/steps", "/search", "/difficulty", "/play")
PICTURES = (".png", "/play.png")


def _text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def _says_the_rules(page: str, geometry: Geometry) -> bool:
    text = html.unescape(page)
    return all(rule.WORDS in text for rule in geometry.rules)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=IDS)
def test_every_page_under_a_rules_link_answers_and_draws_the_rules(
    client: Any, puzzle: RulesPuzzle
) -> None:
    for suffix in PAGES:
        response = client.get(puzzle.link + suffix)
        assert response.status_code == 200, suffix
        page = _text(response)
        assert _says_the_rules(page, puzzle.geometry), suffix
        if suffix != "/difficulty":  # a small panel, no grid
            assert '<div class="drawn ' in page, suffix
    for suffix in PICTURES:
        response = client.get(puzzle.link + suffix)
        assert response.status_code == 200, suffix
        assert response.mimetype == "image/png" and response.data.startswith(b"\x89PNG")


@pytest.mark.parametrize("puzzle", PUZZLES[:4], ids=IDS[:4])
def test_the_result_page_links_to_the_pages_under_its_rules_link(
    client: Any, puzzle: RulesPuzzle
) -> None:
    page = html.unescape(_text(client.get(puzzle.link)))
    for suffix in ("/steps", "/search", "/difficulty", "/play"):
        assert f'"{puzzle.link}{suffix}' in page or f"localhost{puzzle.link}{suffix}" in page
    assert f'content="http://localhost{puzzle.link}.png"' in page  # the link preview


@pytest.mark.parametrize("suffix", ("", ".png", *PAGES[1:], "/play.png"))
def test_other_spellings_of_a_rules_link_redirect_to_its_canonical_page(
    client: Any, suffix: str
) -> None:
    puzzle = PUZZLES[0]
    dotted = puzzle.givens.replace("0", ".")
    response = client.get(f"/rules/{dotted}/{puzzle.rules}{suffix}?keep=1")
    assert response.status_code == 301
    assert response.headers["Location"] == f"{puzzle.link}{suffix}?keep=1"
    # The rules in another order are the same puzzle.
    shuffled = ".".join(reversed(puzzle.rules.split(".")))
    response = client.get(f"/rules/{puzzle.givens}/{shuffled}{suffix}")
    assert response.status_code == 301
    assert response.headers["Location"] == f"{puzzle.link}{suffix}"


def test_a_rules_link_without_rules_redirects_to_its_boards_own_link(client: Any) -> None:
    givens = PUZZLES[0].givens
    response = client.get(f"/rules/{givens}/-/steps")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/p/{givens}/steps"


@pytest.mark.parametrize("suffix", ("", ".png", *PAGES[1:], "/play.png"))
def test_a_rules_link_without_givens_names_the_size_and_the_long_spelling_redirects(
    client: Any, suffix: str
) -> None:
    """A grid without givens is spelled by its size (``/rules/9x9/...``): one spelling per
    puzzle, the blank cells spelled out redirecting to it."""
    puzzle = next(p for p in PUZZLES if not p.givens.strip("0") and not p.regions)
    n = puzzle.geometry.size
    assert puzzle.link.startswith(f"/rules/{n}x{n}/")
    assert client.get(puzzle.link + suffix).status_code == 200
    for blank in ("0", "."):
        response = client.get(f"/rules/{blank * n * n}/{puzzle.rules}{suffix}?keep=1")
        assert response.status_code == 301
        assert response.headers["Location"] == f"{puzzle.link}{suffix}?keep=1"


def test_an_empty_grid_of_a_size_no_board_has_is_a_422(client: Any) -> None:
    response = client.get(f"/rules/3x3/{PUZZLES[0].rules}")
    assert response.status_code == 422


def test_the_api_shares_a_rules_puzzle_without_givens_by_its_size(client: Any) -> None:
    puzzle = next(p for p in PUZZLES if not p.givens.strip("0") and not p.regions)
    body = client.post("/api/solve", json={"puzzle": puzzle.givens, "rules": puzzle.rules}).json
    assert body["share_url"] == f"http://localhost{puzzle.link}"


def test_the_older_preview_spelling_redirects_to_the_share_links_picture(client: Any) -> None:
    puzzle = PUZZLES[3]  # on a region map: /rules/<givens>/<rules>/<regions>/preview.png
    response = client.get(puzzle.link + "/preview.png")
    assert response.status_code == 301
    assert response.headers["Location"] == puzzle.link + ".png"


@pytest.mark.parametrize("suffix", PAGES)
def test_a_bad_rules_link_is_a_422_naming_the_cells(client: Any, suffix: str) -> None:
    givens = PUZZLES[0].givens
    response = client.get(f"/rules/{givens}/th_11{suffix}")  # a one-cell thermometer
    assert response.status_code == 422
    assert "r1c1" in html.unescape(_text(response))


def test_a_rules_steps_page_past_its_deadline_says_so() -> None:
    """Bounded like every steps page: cut at once, it says so and is not stored."""
    app = create_app({"TESTING": True, "REQUEST_DEADLINE_MS": None, "EXPLAIN_DEADLINE_MS": 0})
    puzzle = PUZZLES[0]
    response = app.test_client().get(puzzle.link + "/steps")
    page = _text(response)
    assert response.status_code == 200
    assert "The explanation reached its time limit" in page and "at most" in page
    assert "no-store" in response.headers["Cache-Control"]


# ---- Play: the form, and /api/check and /api/hint -------------------------------------------


def _wrong_cell(puzzle: RulesPuzzle) -> tuple[int, str]:
    """An open cell and a digit that is not its solution's."""
    cell = puzzle.givens.index("0")
    right = puzzle.solution[cell]
    return cell, next(d for d in "123456789" if d != right)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=IDS)
def test_the_play_form_checks_and_hints_a_rules_puzzle(client: Any, puzzle: RulesPuzzle) -> None:
    cell, wrong = _wrong_cell(puzzle)
    name = puzzle.geometry.cell_name(cell)
    page = _text(client.post(puzzle.link + "/play", data={f"c{cell}": wrong, "action": "check"}))
    assert name in page and "wrong" in page.lower()
    right = puzzle.solution[cell]
    page = _text(client.post(puzzle.link + "/play", data={f"c{cell}": right, "action": "check"}))
    assert "Nothing is wrong so far" in page
    page = _text(client.post(puzzle.link + "/play", data={"action": "hint"}))
    assert re.search(r"<h2>Next: [^<]+</h2>", page)
    assert '<div class="drawn ' in page


def _play_fields(client: Any, puzzle: RulesPuzzle) -> dict[str, str]:
    """What the play page's script posts about its board (its table's data attributes)."""
    page = _text(client.get(puzzle.link + "/play"))
    table = page.split('<table class="grid', 1)[1].split(">", 1)[0]
    attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', table))
    fields = {"puzzle": attrs["puzzle"], "variant": attrs["variant"]}
    for key in ("regions", "cages", "rules"):
        if attrs.get(key):
            fields[key] = html.unescape(attrs[key])
    return fields


@pytest.mark.parametrize("puzzle", PUZZLES, ids=IDS)
def test_the_play_pages_fields_ask_the_api_about_its_board(
    client: Any, puzzle: RulesPuzzle
) -> None:
    fields = _play_fields(client, puzzle)
    assert fields["rules"] == puzzle.rules and "cages" not in fields
    cell, wrong = _wrong_cell(puzzle)
    entries = puzzle.givens[:cell] + wrong + puzzle.givens[cell + 1 :]
    body = client.post("/api/check", json={**fields, "entries": entries}).json
    assert body["status"] == "solved" and body["kind"] == "wrong"
    assert body["wrong"] == [{"cell": puzzle.geometry.cell_name(cell), "index": cell}]
    assert body["rules"] == puzzle.rules
    hint = client.post("/api/hint", json=fields).json
    assert hint["kind"] == "next" and hint["steps"]
    assert hint["highlight"]["cells"]
    solved = client.post("/api/check", json={**fields, "entries": puzzle.solution}).json
    assert solved["solved"] and solved["complete"]


@pytest.mark.parametrize("puzzle", PUZZLES[:4], ids=IDS[:4])
def test_the_play_api_takes_an_fpuzzles_puzzle(client: Any, puzzle: RulesPuzzle) -> None:
    """The ``fpuzzles`` field (its load= string, or a link holding it) names the board and,
    without ``puzzle``, the givens."""
    assert puzzle.load is not None
    cell, wrong = _wrong_cell(puzzle)
    entries = puzzle.givens[:cell] + wrong + puzzle.givens[cell + 1 :]
    for source in (puzzle.load, f"https://www.f-puzzles.com/?load={puzzle.load}"):
        body = client.post("/api/check", json={"fpuzzles": source, "entries": entries}).json
        assert body["puzzle"] == puzzle.givens and body["kind"] == "wrong"
        hint = client.post("/api/hint", json={"fpuzzles": source}).json
        assert hint["kind"] == "next" and hint["steps"]


def test_the_play_api_refuses_rules_and_cages_together(client: Any) -> None:
    puzzle = PUZZLES[0]
    asked = {"puzzle": puzzle.givens, "rules": puzzle.rules, "cages": "AB-3"}
    response = client.post("/api/check", json=asked)
    assert response.status_code == 400 and "killer-cage rules" in response.json["message"]
    response = client.post("/api/hint", json={"puzzle": puzzle.givens, "rules": 7})
    assert response.status_code == 400 and '"rules" must be a string' in response.json["message"]


def test_a_bad_rule_in_the_play_api_is_a_422_naming_its_cells(client: Any) -> None:
    asked = {"puzzle": PUZZLES[0].givens, "rules": "th_11"}
    response = client.post("/api/check", json=asked)
    assert response.status_code == 422
    assert any("r1c1" in e["cells"] for e in response.json["errors"])


def test_the_api_answers_link_to_the_rules_pages(app: Flask) -> None:
    puzzle = PUZZLES[0]
    client = app.test_client()
    body = client.post("/api/explain", json={"puzzle": puzzle.givens, "rules": puzzle.rules}).json
    assert body["steps_url"] == f"http://localhost{puzzle.link}/steps"
