"""The rule kinds, each listed once: everything else asks this list.

Adding a kind: its module in this package (a :class:`~.base.Rule` subclass), its tests,
and one line below.
"""

from __future__ import annotations

from ..wording import N_
from .antiking import AntiKing
from .antiknight import AntiKnight
from .arrow import Arrow
from .base import Rule, refused
from .diagonal import MainDiagonal
from .killercage import KillerCage
from .kropki import Kropki
from .littlekiller import LittleKiller
from .negative import Negative
from .nonconsecutive import Nonconsecutive
from .palindrome import Palindrome
from .parity import Parity
from .renban import Renban
from .sandwich import Sandwich
from .thermometer import Thermometer
from .whispers import Whispers
from .xv import XV

KINDS: tuple[type[Rule], ...] = (
    Thermometer,
    Arrow,
    Kropki,
    XV,
    Negative,
    LittleKiller,
    Sandwich,
    KillerCage,
    Whispers,
    Renban,
    Palindrome,
    Parity,
    AntiKnight,
    AntiKing,
    Nonconsecutive,
    MainDiagonal,
)

_BY_KEY = {kind.KEY: kind for kind in KINDS}
_BY_FPUZZLES = {name: kind for kind in KINDS for name in kind.FPUZZLES}
assert len(_BY_KEY) == len(KINDS), "two rule kinds share a KEY"


def find_kind(key: str) -> type[Rule]:
    """The kind whose spelling starts with ``key``; raises :class:`RuleError` naming it."""
    kind = _BY_KEY.get(key)
    if kind is None:
        raise refused(N_("{key} is not a rule sudoku-web knows."), key=repr(key))
    return kind


def fpuzzles_kind(name: str) -> type[Rule] | None:
    """The kind that reads f-puzzles field ``name`` (None: no kind does)."""
    return _BY_FPUZZLES.get(name)
