"""From uploaded bytes to a small grayscale picture, bounded before any pixel is decoded.

``check_image`` reads the header only (Pillow's ``Image.open`` is lazy): it names the format
and the declared size, and refuses anything but JPEG, PNG and WebP, and any declared pixel
count over the cap, so a tiny file that declares 30000x30000 pixels never reaches a decoder.
``load_gray`` then decodes: JPEG through the decoder's own reduced-scale mode (``draft``),
so even a 50-megapixel photo costs a few megabytes; PNG and WebP have no such mode and decode
in full, hence their lower cap. The EXIF orientation tag is honoured here; a stale tag is
caught later, when the digits show which way up the grid stands.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from sudoku_web.core.wording import N_, words
from sudoku_web.photo.errors import PhotoError

FORMATS = ("JPEG", "PNG", "WEBP")
# Declared pixels allowed: JPEG decodes at 1/2..1/8 scale, so its cap is a phone's biggest
# photo; PNG and WebP decode in full (up to 4 bytes a pixel), so theirs bounds memory.
MAX_PIXELS = 50_000_000
MAX_FULL_DECODE_PIXELS = 16_000_000
# The longest side the grid search works on: enough for a grid that fills a third of it.
WORK_SIDE = 1024


def check_image(data: bytes, *, max_pixels: int = MAX_PIXELS) -> tuple[str, int, int]:
    """Return (format, width, height) from the header alone; raise PhotoError if refused."""
    image = _open(data)
    try:
        fmt = image.format or ""
        width, height = image.size
    finally:
        image.close()
    if fmt not in FORMATS:
        said = (
            words(N_("A {format} file cannot be read: send a JPEG, PNG or WebP photo."), format=fmt)
            if fmt
            else words(N_("A picture of this file cannot be read: send a JPEG, PNG or WebP photo."))
        )
        raise PhotoError("unsupported", said)
    cap = max_pixels if fmt == "JPEG" else min(max_pixels, MAX_FULL_DECODE_PIXELS)
    if width < 1 or height < 1 or width * height > cap:
        size = {"width": width, "height": height, "megapixels": cap // 1_000_000}
        raise PhotoError(
            "too_large",
            words(
                N_(
                    "The picture declares {width}x{height} pixels; at most {megapixels}"
                    " megapixels are read."
                ),
                **size,
            )
            if fmt == "JPEG"
            else words(
                N_(
                    "The picture declares {width}x{height} pixels; at most {megapixels}"
                    " megapixels are read from a {format} file."
                ),
                format=fmt,
                **size,
            ),
        )
    return fmt, width, height


def load_gray(data: bytes, *, max_pixels: int = MAX_PIXELS, side: int = WORK_SIDE) -> np.ndarray:
    """Decode to a uint8 grayscale array, upright by its EXIF tag, longest side <= ``side``."""
    check_image(data, max_pixels=max_pixels)
    image = _open(data)
    try:
        image.draft("L", (side, side))  # JPEG only: decode at the smallest scale still >= side
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # odd EXIF blocks warn; the pixels are still good
            image.load()
            upright = ImageOps.exif_transpose(image)
        gray = upright.convert("L")
        gray.thumbnail((side, side), Image.Resampling.BILINEAR)
        return np.asarray(gray, dtype=np.uint8).copy()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise PhotoError(
            "corrupt",
            words(N_("The picture's data is damaged or cut short: send the photo again.")),
        ) from exc
    finally:
        image.close()


def _open(data: bytes) -> Image.Image:
    """Pillow's lazy open (header only), with its failures as PhotoError."""
    if not data:
        raise PhotoError("not_image", words(N_("The file is empty: choose a photo of the puzzle.")))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(data))
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise PhotoError(
            "too_large", words(N_("The picture declares far too many pixels."))
        ) from exc
    except UnidentifiedImageError as exc:
        raise PhotoError(
            "not_image", words(N_("This file is not a picture: choose a JPEG, PNG or WebP photo."))
        ) from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise PhotoError(
            "corrupt", words(N_("The picture's header is damaged: send the photo again."))
        ) from exc
