"""Variants on the web: the picker, share links per variant, the doctor, previews, the API."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image
from web_puzzles import (
    EASY,
    EASY_TYPO,
    FOUR_PUZZLE,
    FOUR_SOLUTION,
    HYPER_PUZZLE,
    HYPER_SOLUTION,
    JIGSAW6_PUZZLE,
    JIGSAW6_REGIONS,
    JIGSAW6_SOLUTION,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    JIGSAW_SOLUTION,
    JIGSAW_TYPO,
    SIX_PUZZLE,
    SIX_SOLUTION,
    SIXTEEN_PUZZLE,
    SIXTEEN_SOLUTION,
    TWO_SOLUTIONS,
    X_PUZZLE,
    X_SOLUTION,
    X_TYPO,
)

from sudoku_web import create_app
from sudoku_web.core.board import InvalidPuzzle, jigsaw
from sudoku_web.web.puzzles.urls import CHOICES, DEFAULT_JIGSAW, canonical_regions, jigsaw_geometry

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# (share path, solution) of one uniquely solvable puzzle per variant and size.
SOLVED = [
    (f"/x/{X_PUZZLE}", X_SOLUTION),
    (f"/hyper/{HYPER_PUZZLE}", HYPER_SOLUTION),
    (f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}", JIGSAW_SOLUTION),
    (f"/jigsaw/{JIGSAW6_REGIONS}/{JIGSAW6_PUZZLE}", JIGSAW6_SOLUTION),
    (f"/p/{FOUR_PUZZLE}", FOUR_SOLUTION),
    (f"/p/{SIX_PUZZLE}", SIX_SOLUTION),
    (f"/p/{SIXTEEN_PUZZLE}", SIXTEEN_SOLUTION),
]


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def grid_cells(page: str) -> list[str]:
    """The classes and text of each cell of the first read-only grid on a page."""
    table = re.search(r'<table class="grid.*?</table>', page, re.S)
    assert table is not None
    return re.findall(r'<td class="([^"]*)"[^>]*>([^<]*)</td>', table.group(0))


def meta(page: str, name: str) -> str | None:
    """The content of an Open Graph (property=) or Twitter (name=) meta tag."""
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)"', page)
    return found.group(1) if found else None


# ---- The form: one per variant, without JavaScript ------------------------------------------


@pytest.mark.parametrize(
    ("query", "cells", "marker"),
    [
        ("", 81, "grid size-9 standard"),
        ("?v=x", 81, "grid size-9 x"),
        ("?v=hyper", 81, "grid size-9 hyper"),
        ("?v=jigsaw", 81, "grid size-9 jigsaw"),
        ("?v=4x4", 16, "grid size-4 standard"),
        ("?v=6x6", 36, "grid size-6 standard"),
        ("?v=16x16", 256, "grid size-16 standard"),
        ("?v=jigsaw&n=5", 25, "grid size-5 jigsaw"),
    ],
)
def test_each_variant_form_is_rendered_on_the_server(
    client: Any, query: str, cells: int, marker: str
) -> None:
    page = text(client.get("/" + query))
    assert marker in page
    assert len(re.findall(r'class="cell-input"', page)) == cells
    if query:
        key = query.split("=")[1].split("&")[0]
        assert f'<input type="hidden" name="v" value="{key}">' in page


def test_picker_is_plain_links_marking_the_current_variant(client: Any) -> None:
    page = text(client.get("/?v=hyper"))
    for c in CHOICES:
        href = f"/?v={c.key}" if c.key else "/"
        assert f'href="{href}"' in page
    assert re.search(r'href="/\?v=hyper"\s+aria-current="page">Hyper<', page)


@pytest.mark.parametrize(("query", "shaded"), [("?v=x", 17), ("?v=hyper", 36), ("", 0)])
def test_diagonals_and_windows_are_shaded_by_class(client: Any, query: str, shaded: int) -> None:
    page = text(client.get("/" + query))
    assert len(re.findall(r'<td class="[^"]*\bshade\b', page)) == shaded
    assert "style=" not in page


def test_jigsaw_form_draws_its_regions_and_has_the_map_field(client: Any) -> None:
    # A fresh form has no map; the example map is one labelled link away.
    fresh = text(client.get("/?v=jigsaw"))
    assert not re.findall(r'<td class="[^"]*\brg-(\d+)\b', fresh)
    assert re.search(r'<textarea[^>]*name="regions"[^>]*>\s*</textarea>', fresh)
    page = text(client.get("/?v=jigsaw&r=" + DEFAULT_JIGSAW))
    assert 'name="regions"' in page
    assert len(set(re.findall(r"\brg-(\d+)\b", page))) == 9
    assert '<div class="region-painter" hidden></div>' in page


def test_post_x_puzzle_goes_to_its_x_share_link(client: Any) -> None:
    data = {"v": "x", "paste": X_PUZZLE.replace("0", ".")}
    response = client.post("/", data=data)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/x/{X_PUZZLE}"


def test_post_16x16_cells_goes_to_p(client: Any) -> None:
    data = {f"cells-{i}": ("" if ch == "0" else ch.lower()) for i, ch in enumerate(SIXTEEN_PUZZLE)}
    response = client.post("/", data={"v": "16x16", **data})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/p/{SIXTEEN_PUZZLE}"


def test_post_jigsaw_with_typed_regions(client: Any) -> None:
    rows = "\n".join(JIGSAW_REGIONS[r * 9 : r * 9 + 9].lower() for r in range(9))
    data = {"v": "jigsaw", "regions": rows, "paste": JIGSAW_PUZZLE}
    response = client.post("/", data=data)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}"


def test_post_jigsaw_with_a_bad_map_names_the_region_and_marks_its_cells(client: Any) -> None:
    regions = JIGSAW_REGIONS[:-1] + "A"  # region H loses a cell to region A
    response = client.post("/", data={"v": "jigsaw", "regions": regions, "paste": JIGSAW_PUZZLE})
    assert response.status_code == 422
    page = text(response)
    assert "Region &#39;A&#39; has 10 cells; every region needs exactly 9." in page
    assert "Region &#39;H&#39; has 8 cells; every region needs exactly 9." in page
    marked = {
        int(m.group(2))
        for m in re.finditer(r'<input aria-invalid="(\w+)"[^>]*id="cells-(\d+)"', page)
        if m.group(1) == "true"
    }
    assert marked == {i for i, ch in enumerate(regions) if ch in "AH"}


def test_a_refused_map_still_shows_the_pasted_puzzle_in_the_grid(client: Any) -> None:
    regions = JIGSAW_REGIONS[:-1] + "A"
    response = client.post("/", data={"v": "jigsaw", "regions": regions, "paste": JIGSAW_PUZZLE})
    assert response.status_code == 422
    page = text(response)
    for cell, ch in enumerate(JIGSAW_PUZZLE):
        if ch != "0":
            assert re.search(rf'id="cells-{cell}"[^>]*value="{ch}"', page), cell


def test_post_jigsaw_map_of_another_size_is_refused(client: Any) -> None:
    data = {"v": "jigsaw", "regions": JIGSAW6_REGIONS, "paste": JIGSAW_PUZZLE}
    response = client.post("/", data=data)
    assert response.status_code == 422
    assert "The region map is 6x6, but the grid is 9x9" in text(response)


def test_edit_link_reopens_the_variant_form(client: Any) -> None:
    page = text(client.get(f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}"))
    edit = re.search(r'href="(/\?[^"]*)">Edit this puzzle', page)
    assert edit is not None
    form = text(client.get(edit.group(1).replace("&amp;", "&")))
    assert "grid size-9 jigsaw" in form
    assert JIGSAW_REGIONS[:9] in form  # the map, one row per line
    assert re.search(r'id="cells-7"[^>]*value="2"', form)


# ---- Share links: every variant, canonical spellings --------------------------------------


@pytest.mark.parametrize(("path", "solution"), SOLVED)
def test_every_variant_link_solves(client: Any, path: str, solution: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = text(response)
    assert '<h1 class="status status-solved">Solved</h1>' in page
    assert "".join(t for _, t in grid_cells(page)) == solution


@pytest.mark.parametrize(
    ("path", "canonical"),
    [
        (f"/x/{X_PUZZLE.replace('0', '.')}", f"/x/{X_PUZZLE}"),
        (f"/hyper/{HYPER_PUZZLE.replace('0', '.')}", f"/hyper/{HYPER_PUZZLE}"),
        (f"/p/{SIXTEEN_PUZZLE.lower()}", f"/p/{SIXTEEN_PUZZLE}"),
        (
            f"/jigsaw/{JIGSAW_REGIONS.lower()}/{JIGSAW_PUZZLE}",
            f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}",
        ),
        (  # any labels: relabelled A, B, ... in reading order
            f"/jigsaw/{JIGSAW_REGIONS.translate(str.maketrans('ABCDEFGHI', '123456789'))}"
            f"/{JIGSAW_PUZZLE}",
            f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}",
        ),
        (f"/x/{X_PUZZLE.replace('0', '.')}.png", f"/x/{X_PUZZLE}.png"),
    ],
)
def test_other_spellings_redirect_permanently(client: Any, path: str, canonical: str) -> None:
    response = client.get(path)
    assert response.status_code == 301
    assert response.headers["Location"] == canonical


def test_canonical_links_use_only_letters_and_digits() -> None:
    regions = canonical_regions(jigsaw(JIGSAW_REGIONS.lower()))
    assert regions == JIGSAW_REGIONS and regions.isalnum()


def test_region_maps_in_any_labels_share_one_geometry_and_errors_keep_the_typed_labels() -> None:
    digits = JIGSAW_REGIONS.translate(str.maketrans("ABCDEFGHI", "123456789"))
    assert jigsaw_geometry(digits) is jigsaw_geometry(JIGSAW_REGIONS.lower())
    with pytest.raises(InvalidPuzzle, match="Region '8' has 8 cells"):
        jigsaw_geometry(digits[:-1] + "1")


def test_classic_links_are_unchanged(client: Any) -> None:
    assert client.get(f"/p/{EASY}").status_code == 200
    assert client.get(f"/p/{EASY.replace('0', '.')}").headers["Location"] == f"/p/{EASY}"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (f"/jigsaw/{JIGSAW_REGIONS[:-1]}A/{JIGSAW_PUZZLE}", "Region &#39;A&#39; has 10 cells"),
        (f"/jigsaw/{JIGSAW_REGIONS[:40]}/{JIGSAW_PUZZLE}", "The region map has 40 cells"),
        (f"/jigsaw/{JIGSAW6_REGIONS}/{JIGSAW_PUZZLE}", "Found 81 cells, expected 36"),
        (f"/hyper/{FOUR_PUZZLE}", "Found 16 cells, expected 81"),
        ("/x/" + "11" + "0" * 79, "r1c1 and r1c2 both hold 1"),
        ("/x/" + "1" + "0" * 9 + "1" + "0" * 70, "in box 1 and the main diagonal"),
    ],
)
def test_invalid_variant_links_are_422_with_the_problem_named(
    client: Any, path: str, message: str
) -> None:
    response = client.get(path)
    assert response.status_code == 422
    assert message in text(response)


def test_bad_region_link_draws_the_map_with_the_bad_regions_marked(client: Any) -> None:
    regions = JIGSAW_REGIONS[:-1] + "A"
    page = text(client.get(f"/jigsaw/{regions}/{JIGSAW_PUZZLE}"))
    marked = {i for i, (classes, _) in enumerate(grid_cells(page)) if "invalid" in classes}
    assert marked == {i for i, ch in enumerate(regions) if ch in "AH"}


# ---- Result pages: the doctor and the suggested given ---------------------------------------


def test_impossible_page_shows_the_conflict_and_fix_links(client: Any) -> None:
    page = text(client.get(f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_TYPO}"))
    assert "these 4 givens cannot all be right: r1c8, r3c1, r4c7, r7c3." in page
    marked = {i for i, (classes, _) in enumerate(grid_cells(page)) if "invalid" in classes}
    assert marked == {7, 18, 33, 56}
    fixes = re.findall(
        r'<(?:li|p class="likely-fix")><a (?:class="[^"]+" )?href="([^"]+)">([^<]+)</a>', page
    )
    assert fixes[0] == (f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}", "r1c8: 3 → 2")
    # Following the first fix lands on a solved page.
    solved = text(client.get(fixes[0][0]))
    assert '<h1 class="status status-solved">Solved</h1>' in solved


def test_impossible_classic_page_ranks_the_restoring_fix_first(client: Any) -> None:
    page = text(client.get(f"/p/{EASY_TYPO}"))
    fixes = re.findall(
        r'<(?:li|p class="likely-fix")><a (?:class="[^"]+" )?href="([^"]+)">([^<]+)</a>', page
    )
    assert fixes[0] == (f"/p/{EASY}", "r1c3: 4 → 3")
    assert "ran out of time" not in page


def test_doctor_says_so_when_its_budget_cut_it_short() -> None:
    app = create_app({"TESTING": True, "DOCTOR_MAX_NODES": 0})
    page = text(app.test_client().get(f"/x/{X_TYPO}"))
    assert "ran out of time" in page


def test_multiple_page_suggests_a_given_that_makes_it_unique(client: Any) -> None:
    page = text(client.get(f"/p/{TWO_SOLUTIONS}"))
    link = re.search(r'class="suggestion">.*?<a href="/p/(\d{81})">(r\dc\d): (\d)</a>', page, re.S)
    assert link is not None
    assert client.get(f"/api/solve?puzzle={link.group(1)}").get_json()["status"] == "solved"


# ---- Link previews ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "_solution"), SOLVED[:3])
def test_result_pages_carry_open_graph_and_twitter_tags(
    client: Any, path: str, _solution: str
) -> None:
    page = text(client.get(path))
    assert meta(
        page,
        "og:title",
    ) is not None and meta(page, "og:title").startswith("Solved · 9x9")
    assert "givens, solved" in (meta(page, "og:description") or "")
    assert meta(page, "og:image") == f"http://localhost{path}.png"
    assert meta(page, "og:image:width") == "600"
    assert meta(page, "og:image:height") == "630"
    assert meta(page, "og:url") == f"http://localhost{path}"
    assert meta(page, "twitter:card") == "summary_large_image"
    assert meta(page, "twitter:image") == meta(page, "og:image")


def test_impossible_page_preview_mentions_the_fixes(client: Any) -> None:
    page = text(client.get(f"/x/{X_TYPO}"))
    assert meta(page, "og:title") == "Impossible: this puzzle has no solution · 9x9 X-sudoku"
    assert "no solution; 5 one-cell fixes suggested" in (meta(page, "og:description") or "")


@pytest.mark.parametrize(
    "path",
    [
        f"/p/{EASY}.png",
        f"/p/{EASY_TYPO}.png",
        f"/x/{X_PUZZLE}.png",
        f"/hyper/{HYPER_PUZZLE}.png",
        f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_TYPO}.png",
        f"/p/{SIXTEEN_PUZZLE}.png",
        f"/p/{TWO_SOLUTIONS}.png",
        "/p/55" + "0" * 79 + ".png",
    ],
)
def test_preview_png_is_small_and_cached(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.data.startswith(PNG_SIGNATURE)
    assert len(response.data) <= 60 * 1024
    assert Image.open(io.BytesIO(response.data)).size == (600, 630)
    assert "max-age=" in response.headers["Cache-Control"]
    etag = response.headers["ETag"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["ETag"] == etag


def test_preview_of_an_unreadable_link_is_404(client: Any) -> None:
    assert client.get("/p/12x.png").status_code == 404
    assert client.get(f"/jigsaw/ABC/{JIGSAW_PUZZLE}.png").status_code == 404


# ---- The API ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "variant", "solution", "share"),
    [
        ({"puzzle": X_PUZZLE, "variant": "x"}, "x", X_SOLUTION, f"/x/{X_PUZZLE}"),
        ({"puzzle": HYPER_PUZZLE, "variant": "hyper"}, "hyper", HYPER_SOLUTION, None),
        ({"puzzle": FOUR_PUZZLE}, "standard", FOUR_SOLUTION, f"/p/{FOUR_PUZZLE}"),
        ({"puzzle": SIXTEEN_PUZZLE.lower()}, "standard", SIXTEEN_SOLUTION, None),
        (
            {"puzzle": JIGSAW6_PUZZLE, "variant": "jigsaw", "regions": JIGSAW6_REGIONS.lower()},
            "jigsaw",
            JIGSAW6_SOLUTION,
            f"/jigsaw/{JIGSAW6_REGIONS}/{JIGSAW6_PUZZLE}",
        ),
    ],
)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_api_solves_every_variant(
    client: Any, method: str, params: dict[str, str], variant: str, solution: str, share: str | None
) -> None:
    if method == "GET":
        response = client.get("/api/solve", query_string=params)
    else:
        response = client.post("/api/solve", json=params)
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "solved"
    assert body["variant"] == variant
    assert body["solution"] == solution
    assert list(body)[:3] == ["status", "puzzle", "variant"]
    if variant == "jigsaw":
        assert body["regions"] == JIGSAW6_REGIONS
    if share:
        assert body["share_url"] == "http://localhost" + share


def test_api_unsolvable_carries_the_doctor(client: Any) -> None:
    body = client.post(
        "/api/solve",
        json={"puzzle": JIGSAW_TYPO, "variant": "jigsaw", "regions": JIGSAW_REGIONS},
    ).get_json()
    assert body["status"] == "unsolvable"
    assert body["doctor"] == {
        "conflict": [7, 18, 33, 56],
        "fixes": [{"cell": 7, "from": "3", "to": "2"}, {"cell": 7, "from": "3", "to": "7"}],
        "complete": True,
    }


def test_api_doctor_removal_is_null(client: Any) -> None:
    body = client.get("/api/solve", query_string={"puzzle": EASY_TYPO}).get_json()
    fixes = body["doctor"]["fixes"]
    assert fixes[0] == {"cell": 2, "from": "4", "to": "3"}
    assert {"cell": 2, "from": "4", "to": None} in fixes


def test_api_multiple_carries_a_suggested_given(client: Any) -> None:
    body = client.get("/api/solve", query_string={"puzzle": TWO_SOLUTIONS}).get_json()
    suggestion = body["suggestion"]
    assert set(suggestion) == {"cell", "symbol"}
    assert TWO_SOLUTIONS[suggestion["cell"]] == "0"


@pytest.mark.parametrize(
    ("params", "code", "needle"),
    [
        ({"puzzle": X_PUZZLE, "variant": "sideways"}, "variant", "Unknown variant 'sideways'"),
        ({"puzzle": X_PUZZLE, "variant": "jigsaw"}, "regions", "needs a region map"),
        (
            {"puzzle": JIGSAW_PUZZLE, "variant": "jigsaw", "regions": JIGSAW_REGIONS[:-1] + "A"},
            "regions",
            "Region 'H' has 8 cells",
        ),
        ({"puzzle": X_PUZZLE, "regions": JIGSAW_REGIONS}, "regions", "Only jigsaw puzzles"),
        ({"puzzle": FOUR_PUZZLE, "variant": "hyper"}, "length", "expected 81"),
    ],
)
def test_api_variant_errors_are_422(
    client: Any, params: dict[str, str], code: str, needle: str
) -> None:
    response = client.get("/api/solve", query_string=params)
    assert response.status_code == 422
    body = response.get_json()
    assert body["status"] == "invalid"
    assert any(e["code"] == code and needle in e["message"] for e in body["errors"])


def test_api_variant_must_be_a_string(client: Any) -> None:
    response = client.post("/api/solve", json={"puzzle": X_PUZZLE, "variant": 3})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("query", "heading"),
    [
        ("", "Solve a Sudoku"),
        ("?v=x", "Solve an X-sudoku puzzle"),
        ("?v=jigsaw", "Solve a Jigsaw puzzle"),
    ],
)
def test_form_heading_names_the_variant_with_the_right_article(
    client: Any, query: str, heading: str
) -> None:
    assert f"<h1>{heading}</h1>" in client.get(f"/{query}").get_data(as_text=True)
