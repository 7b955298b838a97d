"""The manual stays true to the tree: every relative link in ``README.md`` and ``docs/*.md``
leads to a file (and to a heading, when it names one, by GitHub's anchors), every repository
path or module a page names in code exists, the README stays a front door, and no page tells
history by issue number (measurements live in ``benchmarks/RESULTS.md``, history in git)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from prose_rules import MODULE, ROOT, issue_lines, module_exists

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LIMIT = 150  # lines: what it is, a screenshot, the two commands, links

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1", re.M | re.S)
CODE_SPAN = re.compile(r"`([^`]+)`")  # a span may run over a line break
# Files named in code by their path from the top, globs included (a name with a star).
DOC_FILE = re.compile(
    r"(?<![\w/.-])((?:tests|benchmarks|sudoku_web|deploy|docs|static|templates|\.ci)/[\w/.*-]*[\w*])"
)
# Modules run or imported by their dotted name: the package's and the benchmarks'.
BENCHMARK = re.compile(r"(?<![\w.])(benchmarks(?:\.\w+)+)")
# A module of the package named from its sub-package (`core/board.py`, `techniques/aic.py`).
SHORT = re.compile(r"^(?:core|web|photo|hosting|techniques)/[\w/]+\.py$")
SHORT_BASES = ("sudoku_web", "sudoku_web/core")


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the text as shown, lower case, punctuation but ``-``
    and ``_`` dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"[`*]", "", text).strip().lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor on a page; a repeated heading gets ``-1``, ``-2`` ... as on
    GitHub."""
    found: set[str] = set()
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for match in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M):
        base = slug(match.group(1))
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def _code(text: str) -> list[str]:
    """The code a page shows: inline spans and fenced blocks."""
    blocks = [m.group(0) for m in FENCE.finditer(text)]
    return blocks + CODE_SPAN.findall(FENCE.sub("", text))


def test_there_is_a_manual() -> None:
    names = {page.name for page in PAGES}
    for expected in (
        "using.md",
        "variants.md",
        "api.md",
        "cli.md",
        "self-hosting.md",
        "solver.md",
        "development.md",
    ):
        assert expected in names


def test_the_readme_is_a_front_door() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LIMIT
    assert "make run" in text and "make test" in text
    assert "(docs/screenshot.png)" in text


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_link_leads_somewhere(page: Path) -> None:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists() or ROOT not in (dest, *dest.parents):
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{_rel(page)} links to what is not there: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_path_and_module_named_exists(page: Path) -> None:
    missing = []
    for code in _code(page.read_text(encoding="utf-8")):
        for name in DOC_FILE.findall(code):
            if not (any(ROOT.glob(name)) if "*" in name else (ROOT / name).exists()):
                missing.append(name)
        missing += [m for m in MODULE.findall(code) if not module_exists(m)]
        missing += [m for m in BENCHMARK.findall(code) if not module_exists(m)]
        if SHORT.match(code.strip()) and not any(
            (ROOT / base / code.strip()).exists() for base in SHORT_BASES
        ):
            missing.append(code.strip())
    assert not missing, f"{_rel(page)} names what does not exist: {sorted(set(missing))}"


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_pages_name_no_issue_numbers(page: Path) -> None:
    found = issue_lines(page)
    assert not found, f"{_rel(page)} names issues (history lives in git): {found}"


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Reading a photo: `/api/read`", "reading-a-photo-apiread"),
        ("Limits: every request is bounded", "limits-every-request-is-bounded"),
        (
            "Why nginx (or another buffering proxy) must stand in front",
            "why-nginx-or-another-buffering-proxy-must-stand-in-front",
        ),
        ("Killer sudoku: cages", "killer-sudoku-cages"),
        ("The `[test]` extra", "the-test-extra"),
        ("`doctor.sum_fixes`", "doctorsum_fixes"),
    ],
)
def test_anchors_are_githubs(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
