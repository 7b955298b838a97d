"""The core: Sudoku as data and algorithms, standard library only.

Nothing here imports Flask, WTForms or anything web (tests/test_layers.py holds this); the web
layer (:mod:`sudoku_web.web`) and the command line (:mod:`sudoku_web.cli`) call into it, never
the reverse.
"""
