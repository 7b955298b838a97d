"""XY-chains: a search on bitsets tells which starts the breadth-first search would find a
chain from, and only those are searched; it must tell exactly those, with the chain's length,
on every kind of board."""

from __future__ import annotations

import pytest
from reference_techniques import random_positions

from sudoku_web.core.board import Geometry, hyper, standard, x_sudoku
from sudoku_web.core.techniques import MAX_CHAIN_CELLS, bits_to_digits, tables_for, xy_chain
from sudoku_web.core.techniques.chains import _xy_from, _xy_lengths


@pytest.mark.parametrize(
    "geometry",
    [standard(9), standard(6), x_sudoku(9), hyper(), standard(4)],
    ids=["9x9", "6x6", "x", "hyper", "4x4"],
)
def test_the_bitset_search_tells_the_starts_a_chain_is_found_from(geometry: Geometry) -> None:
    tables = tables_for(geometry)
    found = 0
    for cand in random_positions(geometry, seed=14, count=15):
        bivalue = [c for c, m in enumerate(cand.masks) if m.bit_count() == 2]
        near = {c: [n for n in bivalue if tables.sees(c, n)] for c in bivalue}
        lengths = _xy_lengths(cand, tables, bivalue, near)
        for start in bivalue:
            for z in bits_to_digits(cand.masks[start]):
                chain = _xy_from(cand, tables, near, start, z, MAX_CHAIN_CELLS + 1)
                assert lengths.get((start, z)) == (None if chain is None else len(chain[0]))
                found += chain is not None
        step = xy_chain(cand, tables)
        assert (step is None) == (not lengths)
    assert found  # the positions hold chains to compare
