"""Every kind of page the site serves, as the accessibility and HTML checkers visit them.

One list for both checkers (tests/test_accessibility.py drives them in Chromium through axe-core,
tests/test_html_checker.py sends their served HTML to the Nu HTML Checker), so a page kind added
here is checked by both. The hint page is a POST (the form's Hint button): the browser presses
the button, the HTML checker posts the same field.
"""

from __future__ import annotations

from pathlib import Path

from test_rules_drawing import PUZZLES
from test_rules_pages_web import rules_path
from test_steps_drawing import chain_puzzle
from web_puzzles import (
    CONFLICT,
    EASY,
    EASY_TYPO,
    JIGSAW_PUZZLE,
    JIGSAW_REGIONS,
    SIXTEEN_PUZZLE,
    TWO_SOLUTIONS,
)

#: Page kinds whose DOM the site's scripts change (grids made interactive, buttons shown, the
#: grades fetched in, the painter and the pad built): checked again after the scripts run.
#: The others (steps, search, difficulty, print, 404, and the same under a rules link) the
#: scripts leave as served.
SCRIPTED = frozenset(
    {
        "form",
        "jigsaw form",
        "16x16 form",
        "solved",
        "jigsaw solved",
        "impossible",
        "multiple",
        "invalid",
        "hint",
        "play",
        "jigsaw play",
        "killer form",
        "killer solved",
        "killer play",
        "killer sum typo",
        "new",
        "rules",
        "rules form",
        "rules play",
    }
)

#: A killer (the first of tests/data/killer_krazydad.txt): its share link, no givens.
_KILLER = (Path(__file__).parent / "data" / "killer_krazydad.txt").read_text().split()[0]
_CAGE_MAP, _SUMS, _ = _KILLER.split(":")
KILLER_LINK = f"/killer/{_CAGE_MAP}-{_SUMS.replace(',', '-')}"
#: The same killer with its first sum one too many: the sums miss 405, the sum doctor answers.
_FIRST, _REST = _SUMS.split(",", 1)
KILLER_SUM_TYPO = f"/killer/{_CAGE_MAP}-{int(_FIRST) + 1}-{_REST.replace(',', '-')}"

#: A pasted f-puzzles puzzle's page: diagonals, black dots, little-killer clues outside the
#: grid, solved.
RULES_LINK = rules_path(next(p for p in PUZZLES if p["id"] == "sudokutools-07")["fpuzzles"])

#: The form a hint is asked from, and the field the Hint button posts.
HINT_FORM = f"/?p={EASY}"
HINT_POST = {"paste": EASY}


def chain_steps_path() -> str:
    """The steps page of a puzzle whose explanation draws a chain, opened at that step."""
    puzzle, _explanation, number = chain_puzzle()
    return f"/p/{puzzle}/steps?step={number}"


#: Every page kind, in the order :func:`page_kinds` lists them (tests parametrize over these
#: names without building the paths).
NAMES = (
    "form", "jigsaw form", "16x16 form", "solved", "jigsaw solved", "killer form",
    "killer solved", "killer play", "killer sum typo", "impossible", "multiple", "invalid",
    "steps", "chain steps", "16x16 steps", "hint", "difficulty", "search", "play",
    "jigsaw play", "new", "print", "rules", "rules steps", "rules search", "rules difficulty",
    "rules play", "rules form", "404", "rules solved",
)  # fmt: skip


def page_kinds() -> dict[str, str]:
    """Page kind -> path (GET), every kind the issue lists (:data:`NAMES`); ``hint`` is the
    form it posts from."""
    kinds = {
        "form": "/",
        "jigsaw form": "/?v=jigsaw",
        "16x16 form": "/?v=16x16",
        "solved": f"/p/{EASY}",
        "jigsaw solved": f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}",
        "killer form": "/?v=killer",
        "killer solved": KILLER_LINK,
        "killer play": KILLER_LINK + "/play",
        "killer sum typo": KILLER_SUM_TYPO,
        "impossible": f"/p/{EASY_TYPO}",
        "multiple": f"/p/{TWO_SOLUTIONS}",
        "invalid": f"/p/{CONFLICT}",
        "steps": f"/p/{EASY}/steps",
        "chain steps": chain_steps_path(),
        "16x16 steps": f"/p/{SIXTEEN_PUZZLE}/steps",
        "hint": HINT_FORM,
        "difficulty": f"/p/{EASY}/difficulty",
        "search": f"/p/{EASY}/search",
        "play": f"/p/{EASY}/play",
        "jigsaw play": f"/jigsaw/{JIGSAW_REGIONS}/{JIGSAW_PUZZLE}/play",
        "new": "/new",
        "print": f"/print?p={EASY}",
        "rules": RULES_LINK,
        "rules steps": RULES_LINK + "/steps",
        "rules search": RULES_LINK + "/search",
        "rules difficulty": RULES_LINK + "/difficulty",
        "rules play": RULES_LINK + "/play",
        "rules form": "/?rules=kn.th_11121314.kr_w_5565.xv_v_9998.oe_o_55.lk_04_dl_17",
        "404": "/no-such-page",
        "rules solved": rules_link(),
    }
    assert tuple(kinds) == NAMES
    return kinds


def rules_link() -> str:
    """The share link of the first published f-puzzles puzzle (thermometers, arrows,
    anti-king), as the rules page serves it."""
    import json

    from sudoku_web.core.rules import fpuzzles, links

    data = Path(__file__).parent / "data" / "variants_fpuzzles.jsonl"
    imported = fpuzzles.load(json.loads(data.read_text().splitlines()[0])["load"])
    givens = links.givens_part("".join(str(v) for v in imported.givens), 9)
    return f"/rules/{givens}/{links.parts(imported.geometry).rules}"
