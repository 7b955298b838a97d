"""The documented import path ``sudoku_web.logic``, which is :mod:`sudoku_web.core.logic`.

``from sudoku_web.logic import ...`` keeps working for library users and the manual's examples;
at run time this name *is* the core module (one module object, so monkeypatching and
``isinstance`` checks see one thing), and the star import tells type checkers its names.
"""

import sys as _sys

from sudoku_web.core import logic as _module
from sudoku_web.core.logic import *  # noqa: F403

_sys.modules[__name__] = _module
