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

from pathlib import Path
from typing import Final

from flask import Flask, g, request
from flask_babel import Babel, format_decimal, get_locale

from ..puzzles.core_names import core_name, core_name_in_text

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
        cookie = request.cookies.get(COOKIE)
        if cookie in LANGUAGES:
            chosen = cookie
        else:
            chosen = request.accept_languages.best_match(_CODES, default=DEFAULT) or DEFAULT
        g._sudoku_language = chosen
    return chosen


def current() -> str:
    """The language this request is answered in (what a stored page's key must name)."""
    return select()


def init_app(app: Flask) -> None:
    """Flask-Babel on ``app``, its language chosen by :func:`select`, its catalogs from
    ``sudoku_web/translations``; templates get ``_``, ``ngettext``, :data:`LANGUAGES`,
    :func:`language_tag`, ``format_decimal`` and the filter ``core_name`` (a grade or
    technique name translated, :mod:`~sudoku_web.web.puzzles.core_names`)."""
    Babel(
        app,
        locale_selector=select,
        default_translation_directories=str(TRANSLATIONS),
    )
    # {% trans %} blocks as one line of words (babel.cfg extracts them so too).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["language_tag"] = language_tag
    app.jinja_env.globals["format_decimal"] = format_decimal
    app.jinja_env.filters["core_name"] = core_name
    app.jinja_env.filters["core_name_in_text"] = core_name_in_text


def language_tag() -> str:
    """The BCP 47 tag of the request's language, for ``<html lang>``."""
    return str(get_locale() or DEFAULT).replace("_", "-")
