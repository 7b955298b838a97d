"""The release comparison's mixed load is what its report says (benchmarks/release_compare.py):
every puzzle's six requests, each puzzle once, each route recognised, and every request one
the app answers (a 4xx would be measured as cheap work)."""

from __future__ import annotations

from collections import Counter

from flask import Flask

from benchmarks import release_compare


def test_the_mixed_load_asks_each_puzzle_once_on_every_route() -> None:
    paths = release_compare.mixed_paths()
    assert len(paths) == len(set(paths))  # cold: no request twice in a round
    routes = Counter(release_compare._route_of(p) for p in paths)
    assert set(routes) == set(release_compare.MIXED_ROUTES)
    assert len(set(routes.values())) == 1  # as many of each
    first = paths[: len(release_compare.MIXED_ROUTES)]
    assert [release_compare._route_of(p) for p in first] == list(release_compare.MIXED_ROUTES)


def test_every_request_of_the_mix_is_answered(app: Flask) -> None:
    client = app.test_client()
    for path in release_compare.mixed_paths(limit=2):
        assert client.get(path).status_code == 200, path
