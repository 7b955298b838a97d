"""Strict response headers and production-safe configuration.

Two seams for the app factory (``create_app``)::

    app.config.from_mapping(security.CONFIG_DEFAULTS)   # before from_prefixed_env()
    app.config.from_prefixed_env("SUDOKU_WEB")
    ...                                                  # test mapping
    security.init_app(app)                               # checks the final config

``init_app`` refuses to start a production app in debug mode and fills in a secret key when
none was configured; :func:`header_hook` is the ``after_request`` hook (registered with the
others by :mod:`sudoku_web.web.runtime.hooks`) that puts the security headers on every
response (pages, JSON, static files, errors).

Secret key, decided: the app keeps no server-side state, has no logins and signs nothing a user
relies on, so a missing ``SECRET_KEY`` is replaced by a random per-process key
(``secrets.token_hex(32)``) with a warning instead of refusing to start. Under gunicorn with
``preload`` (the default in :mod:`sudoku_web.hosting.serve`) the key is drawn once in the master, so
all workers share it until the next restart. A fixed literal is never used. Set
``SUDOKU_WEB_SECRET_KEY`` if the app ever grows sessions (flash messages across a redirect,
logins): then a key that changes on restart would log people out (and replace
:class:`NoSessions`, which hands every request Flask's null session).
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable, Mapping
from typing import Any, Final

from flask import Flask, Request, Response
from flask.sessions import SessionInterface, SessionMixin

logger = logging.getLogger(__name__)

# No 'unsafe-inline' anywhere: templates carry no inline script or style. data: images allow
# small inline SVG/PNG icons from CSS; nothing else leaves 'self'.
DEFAULT_CSP: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

# Browser features the site never uses; denying them limits what injected content could do.
DEFAULT_PERMISSIONS_POLICY: Final = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()"
)

#: Config defaults, applied before ``from_prefixed_env`` so the environment can override each.
CONFIG_DEFAULTS: Final[Mapping[str, Any]] = {
    "DEBUG": False,
    # No "ENV" default on purpose: SUDOKU_WEB_ENV reaches config["ENV"] via from_prefixed_env,
    # and is_production() falls back to the process environment when the key is absent.
    "CONTENT_SECURITY_POLICY": DEFAULT_CSP,
    "PERMISSIONS_POLICY": DEFAULT_PERMISSIONS_POLICY,
    "REFERRER_POLICY": "strict-origin-when-cross-origin",
    # Strict-Transport-Security max-age in seconds; 0 = not sent. Only set it when the site is
    # served over TLS (behind nginx + certbot): browsers then refuse plain http for that long.
    "HSTS_SECONDS": 0,
    "HSTS_INCLUDE_SUBDOMAINS": False,
    # The app sets no cookies today; these make any future cookie safe by default.
    "SESSION_COOKIE_SECURE": True,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
}

PRODUCTION: Final = "production"


def is_production(app: Flask) -> bool:
    """True when the app is configured as production (``SUDOKU_WEB_ENV=production``)."""
    # Read the environment too, so a factory that skipped from_prefixed_env is still checked.
    env = app.config.get("ENV") or os.environ.get("SUDOKU_WEB_ENV", "")
    return str(env).strip().lower() == PRODUCTION


def check_config(app: Flask) -> None:
    """Refuses unsafe production settings with a RuntimeError that says what to change."""
    if is_production(app) and app.debug:
        raise RuntimeError(
            "refusing to start: debug mode is on but SUDOKU_WEB_ENV=production. "
            "The debugger lets anyone who can reach the site run code on the server. "
            "Unset FLASK_DEBUG / SUDOKU_WEB_DEBUG (or set them to 0) in production."
        )
    if is_production(app) and app.config.get("TESTING"):
        raise RuntimeError("refusing to start: TESTING is on but SUDOKU_WEB_ENV=production.")


def ensure_secret_key(app: Flask) -> None:
    """Sets a random per-process SECRET_KEY when none is configured (see module docstring)."""
    if app.config.get("SECRET_KEY"):
        return
    app.config["SECRET_KEY"] = secrets.token_hex(32)
    if is_production(app):
        logger.warning(
            "SUDOKU_WEB_SECRET_KEY is not set; using a random per-process key. "
            "Fine while the app keeps no sessions; set one if that changes."
        )


def security_headers(app: Flask) -> dict[str, str]:
    """The headers every response carries, computed once from the app's config."""
    headers = {
        "Content-Security-Policy": str(app.config["CONTENT_SECURITY_POLICY"]),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": str(app.config["REFERRER_POLICY"]),
        "Permissions-Policy": str(app.config["PERMISSIONS_POLICY"]),
        # frame-ancestors supersedes this in modern browsers; older ones only know this one.
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
    }
    hsts = int(app.config.get("HSTS_SECONDS") or 0)
    if hsts > 0:
        value = f"max-age={hsts}"
        if app.config.get("HSTS_INCLUDE_SUBDOMAINS"):
            value += "; includeSubDomains"
        headers["Strict-Transport-Security"] = value
    return headers


def allow_same_origin_framing(response: Response, app: Flask) -> Response:
    """Lets the site's own pages frame ``response`` (``frame-ancestors 'self'``, SAMEORIGIN).

    For the one page made to be embedded: a result page shows the difficulty panel in an
    ``<iframe>`` when JavaScript is off. Everything else keeps ``frame-ancestors 'none'``.
    """
    policy = str(app.config["CONTENT_SECURITY_POLICY"])
    directives = [d.strip() for d in policy.split(";") if d.strip()]
    kept = [d for d in directives if not d.startswith("frame-ancestors")]
    response.headers["Content-Security-Policy"] = "; ".join([*kept, "frame-ancestors 'self'"])
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    return response


def init_app(app: Flask) -> None:
    """Checks the config, fills in a secret key and turns sessions off.

    ``create_app`` calls it once the defaults, the environment and any test mapping are
    applied, so the checks see the final config. Raises RuntimeError on unsafe production
    settings.
    """
    check_config(app)
    ensure_secret_key(app)
    app.session_interface = NoSessions()
    app.extensions["sudoku_security"] = security_headers(app)


def header_hook(app: Flask) -> Callable[[Response], Response]:
    """The ``after_request`` hook putting the security headers on every response
    (registered by :mod:`sudoku_web.web.runtime.hooks`, after :func:`init_app`)."""
    headers: Mapping[str, str] = app.extensions["sudoku_security"]
    lowered = [(name.lower(), name, value) for name, value in headers.items()]

    def add_security_headers(response: Response) -> Response:
        # A view with a real need (none today) may send a narrower header itself, so only
        # missing ones are added. One pass over the few existing headers instead of a
        # setdefault search per header: this runs on every response (~0.1 ms -> ~0.03 ms).
        present = {key.lower() for key in response.headers.keys()}
        for key, name, value in lowered:
            if key not in present:
                response.headers.add(name, value)
        return response

    return add_security_headers


class NoSessions(SessionInterface):
    """The app keeps no sessions (see "Secret key, decided" above): every request gets
    Flask's null session, which refuses writes with a clear error, and nothing is signed or
    set. Flask's default cookie sessions built a signing serializer on every request (a
    sixth of a cached page's CPU time) to find no cookie."""

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        return self.make_null_session(app)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        return None
