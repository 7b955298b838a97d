"""The scripts' words in one language, as JSON for ``static/js/i18n.js``.

The strings are what Babel's JavaScript extraction finds marked in ``static/**.js`` (the
``_``/``ngettext`` keywords ``make messages`` reads through ``babel.cfg``); each one's
translation is that language's gettext catalog entry, the same ``messages.po`` the pages use.
So the scripts have no word list of their own: marking a string in a script and translating
its catalog entry is all a new word takes.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Final

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from .languages import DEFAULT, TRANSLATIONS

#: Babel's method map for the scripts (babel.cfg's ``[javascript: static/**.js]``).
_METHODS: Final = [("**.js", "javascript")]


def marked_strings(static: Path) -> list[str | tuple[str, str]]:
    """Every string the scripts under ``static`` mark: a text, or (singular, plural)."""
    found: dict[str | tuple[str, str], None] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(static), method_map=_METHODS, keywords=DEFAULT_KEYWORDS
    ):
        if isinstance(message, tuple):
            found[(str(message[0]), str(message[1]))] = None
        else:
            found[str(message)] = None
    return list(found)


@functools.lru_cache(maxsize=8)  # one per language of the site; built on first ask
def catalog_json(code: str, static: Path) -> tuple[bytes, str]:
    """The JSON catalog of language ``code`` and its ETag: ``{"lang": code, "messages":
    {text: translation, singular: [plural forms]}}``, with the untranslated left out (the
    script then shows the English source). English has no entries."""
    messages: dict[str, str | list[str]] = {}
    if code != DEFAULT:
        with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
            catalog = read_po(po, locale=code)
        for text in marked_strings(static):
            key = text[0] if isinstance(text, tuple) else text
            entry = catalog.get(key)
            if entry is None or not entry.string or entry.fuzzy:
                continue
            string = entry.string
            messages[key] = [str(s) for s in string] if isinstance(string, tuple) else str(string)
    body = json.dumps(
        {"lang": code, "messages": messages}, ensure_ascii=False, sort_keys=True
    ).encode()
    return body, hashlib.sha256(body).hexdigest()[:20]
