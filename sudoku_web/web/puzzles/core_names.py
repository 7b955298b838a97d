"""The core's names as the pages show them: technique, grade and example names translated
through the catalog (the core speaks English and imports no web code; its names are its registry's
keys). ``N_`` marks each name for ``make messages`` without translating it here;
:func:`core_name` translates one at render time (the Jinja filter ``core_name``).
tests/test_languages.py checks every name of the core's ladder and grades is marked here.
"""

from __future__ import annotations

from typing import Any, Final

from flask import Flask
from markupsafe import Markup, escape

from ...core.board import PuzzleError
from ...core.rules.registry import KINDS
from ...core.variants import SHADED, VariantInfo
from ...core.wording import Listing, Words, say
from ..runtime.languages import catalog, current, format_number, gettext


def N_(name: str) -> str:
    """Marks ``name`` for extraction (gettext's no-op marker); translated by :func:`core_name`."""
    return name


#: The difficulty grades (``sudoku_web.core.techniques.GRADES``).
GRADE_NAMES: Final = (
    N_("Easy"),
    N_("Medium"),
    N_("Hard"),
    N_("Fiendish"),
    N_("Diabolical"),
)

#: The technique ladder's names (``sudoku_web.core.techniques.TECHNIQUES``), cheapest first.
TECHNIQUE_NAMES: Final = (
    N_("Hidden single"),
    N_("Naked single"),
    N_("Cage combination"),
    N_("Pointing"),
    N_("Cage/house overlap"),
    N_("Innies and outies"),
    N_("Naked pair"),
    N_("Hidden pair"),
    N_("Naked triple"),
    N_("Hidden triple"),
    N_("X-wing"),
    N_("Skyscraper"),
    N_("Two-string kite"),
    N_("Empty rectangle"),
    N_("Naked quad"),
    N_("Hidden quad"),
    N_("XY-wing"),
    N_("Swordfish"),
    N_("XYZ-wing"),
    N_("W-wing"),
    N_("Simple colouring"),
    N_("Multi-colouring"),
    N_("Jellyfish"),
    N_("Finned X-wing"),
    N_("Unique rectangle"),
    N_("Unique rectangle type 2"),
    N_("Unique rectangle type 3"),
    N_("Unique rectangle type 4"),
    N_("Unique rectangle type 5"),
    N_("Unique rectangle type 6"),
    N_("Hidden rectangle"),
    N_("Avoidable rectangle"),
    N_("Avoidable rectangle type 2"),
    # Translators: an advanced technique its players name in English in every language;
    # keep the English name.
    N_("BUG+1"),
    N_("Finned swordfish"),
    N_("Finned jellyfish"),
    N_("XY-chain"),
    N_("X-chain"),
    N_("Grouped X-chain"),
    # Translators: an advanced technique its players name in English in every language;
    # keep the English name.
    N_("Sue de Coq"),
    # Translators: an advanced technique its players name in English in every language;
    # keep the English name.
    N_("ALS-XZ"),
    # Translators: an advanced technique its players name in English in every language;
    # keep the English name.
    N_("ALS-XY-wing"),
    N_("ALS chain"),
    N_("Forcing chain by contradiction"),
    N_("Forcing net by contradiction"),
    N_("Forcing chain with rules"),
)

#: Each rule kind's step name (its ``STEP``), marked for the catalog in the kind's own module
#: (``sudoku_web.core.rules``: a kind is named nowhere else); asked of the registry here.
RULE_STEP_NAMES: Final = tuple(kind.STEP for kind in KINDS if kind.STEP)

#: The engine's effort (``sudoku_web.core.logic.machine_grade``) and the step that is a guess.
MACHINE_NAMES: Final = (
    N_("No guessing"),
    N_("A few guesses"),
    N_("Many guesses"),
    N_("Long search"),
    N_("Guess"),
)

#: The registry's labelled examples (``sudoku_web.core.variants``, each variant's ``examples``).
EXAMPLE_NAMES: Final = (
    N_("An easy one"),
    N_("A hard one"),
    N_("One with two solutions"),
    N_("A killer from KrazyDad's booklets"),
)

_KNOWN: Final = frozenset(
    GRADE_NAMES + TECHNIQUE_NAMES + RULE_STEP_NAMES + MACHINE_NAMES + EXAMPLE_NAMES
)

#: Languages whose sentences write a name in lower case ("the hardest technique needed is
#: hidden pair"); German capitalises its nouns, Japanese has no case.
_LOWER_IN_TEXT: Final = frozenset({"en", "fr", "es"})


def core_name(name: str) -> str:
    """``name`` (a grade or technique of the core) in the request's language; any other text
    as it is."""
    return gettext(name) if name in _KNOWN else name


def core_name_in_text(name: str) -> str:
    """:func:`core_name` as a sentence's word: lower case where the language writes it so."""
    translated = core_name(name)
    return translated.lower() if current() in _LOWER_IN_TEXT else translated


def said(english: str, words: Words | Listing | None) -> str:
    """A sentence of the core in the request's language: its ``words`` (template and values)
    translated and filled, or its stored ``english`` as it is in English (no work) or when
    the core did not word it."""
    if words is None or current() == "en":
        return english
    found = catalog()
    return say(words, found.ugettext, found.ungettext, format_number)


def problem_text(error: PuzzleError) -> str:
    """A puzzle's problem in the request's language (in English where the core says it in
    English only so far: its ``said`` is None); the Jinja filter ``problem_text``."""
    return said(error.message, error.said)


def variant_rules(info: VariantInfo) -> Markup:
    """A variant's rules in the request's language, the shading's key (``{shaded}``) drawn
    as the key it is; the Jinja global ``variant_rules``."""
    text = said(info.rules, Words(info.rules))
    before, _, after = text.partition("{shaded}")
    if not _:
        return escape(text)
    key = Markup('<span class="key shade">%s</span>') % said(SHADED, Words(SHADED))
    return escape(before) + key + escape(after)


def words_filter(value: Words | None) -> str:
    """The Jinja filter ``words``: words of the core (a house's name, a guess) in the
    request's language; empty for None."""
    return "" if value is None else said(value.english(), value)


def sentence(view: Any) -> str:
    """The Jinja filter ``sentence``: a step's (any object with ``sentence`` and ``words``)
    sentence in the request's language (:func:`said`)."""
    return said(view.sentence, view.words)


def init_app(app: Flask) -> None:
    """The Jinja filters ``core_name``, ``core_name_in_text``, ``sentence``, ``words`` and
    ``problem_text``."""
    app.jinja_env.filters["core_name"] = core_name
    app.jinja_env.filters["problem_text"] = problem_text
    app.jinja_env.filters["core_name_in_text"] = core_name_in_text
    app.jinja_env.filters["sentence"] = sentence
    app.jinja_env.filters["words"] = words_filter
    app.jinja_env.globals["variant_rules"] = variant_rules
