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


def test_the_cpu_table_asks_only_the_routes_named_and_keeps_each_requests_least() -> None:
    tree = release_compare.Release("this tree", release_compare.ROOT)
    puzzles = [p.removeprefix("/p/") for p in release_compare.mixed_paths(limit=2)[::6]]
    times = release_compare.run_cpu(tree, puzzles, puzzles[0], routes=["page"], passes=2)
    assert set(times) == {"page"} and len(times["page"]) == 2
    assert all(0 < t < 1_000 for t in times["page"])
    table = release_compare.cpu_report({"this tree": [times]})
    assert "| page |" in table and "png" not in table
