"""Photos for the web's tests: the test photos' true givens, and a photo the reader doubts."""

from __future__ import annotations

import functools
import io
from pathlib import Path

from PIL import Image

from benchmarks.hostile import photo_files
from sudoku_web.photo import PhotoError, read_photo
from sudoku_web.photo.reading import SURE


def truth(photo: Path) -> str:
    """The printed givens of a test photo (``imageN.dat``: phone, resolution, then 9 rows)."""
    rows = photo.with_suffix(".dat").read_text().split("\n")[2:11]
    return "".join("".join(row.split()) for row in rows)


@functools.cache
def doubtful_photo() -> tuple[bytes, str]:
    """A test photo shrunk and re-compressed until the reader doubts some of its cells (the
    test photos as stored are read with no doubt), as JPEG bytes, with its true givens."""
    for photo in photo_files():
        for width in (360, 300, 260, 220, 200, 180):
            with Image.open(photo) as image:
                small = image.convert("L").resize((width, width * image.height // image.width))
            out = io.BytesIO()
            small.save(out, "JPEG", quality=40)
            try:
                reading = read_photo(out.getvalue())
            except PhotoError:
                continue
            # Doubt from the classifier itself (a cell read with little confidence), not
            # from the proof-reader, whose verdicts have deadlines a loaded box may cut.
            if any(p < SURE for p in reading.confidence):
                return out.getvalue(), truth(photo)
    raise AssertionError("no shrunk test photo left the reader in doubt")
