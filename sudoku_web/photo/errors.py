"""The one error a photo reading raises: a ValueError with a machine-readable ``code``."""

from __future__ import annotations

from typing import Literal

from sudoku_web.core.wording import N_, Words, words

PhotoErrorCode = Literal["not_image", "unsupported", "too_large", "corrupt", "no_grid", "cut_off"]

NO_GRID_MESSAGE = words(N_("No Sudoku grid found in this photo: try a straighter, closer shot."))


class PhotoError(ValueError):
    """Why a photo could not be read; ``code`` says which kind, the message says it to a person.

    not_image
        The bytes are not a picture Pillow recognises (text, random bytes, an empty file).
    unsupported
        A picture in a format other than JPEG, PNG or WebP (GIF, BMP, TIFF ...).
    too_large
        The header declares more pixels than the cap: refused before decoding.
    corrupt
        A supported format whose data breaks off or does not decode.
    no_grid
        The picture decoded, but no Sudoku grid was found in it.
    cut_off
        A grid was found, but the photo's edge cuts off a whole row or column of it.
    """

    def __init__(self, code: PhotoErrorCode, message: Words) -> None:
        super().__init__(str(message))
        self.code: PhotoErrorCode = code
        self.said = message  # the web layer says it in the visitor's language
        self.message = str(message)  # in English
