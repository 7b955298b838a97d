"""The rules prose is held to, shared by the checks of docstrings and comments
(``test_prose.py``) and of the manual (``test_docs.py``): no issue numbers (history lives in
git), and what it names exists: files by their path from the top (``deploy/env.example``) and
modules by their dotted name (``sudoku_web.core.cages.link_spelling``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ISSUE = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)

# Files named in prose, by their path from the repository's top.
FILE = re.compile(
    r"(?<![\w/.-])((?:tests|benchmarks|sudoku_web|deploy|docs|static|templates)/[\w/.-]*\w)"
)
# Modules named in prose by their dotted name from the package (a module, or a name in one).
MODULE = re.compile(r"(?<![\w.])(sudoku_web(?:\.\w+)+)")


def _module_file(parts: list[str]) -> Path | None:
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def module_exists(dotted: str) -> bool:
    """``dotted`` is a module, or a name defined in one
    (``sudoku_web.web.runtime.cache.cacheable``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        path = _module_file(parts[:cut])
        if path is not None:
            if cut == len(parts):
                return True
            return re.search(rf"\b{re.escape(parts[cut])}\b", path.read_text("utf-8")) is not None
    return False


def issue_lines(path: Path) -> list[str]:
    """The lines of ``path`` that name an issue number, each with its line number."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{n}: {line.strip()}" for n, line in enumerate(lines, 1) if ISSUE.search(line)]
