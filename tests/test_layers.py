"""The architecture's rules: arrows point down and never come back. The core imports only the
standard library (never Flask, Werkzeug, WTForms or Pillow); the web layer and the CLI call
into it; and no module imports one that imports it back, lazily inside a function or not."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import sudoku_web
import sudoku_web.core

CORE = sorted(
    f"sudoku_web.core.{info.name}" for info in pkgutil.walk_packages(sudoku_web.core.__path__)
)
# Modules outside the core that must not load the web stack either: the documented import
# paths, the link-preview drawing, the command line and the server settings it loads.
NOT_WEB = [
    "sudoku_web.solver",
    "sudoku_web.board",
    "sudoku_web.logic",
    "sudoku_web.web.render.preview",
    "sudoku_web.cli",
    "sudoku_web.hosting.serve",  # the command line loads it for its serve subcommand
]
WEB = ("flask", "werkzeug", "wtforms", "jinja2", "markupsafe")


def _imported_top_levels(*modules: str) -> set[str]:
    """The top-level names loaded by importing ``modules`` in a fresh interpreter (in this one
    the test fixtures have already imported Flask)."""
    names = ", ".join(modules)
    probe = (
        f"import sys, {names}\nprint(','.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    return set(out.split(","))


@cache
def _imported_together(modules: tuple[str, ...]) -> frozenset[str]:
    """What importing all of ``modules`` in one fresh interpreter loads: what each loads alone
    is part of it (an import only adds to ``sys.modules``), so a name it lacks none of them
    loads. One interpreter for the lot; a module is probed alone only when the lot loads a
    name it must not."""
    return frozenset(_imported_top_levels(*modules))


def _loaded_by(module: str, group: list[str], forbidden: Callable[[str], bool]) -> set[str]:
    """The names importing ``module`` (one of ``group``) loads that ``forbidden`` rejects."""
    if not any(forbidden(name) for name in _imported_together(tuple(group))):
        return set()
    return {name for name in _imported_top_levels(module) if forbidden(name)}


def test_the_core_has_modules() -> None:
    assert {"sudoku_web.core.board", "sudoku_web.core.solver", "sudoku_web.core.logic"} <= set(CORE)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_only_the_standard_library(module: str) -> None:
    outside = _loaded_by(module, CORE, _outside_the_standard_library)
    assert not outside, f"{module} pulls in {sorted(outside)}"


def _outside_the_standard_library(name: str) -> bool:
    return (
        name not in sys.stdlib_module_names
        and name not in {"sudoku_web", "__main__"}
        and not name.startswith("_")
    )


@pytest.mark.parametrize("module", NOT_WEB)
def test_module_imports_nothing_from_the_web(module: str) -> None:
    loaded = _loaded_by(module, NOT_WEB, lambda name: name in WEB)
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


#: The web layer's shared packages; every other package under ``sudoku_web/web`` is a blueprint.
SHARED = {"puzzles", "render", "runtime"}


def _web_package(module: str) -> str | None:
    """The package under ``sudoku_web.web`` that holds ``module`` (None outside the web)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["sudoku_web", "web"] else None


def test_blueprints_never_import_each_other() -> None:
    """What two blueprints share lives in a shared package both import, never in either; and
    the shared packages never import a blueprint."""
    graph = _import_graph()
    packages = {_web_package(name) for name in graph} - {None}
    assert {"pages", "teach", "api", "play"} | SHARED <= packages
    for name, targets in graph.items():
        here = _web_package(name)
        if here is None:
            continue
        for target in targets:
            there = _web_package(target)
            if there is not None and there != here:
                assert there in SHARED, f"{name} imports {target}, of another blueprint"


def _web_modules() -> dict[str, Path]:
    return {name: path for name, path in _package_modules().items() if _web_package(name)}


def test_every_blueprint_is_one_package_exposing_bp() -> None:
    """One way to register a blueprint: each package under web/ but the shared ones makes one
    ``Blueprint`` and exposes it as ``bp`` (create_app registers them in one loop)."""
    import importlib

    from flask import Blueprint

    made: dict[str, list[str]] = {}
    for name, path in _web_modules().items():
        if "Blueprint(" in path.read_text(encoding="utf-8"):
            made.setdefault(str(_web_package(name)), []).append(name)
    assert not made.keys() & SHARED, f"a shared package makes a blueprint: {made}"
    assert all(len(modules) == 1 for modules in made.values()), made
    for package in made:
        module = importlib.import_module(f"sudoku_web.web.{package}")
        assert isinstance(module.bp, Blueprint), package


HOOKS = {"before_request", "after_request", "teardown_request", "before_app_request"}


def test_request_hooks_are_registered_in_one_place() -> None:
    """Only web/runtime/hooks.py registers request hooks, so their order is one list."""
    for name, path in _web_modules().items():
        if name == "sudoku_web.web.runtime.hooks":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in HOOKS:
                raise AssertionError(f"{name} registers a request hook ({node.attr})")


def test_render_draws_without_flask() -> None:
    """What pages draw is tested without an app: web/render imports no Flask or Werkzeug."""
    for name, path in _web_modules().items():
        if _web_package(name) != "render":
            continue
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            assert not any(n.split(".")[0] in {"flask", "werkzeug"} for n in names), name


def _package_modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__.py``)."""
    root = Path(sudoku_web.__file__).parent
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement the module can run: at module level and inside functions and
    classes (lazy imports), but not under ``if TYPE_CHECKING:`` (never run)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


@cache
def _import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, read from the source with ``ast`` (once per
    worker; the tests only read it).

    ``from .x import y`` imports ``x`` (and ``x.y`` when that is a module); ``from . import
    NAME`` of a name that is not a module imports the package itself.
    """
    modules = _package_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                subs = [f"{source}.{alias.name}" for alias in node.names]
                targets = [s for s in subs if s in modules] or [source]
                if len(targets) < len(subs):
                    targets.append(source)  # names too: the module itself runs
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of two or more
    modules (Tarjan's algorithm), each sorted; empty when the graph is acyclic."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for start in sorted(graph):
        if start not in index:
            visit(start)
    return sorted(found)


def test_the_import_graph_is_read_whole() -> None:
    graph = _import_graph()
    assert "sudoku_web.core.board" in graph["sudoku_web.core.solver"]
    # lazy imports count: the command line loads the server only inside its subcommand
    assert "sudoku_web.hosting.serve" in graph["sudoku_web.cli"]


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": {"a"}}
    assert _circles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    """No module imports, even lazily inside a function, one that imports it back."""
    circles = _circles(_import_graph())
    assert not circles, "import circles: " + "; ".join(" <-> ".join(c) for c in circles)
