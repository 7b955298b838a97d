"""The pattern rungs inside ``remembering()``: knowing what was searched in vain never changes
an answer.

Within one explanation the fish, single-digit, wing and subset rungs skip digits, houses and
patterns that cannot have changed since they last found nothing; asked position after
position, each must answer exactly as its plain search does, step for step.
"""

from __future__ import annotations

import pytest
from test_techniques_aic import GEO, _stall_positions

from sudoku_web.core.techniques import (
    Candidates,
    Technique,
    empty_rectangle,
    finned_jellyfish,
    finned_swordfish,
    finned_x_wing,
    hidden_pair,
    hidden_quad,
    jellyfish,
    multi_colouring,
    naked_triple,
    remembering,
    simple_colouring,
    skyscraper,
    swordfish,
    tables_for,
    two_string_kite,
    w_wing,
    x_wing,
    xy_wing,
    xyz_wing,
)
from sudoku_web.core.techniques.base import lost_since_vain, searched_in_vain

RUNGS = [
    x_wing,
    swordfish,
    jellyfish,
    finned_x_wing,
    finned_swordfish,
    finned_jellyfish,
    skyscraper,
    two_string_kite,
    empty_rectangle,
    simple_colouring,
    multi_colouring,
    xy_wing,
    xyz_wing,
    w_wing,
    naked_triple,
    hidden_pair,
    hidden_quad,
]


@pytest.mark.parametrize("rung", RUNGS, ids=lambda r: r.__name__)
def test_a_pattern_rung_answers_as_its_plain_search_position_after_position(
    rung: Technique,
) -> None:
    """The positions three explanations step from, in order (each explanation's losing
    candidates step by step, then a fresh puzzle with candidates back): the same steps with
    the memo as without."""
    t = tables_for(GEO)
    positions = _stall_positions()
    expected = [rung(cand, t) for cand in positions]
    with remembering():
        assert [rung(cand, t) for cand in positions] == expected


def test_the_rungs_find_steps_at_those_positions() -> None:
    """The comparison above is not empty: most of those rungs find a step somewhere."""
    t = tables_for(GEO)
    positions = _stall_positions()
    finding = [rung for rung in RUNGS if any(rung(cand, t) for cand in positions)]
    assert len(finding) >= len(RUNGS) // 2


def test_lost_since_vain_names_the_cells_that_lost_candidates() -> None:
    cand = _stall_positions()[0]
    open_cells = [c for c, m in enumerate(cand.masks) if m.bit_count() > 1]
    a, b = open_cells[:2]
    masks = list(cand.masks)
    masks[a] &= masks[a] - 1  # drop its lowest candidate
    masks[b] &= masks[b] - 1
    less = Candidates(cand.values, tuple(masks))
    with remembering():
        assert lost_since_vain("XY-wing", less) is None  # nothing searched in vain yet
        searched_in_vain("XY-wing", cand)
        assert lost_since_vain("XY-wing", less) == (1 << a) | (1 << b)
        searched_in_vain("XY-wing", less)
        assert lost_since_vain("XY-wing", cand) is None  # candidates came back
    assert lost_since_vain("XY-wing", less) is None  # outside: nothing remembered
