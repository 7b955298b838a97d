"""What the teaching pages draw: steps, pencil marks, hints, difficulty and the search story.

The core (:mod:`sudoku_web.core.logic`, the engine's story in :mod:`sudoku_web.core.story`)
returns frozen dataclasses about cells and digits; this module turns them into what the
teaching pages and ``/api/explain`` show: cell names (``r4c7``), symbols (``7``, ``G``),
CSS classes per cell, and JSON objects.
It imports nothing from Flask, so it is tested without an app, and templates only loop
(a pencil grid's rows come drawn: :meth:`PencilGrid.rows_html`, by
:mod:`~sudoku_web.web.render.cell_markup`).

Vocabulary:

pencil grid
    A :class:`PencilGrid`: every cell either holds a symbol or lists its candidates, each
    candidate in a fixed slot (``1`` top left, ``9`` bottom right, as on paper), with the
    cells and candidates a step talks about marked.
mark
    One candidate slot of an open cell: its symbol ("" when the digit is gone) and a state:
    ``struck`` (this step eliminates it), ``placed`` (this step puts it there) or plain.
chain drawing
    A :class:`ChainDrawing`: a chain step's links drawn over its pencil grid as lines between
    candidates (solid for strong links, dashed for weak), in a coordinate space of one unit
    per cell, so the SVG scales with the grid and needs no inline style.
hint
    The steps from a user's grid up to and including the next one that places a digit, since
    eliminations alone change nothing a person can type into the form (see
    :func:`sudoku_web.core.hints.hint_steps`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ...core.board import Geometry
from ...core.hints import Hint
from ...core.logic import (
    GRADES,
    Candidates,
    Explanation,
    GradeResult,
    MachineGrade,
    Step,
    grade_note_words,
    machine_grade,
)
from ...core.solver import SolveResult, SolveStats
from ...core.story import SearchStory, StoryEvent
from ...core.techniques import Group, Node, node_cells
from ...core.wording import Listing, Words
from ..runtime.memo import byte_cache
from .boards import cell_statics
from .cell_markup import ENGLISH, CellWords, cage_sum_html, marks_html, pencil_rows, pencil_td

# Singles are most of a solve and read the same every time: their grids start collapsed.
SINGLES = frozenset({"Hidden single", "Naked single"})

# The search story indents by depth up to here (a CSS class per level); deeper reads the same.
MAX_INDENT = 12


@dataclass(frozen=True)
class Mark:
    """One candidate slot of an open cell."""

    text: str  # the symbol, or "" when that digit is no longer a candidate
    state: str = ""  # "", "struck" or "placed"


@dataclass(frozen=True)
class PencilCell:
    """One cell of a pencil grid: a symbol, or candidate marks."""

    name: str  # r4c7
    text: str  # the symbol of a filled cell, "" for an open one
    marks: tuple[Mark, ...]  # open cells only: one slot per digit
    classes: str
    # The step's own cells get a spoken label (struck digits are not announced otherwise);
    # the rest read fine as table cells, and labelling all 81 would double the page.
    noted: bool = False
    sum_html: Markup = Markup()  # a cage's sum, drawn in its first cell
    # A cell a hint will fill, drawn before the reasoning is opened: its candidates are left
    # out (with one left they would give the digit away).
    hidden: bool = False
    # The marks as HTML when they are shared plain marks (drawn once per mask), else "".
    marks_html: str = ""
    words: CellWords = ENGLISH  # the label's words, in the page's language

    @property
    def label(self) -> str:
        """Words for a screen reader: the cell and what it holds or may hold."""
        words = self.words
        if self.hidden:
            return words.pencil_hidden % {"cell": self.name}
        if self.text:
            return words.pencil_filled % {"cell": self.name, "symbol": self.text}
        listed = " ".join(m.text for m in self.marks if m.text and m.state != "struck")
        struck = " ".join(m.text for m in self.marks if m.state == "struck")
        said = (
            words.pencil_open % {"cell": self.name, "marks": listed}
            if listed
            else words.pencil_none % {"cell": self.name}
        )
        return said + (words.pencil_struck % {"marks": struck} if struck else "")

    def html(self) -> str:
        """The cell's ``<td>`` (:func:`~.cell_markup.pencil_td`); the label only for the
        step's own cells."""
        marks = "" if self.text or self.hidden else self.marks_html or _marks_html(self.marks)
        label = self.label if self.noted else None
        return pencil_td(self.classes, label, self.sum_html, self.hidden, self.text, marks)


def _marks_html(marks: tuple[Mark, ...]) -> str:
    """An open cell's marks (:func:`~.cell_markup.marks_html`)."""
    return marks_html((mark.text, mark.state) for mark in marks)


@dataclass(frozen=True)
class PencilGrid:
    """A grid of pencil marks for the ``pencil_grid`` macro (``_candidates.html``)."""

    size: int
    variant: str
    slots: int  # candidate slots per line inside a cell (3 for 9x9): the CSS class pm-<n>
    rows: tuple[tuple[PencilCell, ...], ...]
    geometry: Geometry  # the board, whose rules the macro draws

    def rows_html(self) -> Markup:
        """The grid's ``<tr>`` rows, one :meth:`PencilCell.html` per cell (drawn in Python:
        :mod:`~sudoku_web.web.render.cell_markup` says why)."""
        return pencil_rows((cell.html() for cell in row) for row in self.rows)


@dataclass(frozen=True)
class ChainLine:
    """One link of a chain, from candidate to candidate, in cell units (SVG user space): a
    gentle curve from (x1, y1) to (x2, y2) bent towards (qx, qy), so that links along one line
    (in and out of a cell down a column) stay apart."""

    x1: float
    y1: float
    qx: float
    qy: float
    x2: float
    y2: float
    strong: bool

    @property
    def path(self) -> str:
        """The SVG path data: a quadratic curve."""
        return f"M{self.x1} {self.y1} Q{self.qx} {self.qy} {self.x2} {self.y2}"

    @property
    def kind(self) -> str:
        """The CSS class and the word: "strong" or "weak"."""
        return "strong" if self.strong else "weak"


@dataclass(frozen=True)
class ChainSpot:
    """A ring around one candidate (the chain's start, or a candidate it removes)."""

    cx: float
    cy: float
    name: str  # r4c7 5


@dataclass(frozen=True)
class ChainGroup:
    """An outline around a grouped node's candidates (a digit in two or more cells of one
    house overlap) or one of them, in cell units: a rounded box from (x, y), ``width`` by
    ``height``."""

    x: float
    y: float
    width: float
    height: float
    rx: float  # corner radius: the outline of a row or column group is a capsule
    name: str  # (r1c2 or r1c3) 5
    start: bool  # the chain starts here (marked like the start ring)


@dataclass(frozen=True)
class ChainDrawing:
    """A chain step drawn over its pencil grid (an SVG overlay, see ``_candidates.html``)."""

    ident: str  # unique on the page: the prefix of the arrowheads' ids
    size: int  # cells per side: the viewBox is size x size
    radius: float  # of the rings, about half a candidate slot
    lines: tuple[ChainLine, ...]
    start: ChainSpot | None  # None when the chain starts at a group (its outline is marked)
    eliminations: tuple[ChainSpot, ...]
    label: str  # the chain in words, for screen readers
    groups: tuple[ChainGroup, ...] = ()  # the outlines around the chain's grouped nodes


@dataclass(frozen=True)
class StepView:
    """One step as the steps page shows it."""

    number: int  # 1-based
    technique: str
    grade: str
    sentence: str
    houses: tuple[str, ...]
    cells: tuple[str, ...]
    grid: PencilGrid | None  # None where the page draws none (see draws_grid)
    chain: ChainDrawing | None = None  # chain steps only
    # The sentence's template and values (the filter ``sentence``).
    words: Words | Listing | None = None
    house_words: tuple[Words, ...] = ()  # ``houses`` as templates (the filter ``words``)

    @property
    def anchor(self) -> str:
        """The fragment id of this step (``step-12``)."""
        return f"step-{self.number}"

    @property
    def single(self) -> bool:
        """True for hidden and naked singles (shown collapsed)."""
        return self.technique in SINGLES

    @property
    def guess(self) -> bool:
        """True for the engine's guess (shown as such, never dressed up as logic)."""
        return self.technique == "Guess"


@dataclass(frozen=True)
class Difficulty:
    """The two grades side by side, and the sentence when they disagree."""

    human: str  # Easy ... Diabolical
    hardest: str | None  # the hardest technique used
    scale: tuple[str, ...]
    machine: MachineGrade
    note: Words | None  # the filter ``words`` says it
    solved_by_logic: bool
    guesses: int  # guess steps in the human explanation
    cut_short: bool  # the explanation hit its deadline: the grade is an upper bound
    steps: int
    counts: tuple[tuple[str, int], ...]

    @property
    def rank(self) -> int:
        """The human grade's position on the scale (0 = Easy)."""
        return self.scale.index(self.human)


def _slots(geometry: Geometry) -> int:
    """Candidate slots per line in a cell: the box width, so 6x6 shows 3x2 like its boxes."""
    if geometry.box_shape is not None:
        return geometry.box_shape[1]
    return math.isqrt(geometry.size - 1) + 1  # jigsaw 5..16: a square that holds N slots


def pencil_grid(
    geometry: Geometry,
    cand: Candidates,
    givens: Sequence[int] = (),
    step: Step | None = None,
    *,
    reveal: bool = True,
    words: CellWords = ENGLISH,
) -> PencilGrid:
    """The pencil marks of ``cand``, with what ``step`` (taken from ``cand``) marked, its
    cells' labels in ``words``.

    The step's houses are tinted, the cages and rules it reads and its cells outlined, its
    eliminations struck and its placements circled. ``reveal=False`` leaves the placements'
    cells without their candidates (a hint names the cell without giving the digit away:
    after the steps before it, such a cell often has one candidate left).
    """
    statics = _pencil_statics(geometry)  # what every grid of this board shares
    step_cages = step.cages if step else ()
    used = {c for k in step_cages if k < len(geometry.cages) for c in geometry.cages[k].cells}
    rules = geometry.rules
    step_rules = step.rules if step else ()
    ruled = {c for k in step_rules if k < len(rules) for c in rules[k].cells_read(geometry)}
    house_cells = {c for h in step.houses for c in h.cells} if step else set()
    key = set(step.cells) if step else set()
    struck = set(step.eliminations) if step else set()
    placed = set(step.placements) if step and reveal else set()
    targets = {c for c, _ in (*struck, *(step.placements if step else ()))}
    hidden = {c for c, _ in step.placements} if step and not reveal else set()
    marked = used | ruled | house_cells | key | targets | hidden  # cells the step draws on
    n = geometry.size
    cells = []
    for index, (base, name, shown_sum) in enumerate(statics):
        value = cand.values[index]
        filled = ("given" if index < len(givens) and givens[index] else "filled") if value else ""
        if index not in marked:  # most cells: the board's classes, a digit or plain marks
            if value:
                classes_text = f"{base} {filled}" if base else filled
                cell = PencilCell(name, geometry.symbol(value), (), classes_text, False, shown_sum)
            else:
                marks, shared_html = _plain_marks(geometry, cand.masks[index])
                cell = PencilCell(name, "", marks, base, False, shown_sum, False, shared_html)
            cells.append(cell)
            continue
        classes = [base]
        if index in used:
            classes.append("step-cage")  # a cage the step's reasoning reads
        if index in ruled:
            classes.append("step-rule")  # a cell of a rule the step's reasoning reads
        classes.append(filled)  # "" for an open cell: the join below leaves it out
        if index in house_cells:
            classes.append("in-house")
        if index in key:
            classes.append("key")
        if index in targets:
            classes.append("target")
        marks = ()
        shared_html = ""
        if not value and index not in hidden:
            mask = cand.masks[index]
            if index in targets:
                marks = tuple(
                    Mark(
                        geometry.symbol(d) if mask >> (d - 1) & 1 else "",
                        "placed"
                        if (index, d) in placed
                        else "struck"
                        if (index, d) in struck
                        else "",
                    )
                    for d in range(1, n + 1)
                )
            else:  # no mark of the step here: the plain marks of this mask, shared
                marks, shared_html = _plain_marks(geometry, mask)
        text = geometry.symbol(value) if value else ""
        noted = index in key or index in targets
        classes_text = " ".join(c for c in classes if c)
        cells.append(
            PencilCell(
                name,
                text,
                marks,
                classes_text,
                noted,
                shown_sum,
                index in hidden,
                shared_html,
                words,
            )
        )
    rows = tuple(tuple(cells[r * n : (r + 1) * n]) for r in range(n))
    return PencilGrid(n, geometry.variant, _slots(geometry), rows, geometry)


@byte_cache(1024 * 1024)  # per geometry; jigsaw geometries come from user input
def _pencil_statics(geometry: Geometry) -> tuple[tuple[str, str, Markup], ...]:
    """Per cell, what every pencil grid of the board shares: its classes (the board's, see
    :func:`~.boards.cell_statics`), its name (r4c7) and its cage's sum, drawn."""
    return tuple(
        (tail.strip(), geometry.cell_name(index), Markup(cage_sum_html(total)))
        for index, (tail, _, total) in enumerate(cell_statics(geometry))
    )


_PLAIN_MARKS: dict[tuple[str, int], tuple[tuple[Mark, ...], str]] = {}
# Entries kept at most (a 9x9's 512 masks and a few thousand of bigger boards', under 1.5 KB
# each): a 16x16 has 65,536 masks, which would hold about 100 MB in every worker.
PLAIN_MARKS_KEPT = 4096


def _plain_marks(geometry: Geometry, mask: int) -> tuple[tuple[Mark, ...], str]:
    """An open cell's marks with none struck or placed, one per digit, and their HTML; kept
    per symbol set and mask up to :data:`PLAIN_MARKS_KEPT` entries (frozen, so shared by
    every grid), built afresh past that."""
    symbols = geometry.symbols
    key = (symbols, mask)
    found = _PLAIN_MARKS.get(key)
    if found is None:
        marks = tuple(Mark(ch if mask >> i & 1 else "") for i, ch in enumerate(symbols))
        found = (marks, _marks_html(marks))
        if len(_PLAIN_MARKS) < PLAIN_MARKS_KEPT:
            _PLAIN_MARKS[key] = found
    return found


def _candidate_spot(geometry: Geometry, cell: int, digit: int) -> tuple[float, float]:
    """Where ``digit`` sits inside ``cell``, in cell units: the centre of its candidate slot,
    laid out as the ``.pm`` CSS grid lays it (``_slots`` per line, rows filled in turn)."""
    n = geometry.size
    per_line = _slots(geometry)
    lines = -(-n // per_line)
    row, col = divmod(cell, n)
    slot_row, slot_col = divmod(digit - 1, per_line)
    return col + (slot_col + 0.5) / per_line, row + (slot_row + 0.5) / lines


def _r(x: float, y: float) -> tuple[float, float]:
    """A point with its coordinates rounded for the page (a thousandth of a cell)."""
    return round(x, 3), round(y, 3)


def chain_drawing(geometry: Geometry, step: Step, ident: str) -> ChainDrawing | None:
    """The chain of ``step`` (its ``links``) as lines between candidates, with the start and
    the eliminations ringed and grouped nodes outlined; None for a step that is not a chain.

    A link to or from a grouped node ends at the group's candidate nearest the other end.
    """
    if not step.links:
        return None
    per_line = _slots(geometry)
    radius = round(0.42 / per_line, 3)

    def name(node: Node | Group) -> str:
        cells = node_cells(node)
        where = " or ".join(geometry.cell_name(c) for c in cells)
        return f"{where if len(cells) == 1 else f'({where})'} {geometry.symbol(node[1])}"

    lines = []
    for a, b, strong in step.links:
        x1, y1 = _nearest_spot(geometry, a, _centre(geometry, b))
        x2, y2 = _nearest_spot(geometry, b, (x1, y1))
        # Stop at the rings around the candidates, so the digits stay readable.
        length = math.hypot(x2 - x1, y2 - y1)
        gap = min(radius, length / 3) / length if length else 0.0
        dx, dy = (x2 - x1) * gap, (y2 - y1) * gap
        # Bend to the right of the direction of travel: a link in and the next link out
        # along the same line then curve to opposite sides.
        bend = min(0.3, 0.25 * length) / length if length else 0.0
        qx, qy = (x1 + x2) / 2 - (y2 - y1) * bend, (y1 + y2) / 2 + (x2 - x1) * bend
        a1, b1, a2, b2 = x1 + dx, y1 + dy, x2 - dx, y2 - dy
        lines.append(ChainLine(*_r(a1, b1), *_r(qx, qy), *_r(a2, b2), strong))
    first = step.links[0][0]
    words = [f"Chain: {name(first)}"]
    at = first
    for src, dst, strong in step.links:
        if src != at:  # never for the chains the core builds, but say so if it happens
            words.append(f", then from {name(src)}")
        kind = "strong" if strong else "weak"
        words.append(f"{',' if len(words) > 1 else ''} {kind} to {name(dst)}")
        at = dst
    removed = [name(e) for e in step.eliminations]
    label = "".join(words) + (f". Removes {', '.join(removed)}." if removed else ".")

    def spot(node: tuple[int, int]) -> ChainSpot:
        x, y = _candidate_spot(geometry, *node)
        return ChainSpot(round(x, 3), round(y, 3), name(node))

    groups: dict[Group, list[ChainGroup]] = {}
    for node in (end for a, b, _ in step.links for end in (a, b)):
        if not isinstance(node[0], int) and node not in groups:
            group = (node[0], node[1])
            groups[group] = _outlines(geometry, group, radius, name(group), node == first)
    return ChainDrawing(
        ident,
        geometry.size,
        radius,
        tuple(lines),
        spot((first[0], first[1])) if isinstance(first[0], int) else None,
        tuple(spot(e) for e in step.eliminations),
        label,
        tuple(box for boxes in groups.values() for box in boxes),
    )


def _centre(geometry: Geometry, node: Node | Group) -> tuple[float, float]:
    """The mean of a node's candidate spots (a group's middle)."""
    spots = [_candidate_spot(geometry, c, node[1]) for c in node_cells(node)]
    return sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots)


def _nearest_spot(
    geometry: Geometry, node: Node | Group, towards: tuple[float, float]
) -> tuple[float, float]:
    """The node's candidate spot nearest ``towards`` (its only one for a single candidate)."""
    spots = [_candidate_spot(geometry, c, node[1]) for c in node_cells(node)]
    return min(spots, key=lambda p: math.hypot(p[0] - towards[0], p[1] - towards[1]))


def _outlines(
    geometry: Geometry, group: Group, radius: float, name: str, start: bool
) -> list[ChainGroup]:
    """Rounded boxes around a group's candidate spots, a ring's radius beyond them: one box
    when the cells make a solid block (a run along a line, a 2x2 window), else one per cell,
    so an outline never takes in a candidate outside the group."""
    cells, digit = group
    spots = [_candidate_spot(geometry, c, digit) for c in cells]
    rows = {c // geometry.size for c in cells}
    cols = {c % geometry.size for c in cells}
    solid = (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1) == len(cells)
    parts = [spots] if solid else [[p] for p in spots]
    boxes = []
    for part in parts:
        left, top = min(x for x, _ in part) - radius, min(y for _, y in part) - radius
        right, bottom = max(x for x, _ in part) + radius, max(y for _, y in part) + radius
        boxes.append(
            ChainGroup(*_r(left, top), *_r(right - left, bottom - top), radius, name, start)
        )
    return boxes


def draws_grid(step: Step, geometry: Geometry) -> bool:
    """Whether the steps page draws ``step``'s grid of candidates: always up to 9x9; on a
    bigger grid not for a single, whose sentence names the cell and the symbol (a 16x16 grid
    is ~27 KB of HTML, and most of such a puzzle's steps are singles)."""
    return geometry.size <= 9 or step.technique not in SINGLES


def step_pages(explanation: Explanation, per_page: int, page_cells: int) -> list[tuple[int, int]]:
    """The steps pages as 0-based ``(start, stop)`` ranges: at most ``per_page`` steps and, past
    a page's first step, at most ``page_cells`` cells of drawn grids on a page."""
    geometry = explanation.geometry
    pages: list[tuple[int, int]] = []
    start, cells = 0, 0
    for i, step in enumerate(explanation.steps):
        cost = geometry.cells if draws_grid(step, geometry) else 0
        if i > start and (i - start >= per_page or cells + cost > page_cells):
            pages.append((start, i))
            start, cells = i, 0
        cells += cost
    if start < len(explanation.steps):
        pages.append((start, len(explanation.steps)))
    return pages


def step_view(
    number: int,
    step: Step,
    geometry: Geometry,
    givens: Sequence[int],
    words: CellWords = ENGLISH,
) -> StepView:
    """One step for the page: its words, and its grid of candidates before it (if drawn),
    its cells' labels in ``words``."""
    drawn = draws_grid(step, geometry)
    return StepView(
        number,
        step.technique,
        step.grade,
        step.sentence,
        tuple(h.name for h in step.houses),
        tuple(geometry.cell_name(c) for c in step.cells),
        pencil_grid(geometry, step.before, givens, step, words=words) if drawn else None,
        chain_drawing(geometry, step, f"chain-{number}"),
        step.words,
        tuple(h.words for h in step.houses),
    )


def step_views(
    explanation: Explanation, start: int, stop: int, words: CellWords = ENGLISH
) -> list[StepView]:
    """Steps ``start`` .. ``stop - 1`` (0-based) of an explanation, numbered from 1."""
    geo = explanation.geometry
    return [
        step_view(i + 1, explanation.steps[i], geo, explanation.givens, words)
        for i in range(start, min(stop, len(explanation.steps)))
    ]


def difficulty(explanation: Explanation | GradeResult, stats: SolveStats) -> Difficulty:
    """The human grade of ``explanation`` beside the engine's grade from its ``stats``.

    A :class:`GradeResult` (the result page's fast grade) has no steps: ``steps`` is 0 and
    ``counts`` empty, which only the steps page shows.
    """
    counts: tuple[tuple[str, int], ...] = ()
    if isinstance(explanation, GradeResult):
        steps = 0
    else:
        steps, counts = len(explanation.steps), tuple(explanation.technique_counts.items())
    return Difficulty(
        explanation.grade,
        explanation.hardest,
        GRADES,
        machine_grade(stats),
        grade_note_words(explanation, stats),
        explanation.solved_by_logic,
        explanation.guesses,
        explanation.cut_short,
        steps,
        counts,
    )


# ---------------------------------------------------------------------------------------------
# Hints


def hint_display(
    hint: Hint | None, geometry: Geometry, givens: str, words: CellWords = ENGLISH
) -> dict[str, Any]:
    """The hint page's drawing of a hint: the grid of its last step (its cells and houses
    marked, the digit not revealed), its steps, and where logic got stuck."""
    grid = None
    if hint is not None and hint.steps and hint.last is not None:
        marked = [int(ch != "0") for ch in givens]  # truthy per given: drawn bold
        grid = pencil_grid(geometry, hint.before, marked, hint.last, reveal=False, words=words)
    return {
        "hint_grid": grid,
        "hint_steps": [step_view(i + 1, s, geometry, (), words) for i, s in enumerate(hint.steps)]
        if hint
        else [],
        "stuck_guess": hint.stuck_guess if hint else "",
        "stuck_words": hint.stuck_words if hint else None,
        "hint_cut": bool(hint and hint.cut_short),
    }


# ---------------------------------------------------------------------------------------------
# The search story


@dataclass(frozen=True)
class EventView:
    """One line of the engine's search, indented by its depth in the tree."""

    kind: str
    sentence: str
    depth: int
    indent: int  # depth capped at MAX_INDENT, for a CSS class
    words: Words | None = None  # the sentence's template and values (the filter ``sentence``)


@dataclass(frozen=True)
class SearchView:
    """The engine's run as the search page tells it: totals from the run's own statistics."""

    outcome: str  # the solve's status: solved, multiple, unsolvable, gave_up
    guesses: int
    backtracks: int
    truncated: bool  # the story was cut (the totals count all of the search)
    events: tuple[StoryEvent, ...]


def search_view(result: SolveResult) -> SearchView:
    """The story and totals of a recorded solve (``solve(..., record=N)``)."""
    story = result.story or SearchStory((), False)
    stats = result.stats
    return SearchView(result.status, stats.guesses, stats.backtracks, story.truncated, story.events)


def event_views(search: SearchView) -> list[EventView]:
    """The story's events for the page."""
    return [_event(e) for e in search.events]


def _event(event: StoryEvent) -> EventView:
    return EventView(
        event.kind, event.sentence, event.depth, min(event.depth, MAX_INDENT), event.words
    )


# ---------------------------------------------------------------------------------------------
# JSON


def _cells_json(geometry: Geometry, pairs: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    return [
        {"cell": geometry.cell_name(c), "index": c, "digit": geometry.symbol(d)} for c, d in pairs
    ]


#: How a caller says a core sentence (its English, its words) in the visitor's language.
Say = Callable[[str, Words | Listing | None], str]


def step_json(
    number: int, step: Step, geometry: Geometry, say: Say | None = None
) -> dict[str, Any]:
    """One step as JSON: cells both as names (``r4c7``) and as 0-based row-major indices; the
    sentence said by ``say`` (English when none)."""
    return {
        "number": number,
        "technique": step.technique,
        "grade": step.grade,
        "sentence": step.sentence if say is None else say(step.sentence, step.words),
        "houses": [h.name for h in step.houses],
        "cells": [geometry.cell_name(c) for c in step.cells],
        "cell_indices": list(step.cells),
        "placements": _cells_json(geometry, step.placements),
        "eliminations": _cells_json(geometry, step.eliminations),
    }


def difficulty_json(level: Difficulty, say: Say | None = None) -> dict[str, Any]:
    """The two grades as JSON, the note said by ``say`` (English when none)."""
    note = level.note
    if note is not None:
        english = note.english()
        note_text: str | None = english if say is None else say(english, note)
    else:
        note_text = None
    return {
        "human": {
            "grade": level.human,
            "hardest": level.hardest,
            "scale": list(level.scale),
            "upper_bound": level.cut_short,
        },
        "machine": {
            "label": level.machine.label,
            "guesses": level.machine.guesses,
            "backtracks": level.machine.backtracks,
        },
        "note": note_text,
    }


def candidates_json(geometry: Geometry, marks: Candidates) -> list[str]:
    """Pencil marks per cell, row-major: the placed symbol, or the candidate symbols as a string."""
    return [
        geometry.symbol(value) if value else "".join(geometry.symbol(d) for d in marks.digits(c))
        for c, value in enumerate(marks.values)
    ]


def trace_json(search: SearchView, geometry: Geometry, say: Say | None = None) -> dict[str, Any]:
    """The engine's search story (reduces, guesses, failures), capped like the page; its
    sentences said by ``say`` (English when none)."""
    return {
        "outcome": search.outcome,
        "guesses": search.guesses,
        "backtracks": search.backtracks,
        "truncated": search.truncated,
        "events": [
            {
                "depth": e.depth,
                "kind": e.kind,
                "sentence": e.sentence if say is None else say(e.sentence, e.words),
                "cell": None if e.cell is None else geometry.cell_name(e.cell),
                "index": e.cell,
                "digit": None if e.value is None else geometry.symbol(e.value),
                "candidates": [geometry.symbol(d) for d in e.candidates],
                "house": e.house,
                "places": [geometry.cell_name(c) for c in e.places],
                "settled": e.settled,
            }
            for e in search.events
        ],
    }


def explanation_json(
    explanation: Explanation, stats: SolveStats, say: Say | None = None
) -> dict[str, Any]:
    """The explanation's summary, grades and every step (sentences said by ``say``), for
    ``/api/explain``."""
    geo = explanation.geometry
    return {
        "logic": {
            "status": explanation.status,
            "solved_by_logic": explanation.solved_by_logic,
            "guesses": explanation.guesses,
            "cut_short": explanation.cut_short,
            "steps": len(explanation.steps),
        },
        "grade": difficulty_json(difficulty(explanation, stats), say),
        "technique_counts": dict(explanation.technique_counts),
        "steps": [step_json(i + 1, s, geo, say) for i, s in enumerate(explanation.steps)],
    }
