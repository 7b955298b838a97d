"""Play a shared puzzle without spoilers: ``<share link>/play`` and the JSON it talks to.

Routes (each variant's share link plus a suffix, like the teaching pages; see
:mod:`sudoku_web.web.puzzles.urls` for the share links themselves):

==================================  ===============================================================
``GET <share link>/play``           the givens locked, every other cell for the person; the page
                                    holds no digit of the solution (``static/play.js`` plays it)
``POST <share link>/play``          the same page as a plain form (no JavaScript): ``action=check``
                                    marks wrong entries, ``action=hint`` gives the next step
``GET <share link>/play.png``       the link-preview picture: the givens only
==================================  ===============================================================

The game itself (entries, pencil marks, what Check and Hint answer) is the core's
(:mod:`sudoku_web.core.game`); this module reads the form into it and renders its answers.
The same game answers JSON at ``/api/check`` and ``/api/hint`` (:mod:`sudoku_web.web.api.game`).
A puzzle that is not playable (no single solution) gets a page that says why and links to
the result.

Nothing is kept on the server: the person's progress lives in their browser (localStorage,
keyed by variant, region map and puzzle), and each check sends the entries it asks about.
Decisions: a reveal is a field of ``/api/check`` (one cell's digit per request, never more);
without JavaScript a cell holding several digits is read as pencil marks, so the hint by form
also starts from the person's marks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask import (
    Blueprint,
    Response,
    make_response,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import Geometry, parse_puzzle
from ...core.game import Entries, Game, Panel, check_panel, hint_panel
from ...core.rules import links as rule_links
from ..puzzles import urls
from ..puzzles.core_names import said
from ..puzzles.games import NOT_PLAYABLE, game_for
from ..puzzles.request_path import ShareLink, add_link_pages
from ..render import teaching_display
from ..render.boards import board_view
from ..render.preview import HEIGHT, WIDTH, render_png
from ..runtime import cache, solving
from ..runtime.languages import cell_words

bp = Blueprint("play", __name__)

ResponseValue = BaseResponse | str | tuple[str, int]

# ---- Reading what the person wrote -------------------------------------------------------------


def form_entries(form: Mapping[str, str], geometry: Geometry, givens: Sequence[int]) -> Entries:
    """The play form's cells (``c<index>``, open cells only) as entries and marks."""
    entries = Entries(geometry, tuple(givens))
    limit = 2 * geometry.size  # room for every symbol with separators; more is not a cell
    for cell in range(geometry.cells):
        if givens[cell]:
            continue
        text = form.get(f"c{cell}", "")
        if len(text) > limit:
            entries.refuse(cell, text)
        elif text.strip():
            entries.add_text(cell, text.strip())
    return entries


def play_url(geometry: Geometry, puzzle: str, *, png: bool = False, external: bool = False) -> str:
    """The play page (or its preview picture) of a canonical puzzle."""
    return urls.share_url(geometry, puzzle, "play_png" if png else "play", external=external)


# ---- Routes: one per variant, from the registry (request_path.add_link_pages) -----------------


def play_page(link: ShareLink) -> ResponseValue:
    """``<share link>/play`` (POST: the form's Check and Hint)."""
    return _page(link.geometry, link.givens, _grid(link))


def play_picture(link: ShareLink) -> ResponseValue:
    """``<share link>/play.png``: the link preview of the play page, the givens only."""
    return _png(link.geometry, link.givens, _grid(link))


def _grid(link: ShareLink) -> tuple[int, ...]:
    """The link's grid (read_share_link has it unless the engine was trusted to read it)."""
    return link.grid if link.grid is not None else tuple(parse_puzzle(link.givens, link.geometry))


add_link_pages(bp, "play", "/play", play_page, methods=("GET", "POST"))
add_link_pages(bp, "play_png", "/play.png", play_picture)


def _page(geometry: Geometry, givens: str, grid: tuple[int, ...]) -> ResponseValue:
    """GET: the fresh page (cacheable: it depends on the puzzle only). POST: the form's
    Check or Hint over the posted entries."""
    if request.method == "GET":
        if request.args.get("from") == "pool":
            # "New puzzle" says where a puzzle came from: the note belongs to this
            # one visit, so that page is drawn apart from the puzzle's cached page.
            return _render(game_for(geometry, givens, grid), from_pool=True)
        key = cache.text_key("play", cache.solve_key(givens, geometry).text)
        return cache.cacheable("page", key, lambda: _render(game_for(geometry, givens, grid)))
    game = game_for(geometry, givens, grid)
    entries = form_entries(request.form, geometry, grid)
    if entries.errors:
        return _render(game, entries, status=422)
    if not game.playable:
        return _render(game, entries)
    action = request.form.get("action", "check")
    panel = (
        hint_panel(game, entries, solving.hint_deadline())
        if action == "hint"
        else check_panel(game, entries)
    )
    return _render(game, entries, panel)


# ---- Rendering ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayCell:
    """One cell of the play grid, as the template draws it."""

    index: int
    name: str  # r1c1
    label: str  # "Row 1, column 1"
    given: str  # the given's symbol, "" for an open cell
    value: str  # what the form field holds (a digit, or several for pencil marks)
    classes: str
    wrong: bool = False
    sum_html: Markup = Markup()  # a cage's sum, drawn in its first cell


def _cells(game: Game, entries: Entries | None, panel: Panel | None) -> list[list[PlayCell]]:
    """The grid's cells row by row: givens locked, open cells with what the person typed."""
    geo = game.geometry
    marked = set(panel.cells) if panel is not None else set()
    last = panel.hint.last if panel is not None and panel.hint is not None else None
    hinted = set(last.cells) if last is not None else set()
    houses = {c for h in last.houses for c in h.cells} if last is not None else set()
    rows: list[list[PlayCell]] = []
    for cell in board_view(geo, game.givens, words=cell_words()).cells:
        text = _typed(geo, entries, cell.index) if entries is not None and not cell.text else ""
        extra = []
        if not cell.text:
            extra += ["open", "pencil" if len(text) > 1 else "entry" if text else ""]
        extra += [
            "wrong" if cell.index in marked else "",
            "hint-house" if cell.index in houses else "",
            "hint-cell" if cell.index in hinted else "",
        ]
        classes = " ".join(c for c in [cell.classes, *extra] if c)
        if cell.index % geo.size == 0:
            rows.append([])
        name = geo.cell_name(cell.index)
        wrong = cell.index in marked
        rows[-1].append(
            PlayCell(cell.index, name, cell.label, cell.text, text, classes, wrong, cell.sum_html)
        )
    return rows


def _typed(geometry: Geometry, entries: Entries, cell: int) -> str:
    """What the form field of an open cell holds: its digit, or its pencil marks."""
    value, mask = entries.values[cell], entries.marks[cell]
    if value:
        return geometry.symbol(value)
    return "".join(geometry.symbol(d) for d in range(1, geometry.size + 1) if mask >> (d - 1) & 1)


def _render(
    game: Game,
    entries: Entries | None = None,
    panel: Panel | None = None,
    status: int = 200,
    from_pool: bool = False,
) -> Response:
    """The play page: the form grid (or, for an unplayable puzzle, why, and the givens)."""
    geo = game.geometry
    name = urls.describe(geo)
    hint = panel.hint if panel is not None else None
    page = render_template(
        "play.html",
        geometry=geo,
        board_name=urls.board_name(geo),
        givens=game.givens,
        playable=game.playable,
        not_playable=NOT_PLAYABLE.get(game.result.status, ""),
        rows=_cells(game, entries, panel) if game.playable else [],
        board=None if game.playable else board_view(geo, game.givens, words=cell_words()),
        houses=_houses_attr(geo),
        regions=urls.canonical_regions(geo) if geo.regions is not None else "",
        # A board with rules is asked about by its rules (its killer cages among them).
        cages="" if geo.rules else urls.canonical_cages(geo),
        rules=rule_links.parts(geo).rules if geo.rules else "",
        play_url=play_url(geo, game.givens),
        share_play_url=play_url(geo, game.givens, external=True),
        result_url=urls.page_url(geo, game.givens),
        difficulty_url=urls.share_url(geo, game.givens, "difficulty"),
        edit_url=urls.edit_url(geo, game.givens),
        check_url=url_for("api.check"),
        hint_url=url_for("api.hint"),
        preview={
            "title": f"Play this {name}",
            "description": f"{urls.with_article(name, capital=True)} with "
            f"{urls.givens_words(geo, game.givens)} and one solution to find. "
            "The solution stays hidden.",
            "image": play_url(geo, game.givens, png=True, external=True),
            "url": play_url(geo, game.givens, external=True),
            "width": WIDTH,
            "height": HEIGHT,
        },
        problems=entries.errors if entries is not None else [],
        from_pool=from_pool,
        panel=panel,
        names=[geo.cell_name(c) for c in panel.cells] if panel is not None else [],
        hint_steps=[
            teaching_display.step_json(i + 1, s, geo, said) for i, s in enumerate(hint.steps)
        ]
        if hint is not None
        else [],
        hint_cut=hint is not None and hint.cut_short,
        stuck_cell=geo.cell_name(hint.stuck_cell)
        if hint is not None and hint.stuck_cell is not None
        else "",
    )
    return make_response(page, status)


def _houses_attr(geometry: Geometry) -> str:
    """Every house's cells, for play.js (conflicts, highlights): ``0 1 2;9 10 11;...``.

    Geometry only, the same for every puzzle of the board: no digit of any solution.
    """
    return ";".join(" ".join(map(str, h.cells)) for h in geometry.houses)


def _png(geometry: Geometry, givens: str, grid: tuple[int, ...]) -> ResponseValue:
    """The play page's preview: the givens, never the solution; cached like every picture."""
    key = cache.text_key("play", cache.solve_key(givens, geometry).text)

    def build() -> Response:
        result = solving.cached_solve(givens, geometry)
        count = len(givens) - givens.count("0")
        if result.status == "solved":
            words = f"Your turn: {count} givens, one solution"
        else:
            words = "Not playable: " + {
                "multiple": "more than one solution",
                "unsolvable": "no solution",
            }.get(result.status, "the solver gave up")
        return Response(render_png(list(grid), None, geometry, words), mimetype="image/png")

    return cache.cacheable("png", key, build)
