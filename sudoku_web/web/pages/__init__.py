"""The form and result pages: the puzzle form and its POSTs (typed or photographed), a share
link's result page and its picture, the printable puzzle, new puzzles (``/new``, ``/daily``),
a rules puzzle's page (``/rules``) and the language picker's ``POST /language``. One
blueprint, ``pages``; each module adds its routes to it."""

from . import language, new_puzzle, printout, rules  # noqa: F401  (their routes join the blueprint)
from .routes import bp

__all__ = ["bp"]
