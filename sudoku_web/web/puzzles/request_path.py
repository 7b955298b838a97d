"""The one request path every blueprint shares: share-link routes and their reading, API
requests, and the answers for a bad puzzle (the ``422`` page and the ``422`` JSON).

Blueprints never import each other; what they share lives in the shared packages, this
request path among them (Flask's tutorial keeps ``db`` for ``auth`` and ``blog`` the same way).

Share links (see :mod:`sudoku_web.web.puzzles.urls` for the URL scheme):

* :func:`add_share_routes` registers ``<share link><suffix>`` for every variant of the
  registry with links of its own (:data:`sudoku_web.web.puzzles.urls.ROUTED`) and for boards
  with rules (:data:`sudoku_web.web.puzzles.urls.RULES_LINKS`): the result page
  (``""``), its picture (``.png``), the teaching pages (``/steps`` ...). It is the one loop
  over the registry that makes routes; a new page of a puzzle is one more call, of
  :func:`add_link_pages` for a view that takes the link as :func:`read_share_link` reads it.
* :func:`read_share_link` reads one: the canonical spelling gives a :class:`ShareLink`, any
  other spelling of a valid puzzle a ``301`` to the canonical URL (the query string kept as
  sent), anything else the ``422`` page (:func:`invalid_page`).

API requests: :func:`read_api_request` reads ``puzzle``, ``variant``, ``regions`` and
``cages`` from the query (GET) or a JSON object (POST) and answers a malformed request with
a ``400`` in JSON.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from ...core.board import Geometry, InvalidPuzzle, PuzzleError, parse_puzzle, standard
from ...core.cages import SumsMismatch
from ...core.rules import board as rule_board
from ...core.rules import fpuzzles as fpuzzles_format
from ...core.rules import links as rule_links
from ...core.rules import spelling as rule_spelling
from ...core.variants import REGIONAL, VariantInfo
from ..render.boards import board_view
from ..runtime.languages import cell_words
from . import sum_doctor, urls
from .core_names import problem_text
from .puzzle_text import Reading, canonical, givens_or_empty, is_canonical_text, read

#: Where the JSON API lives; errors under it are answered in JSON (see errors.py).
API_PREFIX = "/api"

# ---- Share-link routes -----------------------------------------------------------------------

#: ``view(info, puzzle, regions, cages, rules)``: a share-link page's view, per variant.
ShareView = Callable[..., ResponseReturnValue]


def add_share_routes(
    bp: Blueprint, page: str, suffix: str, view: ShareView, methods: tuple[str, ...] = ("GET",)
) -> None:
    """Register ``<share link><suffix>`` for every variant, as endpoint
    ``<blueprint>.<variant's endpoint>[_<page>]`` (``pages.puzzle``, ``teach.x_puzzle_steps``).

    ``view`` is called as ``view(info, puzzle, regions, cages, rules)`` (``regions`` for
    variants that take a region map, ``cages`` for a board with cages: the same variant's
    links under its ``cage_prefix``; ``rules`` for a board with rules, endpoint
    ``rules_puzzle[_<page>]`` or ``rules_mapped_puzzle[_<page>]``). A result page (empty
    ``suffix``) also answers pasted spellings with slashes (the path converter), which it
    redirects to the canonical link.
    """
    for info in urls.ROUTED:
        for caged in (False, True) if info.cage_prefix else (False,):
            endpoint = urls.endpoint(info, page, caged=caged)
            bound = functools.partial(_call, view, info)
            functools.update_wrapper(bound, view)
            rules = [urls.rule(info, "<puzzle>", caged=caged) + suffix]
            if not suffix:
                rules.append(urls.rule(info, "<path:puzzle>", caged=caged))
            if caged:  # no givens: the cages alone (urls.link_puzzle)
                rules.append(urls.rule(info, "", caged=caged) + suffix)
            for rule in rules:
                bp.add_url_rule(rule, endpoint, bound, methods=list(methods))
    for mapped, (link, info) in urls.RULES_LINKS.items():
        bound = functools.partial(_call_rules, view, info)
        functools.update_wrapper(bound, view)
        endpoint = urls.rules_endpoint(page, mapped=mapped)
        bp.add_url_rule(link + suffix, endpoint, bound, methods=list(methods))


#: ``view(link)``: a share-link page's view of a link read and canonical.
LinkView = Callable[["ShareLink"], ResponseReturnValue]


def add_link_pages(
    bp: Blueprint,
    page: str,
    suffix: str,
    view: LinkView,
    methods: tuple[str, ...] = ("GET",),
    *,
    trust_engine: bool = False,
) -> None:
    """:func:`add_share_routes` for a view of the link itself: the link is read first
    (:func:`read_share_link`, with ``suffix`` and ``trust_engine``), and a redirect to its
    canonical spelling or its 422 page is the answer without calling ``view``."""

    @functools.wraps(view)
    def read_then_view(
        info: VariantInfo,
        puzzle: str,
        regions: str | None,
        cages: str | None = None,
        rules: str | None = None,
    ) -> ResponseReturnValue:
        link = read_share_link(
            info, puzzle, regions, cages, rules, suffix=suffix, trust_engine=trust_engine
        )
        return view(link) if isinstance(link, ShareLink) else link

    add_share_routes(bp, page, suffix, read_then_view, methods)


def _call(
    view: ShareView,
    info: VariantInfo,
    puzzle: str = "",
    regions: str | None = None,
    cages: str | None = None,
) -> Any:
    return view(info, puzzle, regions, cages)


def _call_rules(
    view: ShareView, info: VariantInfo, puzzle: str, rules: str, regions: str | None = None
) -> Any:
    return view(info, puzzle, regions, None, rules)


# ---- Reading a share link --------------------------------------------------------------------


@dataclass(frozen=True)
class ShareLink:
    """A share link read at its canonical spelling."""

    geometry: Geometry
    givens: str  # canonical
    grid: tuple[int, ...] | None  # the parsed grid, None when the reader was skipped


def link_reading(
    info: VariantInfo,
    puzzle: str,
    regions: str | None,
    cages: str | None = None,
    rules: str | None = None,
) -> tuple[Geometry, Reading]:
    """The geometry and reading of a share link; InvalidPuzzle for a bad region map, bad
    cages or bad rules."""
    geometry = urls.geometry_of(info.key, puzzle, regions, cages, rules)
    return geometry, read(urls.link_givens(geometry, puzzle), geometry)


def is_canonical_link(
    geometry: Geometry,
    givens: str | None,
    puzzle: str,
    regions: str | None,
    cages: str | None = None,
    rules: str | None = None,
) -> bool:
    """True when ``puzzle`` (a jigsaw's ``regions``, a killer's ``cages``, a board's
    ``rules``) are spelled as links are built (a killer without givens: no puzzle at all)."""
    if rules is not None or geometry.rules:
        return (
            givens is not None
            and puzzle == rule_links.givens_part(givens, geometry.size)
            and urls.is_canonical_rules_link(geometry, puzzle, rules, regions)
        )
    if givens is None or puzzle != urls.link_puzzle(geometry, givens):
        return False
    if geometry.cages and cages != urls.canonical_cages(geometry):
        return False
    return geometry.regions is None or regions == urls.canonical_regions(geometry)


def read_share_link(
    info: VariantInfo,
    puzzle: str,
    regions: str | None,
    cages: str | None = None,
    rules: str | None = None,
    *,
    suffix: str = "",
    trust_engine: bool = False,
) -> ShareLink | BaseResponse:
    """A share link: its :class:`ShareLink` when canonical, else a ``301`` to the canonical
    URL plus ``suffix`` (the query string kept as sent) or the ``422`` page.

    ``trust_engine``: a link already spelled canonically is not read here; the engine reports
    its conflicting givens itself (status ``invalid``, the reader's own messages), and the
    caller shows the 422 page for that status (the result page's hot path).
    """
    try:
        geometry = urls.geometry_of(info.key, puzzle, regions, cages, rules)
    except InvalidPuzzle as exc:
        # Say which cage's sum was probably mistyped (a rules link's cages are its rules).
        if isinstance(exc, SumsMismatch) and rules is None:
            blank = puzzle or urls.blank_cells(cages)
            sums = sum_doctor.for_mismatch(exc, info.key, blank, regions)
            if sums is not None:
                grid = tuple(parse_puzzle(sums.givens, sums.geometry))
                return invalid_page(exc.errors, sums.geometry, grid, sums=sums)
        if not info.takes_regions or any(e.code == "cage" for e in exc.errors):
            return invalid_page(exc.errors)
        return invalid_page(exc.errors, regions=regions or "", puzzle=puzzle)
    givens = urls.link_givens(geometry, puzzle)
    if trust_engine and is_canonical_link(geometry, givens, puzzle, regions, cages, rules):
        if is_canonical_text(givens, geometry):
            return ShareLink(geometry, givens, None)
    reading = read(givens, geometry)
    if not reading.ok or reading.grid is None or reading.canonical is None:
        return invalid_page(reading.errors, geometry, reading.grid)
    if not is_canonical_link(geometry, reading.canonical, puzzle, regions, cages, rules):
        # One URL per puzzle: dots, separators, lower case and other region labels.
        return redirect_kept(urls.page_url(geometry, reading.canonical) + suffix)
    return ShareLink(geometry, reading.canonical, reading.grid)


def redirect_kept(target: str) -> BaseResponse:
    """A ``301`` to ``target``, the query string kept as sent."""
    query = request.query_string.decode("latin-1")
    return redirect(f"{target}?{query}" if query else target, 301)


# ---- The 422 page ----------------------------------------------------------------------------


def invalid_page(
    errors: tuple[PuzzleError, ...],
    geometry: Geometry | None = None,
    grid: tuple[int, ...] | None = None,
    *,
    regions: str | None = None,
    puzzle: str = "",
    sums: sum_doctor.SumAdvice | None = None,
) -> Response:
    """422: the form's messages, and the grid with its offending cells marked when it parsed.

    A jigsaw link whose region map is wrong (``regions`` given, no geometry) shows the map as
    typed, its bad cells marked, when it can be drawn. ``sums``: the sum doctor's fixes for
    cages whose sums miss the grid's total.
    """
    marked = {c for e in errors for c in e.cells}
    board = None
    here = None  # the language picker's way back: the link's canonical spelling when it parsed
    if geometry is not None:
        edit_url = urls.edit_url(geometry)
        if grid is not None:
            givens = canonical(grid)
            board = board_view(geometry, givens, invalid=marked, words=cell_words())
            edit_url = urls.edit_url(geometry, givens)
            here = urls.page_url(geometry, givens)
    elif regions is not None:
        board, edit_url = _bad_map(regions, puzzle, marked)
    else:
        edit_url = url_for("pages.index")
    page = render_template(
        "invalid.html",
        errors=errors,
        board=board,
        edit_url=edit_url,
        **({"here": here} if here else {}),
        sum_fixes=sums.links() if sums else [],
        sum_cut=sums is not None and not sums.complete,
    )
    return Response(page, status=422, mimetype="text/html")


def _bad_map(regions: str, puzzle: str, marked: set[int]) -> tuple[Any, str]:
    """The drawing of a refused region map and the form opened on it."""
    sketch = urls.region_sketch(regions)
    board = None
    args: dict[str, Any] = {"v": REGIONAL.form_key, "r": regions[: 4 * 256], "p": puzzle[: 4 * 256]}
    if sketch is not None:
        givens = puzzle if len(puzzle) == sketch.cells else ""
        board = board_view(sketch, givens, invalid=marked, words=cell_words())
        args.update(urls.choice_of(sketch).form_args)
    return board, url_for("pages.index", **args)


# ---- JSON: errors and API requests -----------------------------------------------------------


def json_error(code: int, name: str, message: str) -> Response:
    """A JSON error body for a non-puzzle failure (400, 404, 405, 413, 500...)."""
    response = jsonify({"status": "error", "code": code, "error": name, "message": message})
    response.status_code = code
    return response


def error_json(
    errors: tuple[PuzzleError, ...] | list[PuzzleError], geometry: Geometry | None = None
) -> list[dict[str, Any]]:
    """Errors as JSON objects: code, message and the cells involved (``r4c7`` names)."""
    geo = geometry or standard(9)
    return [
        {"code": e.code, "message": problem_text(e), "cells": [geo.cell_name(c) for c in e.cells]}
        for e in errors
    ]


def invalid_json(
    reading: Reading, geometry: Geometry | None, fields: Mapping[str, Any]
) -> Response:
    """422 in JSON: every problem; ``puzzle`` is the canonical givens when the text parsed.

    ``fields`` are the endpoint's own fields (empty ``solution``, ``steps`` ...) in its order;
    ``errors`` is filled in where ``fields`` puts it (last if it does not).
    """
    body: dict[str, Any] = {"status": "invalid", "puzzle": reading.canonical, **fields}
    body["errors"] = error_json(reading.errors, geometry)
    response = jsonify(body)
    response.status_code = 422
    return response


@dataclass(frozen=True)
class ApiRequest:
    """What an API request asks about: the puzzle text, the variant, a jigsaw's regions and
    a killer's cages (a JSON list of ``{"sum", "cells"}``, or a link's spelling); or rules
    (our spelling, :mod:`sudoku_web.core.rules.spelling`) on that board; or an f-puzzles
    puzzle (its JSON object, its ``load=`` string, or an f-puzzles or SudokuPad link)."""

    puzzle: str
    variant: str | None = None
    regions: str | None = None
    cages: urls.Cages = None
    rules: str | None = None
    fpuzzles: str | Mapping[str, Any] | None = None

    @functools.cached_property
    def imported(self) -> fpuzzles_format.Imported | None:
        """The f-puzzles puzzle asked about (read once); InvalidPuzzle for a bad one."""
        return None if self.fpuzzles is None else fpuzzles_format.load(self.fpuzzles)

    def geometry(self) -> Geometry:
        """The board asked about; InvalidPuzzle (naming the cells) for what is wrong with it."""
        if self.imported is not None:
            return self.imported.geometry
        board = urls.geometry_of(self.variant, self.puzzle, self.regions, self.cages)
        if self.rules:
            return rule_board.attach(board, rule_spelling.parse(self.rules, board.size))
        return board

    def givens(self, geometry: Geometry) -> str:
        """The puzzle text (an f-puzzles puzzle's givens unless a puzzle is given); a board
        with cages and no puzzle given is an empty grid."""
        if self.imported is not None and not self.puzzle:
            return self.imported.puzzle
        return givens_or_empty(self.puzzle, geometry)


# JSON bodies are a few hundred bytes; nesting deeper than this is not a puzzle request (and
# Python's parser would recurse on it).
MAX_JSON_DEPTH = 32


def read_api_request(endpoint: str) -> ApiRequest | Response:
    """The request's ``puzzle``, ``variant``, ``regions`` and ``cages`` (query for GET, a JSON
    object for POST), or a 400 in JSON saying what is wrong."""
    args: Mapping[str, Any]
    if request.method == "GET":
        args = request.args
        if args.get("puzzle") is None and not args.get("cages") and not args.get("fpuzzles"):
            return json_error(400, "Bad Request", f"Add the puzzle: {endpoint}?puzzle=…")
    else:
        body = _json_body()
        if not isinstance(body, dict):
            return json_error(400, "Bad Request", 'Send a JSON object such as {"puzzle": "…"}.')
        args = body
    text = args.get("puzzle")
    cages = args.get("cages")
    if text is None and (cages or args.get("fpuzzles")):
        text = ""  # a killer may have no givens at all: an empty grid of the board's size
    rules, source = args.get("rules"), args.get("fpuzzles")
    if (problem := rules_problem(rules, source, cages)) is not None:
        return json_error(400, "Bad Request", problem)
    if not isinstance(text, str):
        return json_error(400, "Bad Request", 'The JSON object needs a "puzzle" string.')
    if not (cages is None or isinstance(cages, str | list)):
        message = '"cages" must be a list such as [{"sum": 15, "cells": ["r1c1", "r1c2"]}].'
        return json_error(400, "Bad Request", message)
    for name in ("variant", "regions"):
        if not (args.get(name) is None or isinstance(args.get(name), str)):
            return json_error(400, "Bad Request", f'"{name}" must be a string when given.')
    asked = ApiRequest(text, args.get("variant"), args.get("regions"), cages, rules, source)
    strings = (asked.puzzle, asked.variant or "", asked.regions or "")
    if not all(_encodable(v) for v in (*strings, cages if isinstance(cages, str) else "")):
        return json_error(400, "Bad Request", "The strings hold a lone surrogate (bad UTF-16).")
    return asked


def rules_problem(rules: object, source: object, cages: object) -> str | None:
    """What is wrong with a request's ``rules`` and ``fpuzzles`` fields (None: nothing)."""
    if not (rules is None or isinstance(rules, str)):
        return str(
            gettext(
                "%(key)s must be a string such as %(example)s.",
                key='"rules"',
                example='"kn.th_1121"',
            )
        )
    if not (source is None or isinstance(source, str | dict)):
        return str(
            gettext(
                "%(key)s must be an f-puzzles JSON object, its load= string or a link.",
                key='"fpuzzles"',
            )
        )
    if (rules or source) and cages:
        return str(
            gettext(
                "Give cages as killer-cage rules (%(spelling)s in %(key)s) or in the f-puzzles"
                " puzzle.",
                spelling='"kc_..."',
                key='"rules"',
            )
        )
    return None


def _json_body() -> Any:
    """The request body as JSON, or None when it is not JSON, too deep, or not readable.

    ``force``: curl -d without a Content-Type header is still JSON; a parse failure is ours
    to report as a 400 in JSON, not Werkzeug's HTML.
    """
    try:
        raw = request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH, 400 for a gone client
    except (OSError, ValueError):  # a malformed chunked body: nothing to read
        return None
    if _depth(raw) > MAX_JSON_DEPTH:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _depth(raw: bytes) -> int:
    """The deepest nesting of brackets in ``raw`` (an upper bound: strings are not skipped)."""
    depth = deepest = 0
    for byte in raw.translate(None, delete=_NOT_BRACKETS):
        depth += 1 if byte in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
