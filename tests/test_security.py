"""Security headers and production config checks, on a tiny Flask app built here."""

from __future__ import annotations

import pytest
from flask import Flask, Response

from sudoku_web import create_app
from sudoku_web.web.runtime import security


def make_app(**config: object) -> Flask:
    """A minimal app wired like create_app will be: defaults, overrides, then init_app."""
    app = Flask(__name__)
    app.config.from_mapping(security.CONFIG_DEFAULTS)
    app.config.from_mapping(config)

    @app.get("/")
    def index() -> str:
        return "<p>hello</p>"

    @app.get("/json")
    def as_json() -> dict[str, int]:
        return {"a": 1}

    @app.get("/own-csp")
    def own_csp() -> Response:
        return Response("x", headers={"Content-Security-Policy": "default-src 'none'"})

    @app.get("/framable")
    def framable() -> Response:
        return security.allow_same_origin_framing(Response("<p>panel</p>"), app)

    security.init_app(app)
    app.after_request(security.header_hook(app))
    return app


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The fallback in is_production reads the process environment; keep tests independent.
    monkeypatch.delenv("SUDOKU_WEB_ENV", raising=False)


@pytest.mark.parametrize("path, status", [("/", 200), ("/json", 200), ("/missing", 404)])
def test_every_response_carries_the_strict_headers(path: str, status: int) -> None:
    response = make_app().test_client().get(path)
    assert response.status_code == status
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_hsts_is_off_unless_configured() -> None:
    assert "Strict-Transport-Security" not in make_app().test_client().get("/").headers
    app = make_app(HSTS_SECONDS=31536000, HSTS_INCLUDE_SUBDOMAINS=True)
    value = app.test_client().get("/").headers["Strict-Transport-Security"]
    assert value == "max-age=31536000; includeSubDomains"


def test_a_view_may_send_its_own_narrower_csp() -> None:
    response = make_app().test_client().get("/own-csp")
    assert response.headers["Content-Security-Policy"] == "default-src 'none'"


def test_only_a_page_that_asks_may_be_framed_and_by_the_site_only() -> None:
    client = make_app().test_client()
    framed = client.get("/framable")
    csp = framed.headers["Content-Security-Policy"]
    assert framed.headers.getlist("Content-Security-Policy") == [csp]
    assert csp.endswith("frame-ancestors 'self'") and csp.count("frame-ancestors") == 1
    # Every other directive of the policy is kept as it was.
    strict = security.DEFAULT_CSP.replace("; frame-ancestors 'none'", "")
    assert csp == f"{strict}; frame-ancestors 'self'"
    assert framed.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert framed.headers["X-Content-Type-Options"] == "nosniff"
    # The rest of the site still refuses any framing.
    other = client.get("/")
    assert "frame-ancestors 'none'" in other.headers["Content-Security-Policy"]
    assert other.headers["X-Frame-Options"] == "DENY"


def test_framing_allowance_follows_a_configured_policy() -> None:
    policy = "default-src 'self'; frame-ancestors https://example.org; img-src 'self'"
    framed = make_app(CONTENT_SECURITY_POLICY=policy).test_client().get("/framable")
    csp = framed.headers["Content-Security-Policy"]
    assert csp == "default-src 'self'; img-src 'self'; frame-ancestors 'self'"


def test_cookie_defaults_are_strict() -> None:
    app = make_app()
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.debug is False


def test_debug_in_production_refuses_to_start() -> None:
    with pytest.raises(RuntimeError, match="debug mode is on but SUDOKU_WEB_ENV=production"):
        make_app(ENV="production", DEBUG=True)


def test_debug_in_production_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_WEB_ENV", "production")
    app = Flask(__name__)
    app.config["DEBUG"] = True
    with pytest.raises(RuntimeError, match="debug"):
        security.init_app(app)
        app.after_request(security.header_hook(app))


def test_testing_in_production_refuses_to_start() -> None:
    with pytest.raises(RuntimeError, match="TESTING"):
        make_app(ENV="production", TESTING=True)


@pytest.mark.parametrize("env", ["development", "", "staging"])
def test_debug_outside_production_is_allowed(env: str) -> None:
    assert make_app(ENV=env, DEBUG=True).debug


def test_missing_secret_key_becomes_random_per_process() -> None:
    first, second = make_app(ENV="production"), make_app(ENV="production")
    assert len(first.config["SECRET_KEY"]) == 64
    assert first.config["SECRET_KEY"] != second.config["SECRET_KEY"]


def test_configured_secret_key_is_kept() -> None:
    assert make_app(SECRET_KEY="from-env").config["SECRET_KEY"] == "from-env"


def test_the_factory_applies_the_security_defaults() -> None:
    app = create_app()
    response = app.test_client().get("/nowhere")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert app.config["REFERRER_POLICY"] == security.CONFIG_DEFAULTS["REFERRER_POLICY"]
