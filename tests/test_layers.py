"""The architecture's one rule: arrows point down. The core imports only the standard library
(never Flask, Werkzeug, WTForms or Pillow); the web layer and the CLI call into it."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import sudoku_web.core

CORE = sorted(
    f"sudoku_web.core.{info.name}" for info in pkgutil.walk_packages(sudoku_web.core.__path__)
)
# Modules outside the core that must not load the web stack either: the documented import
# paths, the link-preview drawing and the command line.
NOT_WEB = [
    "sudoku_web.solver",
    "sudoku_web.board",
    "sudoku_web.logic",
    "sudoku_web.web.preview",
    "sudoku_web.cli",
]
WEB = ("flask", "werkzeug", "wtforms", "jinja2", "markupsafe")


def _imported_top_levels(module: str) -> set[str]:
    # A fresh interpreter: in this one the test fixtures have already imported Flask.
    probe = (
        f"import sys, {module}\nprint(','.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    return set(out.split(","))


def test_the_core_has_modules() -> None:
    assert {"sudoku_web.core.board", "sudoku_web.core.solver", "sudoku_web.core.logic"} <= set(CORE)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_only_the_standard_library(module: str) -> None:
    outside = {
        name
        for name in _imported_top_levels(module)
        if name not in sys.stdlib_module_names
        and name not in {"sudoku_web", "__main__"}
        and not name.startswith("_")
    }
    assert not outside, f"{module} pulls in {sorted(outside)}"


@pytest.mark.parametrize("module", NOT_WEB)
def test_module_imports_nothing_from_the_web(module: str) -> None:
    loaded = _imported_top_levels(module) & set(WEB)
    assert not loaded, f"{module} pulls in {sorted(loaded)}"


@pytest.mark.parametrize("name", ["solver", "board", "logic"])
def test_documented_import_paths_are_the_core_modules(name: str) -> None:
    import importlib

    documented = importlib.import_module(f"sudoku_web.{name}")
    assert documented is importlib.import_module(f"sudoku_web.core.{name}")


def test_documented_solve_import_works() -> None:
    from sudoku_web.solver import solve

    puzzle = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    assert solve(puzzle).status == "solved"


def test_blueprints_never_import_each_other() -> None:
    """What two blueprints share lives in a module both import (issue 13), never in either."""
    import ast
    from pathlib import Path

    import sudoku_web.web

    web = Path(sudoku_web.web.__file__).parent
    blueprints = {
        path.stem for path in web.glob("*.py") if "Blueprint(" in path.read_text(encoding="utf-8")
    }
    assert {"pages", "teaching", "api", "play"} <= blueprints
    for name in sorted(blueprints):
        tree = ast.parse((web / f"{name}.py").read_text(encoding="utf-8"))
        imported: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module is None:
                    imported |= {alias.name for alias in node.names}
                else:
                    imported.add(node.module.split(".")[0])
        assert not imported & (blueprints - {name}), f"{name} imports {imported & blueprints}"
