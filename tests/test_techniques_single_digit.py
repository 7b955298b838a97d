"""Colouring, beyond the technique cases of test_logic_techniques (whose positions and checks
these share): simple colouring and multi-colouring remove exactly what their colours prove,
need the strong links they rest on, and carry those links for the steps page's drawing.
"""

from __future__ import annotations

import pytest
from test_logic_techniques import CASES, Case, _cell
from test_logic_techniques import test_case_is_sound as check_sound

from sudoku_web.core.board import standard
from sudoku_web.core.techniques import (
    Candidates,
    Technique,
    multi_colouring,
    simple_colouring,
    tables_for,
)

GEO = standard(9)
TABLES = tables_for(GEO)


# top1465: 5's strong links make one cluster of twelve cells; two green ones share column 4.
SIMPLE_WRAP = Case(
    "Simple colouring",
    ".1.....8....75.....39...6........8.6.9..2.4..6.1....9.......2....2149.381...3....",
    "47       =1       57       2469     69       26       =3       =8       25 "
    "=2       =8       =6       =7       =5       =3       =1       =4       =9 "
    "45       =3       =9       248      =1       28       =6       =7       25 "
    "=3       57       =4       59       79       =1       =8       =2       =6 "
    "=8       =9       57       356      =2       567      =4       15       13 "
    "=6       =2       =1       35       =8       =4       57       =9       37 "
    "=9       457      =3       568      67       5678     =2       156      14 "
    "57       =6       =2       =1       =4       =9       57       =3       =8 "
    "=1       457      =8       256      =3       2567     =9       56       47 ",
    placements=(),
    eliminations=tuple((c, 5) for c in ("r1c9", "r3c1", "r4c4", "r5c3", "r5c8", "r6c4", "r8c7")),
)

# top1465: clusters of three and four cells; blue (r1c5, r8c4) sees both colours of the other.
MULTI_WRAP = Case(
    "Multi-colouring",
    "...3...86..76..1......5...4..6.1....5.4...3.2.9..4.7..2...3.6....1..54..43...9...",
    "19       245      259      =3       279      1247     259      =8       =6 "
    "89       245      =7       =6       89       24       =1       235      35 "
    "13689    268      38       1289     =5       128      29       =7       =4 "
    "=7       28       =6       259      =1       =3       58       =4       589 "
    "=5       =1       =4       789      789      678      =3       69       =2 "
    "38       =9       238      25       =4       26       =7       156      158 "
    "=2       578      89       =4       =3       178      =6       159      15789 "
    "689      678      =1       278      278      =5       =4       39       379 "
    "=4       =3       58       178      =6       =9       258      12       178 ",
    placements=(),
    eliminations=(("r1c5", 2), ("r8c4", 2)),
)

# The technique case (top95): clusters of five and two cells; blue r2c3 sees yellow r9c3.
MULTI_TRAP = next(c for c in CASES if c.technique == "Multi-colouring")


@pytest.mark.parametrize("case", [SIMPLE_WRAP, MULTI_WRAP], ids=["simple", "multi"])
def test_wraps_are_sound_and_exact(case: Case) -> None:
    check_sound(case)  # the technique cases' check: the position and the step keep the solution
    technique = simple_colouring if case.technique == "Simple colouring" else multi_colouring
    step = technique(case.candidates(), TABLES)
    assert step is not None and step.technique == case.technique
    assert step.eliminations == tuple((_cell(c), d) for c, d in case.eliminations)


def test_simple_colouring_wrap_removes_the_false_colour() -> None:
    step = simple_colouring(SIMPLE_WRAP.candidates(), TABLES)
    assert step is not None
    assert "Two green cells, r4c4 and r6c4, see each other, so green is false" in step.sentence
    assert [h.name for h in step.houses] == ["column 4", "box 5"]


def test_multi_colouring_wrap_removes_a_colour_seeing_both_of_the_other() -> None:
    cand = MULTI_WRAP.candidates()
    assert simple_colouring(cand, TABLES) is None  # neither cluster wraps on its own
    step = multi_colouring(cand, TABLES)
    assert step is not None
    assert (
        "Blue r1c5 sees yellow r1c3 and blue r8c4 sees purple r4c4, so if blue were true, "
        "yellow and purple would both be false: blue is false" in step.sentence
    )
    assert step.sentence.endswith("and 2 goes in r8c5.")


def test_multi_colouring_trap_removes_what_sees_both_other_colours() -> None:
    step = multi_colouring(MULTI_TRAP.candidates(), TABLES)
    assert step is not None
    assert "Blue r2c3 sees yellow r9c3, so blue and yellow are not both true" in step.sentence
    assert "green or purple is" in step.sentence


def test_multi_colouring_needs_both_clusters_strong_links() -> None:
    # A third 4 in row 9 (r9c8) breaks the second cluster's link r9c3-r9c7: no colouring
    # reaches r7c7 any more, and nothing else colours.
    cand = MULTI_TRAP.candidates()
    masks = list(cand.masks)
    masks[_cell("r9c8")] |= 1 << 3
    broken = Candidates(cand.values, tuple(masks))
    assert multi_colouring(broken, TABLES) is None
    assert simple_colouring(broken, TABLES) is None


def _components(links: list[tuple[int, int]]) -> int:
    """How many connected groups of cells the links make."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in links:
        parent[root(a)] = root(b)
    return len({root(x) for x in parent})


@pytest.mark.parametrize(
    ("source", "technique", "clusters", "weak"),
    [
        (SIMPLE_WRAP, simple_colouring, 1, 1),
        (MULTI_WRAP, multi_colouring, 2, 2),
        (MULTI_TRAP, multi_colouring, 2, 1),
    ],
    ids=["simple", "wrap", "trap"],
)
def test_colouring_steps_carry_their_links(
    source: Case, technique: Technique, clusters: int, weak: int
) -> None:
    cand = source.candidates()
    step = technique(cand, TABLES)
    assert step is not None
    digit = step.eliminations[0][1]
    bit = 1 << (digit - 1)
    strong = [(a, b) for (a, da), (b, db), s in step.links if s and da == db == digit]
    # Every strong link is the digit's only two places in a house ...
    for a, b in strong:
        assert any(
            a in h and b in h and sum(1 for c in h if cand.masks[c] & bit) == 2
            for h in TABLES.house_cells
        )
    # ... they join exactly the coloured cells, cluster by cluster ...
    assert {c for link in strong for c in link} == set(step.cells)
    assert _components(strong) == clusters
    # ... and the weak links (the sightings that decide) join cells that see each other.
    sightings = [(a, b) for (a, da), (b, db), s in step.links if not s]
    assert len(sightings) == weak
    assert len(step.links) == len(strong) + weak  # every link is on the digit
    assert all(TABLES.sees(a, b) and a in step.cells and b in step.cells for a, b in sightings)
