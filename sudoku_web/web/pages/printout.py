"""The printable puzzle: the givens alone on a large grid, for paper (``GET /print``).

It takes the form's own arguments (``?p=<puzzle>&v=<variant>&r=<regions>&n=<size>&k=<cages>``
and ``&rules=<rules>``, as in
"Edit this puzzle"), so the form's *Print the puzzle* button (a redirect from the form's
POST, with or without JavaScript) and a result page's link both land here. The page is plain
HTML; the print stylesheet in ``sudoku.css`` sizes the grid for the paper and hides the rest.
"""

from __future__ import annotations

from flask import render_template, request

from ...core.board import Geometry, InvalidPuzzle
from ...core.rules import spelling as rule_spelling
from ...core.rules.board import attach
from ..puzzles import urls
from ..puzzles.puzzle_text import givens_or_empty, read
from ..render.boards import board_view
from ..runtime.languages import cell_words
from .routes import bp

# Longest puzzle or region map read from the query (a 16x16 pretty-printed grid fits).
MAX_ARG = 4 * 256


@bp.get("/print")
def printout() -> tuple[str, int]:
    """The givens on a large grid (200), or the puzzle's problems (422)."""
    args = request.args
    picked = urls.choice(args.get("v"), args.get("n"))
    regions = args.get("r", "")[:MAX_ARG]
    try:
        geometry: Geometry = (
            urls.jigsaw_geometry(regions)
            if picked.info.takes_regions
            else urls.form_geometry(picked)
        )
        geometry = urls.with_link_cages(
            geometry, args.get("k", "")[:MAX_ARG], needed=picked.info.needs_cages
        )
        if rules := args.get("rules", "")[: rule_spelling.MAX_SPELLING]:
            geometry = attach(geometry, rule_spelling.parse(rules, geometry.size))
    except InvalidPuzzle as exc:
        return _invalid(exc.errors, picked.form_url)
    reading = read(givens_or_empty(args.get("p", "")[:MAX_ARG], geometry), geometry)
    if not reading.ok or reading.canonical is None:
        return _invalid(reading.errors, urls.edit_url(geometry))
    givens = reading.canonical
    page = render_template(
        "print.html",
        board=board_view(geometry, givens, words=cell_words()),
        board_name=urls.board_name(geometry),
        givens_count=len(givens) - givens.count("0"),
        share_url=urls.share_url(geometry, givens, external=True),
        edit_url=urls.edit_url(geometry, givens),
    )
    return page, 200


def _invalid(errors: object, edit_url: str) -> tuple[str, int]:
    return render_template("invalid.html", errors=errors, board=None, edit_url=edit_url), 422
