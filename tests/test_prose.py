"""Prose that stays true: docstrings are contracts of bounded length, code carries no issue
numbers (history lives in git), and every file or module the prose names exists."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from prose_rules import FILE, MODULE, issue_lines, module_exists

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sudoku_web"
# Python whose prose is held to the limits: the package and the benchmarks.
SOURCES = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")])
# Everything that is code: no issue numbers in any of it.
CODE = sorted(
    [
        *SOURCES,
        *(ROOT / "tests").glob("*.py"),
        *(ROOT / "templates").rglob("*.html"),
        *(ROOT / "static").rglob("*.js"),
        *(ROOT / "static").rglob("*.css"),
        *(ROOT / "deploy").glob("*"),
        ROOT / "Makefile",
    ]
)
MODULE_LIMIT = 60  # lines, module docstrings
FUNCTION_LIMIT = 30  # lines, function and class docstrings


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


#: The nodes that can hold a function or class definition: statements, and the ``except`` and
#: ``case`` clauses that hold statements (an expression never does; a lambda is no definition).
_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)


@cache
def _docstrings_of(path: Path) -> tuple[tuple[str, str], ...]:
    """(name, docstring) of the module (named ``module``) and each function and class that
    has one, in the file's order; the file read and parsed once per worker."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    text = ast.get_docstring(tree, clean=False)
    if text:
        found.append(("module", text))
    stack: list[ast.AST] = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append((node.name, text))
        inner = [
            child
            for _field, value in ast.iter_fields(node)
            if isinstance(value, list)
            for child in value
            if isinstance(child, _HOLDERS)
        ]
        stack.extend(reversed(inner))
    return tuple(found)


def _docstrings(path: Path) -> list[tuple[str, int, int]]:
    """(what, lines, limit) for the module's docstring and each function's and class's."""
    return [
        (name, text.count("\n") + 1, MODULE_LIMIT if name == "module" else FUNCTION_LIMIT)
        for name, text in _docstrings_of(path)
    ]


@pytest.mark.parametrize("path", SOURCES, ids=_rel)
def test_docstrings_are_short_enough_to_be_contracts(path: Path) -> None:
    long = [(what, n) for what, n, limit in _docstrings(path) if n >= limit]
    assert not long, f"{_rel(path)}: docstrings over the limit (lines): {long}"


@pytest.mark.parametrize("path", CODE, ids=_rel)
def test_code_names_no_issue_numbers(path: Path) -> None:
    found = issue_lines(path)
    assert not found, f"{_rel(path)} names issues (history lives in git): {found}"


def _prose(path: Path) -> str:
    """The docstrings and comments of a Python file."""
    source = path.read_text(encoding="utf-8")
    parts = [m.group(0) for m in re.finditer(r"#.*$", source, re.M)]
    parts += [text for _name, text in _docstrings_of(path)]
    return "\n".join(parts)


@pytest.mark.parametrize("path", [*SOURCES, *(ROOT / "tests").glob("*.py")], ids=_rel)
def test_files_and_modules_named_in_prose_exist(path: Path) -> None:
    prose = _prose(path)
    missing = [
        name
        for name in sorted(set(FILE.findall(prose)))
        if not (ROOT / name).exists() and not name.endswith("/")
    ]
    missing += [name for name in sorted(set(MODULE.findall(prose))) if not module_exists(name)]
    assert not missing, f"{_rel(path)} names what does not exist: {missing}"
