"""Our own spelling of a board's rules: short, URL-safe, one spelling per set of rules.

A rule is its kind's ``KEY`` then its parts, joined by ``_`` (``th_11121314``: a thermometer
over r1c1-r1c4); rules are joined by ``.`` and sorted, so a set of rules has one spelling.
Cells are two characters, row then column, ``1``-``9`` then ``a``-``z`` (r10 is ``a``).
Numbers are decimal, ``m`` in front for minus. The reader also takes rules separated by
whitespace, commas, semicolons or new lines (the form's text field).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..board import PuzzleError
from ..wording import N_
from .base import MAX_RULES, Rule, RuleError, refused
from .registry import find_kind

MAX_SPELLING = 60_000  # characters of rules text read at most
_SEPARATORS = re.compile(r"[\s.,;]+")


def spell(rules: Iterable[Rule], size: int) -> str:
    """The canonical spelling of ``rules`` on a board of ``size``."""
    return ".".join(sorted({token(rule, size) for rule in rules}))


def token(rule: Rule, size: int) -> str:
    """One rule's spelling."""
    parts = rule.spell(size)
    return f"{rule.KEY}_{parts}" if parts else rule.KEY


def parse(text: str, size: int) -> tuple[Rule, ...]:
    """The rules of a spelling, in canonical order; raises :class:`RuleError` with every
    problem found."""
    if len(text) > MAX_SPELLING:
        raise refused(
            N_("The rules text has {count} characters; at most {most}."),
            count=len(text),
            most=MAX_SPELLING,
        )
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if len(tokens) > MAX_RULES:
        raise refused(
            N_("{count} rules; at most {most} are read."), count=len(tokens), most=MAX_RULES
        )
    rules: list[Rule] = []
    errors: list[PuzzleError] = []
    for tok in tokens:
        key, *args = tok.split("_")
        try:
            rules.append(find_kind(key.lower()).parse(args, size))
        except RuleError as exc:
            errors.extend(exc.errors)
    if errors:
        raise RuleError(errors)
    return canonical(rules, size)


def canonical(rules: Iterable[Rule], size: int) -> tuple[Rule, ...]:
    """``rules`` without repeats, in the order of their spellings."""
    by_token = {token(rule, size): rule for rule in rules}
    return tuple(by_token[t] for t in sorted(by_token))
