"""Where a killer's cage outlines run, cell by cell: shared by the HTML grids (:mod:`.boards`)
and the link-preview pictures (:mod:`.preview`), which must not load the HTML helpers."""

from __future__ import annotations

from ...core.board import Geometry


def cage_marks(geometry: Geometry) -> tuple[tuple[str, int, str], ...]:
    """Per cell: the cage classes (``cage`` and ``kt``/``kr``/``kb``/``kl`` where the cage's
    dashed outline runs: the neighbour across is in another cage or none), the cage's sum
    (0 outside cages), and that sum where it is drawn, in the cage's top-left cell."""
    n = geometry.size
    owner: dict[int, int] = {}
    for index, cage in enumerate(geometry.cages):
        owner.update(dict.fromkeys(cage.cells, index))
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
        cage = geometry.cages[k]
        out.append((classes, cage.total, str(cage.total) if cell == cage.cells[0] else ""))
    return tuple(out)
