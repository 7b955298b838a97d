"""sudoku-web: a fast, trustworthy Sudoku solver for the browser.

``create_app()`` is the application factory: ``flask --app sudoku_web run`` and
``gunicorn 'sudoku_web:create_app()'`` both find it (``sudoku-web serve`` runs the latter).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask, Response

# Flask and the web modules are imported inside create_app(), not here: `import
# sudoku_web.core.solver` (the CLI, library users, benchmarks) must not pull in the web stack
# (tests/test_layers.py holds this).

#: The environment prefix docs/self-hosting.md documents (``SUDOKU_WEB_SOLVE_DEADLINE_MS=200``);
#: Flask's own ``FLASK_`` prefix works too, and ``SUDOKU_WEB_`` wins when both name a key.
ENV_PREFIX = "SUDOKU_WEB"


def defaults() -> dict[str, Any]:
    """Every default of the app's configuration, from the modules that read each key.

    :func:`create_app` applies this once, before the environment; every key can be overridden
    as SUDOKU_WEB_<KEY> or FLASK_<KEY> (values are parsed as JSON, so
    SUDOKU_WEB_SOLVE_DEADLINE_MS=500 is a number). The modules read ``app.config`` directly.
    """
    from .web.runtime import budgets, cache, explanations, limits, security, speedups

    return {
        # A puzzle is a few hundred bytes even pretty-printed; nothing legitimate comes near.
        "MAX_CONTENT_LENGTH": 16 * 1024,
        **security.CONFIG_DEFAULTS,
        **cache.CONFIG_DEFAULTS,
        **limits.CONFIG_DEFAULTS,
        **speedups.CONFIG_DEFAULTS,
        **budgets.CONFIG_DEFAULTS,  # the budgets of one request's work
        **explanations.CONFIG_DEFAULTS,
    }


_HERE = Path(__file__).resolve().parent


def _resource_dir(name: str) -> str:
    """``templates``/``static`` inside the installed package, else at the top of a checkout.

    The wheel force-includes the repo's top-level folders as ``sudoku_web/<name>``; a source
    checkout (editable install, tests) has them beside the package instead.
    """
    inside = _HERE / name
    return str(inside if inside.is_dir() else _HERE.parent / name)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``FLASK_*`` and ``SUDOKU_WEB_*`` environment variables,
    then ``config`` (tests).

    Raises RuntimeError when the final config is unsafe for production (debug or testing with
    ``SUDOKU_WEB_ENV=production``), so a misconfigured server never starts.
    """
    from flask import Flask

    app = Flask(
        __name__,
        template_folder=_resource_dir("templates"),
        static_folder=_resource_dir("static"),
    )
    # Werkzeug answers "/p//play" (or "/p/%2F/play") with a redirect to the path with the
    # slashes merged: an absolute Location to another route ("/p/play"), which is not what
    # the link asked for. Such a link names no puzzle, so it is a 404 like any other.
    app.url_map.merge_slashes = False
    app.config.from_mapping(defaults())
    app.config.from_prefixed_env()
    app.config.from_prefixed_env(ENV_PREFIX)
    if config is not None:
        app.config.from_mapping(config)
    # JSON answers keep the documented field order ("status" first) instead of sorting keys.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    # Imported here, as in Flask's tutorial, so importing the package stays cheap and the
    # blueprints always see a fully configured app.
    from .web import api, pages, play, teach
    from .web.puzzles import core_names, photo_upload
    from .web.runtime import cache, errors, hooks, languages, limits, security, speedups

    # Each package under web/ that serves requests is one blueprint, exposed as ``bp``.
    for package in (pages, teach, play, api):
        app.register_blueprint(package.bp)
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET"])
    app.add_url_rule("/favicon.ico", "favicon", favicon, methods=["GET"])
    languages.init_app(app)  # Flask-Babel: the visitor's language, its catalogs
    core_names.init_app(app)  # the core's names translated in templates
    errors.register(app)
    security.init_app(app)  # refuses an unsafe production config
    cache.init_app(app)
    speedups.init_app(app)
    limits.init_app(app)
    photo_upload.init_app(app)  # the photo readers' slots, shared by the workers forked later
    hooks.init_app(app)  # last: every request hook, in its order (web/runtime/hooks.py)
    return app


def favicon() -> Response:
    """``GET /favicon.ico``: the site's icon for clients that ask for it by that name (the
    pages name ``static/favicon.svg``); an SVG, which browsers take at this address too."""
    from flask import Response, current_app

    folder = current_app.static_folder or _resource_dir("static")
    response = Response(Path(folder, "favicon.svg").read_bytes(), mimetype="image/svg+xml")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


def healthz() -> Response:
    """``GET /healthz``: 200 ``ok`` while the worker can answer (systemd, nginx, load tests).

    Deliberately trivial (no solve, no template): it says the process is up and routing, and
    serves as the load test's baseline route. ``no-store``, so no cache ever answers for it.
    """
    from flask import Response

    from .web.runtime.cache import no_store

    return no_store(Response("ok\n", mimetype="text/plain"))
