"""The visitor's language: which one a request is answered in, and Flask-Babel set up for it.

A request's language is, in this order: the ``lang`` cookie (the visitor's own choice, set by
the picker every page carries, :func:`sudoku_web.web.pages.language.choose`), the best match of
``Accept-Language`` among :data:`LANGUAGES`, English. URLs never name a language, so a share
link opens in each visitor's own; everything that keeps a rendered answer
(:mod:`~sudoku_web.web.runtime.cache`, the replay by URL and the page skeletons of
:mod:`~sudoku_web.web.runtime.speedups`) adds :func:`current` to its key, and cacheable
responses say ``Vary: Accept-Language, Cookie``.

The catalogs are gettext's, in ``sudoku_web/translations/<code>/LC_MESSAGES/messages.po``
with their compiled ``.mo`` beside them (docs/development.md, "Adding a language").
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any, Final, Protocol

from babel import Locale
from babel.numbers import NumberPattern, parse_pattern
from babel.support import NullTranslations
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_translations
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..render.cell_markup import ENGLISH, CellWords

#: The site's languages, English (the source) first: code -> the language's own name, as the
#: picker shows it (a visitor who reads no English finds their language by its own name).
LANGUAGES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "ja": "日本語",
}
DEFAULT: Final = "en"
COOKIE: Final = "lang"
#: How long the choice is kept: a year (the visitor changes it with the picker any time).
COOKIE_MAX_AGE: Final = 365 * 24 * 3600
#: The headers a response in the visitor's language varies by (added to cacheable answers).
VARY: Final = ("Accept-Language", "Cookie")

TRANSLATIONS: Final = Path(__file__).resolve().parent.parent.parent / "translations"
_CODES: Final = tuple(LANGUAGES)


def select() -> str:
    """The request's language code: the cookie's when it names one of :data:`LANGUAGES`,
    else the best match of ``Accept-Language``, else English. Kept on ``g`` (the caches ask
    for it before the view does)."""
    chosen: str | None = g.get("_sudoku_language")
    if chosen is None:
        environ = request.environ
        cookie = request.cookies.get(COOKIE) if "HTTP_COOKIE" in environ else None
        if cookie in LANGUAGES:
            chosen = cookie
        else:
            chosen = _best_match(environ.get("HTTP_ACCEPT_LANGUAGE", ""))
        g._sudoku_language = chosen
    return chosen


#: Accept-Language values longer than this are matched each time, never remembered.
_REMEMBERED_HEADER: Final = 200


def _best_match(header: str) -> str:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` value (English when none
    fits); the few values browsers send are parsed once (:func:`_parsed_match`)."""
    if len(header) <= _REMEMBERED_HEADER:
        return _parsed_match(header)
    return _parse_match(header)


@functools.lru_cache(maxsize=512)  # at most 512 values of at most 200 characters
def _parsed_match(header: str) -> str:
    return _parse_match(header)


def _parse_match(header: str) -> str:
    accept = parse_accept_header(header, LanguageAccept)
    return accept.best_match(_CODES, default=DEFAULT) or DEFAULT


def current() -> str:
    """The language this request is answered in (what a stored page's key must name)."""
    return select()


def catalog() -> NullTranslations:
    """The request's catalog, kept on ``g``: Flask-Babel's own lookup walks its contexts on
    every call (a fifth of a steps page's CPU when each of its few hundred strings asked)."""
    found: NullTranslations | None = g.get("_sudoku_catalog")
    if found is None:
        found = g._sudoku_catalog = get_translations()
    return found


def gettext(string: str) -> str:
    """``string`` in the request's language, as the catalog has it (no placeholder filled)."""
    return str(catalog().ugettext(string))


def template_gettext(string: str, **variables: Any) -> Markup:
    """Templates' ``_`` and ``gettext``, as Jinja's "newstyle" i18n has them (the translation
    trusted, the variables escaped into its named placeholders), in one call: Jinja's own
    wrapper goes through three context calls per string, a tenth of a steps page's CPU."""
    translated = Markup(catalog().ugettext(string))
    if not variables and "%" not in translated:
        return translated  # nothing to fill, no "%%" to undo
    return translated % variables


def template_ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    """Templates' ``ngettext``: the plural form for ``num``, ``num`` a variable too."""
    variables.setdefault("num", num)
    return Markup(catalog().ungettext(singular, plural, num)) % variables


#: Each language's cell words, made once per process (a handful of catalog lookups).
_CELL_WORDS: dict[str, CellWords] = {DEFAULT: ENGLISH}


def cell_words() -> CellWords:
    """What grid cells' labels say in the request's language (every board drawn in a
    request is given these; English pages, and boards drawn outside a request, get
    :data:`ENGLISH` itself, at no cost)."""
    if not has_request_context():
        return ENGLISH
    code = current()
    found = _CELL_WORDS.get(code)
    if found is None:
        found = _CELL_WORDS[code] = CellWords(
            *(gettext(getattr(ENGLISH, word.name)) for word in dataclasses.fields(CellWords))
        )
    return found


def init_app(app: Flask) -> None:
    """Flask-Babel on ``app``, its language chosen by :func:`select`, its catalogs from
    ``sudoku_web/translations``; templates get ``_`` and ``ngettext`` (through
    :func:`catalog`), :data:`LANGUAGES`, :func:`language_tag` and :func:`format_number`."""
    Babel(
        app,
        locale_selector=select,
        default_translation_directories=str(TRANSLATIONS),
    )
    # Flask-Babel installed Jinja's i18n extension in "newstyle" ({% trans %} blocks call
    # gettext with their variables); these do the same work, cheaper (template_gettext).
    app.jinja_env.globals.update(
        _=template_gettext, gettext=template_gettext, ngettext=template_ngettext
    )
    # {% trans %} blocks as one line of words (babel.cfg extracts them so too).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["language_tag"] = language_tag
    app.jinja_env.globals["format_number"] = format_number
    # The registry's words marked for the catalog (a variant's houses): as the catalog has them.
    app.jinja_env.filters["catalog_words"] = gettext


def language_tag() -> str:
    """The BCP 47 tag of the request's language, for ``<html lang>`` (the codes of
    :data:`LANGUAGES` are such tags)."""
    return current()


def format_number(value: float, pattern: str | None = None) -> str:
    """``value`` written as the request's language writes numbers (Babel's CLDR data:
    ``1,234.5``, ``1.234,5``, ``1 234,5``), with an optional CLDR ``pattern`` (``"#,##0.0"``)."""
    return _formatted(current(), value, pattern)


class NumberWriter(Protocol):
    """:func:`format_number` with the language chosen (see :func:`number_writer`)."""

    def __call__(self, value: float, pattern: str | None = None) -> str: ...


def number_writer() -> NumberWriter:
    """:func:`format_number` in the request's language, looked up once: for a view that
    writes several numbers (a result page's four counts and time)."""
    language = current()

    def write(value: float, pattern: str | None = None) -> str:
        return _formatted(language, value, pattern)

    return write


@functools.lru_cache(maxsize=4096)  # counts and times repeat; Babel's formatting is not cheap
def _formatted(language: str, value: float, pattern: str | None) -> str:
    locale, number_pattern = _number_format(language, pattern)
    return str(number_pattern.apply(value, locale))


@functools.lru_cache(maxsize=64)  # the languages times the few patterns the pages name
def _number_format(language: str, pattern: str | None) -> tuple[Locale, NumberPattern]:
    """What Babel's ``format_decimal`` reads afresh on each call (the locale's data, the
    parsed pattern: three quarters of its time), read once per language and pattern."""
    locale = Locale.parse(language)
    return locale, parse_pattern(pattern if pattern is not None else locale.decimal_formats[None])
