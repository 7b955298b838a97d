"""Reading a Sudoku from a photo: pure functions over bytes, no web imports.

Public API (stable)::

    from sudoku_web.photo import PhotoError, Reading, check_image, read_photo
    check_image(data)        # ("JPEG", 3024, 4032) from the header alone, or PhotoError
    reading = read_photo(data, deadline_ms=1500)
    reading.puzzle           # 81 characters, "0" for a blank
    reading.uncertain        # cells (0-80) the person should check
    reading.status           # "unique" | "conflict" | "no_solution" | "several" | "unchecked"

PhotoError.code is "not_image", "unsupported", "too_large", "corrupt", "no_grid" or "cut_off".

Modules: ``image`` (bounded decoding), ``grid`` (finding the grid and straightening it),
``lattice`` (following a bent page's curved lines), ``edges`` (a grid running off the
photo), ``glyphs`` (cutting each cell's digit out), ``digits`` (the shipped classifier),
``check`` (the solver as proof-reader), ``reading`` (the pipeline), ``train`` (remakes
``digits.npz``; run at training time only). Only 9x9 grids are read. The classifier was
trained partly on photos from Wicht and Hennebert's Sudoku dataset (CC-BY-4.0); see
``ATTRIBUTION.md`` beside this file.
"""

from sudoku_web.photo.errors import PhotoError
from sudoku_web.photo.image import MAX_PIXELS, check_image
from sudoku_web.photo.reading import Reading, read_photo

__all__ = ["MAX_PIXELS", "PhotoError", "Reading", "check_image", "read_photo"]
