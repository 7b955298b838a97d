"""Shared fixtures: the app, its test client, a live server, and the pages the browser tests
drive (lent by the worker's page pool, tests/page_pool.py)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from app_config import ROOMY
from flask import Flask
from page_pool import PagePool, Tab
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError
from werkzeug.serving import make_server

from sudoku_web import create_app
from sudoku_web.core.solver import prebuild_common_tables
from sudoku_web.web.runtime import cache, speedups

# As the production master does before it forks (hosting/serve.py): the fixed geometries'
# engine tables exist before any request, whose deadline would otherwise pay for them.
prebuild_common_tables()


@pytest.fixture(scope="session")
def _worker_app() -> tuple[Flask, dict[str, Any], dict[str, Any]]:
    """One app per test worker, with its config and extensions as built (see :func:`app`)."""
    built = create_app(ROOMY)
    return built, dict(built.config), dict(built.extensions)


@pytest.fixture
def app(_worker_app: tuple[Flask, dict[str, Any], dict[str, Any]]) -> Iterator[Flask]:
    """The app in testing mode, as fresh as a new one: the worker's app with its config and
    extensions as built and every store of answers empty.

    Building an app registers ~130 URL rules, which Werkzeug compiles one by one, and each new
    app compiles its templates again: a quarter of a second and more a test. So the worker
    keeps one, and each test gets it back as built: a test may change its config or swap an
    extension, and the next test never sees it. A test that needs another config or adds
    routes builds its own with ``create_app``.
    """
    built, config, extensions = _worker_app
    _as_built(built, config, extensions)
    yield built
    _as_built(built, config, extensions)


def _as_built(built: Flask, config: dict[str, Any], extensions: dict[str, Any]) -> None:
    built.config.clear()
    built.config.update(config)
    built.extensions.clear()
    built.extensions.update(extensions)
    for name in (cache.EXTENSION, speedups.LINK_TEMPLATES, speedups.SOLVED_ROWS):
        if (store := built.extensions.get(name)) is not None:
            store.clear()


@pytest.fixture
def client(app: Flask) -> Any:
    """The Flask test client of :func:`app`."""
    return app.test_client()


def _whole_file(file: Any, buffer_size: int = 8192) -> list[bytes]:
    """``wsgi.file_wrapper`` for the test server: a static file read whole and closed at once.

    Werkzeug's development server can leave a response unclosed when the browser cancels a
    request halfway (the favicon during a navigation), and the file handle's ResourceWarning
    then fails an unrelated test (warnings are errors here). gunicorn closes its responses.
    """
    try:
        return [file.read()]
    finally:
        file.close()


def _closing_files(app: Flask) -> Any:
    """``app`` with :func:`_whole_file` as its WSGI file wrapper."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        environ["wsgi.file_wrapper"] = _whole_file
        return app(environ, start_response)

    return wsgi


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """A real HTTP server on a free local port, in a thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, _closing_files(create_app(ROOMY)), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


def pytest_addoption(parser: pytest.Parser) -> None:
    """The browser the browser tests drive: a setting, Debian's Chromium by default."""
    parser.addini(
        "chromium_path",
        "Chromium executable for the browser tests (env SUDOKU_WEB_TEST_CHROMIUM wins)",
        default="/usr/bin/chromium",
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(pytestconfig: pytest.Config) -> dict[str, Any]:
    """Launch the configured Chromium (``chromium_path``; Playwright cannot download its own
    browsers here)."""
    path = os.environ.get("SUDOKU_WEB_TEST_CHROMIUM") or str(pytestconfig.getini("chromium_path"))
    return {
        "executable_path": path,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def _page_pool(browser: Browser) -> Iterator[PagePool]:
    """The worker's pooled contexts and pages (tests/page_pool.py), closed when it ends."""
    pool = PagePool(browser)
    yield pool
    pool.close()


@pytest.fixture
def tab(
    request: pytest.FixtureRequest,
    pytestconfig: pytest.Config,
    browser_context_args: dict[str, Any],
    _page_pool: PagePool,
    output_path: str,
) -> Iterator[Callable[..., Page]]:
    """Opens a page as a new browser context's first page: ``tab(**options)`` takes
    ``browser.new_context``'s options (over the ``browser_context_args`` marker's, as
    pytest-playwright's ``new_context`` does) and returns a page no earlier test left a trace
    in, lent by the worker's page pool (tests/page_pool.py) and given back after the test.
    Each call is another context: two calls are two visitors who share nothing.

    With pytest-playwright's ``--video`` or ``--tracing`` on, each call makes a context of its
    own (a recording belongs to one test). A failed test's pages are screenshotted into its
    output folder, as pytest-playwright does for the contexts it makes.
    """
    marker = next(request.node.iter_markers("browser_context_args"), None)
    defaults = {**browser_context_args, **(marker.kwargs if marker else {})}
    if pytestconfig.getoption("--video") != "off" or pytestconfig.getoption("--tracing") != "off":
        new_context = request.getfixturevalue("new_context")
        yield lambda **options: new_context(**options).new_page()
        return
    lent: list[Tab] = []

    def open_tab(**options: Any) -> Page:
        lent.append(_page_pool.take({**defaults, **options}))
        return lent[-1].page

    yield open_tab
    try:
        _screenshot_on_failure(request, pytestconfig, output_path, [t.page for t in lent])
    finally:
        for lent_tab in lent:
            _page_pool.give_back(lent_tab)


def _screenshot_on_failure(
    request: pytest.FixtureRequest, config: pytest.Config, folder: str, pages: list[Page]
) -> None:
    """What pytest-playwright's ``--screenshot`` asks for, of each of ``pages`` that can
    still show itself."""
    option = config.getoption("--screenshot")
    report = getattr(request.node, "rep_call", None)
    failed = report is None or report.failed
    if option == "on" or (option == "only-on-failure" and failed):
        status = "failed" if failed else "finished"
        for number, shown in enumerate(pages, start=1):
            try:
                shown.screenshot(path=Path(folder) / f"test-{status}-{number}.png", timeout=5_000)
            except PlaywrightError:
                pass  # a page the test closed or crashed shows nothing


@pytest.fixture
def page(tab: Callable[..., Page]) -> Page:
    """pytest-playwright's ``page``, lent by the page pool: :func:`tab` with the options of
    the test's ``browser_context_args`` marker."""
    return tab()


@pytest.fixture
def context(page: Page) -> BrowserContext:
    """The context of :func:`page` (pooled: what a test changes in it is undone after it)."""
    return page.context


#: How much a test weighs when the modules are shared out among the workers: a slow test
#: (seconds), a browser test (a second or so), any other (milliseconds).
_WEIGHTS = {0: 1.0, 1: 0.3, 2: 0.01}


def _rank(item: pytest.Item) -> int:
    return 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each module whole and in its own order (its module-scoped servers start once), in as
    many equal shares as there are workers, each share's modules with slow tests first, then
    those with browser tests, then the rest.

    pytest-xdist's ``worksteal`` hands each worker one contiguous share of the collection,
    and a worker left without tests steals the last half of another's queue. So every share
    starts with long tests (spread among the shares by weight) and ends on short ones (which
    fill the shares to equal counts): the long tests start early on every worker, and the
    suite ends on short ones, the workers busy together. Without workers, one share.
    """
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    modules: dict[Path, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    rank = {path: min(_rank(item) for item in module) for path, module in modules.items()}
    ordered = sorted(modules, key=lambda path: rank[path])
    shares: list[list[Path]] = [[] for _ in range(workers)]
    weight = [0.0] * workers
    count = [0] * workers
    for path in ordered:
        module = modules[path]
        # The long modules go to the lightest share by weight, the short ones by count.
        share = min(
            range(workers),
            key=lambda i: (weight[i], count[i]) if rank[path] < 2 else (count[i], weight[i]),
        )
        shares[share].append(path)
        weight[share] += sum(_WEIGHTS[_rank(item)] for item in module)
        count[share] += len(module)
    items[:] = [item for share in shares for path in share for item in modules[path]]


def pytest_configure(config: pytest.Config) -> None:
    """Keep a screenshot of every open page when a browser test fails, under test-results/.

    This turns pytest-playwright's ``--screenshot`` on by default (an explicit one on the
    command line still wins) and anchors its folder at the repo root; :func:`tab` captures the
    pages it lends, pytest-playwright those of the contexts a test makes with ``new_context``.
    """
    if getattr(config.option, "screenshot", None) == "off":
        config.option.screenshot = "only-on-failure"
    if getattr(config.option, "output", None) == "test-results":
        config.option.output = str(config.rootpath / "test-results")
        _one_folder_per_worker(config)
    # expect()'s 5 s default is short on a 2-core box busy with other work (a navigation
    # after a click once took longer there): waiting longer costs nothing when it passes.
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


def _one_folder_per_worker(config: pytest.Config) -> None:
    """Under pytest-xdist each worker keeps its screenshots in test-results/<worker id>/.

    pytest-playwright empties its output folder when a worker's session starts; with one folder
    per worker no worker empties another's, and the controller empties the whole folder once,
    before any worker starts.
    """
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        config.option.output = str(Path(config.option.output) / workerinput["workerid"])
    elif getattr(config.option, "numprocesses", None):
        shutil.rmtree(config.option.output, ignore_errors=True)
