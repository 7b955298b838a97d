"""``GET /api/generate?variant=…&grade=…[&size=…][&seed=…]``: a new puzzle as JSON (the fields
are listed in :mod:`sudoku_web.web.puzzles.new_puzzles`)."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ...core.variants import CLASSIC
from ..puzzles import urls
from ..puzzles.new_puzzles import BadRequest, NoneAvailable, grade_of, kind_of, links, make, seed_of
from ..puzzles.request_path import json_error
from ..runtime.cache import no_store
from .routes import bp


@bp.route("/generate", methods=["GET"])
def generate_puzzle() -> ResponseReturnValue:
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
        regions = urls.canonical_regions(made.geometry)
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
        body["cages"] = urls.cages_json(made.geometry)
    return no_store(jsonify(body))
