"""An uploaded photo, read within its bounds: what ``POST /read`` (the form) and
``POST /api/read`` share.

:func:`read_upload` takes the request's ``photo`` file field and returns an
:class:`UploadAnswer`: the reading (:mod:`sudoku_web.photo`) or the refusal, each with its
HTTP status and a message naming the problem. The views only present it, as the filled form
or as JSON. In order, each step cheaper than the next:

1. the body limit is raised for this request only
   (:func:`~sudoku_web.web.runtime.limits.allow_photo_upload`, 8 MiB; past it ``413``); a body that
   is not ``multipart/form-data`` with a non-empty ``photo`` file is a ``400``;
2. the image's header (:func:`sudoku_web.photo.check_image`): not an image or a kind the reader
   does not take (GIF, BMP ...) is a ``415``; a broken JPEG/PNG/WebP a ``400``; more pixels
   declared than ``PHOTO_MAX_PIXELS`` a ``413``, before anything is decoded;
3. a reading slot (:mod:`sudoku_web.web.runtime.slots`, ``PHOTO_MAX_CONCURRENT`` workers at once;
   none free within :data:`SLOT_WAIT_S` is a ``429`` with ``Retry-After``);
4. the reader, with the ``PHOTO_`` budget (:class:`~sudoku_web.web.runtime.budgets.PhotoBudget`):
   data broken past the header is a ``400``, no grid found a ``422``.

Status codes, decided: ``415`` when the file is not a kind of image the reader takes (the
media type is the problem), ``400`` when it is one but broken or the request is malformed,
``413`` for too many bytes or too many pixels, ``422`` for a good image with no grid in it.
The reader failing in a way it does not name (a bug met by some odd image) is logged and
answered as unreadable (``422``), never a ``500``.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any, Final

from flask import Flask, current_app, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge
from werkzeug.formparser import parse_form_data

from ...core.board import Geometry, standard
from ...photo import PhotoError, Reading, check_image, read_photo
from ..runtime import limits, slots
from ..runtime.budgets import PhotoBudget
from .core_names import said

logger = logging.getLogger(__name__)

#: The file field of both the form and the API.
FIELD = "photo"
#: What the reader reads: classic 9x9 grids.
PHOTO_GEOMETRY: Final = standard(9)

#: How long a request waits for a reading slot before it is told to come back (429): short,
#: because a waiting worker thread is one the pages cannot use.
SLOT_WAIT_S = 0.5
#: ``Retry-After`` of that 429, in seconds (a reading costs 0.05-0.25 s of CPU).
RETRY_AFTER_S = 2

#: A PhotoError's code -> the HTTP status it is answered with.
STATUS = {
    "not_image": 415,
    "unsupported": 415,
    "corrupt": 400,
    "too_large": 413,
    "no_grid": 422,
    "cut_off": 422,
}


@dataclass(frozen=True)
class UploadAnswer:
    """What became of an upload: ``reading`` when it was read (status 200), else ``code``
    (a PhotoError code, or ``no_photo``, ``upload_too_large``, ``busy``, ``failed``) and the
    message that names the problem."""

    status: int
    code: str
    message: str
    reading: Reading | None = None


def _refused(status: int, code: str, message: str) -> UploadAnswer:
    return UploadAnswer(status, code, message)


def init_app(app: Flask) -> None:
    """Makes the reading slots' directory now, in the master when the app is preloaded, so
    every worker forked from it shares one bound."""
    slots.slots_dir()


def budget() -> PhotoBudget:
    """The app's photo budget (``PHOTO_MAX_PIXELS``, ``PHOTO_DEADLINE_MS``, readers at once)."""
    return PhotoBudget.from_config(current_app.config)


def read_upload() -> UploadAnswer:
    """Reads the request's photo within every bound (see the module docstring)."""
    cap = limits.allow_photo_upload()
    if request.mimetype != "multipart/form-data":
        return _refused(
            400,
            "no_photo",
            gettext(
                "Send the photo as multipart/form-data, in the file field %(field)s.", field=FIELD
            ),
        )
    try:
        _, _, files = parse_form_data(
            request.environ,
            stream_factory=_in_memory,
            max_form_memory_size=current_app.config["MAX_FORM_MEMORY_SIZE"],
            max_content_length=cap,
            max_form_parts=current_app.config["MAX_FORM_PARTS"],
        )
        upload = files.get(FIELD)
    except RequestEntityTooLarge:
        return _refused(413, "upload_too_large", too_large_message(cap))
    except BadRequest as exc:
        unreadable = exc.description == limits.MALFORMED_BODY  # the server could not read it
        message = (
            gettext(
                "The request body could not be read: its chunked encoding is malformed."
                " Send it again."
            )
            if unreadable
            else gettext("The upload could not be understood. Send it again.")
        )
        return _refused(400, "no_photo", message)
    if upload is None:
        return _refused(
            400, "no_photo", gettext("No photo was sent: choose a JPEG, PNG or WebP image.")
        )
    data = upload.stream.read(cap + 1)
    if not data:
        return _refused(
            400, "no_photo", gettext("The photo was empty: choose a JPEG, PNG or WebP image.")
        )
    if len(data) > cap:  # the multipart parser bounds the body; this bounds the file too
        return _refused(413, "upload_too_large", too_large_message(cap))
    photo_budget = budget()
    try:
        check_image(data, max_pixels=photo_budget.max_pixels)
    except PhotoError as exc:
        return _refused(STATUS.get(exc.code, 400), exc.code, said(exc.message, exc.said))
    return _read_in_a_slot(data, photo_budget)


def _in_memory(
    total_content_length: int | None,
    content_type: str | None,
    filename: str | None,
    content_length: int | None = None,
) -> IO[bytes]:
    """Where the multipart parser writes the file: memory, bounded by the body limit. The
    bytes are read whole next anyway, and no temporary file is left behind when the parser
    stops halfway (a body cut short, or over the limit), which Werkzeug's default would."""
    return io.BytesIO()


def too_large_message(cap: int) -> str:
    """What a person reads when the upload is over the body limit."""
    return str(
        gettext(
            "That file is over %(megabytes)s MB: choose a smaller photo (or a screenshot).",
            megabytes=f"{cap / 2**20:.0f}",
        )
    )


def _read_in_a_slot(data: bytes, photo_budget: PhotoBudget) -> UploadAnswer:
    with slots.slot(slots.slots_dir(), "photo", photo_budget.max_concurrent, SLOT_WAIT_S) as held:
        if not held:
            return _refused(
                429, "busy", gettext("The server is reading other photos; try again in a moment.")
            )
        try:
            reading = read_photo(
                data, deadline_ms=photo_budget.deadline_ms, max_pixels=photo_budget.max_pixels
            )
        except PhotoError as exc:
            return _refused(STATUS.get(exc.code, 422), exc.code, said(exc.message, exc.said))
        except Exception:  # a reader bug met by an odd image: logged, never a 500
            logger.exception("the photo reader failed on a %d-byte upload", len(data))
            return _refused(
                422, "failed", gettext("This photo could not be read; try another shot.")
            )
    return UploadAnswer(200, "read", gettext("Read: check the grid against the photo."), reading)


# ---- What the answer shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class PhotoPanel:
    """The form's photo part: offered (the classic 9x9 form has the input; other forms say
    where it is), and after a post, the answer with the doubtful cells named."""

    offered: bool
    max_bytes: int
    answer: UploadAnswer | None = None
    notes: tuple[str, ...] = ()  # what to check, in words (check_notes)
    doubtful: frozenset[int] = frozenset()  # cells to mark in the grid

    @property
    def max_mb(self) -> str:
        """The upload limit in MB, as the form says it."""
        return f"{self.max_bytes / 2**20:.0f}"

    @property
    def too_large(self) -> str:
        """What a person reads about a file over the limit (the page's script says it too,
        before uploading)."""
        return too_large_message(self.max_bytes)

    @property
    def read(self) -> bool:
        """Whether a photo was read (the grid holds it, for the person to check)."""
        return self.answer is not None and self.answer.reading is not None


def panel(geometry: Geometry, answer: UploadAnswer | None = None) -> PhotoPanel:
    """The photo part of a form of ``geometry``, with ``answer`` when a photo was posted."""
    offered = geometry == PHOTO_GEOMETRY
    cap = int(current_app.config["PHOTO_MAX_CONTENT_LENGTH"])
    reading = answer.reading if answer is not None else None
    if reading is None:
        return PhotoPanel(offered, cap, answer)
    return PhotoPanel(
        offered,
        cap,
        answer,
        check_notes(reading),
        frozenset(reading.uncertain) | frozenset(reading.changed),
    )


def check_notes(reading: Reading) -> tuple[str, ...]:
    """What to check, naming the cells: the same words on the page without JavaScript and in
    ``/api/read``'s ``notes``, which the page's script shows. The reader's ``uncertain`` holds
    every cell to check, its ``changed`` cells included; those are said apart."""
    notes = [gettext("Check the grid against the photo, then press Solve.")]
    notes += [said(sentence.english(), sentence) for sentence in reading.said]
    doubted = _names(set(reading.uncertain) - set(reading.changed))
    changed = _names(reading.changed)
    if doubted:
        notes.append(
            ngettext(
                "Check %(cells)s: the reader was not sure of it.",
                "Check %(cells)s: the reader was not sure of them.",
                len(doubted),
                cells=", ".join(doubted),
            )
        )
    if changed:
        notes.append(
            ngettext(
                "Check %(cells)s: the reader's second choice, taken because it gives the"
                " puzzle exactly one solution.",
                "Check %(cells)s: the reader's second choices, taken because they give the"
                " puzzle exactly one solution.",
                len(changed),
                cells=", ".join(changed),
            )
        )
    return tuple(notes)


def _names(cells: Iterable[int]) -> tuple[str, ...]:
    return tuple(PHOTO_GEOMETRY.cell_name(c) for c in sorted(set(cells)))


def reading_json(reading: Reading) -> dict[str, Any]:
    """``/api/read``'s 200 body: the 81 symbols (``0`` blank) and the cells to check."""
    puzzle = reading.puzzle
    return {
        "status": "read",
        "puzzle": puzzle,
        "size": reading.size,
        "uncertain": list(_names(reading.uncertain)),
        "changed": list(_names(reading.changed)),
        "reading": reading.status,
        "confidence": [round(float(c), 3) for c in reading.confidence],
        "notes": list(check_notes(reading)),
        "form_url": url_for("pages.index", p=puzzle, _external=True),
    }
