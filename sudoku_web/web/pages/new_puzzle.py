"""The New puzzle form (``GET /new``) and the daily puzzle (``GET /daily``): each makes a puzzle
(:mod:`sudoku_web.web.puzzles.new_puzzles`) and answers ``303`` to its play page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ...core.board import Geometry
from ...core.logic import GRADES
from ..puzzles import urls
from ..puzzles.new_puzzles import (
    DEFAULT_GRADE,
    KINDS,
    BadRequest,
    NoneAvailable,
    grade_of,
    grades_of,
    kind_of,
    make,
    opened,
    seed_of,
)
from ..runtime.cache import no_store
from .routes import bp


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
    picked = urls.choice_of(geometry) if geometry is not None else None
    if picked is None or (picked.variant, picked.size) == (KINDS[0].variant, KINDS[0].size):
        return url_for("pages.new")
    sizes = {kind.size for kind in KINDS if kind.variant == picked.variant}
    if not sizes:
        return url_for("pages.new")
    args: dict[str, Any] = {"variant": picked.variant}
    if picked.size in sizes and picked.size != picked.info.default_size:
        args["size"] = str(picked.size)
    return url_for("pages.new", **args)


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
