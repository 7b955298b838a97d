"""The JSON API in the visitor's language: its keys and codes stay English, its human
``message``s follow ``Accept-Language`` (the API's own words, the photo reader's and the
puzzle readers' problems, f-puzzles refusals); the grid cells' labels of a board drawn for one
language never reach a page in another (sudoku_web/web/runtime/languages.py)."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from PIL import Image
from web_puzzles import EASY, TWO_SOLUTIONS

from sudoku_web import create_app

EMPTY9 = [[{} for _ in range(9)] for _ in range(9)]


def _post(client: Any, path: str, body: object, language: str) -> Any:
    return client.post(path, data=json.dumps(body), headers={"Accept-Language": language})


def _messages(body: Any) -> list[str]:
    found = [body["message"]] if "message" in body else []
    return found + [e["message"] for e in body.get("errors", [])]


@pytest.mark.parametrize(
    ("path", "body", "status", "english", "german"),
    [
        ("/api/solve", {"puzzle": EASY[:80]}, 422, "Found 80 cells", "80 Felder gefunden"),
        (
            "/api/solve",
            {"puzzle": "1" * 5000},
            422,
            "That is 5000 characters, too long",
            "Das sind 5.000 Zeichen, zu lang",
        ),
        ("/api/check", [1], 400, "Send a JSON object", "Sende ein JSON-Objekt"),
        ("/api/check", {"puzzle": 5}, 400, 'needs a "puzzle" string', '"puzzle"'),
        (
            "/api/check",
            {"puzzle": EASY, "entries": EASY[:2] + "4" + EASY[3:]},
            422,
            "The entries change the givens at r1c3",
            "Die Einträge ändern die Vorgaben bei r1c3",
        ),
        (
            "/api/hint",
            {"puzzle": TWO_SOLUTIONS},
            422,
            "more than one solution",
            "mehr als eine Lösung",
        ),
        (
            "/api/explain",
            {"puzzle": TWO_SOLUTIONS},
            200,
            "Steps are shown for puzzles with exactly one solution.",
            "Schritte werden für Rätsel mit genau einer Lösung gezeigt.",
        ),
        (
            "/api/solve",
            {
                "puzzle": "",
                "fpuzzles": {"size": 9, "grid": EMPTY9, "zipperline": [{"lines": [["R1C1"]]}]},
            },
            422,
            "This puzzle has zipper lines, which sudoku-web does not know yet.",
            "Dieses Rätsel hat Reißverschluss-Linien, die sudoku-web noch nicht kennt.",
        ),
        (
            "/api/solve",
            {"puzzle": "", "fpuzzles": "https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA"},
            422,
            "only its shapes",
            "nur seine Formen",
        ),
    ],
)
def test_api_messages_follow_accept_language(
    client: Any, path: str, body: object, status: int, english: str, german: str
) -> None:
    answers = {code: _post(client, path, body, code) for code in ("en", "de", "ja")}
    for answer in answers.values():
        assert answer.status_code == status
    en, de, ja = (answers[c].get_json() for c in ("en", "de", "ja"))
    assert any(english in m for m in _messages(en)), _messages(en)
    assert any(german in m for m in _messages(de)), _messages(de)
    assert not any(english in m for m in _messages(de) + _messages(ja))
    assert set(en) == set(de) == set(ja)  # the keys stay English
    for key in ("status", "code", "error", "reason"):
        assert en.get(key) == de.get(key) == ja.get(key)
    assert [e["code"] for e in en.get("errors", [])] == [e["code"] for e in de.get("errors", [])]


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("L", (width, height), 255).save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("photo", "english", "german"),
    [
        (b"not a picture", "This file is not a picture", "Diese Datei ist kein Bild"),
        (_png(64, 64), "No Sudoku grid found", "Kein Sudoku-Gitter"),
    ],
)
def test_photo_messages_follow_accept_language(
    client: Any, photo: bytes, english: str, german: str
) -> None:
    said = {}
    for code in ("en", "de"):
        answer = client.post(
            "/api/read",
            data={"photo": (io.BytesIO(photo), "photo.png")},
            headers={"Accept-Language": code},
        )
        assert 400 <= answer.status_code < 500
        said[code] = answer.get_json()
    assert english in said["en"]["message"] and german in said["de"]["message"]
    assert said["en"]["reason"] == said["de"]["reason"]


def test_a_cut_off_grid_lists_its_lines_as_the_language_does(app: Any) -> None:
    """The reader's sentence is a template and its values; the web joins the list of rows
    as the language does and picks the sentence for what is cut."""
    from sudoku_web.photo.reading import cut_off_message
    from sudoku_web.web.puzzles.core_names import said

    two_rows = {cell for cell in range(81) if cell // 9 in (0, 1)}
    message = cut_off_message(two_rows)
    assert str(message).startswith("Rows 1 and 2 of the grid are cut off")
    for code, words in (("de", "Die Zeilen 1 und 2 des Gitters"), ("fr", "Les lignes 1 et 2")):
        with app.test_request_context(headers={"Accept-Language": code}):
            text = said(message.english(), message)
            assert text.startswith(words), text


@pytest.mark.parametrize("speedups", [True, False])
def test_cell_labels_never_cross_languages(speedups: bool) -> None:
    """The same board drawn in German, English and Japanese, each three times (seen, cut,
    filled from the cut): each page's cells speak its own language only."""
    app = create_app({"TESTING": True, "SPEEDUPS": speedups})
    client = app.test_client()
    words = {"en": "Row 1, column 1: ", "de": "Zeile 1, Spalte 1: ", "ja": "1 行 1 列: "}
    for _ in range(3):
        for code, first in words.items():
            page = client.get(f"/p/{EASY}", headers={"Accept-Language": code})
            labels = re.findall(r'<td class="cell[^"]*" aria-label="([^"]+)"', page.text)
            assert len(labels) == 81, code
            assert labels[0].startswith(first), (code, labels[0])
            others = [w for c, w in words.items() if c != code]
            assert not [x for x in labels if any(x.startswith(w) for w in others)], code


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "no row, column or box repeats a digit"),
        ("de", "(Zeile, Spalte oder Block)"),
        ("ja", "どの行・列・ブロックにも"),
    ],
)
def test_a_variants_houses_are_said_in_the_language(client: Any, language: str, words: str) -> None:
    """The registry's house list (``VariantInfo.house_list``, marked for the catalog)."""
    page = client.get(f"/p/{EASY}/play", headers={"Accept-Language": language}).text
    assert words in page
    if language != "en":
        assert "row, column or box" not in page


def test_generate_refusals_follow_accept_language(client: Any) -> None:
    said = {
        code: client.get("/api/generate?grade=nope", headers={"Accept-Language": code})
        for code in ("en", "de")
    }
    assert said["en"].status_code == said["de"].status_code == 400
    assert said["en"].get_json()["message"].startswith("No grade 'nope'; the grades are")
    assert said["de"].get_json()["message"].startswith("Keine Stufe 'nope'; die Stufen sind")


def test_a_stray_character_is_named_in_the_language(client: Any) -> None:
    """A puzzle reader's problem naming its cell (``PuzzleError.said``), by language."""
    said = {
        code: _post(client, "/api/solve", {"puzzle": "y" + EASY[1:]}, code).get_json()
        for code in ("en", "de", "ja")
    }
    assert said["en"]["errors"][0]["message"].startswith("Position 1 (r1c1) holds 'y'")
    assert said["de"]["errors"][0]["message"].startswith("Position 1 (r1c1) enthält 'y'")
    assert "r1c1" in said["ja"]["errors"][0]["message"]
    assert said["en"]["errors"][0]["cells"] == said["ja"]["errors"][0]["cells"] == ["r1c1"]
