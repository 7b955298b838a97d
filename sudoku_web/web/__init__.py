"""The web layer: it parses a request, calls :mod:`sudoku_web.core` (every rule of Sudoku,
the game and the hints live there), and renders.

One package per blueprint, each exposing ``bp`` (``create_app`` registers them in one loop):
:mod:`.pages` (the form, result pages, the printable puzzle, new puzzles), :mod:`.teach`
(steps, search, difficulty, the form's hint), :mod:`.play` (the play page) and :mod:`.api`
(every ``/api/*`` route). Blueprints never import each other; what they share lives in
:mod:`.puzzles` (a puzzle in a request: text, forms, share links and URLs, photos, new
puzzles), :mod:`.render` (what pages draw, without Flask) and :mod:`.runtime` (budgets, the
cache, limits, headers, errors, request hooks, speed tricks). tests/test_layers.py holds this
shape; docs/architecture.md describes it.
"""
