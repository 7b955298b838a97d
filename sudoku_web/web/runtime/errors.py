"""Error pages: HTML in the site's style, or JSON for anything under ``/api/``.

One app-wide handler decides by path, because errors such as 404 and 405 happen before any
blueprint is chosen, and an API client must never receive an HTML page.
"""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from ..puzzles.request_path import API_PREFIX, json_error

# What each page tells people, in plain words and in the request's language (lazy strings,
# made text when a request renders them); anything else falls back to Werkzeug's text.
MESSAGES = {
    400: _l("The request could not be understood."),
    404: _l("There is no page at this address. Puzzle links look like /p/ followed by 81 digits."),
    405: _l("This address does not accept that kind of request."),
    413: _l("That was far too much data for a Sudoku puzzle."),
    414: _l("That address is far too long to be a puzzle link. Paste the puzzle into the form."),
    500: _l("Something went wrong on our side. The error has been logged; please try again."),
}

#: The pages' headings for those codes, Werkzeug's names translated (the JSON keeps the English
#: name as its ``error``, a code).
NAMES = {
    400: _l("Bad Request"),
    404: _l("Not Found"),
    405: _l("Method Not Allowed"),
    413: _l("Request Entity Too Large"),
    414: _l("Request URI Too Long"),
    500: _l("Internal Server Error"),
}

API_MESSAGES = {
    404: _l("No such API endpoint; use /api/solve."),
    405: _l("Use GET /api/solve?puzzle=… or POST /api/solve with a JSON body."),
    414: _l("The URL is too long for a puzzle; POST /api/solve with a JSON body instead."),
}


def handle_http_error(exc: HTTPException) -> Response:
    """Render ``exc`` (any HTTP error, including a wrapped unhandled exception)."""
    code = exc.code or 500
    if request.path == API_PREFIX or request.path.startswith(API_PREFIX + "/"):
        own = exc.description if exc.description != type(exc).description else None
        message = own or API_MESSAGES.get(code) or MESSAGES.get(code) or exc.description or ""
        response = json_error(code, exc.name, str(message))
    else:
        # An error raised with its own description (say a malformed body) says that.
        own = exc.description if exc.description != type(exc).description else None
        page = render_template(
            "error.html",
            code=code,
            name=NAMES.get(code) or exc.name,
            message=own or MESSAGES.get(code) or exc.description,
        )
        response = Response(page, status=code, mimetype="text/html")
    # Keep headers the error carries, such as Allow on a 405.
    for key, value in exc.get_headers():
        if key.lower() != "content-type":
            response.headers[key] = value
    return response


def register(app: Flask) -> None:
    """Install the handler for every HTTP error (unhandled exceptions arrive as a 500)."""
    app.register_error_handler(HTTPException, handle_http_error)
