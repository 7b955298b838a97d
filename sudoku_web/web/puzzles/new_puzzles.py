"""New puzzles on the web: what the New puzzle form, the daily puzzle and ``/api/generate`` share
(the routes are :mod:`sudoku_web.web.pages.new_puzzle` and :mod:`sudoku_web.web.api.generate`).

Routes:

=========================================  =========================================================
``GET /new[?variant=…[&size=…]]``          the form: variant and grade (opened on the kind
                                           named); with ``?v=…&grade=…`` it makes a puzzle
                                           and answers ``303`` to its play page
``GET /daily[?v=…&grade=…]``               the same puzzle for everyone on a UTC day: ``303`` to
                                           its play page, cacheable until midnight UTC
``GET /api/generate?variant=…&grade=…``    JSON: ``puzzle``, ``variant``, ``size``, ``regions``,
``[&size=…][&seed=…]``                     ``grade``, ``source``, ``seed``, ``share_url``,
                                           ``play_url``, and a killer's ``cages``
=========================================  =========================================================

One request never waits much more than a second: a puzzle is generated live (``source``
``"live"``) within a count of attempts and ``GENERATE_DEADLINE_MS``; when that does not reach
the grade (the top grades are rare, 16x16 grids are slow to carve) it comes from the pool the
package ships (``source`` ``"pool"``, see :mod:`sudoku_web.core.pool`). Both are picked by the
seed, so the same seed gives the same puzzle (unless an overloaded server hit the deadline
first; the answer then still says where its puzzle came from). A kind its registry entry
looks for nowhere live (the killer, whose attempts take seconds) always comes from the pool.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext

from ...core import pool
from ...core.board import Geometry
from ...core.generate import OutOfTime, generate
from ...core.logic import GRADES, Grade
from ...core.variants import CLASSIC, VARIANTS
from ..runtime.cache import get_store, text_key
from . import urls

# Live attempts per kind before the pool answers, and the kinds and grades too rare to look
# for live: each variant's registry entry (VariantInfo.live_attempts, .pool_only) says, so the
# deadline is only a safety net for a busy machine.
LIVE_ATTEMPTS: dict[tuple[str, int], int] = {
    (info.key, size): count for info in VARIANTS for size, count in info.live_attempts.items()
}
POOL_ONLY: frozenset[tuple[str, int, str]] = frozenset(
    (info.key, size, grade) for info in VARIANTS for size, grade in info.pool_only
)
DEFAULT_GRADE: Grade = "Medium"
MAX_SEED = 64  # characters


@dataclass(frozen=True)
class Kind:
    """A kind of puzzle the web makes: a picker entry of the main form."""

    key: str  # the form's ``?v=`` key ("" for classic 9x9)
    label: str
    variant: str
    size: int


KINDS: tuple[Kind, ...] = tuple(Kind(c.key, c.label, c.variant, c.size) for c in urls.CHOICES)


class BadRequest(ValueError):
    """A request parameter the generator cannot take; the message names it."""


@dataclass(frozen=True)
class Made:
    """A puzzle made for a request, and where it came from."""

    geometry: Geometry
    puzzle: str  # "0" for blanks
    grade: Grade
    source: str  # "live" or "pool"
    seed: str


class NoneAvailable(LookupError):
    """Neither live generation nor the pool had a puzzle of that kind and grade."""


def kind_of(name: str | None, size: str | None = None) -> Kind:
    """The kind a ``variant``/``v`` parameter names: a form key (``x``, ``4x4``, ``16x16``,
    ``""`` for classic) or an engine variant (``standard``, ``x``, ...), with ``size`` (the
    kind's own size when left out: ``standard`` alone is 9x9)."""
    text = (name or "").strip().lower()
    if text in CLASSIC.aliases:
        text = CLASSIC.key
    wanted: int | None = None
    if size not in (None, ""):
        if not (size.isascii() and size.isdigit()):  # "²" and "٣" are digits to isdigit()
            raise BadRequest(
                gettext("size must be a number such as 9, not %(size)s.", size=repr(size))
            )
        wanted = int(size)
    for kind in KINDS:
        if text in (kind.key, kind.variant) and (wanted is None or wanted == kind.size):
            return kind
    offered = ", ".join(k.key or CLASSIC.key for k in KINDS)
    if wanted is not None:
        raise BadRequest(
            gettext(
                "No puzzles of variant %(name)s at size %(size)s; the variants are %(offered)s.",
                name=repr(name),
                size=wanted,
                offered=offered,
            )
        )
    raise BadRequest(
        gettext(
            "No puzzles of variant %(name)s; the variants are %(offered)s.",
            name=repr(name),
            offered=offered,
        )
    )


def grade_of(text: str | None) -> Grade:
    """The grade a ``grade`` parameter names, any letter case (default Medium)."""
    if not text:
        return DEFAULT_GRADE
    for word in GRADES:
        if text.strip().lower() == word.lower():
            return word
    raise BadRequest(
        gettext(
            "No grade %(grade)s; the grades are %(grades)s.",
            grade=repr(text),
            grades=", ".join(GRADES),
        )
    )


def seed_of(text: str | None) -> str:
    """The request's seed, or a fresh random one (returned, so the puzzle can be had again)."""
    if text is None or text == "":
        return secrets.token_hex(6)
    if len(text) > MAX_SEED or not text.isprintable():
        raise BadRequest(
            gettext("seed must be printable text of at most %(most)s characters.", most=MAX_SEED)
        )
    return text


def make(kind: Kind, asked: Grade, seed: str, *, hurry: bool = True) -> Made:
    """A puzzle of ``kind`` and grade ``asked`` for ``seed``: live when it is found within the
    kind's attempts (and, with ``hurry``, the deadline), else from the pool. Raises
    :class:`NoneAvailable`.

    ``hurry=False`` (the daily puzzle) drops the deadline: the attempt count alone bounds the
    work, so the answer cannot depend on how busy a worker is, and everyone gets the same.
    """
    key = text_key("generate", kind.variant, kind.size, asked, seed)
    store = get_store()
    kept = store.get(key)
    if isinstance(kept, Made):
        return kept
    attempts = LIVE_ATTEMPTS.get((kind.variant, kind.size), 0)
    if (kind.variant, kind.size, asked) in POOL_ONLY:
        attempts = 0
    made: Made | None = None
    tried = ""  # what the live search did, for the message when nothing is available
    steady = True  # False when the clock, not the attempt count, ended the live search
    if attempts:
        deadline = float(current_app.config["GENERATE_DEADLINE_MS"]) if hurry else None
        try:
            found = generate(
                kind.variant,
                kind.size,
                asked,
                seed=seed,
                max_attempts=attempts,
                deadline_ms=deadline,
            )
        except OutOfTime:
            steady = False
            tried = "the time ran out before a new one was graded, and "
        else:
            steady = found.cut != "deadline"
            if found.reached:
                made = Made(found.geometry, found.puzzle, found.grade, "live", seed)
            else:
                within = f"{found.attempts} tries" + ("" if steady else " (the time ran out)")
                tried = f"none turned up in {within} and "
    if made is None:
        entry = pool.pick(pool.shipped(), kind.variant, kind.size, asked, seed)
        if entry is None:
            raise NoneAvailable(_none_message(kind, asked, tried))
        made = Made(entry.geometry, entry.puzzle, entry.grade, "pool", seed)
    if steady:  # what a machine under load made in a hurry is not what the seed means
        store.set(key, made)
    return made


def _none_message(kind: Kind, asked: Grade, tried: str) -> str:
    have = [g for g in grades_of(kind) if g != asked]  # never the grade that just failed
    offer = f" Try {', '.join(have)}." if have else ""
    return f"No {asked} {kind.label} puzzle is available: {tried}the pool has none.{offer}"


def links(made: Made) -> tuple[str, str]:
    """The new puzzle's share link and play link (absolute)."""
    share = urls.share_url(made.geometry, made.puzzle, external=True)
    return share, urls.share_url(made.geometry, made.puzzle, "play", external=True)


def opened(made: Made) -> str:
    """Where the form and the daily puzzle send people: the play page (a path on this site),
    marked ``?from=pool`` when the puzzle came from the pre-generated pool, so the page can
    say so."""
    play = urls.share_url(made.geometry, made.puzzle, "play")
    return play + "?from=pool" if made.source == "pool" else play


def grades_of(kind: Kind) -> tuple[Grade, ...]:
    """The grades ``kind`` can be had in: those the shipped pool holds (it backs every live
    search, so a grade it lacks is one the form would refuse)."""
    return tuple(g for g in GRADES if pool.count(pool.shipped(), kind.variant, kind.size, g))
