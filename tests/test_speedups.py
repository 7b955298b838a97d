"""Page skeletons: a solved result page filled into its skeleton equals Jinja's render."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from app_config import ROOMY
from flask import Flask, url_for
from markupsafe import Markup

from sudoku_web import create_app
from sudoku_web.core.board import standard
from sudoku_web.core.solver import solve
from sudoku_web.core.variants import find_variant
from sudoku_web.web import variants
from sudoku_web.web.skeleton import Skeletons, cut, sentinels
from sudoku_web.web.speedups import SKELETONS
from sudoku_web.web.variants import CHOICES, TEACH_PAGES, teach_url

# The registry's example for each picker entry but the classic 9x9: (puzzle, regions).
VARIANT_EXAMPLES = {
    c.key: next((e.puzzle, e.regions) for e in find_variant(c.variant).examples if e.size == c.size)
    for c in CHOICES
    if c.key and not c.info.needs_cages  # a killer is its cages: tests/test_killer_web.py
}

DATA = Path(__file__).parent / "data"
TOP95 = [ln.strip() for ln in (DATA / "top95.txt").read_text().splitlines() if ln.strip()]
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# The solver's time is the one slot that differs between two solves of one puzzle.
TIME = re.compile(r"<dt>Time</dt><dd>[0-9.]+ ms")


def _app(skeletons: bool) -> Flask:
    return create_app({**ROOMY, "CACHE_MAX_BYTES": 0, "SPEEDUPS": skeletons})


def _variant_links() -> list[str]:
    """A share link per variant example of the form (X, hyper, jigsaw, 4x4, 6x6, 16x16)."""
    links = []
    for key, (puzzle, regions) in VARIANT_EXAMPLES.items():
        geometry = variants.form_geometry(variants.choice(key), regions or None)
        with create_app({"TESTING": True}).test_request_context():
            links.append(variants.page_url(geometry, puzzle))
    return links


def _pages(app: Flask, paths: list[str], **environ: Any) -> list[str]:
    client = app.test_client()
    pages = []
    for path in paths:
        response = client.get(path, environ_overrides=environ)
        assert response.status_code == 200, path
        pages.append(TIME.sub("", response.get_data(as_text=True)))
    return pages


def test_solved_pages_from_skeletons_equal_jinja_renders() -> None:
    paths = [f"/p/{p.replace('.', '0')}" for p in TOP95[:40]] + _variant_links()
    fast, slow = _app(True), _app(False)
    assert _pages(fast, paths) == _pages(slow, paths)
    store = fast.extensions[SKELETONS]
    assert isinstance(store, Skeletons)
    # One proven skeleton per shape: the 9x9 pages share one, each variant has its own.
    assert len(store) == 1 + len(VARIANT_EXAMPLES)
    assert all(skeleton is not None for skeleton in store._data.values())


@pytest.mark.parametrize(
    "environ",
    [{"HTTP_HOST": "sudoku.example.org"}, {"SCRIPT_NAME": "/sudoku"}],
    ids=["other-host", "script-root"],
)
def test_absolute_links_follow_the_request(environ: dict[str, str]) -> None:
    path = f"/p/{EASY}"
    fast = _app(True)
    _pages(fast, [path])  # the skeleton is built for localhost at the root
    page = _pages(fast, [path], **environ)[0]
    assert page == _pages(_app(False), [path], **environ)[0]
    if "HTTP_HOST" in environ:
        assert f'content="http://sudoku.example.org/p/{EASY}.png"' in page
    else:
        assert f'href="/sudoku/p/{EASY}/steps"' in page


def test_a_skeleton_holds_no_puzzle_data() -> None:
    app = _app(True)
    _pages(app, [f"/p/{EASY}"])
    (skeleton,) = app.extensions[SKELETONS]._data.values()
    text = "".join(skeleton.chunks)
    solution = solve(EASY).solutions[0]
    assert EASY not in text and solution not in text
    assert ">4</td>" not in text  # no cell of the grid either
    assert {"grid", "share_url", "steps_url", "guesses"} <= set(skeleton.names)


def test_a_template_that_alters_a_slot_falls_back_to_jinja(caplog: Any) -> None:
    store = Skeletons()

    def render(slots: dict[str, Markup]) -> str:
        return f"<p>{slots['name'].upper()}</p>"  # a slot must be printed as it is

    page = store.render("shape", {"name": Markup("ada")}, render)
    assert page == "<p>ADA</p>"
    assert store.render("shape", {"name": Markup("bob")}, render) == "<p>BOB</p>"
    assert "does not reproduce" in caplog.text
    assert store._data["shape"] is None


def test_skeleton_cut_and_fill_round_trip() -> None:
    marks = sentinels(["a", "b"])
    skeleton = cut(f"<i>{marks['a']}</i>-{marks['b']}-{marks['a']}")
    assert skeleton.names == ("a", "b", "a")
    assert skeleton.fill({"a": Markup("1"), "b": Markup("&amp;")}) == "<i>1</i>-&amp;-1"


def test_skeletons_are_bounded_in_bytes() -> None:
    store = Skeletons(max_bytes=1_000)
    for shape in range(10):
        store.render(shape, {"x": Markup(str(shape))}, lambda slots: f"[{slots['x']}]" + "." * 200)
    assert store.bytes <= 1_000 and 0 < len(store) < 10
    assert store.render(9, {"x": Markup("z")}, lambda slots: "unused") == "[z]" + "." * 200


def test_no_skeletons_in_debug_mode_so_template_edits_show() -> None:
    app = create_app({"TESTING": True, "DEBUG": True})
    app.test_client().get(f"/p/{EASY}")
    assert SKELETONS not in app.extensions


@pytest.mark.parametrize("link", [f"/p/{EASY}", *_variant_links()])
def test_teaching_links_are_the_routes_of_their_pages(link: str) -> None:
    app = create_app({"TESTING": True})
    client = app.test_client()
    page = client.get(link).get_data(as_text=True)
    for name in TEACH_PAGES:
        url = f"{link}/{name}"
        assert f'"{url}' in page, url  # the result page links each
        assert client.get(url).status_code == 200, url
    assert set(TEACH_PAGES) == {"steps", "search", "difficulty"}
    with app.test_request_context():
        geometry = standard(9)
        assert f"{variants.page_url(geometry, EASY)}/steps" == teach_url("steps", geometry, EASY)


@pytest.mark.parametrize("key", ["", *VARIANT_EXAMPLES])
@pytest.mark.parametrize("base", ["http://localhost/", "https://sudoku.example.org/app/"])
def test_result_links_are_the_routes_url_for_builds(key: str, base: str) -> None:
    puzzle, regions = VARIANT_EXAMPLES.get(key, (EASY, ""))
    geometry = variants.form_geometry(variants.choice(key), regions or None)
    app = create_app({"TESTING": True})
    for _ in range(2):
        with app.test_request_context(base_url=base):
            links = variants.result_links(geometry, puzzle)
            assert links.page == url_for(
                "web." + variants.endpoint(find_variant(geometry.variant)),
                **({"regions": variants.canonical_regions(geometry)} if regions else {}),
                puzzle=puzzle,
            )
            assert links.share == variants.page_url(geometry, puzzle, external=True)
            assert links.share.startswith(base.rstrip("/").rsplit("/app", 1)[0])
            assert links.edit == variants.edit_url(geometry, puzzle)
            assert links.print == variants.print_url(links.edit)
