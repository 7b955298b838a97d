"""The browser scripts stay in named pieces: no function in static/ longer than
:data:`FUNCTION_LIMIT` lines (a long closure is a package of modules waiting to be named)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "static").rglob("*.js"))
FUNCTION_LIMIT = 80  # lines, from ``function`` to its closing brace

# What the brace counter skips: strings, template literals, comments and regular expressions
# written as /.../ after an operator or bracket.
_SKIP = re.compile(
    r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`|//[^\n]*|/\*.*?\*/"
    r"|(?<=[=(,:!&|?{};])\s*/(?![/*])(?:\\.|[^/\\\n])+/",
    re.DOTALL,
)


def _blank(match: re.Match[str]) -> str:
    """The skipped text with everything but its newlines blanked (lines keep their numbers)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def function_lengths(source: str) -> list[tuple[str, int]]:
    """(name, lines) of every ``function`` in ``source``, nested ones included; a function's
    lines run from its ``function`` keyword to its closing brace (an arrow function counts
    in the function that holds it: the scripts write none at the top level)."""
    code = _SKIP.sub(_blank, source)
    found = []
    for match in re.finditer(r"\bfunction\b\s*(\w*)", code):
        start = code.index("{", match.end())
        depth, at = 0, start
        for at in range(start, len(code)):
            depth += {"{": 1, "}": -1}.get(code[at], 0)
            if depth == 0:
                break
        lines = code.count("\n", match.start(), at) + 1
        found.append((match.group(1) or "(anonymous)", lines))
    return found


def test_the_counter_counts() -> None:
    source = 'function a() {\n  var s = "}";\n  // }\n  return function () { return 1; };\n}\n'
    assert function_lengths(source) == [("a", 5), ("(anonymous)", 1)]


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_longer_than_the_limit(path: Path) -> None:
    long = [
        (n, k) for n, k in function_lengths(path.read_text(encoding="utf-8")) if k > FUNCTION_LIMIT
    ]
    assert not long, f"{path.name}: functions over {FUNCTION_LIMIT} lines: {long}"
