"""Rules on a board: each kind's reading, validation, eliminations, check and spelling; the
f-puzzles import and export; the published puzzles solved to their solutions."""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from sudoku_web.core.board import standard
from sudoku_web.core.rules import fpuzzles, links, sums
from sudoku_web.core.rules.base import Rule, RuleError
from sudoku_web.core.rules.board import build, drawing, rules_in_words
from sudoku_web.core.rules.pairs import narrow_pairs, table
from sudoku_web.core.rules.registry import KINDS
from sudoku_web.core.rules.spelling import parse, spell
from sudoku_web.core.solver import _RuleSearch, branch_for, solve, verify
from sudoku_web.core.solver_tables import _tables
from sudoku_web.core.story import RULES_GUESS

DATA = Path(__file__).parent / "data"
PUBLISHED = [
    json.loads(line) for line in (DATA / "variants_fpuzzles.jsonl").read_text().splitlines()
]
OWN = [json.loads(line) for line in (DATA / "rules_puzzles.jsonl").read_text().splitlines() if line]
PACKAGE = Path(__file__).parent.parent / "sudoku_web"


def _grid(text: str, size: int) -> list[int]:
    return [standard(size).symbols.index(ch) + 1 for ch in text]


# --- validation: (spelling, size, words the message must hold, cells it must name) ---------

INVALID = [
    ("th_1112131415161718191a", 9, "not a cell of this grid", None),
    ("th_11121314151617181929", 9, "cannot strictly increase over more than 9", None),
    ("th_111213", 9, None, None),
    ("th_1113", 9, "do not touch", {0, 2}),
    ("th_111211", 9, "twice", {0}),
    ("ar_11_1112131415161718192939", 9, "more than its bulb can show", None),
    ("ar_111213_1121", 9, None, None),
    ("ar_11121314_1121", 9, "at most 3", None),
    ("kr_w_1122", 9, "do not share an edge", {0, 10}),
    ("kr_b_1112_0", 9, "has the value 0", {0, 1}),
    ("xv_x_1113", 9, "do not share an edge", {0, 2}),
    ("lk_11_dr_10", 9, "does not point into the grid", None),
    ("lk_01_dr_100", 9, "cannot add up to 100", None),
    ("sw_r_3_40", 9, "cannot be made", None),
    ("wh_1112_9", 9, "asks a difference of 9", None),
    ("rb_11121314", 4, None, None),
    ("rb_1112131415", 4, "not a cell", None),
    ("pd_111213", 9, "share a house", {0, 2}),
    ("kc_1112131415161718192122", 9, "cannot fill more than 9", None),
    ("zz_11", 9, "'zz' is not a rule sudoku-web knows", None),
    ("kn_11", 9, "takes no cells", None),
    ("dg_q", 9, "dg_p", None),
]


@pytest.mark.parametrize(("text", "size", "words", "cells"), INVALID)
def test_validation_names_the_problem_and_its_cells(
    text: str, size: int, words: str | None, cells: set[int] | None
) -> None:
    if words is None:
        build(size, parse(text, size))  # valid: no error
        return
    with pytest.raises(RuleError) as caught:
        build(size, parse(text, size))
    messages = " ".join(e.message for e in caught.value.errors)
    assert words in messages
    if cells is not None:
        assert cells <= {c for e in caught.value.errors for c in e.cells}
        names = {standard(size).cell_name(c) for c in cells}
        assert all(name in messages for name in names)


def test_rule_text_is_bounded() -> None:
    with pytest.raises(RuleError, match="at most"):
        parse("th_1112." * 10_000, 9)
    with pytest.raises(RuleError, match="rules; at most"):
        parse(".".join(["kn"] * 2001), 9)


# --- soundness: no elimination ever removes a digit of a grid that keeps the rule ----------


def _all_grids(size: int) -> list[list[int]]:
    """Every filled grid of a small boxed size (4x4: 288)."""
    board = standard(size)
    out: list[list[int]] = []
    grid = [0] * board.cells

    def fill(cell: int) -> None:
        if cell == board.cells:
            out.append(grid.copy())
            return
        used = {grid[p] for p in board.peers[cell]}
        for v in range(1, size + 1):
            if v not in used:
                grid[cell] = v
                fill(cell + 1)
        grid[cell] = 0

    fill(0)
    return out


GRIDS4 = _all_grids(4)


@functools.cache
def _keeping(text: str) -> tuple[tuple[int, ...], ...]:
    """The 4x4 grids that keep every rule of ``text``, a valid spelling (asked again and
    again: the random rules of a kind repeat)."""
    board = build(4, parse(text, 4))
    return tuple(tuple(g) for g in GRIDS4 if all(r.check(g, board) for r in board.rules))


def _cells(rng: random.Random, size: int) -> str:
    return f"{rng.randrange(size) + 1}{rng.randrange(size) + 1}"


def _walk(rng: random.Random, size: int, length: int, king: bool = True) -> str:
    r, c = rng.randrange(size), rng.randrange(size)
    seen = [(r, c)]
    for _ in range(length - 1):
        steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc)]
        if not king:
            steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
        rng.shuffle(steps)
        for dr, dc in steps:
            nr, nc = r + dr, c + dc
            if 0 <= nr < size and 0 <= nc < size and (nr, nc) not in seen:
                r, c = nr, nc
                seen.append((r, c))
                break
    return "".join(f"{r + 1}{c + 1}" for r, c in seen)


def _pair(rng: random.Random, size: int) -> str:
    return _walk(rng, size, 2, king=False)


# One random rule of each kind on a 4x4 board (as our spelling), to test every kind.
MAKERS: dict[str, Callable[[random.Random], str]] = {
    "th": lambda rng: "th_" + _walk(rng, 4, rng.randint(2, 4)),
    "ar": lambda rng: "ar_" + (w := _walk(rng, 4, rng.randint(2, 4)))[:2] + "_" + w,
    "kr": lambda rng: f"kr_{rng.choice('wb')}_{_pair(rng, 4)}_{rng.randint(1, 3)}",
    "xv": lambda rng: f"xv_v_{_pair(rng, 4)}",
    "ng": lambda rng: "ng_" + rng.choice(["w", "b", "xv"]),
    "lk": lambda rng: f"lk_0{rng.randint(1, 4)}_d{rng.choice('lr')}_{rng.randint(1, 12)}",
    "sw": lambda rng: f"sw_{rng.choice('rc')}_{rng.randint(1, 4)}_{rng.randint(0, 5)}",
    "kc": lambda rng: "kc_" + _walk(rng, 4, rng.randint(1, 4)) + rng.choice(["", "_7", "_5"]),
    "wh": lambda rng: "wh_" + _walk(rng, 4, rng.randint(2, 4)) + rng.choice(["", "_2"]),
    "rb": lambda rng: "rb_" + _walk(rng, 4, rng.randint(1, 4)),
    "pd": lambda rng: "pd_" + _walk(rng, 4, rng.randint(2, 4)),
    "oe": lambda rng: f"oe_{rng.choice('oe')}_" + _cells(rng, 4) + _cells(rng, 4),
    "kn": lambda rng: "kn",
    "ki": lambda rng: "ki",
    "nc": lambda rng: "nc",
    "dg": lambda rng: "dg_" + rng.choice("pm"),
}


def test_every_kind_has_a_maker() -> None:
    assert set(MAKERS) == {kind.KEY for kind in KINDS}


@pytest.mark.parametrize("key", sorted(MAKERS))
def test_eliminations_keep_every_grid_that_keeps_the_rule(key: str) -> None:
    """Soundness against brute force: for random rules of the kind on a 4x4 board (also with
    an XV and a dot beside them, for the rules that read marks), random candidates around a
    grid that keeps every rule never lose that grid's digits."""
    rng = random.Random(key)
    tried = 0
    for _ in range(300):
        text = MAKERS[key](rng) + rng.choice(["", f".xv_x_{_pair(rng, 4)}", ".kr_w_1112"])
        try:
            board = build(4, parse(text, 4))
        except RuleError:
            continue
        keeping = [list(g) for g in _keeping(text)]
        if not keeping:
            continue
        tried += 1
        propagators = [p for r in board.rules if (p := r.propagator(board)) is not None]
        for grid in rng.sample(keeping, min(5, len(keeping))):
            masks = [(1 << (v - 1)) | rng.getrandbits(4) for v in grid]
            for _ in range(3):
                for propagate in propagators:
                    propagate(masks)
            assert all(m >> (v - 1) & 1 for m, v in zip(masks, grid, strict=True)), text
    # Anti-king and non-consecutive 4x4 grids do not exist: the 9x9 test covers them.
    assert tried >= 20 or key in ("ki", "nc")


@pytest.mark.parametrize("entry", PUBLISHED, ids=lambda e: e["id"])
def test_eliminations_keep_a_published_solution(entry: dict[str, object]) -> None:
    """Soundness on real boards: random candidates around the published solution never lose
    its digits, whatever the rules."""
    imported = fpuzzles.load(str(entry["load"]))
    board = imported.geometry
    solution = [board.symbols.index(ch) + 1 for ch in str(entry["solution"])]
    propagators = [p for r in board.rules if (p := r.propagator(board)) is not None]
    rng = random.Random(str(entry["id"]))
    for density in (0, 1, 2, 4):
        masks = [(1 << (v - 1)) for v in solution]
        for i in range(len(masks)):
            for _ in range(density):
                masks[i] |= 1 << rng.randrange(board.size)
        for _ in range(3):
            for propagate in propagators:
                propagate(masks)
        assert all(m >> (v - 1) & 1 for m, v in zip(masks, solution, strict=True))


@pytest.mark.parametrize("key", sorted(MAKERS))
def test_solver_agrees_with_brute_force_on_4x4(key: str) -> None:
    """The engine's count (none, one, several) of random 4x4 boards with the kind matches
    the grids of all 288 that keep every rule, and its solution is one of them."""
    rng = random.Random("count" + key)
    for _ in range(40):
        text = ".".join(MAKERS[k](rng) for k in (key, rng.choice(sorted(MAKERS))))
        try:
            board = build(4, parse(text, 4))
        except RuleError:
            continue
        keeping = ["".join(map(str, g)) for g in _keeping(text)]
        result = solve("." * 16, geometry=board)
        expected = {0: "unsolvable", 1: "solved"}.get(len(keeping), "multiple")
        # No grid at all: unsolvable, or invalid when a part alone is impossible (a cage).
        assert result.status == expected or (expected, result.status) == ("unsolvable", "invalid")
        assert all(s in keeping for s in result.solutions)


# --- the published and our own puzzles ------------------------------------------------------


@pytest.mark.parametrize("entry", PUBLISHED + OWN, ids=lambda e: e["id"])
def test_puzzle_solved_to_its_solution(entry: dict[str, object]) -> None:
    source = entry["load"] if "load" in entry else entry["fpuzzles"]
    assert isinstance(source, (str, dict))
    imported = fpuzzles.load(source)
    result = solve(
        list(imported.givens), geometry=imported.geometry, max_nodes=200_000, deadline_ms=None
    )
    assert result.status == "solved"
    assert result.solution == entry["solution"]


@pytest.mark.parametrize("kept", ["sudokutools-24", "sudokutools-26"])
def test_rule_search_first_guess_is_branch_for_and_told_by_its_rule(kept: str) -> None:
    entry = next(e for e in PUBLISHED if e["id"] == kept)
    imported = fpuzzles.load(entry["fpuzzles"])
    board, givens = imported.geometry, list(imported.givens)
    stopped = solve(givens, geometry=board, max_nodes=0, deadline_ms=None)
    assert stopped.status == "gave_up" and stopped.candidates is not None
    branch = branch_for(givens, stopped.candidates, board)
    told = solve(givens, geometry=board, max_nodes=50, deadline_ms=None, record=50)
    assert branch is not None and told.story is not None
    guess = next(e for e in told.story.events if e.kind == "guess")
    assert branch.ruled and branch.cell == guess.cell
    assert tuple(v for _, v in branch.options) == guess.candidates
    why = RULES_GUESS.english()
    assert why in guess.sentence and why in branch.describe(board)


@pytest.mark.parametrize("entry", PUBLISHED + OWN, ids=lambda e: e["id"])
def test_solution_keeps_every_rule_and_a_changed_one_does_not(entry: dict[str, object]) -> None:
    source = entry["load"] if "load" in entry else entry["fpuzzles"]
    assert isinstance(source, (str, dict))
    imported = fpuzzles.load(source)
    board = imported.geometry
    solution = str(entry["solution"])
    grid = [board.symbols.index(ch) + 1 for ch in solution]
    assert verify(grid, list(imported.givens), board)
    assert all(rule.check(grid, board) for rule in board.rules)
    # Swapping two digits of a row keeps the rows; some rule or house must notice.
    row = [c for c in range(board.size) if not imported.givens[c]][:2]
    if len(row) == 2:
        swapped = grid.copy()
        swapped[row[0]], swapped[row[1]] = swapped[row[1]], swapped[row[0]]
        assert not verify(swapped, list(imported.givens), board)


@pytest.mark.parametrize("entry", PUBLISHED + OWN, ids=lambda e: e["id"])
def test_fpuzzles_and_our_spelling_round_trip(entry: dict[str, object]) -> None:
    source = entry["load"] if "load" in entry else entry["fpuzzles"]
    assert isinstance(source, (str, dict))
    imported = fpuzzles.load(source)
    board = imported.geometry
    again = fpuzzles.load(fpuzzles.load_link(board, imported.givens, imported.title))
    assert again.geometry == board
    assert again.givens == imported.givens
    text = spell(board.rules, board.size)
    assert re.fullmatch(r"[A-Za-z0-9_.]*", text)
    assert build(board.size, parse(text, board.size), board.regions) == board
    assert parse(text.replace(".", "\n"), board.size) == board.rules


def test_every_published_kind_is_read() -> None:
    """The shared set's f-puzzles fields, each read by a kind of the registry."""
    fields = {k for e in PUBLISHED for k in e["fpuzzles"]} - {
        "size",
        "title",
        "author",
        "ruleset",
        "grid",
    }
    known = {name for kind in KINDS for name in kind.FPUZZLES}
    assert fields <= known


def test_drawing_and_words_cover_every_rule() -> None:
    entry = next(e for e in PUBLISHED if "arrow" in e["fpuzzles"])
    board = fpuzzles.load(entry["load"]).geometry
    picture = drawing(board)
    assert picture.lines and picture.bulbs
    words = rules_in_words(board)
    assert len(words) == len({type(r) for r in board.rules})


# --- refusals ----------------------------------------------------------------------------


def _fp(**fields: object) -> dict[str, object]:
    grid = [[{} for _ in range(9)] for _ in range(9)]
    return {"size": 9, "grid": grid, **fields}


def test_unknown_constraint_is_refused_by_name() -> None:
    with pytest.raises(RuleError, match="zipper lines, which sudoku-web does not know yet"):
        fpuzzles.load(_fp(zipperline=[{"lines": [["R1C1", "R1C2"]]}]))
    with pytest.raises(RuleError, match="'mystery' constraints"):
        fpuzzles.load(_fp(mystery=[1]))


def test_cosmetics_are_ignored_and_said() -> None:
    imported = fpuzzles.load(_fp(line=[{"lines": [["R1C1", "R1C2"]]}], antiknight=True))
    assert any("plain lines" in note.english() for note in imported.ignored)
    assert [r.KEY for r in imported.geometry.rules] == ["kn"]


def test_empty_fields_and_false_flags_add_nothing() -> None:
    imported = fpuzzles.load(_fp(antiking=False, arrow=[], negative=[]))
    assert imported.geometry.rules == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("https://sudokupad.app/scl" + "A" * 40, "only its shapes"),
        ("https://f-puzzles.com/?id=abc123", "short one"),
        ("https://f-puzzles.com/?load=N4Ig", "does not decompress"),
        ("hello there", "not an f-puzzles puzzle"),
        ("{not json", "does not parse"),
        ("A" * 50_000, "at most"),
    ],
)
def test_bad_pastes_say_what_they_are(text: str, words: str) -> None:
    with pytest.raises(RuleError, match=words):
        fpuzzles.load(text)


def test_links_of_every_form_open_the_same_puzzle() -> None:
    entry = PUBLISHED[0]
    payload = entry["load"]
    want = fpuzzles.load(entry["fpuzzles"])
    for text in [
        payload,
        f"https://www.f-puzzles.com/?load={payload}",
        f"https://sudokupad.app/fpuzzles{payload}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{payload.replace('+', '%2B')}",
        json.dumps(entry["fpuzzles"]),
    ]:
        assert fpuzzles.load(text) == want


# --- one module per kind ------------------------------------------------------------------


def test_a_rule_kind_is_named_only_in_its_module_and_the_registry() -> None:
    """No module of the package names a kind (its class, its module, or reads an f-puzzles
    field of it) except the kind's own module and the registry."""
    sources = {p: p.read_text() for p in PACKAGE.rglob("*.py")}
    for kind in KINDS:
        home = PACKAGE / "core" / "rules" / f"{kind.__module__.rsplit('.', 1)[1]}.py"
        module = home.stem
        patterns = [rf"\b{kind.__name__}\b", rf"\.{module}\b import", rf"rules\.{module}\b"]
        for name in kind.FPUZZLES:
            quoted = rf"[\"']{re.escape(name)}[\"']"
            patterns += [rf"\[\s*{quoted}\s*\]", rf"get\(\s*{quoted}"]
        for path, text in sources.items():
            if path in (home, PACKAGE / "core" / "rules" / "registry.py"):
                continue
            for pattern in patterns:
                assert not re.search(pattern, text), f"{path} names {kind.NAME} ({pattern})"


def test_each_kind_keeps_the_protocol() -> None:
    for kind in KINDS:
        assert re.fullmatch(r"[a-z]+", kind.KEY)
        assert kind.FPUZZLES and kind.WORDS and kind.NAME
    assert len({k.KEY for k in KINDS}) == len(KINDS)
    assert not set(itertools.chain.from_iterable(k.FPUZZLES for k in KINDS)) & {"size", "grid"}


def test_rule_is_not_instantiated_for_an_abstract_kind() -> None:
    assert all(issubclass(kind, Rule) for kind in KINDS)


def test_pair_narrowing_remembers_only_what_stays_true() -> None:
    # The pair propagator revises only the pairs of cells changed since its last run (on any
    # branch): on every position its result is the arc-consistent one a fresh start finds.
    rng = random.Random(7)
    for _ in range(200):
        size = 4
        related = {(a, b) for a in range(1, 5) for b in range(a, 5) if rng.random() < 0.5}

        def holds(a: int, b: int, related: set[tuple[int, int]] = related) -> bool:
            return (min(a, b), max(a, b)) in related

        allow = table(size, holds)
        cells = 6
        ends = [sorted(rng.sample(range(cells), 2)) for _ in range(6)]
        pairs = tuple({(a, b) for a, b in ends})
        remembering = narrow_pairs(pairs, allow)
        for _ in range(20):
            masks = [rng.randint(1, 15) for _ in range(cells)]
            fresh, kept = masks.copy(), masks.copy()
            narrow_pairs(pairs, allow)(fresh)
            remembering(kept)
            if all(fresh):
                assert kept == fresh
            else:
                assert not all(kept)


def test_a_link_spells_a_grid_without_givens_by_its_size() -> None:
    """Many rules puzzles have no givens: their link names the size, not every blank."""
    assert links.givens_part("0" * 81, 9) == "9x9"
    assert links.givens_part("0" * 256, 16) == "16x16"
    givens = "1" + "0" * 80
    assert links.givens_part(givens, 9) == givens
    assert links.link_givens("9x9") == "0" * 81 and links.link_givens("6x6") == "0" * 36
    assert links.link_givens(givens) == givens and links.link_givens("9x6") == "9x6"
    assert links.board("16x16", "th_1112", None).size == 16
    assert links.board("4x4", "-", None).size == 4
    with pytest.raises(RuleError):
        links.board("3x3", "th_1112", None)


def test_sums_in_groups_keep_exactly_the_digits_some_way_uses() -> None:
    # Against every assignment: digits apart within each group, free between groups.
    rng = random.Random(11)
    for _ in range(300):
        k = rng.randint(1, 5)
        masks = [rng.randint(0, 63) | rng.randint(0, 63) for _ in range(k)]
        order = rng.sample(range(k), k)
        cut = sorted(rng.sample(range(1, k), rng.randint(0, k - 1))) if k > 1 else []
        groups = tuple(
            tuple(order[a:b]) for a, b in zip([0, *cut], [*cut, k], strict=True) if a < b
        )
        targets = rng.randint(1, (1 << 31) - 1)
        kept, hit = [0] * k, 0
        options = [[d for d in range(1, 7) if m >> (d - 1) & 1] for m in masks]
        for combo in itertools.product(*options):
            apart = all(len({combo[i] for i in g}) == len(g) for g in groups)
            if apart and targets >> sum(combo) & 1:
                hit |= 1 << sum(combo)
                for i, d in enumerate(combo):
                    kept[i] |= 1 << (d - 1)
        assert sums.narrow_groups(masks, targets, groups) == (kept, hit)


def test_rule_search_propagates_only_where_cells_changed_to_the_same_end() -> None:
    # Each node's reduce runs only the propagators whose cells changed since its parent's
    # reduced state: it must reach what a reduce running every propagator reaches.
    class Checked(_RuleSearch):
        def reduce(self, x: int, d: int) -> tuple[int, int, int, int] | None:
            fresh = _RuleSearch(self.t, 10**6, None, 0.0).use_rules(self.geo)
            full = fresh.reduce(x, d)
            state = super().reduce(x, d)
            assert (state is None) == (full is None)
            assert state is None or full is None or state[0] == full[0]
            return state

    entries = [e for e in PUBLISHED if e["id"] != "sudokutools-24"]
    entries += [e for e in OWN if e["size"] < 16]
    for entry in entries:
        imported = fpuzzles.load(entry.get("load") or entry["fpuzzles"])
        geo = imported.geometry
        search = Checked(_tables(geo.base), 10**6, None, 0.0).use_rules(geo)
        result = search.run(list(imported.givens), None)
        assert result.solution == entry["solution"], entry["id"]
