"""Human solving techniques over a candidates grid, each returning one explained :class:`Step`.

The vocabulary (candidates, strong link, sees, step) is :mod:`.base`'s.

Every technique is a pure function ``(candidates, tables) -> Step | None`` that finds the
first instance that changes something; :data:`TECHNIQUES` lists them easiest first with the
grade each one implies. All of them work from the geometry's house tables, so variants work
unchanged; the fish family, skyscraper and kite reason about rows and columns (every board
has those), and every uniqueness rectangle (unique, hidden, avoidable) checks every house,
so it only fires where the swap of two digits would really leave a second solution.

One module per family: :mod:`.base` (candidates, steps, tables, the memo of searches made in
vain, wording), :mod:`.singles`, :mod:`.intersections`, :mod:`.subsets`, :mod:`.fish`,
:mod:`.single_digit`, :mod:`.wings`, :mod:`.uniqueness` (with :mod:`.rectangles` and
:mod:`.avoidable`), :mod:`.chains` (grouped chains and nice loops in :mod:`.aic`), :mod:`.als`,
:mod:`.sue_de_coq`,
:mod:`.forcing`
(with its bit-state propagation in :mod:`.propagation`), for boards with cages
:mod:`.killer` (the 45 rule in :mod:`.innies`, the arithmetic in :mod:`.sums`), and for
boards with rules :mod:`.rule_steps` (one rung per rule kind, each asking the kind's own
deductions, and the forcing chain with rules). This module assembles the ladder.

Grades (the hardest rung decides): Easy = singles, cage combinations and the rules' own
steps a glance finds (thermometers, dots and letters, whispers, palindromes, odd/even, anti-knight,
anti-king, non-consecutive); Medium = intersections, cage/house overlaps, innies and outies,
arrow, little killer and sandwich sums, renban, pairs, triples;
Hard = quads, X-wing, swordfish, skyscraper, kite and the wings; Fiendish = colouring,
jellyfish, finned fish, uniqueness, chains, Sue de Coq, almost locked sets (ALS-XZ,
ALS-XY-wing, ALS chains); Diabolical = forcing chains and nets (with rules too), and a guess
when even they find nothing.

Roads not taken: techniques return one step rather than applying every instance at once,
because a page shows one sentence per step and a hint is exactly one step. Rescanning from
the easiest technique after every step keeps the explanation in the order a person works;
within one explanation, per-digit rungs and subsets skip digits and houses already searched
in vain on the same candidates, fish, single-digit patterns and wings look only at patterns
resting on candidates lost since their last search in vain, and the chain rungs skip a
position that only lost candidates since they searched in vain when that made no new strong
link (see :func:`remembering`; a forcing step often removes a single candidate). The order is
roughly by how hard a pattern is to spot, not by power: fish and wings before chains, chains
before forcing.
Alternating inference chains lift top95 from 52% to 63% solved without a guess; forcing
chains, as the last resort before a guess, take it to 100% (see ``benchmarks/RESULTS.md``).
Chains stop at twelve cells (sixteen nodes for grouped chains and loops, as HoDoKu's),
beyond which a sentence is no longer something a person follows.
"""

from __future__ import annotations

from .aic import grouped_chain
from .als import als_chain, als_xy_wing, als_xz
from .avoidable import avoidable_rectangle, avoidable_rectangle_2
from .base import (
    GRADE_OF,
    GRADES,
    Candidates,
    Cell,
    Digit,
    Grade,
    Group,
    Link,
    Node,
    Step,
    Tables,
    Technique,
    bits_to_digits,
    digit_boards,
    house_uniques,
    node_cells,
    placement_peers,
    remembering,
    tables_for,
    untold,
)
from .chains import MAX_CHAIN_CELLS, alternating_chain, xy_chain
from .fish import (
    finned_jellyfish,
    finned_swordfish,
    finned_x_wing,
    jellyfish,
    swordfish,
    x_wing,
)
from .forcing import FORCING_NAMES, forcing_chain, forcing_net
from .innies import innies_outies
from .intersections import intersection
from .killer import cage_combination, cage_contradiction, cage_overlap
from .rectangles import (
    hidden_rectangle,
    unique_rectangle_2,
    unique_rectangle_3,
    unique_rectangle_4,
    unique_rectangle_5,
    unique_rectangle_6,
)
from .rule_steps import RUNGS as RULE_RUNGS
from .rule_steps import constrained, rule_forcing
from .single_digit import (
    empty_rectangle,
    multi_colouring,
    simple_colouring,
    skyscraper,
    two_string_kite,
)
from .singles import contradiction, hidden_single, naked_single
from .subsets import (
    hidden_pair,
    hidden_quad,
    hidden_triple,
    naked_pair,
    naked_quad,
    naked_triple,
)
from .sue_de_coq import sue_de_coq
from .uniqueness import bug_plus_one, unique_rectangle
from .wings import w_wing, xy_wing, xyz_wing

__all__ = [
    "ALSO_YIELDS",
    "GRADES",
    "GRADE_OF",
    "KILLER",
    "MAX_CHAIN_CELLS",
    "RULES",
    "RULE_RUNGS",
    "ORDER",
    "TECHNIQUES",
    "UNIQUENESS",
    "Candidates",
    "Cell",
    "Digit",
    "Grade",
    "Group",
    "Link",
    "Node",
    "Step",
    "Tables",
    "Technique",
    "als_chain",
    "als_xy_wing",
    "als_xz",
    "alternating_chain",
    "avoidable_rectangle",
    "avoidable_rectangle_2",
    "bits_to_digits",
    "bug_plus_one",
    "cage_combination",
    "cage_contradiction",
    "cage_overlap",
    "constrained",
    "contradiction",
    "digit_boards",
    "empty_rectangle",
    "finned_jellyfish",
    "finned_swordfish",
    "finned_x_wing",
    "forcing_chain",
    "forcing_net",
    "grouped_chain",
    "hidden_pair",
    "hidden_rectangle",
    "hidden_quad",
    "hidden_single",
    "hidden_triple",
    "house_uniques",
    "innies_outies",
    "intersection",
    "jellyfish",
    "multi_colouring",
    "naked_pair",
    "naked_quad",
    "naked_single",
    "naked_triple",
    "node_cells",
    "placement_peers",
    "remembering",
    "rule_forcing",
    "simple_colouring",
    "skyscraper",
    "sue_de_coq",
    "swordfish",
    "tables_for",
    "two_string_kite",
    "untold",
    "unique_rectangle",
    "unique_rectangle_2",
    "unique_rectangle_3",
    "unique_rectangle_4",
    "unique_rectangle_5",
    "unique_rectangle_6",
    "w_wing",
    "x_wing",
    "xy_chain",
    "xy_wing",
    "xyz_wing",
]

# ---------------------------------------------------------------------------------------------
# The ladder: easiest first. Grades map the hardest rung a solve needs to a named scale.

TECHNIQUES: tuple[tuple[str, Grade, Technique], ...] = (
    ("Hidden single", "Easy", hidden_single),
    ("Naked single", "Easy", naked_single),
    # The killer rungs find nothing on a board without cages (see .killer).
    ("Cage combination", "Easy", cage_combination),
    # A rule kind's own steps (see .rule_steps): they find nothing on a board without rules.
    *(rung for rung in RULE_RUNGS if rung[1] == "Easy"),
    ("Pointing", "Medium", intersection),  # also yields "Box/line reduction"
    ("Cage/house overlap", "Medium", cage_overlap),
    ("Innies and outies", "Medium", innies_outies),
    *(rung for rung in RULE_RUNGS if rung[1] == "Medium"),
    ("Naked pair", "Medium", naked_pair),
    ("Hidden pair", "Medium", hidden_pair),
    ("Naked triple", "Medium", naked_triple),
    ("Hidden triple", "Medium", hidden_triple),
    *(rung for rung in RULE_RUNGS if rung[1] == "Hard"),
    ("X-wing", "Hard", x_wing),
    ("Skyscraper", "Hard", skyscraper),
    ("Two-string kite", "Hard", two_string_kite),
    ("Empty rectangle", "Hard", empty_rectangle),
    ("Naked quad", "Hard", naked_quad),
    ("Hidden quad", "Hard", hidden_quad),
    ("XY-wing", "Hard", xy_wing),
    ("Swordfish", "Hard", swordfish),
    ("XYZ-wing", "Hard", xyz_wing),
    ("W-wing", "Hard", w_wing),
    ("Simple colouring", "Fiendish", simple_colouring),
    ("Multi-colouring", "Fiendish", multi_colouring),
    ("Jellyfish", "Fiendish", jellyfish),
    ("Finned X-wing", "Fiendish", finned_x_wing),
    ("Unique rectangle", "Fiendish", unique_rectangle),
    ("Unique rectangle type 2", "Fiendish", unique_rectangle_2),
    ("Unique rectangle type 3", "Fiendish", unique_rectangle_3),
    ("Unique rectangle type 4", "Fiendish", unique_rectangle_4),
    ("Unique rectangle type 5", "Fiendish", unique_rectangle_5),
    ("Unique rectangle type 6", "Fiendish", unique_rectangle_6),
    ("Hidden rectangle", "Fiendish", hidden_rectangle),
    ("Avoidable rectangle", "Fiendish", avoidable_rectangle),
    ("Avoidable rectangle type 2", "Fiendish", avoidable_rectangle_2),
    ("BUG+1", "Fiendish", bug_plus_one),
    ("Finned swordfish", "Fiendish", finned_swordfish),
    ("Finned jellyfish", "Fiendish", finned_jellyfish),
    ("XY-chain", "Fiendish", xy_chain),
    ("X-chain", "Fiendish", alternating_chain),  # also yields "Alternating chain"
    # also yields "Grouped AIC", "Continuous nice loop" and "Discontinuous nice loop"
    ("Grouped X-chain", "Fiendish", grouped_chain),
    ("Sue de Coq", "Fiendish", sue_de_coq),
    ("ALS-XZ", "Fiendish", als_xz),
    ("ALS-XY-wing", "Fiendish", als_xy_wing),
    ("ALS chain", "Fiendish", als_chain),
    # also yield "Cell forcing chain", "Unit forcing chain" and the same for nets
    ("Forcing chain by contradiction", "Diabolical", forcing_chain),
    ("Forcing net by contradiction", "Diabolical", forcing_net),
    # boards whose rules constrain beyond houses: branches that follow the rules too
    ("Forcing chain with rules", "Diabolical", rule_forcing),
)

# Techniques that assume the puzzle has exactly one solution.
UNIQUENESS = frozenset(
    {
        "Unique rectangle",
        "Unique rectangle type 2",
        "Unique rectangle type 3",
        "Unique rectangle type 4",
        "Unique rectangle type 5",
        "Unique rectangle type 6",
        "Hidden rectangle",
        "Avoidable rectangle",
        "Avoidable rectangle type 2",
        "BUG+1",
    }
)

# Techniques that read cage sums: they find nothing on a board without cages (their cases
# are in tests/test_techniques_killer.py, on boards with cages).
KILLER = frozenset({"Cage combination", "Cage/house overlap", "Innies and outies"})

# Techniques that read a board's rules: they find nothing on a board without rules (their
# cases are in tests/test_rule_steps.py, on boards with rules).
RULES = frozenset({*(name for name, _, _ in RULE_RUNGS), "Forcing chain with rules"})

# Names a rung's function also gives its steps, easiest first, after the rung's own name.
ALSO_YIELDS: dict[str, tuple[str, ...]] = {
    "Pointing": ("Box/line reduction",),
    "X-chain": ("Alternating chain",),
    "Grouped X-chain": ("Grouped AIC", "Continuous nice loop", "Discontinuous nice loop"),
}

GRADE_OF.update((name, grade) for name, grade, _ in TECHNIQUES)  # base.GRADE_OF: one dict
for _name, _grade, _ in TECHNIQUES:
    GRADE_OF.update(dict.fromkeys(ALSO_YIELDS.get(_name, ()), _grade))
for _name in FORCING_NAMES:
    GRADE_OF[_name] = "Diabolical"
GRADE_OF["Guess"] = "Diabolical"
GRADE_OF["Contradiction"] = "Diabolical"

# Every technique name a step can carry, easiest first (for ordered counts).
ORDER: tuple[str, ...] = (
    *(n for name, _, _ in TECHNIQUES[:-3] for n in (name, *ALSO_YIELDS.get(name, ()))),
    *FORCING_NAMES,
    TECHNIQUES[-1][0],
    "Guess",
)
