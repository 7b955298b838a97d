"""The hostile load test's inputs are what its report says they are (benchmarks/hostile.py).

A load test that sent malformed or cached inputs would measure the wrong thing: these check
that each builder makes a fresh, valid request of the kind it names, and that the app answers
it without refusing it.
"""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask

from benchmarks import hostile
from sudoku_web import create_app
from sudoku_web.core.board import find_conflicts, jigsaw, parse_puzzle, standard
from sudoku_web.core.solver import solve


def test_random_maps_are_valid_jigsaws_and_fresh() -> None:
    rng = random.Random(1)
    maps = {hostile.map_text(hostile.random_map(rng)) for _ in range(5)}
    assert len(maps) == 5
    for text in maps:
        geometry = jigsaw(text)  # raises for regions that are not 16 connected cells each
        assert geometry.size == 16
        assert text[0] == "A" and len(set(text)) == 16


def test_impossible_puzzles_have_20_givens_no_conflict_and_no_solution() -> None:
    rng = random.Random(2)
    geometry = standard(16)
    puzzles = {hostile.impossible16(rng) for _ in range(5)}
    assert len(puzzles) == 5
    for puzzle in puzzles:
        grid = parse_puzzle(puzzle, geometry)
        assert sum(1 for v in grid if v) == 20
        assert find_conflicts(grid, geometry) == []
        assert solve(puzzle, geometry=geometry).status == "unsolvable"


def test_disguised_puzzles_keep_one_solution_under_new_text() -> None:
    rng = random.Random(3)
    puzzle = hostile.disguised_unique16(rng)
    assert puzzle != hostile.UNIQUE16
    assert puzzle.count("0") == hostile.UNIQUE16.count("0")
    assert solve(puzzle, geometry=standard(16)).status == "solved"


@pytest.fixture(scope="module")
def shipped() -> Flask:
    """The app with the shipped deadlines, as the load test serves it: the most expensive
    requests are answered within them (the test's ``ROOMY`` app would run them to the end)."""
    return create_app({"TESTING": True})


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(hostile.KINDS))
def test_every_kind_is_answered_not_refused(shipped: Flask, kind: str) -> None:
    app = shipped
    request = hostile.KINDS[kind](random.Random(4))
    assert request.kind == kind
    client = app.test_client()
    if request.method == "GET":
        response = client.get(request.path)
    else:
        assert len(request.body) <= hostile.MAX_BODY == app.config["MAX_CONTENT_LENGTH"]
        response = client.post(request.path, data=request.body, content_type=request.content_type)
    assert response.status_code == 200, response.data[:300]
    if request.content_type == "application/json":
        assert json.loads(request.body)["puzzle"]
