"""A hint: the logical steps from a person's grid to the next digit they can place.

A grid in a form holds only digits, not the candidates a previous hint eliminated, so a hint
that only eliminated would come back unchanged on the next press: the eliminations leading to
the next placement are part of the hint. Where no technique applies, the hint names the
engine's own guess (:func:`~sudoku_web.core.solver.branch_for`) instead of guessing.

Vocabulary (the steps and candidates are :mod:`sudoku_web.core.logic`'s):

hint
    A :class:`Hint`: the steps up to and including the first that places a digit (or a
    contradiction), or the steps so far and a cell of the engine's guess when logic is stuck.
start
    The candidates the hint starts from: the person's own pencil marks when they have some,
    else those the grid's digits leave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .board import Geometry
from .logic import Candidates, Step, apply_step, next_step, pencil_marks
from .solver import branch_for
from .techniques import clock
from .wording import Words

# A hint looks this many steps ahead for the next placement; in practice 1-10 are needed.
HINT_LOOKAHEAD = 200


@dataclass(frozen=True)
class Hint:
    """The steps to the next placement (the last one places), or none when logic is stuck."""

    steps: tuple[Step, ...]
    before: Candidates  # the candidates the last step starts from
    stuck_cell: int | None = None  # no technique applies: a cell of the engine's guess
    stuck_guess: str = ""  # ... and the guess in words (solver.Branch.describe)
    # The deadline came before a placement: the steps are the eliminations found so far.
    cut_short: bool = False
    stuck_words: Words | None = None  # the guess as a catalog template (solver.Branch.words)

    @property
    def last(self) -> Step | None:
        """The step that places a digit (or a contradiction), None when stuck."""
        return self.steps[-1] if self.steps and not self.stuck else None

    @property
    def stuck(self) -> bool:
        """True when no technique applies: the next move would be a guess."""
        return self.stuck_cell is not None


def hint_steps(
    grid: Sequence[int],
    geometry: Geometry,
    *,
    unique: bool = True,
    start: Candidates | None = None,
    givens: Sequence[int] | None = None,
    deadline_ms: float | None = None,
) -> Hint:
    """Logical steps from ``grid`` up to the first that places a digit (never a guess).

    A grid in a form holds only digits, not the candidates a previous hint eliminated; a hint
    that only eliminated would come back unchanged on the next press. So the eliminations
    leading to the next placement are part of the hint. A ``Contradiction`` step ends it too.
    ``start``: the person's own pencil marks (a pasted candidate grid) instead of the grid's.
    ``givens``: the puzzle's givens, once the grid's other digits are checked against the
    solution; those digits then count as placed while solving (the avoidable rectangle asks).
    ``deadline_ms``: no further step is looked for after it (on a sparse grid with several
    solutions the way to a placement can be long); the hint is then the eliminations so far,
    marked ``cut_short``. It is counted in the time of :func:`.techniques.clock.now`.
    """
    deadline = clock.after(deadline_ms)
    cand = start if start is not None else pencil_marks(list(grid), geometry)
    if givens is not None:
        placed = sum(1 << c for c, v in enumerate(cand.values) if v and not givens[c])
        cand = replace(cand, deduced=placed)
    next_cand = cand
    steps: list[Step] = []
    for _ in range(HINT_LOOKAHEAD):
        cand = next_cand
        if steps and deadline is not None and clock.now() > deadline:
            return Hint(tuple(steps), steps[-1].before, cut_short=True)
        step = next_step(cand, geometry, unique=unique)
        if step is None:
            branch = branch_for(cand.values, cand.masks, geometry)  # the engine's own choice
            if branch is None:
                return Hint(tuple(steps), cand)
            said = branch.words(geometry)
            return Hint(tuple(steps), cand, branch.options[0][0], said.english(), stuck_words=said)
        steps.append(step)
        if step.placements or step.technique == "Contradiction":
            break
        next_cand = apply_step(cand, step, geometry)
    return Hint(tuple(steps), cand)
