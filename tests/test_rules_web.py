"""Rules through the app: the form's paste box, the rules page and its share link, the JSON
API's ``fpuzzles`` and ``rules`` fields, and the command line's ``--fpuzzles``/``--rules``."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from benchmarks import hostile
from sudoku_web import create_app
from sudoku_web.cli import main
from sudoku_web.core.rules import fpuzzles
from sudoku_web.core.rules.board import build
from sudoku_web.core.rules.spelling import parse

DATA = Path(__file__).parent / "data"
FIRST = json.loads((DATA / "variants_fpuzzles.jsonl").read_text().splitlines()[0])
LOAD = FIRST["load"]
EMPTY9 = [[{} for _ in range(9)] for _ in range(9)]


def test_pasted_fpuzzles_link_opens_the_rules_page_and_its_share_link_round_trips(
    client: Any,
) -> None:
    sent = client.post("/", data={"paste": f"https://www.f-puzzles.com/?load={LOAD}"})
    assert sent.status_code == 303
    page = client.get(sent.headers["Location"])
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Solved" in text and "Open in f-puzzles" in text
    assert "Along a thermometer, digits strictly increase from the bulb." in text
    for digit_row in re.findall(r"\d{9}", FIRST["solution"]):
        assert digit_row  # the solution's digits are on the page, cell by cell
    share = re.search(r'href="https?://[^/]+(/rules/[^"]+)"', text)
    assert share is not None
    assert client.get(share[1]).status_code == 200
    opener = re.search(r'class="share-link fpuzzles-link"><a href="([^"]+)"', text)
    assert opener is not None
    fp = client.get(html.unescape(opener[1])).headers["Location"]
    assert fp.startswith("https://f-puzzles.com/?load=")
    again = client.post("/", data={"paste": fp})
    assert again.headers["Location"] == sent.headers["Location"]


def test_other_spellings_of_a_rules_link_redirect_to_the_one_link(client: Any) -> None:
    canonical = client.post("/", data={"paste": LOAD}).headers["Location"]
    givens, rules = canonical.split("/")[2:4]
    reordered = ".".join(reversed(rules.split(".")))
    moved = client.get(f"/rules/{givens.replace('0', '.')}/{reordered}")
    assert moved.status_code == 301
    assert moved.headers["Location"].endswith(canonical)


@pytest.mark.parametrize(
    ("paste", "words"),
    [
        (
            json.dumps({"size": 9, "grid": EMPTY9, "zipperline": [{"lines": [["R1C1", "R1C2"]]}]}),
            "zipper lines, which sudoku-web does not know yet",
        ),
        ("https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA", "only its shapes"),
        (
            json.dumps({"size": 9, "grid": EMPTY9, "thermometer": [{"lines": [["R1C1", "R5C5"]]}]}),
            "r1c1 to r5c5, which do not touch",
        ),
    ],
)
def test_refused_pastes_say_why(client: Any, paste: str, words: str) -> None:
    answer = client.post("/", data={"paste": paste})
    assert answer.status_code == 422
    assert words in answer.get_data(as_text=True)


def test_bad_rules_link_is_422(client: Any) -> None:
    answer = client.get("/rules/" + "0" * 81 + "/th_1113")
    assert answer.status_code == 422
    assert "do not touch" in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    "source",
    [
        LOAD,
        FIRST["fpuzzles"],
        f"https://sudokupad.app/fpuzzles{LOAD}",
        f"https://f-puzzles.com/?load={LOAD}",
    ],
)
def test_api_solves_an_fpuzzles_puzzle(client: Any, source: object) -> None:
    answer = client.post("/api/solve", json={"fpuzzles": source})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["status"] == "solved"
    assert body["solution"] == FIRST["solution"]
    assert "/rules/" in body["share_url"]
    assert body["rules"]


def test_api_takes_our_rules_spelling_and_answers_by_get(client: Any) -> None:
    body = client.post("/api/solve", json={"puzzle": "", "fpuzzles": LOAD}).get_json()
    rules = body["rules"]
    puzzle = body["puzzle"]
    again = client.get("/api/solve", query_string={"puzzle": puzzle, "rules": rules})
    assert again.status_code == 200
    assert again.get_json()["solution"] == FIRST["solution"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (
            {"puzzle": "1" + "." * 80, "rules": "th_" + "1121" * 300},
            422,
            "cannot strictly increase",
        ),
        ({"puzzle": "1" + "." * 80, "rules": "th_11121314151617181929"}, 422, "more than 9"),
        ({"puzzle": "1" + "." * 80, "rules": "ar_11_" + "1213141516171819" * 12}, 422, "twice"),
        ({"puzzle": "1" + "." * 80, "rules": "kc_1112_2"}, 422, "cage"),
        ({"puzzle": "1" + "." * 80, "rules": 3}, 400, '"rules" must be a string'),
        ({"fpuzzles": 3}, 400, '"fpuzzles" must be'),
        ({"fpuzzles": LOAD, "cages": "x"}, 400, "killer-cage rules"),
        ({"fpuzzles": "zz"}, 422, "does not decompress"),
    ],
)
def test_api_bad_rules_are_4xx_naming_the_problem(
    client: Any, body: dict[str, object], status: int, words: str
) -> None:
    answer = client.post("/api/solve", json=body)
    assert answer.status_code == status
    assert words in str(answer.get_json())


def test_contradictory_dots_are_unsolvable_not_an_error(client: Any) -> None:
    # A white dot needs neighbours 1 apart; a black dot one double the other; both on one
    # pair of a 4x4 leaves 1-2 and 2-1, and an X beside them needs a sum of 10 on a 4x4.
    body = client.post(
        "/api/solve", json={"puzzle": "." * 16, "rules": "kr_w_1112.kr_b_1112.xv_x_1213"}
    ).get_json()
    assert body["status"] == "unsolvable"


def test_cli_solves_an_fpuzzles_link_and_our_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--fpuzzles", f"https://f-puzzles.com/?load={LOAD}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == FIRST["solution"]
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(FIRST["fpuzzles"]))
    assert main(["solve", "--fpuzzles", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "solved"
    assert main(["solve", "--rules", "th_1113", "1" + "." * 80]) == 1
    assert "do not touch" in capsys.readouterr().err


def test_explain_reads_the_rules(client: Any) -> None:
    answer = client.post("/api/explain", json={"fpuzzles": LOAD})
    assert answer.status_code == 200
    techniques = {step["technique"] for step in answer.get_json()["steps"]}
    assert techniques & {"Thermometer", "Arrow sum", "Anti-king"}


def test_a_paste_whose_link_would_be_too_long_says_so(client: Any) -> None:
    """A thousand cells of thermometers spell a link past MAX_URL_LENGTH: the paste says why
    it cannot open by link, and where it can go, instead of a redirect to a 414."""
    rules = hostile.thermometers16(random.Random(1))
    paste = fpuzzles.load_string(build(16, parse(rules, 16), None), [0] * 256)
    answer = client.post("/", data={"paste": paste})
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "more than the 2,048 a link may have here" in page and "/api/solve" in page
    # The API takes it (within the shipped deadlines: solved, or an honest "gave_up").
    shipped = create_app({"TESTING": True}).test_client()
    solved = shipped.post("/api/solve", json={"fpuzzles": paste})
    assert solved.status_code == 200
    assert solved.get_json()["status"] in ("solved", "gave_up")
