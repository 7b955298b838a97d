"""Sentences for a person, said by the lower floors without their words fixed in English.

The core and the photo reader import no web code, so they cannot translate; what they say to
a person is a :class:`Message`: its English text (the catalog's message id, marked with
:func:`N_`, or :func:`Nn_` with its plural, so ``make messages`` extracts it) and its named
values. ``str(message)`` is the English sentence (the command line, logs, tests); the web
layer says it in the request's language (:func:`sudoku_web.web.runtime.languages.say`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


def N_(text: str) -> str:
    """Marks ``text`` for the catalog (gettext's no-op marker); returns it unchanged."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 (gettext's marker name)
    """Marks a sentence and its plural for the catalog; returns both unchanged."""
    return singular, plural


@dataclass(frozen=True)
class Message:
    """A sentence: ``text`` with ``%(name)s`` placeholders filled from ``values``; with a
    ``plural``, ``num`` picks the form (and fills ``%(num)s``). A value that is a tuple of
    words is a list ("1, 2 and 3"), which each language writes its own way."""

    text: str
    values: tuple[tuple[str, object], ...] = ()
    plural: str = ""
    num: int = 0

    def __str__(self) -> str:
        text = self.plural if self.plural and self.num != 1 else self.text
        return text % self.named(listed) if "%" in text else text

    def named(self, lister: Callable[[Sequence[str]], str]) -> dict[str, object]:
        """The values by name (``num`` among them for a plural), lists written by ``lister``."""
        found = {k: lister(v) if isinstance(v, tuple) else v for k, v in self.values}
        if self.plural:
            found.setdefault("num", self.num)
        return found


def listed(words: Sequence[str]) -> str:
    """Words as an English sentence lists them: "1", "1 and 2", "1, 2 and 3"."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def say(text: str, **values: object) -> Message:
    """A :class:`Message` of ``text`` (marked with :func:`N_`) and its values."""
    return Message(text, tuple(values.items()))


def say_plural(forms: tuple[str, str], num: int, **values: object) -> Message:
    """A :class:`Message` of a sentence and its plural (marked with :func:`Nn_`), for ``num``."""
    return Message(forms[0], tuple(values.items()), forms[1], num)
