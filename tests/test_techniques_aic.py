"""Grouped X-chains, grouped AICs and nice loops (``techniques/aic.py``).

The exact effect of each on a frozen position is in ``test_logic_techniques.py``; here, on
those positions and on every such step of real explanations (classic and X-sudoku): every
link a step carries is a real strong or weak link of its position, checked from the
candidates alone; grouped nodes lie in one overlap of two houses; chains stay short enough
to follow; and what a step removes contradicts the ends its name promises.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from test_logic_techniques import FUNCTIONS, _case, _cell

from sudoku_web.core.board import Geometry, parse_puzzle, standard, x_sudoku
from sudoku_web.core.logic import apply_step, explain
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    Candidates,
    Group,
    Node,
    Step,
    Tables,
    Technique,
    aic,
    chains,
    grouped_chain,
    node_cells,
    remembering,
    tables_for,
)
from sudoku_web.core.techniques.aic import MAX_CHAIN_NODES
from sudoku_web.core.techniques.base import searched_in_vain, still_vain

GEO = standard(9)
NAMES = ("Grouped X-chain", "Grouped AIC", "Continuous nice loop", "Discontinuous nice loop")
TOP95 = [
    line.strip()
    for line in (Path(__file__).parent / "data" / "top95.txt").read_text().split()
    if line.strip()
]


def _places(geo: Geometry, cand: Candidates, house: tuple[int, ...], digit: int) -> set[int]:
    return {c for c in house if cand.masks[c] >> (digit - 1) & 1}


def _strong(geo: Geometry, cand: Candidates, a: Node | Group, b: Node | Group) -> bool:
    """One of the two is true: a two-candidate cell, or a digit's places in a house."""
    ca, cb = set(node_cells(a)), set(node_cells(b))
    if a[1] != b[1]:
        return len(ca) == 1 and ca == cb and cand.masks[min(ca)].bit_count() == 2
    return not ca & cb and any(ca | cb == _places(geo, cand, h.cells, a[1]) for h in geo.houses)


def _weak(geo: Geometry, a: Node | Group, b: Node | Group) -> bool:
    """Not both are true: two digits of one cell, or one digit where all cells see all."""
    ca, cb = node_cells(a), node_cells(b)
    if a[1] != b[1]:
        return len(ca) == len(cb) == 1 and ca == cb
    return all(y in geo.peers[x] for x in ca for y in cb)


def _contradicts(geo: Geometry, cell: int, digit: int, node: Node | Group) -> bool:
    """True when ``digit`` in ``cell`` rules the node out."""
    cells = node_cells(node)
    if digit == node[1]:
        return cell not in cells and all(cell in geo.peers[c] for c in cells)
    return cells == (cell,)


def _in_an_overlap(geo: Geometry, cells: tuple[int, ...]) -> bool:
    holding = [h for h in geo.houses if set(cells) <= set(h.cells)]
    return len(holding) >= 2


def check_chain_step(geo: Geometry, step: Step) -> None:
    """The step's links are real links of its position, in the order its name promises, and
    its eliminations follow from them."""
    cand, links = step.before, step.links
    assert step.technique in NAMES and links and not step.placements and step.eliminations
    nodes = [links[0][0], *(b for _, b, _ in links)]
    for (_, end, _), (start, _, _) in zip(links, links[1:], strict=False):
        assert end == start  # one chain, read from its start
    for a, b, strong in links:
        assert _strong(geo, cand, a, b) if strong else _weak(geo, a, b), (a, b, strong)
    groups = [n for n in nodes if len(node_cells(n)) > 1]
    for group in groups:
        assert _in_an_overlap(geo, node_cells(group)), group
    kinds = [strong for _, _, strong in links]
    removed = step.eliminations
    if step.technique == "Discontinuous nice loop":
        # From the removed candidate back to it: weak out, strong and weak in turn, weak in.
        assert removed == (nodes[0],) == (nodes[-1],)
        assert kinds == [i % 2 == 1 for i in range(len(links))] and not kinds[-1]
        assert len(set(nodes)) == len(nodes) - 1 <= MAX_CHAIN_NODES
        return
    assert len(set(nodes[:-1])) == len(nodes) - 1  # no node twice (a loop closes on its start)
    assert kinds == [i % 2 == 0 for i in range(len(links))]  # strong first, then in turn
    if step.technique == "Continuous nice loop":
        assert nodes[0] == nodes[-1] and not kinds[-1] and len(nodes) - 1 <= MAX_CHAIN_NODES
        for cell, digit in removed:  # each removal contradicts both ends of one link
            assert any(
                _contradicts(geo, cell, digit, a) and _contradicts(geo, cell, digit, b)
                for a, b, _ in links
            ), (cell, digit)
        return
    assert groups and kinds[-1] and len(nodes) <= MAX_CHAIN_NODES
    assert (len({d for _, d in nodes}) == 1) == (step.technique == "Grouped X-chain")
    for cell, digit in removed:  # each removal contradicts both ends
        assert _contradicts(geo, cell, digit, nodes[0]), (cell, digit)
        assert _contradicts(geo, cell, digit, nodes[-1]), (cell, digit)


@pytest.mark.parametrize("name", NAMES)
def test_case_steps_are_real_chains(name: str) -> None:
    step = FUNCTIONS[name](_case(name).candidates(), tables_for(GEO))
    assert step is not None and step.technique == name
    check_chain_step(GEO, step)
    assert any(len(node_cells(n)) > 1 for a, b, _ in step.links for n in (a, b))


@functools.cache
def _explained(geo: Geometry, puzzle: str) -> tuple[Step, ...]:
    """The steps of the explanation of ``puzzle`` given its solution, explained once per
    process: three tests here read top95's."""
    solution = parse_puzzle(solve(puzzle, geometry=geo).solution or "", geo)
    return explain(parse_puzzle(puzzle, geo), geo, solution=solution).steps


def _chain_steps(geo: Geometry, puzzles: list[str]) -> list[Step]:
    steps = []
    for puzzle in puzzles:
        steps += [s for s in _explained(geo, puzzle) if s.technique in NAMES]
    return steps


def test_every_grouped_chain_of_top95_is_a_real_chain() -> None:
    steps = _chain_steps(GEO, TOP95)
    assert {s.technique for s in steps} == set(NAMES)
    for step in steps:
        check_chain_step(GEO, step)


def test_grouped_chains_on_x_sudoku_use_every_house() -> None:
    # Minimal X-sudoku puzzles from test_logic: chains there also run along the diagonals.
    geo = x_sudoku(9)
    puzzles = [
        "6785........632............1.2....3.....9........1...5.8.1....6.....3........51..",
        "...68...............1.....47......8...........3.7.6....53..7....6....3.8..7..9.1.",
    ]
    steps = _chain_steps(geo, puzzles)
    assert steps
    for step in steps:
        check_chain_step(geo, step)


def test_a_group_needs_every_other_place_of_its_digit() -> None:
    # The grouped X-chain runs "7 is in neither r4c2 nor r4c3, so r4c8 is 7": row 4's 7s are
    # the group and r4c8. A fourth place (r4c5) breaks that strong link: no chain may use it.
    case = _case("Grouped X-chain")
    cand = case.candidates()
    masks = list(cand.masks)
    masks[_cell("r4c5")] |= 1 << 6
    changed = Candidates(cand.values, tuple(masks))
    step = grouped_chain(changed, tables_for(GEO))
    group: Group = ((_cell("r4c2"), _cell("r4c3")), 7)
    assert step is None or all(group not in (a, b) for a, b, _ in step.links)
    if step is not None:
        check_chain_step(GEO, step)
    assert grouped_chain(cand, tables_for(GEO)) is not None  # the original still fires


def test_nothing_found_once_the_chains_are_used_up() -> None:
    # Applying the technique's own steps ends with none left, and every step on the way is a
    # real chain (the position's one effect at a time).
    cand = _case("Grouped AIC").candidates()
    for _ in range(100):
        step = grouped_chain(cand, tables_for(GEO))
        if step is None:
            break
        check_chain_step(GEO, step)
        cand = apply_step(cand, step, GEO)
    else:
        pytest.fail("grouped chains kept firing")


def _shortest_over_every_start(
    cand: Candidates, t: Tables, g: chains._ChainGraph
) -> tuple[list[Node], list[tuple[int, int]]] | None:
    """The plain search the chain rung stands for: every start in order, each breadth first,
    keeping the first chain strictly shorter than the best so far."""
    best = None
    for s in range(len(g.nodes)):
        found = chains._first_chain(cand, t, g, s)
        if found is not None and (best is None or len(found[0]) < len(best[0])):
            best = found
    return best


def test_the_one_pass_start_finds_the_chain_the_plain_search_shows() -> None:
    """The ungrouped chain rung asks one pass over all starts at once for the first start
    of a shortest chain with an effect, and searches only from there: over every stall of a
    sample of top95 (where the rung runs, found or not), it shows the chain the plain search
    over every start shows, and both kinds of answer occur."""
    seen = {True: 0, False: 0}
    t = tables_for(GEO)
    for puzzle in TOP95[:30]:
        for step in _explained(GEO, puzzle):
            cand = step.before
            graph = chains._ChainGraph(cand, t)
            start = chains._first_start(cand, t, graph)
            quick = None if start is None else chains._first_chain(cand, t, graph, start)
            assert quick == _shortest_over_every_start(cand, t, graph)
            seen[quick is not None] += 1
    assert seen[True] and seen[False]


# The seven top95 puzzles that need forcing logic at the most stalls: between stalls a forcing
# step often removes one candidate, which is what the chain rungs' memo of searches in vain
# is for.
FORCING_STALLS = (34, 44, 74, 92, 58, 53, 59)


@functools.cache
def _stall_positions() -> list[Candidates]:
    """Every position the explanations of three of those puzzles step from, in order."""
    positions = []
    for i in FORCING_STALLS[:3]:
        positions += [step.before for step in _explained(GEO, TOP95[i])]
    return positions


@pytest.mark.parametrize(
    ("rung", "search"),
    [
        (chains.xy_chain, "_xy_chain"),
        (chains.alternating_chain, "_ChainGraph"),
        (grouped_chain, "_Graph"),
    ],
)
def test_a_chain_rung_skips_a_position_only_where_it_finds_nothing(
    rung: Technique, search: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked position after position inside ``remembering()``, a chain rung answers exactly as
    its plain search does, and skips the search (positions that only lost candidates since it
    searched in vain, with nothing new for it) at some of them."""
    module = aic if search == "_Graph" else chains
    searches = 0
    plain = getattr(module, search)

    def counted(*args: object) -> object:
        nonlocal searches
        searches += 1
        return plain(*args)

    t = tables_for(GEO)
    positions = _stall_positions()
    expected = [rung(cand, t) for cand in positions]
    monkeypatch.setattr(module, search, counted)
    with remembering():
        assert [rung(cand, t) for cand in positions] == expected
    assert any(expected)
    assert searches < len(positions)  # skipped some


def test_a_position_that_gained_a_candidate_is_searched_again() -> None:
    cand = _case("Grouped AIC").candidates()
    t = tables_for(GEO)
    less = Candidates(cand.values, tuple(m & ~1 if m.bit_count() > 3 else m for m in cand.masks))
    with remembering():
        searched_in_vain("X-chain", less)  # as if: nothing found with fewer candidates
        assert not still_vain("X-chain", cand, t, lambda *_: True)
        assert still_vain("X-chain", less, t, lambda *_: True)
        assert not still_vain("X-chain", less, t, lambda *_: False)
    assert not still_vain("X-chain", less, t, lambda *_: True)  # outside: nothing remembered
