"""The built wheel ships the templates and static files the app needs once installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_contains_templates_and_static(tmp_path: Path) -> None:
    # A real, non-editable wheel: an editable install would find the files in the checkout
    # and hide a packaging mistake.
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("sudoku_web-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        f"sudoku_web/{folder}/{path.relative_to(ROOT / folder).as_posix()}"
        for folder in ("templates", "static")
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
    }
    assert {"sudoku_web/templates/base.html", "sudoku_web/static/sudoku.css"} <= expected
    assert expected <= names
    assert "sudoku_web/__init__.py" in names
    # The pool of pre-generated puzzles the web serves rare grades from.
    assert "sudoku_web/data/pool.json" in names
    # The photo reader's digit classifier: its weights ship, nothing is downloaded.
    assert "sudoku_web/photo/digits.npz" in names

    # Installed on its own (outside the checkout), the app finds them and renders a page.
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    probe = (
        "import sudoku_web; "
        "c = sudoku_web.create_app().test_client(); "
        "r = c.get('/'); s = c.get('/static/sudoku.css'); "
        "print(sudoku_web.__file__, r.status_code, s.status_code); s.close()"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    where, page, css = run.stdout.split()
    assert where.startswith(str(site))
    assert (page, css) == ("200", "200")
