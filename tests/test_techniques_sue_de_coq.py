"""Sue de Coq against its definition: the search builds the second side from the cells free of
the first side's digits instead of pairing every two sides; it must find what the definition
finds (tests/reference_techniques.py), first to first, on every kind of board."""

from __future__ import annotations

import pytest
from reference_techniques import first_sue_de_coq, random_positions

from sudoku_web.core.board import Geometry, hyper, jigsaw, standard, x_sudoku
from sudoku_web.core.techniques import remembering, sue_de_coq, tables_for

# Boxes but for the top left: region 0 holds r1c1-r1c4, r2c1-r2c3 and r3c1-r3c2.
JIGSAW = jigsaw(
    "000011222" "000111222" "001111222" "333444555" "333444555" "333444555"
    "666777888" "666777888" "666777888"
)  # fmt: skip


@pytest.mark.parametrize(
    "geometry",
    [standard(9), standard(6), x_sudoku(9), hyper(), JIGSAW, standard(4)],
    ids=["9x9", "6x6", "x", "hyper", "jigsaw", "4x4"],
)
def test_sue_de_coq_finds_what_the_definition_finds(geometry: Geometry) -> None:
    tables = tables_for(geometry)
    found = 0
    for cand in random_positions(geometry, seed=14, count=15):
        step = sue_de_coq(cand, tables)
        expected = first_sue_de_coq(cand, tables)
        if expected is None:
            assert step is None
            continue
        found += 1
        cells, eliminations = expected
        assert step is not None
        assert step.cells == tuple(cells)
        assert step.eliminations == tuple(eliminations)
    assert found  # the positions hold patterns to compare


def test_searches_remembered_in_vain_change_nothing() -> None:
    # Within remembering(), an intersection searched in vain is skipped while both houses
    # keep their candidates: over a run of positions (each asked twice, as the ladder does
    # after a step elsewhere), every answer is the one a search without memory gives.
    tables = tables_for(standard(9))
    positions = random_positions(standard(9), seed=3, count=12)
    alone = [sue_de_coq(cand, tables) for cand in positions]
    with remembering():
        for cand, expected in zip(positions, alone, strict=True):
            assert sue_de_coq(cand, tables) == expected
            assert sue_de_coq(cand, tables) == expected
    assert any(alone) and not all(alone)
