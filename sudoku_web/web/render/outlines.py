"""Where cage outlines run, cell by cell: shared by the HTML grids (:mod:`.boards`) and the
link-preview pictures (:mod:`.preview`), which must not load the HTML helpers.

The cages are the board's (a killer's, each with its total) and the outlines its rules draw
(:class:`~sudoku_web.core.rules.base.Outline`: a killer cage rule, with or without a total);
a rule's cage that is also one of the board's cages is drawn once.
"""

from __future__ import annotations

from ...core.board import Geometry
from .marks import board_drawing


def cage_marks(geometry: Geometry) -> tuple[tuple[str, int, str], ...]:
    """Per cell: the cage classes (``cage`` and ``kt``/``kr``/``kb``/``kl`` where the cage's
    dashed outline runs: the neighbour across is in another cage or none), the cage's sum
    (0 outside cages and for a cage without one), and that sum where it is drawn, in the
    cage's first cell."""
    n = geometry.size
    groups: list[tuple[tuple[int, ...], str]] = [
        (cage.cells, str(cage.total)) for cage in geometry.cages
    ]
    seen = {frozenset(cells) for cells, _ in groups}
    for outline in board_drawing(geometry).outlines if geometry.rules else ():
        if frozenset(outline.cells) not in seen:
            seen.add(frozenset(outline.cells))
            groups.append((tuple(sorted(outline.cells)), outline.label))
    owner: dict[int, int] = {}
    for index, (cells, _) in enumerate(groups):
        owner.update(dict.fromkeys(cells, index))
    out: list[tuple[str, int, str]] = []
    for cell in range(geometry.cells):
        if cell not in owner:
            out.append(("", 0, ""))
            continue
        k = owner[cell]
        row, col = divmod(cell, n)
        sides = (
            ("kt", row > 0 and owner.get(cell - n) == k),
            ("kr", col < n - 1 and owner.get(cell + 1) == k),
            ("kb", row < n - 1 and owner.get(cell + n) == k),
            ("kl", col > 0 and owner.get(cell - 1) == k),
        )
        classes = " ".join(["cage", *(name for name, joined in sides if not joined)])
        cells, label = groups[k]
        total = int(label) if label.lstrip("-").isdigit() else 0
        out.append((classes, total, label if cell == cells[0] else ""))
    return tuple(out)
