"""The architecture's one rule: the core never imports the web (Flask, Werkzeug, WTForms)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE = [
    "sudoku_web.board",
    "sudoku_web.solver",
    "sudoku_web.logic",
    "sudoku_web.techniques",
    "sudoku_web.trace",
    "sudoku_web.doctor",
    "sudoku_web.preview",
    "sudoku_web.cli",
]
WEB = ("flask", "werkzeug", "wtforms", "jinja2")


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_nothing_from_the_web(module: str) -> None:
    # A fresh interpreter: in this one the test fixtures have already imported Flask.
    probe = (
        f"import sys, {module}\n"
        f"print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {WEB!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"{module} pulls in {out}"
