"""Hostile input against the play routes (``<share link>/play`` and its picture, the play
form's POST, ``/api/check`` and ``/api/hint``): never a 5xx, always a documented status and a
well-formed page, picture or JSON body (hypothesis)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import has_tags
from web_puzzles import (
    EASY,
    FOUR_PUZZLE,
    HYPER_PUZZLE,
    JIGSAW6_PUZZLE,
    JIGSAW6_REGIONS,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    SIXTEEN_PUZZLE,
    TWO_SOLUTIONS,
    X_PUZZLE,
)

from sudoku_web import create_app

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

PUZZLEISH = st.text(alphabet="0123456789.-_ |+\n\r\tABCDEFGabcxX", max_size=400)
ANY_TEXT = st.text(max_size=300)
LONG = st.integers(min_value=1_900, max_value=20_000).map(lambda n: "7" * n)
TEXT = st.one_of(PUZZLEISH, ANY_TEXT, LONG)
CELL_NAMES = st.one_of(
    st.sampled_from(["r1c1", "r9c9", "R2C3", "r16c16", "r0c1", "r1c", "c1r1", "r01c01"]), ANY_TEXT
)
VALUES = st.one_of(
    TEXT, st.integers(), st.none(), st.lists(st.integers(), max_size=3),
    st.dictionaries(CELL_NAMES, st.one_of(TEXT, st.integers(), st.none()), max_size=5),
)  # fmt: skip

# Real games (puzzle, variant, regions), so hostile fields reach the checks behind the reader.
GAMES = [
    (EASY, "standard", None),
    (FOUR_PUZZLE, "standard", None),
    (SIXTEEN_PUZZLE, "standard", None),
    (X_PUZZLE, "x", None),
    (HYPER_PUZZLE, "hyper", None),
    (JIGSAW_PUZZLE, "jigsaw", JIGSAW_REGIONS),
    (JIGSAW6_PUZZLE, "jigsaw", JIGSAW6_REGIONS),
    (TWO_SOLUTIONS, "standard", None),
]
LINKS = [f"/p/{EASY}", f"/x/{X_PUZZLE}", f"/jigsaw/{JIGSAW6_REGIONS}/{JIGSAW6_PUZZLE}"]


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app({"TESTING": True}).test_client()


def _check_page(response: Any) -> None:
    """A page with a heading, a PNG, or a redirect that stays on the site; never a 5xx."""
    assert response.status_code in {200, 301, 308, 404, 413, 414, 422}, response.status_code
    if response.status_code in (301, 308):
        location = response.headers["Location"]
        assert location.startswith("/") and not location.startswith("//"), location
    elif response.mimetype == "image/png":
        assert response.get_data().startswith(b"\x89PNG")
    else:
        assert response.mimetype == "text/html"
        assert has_tags(response.get_data(as_text=True), {"html", "body", "h1"})


def _check_api(response: Any) -> None:
    """JSON saying what happened: 200 for a checked game, 400/413 for a malformed request,
    422 for a bad puzzle, entries or marks or an unplayable puzzle, 503 when the solver gave
    up (another try may do)."""
    assert response.status_code in {200, 400, 413, 422, 503}, response.status_code
    assert response.mimetype == "application/json"
    body = json.loads(response.get_data(as_text=True))
    assert isinstance(body, dict)
    if response.status_code == 200:
        assert body["status"] == "solved" and body["kind"]
    elif response.status_code == 422:
        assert body["status"] in ("invalid", "multiple", "unsolvable")
        assert body.get("errors") or body.get("message")
    elif response.status_code == 503:
        assert body["status"] == "gave_up" and body["message"]
    else:
        assert body["status"] == "error" and body["code"] == response.status_code


@FUZZ
@given(endpoint=st.sampled_from(["/api/check", "/api/hint"]), game=st.sampled_from(GAMES),
       payload=st.dictionaries(
           st.sampled_from(["puzzle", "variant", "regions", "entries", "marks", "reveal"]),
           VALUES, max_size=6,
       ), keep=st.booleans())  # fmt: skip
def test_check_and_hint_with_hostile_fields(
    client: Any, endpoint: str, game: tuple[str, str, str | None], payload: Any, keep: bool
) -> None:
    if keep:
        puzzle, variant, regions = game
        payload = {"puzzle": puzzle, "variant": variant, "regions": regions} | payload
    _check_api(client.post(endpoint, data=json.dumps(payload), content_type="application/json"))


@FUZZ
@given(endpoint=st.sampled_from(["/api/check", "/api/hint"]), body=st.binary(max_size=4_000),
       ctype=st.sampled_from(["application/json", "text/plain", "image/png", ""]))  # fmt: skip
def test_check_and_hint_with_raw_bodies(
    client: Any, endpoint: str, body: bytes, ctype: str
) -> None:
    _check_api(client.post(endpoint, data=body, content_type=ctype or None))


@FUZZ
@given(link=st.sampled_from(LINKS), form=st.dictionaries(
    st.sampled_from(["action", "c0", "c1", "c2", "c40", "c80", "c255", "c-1", "cx"]),
    st.one_of(TEXT, st.sampled_from(["check", "hint", "reveal", ""])), max_size=6,
))  # fmt: skip
def test_play_form_posts(client: Any, link: str, form: dict[str, str]) -> None:
    _check_page(client.post(link + "/play", data=form))


@FUZZ
@given(text=TEXT, suffix=st.sampled_from(["/play", "/play.png"]), prefix=st.sampled_from(
    ["/p/", "/x/", "/hyper/", "/jigsaw/" + "A" * 16 + "/", f"/jigsaw/{JIGSAW_REGIONS}/"]
))  # fmt: skip
def test_play_links_with_hostile_puzzles(client: Any, text: str, suffix: str, prefix: str) -> None:
    response = client.get(prefix + (quote(text, safe="") or "0") + suffix)
    _check_page(response)
    if response.status_code == 301:  # the redirect names the same kind of page
        assert response.headers["Location"].endswith(suffix)
