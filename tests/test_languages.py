"""The visitor's language: Accept-Language, the picker's cookie (a plain form post, so it works
without JavaScript), ``<html lang>``, language-neutral share links, caches keyed by language,
and the catalogs complete and compiled (sudoku_web/web/runtime/languages.py)."""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from conftest import ROOMY
from web_puzzles import EASY

from sudoku_web import create_app
from sudoku_web.web.pages.language import safe_next
from sudoku_web.web.runtime.languages import COOKIE, LANGUAGES, TRANSLATIONS, _formatted

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: A word of the site's header in each language ("Solve a puzzle").
SOLVE = {
    "en": "Solve a puzzle",
    "de": "Rätsel lösen",
    "fr": "Résoudre une grille",
    "es": "Resolver un sudoku",
    "ja": "問題を解く",
}


def _lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang>"
    return found.group(1)


def _text(response: Any) -> str:
    return str(response.get_data(as_text=True))


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_accept_language_picks_the_page_language(client: Any, code: str) -> None:
    page = _text(client.get("/", headers={"Accept-Language": f"{code};q=0.9, zz;q=0.1"}))
    assert _lang(page) == code
    assert SOLVE[code] in page


def test_unknown_or_missing_accept_language_is_english(client: Any) -> None:
    assert _lang(_text(client.get("/"))) == "en"
    assert _lang(_text(client.get("/", headers={"Accept-Language": "pt-BR, ru"}))) == "en"
    # A region subtag finds its language.
    assert _lang(_text(client.get("/", headers={"Accept-Language": "fr-CA"}))) == "fr"


def test_the_picker_is_a_plain_form_on_every_page(client: Any) -> None:
    for path in ("/", f"/p/{EASY}", f"/p/{EASY}/steps", "/new", "/no-such-page"):
        page = _text(client.get(path))
        form = re.search(r'<form class="language-picker" method="post" action="/language">', page)
        assert form, path
        for code in LANGUAGES:
            assert f'<option value="{code}"' in page, (path, code)


def test_the_picker_keeps_the_choice_and_goes_back(client: Any) -> None:
    """The no-JavaScript path: the form posts, the answer is a 303 back with the cookie set,
    and the cookie then beats Accept-Language on every page."""
    back = f"/p/{EASY}?x=1"
    answer = client.post("/language", data={"lang": "de", "next": back})
    assert answer.status_code == 303
    assert answer.headers["Location"] == back
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=de;") and "SameSite=Lax" in cookie
    page = _text(client.get(f"/p/{EASY}", headers={"Accept-Language": "ja"}))
    assert _lang(page) == "de" and SOLVE["de"] in page
    client.post("/language", data={"lang": "en", "next": "/"})
    assert _lang(_text(client.get("/", headers={"Accept-Language": "ja"}))) == "en"


def test_the_picker_names_the_page_it_is_on(client: Any) -> None:
    page = _text(client.get(f"/p/{EASY}/steps?step=2"))
    assert f'name="next" value="/p/{EASY}/steps?step=2"' in page
    assert 'name="next" value="/"' in _text(client.get("/"))


def test_an_unknown_language_is_refused(client: Any) -> None:
    answer = client.post("/language", data={"lang": "xx", "next": "/"})
    assert answer.status_code == 400
    assert "Set-Cookie" not in answer.headers
    # A cookie naming no language of the site is ignored.
    client.set_cookie(COOKIE, "xx")
    assert _lang(_text(client.get("/", headers={"Accept-Language": "es"}))) == "es"


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/p",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "http:/evil.example",
        "/ok\r\nSet-Cookie: x=y",
        "",
        None,
    ],
)
def test_the_picker_never_sends_elsewhere(client: Any, target: str | None) -> None:
    assert safe_next(target) == "/"
    data = {"lang": "fr"} if target is None else {"lang": "fr", "next": target}
    assert client.post("/language", data=data).headers["Location"] == "/"


def test_share_links_are_language_neutral(client: Any) -> None:
    def links(code: str) -> list[str]:
        page = _text(client.get(f"/p/{EASY}", headers={"Accept-Language": code}))
        return re.findall(r'href="(/p/[^"]*|http://localhost/p/[^"]*)"', page)

    english = links("en")
    assert english
    for code in TRANSLATED:
        assert links(code) == english, code


@pytest.mark.parametrize("speedups", [True, False])
def test_caches_keep_each_language_apart(speedups: bool) -> None:
    """A stored page (the store, the replay by URL, the skeletons) is never served in another
    language, and cacheable answers say what they vary by."""
    client = create_app({**ROOMY, "SPEEDUPS": speedups}).test_client()
    path = f"/p/{EASY}"
    seen: dict[str, str] = {}
    for _ in range(2):  # the second round comes from the caches
        for code in LANGUAGES:
            answer = client.get(path, headers={"Accept-Language": code})
            assert answer.status_code == 200
            vary = {v.strip() for v in answer.headers.get("Vary", "").split(",")}
            assert {"Accept-Language", "Cookie"} <= vary
            page = _text(answer)
            assert _lang(page) == code and SOLVE[code] in page
            seen.setdefault(code, answer.headers["ETag"])
            assert answer.headers["ETag"] == seen[code]
    assert len(set(seen.values())) == len(LANGUAGES)
    # An ETag of one language is no validator for another.
    german = client.get(path, headers={"Accept-Language": "de", "If-None-Match": seen["de"]})
    assert german.status_code == 304
    other = client.get(path, headers={"Accept-Language": "ja", "If-None-Match": seen["de"]})
    assert other.status_code == 200 and _lang(_text(other)) == "ja"


# ---- The catalogs -------------------------------------------------------------------------------


def _catalog(code: str) -> Any:
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=code)


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalog_is_complete(code: str) -> None:
    """No entry empty or fuzzy, plural forms all filled, and each translation uses exactly
    the named placeholders of its source (a language orders its words; it keeps the values)."""
    catalog = _catalog(code)
    assert not catalog.fuzzy
    problems = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        wanted = set(re.findall(r"%\((\w+)\)", " ".join(ids)))
        for string in strings:
            if set(re.findall(r"%\((\w+)\)", string)) - wanted:
                problems.append(f"unknown placeholder in {string!r}")
            if re.search(r"%[sd]", string):
                problems.append(f"positional placeholder in {string!r}")
            # The core's templates ({digit}): exactly the source's names, each kept.
            if set(re.findall(r"\{(\w*)\}", string)) != set(re.findall(r"\{(\w*)\}", ids[0])):
                problems.append(f"placeholders differ in {string!r}")
    assert not problems, "\n".join(problems)


@cache
def _extracted() -> frozenset[str]:
    """Every message id the sources hold now, extracted as `make messages` does (once per
    worker: the sources do not change while the tests run)."""
    method_map = [
        ("sudoku_web/web/**.py", "python"),
        ("sudoku_web/core/**.py", "python"),
        ("sudoku_web/photo/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("static/**.js", "javascript"),
    ]
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
    found = set()
    # lazy_gettext and the core's plural marker, as `make messages` has them
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "Np_": (1, 2)}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options, keywords
    ):
        found.add(message if isinstance(message, str) else message[0])
    return frozenset(found)


def test_catalogs_hold_every_string_the_sources_mark() -> None:
    """A string wrapped in the sources but not extracted (``make messages`` not run) would
    show in English: every language's catalog holds every extracted id."""
    extracted = _extracted()
    assert len(extracted) > 5
    for code in TRANSLATED:
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog(code) if m.id}
        assert not extracted - ids, (code, sorted(extracted - ids)[:10])


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_committed_mo_is_the_compiled_po(code: str) -> None:
    """The .mo files are committed (no build step for `make run`): each must be what
    `make translations` compiles from its .po."""
    out = io.BytesIO()
    write_mo(out, _catalog(code))
    folder = TRANSLATIONS / code / "LC_MESSAGES"
    assert (folder / "messages.mo").read_bytes() == out.getvalue(), "run `make translations`"


def test_every_core_name_is_marked_for_the_catalog() -> None:
    """A technique, grade or engine grade the core adds must be marked in core_names.py, a rule
    kind's step in its own module (so `make messages` extracts it and the pages show it
    translated)."""
    from sudoku_web.core.logic import machine_grade
    from sudoku_web.core.solver import SolveStats
    from sudoku_web.core.techniques import GRADES, TECHNIQUES
    from sudoku_web.core.variants import VARIANTS
    from sudoku_web.web.puzzles import core_names

    marked = set(core_names.TECHNIQUE_NAMES) | set(core_names.RULE_STEP_NAMES)
    assert {name for name, _grade, _technique in TECHNIQUES} <= marked
    assert set(GRADES) <= set(core_names.GRADE_NAMES)
    labels = {machine_grade(SolveStats(guesses=g)).label for g in (0, 5, 50, 5000)}
    assert labels <= set(core_names.MACHINE_NAMES)
    examples = {e.label for info in VARIANTS for e in info.examples if e.label}
    assert examples <= set(core_names.EXAMPLE_NAMES)


def test_technique_names_are_translated_on_the_steps_page(client: Any) -> None:
    page = _text(client.get(f"/p/{EASY}/steps", headers={"Accept-Language": "de"}))
    assert "Versteckter Einer" in page or "Nackter Einer" in page
    page = _text(client.get(f"/p/{EASY}/steps", headers={"Accept-Language": "fr"}))
    assert "Singleton caché" in page or "Singleton nu" in page


def test_numbers_are_written_as_the_language_writes_them(client: Any) -> None:
    """The result page's time: a decimal point in English, a decimal comma in German and
    French (Babel's CLDR data)."""
    for code, mark in (("en", "."), ("de", ","), ("fr", ",")):
        page = _text(client.get(f"/p/{EASY}", headers={"Accept-Language": code}))
        assert re.search(rf"<dd>\d+{re.escape(mark)}\d ms</dd>", page), code


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_numbers_are_babels_format_decimal(code: str) -> None:
    """The locale and pattern read once per language (languages._number_format) write what
    Babel's ``format_decimal`` writes."""
    values: list[float] = [0, 7, 999, 1000, 12345, 9_876_543, 0.05, 1.25, 12.3, 1234.5]
    for pattern in (None, "#,##0.0", "#,##0"):
        for value in values:
            expected = format_decimal(value, format=pattern, locale=code)
            assert _formatted(code, value, pattern) == expected, (value, pattern)


# ---------------------------------------------------------------------------------------------
# The core's step sentences: a template and its values (sudoku_web/core/wording.py)

TOP95 = [
    line.strip().replace(".", "0")
    for line in (ROOT / "tests" / "data" / "top95.txt").read_text().split()
    if line.strip()
]


def _placeholders(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def _check_words(value: Any) -> None:
    """Each template's placeholders are exactly its values' names, all the way down."""
    from sudoku_web.core.wording import Listing, Words

    if isinstance(value, Listing):
        for item in value.items:
            _check_words(item)
    elif isinstance(value, Words):
        names = {name for name, _ in value.values}
        assert _placeholders(value.template) == names, value.template
        if value.plural:
            assert _placeholders(value.plural) == names, value.plural
        for _, item in value.values:
            _check_words(item)


#: The first killer of tests/data/killer_krazydad.txt (cage map, sums), solved from no givens.
KILLER = (ROOT / "tests" / "data" / "killer_krazydad.txt").read_text().split()[0].split(":")[:2]


def _explained(puzzle: str, killer: bool = False) -> Any:
    from sudoku_web.core.board import standard
    from sudoku_web.core.cages import parse_cages
    from sudoku_web.core.logic import explain

    geometry = standard(9)
    if killer:
        geometry = geometry.with_cages(parse_cages(":".join(KILLER), geometry))
    return explain(puzzle, geometry)


@pytest.mark.parametrize("index", [0, 6, 20, 41, "killer"])
def test_every_step_sentence_is_its_template_filled_in_english(index: int | str) -> None:
    """One truth: a step's English sentence is its template filled with its values
    (``Words.english``), and every step carries its words (every technique words its steps)."""
    from sudoku_web.core.wording import Words, english

    if isinstance(index, int):
        steps = _explained(TOP95[index]).steps
    else:
        steps = _explained("0" * 81, killer=True).steps
    assert steps
    for step in steps:
        assert step.words is not None, step.technique
        _check_words(step.words)
        assert step.sentence == english(step.words)
        said = step.words
        if isinstance(said, Words):
            template = said.plural if said.plural and said.count != 1 else said.template
            filled = {name: english(value) for name, value in said.values}
            assert step.sentence == template.format(**filled)


@pytest.mark.parametrize("code", ["de", "ja"])
def test_worded_step_sentences_read_in_the_language(client: Any, code: str) -> None:
    """A top95 puzzle's steps page in German and Japanese: no step's sentence is left in
    English (its template translated, its houses and lists too)."""
    puzzle = TOP95[6]
    steps = _explained(puzzle).steps
    english_page = _text(client.get(f"/p/{puzzle}/steps"))
    page = _text(client.get(f"/p/{puzzle}/steps", headers={"Accept-Language": code}))
    english = re.findall(r'<p class="sentence">(.*?)</p>', english_page)
    said = re.findall(r'<p class="sentence">(.*?)</p>', page)
    assert len(said) == len(english) > 5
    assert len(steps) >= len(said)
    for before, after in zip(english, said, strict=True):
        assert after != before
        for word in (" row ", " column ", " box ", " and ", " can ", " so "):
            assert word not in f" {after} ", (word, after)


@pytest.mark.parametrize("code", ["de", "ja"])
def test_the_search_story_reads_in_the_language(client: Any, code: str) -> None:
    """The engine's story on a top95 puzzle's search page: every line said in the language
    (core/story.py words each event), none left as its English."""
    puzzle = TOP95[6]  # guesses, tries and failures
    english_page = _text(client.get(f"/p/{puzzle}/search"))
    page = _text(client.get(f"/p/{puzzle}/search", headers={"Accept-Language": code}))
    line = r'<li class="ev [^"]*">.*?>\d+</span> (.*?)</li>'
    english, said = re.findall(line, english_page), re.findall(line, page)
    assert len(said) == len(english) > 3
    for before, after in zip(english, said, strict=True):
        assert after != before
        for word in (" the ", " guess ", " cell ", " Try ", " fails"):
            assert word not in f" {after} ", (word, after)


def test_the_scripts_words_are_the_catalogs(client: Any) -> None:
    """``/i18n/<code>.json``: every string the scripts mark, with its language's catalog
    entry (plural forms as a list); validated by its hash; no page of English names one."""
    from sudoku_web.web.runtime.script_words import marked_strings

    marked = marked_strings(ROOT / "static")
    assert len(marked) > 50
    for code in TRANSLATED:
        answer = client.get(f"/i18n/{code}.json")
        assert answer.status_code == 200 and answer.mimetype == "application/json"
        body = answer.get_json()
        catalog = _catalog(code)
        assert body["lang"] == code
        for text in marked:
            key = text[0] if isinstance(text, tuple) else text
            entry = catalog.get(key)
            wanted = list(entry.string) if isinstance(text, tuple) else entry.string
            assert body["messages"][key] == wanted, (code, key)
        again = client.get(f"/i18n/{code}.json", headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304
        page = _text(client.get("/", headers={"Accept-Language": code}))
        assert f'data-catalog="/i18n/{code}.json"' in page
    assert client.get("/i18n/en.json").get_json()["messages"] == {}
    assert client.get("/i18n/pt.json").status_code == 404
    assert "data-catalog" not in _text(client.get("/", headers={"Accept-Language": "en"}))


def test_the_pickers_words_and_headings_are_marked(app: Any) -> None:
    """Every picker entry's label and form heading is in the catalog (urls.PICKER_WORDS), so
    no form heads its page in English; a size alone ("4x4") is the same in every language."""
    from sudoku_web.web.puzzles import urls

    extracted = _extracted()
    with app.test_request_context():
        for choice in urls.CHOICES:
            assert choice.heading in extracted, choice.heading
            assert choice.label in extracted or re.fullmatch(r"\d+x\d+", choice.label), choice
