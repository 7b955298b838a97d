"""The logic solver that explains: human techniques step by step, hints and difficulty.

Vocabulary (on top of :mod:`sudoku_web.core.board` and :mod:`sudoku_web.core.techniques`):

pencil marks
    The :class:`~sudoku_web.core.techniques.Candidates` of a grid: each given removes its digit
    from its peers (and, after the first reduce, singles are placed too).
step
    One deduction (:class:`~sudoku_web.core.techniques.Step`): technique, houses and cells,
    placements, eliminations, the candidates before it, and a sentence a person can follow.
    Placing a digit also removes it from the placed cell's peers; that routine bookkeeping
    is part of every placement and is not listed as eliminations.
guess
    When no technique applies, the step the engine would take there, chosen by the engine's
    own rule (:func:`~sudoku_web.core.solver.branch_for`: a two-candidate cell with the most
    open peers, else a symbol's two places in a house, else a cell with the fewest
    candidates). The explanation shows the options and places the one that holds (taken
    from the engine's solution), then carries on with logic.
grade
    The human grade is the hardest technique used, on the scale Easy / Medium / Hard /
    Fiendish / Diabolical (Diabolical: forcing chains or nets, or a guess when even they
    find nothing). The machine grade is the engine's own work: guesses and backtracks.

Public API::

    explain(grid, geometry, *, max_steps=..., solution=None) -> Explanation
    grade(grid, geometry, *, solution=None, deadline_ms=None) -> GradeResult  # explain's, fast
    graded(explanation) -> GradeResult                                       # of one made
    next_step(grid_or_candidates, geometry, *, unique=True) -> Step | None   # a hint
    pencil_marks(grid, geometry, *, reduce=False) -> Candidates
    apply_step(candidates, step, geometry) -> Candidates
    machine_grade(stats) -> MachineGrade
    grade_note(explanation, stats) -> str | None

Everything is pure and stdlib-only; pages format the dataclasses and never solve.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .board import Geometry, parse_puzzle
from .solver import SolveStats, branch_for, solve
from .techniques import (
    GRADE_OF,
    GRADES,
    KILLER,
    ORDER,
    RULES,
    TECHNIQUES,
    UNIQUENESS,
    Candidates,
    Grade,
    Step,
    Tables,
    Technique,
    cage_combination,
    clock,
    constrained,
    contradiction,
    hidden_single,
    house_uniques,
    naked_single,
    placement_peers,
    remembering,
    tables_for,
    untold,
)
from .wording import N_, Np_, Words, counted, words

__all__ = [
    "GRADES",
    "Candidates",
    "Explanation",
    "Grade",
    "GradeResult",
    "MachineGrade",
    "Step",
    "apply_step",
    "explain",
    "grade",
    "grade_note",
    "grade_note_words",
    "graded",
    "machine_grade",
    "next_step",
    "pencil_marks",
]

# The rungs still tried once an explanation's deadline has passed: cheap on any grid size.
CHEAP_GRADES = ("Easy", "Medium")

# A 9x9 solve takes 40-150 steps; 16x16 several hundred. The cap only guards against a bug.
DEFAULT_MAX_STEPS = 3000

Status = Literal["solved", "stuck", "contradiction", "max_steps"]


@dataclass(frozen=True)
class Explanation:
    """The steps of one logic solve and what they add up to."""

    geometry: Geometry
    givens: tuple[int, ...]
    steps: tuple[Step, ...]
    # solved: every cell filled; stuck: no technique applies and no solution to guess from;
    # contradiction: the grid breaks a rule (a wrong digit); max_steps: the cap was reached.
    status: Status
    final: Candidates
    # The uniqueness techniques are only used when the puzzle is known to have one solution.
    unique: bool = True
    technique_counts: dict[str, int] = field(default_factory=dict)
    # True when the deadline passed and later steps used only the Easy and Medium rungs
    # before guessing: the grade is then an upper bound.
    cut_short: bool = False

    @property
    def guesses(self) -> int:
        """How many guess steps the explanation needed."""
        return self.technique_counts.get("Guess", 0)

    @property
    def solved_by_logic(self) -> bool:
        """True when the techniques alone filled the grid, without a guess."""
        return self.status == "solved" and not self.guesses

    @property
    def hardest(self) -> str | None:
        """The hardest technique used (``Guess`` when a guess was needed), or None."""
        used = [name for name in ORDER if name in self.technique_counts]
        if not used:
            return None
        return max(used, key=lambda name: (GRADES.index(GRADE_OF[name]), ORDER.index(name)))

    @property
    def grade(self) -> Grade:
        """The human grade: the grade of the hardest technique used (Easy when none)."""
        hardest = self.hardest
        return GRADE_OF[hardest] if hardest else "Easy"


@dataclass(frozen=True)
class MachineGrade:
    """How hard the puzzle was for the engine: its guesses and backtracks, named."""

    label: str
    guesses: int
    backtracks: int
    rank: int  # 0 .. 4, comparable with the index of a human grade in GRADES


def pencil_marks(
    grid: Sequence[int] | str, geometry: Geometry, *, reduce: bool = False
) -> Candidates:
    """The candidates of a grid: each value removes its digit from its peers (and from the
    other cells of its cage).

    With ``reduce=True`` singles (hidden, then naked) are placed until none is left, and each
    cage keeps only the digits its combinations allow, which is what the engine's first
    reduce pass settles. Never raises for a contradictory grid: the candidates simply show
    the empty cell. Raises :class:`ValueError` (``InvalidPuzzle`` for text) when the grid
    does not fit the geometry.
    """
    values = _grid(grid, geometry)
    full = (1 << geometry.size) - 1
    masks = [0 if v else full for v in values]
    peers = _peers(geometry)
    for cell, v in enumerate(values):
        if v:
            bit = 1 << (v - 1)
            for peer in peers[cell]:
                masks[peer] &= ~bit
    cand = Candidates(tuple(values), tuple(masks))
    if reduce:
        tables = tables_for(geometry)
        while contradiction(cand, tables) is None:
            step = (
                hidden_single(cand, tables)
                or naked_single(cand, tables)
                or cage_combination(cand, tables)
            )
            if step is None:
                break
            cand = apply_step(cand, step, geometry)
    return cand


def apply_step(cand: Candidates, step: Step, geometry: Geometry) -> Candidates:
    """The candidates after a step: placements (clearing the digit from peers, cage mates
    included), eliminations."""
    values = list(cand.values)
    masks = list(cand.masks)
    deduced = cand.deduced
    peers = _peers(geometry)
    for cell, digit in step.placements:
        bit = 1 << (digit - 1)
        values[cell] = digit
        masks[cell] = 0
        deduced |= 1 << cell
        for peer in peers[cell]:
            masks[peer] &= ~bit
    for cell, digit in step.eliminations:
        masks[cell] &= ~(1 << (digit - 1))
    return Candidates(tuple(values), tuple(masks), deduced)


def next_step(
    state: Sequence[int] | str | Candidates, geometry: Geometry, *, unique: bool = True
) -> Step | None:
    """The next logical step for a grid (or candidates), or None when none applies.

    For the hint button: it never guesses, so it reveals nothing beyond what the technique
    shows. A grid that breaks a rule yields a ``Contradiction`` step naming the cells.
    ``unique=False`` leaves out the uniqueness techniques (``UNIQUENESS``: unique, hidden and
    avoidable rectangles, BUG+1) for puzzles not known to be proper; boards with cages never
    use them (see :func:`_ladder_step`).
    """
    cand = state if isinstance(state, Candidates) else pencil_marks(state, geometry)
    if cand.solved:
        return contradiction(cand, tables_for(geometry))
    return _first_step(cand, tables_for(geometry), unique)


def _first_step(
    cand: Candidates,
    tables: Tables,
    unique: bool,
    cheap_only: bool = False,
    solution: Sequence[int] | None = None,
) -> Step | None:
    """The contradiction the position shows, else the ladder's first step. A position that
    keeps ``solution`` (a filling of every rule) shows none, so it is not looked for: on a
    board with rules that look runs every rule's propagator to its end, after every step."""
    if solution is None or not _keeps(cand, solution):
        broken = contradiction(cand, tables)
        if broken is not None:
            return broken
    return _ladder_step(cand, tables, TECHNIQUES, unique, cheap_only)


def _keeps(cand: Candidates, solution: Sequence[int]) -> bool:
    """True when every placed digit is the solution's and every open cell keeps its digit."""
    return all(
        v == s if v else m >> (s - 1) & 1
        for v, m, s in zip(cand.values, cand.masks, solution, strict=True)
    )


def _ladder_step(
    cand: Candidates,
    tables: Tables,
    rungs: Sequence[tuple[str, Grade, Technique]],
    unique: bool,
    cheap_only: bool,
) -> Step | None:
    """The first step of the first rung that finds one (only the cheap rungs in a hurry).

    The uniqueness techniques need ``unique`` and a board without cages or rules beyond its
    houses: their deadly patterns swap two digits between cells, which keeps every house
    whole but changes the sums of the cages those cells are in (or breaks a thermometer, a
    dot ...), so there the swap is no second solution.
    """
    geometry = tables.geometry
    unique = unique and not geometry.cages and not constrained(geometry)
    for _, rung, technique in _asked(rungs, unique, bool(geometry.cages), bool(geometry.rules)):
        if rung not in CHEAP_GRADES:
            if cheap_only:
                break
            clock.check()  # past the deadline: OutOfTime, which the caller catches
        try:
            step = technique(cand, tables)
        except clock.OutOfTime:
            if not cheap_only:
                raise
            continue  # a cheap rung that checks the clock (a rule's): past the deadline, skipped
        if step is not None:
            return step
    return None


@functools.lru_cache(maxsize=16)  # bounded: two ladders, three flags
def _asked(
    rungs: Sequence[tuple[str, Grade, Technique]], unique: bool, cages: bool, rules: bool
) -> tuple[tuple[str, Grade, Technique], ...]:
    """The rungs that can find something on a board: the uniqueness ones only with
    ``unique``, the cage sums' only with ``cages`` and the rules' only with ``rules`` (the
    others find nothing there: see ``KILLER`` and ``RULES``)."""
    return tuple(
        (name, rung, technique)
        for name, rung, technique in rungs
        if (unique or name not in UNIQUENESS)
        and (cages or name not in KILLER)
        and (rules or name not in RULES)
    )


def explain(
    grid: Sequence[int] | str,
    geometry: Geometry,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    solution: Sequence[int] | None = None,
    deadline_ms: float | None = None,
) -> Explanation:
    """Solve ``grid`` with human techniques, easiest first, recording every step.

    ``solution`` is the puzzle's unique solution if the caller has it; otherwise the engine is
    asked (within its default budget). When no technique applies, a ``Guess`` step places the
    digit the solution holds in the cell the engine would branch on. Unless the puzzle is
    known to have one solution, the uniqueness techniques (rectangles, BUG+1) are not used;
    with no solution at all (none exists, several do, or the engine gave up first) a position
    where no technique applies ends the explanation (status ``stuck``). Boards with cages
    never use the uniqueness techniques.

    ``deadline_ms`` keeps a page responsive on big grids: once it has passed, only the Easy
    and Medium techniques are tried before a guess (not the rules' own steps, which check
    the clock at each rule: a board may hold hundreds), and ``cut_short`` says so; a costly
    rung's search still running then stops too. It is counted in the time of
    :func:`.techniques.clock.now` (wall-clock unless the caller chose another source). 9x9
    puzzles finish well inside any sensible deadline; minimal 16x16 ones can take seconds
    without.
    """
    deadline = clock.after(deadline_ms)
    cut_short = False
    cand = pencil_marks(grid, geometry)
    givens = cand.values
    unique = solution is not None
    if solution is None:
        result = solve(list(givens), geometry=geometry)
        if result.solutions and result.status in ("solved", "gave_up"):
            # A solution found before the engine's budget ran out is real, so guesses can
            # still name the digit that holds; only uniqueness (for rectangles, BUG+1) is unknown.
            solution = parse_puzzle(result.solutions[0], geometry)
            unique = result.status == "solved"
    tables = tables_for(geometry)
    steps: list[Step] = []
    counts: dict[str, int] = {}
    status: Status = "max_steps"
    # remembering: skip per-digit searches that failed on the same places; within: the costly
    # rungs stop at the deadline too, not only the loop between steps
    with remembering(), clock.within(deadline):
        while len(steps) < max_steps:
            if cand.solved:
                broken = contradiction(cand, tables)
                if broken is not None:
                    steps.append(broken)
                    status = "contradiction"
                else:
                    status = "solved"
                break
            hurry = deadline is not None and clock.now() > deadline
            try:
                step = _first_step(cand, tables, unique, cheap_only=hurry, solution=solution)
            except clock.OutOfTime:  # a costly rung ran past the deadline: as if in a hurry
                step, hurry = None, True
            if step is None:
                cut_short = cut_short or hurry
                if solution is None:
                    status = "stuck"
                    break
                step = _guess(cand, geometry, solution)
                if step is None:  # a dead position: the engine would not branch here
                    status = "stuck"
                    break
            steps.append(step)
            counts[step.technique] = counts.get(step.technique, 0) + 1
            if step.technique == "Contradiction":
                status = "contradiction"
                break
            cand = apply_step(cand, step, geometry)
    ordered = {name: counts[name] for name in (*ORDER, "Contradiction") if name in counts}
    return Explanation(geometry, givens, tuple(steps), status, cand, unique, ordered, cut_short)


@dataclass(frozen=True)
class GradeResult:
    """What :func:`grade` tells: the fields of an :class:`Explanation` the grade rests on."""

    grade: Grade
    hardest: str | None
    solved_by_logic: bool
    cut_short: bool
    guesses: int


def graded(explanation: Explanation) -> GradeResult:
    """What :func:`grade` tells of an explanation already made (its grade, hardest, ...)."""
    return GradeResult(
        explanation.grade,
        explanation.hardest,
        explanation.solved_by_logic,
        explanation.cut_short,
        explanation.guesses,
    )


def grade(
    grid: Sequence[int] | str,
    geometry: Geometry,
    *,
    solution: Sequence[int] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    deadline_ms: float | None = None,
) -> GradeResult:
    """The grade of ``explain(grid, geometry, ...)`` with the same arguments, computed fast.

    For the result page's difficulty panel, which needs only the grade. The same technique
    ladder runs on the same positions, so the hardest technique is the same, but:

    * singles are placed in a batch between the other techniques instead of one step at a
      time. With a unique solution every single is the solution's digit, so they can be
      placed in any order and reach the same position (the explanation places them one by
      one, easiest first, and reaches it too); the other techniques then see exactly the
      positions :func:`explain` gives them;
    * no per-step contradiction check: every placement and elimination is checked against
      the solution instead (a few integer comparisons), which is what rules contradictions
      out;
    * no Step or sentence is built for singles and guesses, and forcing steps are not told
      (their branches are not followed again to write the sentence).

    Whenever that argument does not hold (no unique solution known, a grid that breaks a
    rule, a step that disagrees with the solution, the step cap), it falls back to
    :func:`explain` itself, so the answer is always explain's. Which of the two singles a
    singles-only puzzle needs depends on explain's exact order, so that case replays it.
    """
    deadline = clock.after(deadline_ms)
    values = _grid(grid, geometry)
    answer = _known_answer(values, geometry, solution)
    fast = None if answer is None else _grade_fast(values, geometry, answer, max_steps, deadline)
    if fast is not None:
        return fast
    # What is left of the deadline, so the fallback keeps the caller's bound.
    left = None if deadline is None else max(0.0, (deadline - clock.now()) * 1000)
    return graded(
        explain(values, geometry, solution=solution, max_steps=max_steps, deadline_ms=left)
    )


def _known_answer(
    values: list[int], geometry: Geometry, solution: Sequence[int] | None
) -> list[int] | None:
    """The unique solution the fast grade checks against (asking the engine if need be), or
    None when it is not known, or the grid disagrees with it (explain must say why)."""
    if solution is None:
        result = solve(list(values), geometry=geometry)
        if result.status != "solved" or not result.solutions:
            return None  # stuck / gave_up semantics: rare, leave them to explain
        solution = parse_puzzle(result.solutions[0], geometry)
    answer = list(solution)
    if len(answer) != geometry.cells or any(v and v != answer[c] for c, v in enumerate(values)):
        return None
    return answer


def _grade_fast(
    values: list[int],
    geometry: Geometry,
    answer: list[int],
    max_steps: int,
    deadline: float | None,
) -> GradeResult | None:
    """:func:`grade`'s fast walk (see there), or None when explain must be asked."""
    cand = pencil_marks(values, geometry)
    if any(not m and not v for v, m in zip(cand.values, cand.masks, strict=True)):
        return None
    tables = tables_for(geometry)
    vals, masks = list(cand.values), list(cand.masks)
    steps = guesses = 0
    used: set[str] = set()
    cut_short = False
    # untold: skip per-digit searches that failed on the same places, and the sentences
    with remembering(), untold(), clock.within(deadline):
        while True:
            placed = _settle(vals, masks, geometry, tables, answer)
            steps += placed + 1
            if placed < 0 or steps > max_steps:
                return None
            if all(vals):
                break
            hurry = deadline is not None and clock.now() > deadline
            deduced = sum(1 << c for c, v in enumerate(vals) if v and not values[c])
            here = Candidates(tuple(vals), tuple(masks), deduced)
            try:
                step = _ladder_step(here, tables, TECHNIQUES[2:], True, hurry)
            except clock.OutOfTime:
                step, hurry = None, True
            if step is None:
                cut_short = cut_short or hurry
                # The engine's branch, as _guess, and the option that holds.
                branch = branch_for(vals, masks, geometry)
                if branch is None:
                    return None
                cell, digit = branch.holding(answer)
                step = Step("Guess", "", (), (cell,), ((cell, digit),), (), here)
                guesses += 1
            used.add(step.technique)
            if not _apply_checked(vals, masks, geometry, step, answer):
                return None
    if not used:
        used.update(_singles_used(cand, tables, geometry))
    hardest = max(
        used, key=lambda name: (GRADES.index(GRADE_OF[name]), ORDER.index(name)), default=None
    )
    rung = GRADE_OF[hardest] if hardest else "Easy"
    return GradeResult(rung, hardest, not guesses, cut_short, guesses)


def _apply_checked(
    vals: list[int], masks: list[int], geometry: Geometry, step: Step, answer: list[int]
) -> bool:
    """Apply a step in place; False when it disagrees with ``answer`` (explain must say why)."""
    for cell, digit in step.placements:
        if answer[cell] != digit or not masks[cell] >> (digit - 1) & 1:
            return False
        _place(vals, masks, geometry, cell, digit)
    for cell, digit in step.eliminations:
        if answer[cell] == digit:
            return False
        masks[cell] &= ~(1 << (digit - 1))
    return True


def _place(vals: list[int], masks: list[int], geometry: Geometry, cell: int, digit: int) -> None:
    bit = ~(1 << (digit - 1))
    vals[cell] = digit
    masks[cell] = 0
    for peer in _peers(geometry)[cell]:
        masks[peer] &= bit


def _peers(geometry: Geometry) -> Sequence[Iterable[int]]:
    """Per cell, the cells a digit placed there leaves: its peers, and its cage's cells."""
    return placement_peers(geometry) if geometry.cages else geometry.peers


def _settle(
    vals: list[int], masks: list[int], geometry: Geometry, tables: Tables, answer: list[int]
) -> int:
    """Place naked and hidden singles until none is left; how many, or -1 when a placement
    disagrees with ``answer`` or a cell runs out of candidates (explain must say why)."""
    placed = 0
    houses = tables.house_cells
    while True:
        before = placed
        for cell, m in enumerate(masks):
            if m and not m & (m - 1):
                digit = m.bit_length()
                if answer[cell] != digit:
                    return -1
                _place(vals, masks, geometry, cell, digit)
                placed += 1
        for cells in houses:
            only = house_uniques(masks, cells)
            while only:
                low = only & -only
                only ^= low
                cell = next((c for c in cells if masks[c] & low), -1)
                digit = low.bit_length()
                if cell < 0 or answer[cell] != digit:
                    return -1
                _place(vals, masks, geometry, cell, digit)
                placed += 1
        if placed == before:
            break
    if any(not m and not v for v, m in zip(vals, masks, strict=True)):
        return -1
    return placed


def _singles_used(cand: Candidates, tables: Tables, geometry: Geometry) -> set[str]:
    """The singles explain uses on a singles-only puzzle, replaying its order: the first
    hidden single (houses in order), else the first naked single."""
    vals, masks = list(cand.values), list(cand.masks)
    used: set[str] = set()
    while not all(vals):
        for cells in tables.house_cells:
            only = house_uniques(masks, cells)
            if only:
                low = only & -only
                cell = next(c for c in cells if masks[c] & low)
                _place(vals, masks, geometry, cell, low.bit_length())
                used.add("Hidden single")
                break
        else:
            return used | {"Naked single"}  # Naked single outranks Hidden single: done
    return used


def _guess(cand: Candidates, geometry: Geometry, solution: Sequence[int]) -> Step | None:
    """The engine's branch here (:func:`branch_for`) and the option that holds; None in a
    dead position."""
    branch = branch_for(cand.values, cand.masks, geometry)
    if branch is None:
        return None
    cell, digit = branch.holding(solution)
    said = words(
        N_(
            "No technique here applies, so the engine would guess: it branches on {branch}. "
            "{digit} in {cell} is the one that holds, so it goes there."
        ),
        branch=branch.words(geometry),
        digit=geometry.symbol(digit),
        cell=geometry.cell_name(cell),
    )
    cells = (cell,) if branch.cell is not None else tuple(c for c, _ in branch.options)
    houses = () if branch.house is None else (branch.house,)
    return Step("Guess", "", houses, cells, ((cell, digit),), (), cand, words=said)


def _grid(grid: Sequence[int] | str, geometry: Geometry) -> list[int]:
    if isinstance(grid, str):
        return parse_puzzle(grid, geometry)
    values = list(grid)
    if len(values) != geometry.cells or any(not 0 <= v <= geometry.size for v in values):
        raise ValueError(f"A grid needs {geometry.cells} values from 0 to {geometry.size}.")
    return values


# ---------------------------------------------------------------------------------------------
# Machine grade and the note when people and the engine disagree.


def machine_grade(stats: SolveStats) -> MachineGrade:
    """Name the engine's effort: no guess, a few, many, or a long search."""
    g = stats.guesses
    if g == 0:
        label, rank = "No guessing", 0
    elif g <= 10:
        label, rank = "A few guesses", 2
    elif g <= 100:
        label, rank = "Many guesses", 3
    else:
        label, rank = "Long search", 4
    return MachineGrade(label, g, stats.backtracks, rank)


def grade_note(explanation: Explanation | GradeResult, stats: SolveStats) -> str | None:
    """One sentence when the human and machine grades are two or more ranks apart, else None."""
    said = grade_note_words(explanation, stats)
    return None if said is None else said.english()


def grade_note_words(explanation: Explanation | GradeResult, stats: SolveStats) -> Words | None:
    """:func:`grade_note` as a catalog template and its values."""
    machine = machine_grade(stats)
    human = GRADES.index(explanation.grade)
    hardest = words(explanation.hardest or N_("singles"))
    guesses = counted(
        Np_("{count} guess", "{count} guesses"), machine.guesses, count=str(machine.guesses)
    )
    if human - machine.rank >= 2:
        return words(
            N_(
                "A person needs {hardest} ({grade}), but the engine's search found the answer "
                "with {guesses}: trial and error does not care which patterns people find hard."
            ),
            hardest=hardest,
            grade=words(explanation.grade),
            guesses=guesses,
        )
    if machine.rank - human >= 2:
        return words(
            N_(
                "The engine made {guesses} and {backtracks} because its reduce only uses singles "
                "and locked candidates, while a person can finish with {hardest} ({grade}) and "
                "no guessing."
            ),
            guesses=guesses,
            backtracks=counted(
                Np_("{count} backtrack", "{count} backtracks"),
                machine.backtracks,
                count=str(machine.backtracks),
            ),
            hardest=hardest,
            grade=words(explanation.grade),
        )
    return None
