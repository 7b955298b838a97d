"""Hostile input against every route (form, hint, every share-link page of every variant,
both APIs): never a 5xx, always a documented status and a well-formed page, picture or JSON
body (hypothesis).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_web import create_app
from sudoku_web.core.variants import VARIANTS

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"

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
    """Parses a page and notes the tags it opens."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)


#: How much of a page the parser reads at a time (see :func:`has_tags`).
PARSE_CHUNK = 2048


def has_tags(page: str, wanted: set[str]) -> bool:
    """True when parsing ``page`` opens every tag of ``wanted``. The page is parsed a chunk
    at a time and no further than the chunk where the last of them opens (the rest cannot
    take a tag back): a result page's <h1> is in its first 2 KB of 35."""
    checker = _Checker()
    for start in range(0, len(page), PARSE_CHUNK):
        checker.feed(page[start : start + PARSE_CHUNK])
        if wanted <= checker.tags:
            return True
    checker.close()
    return wanted <= checker.tags


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app({"TESTING": True}).test_client()


def _check_page(response: Any, heading: bool = True) -> None:
    assert response.status_code in PAGE_STATUSES, response.status_code
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    if response.status_code in (301, 303, 308):
        assert response.headers["Location"]
        return
    assert response.mimetype == "text/html"
    wanted = {"html", "body", "h1"} if heading else {"html", "body"}
    assert has_tags(response.get_data(as_text=True), wanted)


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


# ---- Every route, every variant, odd query parameters ----------------------------------------

# A valid canonical puzzle per variant and size (the registry's examples), so fuzzing reaches
# the pages behind the link reader, and the link of each.
_EXAMPLES = [
    (info, example) for info in VARIANTS for example in info.examples if not example.label
] + [(VARIANTS[0], VARIANTS[0].examples[0])]


def _link(info: Any, example: Any) -> str:
    regions = f"{example.regions}/" if info.takes_regions else ""
    return f"/{info.prefix}/{regions}{example.puzzle}"


LINKS = [_link(info, example) for info, example in _EXAMPLES]
# Killers: the killer entry's example cages on every board that takes cages (its share links
# live under the board's cage_prefix).
_CAGES = next(e.cages for info in VARIANTS for e in info.examples if e.cages)
LINKS += [
    f"/{info.cage_prefix}/{example.regions + '/' if info.takes_regions else ''}{_CAGES}/{'0' * 81}"
    for info, example in _EXAMPLES
    if info.cage_prefix and example.size == 9
]
SUFFIXES = ["", "/steps", "/search", "/difficulty", ".png", "/play", "/play.png"]
# Names that collide with url_for's own arguments or the views' parameters, and plain ones.
ODD_NAMES = ["step", "page", "puzzle", "regions", "_external", "_anchor", "_method", "_scheme",
             "embed", "n", "v", "r", "p", "variant", "x"]  # fmt: skip
ODD_VALUES = st.one_of(
    st.sampled_from(["1", "0", "-1", "٣", "²", "1" * 30, "", "true", "https", "x"]), ANY_TEXT
)
QUERY = st.dictionaries(st.sampled_from(ODD_NAMES), ODD_VALUES, max_size=4)


def _check_any(response: Any) -> None:
    """A page, a picture, a redirect or JSON: never a 5xx, and a redirect stays on the site."""
    assert response.status_code < 500, response.status_code
    if response.status_code in (301, 303, 308):
        location = urlsplit(response.headers["Location"])
        # Our redirects are paths; Werkzeug's own (merging slashes) names the same host.
        assert location.netloc in ("", "localhost") and location.path.startswith("/"), location
    elif response.mimetype == "image/png":
        assert response.get_data().startswith(b"\x89PNG")
    elif response.mimetype == "application/json":
        _check_api(response)
    else:  # the difficulty panel is a page to embed: no heading of its own
        _check_page(response, heading=not response.request.path.endswith("/difficulty"))


@FUZZ
@given(link=st.sampled_from(LINKS), suffix=st.sampled_from(SUFFIXES), query=QUERY,
       spelling=st.sampled_from(["as built", "lower", "dots"]))  # fmt: skip
def test_every_share_link_page_with_odd_queries(
    client: Any, link: str, suffix: str, query: dict[str, str], spelling: str
) -> None:
    if spelling == "lower":
        link = link.lower()
    elif spelling == "dots":
        link = link.replace("0", ".")
    response = client.get(link + suffix, query_string=query)
    _check_any(response)
    if response.status_code == 301:  # the redirect names the same page
        path = response.headers["Location"].split("?")[0]
        assert path.endswith(suffix) if suffix else not path.endswith(tuple(SUFFIXES[1:]))


@FUZZ
@given(text=TEXT, suffix=st.sampled_from(SUFFIXES), prefix=st.sampled_from(
    ["/p/", "/x/", "/hyper/", "/jigsaw/" + "A" * 16 + "/", "/jigsaw/ABC/"]
))  # fmt: skip
def test_every_share_link_page_with_hostile_puzzles(
    client: Any, text: str, suffix: str, prefix: str
) -> None:
    _check_any(client.get(prefix + (quote(text, safe="") or "0") + suffix))


@FUZZ
@given(query=QUERY, method=st.sampled_from(["GET", "POST"]),
       endpoint=st.sampled_from(["/api/solve", "/api/explain"]),
       payload=st.one_of(st.none(), st.dictionaries(
           st.sampled_from(["puzzle", "variant", "regions"]),
           st.one_of(TEXT, st.sampled_from([e.puzzle for _, e in _EXAMPLES]), st.integers()),
       )))  # fmt: skip
def test_both_apis(
    client: Any, query: dict[str, str], method: str, endpoint: str, payload: Any
) -> None:
    if method == "GET":
        _check_api(client.get(endpoint, query_string=query | (payload or {})))
    else:
        _check_api(client.post(endpoint, json=payload, query_string=query))


@FUZZ
@given(form=st.dictionaries(
    st.sampled_from(["v", "n", "regions", "paste", "givens", "cells-0", "cells-80", "cells-300"]),
    st.one_of(ODD_VALUES, TEXT), max_size=5,
), action=st.sampled_from(["/", "/hint"]), query=QUERY)  # fmt: skip
def test_form_and_hint_posts(client: Any, form: dict[str, str], action: str, query: Any) -> None:
    _check_any(client.post(action, data=form, query_string=query))


@FUZZ
@given(query=QUERY)
def test_the_form_with_odd_queries(client: Any, query: dict[str, str]) -> None:
    _check_any(client.get("/", query_string=query))


@FUZZ
@given(query=QUERY, puzzle=st.one_of(TEXT, st.sampled_from([e.puzzle for _, e in _EXAMPLES])))
def test_the_print_page_with_odd_queries(client: Any, query: dict[str, str], puzzle: str) -> None:
    _check_any(client.get("/print", query_string={"p": puzzle} | query))


RULES_TEXT = st.one_of(TEXT, st.sampled_from(["kn", "th_11121314", "ar_11_1112", "lk_01_dr_9"]))


@FUZZ
@given(puzzle=TEXT, rules=RULES_TEXT)
def test_rules_links(client: Any, puzzle: str, rules: str) -> None:
    path = f"/rules/{quote(puzzle or '0', safe='')}/{quote(rules or '-', safe='')}"
    _check_any(client.get(path))


@FUZZ
@given(source=st.one_of(TEXT, st.sampled_from(["{", "N4Ig", "https://sudokupad.app/fpuz"])))
def test_rules_pastes(client: Any, source: str) -> None:
    _check_any(client.post("/rules", data={"fpuzzles": source}))
    _check_any(client.post("/api/solve", json={"fpuzzles": source}))


@FUZZ
@given(puzzle=TEXT, rules=RULES_TEXT)
def test_api_rules(client: Any, puzzle: str, rules: str) -> None:
    _check_any(client.post("/api/solve", json={"puzzle": puzzle, "rules": rules}))


@FUZZ
@given(lang=st.one_of(TEXT, st.sampled_from(["de", "fr", "es", "ja", "en"])), target=TEXT)
def test_the_language_picker(client: Any, lang: str, target: str) -> None:
    """Any language and any way back: a 303 on the site, or a clear 400 (a language the site
    does not have) or 413 (a body past the size limit) that sets no cookie; never a 5xx."""
    response = client.post("/language", data={"lang": lang, "next": target})
    assert response.status_code in (303, 400, 413), response.status_code
    if response.status_code == 303:
        _check_any(response)
    else:
        assert "Set-Cookie" not in response.headers


@FUZZ
@given(code=st.one_of(TEXT, st.sampled_from(["de", "fr", "es", "ja", "en", "DE", "de-AT"])))
def test_the_scripts_words(client: Any, code: str) -> None:
    """Any language name: the scripts' words of a language the site has, else a 404 (a 414
    past the URL limit)."""
    response = client.get(f"/i18n/{quote(code, safe='')}.json")
    assert response.status_code in (200, 404, 414), response.status_code
    if response.status_code == 200:
        assert response.get_json()["lang"] == code


def test_the_favicon_is_the_sites_icon(client: Any) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data().startswith(b"<svg")


def test_every_route_is_fuzzed(client: Any) -> None:
    """A new route must join the fuzzing above: each rule's first segment is one we send."""
    # /api/check, /api/hint and the play form: tests/test_fuzz_play.py
    covered = {"/", "/hint", "/api/solve", "/api/explain", "/api/check", "/api/hint"}
    covered |= {"/healthz", "/static", "/print", "/favicon.ico"}
    covered |= {"/new", "/daily", "/api/generate", "/rules", "/language", "/i18n"}
    # The photo readers (/read, /api/read): tests/test_fuzz_photo.py
    covered |= {"/read", "/api/read"}
    covered |= {f"/{info.prefix}" for info in VARIANTS}
    covered |= {f"/{info.cage_prefix}" for info in VARIANTS if info.cage_prefix}
    for rule in client.application.url_map.iter_rules():
        first = "/" + rule.rule.split("/")[1] if rule.rule != "/" else "/"
        if first == "/api":
            first = rule.rule
        assert first in covered or rule.rule in covered, rule.rule


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (f"/p/{EASY}/steps?step=٣", 404),  # a digit to str.isdigit(), refused by int() here
        (f"/p/{EASY}/steps?step=²", 404),
        ("/?v=jigsaw&n=٣", 200),
        ("/?v=jigsaw&n=²", 200),
        (f"/p/{EASY.replace('0', '.')}/steps?puzzle=x&page=2", 301),
        (f"/p/{EASY.replace('0', '.')}/search?_external=1&_anchor=x", 301),
        # An empty puzzle part: Werkzeug's slash merging used to redirect it, absolutely, to
        # another route ("/p/play"), found by the play fuzzer.
        ("/p/%2F/play", 404),
        ("/p//play", 404),
        ("/p//steps", 404),
        ("/x//p/" + EASY, 404),
    ],
)
def test_known_causes_of_500s_are_4xx(client: Any, path: str, status: int) -> None:
    response = client.get(path)
    assert response.status_code == status
    if status == 301:  # the query is kept as sent; the Location stays a relative path
        location = response.headers["Location"]
        assert location.startswith(f"/p/{EASY}/") and "?" in location


def test_region_map_larger_than_the_grid_is_a_422(client: Any) -> None:
    regions = "".join("ABCDEFGHIJKLMNOP"[c // 16] for c in range(256))  # 16x16, rows
    response = client.post("/", data={"v": "jigsaw", "regions": regions, "paste": "1" + "0" * 80})
    assert response.status_code == 422
    assert "16x16" in response.get_data(as_text=True)


def test_deeply_nested_json_is_a_400(client: Any) -> None:
    body = "[" * 1_000 + "]" * 1_000
    for endpoint in ("/api/solve", "/api/explain"):
        response = client.post(endpoint, data=body, content_type="application/json")
        assert _check_api(response)["code"] == 400


def test_a_lone_surrogate_is_a_400_not_echoed(client: Any) -> None:
    body = '{"puzzle": "\\ud800' + "0" * 80 + '"}'
    for endpoint in ("/api/solve", "/api/explain"):
        response = client.post(endpoint, data=body, content_type="application/json")
        assert _check_api(response)["code"] == 400


def test_a_malformed_chunked_body_is_a_4xx(client: Any) -> None:
    environ = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True}
    for path in ("/api/solve", "/api/explain", "/", "/hint"):
        response = client.post(
            path, data=b"zz\r\nnot a chunk", content_type="application/json",
            environ_overrides=environ,
        )  # fmt: skip
        assert 400 <= response.status_code < 500, path


# ---- New puzzles: /new, /daily, /api/generate ------------------------------------------------

GENERATE_NAMES = ["v", "variant", "size", "n", "grade", "seed", "from"]
GENERATE_VALUES = st.one_of(
    ODD_VALUES,
    st.sampled_from(
        ["x", "hyper", "jigsaw", "4x4", "6x6", "16x16", "standard", "classic", "killer"]
    ),
    st.sampled_from(["Easy", "medium", "HARD", "Fiendish", "diabolical", "9", "16", "4"]),
)
GENERATE_QUERY = st.dictionaries(st.sampled_from(GENERATE_NAMES), GENERATE_VALUES, max_size=4)


@pytest.fixture(scope="module")
def quick_client() -> Any:
    """Live generation cut at one attempt, so a hundred generated puzzles stay quick."""
    return create_app({"TESTING": True, "GENERATE_DEADLINE_MS": 0}).test_client()


@settings(FUZZ, max_examples=60)
@given(query=GENERATE_QUERY, path=st.sampled_from(["/new", "/daily"]))
def test_new_and_daily_with_odd_queries(quick_client: Any, query: Any, path: str) -> None:
    response = quick_client.get(path, query_string=query)
    _check_any(response)
    if response.status_code == 303:
        assert "/play" in response.headers["Location"]
    else:
        _check_page(response)


@settings(FUZZ, max_examples=60)
@given(query=GENERATE_QUERY)
def test_api_generate_with_odd_queries(quick_client: Any, query: Any) -> None:
    response = quick_client.get("/api/generate", query_string=query)
    assert response.status_code in {200, 400, 414, 422}, response.status_code
    body = json.loads(response.get_data(as_text=True))
    if response.status_code == 200:
        assert body["status"] == "ok" and body["play_url"].endswith("/play")
    else:
        assert body["status"] == "error" and body["code"] == response.status_code
        assert body["message"]
