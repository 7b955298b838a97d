"""The JSON API, every ``/api/*`` route: ``/api/solve``, ``/api/explain`` and ``/api/read``
(:mod:`.routes`), ``/api/check`` and ``/api/hint`` (:mod:`.game`), ``/api/generate``
(:mod:`.generate`). One blueprint, ``api``; each module adds its routes to it."""

from . import game, generate  # noqa: F401  (their routes join the blueprint)
from .routes import bp

__all__ = ["bp"]
