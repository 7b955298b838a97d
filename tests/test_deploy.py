"""The shipped deploy/ files are valid: ``nginx -t`` on the site, ``systemd-analyze verify``.

Each tool is used when it is on PATH (``make test`` installs nginx-light and systemd) and the
test is skipped with the reason otherwise. Absolute paths in the files are pointed at tmp_path
so neither check needs root or writes outside the test's directory.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
SITE = DEPLOY / "nginx-sudoku-web.conf"
UNIT = DEPLOY / "sudoku-web.service"
ENV_EXAMPLE = DEPLOY / "env.example"

CACHE_DIR = "/var/cache/nginx/sudoku-web"
STATIC_DIR = "/opt/sudoku-web/venv/lib/python3.11/site-packages/sudoku_web/static/"
CERT_DIR = "/etc/letsencrypt/live/sudoku.example.org/"


def _nginx_conf(tmp_path: Path, *, tls: bool) -> Path:
    """The site file, paths moved into tmp_path, wrapped in a minimal nginx.conf."""
    site = SITE.read_text()
    for path in (CACHE_DIR, STATIC_DIR, CERT_DIR):
        assert path in site, f"{path} no longer in {SITE.name}; update this test"
    (tmp_path / "static").mkdir()
    site = site.replace(CACHE_DIR, str(tmp_path / "cache"))
    site = site.replace(STATIC_DIR, f"{tmp_path / 'static'}/")
    if tls:
        _self_signed(tmp_path)
        site = site.replace(CERT_DIR, f"{tmp_path}/")
        site = site.replace("#tls ", "")
    # Unprivileged ports so the check does not need root.
    site = site.replace("listen 80;", "listen 127.0.0.1:18080;").replace("listen [::]:80;", "")
    site = site.replace("listen 443 ssl http2;", "listen 127.0.0.1:18443 ssl http2;")
    site = site.replace("listen [::]:443 ssl http2;", "")
    for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / f"{name}_temp").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/client_body_temp;
    proxy_temp_path {tmp_path}/proxy_temp;
    fastcgi_temp_path {tmp_path}/fastcgi_temp;
    uwsgi_temp_path {tmp_path}/uwsgi_temp;
    scgi_temp_path {tmp_path}/scgi_temp;
{site}
}}
"""
    )
    return conf


def _self_signed(tmp_path: Path) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not on PATH; cannot make a test certificate")
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=sudoku.example.org",
         "-keyout", str(tmp_path / "privkey.pem"), "-out", str(tmp_path / "fullchain.pem")],
        check=True, capture_output=True,
    )  # fmt: skip


@pytest.mark.parametrize("tls", [False, True], ids=["http", "tls"])
def test_nginx_accepts_the_site(tmp_path: Path, tls: bool) -> None:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None
    )
    if nginx is None:
        pytest.skip("nginx is not installed (make test installs nginx-light)")
    conf = _nginx_conf(tmp_path, tls=tls)
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(conf)],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr
    assert "[emerg]" not in result.stderr


def test_nginx_body_limit_matches_the_app() -> None:
    match = re.search(r"client_max_body_size (\d+)k;", SITE.read_text())
    assert match and int(match.group(1)) * 1024 == 16 * 1024  # create_app's MAX_CONTENT_LENGTH


def test_only_the_photo_readers_take_big_bodies() -> None:
    # Every location keeps the server's 16 KiB but the two photo readers, which take the app's
    # PHOTO_MAX_CONTENT_LENGTH (8 MiB) and answer an API client's 413 in JSON.
    from sudoku_web.web.runtime.limits import CONFIG_DEFAULTS as LIMITS

    site = SITE.read_text()
    blocks = re.findall(r"location (= )?(\S+) \{(.*?)\n    \}", site, re.DOTALL)
    sizes = {path: re.findall(r"client_max_body_size (\w+);", body) for _, path, body in blocks}
    assert sizes.pop("/read") == sizes.pop("/api/read") == ["8m"]
    assert LIMITS["PHOTO_MAX_CONTENT_LENGTH"] == 8 * 1024 * 1024
    assert not any(sizes.values()), sizes  # the rest inherit the server's 16k
    api = next(body for _, path, body in blocks if path == "/api/read")
    assert "error_page 413 = @photo_too_large;" in api
    assert json.loads(re.search(r"return 413 '(.*)';", site).group(1))["code"] == 413  # type: ignore[union-attr]


def test_site_caches_pages_and_rate_limits() -> None:
    site = SITE.read_text()
    assert "limit_conn sudoku_web_conn" in site
    assert "proxy_cache sudoku_web_pages;" in site
    assert "proxy_cache_revalidate on;" in site
    assert site.count("limit_req zone=sudoku_web_req") >= 2
    assert "127.0.0.1:8000" in site  # same as serve.DEFAULTS["bind"]


def test_site_reads_requests_whole_before_a_worker_sees_them() -> None:
    # gunicorn's workers must never wait on a client: nginx buffers the request and
    # bounds how long a client may take to send it.
    site = SITE.read_text()
    assert "proxy_request_buffering on;" in site
    assert "proxy_buffering on;" in site
    for directive in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        match = re.search(rf"^\s*{directive} (\d+)s;", site, re.MULTILINE)
        assert match and int(match.group(1)) <= 30, directive


def _unit_for_verify(tmp_path: Path) -> Path:
    """The unit with ExecStart pointed at this Python, which verify requires to exist."""
    text = UNIT.read_text()
    assert "/opt/sudoku-web/venv/bin/python" in text
    unit = tmp_path / UNIT.name
    unit.write_text(text.replace("/opt/sudoku-web/venv/bin/python", sys.executable))
    return unit


def test_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (make test installs systemd)")
    unit = _unit_for_verify(tmp_path)
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )
    # Only complaints about this unit count; a container without systemd as PID 1 prints
    # unrelated noise about the host's own units.
    ours = [line for line in result.stderr.splitlines() if UNIT.name in line]
    assert not ours, result.stderr
    assert result.returncode == 0, result.stderr


def test_unit_is_hardened_and_bounded() -> None:
    unit = UNIT.read_text()
    for line in (
        "User=sudoku-web",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
        "Restart=on-failure",
        "EnvironmentFile=-/etc/sudoku-web/env",
        "SUDOKU_WEB_ENV=production",
    ):
        assert line in unit
    memory_max = re.search(r"^MemoryMax=(\d+)M$", unit, re.MULTILINE)
    assert memory_max and int(memory_max.group(1)) <= 384  # leaves room on a 512 MB box


def test_env_example_documents_every_serve_variable() -> None:
    from sudoku_web.hosting.serve import ENV_VARS

    text = ENV_EXAMPLE.read_text()
    for var, _ in ENV_VARS.values():
        assert var in text, var


# --- the site in action: nginx in front of gunicorn, both on loopback ------------------------

PROXIED_APP = """
from flask import Flask, Response, request
from sudoku_web.web.runtime import cache, security

def create_app():
    app = Flask(__name__)
    app.config.from_mapping({**security.CONFIG_DEFAULTS, **cache.CONFIG_DEFAULTS})
    cache.init_app(app)

    @app.get("/healthz")
    def healthz():
        return "ok"

    @app.get("/p/<puzzle>")
    def page(puzzle):
        return cache.conditional(
            cache.etag_for("page", puzzle), lambda: Response("<p>" + puzzle * 400 + "</p>")
        )

    @app.route("/", methods=["GET", "POST"])
    def index():
        return "index"

    @app.post("/read")
    @app.post("/api/read")
    def read():  # the photo readers' body limit, as sudoku_web.web.runtime.limits raises it
        request.max_content_length = 8 * 1024 * 1024
        return str(len(request.get_data()))

    security.init_app(app)
    app.after_request(security.header_hook(app))
    return app
"""


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(port: int, deadline: float) -> None:
    import socket
    import time

    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.fixture(scope="module")
def proxied_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """nginx with the shipped site in front of gunicorn serving a small cached app, started
    once for the tests that leave it as they found it (each asks its own paths: /p/123 is
    cached by one test alone)."""
    yield from _proxied_site(tmp_path_factory.mktemp("site"))


@pytest.fixture
def own_proxied_site(tmp_path: Path) -> Iterator[int]:
    """The same site for one test alone (one that uses up the page routes' request rate)."""
    yield from _proxied_site(tmp_path)


def _proxied_site(tmp_path: Path) -> Iterator[int]:
    import os
    import time

    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        pytest.skip("nginx is not installed (make test installs nginx-light)")
    if os.geteuid() != 0:
        pytest.skip("nginx's worker user switch needs root here; run as root (as CI does)")
    app_port, site_port = _free_port(), _free_port()
    conf = _nginx_conf(tmp_path, tls=False)
    text = conf.read_text()
    text = text.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}")
    text = text.replace("listen 127.0.0.1:18080;", f"listen 127.0.0.1:{site_port};")
    # The pytest tmp dir is root's 0700; let the workers run as root too in this sandbox.
    conf.write_text("user root;\ndaemon off;\n" + text)
    (tmp_path / "static" / "site.css").write_text("body { color: black; }\n")
    (tmp_path / "proxiedapp.py").write_text(PROXIED_APP)
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUDOKU_WEB_", "FLASK_"))}
    env.update(PYTHONPATH=f"{tmp_path}{os.pathsep}{root}", SUDOKU_WEB_ACCESS_LOG="/dev/null")
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "sudoku_web.hosting.serve", "--app", "proxiedapp:create_app()",
         "--bind", f"127.0.0.1:{app_port}", "--workers", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    server = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(conf)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        _wait_for(app_port, deadline)
        _wait_for(site_port, deadline)
        yield site_port
    finally:
        server.terminate()
        gunicorn.terminate()
        server.wait(timeout=15)
        gunicorn.wait(timeout=15)


#: A probe's socket timeout: below gunicorn's worker timeout (serve.DEFAULTS, 10 s), so a
#: probe that waits for a worker a slow client holds fails instead of being answered once
#: that worker is killed. A hang guard, not a speed bound (speed is benchmarks/loadtest.py's).
PROBE_TIMEOUT_S = 8.0


def _request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    timeout: float = 10,
    **headers: str,
) -> tuple[int, dict[str, str], bytes]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request(
        method, path, body=body, headers={k.replace("_", "-"): v for k, v in headers.items()}
    )
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


@pytest.mark.slow
def test_site_caches_p_pages_from_the_apps_cache_control(proxied_site: int) -> None:
    status, headers, _ = _request(proxied_site, "GET", "/p/123")
    assert status == 200 and headers["x-cache-status"] == "MISS"
    assert "default-src 'self'" in headers["content-security-policy"]  # the app's headers pass
    status, headers, _ = _request(proxied_site, "GET", "/p/123")
    assert status == 200 and headers["x-cache-status"] == "HIT"
    status, _, _ = _request(proxied_site, "GET", "/p/123", If_None_Match=headers["etag"])
    assert status == 304


@pytest.mark.slow
def test_site_serves_static_files_itself_and_gzips(proxied_site: int) -> None:
    status, headers, data = _request(proxied_site, "GET", "/static/site.css")
    assert status == 200 and data == b"body { color: black; }\n"
    assert headers["x-content-type-options"] == "nosniff"
    status, headers, _ = _request(proxied_site, "GET", "/p/456", Accept_Encoding="gzip")
    assert status == 200 and headers.get("content-encoding") == "gzip"


@pytest.mark.slow
def test_slow_clients_hold_nginx_not_the_worker(proxied_site: int) -> None:
    # The site runs one gunicorn worker. Clients that send half a request line and then
    # stall would each hold a worker facing them directly; behind nginx the worker
    # stays free and answers while they are all still stalled (held, the probe would wait
    # for gunicorn's worker timeout, past the probe's own: it would fail, not pass late).
    import socket

    stalled = []
    try:
        for _ in range(10):
            sock = socket.create_connection(("127.0.0.1", proxied_site), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            stalled.append(sock)
        from sudoku_web.hosting.serve import DEFAULTS

        assert PROBE_TIMEOUT_S < DEFAULTS["timeout"]
        status, _, data = _request(proxied_site, "GET", "/healthz", timeout=PROBE_TIMEOUT_S)
        assert status == 200 and data == b"ok"
    finally:
        for sock in stalled:
            sock.close()


@pytest.mark.slow
def test_fifty_clients_trickling_headers_do_not_stop_healthz(proxied_site: int) -> None:
    # Slowloris: 50 clients each send their request headers one byte at a time. Straight at
    # gunicorn's workers that stops the site; behind nginx every probe still answers.
    import socket
    import threading
    import time

    request = b"GET /p/123 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\nX-Pad: " + b"a" * 200
    stop = threading.Event()
    sent = [0] * 50

    def trickle(index: int) -> None:
        try:
            with socket.create_connection(("127.0.0.1", proxied_site), timeout=5) as sock:
                for byte in request:
                    if stop.is_set():
                        return
                    sock.sendall(bytes([byte]))
                    sent[index] += 1
                    time.sleep(0.05)
        except OSError:
            pass  # nginx may close a connection it finds too slow: that is its job

    clients = [threading.Thread(target=trickle, args=(i,), daemon=True) for i in range(50)]
    for client in clients:
        client.start()
    try:
        # Every client connected and trickling before the probes (a second at the most).
        started = time.monotonic()
        while not all(sent) and time.monotonic() - started < 1.0:
            time.sleep(0.05)
        probes = []
        for _ in range(12):
            status, _, data = _request(proxied_site, "GET", "/healthz", timeout=PROBE_TIMEOUT_S)
            probes.append((status, data))
            time.sleep(0.25)
        assert sum(1 for n in sent if n > 10) >= 45  # the slow clients really were there
        assert all(status == 200 and data == b"ok" for status, data in probes), probes
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=5)


@pytest.mark.slow
def test_site_refuses_big_bodies_and_floods(own_proxied_site: int) -> None:
    status, _, _ = _request(own_proxied_site, "POST", "/", body=b"x" * (17 * 1024))
    assert status == 413
    # 10 r/s with a burst of 30: back-to-back requests on loopback hit the limit quickly.
    statuses = []
    for _ in range(300):
        statuses.append(_request(own_proxied_site, "GET", "/")[0])
        if statuses[-1] == 429:
            break
    assert statuses[0] == 200 and statuses[-1] == 429
    assert len(statuses) > 30  # the burst was allowed through


@pytest.mark.slow
def test_site_passes_photos_to_the_readers_only(proxied_site: int) -> None:
    photo = b"\xff" * (5 * 1024 * 1024)
    for path in ("/read", "/api/read"):
        status, _, data = _request(proxied_site, "POST", path, body=photo)
        assert status == 200 and int(data) == len(photo), path
    status, headers, data = _request(proxied_site, "POST", "/api/read", body=b"x" * (9 << 20))
    assert status == 413 and headers["content-type"] == "application/json"
    assert json.loads(data)["reason"] == "upload_too_large"
    assert _request(proxied_site, "POST", "/", body=photo)[0] == 413
