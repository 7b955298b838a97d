"""``POST /language``: the language picker every page carries (a plain form, so it works
without JavaScript) keeps the visitor's choice in a cookie and sends them back.
``GET /i18n/<code>.json``: the scripts' words in a language (``static/js/i18n.js`` fetches
the one its page's ``<html data-catalog>`` names)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Response, abort, current_app, redirect, request
from werkzeug.wrappers import Response as BaseResponse

from ..runtime import cache
from ..runtime.languages import COOKIE, COOKIE_MAX_AGE, LANGUAGES
from ..runtime.script_words import catalog_json
from .routes import bp


def safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site (``/...``, no scheme, host or ``//``),
    else ``/``: the picker sends the visitor back where they were, never elsewhere."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    if "\\" in target or any(ord(c) < 32 for c in target):
        return "/"  # browsers read "/\\host" as "//host"; control characters have no place
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


@bp.post("/language")
def choose() -> BaseResponse:
    """``POST /language`` (the picker, a plain form): keeps the chosen language in the
    ``lang`` cookie and sends the visitor back to ``next`` (a path on this site). An unknown
    language is a 400, never kept."""
    code = request.form.get("lang", "")
    if code not in LANGUAGES:
        return Response(
            f"Unknown language {code[:20]!r}; choose one of {', '.join(LANGUAGES)}.\n",
            status=400,
            mimetype="text/plain",
        )
    response = redirect(safe_next(request.form.get("next")), code=303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_MAX_AGE,
        path="/",
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/i18n/<code>.json")
def script_words(code: str) -> Response:
    """``GET /i18n/<code>.json``: every string the scripts mark, in language ``code``
    (:func:`~sudoku_web.web.runtime.script_words.catalog_json`); the same for every visitor,
    validated by its content's hash. An unknown language is a 404."""
    if code not in LANGUAGES:
        abort(404)
    body, etag = catalog_json(code, Path(current_app.static_folder or "static"))
    return cache.conditional(
        etag, lambda: Response(body, mimetype="application/json"), max_age=3600
    )
