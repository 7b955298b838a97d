"""New puzzles on the web: the New puzzle form, the daily puzzle and ``/api/generate``.

Routes (blueprint ``generate``):

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

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from ..core import pool
from ..core.board import Geometry
from ..core.generate import OutOfTime, generate
from ..core.logic import GRADES, Grade
from ..core.variants import CLASSIC, VARIANTS
from . import variants
from .cache import get_store, no_store, text_key
from .request_path import json_error

bp = Blueprint("generate", __name__)

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


KINDS: tuple[Kind, ...] = tuple(Kind(c.key, c.label, c.variant, c.size) for c in variants.CHOICES)


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
            raise BadRequest(f"size must be a number such as 9, not {size!r}.")
        wanted = int(size)
    for kind in KINDS:
        if text in (kind.key, kind.variant) and (wanted is None or wanted == kind.size):
            return kind
    offered = ", ".join(k.key or CLASSIC.key for k in KINDS)
    extra = f" at size {wanted}" if wanted is not None else ""
    raise BadRequest(f"No puzzles of variant {name!r}{extra}; the variants are {offered}.")


def grade_of(text: str | None) -> Grade:
    """The grade a ``grade`` parameter names, any letter case (default Medium)."""
    if not text:
        return DEFAULT_GRADE
    for word in GRADES:
        if text.strip().lower() == word.lower():
            return word
    raise BadRequest(f"No grade {text!r}; the grades are {', '.join(GRADES)}.")


def seed_of(text: str | None) -> str:
    """The request's seed, or a fresh random one (returned, so the puzzle can be had again)."""
    if text is None or text == "":
        return secrets.token_hex(6)
    if len(text) > MAX_SEED or not text.isprintable():
        raise BadRequest(f"seed must be printable text of at most {MAX_SEED} characters.")
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
    share = variants.share_url(made.geometry, made.puzzle, external=True)
    return share, variants.share_url(made.geometry, made.puzzle, "play", external=True)


def opened(made: Made) -> str:
    """Where the form and the daily puzzle send people: the play page (a path on this site),
    marked ``?from=pool`` when the puzzle came from the pre-generated pool, so the page can
    say so."""
    play = variants.share_url(made.geometry, made.puzzle, "play")
    return play + "?from=pool" if made.source == "pool" else play


def grades_of(kind: Kind) -> tuple[Grade, ...]:
    """The grades ``kind`` can be had in: those the shipped pool holds (it backs every live
    search, so a grade it lacks is one the form would refuse)."""
    return tuple(g for g in GRADES if pool.count(pool.shipped(), kind.variant, kind.size, g))


@bp.app_context_processor
def _new_puzzle_choices() -> dict[str, Any]:
    """What the New puzzle form needs on any page that includes it: the kinds, the grades, and
    each kind's own grades (the form offers no combination it would refuse)."""
    offered = {kind.key: grades_of(kind) for kind in KINDS}
    return {
        "new_puzzle_kinds": KINDS,
        "new_puzzle_grades": GRADES,
        "new_puzzle_offered": offered,
        "new_puzzle_url": new_url,
    }


@bp.route("/new", methods=["GET"])
def new() -> ResponseReturnValue:
    """The New puzzle form; with its fields filled, a 303 to the new puzzle's play page."""
    # ``variant`` as in /api/generate, ``v`` as in the form's own field and the solver's form.
    asked_kind = request.args.get("v") or request.args.get("variant")
    if "grade" not in request.args:  # the form, opened on the kind named (new_url's links)
        try:
            shown = kind_of(asked_kind, request.args.get("size")) if asked_kind else KINDS[0]
        except BadRequest:
            shown = KINDS[0]
        return no_store(Response(render_template("new.html", picked=shown, asked=None)))
    picked, asked = KINDS[0], DEFAULT_GRADE
    try:
        picked = kind_of(asked_kind, request.args.get("size"))
        asked = grade_of(request.args.get("grade"))
        made = make(picked, asked, seed_of(None))
    except (BadRequest, NoneAvailable) as exc:
        # 422 as for any form the site cannot take (the API answers a bad parameter with 400)
        page = render_template("new.html", picked=picked, asked=asked, problem=str(exc))
        return no_store(Response(page, status=422))
    return no_store(redirect(opened(made), code=303))


def new_url(geometry: Geometry | None = None) -> str:
    """The New puzzle form opened on a board's kind (``/new?variant=x``, with ``size`` when
    it is not the variant's own: ``/new?variant=standard&size=6``); the variant alone when
    the form has no kind of that size, plain ``/new`` without a board and for the form's
    first kind (classic 9x9, what it opens on anyway)."""
    picked = variants.choice_of(geometry) if geometry is not None else None
    if picked is None or (picked.variant, picked.size) == (KINDS[0].variant, KINDS[0].size):
        return url_for("generate.new")
    sizes = {kind.size for kind in KINDS if kind.variant == picked.variant}
    if not sizes:
        return url_for("generate.new")
    args: dict[str, Any] = {"variant": picked.variant}
    if picked.size in sizes and picked.size != picked.info.default_size:
        args["size"] = str(picked.size)
    return url_for("generate.new", **args)


def utc_now() -> dt.datetime:
    """The current time in UTC (one place, so tests can move the day)."""
    return dt.datetime.now(dt.UTC)


@bp.route("/daily", methods=["GET"])
def daily() -> ResponseReturnValue:
    """Today's puzzle (UTC): the same for everyone, a 303 to its play page."""
    try:
        picked = kind_of(request.args.get("v") or request.args.get("variant"))
        asked = grade_of(request.args.get("grade"))
    except BadRequest as exc:
        page = render_template("new.html", picked=KINDS[0], asked=None, problem=str(exc))
        return no_store(Response(page, status=422))
    now = utc_now()
    seed = f"daily:{now.date().isoformat()}:{picked.variant}-{picked.size}:{asked}"
    try:
        # Unhurried, the attempt count alone bounds the work.
        made = make(picked, asked, seed, hurry=False)
    except NoneAvailable as exc:
        page = render_template("new.html", picked=picked, asked=asked, problem=str(exc))
        return no_store(Response(page, status=422))
    response = redirect(opened(made), code=303)
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), dt.UTC)
    left = max(1, int((midnight - now).total_seconds()))
    # Shared caches may keep it, but never past the end of the UTC day it belongs to.
    response.headers["Cache-Control"] = f"public, max-age={left}"
    response.headers["Expires"] = midnight.strftime("%a, %d %b %Y %H:%M:%S GMT")
    return response


@bp.route("/api/generate", methods=["GET"])
def api_generate() -> ResponseReturnValue:
    """``GET /api/generate?variant=…&grade=…[&size=…][&seed=…]``: a new puzzle as JSON."""
    args = request.args
    try:
        picked = kind_of(args.get("variant", CLASSIC.key), args.get("size"))
        asked = grade_of(args.get("grade"))
        seed = seed_of(args.get("seed"))
    except BadRequest as exc:
        return json_error(400, "Bad Request", str(exc))
    try:
        made = make(picked, asked, seed)
    except NoneAvailable as exc:
        return json_error(422, "Unprocessable Entity", str(exc))
    share, play = links(made)
    regions = None
    if made.geometry.regions is not None:
        regions = variants.canonical_regions(made.geometry)
    body: dict[str, Any] = {
        "status": "ok",
        "puzzle": made.puzzle,
        "variant": made.geometry.variant,
        "size": made.geometry.size,
        "regions": regions,
        "grade": made.grade,
        "source": made.source,
        "seed": made.seed,
        "share_url": share,
        "play_url": play,
    }
    if made.geometry.cages:
        body["cages"] = variants.cages_json(made.geometry)
    return no_store(jsonify(body))


def init_app(app: Any) -> None:
    """The blueprint (its config default is applied by ``create_app``)."""
    app.register_blueprint(bp)
