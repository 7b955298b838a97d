"""Puzzles with rules (thermometers, arrows, dots ...): opening a pasted one.

A rules puzzle's share link is ``/rules/<givens>/<rules>[/<regions>]`` (see
:mod:`sudoku_web.core.rules.links`); it and every page under it are routed like every other
share link (:func:`sudoku_web.web.puzzles.request_path.add_share_routes`). The form's paste box
opens a pasted f-puzzles puzzle there (:mod:`sudoku_web.web.puzzles.pasted_rules`), and
``POST /rules`` does the same for a form of its own field ``fpuzzles``. Its routes join the
``pages`` blueprint.
"""

from __future__ import annotations

from flask import request
from werkzeug.wrappers import Response as BaseResponse

from ..puzzles import pasted_rules
from ..puzzles.request_path import redirect_kept
from .routes import bp


@bp.post("/rules")
def rules_submit() -> BaseResponse:
    """A form whose ``fpuzzles`` field holds a puzzle, link or JSON: its rules page (303) or
    the 422 page saying why not."""
    return pasted_rules.open_paste(request.form.get("fpuzzles", ""))


@bp.get("/rules/<puzzle>/<rules>/preview.png", defaults={"regions": None})
@bp.get("/rules/<puzzle>/<rules>/<regions>/preview.png")
def rules_picture(puzzle: str, rules: str, regions: str | None) -> BaseResponse:
    """Another spelling of a rules puzzle's link-preview PNG: 301 to the one every share
    link has, ``<share link>.png`` (which redirects on to its canonical spelling)."""
    return redirect_kept(request.path.removesuffix("/preview.png") + ".png")
