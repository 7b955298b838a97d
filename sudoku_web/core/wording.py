"""Sentences the core says, kept as whole templates with named values so that each language can
order its own words.

The core speaks English and imports no web code. A sentence it shows people (a step of an
explanation, say) is a :class:`Words`: a whole sentence marked for the catalog (``N_``, or
``Np_`` for a sentence with a singular and a plural form) with named placeholders
(``"{digit} is the only candidate left in {cell}."``) and the values that fill them. A value is
text every language writes alike (a cell ``r4c7``, a digit), or words of their own (a house
``row 4``, a technique's name) or a list (``r1c1, r1c2 and r1c3``), which the web layer
translates too. :meth:`Words.english` is the sentence in English (the core's, the command
line's); :func:`say` is the one way of filling a template, in English or, handed the
catalog's ``gettext`` and ``ngettext``, in another language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Union

#: A value of a sentence: plain text (the same in every language), a whole number (written as
#: each language writes numbers), or words translated in turn.
Value = Union[str, int, "Words", "Listing"]

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]
Number = Callable[[int], str]


def N_(text: str) -> str:
    """Marks ``text`` for the catalog (``make messages`` extracts it; gettext's no-op marker)."""
    return text


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a sentence's singular and plural forms for the catalog (extracted as one entry
    with plural forms, keyword ``Np_:1,2``): :func:`counted` chooses by a count."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Words:
    """A whole sentence (or name) as a catalog template and the values of its placeholders.

    ``plural`` is the template's plural form (empty for a sentence without one): the catalog
    chooses the form of the language for ``count``. ``capital``: the words open a sentence, so
    their first letter is written in upper case (``Row 4 adds up to 45``) in every language.
    """

    template: str
    values: tuple[tuple[str, Value], ...] = ()
    plural: str = ""
    count: int = 1
    capital: bool = False
    #: The words are a sentence said as a clause: its closing full stop is left out.
    clause: bool = False

    def english(self) -> str:
        """The sentence in English: the template filled with the values' English."""
        return english(self)

    def __str__(self) -> str:
        return self.english()


@dataclass(frozen=True, slots=True)
class Listing:
    """Values said as a list: ``a, b and c`` (or ``a, b or c``), joined as each language joins;
    ``so`` joins the steps of a chain of reasoning (``a, so b, so c``), ``;`` and ``,`` its
    clauses, and ``" "`` whole sentences."""

    items: tuple[Value, ...]
    joint: Joint = "and"


Joint = Literal["and", "or", "so", ";", ",", " "]

#: How lists are joined: a list so far and one more item (the catalog's entries), between
#: items and before the last one.
_NEXT: Final = {
    "and": N_("{list}, {item}"),
    "or": N_("{list}, {item}"),
    "so": N_("{list}, so {item}"),
    ";": N_("{list}; {item}"),
    ",": N_("{list}, {item}"),
    " ": N_("{list} {item}"),
}
_LAST: Final = {
    "and": N_("{list} and {item}"),
    "or": N_("{list} or {item}"),
    "so": N_("{list}, so {item}"),
    ";": N_("{list}; {item}"),
    ",": N_("{list}, {item}"),
    " ": N_("{list} {item}"),
}


def words(template: str, /, **values: Value) -> Words:
    """A :class:`Words` of a template (marked with ``N_``) and its named values."""
    return Words(template, tuple(values.items()))


def counted(forms: tuple[str, str], number: int, /, **values: Value) -> Words:
    """A :class:`Words` with plural forms (marked with ``Np_``) chosen by ``number``."""
    return Words(forms[0], tuple(values.items()), forms[1], number)


def capital(value: Words) -> Words:
    """``value`` opening a sentence: written with a capital first letter in every language."""
    return Words(value.template, value.values, value.plural, value.count, True, value.clause)


def clause(value: Words) -> Words:
    """The sentence ``value`` said as a clause of another: without its closing full stop (in
    any language)."""
    return Words(value.template, value.values, value.plural, value.count, value.capital, True)


def listing(items: Iterable[Value], joint: Joint = "and") -> Listing:
    """A :class:`Listing` of ``items`` in their order."""
    return Listing(tuple(items), joint)


def abridged(items: Sequence[Value], shown: int) -> Listing:
    """``items`` as a list of at most ``shown`` of them, then how many more: ``a, b and 3
    more``."""
    if len(items) <= shown:
        return listing(items)
    more = len(items) - shown
    return listing([*items[:shown], words(N_("{count} more"), count=more)])


def say(value: Value, gettext: Gettext, ngettext: Ngettext, number: Number = str) -> str:
    """``value`` in the language of ``gettext``/``ngettext``: a template translated, then
    filled with its values said in the same language (whole numbers by ``number``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return number(value)
    if isinstance(value, Listing):
        said = [say(item, gettext, ngettext, number) for item in value.items]
        return _join(said, value.joint, gettext)
    if value.plural:
        template = ngettext(value.template, value.plural, value.count)
    else:
        template = gettext(value.template)
    if value.values:
        template = template.format_map(
            {k: say(v, gettext, ngettext, number) for k, v in value.values}
        )
    if value.clause:
        template = template.rstrip(".。")
    return template[:1].upper() + template[1:] if value.capital else template


def english(value: Value) -> str:
    """``value`` in English (the source language: templates as they are)."""
    return say(value, _english_gettext, _english_ngettext)


def _join(items: Sequence[str], joint: Joint, gettext: Gettext) -> str:
    if not items:
        return ""
    text = items[0]
    if len(items) == 1:
        return text
    middle = gettext(_NEXT[joint])
    for item in items[1:-1]:
        text = middle.format(list=text, item=item)
    return gettext(_LAST[joint]).format(list=text, item=items[-1])


def _english_gettext(text: str) -> str:
    return text


def _english_ngettext(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural
