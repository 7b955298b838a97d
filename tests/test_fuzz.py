"""Hostile input against the form, share links and the API: never a 5xx, always a documented
status and a well-formed page or JSON body (hypothesis; ~10 s in all).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_web import create_app

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text people (and scripts) might send: puzzle-like symbols, separators, any Unicode (also
# surrogate-free control characters and NUL), sometimes long.
PUZZLEISH = st.text(alphabet="0123456789.-_ |+\n\r\tABCDEFGabcxX", max_size=400)
ANY_TEXT = st.text(max_size=300)
LONG = st.integers(min_value=1_900, max_value=40_000).map(lambda n: "7" * n)
TEXT = st.one_of(PUZZLEISH, ANY_TEXT, LONG)

PAGE_STATUSES = {200, 301, 303, 308, 404, 405, 413, 414, 422}
API_STATUSES = {200, 400, 404, 405, 413, 414, 422}


class _Checker(HTMLParser):
    """Parses a page and notes that it has an <html> root and a <main>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app({"TESTING": True}).test_client()


def _check_page(response: Any) -> None:
    assert response.status_code in PAGE_STATUSES, response.status_code
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    if response.status_code in (301, 303, 308):
        assert response.headers["Location"]
        return
    assert response.mimetype == "text/html"
    checker = _Checker()
    checker.feed(response.get_data(as_text=True))
    checker.close()
    assert {"html", "body", "h1"} <= checker.tags


def _check_api(response: Any) -> dict[str, Any]:
    assert response.status_code in API_STATUSES, response.status_code
    assert response.mimetype == "application/json"
    body = json.loads(response.get_data(as_text=True))
    assert isinstance(body, dict) and body["status"] in {
        "solved",
        "multiple",
        "unsolvable",
        "gave_up",
        "invalid",
        "error",
    }
    if response.status_code == 200:
        assert body["status"] not in ("invalid", "error")
    elif response.status_code == 422:
        assert body["status"] == "invalid" and body["errors"]
    else:
        assert body["status"] == "error" and body["code"] == response.status_code
    return body


@FUZZ
@given(paste=TEXT, cells=st.lists(st.text(max_size=3), max_size=90), extra=ANY_TEXT)
def test_form_post(client: Any, paste: str, cells: list[str], extra: str) -> None:
    data = {"paste": paste, "v": extra[:20]} | {f"cells-{i}": c for i, c in enumerate(cells)}
    _check_page(client.post("/", data=data))


@FUZZ
@given(body=st.binary(max_size=2_000), ctype=st.sampled_from(
    ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain",
     "application/json", "application/octet-stream", ""]
))  # fmt: skip
def test_form_post_raw_bodies(client: Any, body: bytes, ctype: str) -> None:
    _check_page(client.post("/", data=body, content_type=ctype or None))


@FUZZ
@given(text=TEXT, prefix=st.sampled_from(["/p/", "/x/", "/hyper/", "/jigsaw/ABC/", "/?p="]))
def test_share_links(client: Any, text: str, prefix: str) -> None:
    path = prefix + quote(text, safe="") if text else prefix + "0"
    _check_page(client.get(path))


@FUZZ
@given(text=TEXT, variant=st.one_of(st.none(), st.sampled_from(["x", "jigsaw", "?", "hyper"])))
def test_api_get(client: Any, text: str, variant: str | None) -> None:
    query = {"puzzle": text} | ({"variant": variant} if variant else {})
    _check_api(client.get("/api/solve", query_string=query))


@FUZZ
@given(
    payload=st.one_of(
        st.dictionaries(st.sampled_from(["puzzle", "variant", "regions", "x"]),
                        st.one_of(TEXT, st.integers(), st.none(), st.lists(st.integers()))),
        st.text(max_size=200),
        st.lists(st.integers(), max_size=5),
        st.integers(),
    ),
)  # fmt: skip
def test_api_post_json(client: Any, payload: object) -> None:
    _check_api(client.post("/api/solve", json=payload))


@FUZZ
@given(body=st.binary(max_size=20_000), ctype=st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded", "image/png", ""]
))  # fmt: skip
def test_api_post_raw_bodies(client: Any, body: bytes, ctype: str) -> None:
    _check_api(client.post("/api/solve", data=body, content_type=ctype or None))


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("path", ["/", "/p/" + "0" * 81, "/api/solve", "/healthz"])
def test_wrong_methods(client: Any, method: str, path: str) -> None:
    response = client.open(path, method=method)
    if method == "OPTIONS":  # Flask answers OPTIONS itself with Allow
        assert response.status_code == 200 and response.headers["Allow"]
    elif path.startswith("/api/"):
        assert _check_api(response)["code"] == 405
    else:
        assert response.status_code == 405
        _check_page(response)


def test_huge_bodies(client: Any) -> None:
    big = b"1" * 1_000_000
    _check_page(client.post("/", data=big, content_type="application/x-www-form-urlencoded"))
    assert (
        _check_api(client.post("/api/solve", data=big, content_type="application/json"))["code"]
        == 413
    )
