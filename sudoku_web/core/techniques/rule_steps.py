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

import dataclasses
import functools
from collections.abc import Sequence

from ..board import Geometry
from ..rules.base import Propagator, Rule, settle
from ..rules.registry import KINDS
from ..wording import N_, Value, Words, clause, listing, words
from . import clock
from .base import (
    Candidates,
    Grade,
    Step,
    Tables,
    Technique,
    _failed,
    _first_found,
    _named,
    _step,
    _telling,
    bits_to_digits,
    holds,
    house_uniques,
    removals,
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
            clock.check()  # one rule's deductions at a time: a board may hold hundreds
            rule, propagate = by_index[i]
            found = rule.deduce(masks, geo, propagate)
            if found is None:
                return None
            elims = [(c, d) for c, d in found.eliminations if not cand.values[c]]
            if not elims:
                return None
            sentence = words(
                N_("{reason}, which removes {removals}."),
                reason=dataclasses.replace(found.reason, capital=True),
                removals=removals(geo, elims),
            )
            return _step(
                found.technique, sentence, cand, cells=found.cells, eliminations=elims, rules=[i]
            )

        return _first_found(name, list(by_index), state, search)

    return _named(technique, name, f"The {kind.NAME} rule's own step ({name}).")


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
            sentence = words(
                N_(
                    "{rule}: no filling keeps it with the digits and candidates here, so a digit "
                    "placed earlier is wrong."
                ),
                rule=clause(rule.describe(geo)),
            )
            return _step("Contradiction", sentence, cand, cells=cells, rules=[index])
    return None


def _placed(values: Sequence[int]) -> list[int]:
    return [c for c, v in enumerate(values) if v]


# ---------------------------------------------------------------------------------------------
# Forcing with rules: "if r1c1 were 3, singles and the rules would leave a cell empty".

# Larger grids keep the guess (as the forcing rungs do): a 16x16 position has too many
# candidates to follow within a page's deadline.
MAX_FORCING_SIZE = 9
# The placements a sentence lists before "and N more".
SHOWN = 8
# A branch that breaks within this many placements is shown at once (see rule_forcing).
SHORT = 12


def rule_forcing(cand: Candidates, t: Tables) -> Step | None:
    """A forcing chain by contradiction whose links may come from any rule: one candidate is
    assumed, then singles and every rule's own eliminations follow until a cell or a house
    has nothing left, so the candidate goes. The first branch that breaks within
    :data:`SHORT` placements is shown, else the shortest that breaks.

    For boards whose rules constrain beyond houses and cages (:func:`constrained`): the
    forcing rungs before it follow singles and locked candidates only.
    """
    geo = t.geometry
    if geo.size > MAX_FORCING_SIZE or not constrained(geo) or cand.solved:
        return None
    props = _propagators(geo)
    masks = engine_masks(cand)
    memo = _failed.get()
    found: list[tuple[int, int, _Branch]] = []
    for cell, digit in _assumptions(cand, memo):
        clock.check()  # up to a few hundred branches: stop at the explanation's deadline
        branch = _follow(t, props, cand.values, masks, cell, 1 << (digit - 1))
        if branch.broken is not None:
            found.append((cell, digit, branch))
            if len(branch.placed) <= SHORT:
                break
    if not found:
        return None
    cell, digit, branch = min(found, key=lambda f: len(f[2].placed))
    if memo is not None:
        memo.update(("Rule forcing", c, d) for c, d, _ in found)
        memo.discard(("Rule forcing", cell, digit))
    return _step(
        "Forcing chain with rules",
        _story(geo, cell, digit, branch) if _telling.get() else "",
        cand,
        cells=[cell, *(c for c, _ in branch.placed)],
        eliminations=[(cell, digit)],
        rules=sorted(branch.rules),
    )


def _assumptions(
    cand: Candidates, memo: set[tuple[str, int, object]] | None
) -> list[tuple[int, int]]:
    """The candidates to assume, in order: those whose branch broke at an earlier search of
    the same explanation first (candidates only shrink, so it usually breaks again; each is
    followed again, never trusted), then cells with the fewest candidates first."""
    open_cells = sorted(
        (c for c, m in enumerate(cand.masks) if m), key=lambda c: (cand.masks[c].bit_count(), c)
    )
    nodes = [(c, d) for c in open_cells for d in bits_to_digits(cand.masks[c])]
    if memo is None:
        return nodes
    return sorted(nodes, key=lambda node: ("Rule forcing", *node) not in memo)


class _Branch:
    """What one assumption led to: placements in order, the rules that removed something,
    and what broke (a sentence's end), or None."""

    __slots__ = ("broken", "placed", "rules")

    def __init__(self) -> None:
        self.placed: list[tuple[int, int]] = []
        self.rules: set[int] = set()
        self.broken: Words | None = None


def _follow(
    t: Tables,
    props: Sequence[tuple[int, Rule, Propagator]],
    values: Sequence[int],
    masks: Sequence[int],
    cell: int,
    bit: int,
) -> _Branch:
    """Assume ``bit`` in ``cell``; place singles and run the rules until nothing changes or
    something breaks."""
    out = _Branch()
    m = list(masks)
    m[cell] = bit
    done = [bool(v) for v in values]
    for _ in range(t.geometry.cells * 2):
        clock.check()  # each round runs every rule's propagator once
        found = _naked_singles(t, m, done, out.placed, cell)
        if found is False:
            found = _hidden_singles(t, m)
        if found is False:
            found = _rules_round(t.geometry, props, m, out.rules)
        if isinstance(found, Words):
            out.broken = found
            return out
        if not found:
            break
    return out


def _naked_singles(
    t: Tables, m: list[int], done: list[bool], placed: list[tuple[int, int]], assumed: int
) -> bool | Words:
    """Place every cell with one candidate left (clearing its peers); True when one was,
    or what broke (a peer left with nothing)."""
    geo = t.geometry
    changed = False
    for c, x in enumerate(m):
        if done[c] or x & (x - 1):
            continue
        x = m[c]
        done[c] = changed = True
        if c != assumed:
            placed.append((c, x.bit_length()))
        for p in t.peer_sets[c]:
            if m[p] & x:
                m[p] &= ~x
                if not m[p]:
                    return words(N_("{cell} has no candidate left"), cell=geo.cell_name(p))
    return changed


def _rules_round(
    geo: Geometry, props: Sequence[tuple[int, Rule, Propagator]], m: list[int], used: set[int]
) -> bool | Words:
    """Each rule's eliminations once; True when one removed something, or what broke."""
    changed = False
    for index, rule, propagate in props:
        if propagate(m):
            used.add(index)
            changed = True
            if not all(m):
                empty = next(c for c, x in enumerate(m) if not x)
                return words(
                    N_("the {rule} rule leaves {cell} with no candidate"),
                    rule=Words(rule.NAME),
                    cell=geo.cell_name(empty),
                )
    return changed


def _hidden_singles(t: Tables, m: list[int]) -> bool | Words:
    """Narrow each digit with one place in a house to it; True when something changed, or
    what broke (a house without a place for a digit, a cell that must hold two)."""
    geo = t.geometry
    full = (1 << geo.size) - 1
    changed = False
    for h, cells in enumerate(t.house_cells):
        union = 0
        for c in cells:
            union |= m[c]
        if union != full:
            d = (full & ~union).bit_length()
            return words(
                N_("{digit} has no place left in {house}"),
                digit=geo.symbol(d),
                house=geo.houses[h].words,
            )
        only = house_uniques(m, cells)
        while only:
            low = only & -only
            only ^= low
            c = next((c for c in cells if m[c] & low), -1)
            if c < 0:
                return words(
                    N_("two digits have only one cell left in {house}"), house=geo.houses[h].words
                )
            if m[c] != low:
                m[c] = low
                changed = True
    return changed


def _story(geo: Geometry, cell: int, digit: int, branch: _Branch) -> Words:
    placed: list[Value] = [holds(geo, c, d) for c, d in branch.placed[:SHOWN]]
    more = len(branch.placed) - SHOWN
    if more > 0:
        placed.append(words(N_("{count} more"), count=str(more)))
    kinds = sorted({geo.rules[i].NAME for i in branch.rules})
    how = (
        words(N_("singles and the rules ({kinds})"), kinds=listing(map(Words, kinds), ","))
        if kinds
        else words(N_("singles"))
    )
    said: dict[str, Value] = {
        "cell": geo.cell_name(cell),
        "digit": geo.symbol(digit),
        "how": how,
        "broken": branch.broken or "",
    }
    if placed:
        said["placed"] = listing(placed, ",")
        template = N_(
            "Suppose {cell} were {digit}: {how} give {placed}, and then {broken}. So {digit} is "
            "removed from {cell}."
        )
    else:
        template = N_(
            "Suppose {cell} were {digit}: by {how}, {broken}. So {digit} is removed from {cell}."
        )
    return words(template, **said)
