"""Page skeletons: a solved result page filled into its skeleton equals Jinja's render."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from app_config import ROOMY
from flask import Flask, url_for
from markupsafe import Markup

from sudoku_web import create_app
from sudoku_web.core.board import standard
from sudoku_web.core.solver import solve
from sudoku_web.core.variants import find_variant
from sudoku_web.web.puzzles import urls
from sudoku_web.web.puzzles.urls import CHOICES, TEACH_PAGES, teach_url
from sudoku_web.web.render.boards import board_view
from sudoku_web.web.render.cell_markup import ENGLISH
from sudoku_web.web.runtime import speedups
from sudoku_web.web.runtime.languages import cell_words
from sudoku_web.web.runtime.skeleton import Skeletons, cut, sentinels
from sudoku_web.web.runtime.speedups import (
    LINK_TEMPLATES,
    SKELETONS,
    SOLVED_ROWS,
)

# The registry's example for each picker entry but the classic 9x9: (puzzle, regions).
VARIANT_EXAMPLES = {
    c.key: next((e.puzzle, e.regions) for e in find_variant(c.variant).examples if e.size == c.size)
    for c in CHOICES
    if c.key and not c.info.needs_cages  # a killer is its cages: tests/test_killer_web.py
}

DATA = Path(__file__).parent / "data"
TOP95 = [ln.strip() for ln in (DATA / "top95.txt").read_text().splitlines() if ln.strip()]
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
KILLER = (DATA / "killer_krazydad.txt").read_text().split()[0]
# The solver's time is the one slot that differs between two solves of one puzzle.
TIME = re.compile(r"<dt>Time</dt><dd>[0-9.]+ ms")


def _app(skeletons: bool) -> Flask:
    return create_app({**ROOMY, "CACHE_MAX_BYTES": 0, "SPEEDUPS": skeletons})


def _variant_links() -> list[str]:
    """A share link per variant example of the form (X, hyper, jigsaw, 4x4, 6x6, 16x16)."""
    links = []
    app = create_app({"TESTING": True})
    for key, (puzzle, regions) in VARIANT_EXAMPLES.items():
        geometry = urls.form_geometry(urls.choice(key), regions or None)
        with app.test_request_context():
            links.append(urls.page_url(geometry, puzzle))
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
    assert page == b"<p>ADA</p>"
    assert store.render("shape", {"name": Markup("bob")}, render) == b"<p>BOB</p>"
    assert "does not reproduce" in caplog.text
    assert store._data["shape"] is None


def test_skeleton_cut_and_fill_round_trip() -> None:
    marks = sentinels(["a", "b"])
    skeleton = cut(f"<i>{marks['a']}</i>-{marks['b']}-{marks['a']}")
    assert skeleton.names == ("a", "b", "a")
    assert skeleton.fill({"a": Markup("1"), "b": Markup("&amp;")}) == "<i>1</i>-&amp;-1"


def test_a_skeleton_filled_as_utf8_is_its_page_encoded() -> None:
    marks = sentinels(["a", "b"])
    skeleton = cut(f"<p lang=ja>日本語 {marks['a']}</p>·{marks['b']}")
    slots = {"a": Markup("Zeilen &amp; Spalten"), "b": Markup("行 1、列 2")}
    assert skeleton.fill_utf8(slots) == skeleton.fill(slots).encode()
    store = Skeletons()
    for _ in range(2):  # built (Jinja's page encoded), then from the skeleton
        page = store.render("ja", slots, lambda s: f"<p>日本語 {s['a']}</p>·{s['b']}")
        assert page == f"<p>日本語 {slots['a']}</p>·{slots['b']}".encode()
    assert store._data["ja"] is not None


def test_skeletons_are_bounded_in_bytes() -> None:
    store = Skeletons(max_bytes=1_000)
    for shape in range(10):
        store.render(shape, {"x": Markup(str(shape))}, lambda slots: f"[{slots['x']}]" + "." * 200)
    assert store.bytes <= 1_000 and 0 < len(store) < 10
    assert store.render(9, {"x": Markup("z")}, lambda slots: "unused") == b"[z]" + b"." * 200


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
        assert f"{urls.page_url(geometry, EASY)}/steps" == teach_url("steps", geometry, EASY)


@pytest.mark.parametrize("key", ["", *VARIANT_EXAMPLES])
@pytest.mark.parametrize("base", ["http://localhost/", "https://sudoku.example.org/app/"])
def test_result_links_are_the_routes_url_for_builds(key: str, base: str) -> None:
    puzzle, regions = VARIANT_EXAMPLES.get(key, (EASY, ""))
    geometry = urls.form_geometry(urls.choice(key), regions or None)
    app = create_app({"TESTING": True})
    for _ in range(2):
        with app.test_request_context(base_url=base):
            links = urls.result_links(geometry, puzzle)
            assert links.page == url_for(
                "pages." + urls.endpoint(find_variant(geometry.variant)),
                **({"regions": urls.canonical_regions(geometry)} if regions else {}),
                puzzle=puzzle,
            )
            assert links.share == urls.page_url(geometry, puzzle, external=True)
            assert links.share.startswith(base.rstrip("/").rsplit("/app", 1)[0])
            assert links.page == urlsplit(links.share).path  # the language picker's "here"
            assert links.fpuzzles == f"{links.page}/fpuzzles"
            assert links.edit == urls.edit_url(geometry, puzzle)
            assert links.print == urls.print_url(links.edit)


@pytest.mark.parametrize("key", ["", *VARIANT_EXAMPLES])
@pytest.mark.parametrize("base", ["http://localhost/", "https://sudoku.example.org/app/"])
def test_link_templates_give_the_links_url_for_builds(key: str, base: str) -> None:
    puzzle, regions = VARIANT_EXAMPLES.get(key, (EASY, ""))
    geometry = urls.form_geometry(urls.choice(key), regions or None)
    other = puzzle[::-1]  # another puzzle of the same board, filled into the same templates
    app = create_app({"TESTING": True})
    for text in (puzzle, other, puzzle):
        with app.test_request_context(base_url=base):
            assert speedups.result_links(geometry, text) == urls.result_links(geometry, text)
    (stored,) = app.extensions[LINK_TEMPLATES]._data.values()
    assert stored[0] is not None  # (templates, bytes): kept after the proof


def test_link_templates_are_kept_per_origin() -> None:
    app = create_app({"TESTING": True})
    geometry = standard(9)
    for base in ("http://localhost/", "http://other.example/", "http://localhost/sub/"):
        with app.test_request_context(base_url=base):
            links = speedups.result_links(geometry, EASY)
            assert links.share == f"{base}p/{EASY}"
            assert links == urls.result_links(geometry, EASY)
    assert len(app.extensions[LINK_TEMPLATES]) == 3


def test_an_origin_holding_the_marker_takes_the_plain_path() -> None:
    app = create_app({"TESTING": True})
    geometry = standard(9)
    base = f"http://localhost/{speedups._MARK}/"  # a script root: every link holds it
    for text in (EASY, EASY[::-1]):
        with app.test_request_context(base_url=base):
            assert speedups.result_links(geometry, text) == urls.result_links(geometry, text)
    (stored,) = app.extensions[LINK_TEMPLATES]._data.values()
    assert stored[0] is None  # (templates, bytes): this origin failed the proof


def test_a_puzzle_url_for_would_quote_never_uses_templates() -> None:
    app = create_app({"TESTING": True})
    geometry = standard(9)
    with app.test_request_context():
        text = "1 2/3"
        assert speedups.result_links(geometry, text) == urls.result_links(geometry, text)
    assert len(app.extensions[LINK_TEMPLATES]) == 0


def test_link_templates_are_off_with_the_speedups() -> None:
    app = create_app({"TESTING": True, "SPEEDUPS": False})
    assert LINK_TEMPLATES not in app.extensions
    with app.test_request_context():
        assert speedups.result_links(standard(9), EASY) == urls.result_links(standard(9), EASY)


def _solved_boards() -> list[tuple[Any, str, str]]:
    """(geometry, givens, solution) of each variant example, a killer and two 9x9 puzzles."""
    boards = []
    for key, (puzzle, regions) in VARIANT_EXAMPLES.items():
        geometry = urls.form_geometry(urls.choice(key), regions or None)
        solved = solve(puzzle, geometry=geometry)
        boards.append((geometry, solved.puzzle.replace(".", "0"), solved.solutions[0]))
    cage_map, sums, solution = KILLER.split(":")
    with create_app({"TESTING": True}).test_request_context():
        killer = urls.geometry_of("killer", "0" * 81, None, f"{cage_map}-{sums.replace(',', '-')}")
    boards.append((killer, "0" * 81, solution))
    for puzzle in (EASY, TOP95[0].replace(".", "0")):
        boards.append((standard(9), puzzle, solve(puzzle).solutions[0]))
    return boards


def test_solved_rows_are_kept_per_language() -> None:
    """A board cut for a German page never answers an English one, nor the other way: the
    cells' labels are each page's own words, cut or drawn."""
    app = create_app({"TESTING": True})
    geometry, givens, solution = standard(9), EASY, solve(EASY).solutions[0]
    drawn = {}
    for code in ("de", "en", "ja", "de", "en", "ja", "de", "en", "ja"):
        with app.test_request_context(headers={"Accept-Language": code}):
            plain = board_view(geometry, givens, solution, words=cell_words()).rows_html()
            rows = speedups.solved_rows(geometry, givens, solution)
            assert rows == plain, code
            drawn.setdefault(code, rows)
            assert rows == drawn[code], code
    assert "Row 1, column 1: " in drawn["en"]
    assert "Zeile 1, Spalte 1: " in drawn["de"] and "Row 1" not in drawn["de"]
    assert "Row 1" not in drawn["ja"] and "(solved)" not in drawn["ja"]
    assert len({drawn["en"], drawn["de"], drawn["ja"]}) == 3


def test_solved_rows_are_the_plain_drawing_for_every_board() -> None:
    app = create_app({"TESTING": True})
    with app.test_request_context():
        for geometry, givens, solution in _solved_boards():
            plain = board_view(geometry, givens, solution).rows_html()
            for _ in range(3):  # seen, cut and proven, filled from the cut
                assert speedups.solved_rows(geometry, givens, solution) == plain
            assert app.extensions[SOLVED_ROWS].get((geometry, ENGLISH)), geometry.variant
            # Another puzzle of the board (its solution as givens) from the same cut.
            full = board_view(geometry, solution, solution).rows_html()
            assert speedups.solved_rows(geometry, solution, solution) == full


def test_a_text_the_cut_cannot_read_takes_the_plain_path() -> None:
    app = create_app({"TESTING": True})
    solution = solve(EASY).solutions[0]
    with app.test_request_context():
        for _ in range(3):
            speedups.solved_rows(standard(9), EASY, solution)
        odd = EASY.replace("0", ".", 1)
        plain = board_view(standard(9), odd, solution).rows_html()
        assert speedups.solved_rows(standard(9), odd, solution) == plain
    # A first cut met such a text: no proof either way, the board is cut at the next one.
    fresh = create_app({"TESTING": True})
    with fresh.test_request_context():
        for text in (EASY, odd, EASY):
            assert (
                speedups.solved_rows(standard(9), text, solution)
                == board_view(standard(9), text, solution).rows_html()
            )
    assert fresh.extensions[SOLVED_ROWS].get((standard(9), ENGLISH))


def test_solved_rows_are_bounded_and_off_with_the_speedups() -> None:
    app = create_app({"TESTING": True})
    assert app.extensions[SOLVED_ROWS].max_bytes <= 4 * 1024 * 1024
    off = create_app({"TESTING": True, "SPEEDUPS": False})
    assert SOLVED_ROWS not in off.extensions
    solution = solve(EASY).solutions[0]
    with off.test_request_context():
        plain = board_view(standard(9), EASY, solution).rows_html()
        assert speedups.solved_rows(standard(9), EASY, solution) == plain
