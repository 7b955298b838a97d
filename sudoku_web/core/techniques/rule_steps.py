"""The steps of a board's rules (thermometers, arrows, dots, lines, outside clues, global
rules): one rung per rule kind, each asking the kind's own :meth:`Rule.deduce
<sudoku_web.core.rules.base.Rule.deduce>`, and the contradiction a rule shows.

A rule kind holds its deductions and their words (its module in :mod:`sudoku_web.core.rules`);
this module only turns them into :class:`Step`\\ s, in the ladder's order, and remembers which
rules found nothing at which of their cells' candidates. A step names the rules it reads
(:attr:`Step.rules`, indices into the geometry's rules) so pages outline them.

The rest of the ladder stays sound on a board with rules: every other rung reasons about
houses (and cages), which the rules only narrow further. Only the uniqueness rungs assume
more (a deadly pattern's swap must keep every rule), so boards whose rules constrain beyond
houses and cages skip them (:func:`constrained`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..board import Geometry
from ..rules.base import Propagator, Rule, settle
from ..rules.registry import KINDS
from .base import (
    Candidates,
    Grade,
    Step,
    Tables,
    Technique,
    _first_found,
    _named,
    _removals,
    _step,
)


@functools.lru_cache(maxsize=64)  # bounded: boards with rules come from user input
def _propagators(geometry: Geometry) -> tuple[tuple[int, Rule, Propagator], ...]:
    """Per rule that constrains beyond the board's houses and cages: its index, the rule,
    and its propagator (built once per board)."""
    out = []
    for index, rule in enumerate(geometry.rules):
        propagate = rule.propagator(geometry)
        if propagate is not None:
            out.append((index, rule, propagate))
    return tuple(out)


def constrained(geometry: Geometry) -> bool:
    """True when some rule of the board constrains beyond its houses and cages."""
    return bool(geometry.rules) and bool(_propagators(geometry))


def engine_masks(cand: Candidates) -> list[int]:
    """The candidates as the engine holds them: a placed cell has its digit's bit."""
    return [m or (1 << (v - 1) if v else 0) for v, m in zip(cand.values, cand.masks, strict=True)]


def _rung(kind: type[Rule]) -> Technique:
    name = kind.STEP

    def technique(cand: Candidates, t: Tables) -> Step | None:
        geo = t.geometry
        if not geo.rules:
            return None
        mine = [(i, rule, p) for i, rule, p in _propagators(geo) if type(rule) is kind]
        if not mine:
            return None
        masks = engine_masks(cand)
        by_index = {i: (rule, p) for i, rule, p in mine}

        def state(i: int) -> object:
            cells = by_index[i][0].cells_read(geo)
            return tuple(masks[c] for c in cells) if cells else tuple(masks)

        def search(i: int) -> Step | None:
            rule, propagate = by_index[i]
            found = rule.deduce(masks, geo, propagate)
            if found is None:
                return None
            elims = [(c, d) for c, d in found.eliminations if not cand.values[c]]
            if not elims:
                return None
            sentence = f"{_capital(found.reason)}, which removes {_removals(geo, elims)}."
            return _step(
                found.technique, sentence, cand, cells=found.cells, eliminations=elims, rules=[i]
            )

        return _first_found(name, list(by_index), state, search)

    return _named(technique, name, f"The {kind.NAME} rule's own step ({name}).")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# The rungs of the rule kinds that have steps, in the registry's order, with their grades.
RUNGS: tuple[tuple[str, Grade, Technique], ...] = tuple(
    (kind.STEP, kind.STEP_GRADE, _rung(kind)) for kind in KINDS if kind.STEP
)


def rule_contradiction(cand: Candidates, t: Tables) -> Step | None:
    """A step naming the first rule the position cannot keep (its propagator empties a
    cell), or None."""
    geo = t.geometry
    if not geo.rules:
        return None
    masks = engine_masks(cand)
    for index, rule, propagate in _propagators(geo):
        if settle(propagate, masks) is None:
            cells = rule.cells_read(geo) or _placed(cand.values)
            sentence = (
                f"{_capital(rule.describe(geo).rstrip('.'))}: no filling keeps it with the "
                "digits and candidates here, so a digit placed earlier is wrong."
            )
            return _step("Contradiction", sentence, cand, cells=cells, rules=[index])
    return None


def _placed(values: Sequence[int]) -> list[int]:
    return [c for c, v in enumerate(values) if v]
