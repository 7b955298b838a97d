"""Colouring: simple colouring and multi-colouring remove exactly what their colours prove,
need the strong links they rest on, and carry those links for the steps page's drawing.

The positions come from explanations of top95 and top1465 (the puzzle is named with each) and
are checked against the engine's solution here too.
"""

from __future__ import annotations

import pytest

from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    Candidates,
    Technique,
    multi_colouring,
    simple_colouring,
    tables_for,
)

GEO = standard(9)
TABLES = tables_for(GEO)


def _candidates(position: str) -> Candidates:
    """81 tokens: "=5" for a placed 5, "139" for an open cell with candidates 1, 3 and 9."""
    tokens = position.split()
    assert len(tokens) == 81
    values = tuple(int(t[1:]) if t.startswith("=") else 0 for t in tokens)
    masks = tuple(0 if t.startswith("=") else sum(1 << (int(d) - 1) for d in t) for t in tokens)
    return Candidates(values, masks)


def _cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def _cells(*names: str) -> tuple[int, ...]:
    return tuple(_cell(n) for n in names)


# top1465: 5's strong links make one cluster of twelve cells; two green ones share column 4.
SIMPLE_WRAP = (
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
)

# top1465: clusters of three and four cells; blue (r1c5, r8c4) sees both colours of the other.
MULTI_WRAP = (
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
)

# top95: two clusters of 4, of five and two cells; blue r2c3 sees yellow r9c3.
MULTI_TRAP = (
    "......94.....9...53....5.7..8.4..1..463...........7.8.8..7.....7......28.5.26....",
    "1256     12       15       =8       =7       126      =9       =4       =3 "
    "126      =7       48       136      =9       234      28       16       =5 "
    "=3       49       489      16       24       =5       28       =7       16 "
    "25       =8       =7       =4       235      236      =1       36       =9 "
    "=4       =6       =3       19       =8       19       =7       =5       =2 "
    "1259     129      1259     356      235      =7       36       =8       =4 "
    "=8       2349     126      =7       345      39       45       169      16 "
    "=7       349      46       359      =1       349      456      =2       =8 "
    "19       =5       149      =2       =6       =8       34       139      =7 ",
)

SOURCES = [SIMPLE_WRAP, MULTI_WRAP, MULTI_TRAP]


@pytest.mark.parametrize("source", SOURCES, ids=["simple", "wrap", "trap"])
def test_positions_keep_the_solution(source: tuple[str, str]) -> None:
    puzzle, position = source
    solution = parse_puzzle(solve(puzzle).solution or "", GEO)
    cand = _candidates(position)
    for cell, digit in enumerate(solution):
        assert cand.values[cell] == digit or cand.masks[cell] >> (digit - 1) & 1


def test_simple_colouring_wrap_removes_the_false_colour() -> None:
    step = simple_colouring(_candidates(SIMPLE_WRAP[1]), TABLES)
    assert step is not None
    green = _cells("r1c9", "r3c1", "r4c4", "r5c3", "r5c8", "r6c4", "r8c7")
    assert step.eliminations == tuple((c, 5) for c in green)
    assert "Two green cells, r4c4 and r6c4, see each other, so green is false" in step.sentence
    assert [h.name for h in step.houses] == ["column 4", "box 5"]


def test_multi_colouring_wrap_removes_a_colour_seeing_both_of_the_other() -> None:
    cand = _candidates(MULTI_WRAP[1])
    assert simple_colouring(cand, TABLES) is None  # neither cluster wraps on its own
    step = multi_colouring(cand, TABLES)
    assert step is not None and step.technique == "Multi-colouring"
    assert step.eliminations == ((_cell("r1c5"), 2), (_cell("r8c4"), 2))
    assert (
        "Blue r1c5 sees yellow r1c3 and blue r8c4 sees purple r4c4, so if blue were true, "
        "yellow and purple would both be false: blue is false" in step.sentence
    )
    assert step.sentence.endswith("and 2 goes in r8c5.")


def test_multi_colouring_trap_removes_what_sees_both_other_colours() -> None:
    step = multi_colouring(_candidates(MULTI_TRAP[1]), TABLES)
    assert step is not None
    assert step.eliminations == ((_cell("r7c7"), 4),)
    assert "Blue r2c3 sees yellow r9c3, so blue and yellow are not both true" in step.sentence
    assert "green or purple is" in step.sentence


def test_multi_colouring_needs_both_clusters_strong_links() -> None:
    # A third 4 in row 9 (r9c8) breaks the second cluster's link r9c3-r9c7: no colouring
    # reaches r7c7 any more, and nothing else colours.
    cand = _candidates(MULTI_TRAP[1])
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
    source: tuple[str, str], technique: Technique, clusters: int, weak: int
) -> None:
    cand = _candidates(source[1])
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
