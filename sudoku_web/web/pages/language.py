"""``POST /language``: the language picker every page carries (a plain form, so it works
without JavaScript) keeps the visitor's choice in a cookie and sends them back."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, redirect, request
from werkzeug.wrappers import Response as BaseResponse

from ..runtime.languages import COOKIE, COOKIE_MAX_AGE, LANGUAGES
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
