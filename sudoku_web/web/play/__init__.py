"""The play page: a share link's puzzle to solve in the browser, without spoilers. One
blueprint, ``play`` (its JSON lives with the API: :mod:`sudoku_web.web.api.game`)."""

from .routes import bp

__all__ = ["bp"]
