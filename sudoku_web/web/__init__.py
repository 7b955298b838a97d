"""The web layer: Flask blueprints, forms, templates' helpers, caching and headers.

It parses a request, calls :mod:`sudoku_web.core`, and renders; no Sudoku logic lives here.
"""
