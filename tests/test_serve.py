"""The production entry point: settings from the environment, and a real gunicorn run."""

from __future__ import annotations

import ast
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_web import create_app
from sudoku_web.hosting import serve

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_suit_a_small_vps() -> None:
    settings = serve.settings_from_env({})
    assert settings["bind"] == "127.0.0.1:8000"
    assert settings["workers"] == serve.default_workers()
    assert settings["preload_app"] is True
    assert settings["accesslog"] == "-"
    assert 0 < settings["max_requests_jitter"] < settings["max_requests"]
    assert settings["timeout"] > settings["graceful_timeout"] > 0


def test_gunicorn_limits_sit_above_the_apps_own() -> None:
    # The app answers an over-long URL with its own 414 page (site style, security headers);
    # gunicorn's bare 414 must only catch what is longer still.
    from sudoku_web.web.runtime.limits import CONFIG_DEFAULTS as LIMITS

    settings = serve.settings_from_env({})
    assert settings["limit_request_line"] > LIMITS["MAX_URL_LENGTH"]
    assert 20 <= settings["limit_request_fields"] <= 100
    # A request is bounded far below a second, so a stuck worker is replaced within seconds.
    assert settings["timeout"] <= 10


def test_workers_recycle_rarely_with_proportional_jitter() -> None:
    # max_requests is a leak guard only: worker RSS stays flat once the LRU is full
    # (benchmarks/RESULTS.md, soak run), and a recycled worker starts with an empty LRU, so
    # the 2,000 of old restarted each worker every few seconds under load and halved the
    # cached-page throughput. Keep it far above what recycling-for-caching would tolerate.
    from sudoku_web.web.runtime.cache import CONFIG_DEFAULTS

    settings = serve.settings_from_env({})
    assert settings["max_requests"] == 50_000
    pages = CONFIG_DEFAULTS["CACHE_MAX_BYTES"] // 10_000  # a 9x9 result page is ~10 KB
    assert settings["max_requests"] >= 50 * pages
    assert settings["max_requests"] // 20 <= settings["max_requests_jitter"]
    assert settings["max_requests_jitter"] <= settings["max_requests"] // 5


@pytest.mark.parametrize(
    "cores, workers", [(1, 2), (2, 3), (4, 5), (7, 8), (32, serve.MAX_DEFAULT_WORKERS)]
)
def test_workers_are_cores_plus_one_capped(cores: int, workers: int) -> None:
    assert serve.default_workers(cores) == workers


@pytest.mark.parametrize(
    "var, raw, setting, value",
    [
        ("SUDOKU_WEB_BIND", "0.0.0.0:9000", "bind", "0.0.0.0:9000"),
        ("SUDOKU_WEB_BIND", "unix:/run/sudoku-web.sock", "bind", "unix:/run/sudoku-web.sock"),
        ("SUDOKU_WEB_WORKERS", "5", "workers", 5),
        ("SUDOKU_WEB_THREADS", "4", "threads", 4),
        ("SUDOKU_WEB_THREADS", "4", "worker_connections", 4),
        ("SUDOKU_WEB_THREADS", "0", "threads", 1),
        ("SUDOKU_WEB_TIMEOUT", " 12 ", "timeout", 12),
        ("SUDOKU_WEB_GRACEFUL_TIMEOUT", "3", "graceful_timeout", 3),
        ("SUDOKU_WEB_KEEPALIVE", "0", "keepalive", 0),
        ("SUDOKU_WEB_MAX_REQUESTS", "0", "max_requests", 0),
        ("SUDOKU_WEB_MAX_REQUESTS_JITTER", "7", "max_requests_jitter", 7),
        ("SUDOKU_WEB_PRELOAD", "false", "preload_app", False),
        ("SUDOKU_WEB_PRELOAD", "1", "preload_app", True),
        ("SUDOKU_WEB_ACCESS_LOG", "/var/log/x.log", "accesslog", "/var/log/x.log"),
        ("SUDOKU_WEB_ERROR_LOG", "-", "errorlog", "-"),
        ("SUDOKU_WEB_LOG_LEVEL", "warning", "loglevel", "warning"),
        ("SUDOKU_WEB_FORWARDED_ALLOW_IPS", "10.0.0.1", "forwarded_allow_ips", "10.0.0.1"),
        ("SUDOKU_WEB_LIMIT_REQUEST_LINE", "2048", "limit_request_line", 2048),
        ("SUDOKU_WEB_LIMIT_REQUEST_FIELDS", "30", "limit_request_fields", 30),
        ("SUDOKU_WEB_LIMIT_REQUEST_FIELD_SIZE", "4096", "limit_request_field_size", 4096),
        ("SUDOKU_WEB_CONTROL_SOCKET_DISABLE", "no", "control_socket_disable", False),
    ],
)
def test_environment_overrides_each_setting(
    var: str, raw: str, setting: str, value: object
) -> None:
    assert serve.settings_from_env({var: raw})[setting] == value


def test_empty_variable_keeps_the_default() -> None:
    assert serve.settings_from_env({"SUDOKU_WEB_BIND": " "})["bind"] == "127.0.0.1:8000"


@pytest.mark.parametrize(
    "var, raw",
    [("SUDOKU_WEB_WORKERS", "many"), ("SUDOKU_WEB_TIMEOUT", "-1"), ("SUDOKU_WEB_PRELOAD", "maybe")],
)
def test_bad_values_name_the_variable(var: str, raw: str) -> None:
    with pytest.raises(ValueError, match=var):
        serve.settings_from_env({var: raw})


def test_every_setting_has_a_default_and_a_variable() -> None:
    assert set(serve.DEFAULTS) == set(serve.ENV_VARS)
    assert all(var.startswith("SUDOKU_WEB_") for var, _ in serve.ENV_VARS.values())


def test_gunicorn_conf_exports_every_setting_and_nothing_else() -> None:
    # Parsed, not imported: importing it sets SUDOKU_WEB_ENV in this test process.
    tree = ast.parse((ROOT / "sudoku_web" / "hosting" / "gunicorn_conf.py").read_text())
    names = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and not target.id.startswith("_")
    }
    # the derived settings and the hooks serve sets too, not what only the hooks read
    gunicorns = set(serve.ENV_VARS) - set(serve.HOOK_SETTINGS)
    assert names == gunicorns | set(serve.DERIVED) | set(serve.HOOKS)


def test_the_master_freezes_its_heap_before_forking_workers() -> None:
    import gc

    from gunicorn.config import Config

    app = serve.make_application(serve.settings_from_env({}))
    assert app.cfg.pre_fork is serve.freeze_heap
    assert app.cfg.on_starting is serve.warn_if_exposed
    assert Config().pre_fork is not serve.freeze_heap  # gunicorn's default does nothing
    try:
        serve.freeze_heap()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_a_new_server_draws_its_pages_once_before_the_first_visitor() -> None:
    app = serve.make_application(serve.settings_from_env({}))
    assert app.cfg.post_worker_init is serve.warm_up_worker  # workers without preload
    # Every page of the warm-up puzzle is drawn (a 200 each), so each template and table a
    # page needs is built before a worker takes its first request.
    assert serve.warm_up_app(create_app()) == [200] * len(serve.WARM_UP_PATHS)


def test_gunicorn_accepts_every_setting_name() -> None:
    from gunicorn.config import Config

    cfg = Config()
    for name, value in serve.settings_from_env({}).items():
        if name not in serve.HOOK_SETTINGS:
            cfg.set(name, value)
    assert cfg.bind == ["127.0.0.1:8000"]


def test_print_config_shows_effective_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SUDOKU_WEB_TIMEOUT", "9")
    assert serve.main(["--print-config", "--workers", "4", "--bind", "127.0.0.1:1"]) == 0
    out = capsys.readouterr().out
    assert "timeout = 9" in out and "workers = 4" in out and "bind = '127.0.0.1:1'" in out


def test_bad_environment_exits_2_with_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SUDOKU_WEB_WORKERS", "lots")
    assert serve.main(["--print-config"]) == 2
    assert "SUDOKU_WEB_WORKERS" in capsys.readouterr().err


def test_mark_production_respects_an_explicit_choice() -> None:
    env = {"SUDOKU_WEB_ENV": "development"}
    serve.mark_production(env)
    assert env["SUDOKU_WEB_ENV"] == "development"
    empty: dict[str, str] = {}
    serve.mark_production(empty)
    assert empty["SUDOKU_WEB_ENV"] == "production"


@pytest.mark.parametrize(
    "bind, exposed",
    [
        ("127.0.0.1:8000", False),
        ("127.0.0.2:8000", False),
        ("localhost:8000", False),
        ("[::1]:8000", False),
        ("unix:/run/sudoku-web/gunicorn.sock", False),
        ("fd://3", False),
        ("0.0.0.0:8000", True),
        ("[::]:8000", True),
        (":8000", True),  # gunicorn reads an empty host as every interface
        ("192.0.2.10:8000", True),
        ("tcp://203.0.113.5:80", True),
        ("sudoku.example.org:8000", True),  # a name may resolve anywhere
    ],
)
def test_exposed_addresses_are_those_other_machines_reach(bind: str, exposed: bool) -> None:
    assert serve.exposed_addresses([bind]) == ([bind] if exposed else [])


class _Log:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning(self, message: str, *args: object) -> None:
        self.warnings.append(message % args)


class _Server:
    """The parts of gunicorn's Arbiter that the on_starting hook reads."""

    def __init__(self, binds: list[str], errorlog: str = "-") -> None:
        from types import SimpleNamespace

        self.cfg = SimpleNamespace(bind=binds, errorlog=errorlog)
        self.log = _Log()


def test_serve_warns_loudly_in_its_log_when_bound_beyond_loopback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = _Server(["127.0.0.1:8000", "0.0.0.0:8000"])
    serve.warn_if_exposed(server)
    (warning,) = server.log.warnings
    assert "0.0.0.0:8000" in warning and "127.0.0.1:8000," not in warning
    assert "nginx" in warning and "slowly" in warning and "security headers" in warning
    assert warning.startswith("!" * 20)
    assert capsys.readouterr().err == ""  # errorlog "-" is stderr already: said once


def test_the_warning_reaches_stderr_when_the_log_is_a_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = _Server(["[::]:8000"], errorlog="/var/log/sudoku-web/error.log")
    serve.warn_if_exposed(server)
    assert len(server.log.warnings) == 1
    assert "WARNING: sudoku-web is listening on [::]:8000" in capsys.readouterr().err


def test_no_warning_on_loopback(capsys: pytest.CaptureFixture[str]) -> None:
    server = _Server(["127.0.0.1:8000", "unix:/run/sudoku-web/gunicorn.sock"], errorlog="x")
    serve.warn_if_exposed(server)
    assert server.log.warnings == [] and capsys.readouterr().err == ""


# --- a real gunicorn -------------------------------------------------------------------------

TINY_APP = """
from flask import Flask
from sudoku_web.web.runtime import security

def create_app():
    app = Flask(__name__)
    app.config.from_mapping(security.CONFIG_DEFAULTS)
    app.config.from_prefixed_env("SUDOKU_WEB")
    @app.get("/healthz")
    def healthz():
        return "ok"
    security.init_app(app)
    app.after_request(security.header_hook(app))
    return app
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(tmp_path: Path, port: int, **env: str) -> subprocess.Popen[str]:
    (tmp_path / "tinyapp.py").write_text(TINY_APP)
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SUDOKU_WEB_", "FLASK_"))}
    environ.update(env, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}")
    args = ["--app", "tinyapp:create_app()", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    return subprocess.Popen(
        [sys.executable, "-m", "sudoku_web.hosting.serve", *args],
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _get(port: int, path: str, deadline: float) -> http.client.HTTPResponse:
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            return conn.getresponse()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.slow
def test_serve_runs_gunicorn_in_production_mode(tmp_path: Path) -> None:
    port = _free_port()
    proc = _start(tmp_path, port)
    try:
        response = _get(port, "/healthz", time.monotonic() + 15)
        assert response.status == 200 and response.read() == b"ok"
        assert "default-src 'self'" in response.getheader("Content-Security-Policy", "")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
    assert proc.returncode == 0, out
    assert "GET /healthz" in out  # the access log goes to stdout
    assert "WARNING" not in out  # loopback: nothing to warn about


@pytest.mark.slow
def test_serve_refuses_debug_in_production(tmp_path: Path) -> None:
    proc = _start(tmp_path, _free_port(), SUDOKU_WEB_DEBUG="true")
    try:
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode != 0
    assert "debug mode is on but SUDOKU_WEB_ENV=production" in out


def test_sudoku_web_serve_subcommand_reaches_serve(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_web import cli

    monkeypatch.setenv("SUDOKU_WEB_MAX_REQUESTS", "77")
    assert cli.main(["serve", "--print-config", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "max_requests = 77" in out and "workers = 2" in out
