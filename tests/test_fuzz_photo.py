"""Hostile uploads against the photo readers (``POST /api/read`` and the form's ``POST /read``):
never a 5xx, always the documented status with a well-formed JSON body or page, through
Flask's test client (with hypothesis) and through gunicorn as shipped (``sudoku-web serve``)
over raw HTTP.
"""

from __future__ import annotations

import io
import json
import random
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from shipped_server import serve_shipped

from benchmarks.hostile import MAX_PHOTO_BODY, bomb_png, multipart, no_sudoku_photo, photo_files
from sudoku_web import create_app

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Every status the readers answer with (the module docstring of web/puzzles/photo_upload.py).
STATUSES = {200, 400, 413, 415, 422, 429}


def _image(kind: str, size: tuple[int, int] = (1, 1), mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, "white").save(out, kind)
    return out.getvalue()


def a_photo() -> bytes:
    """The first test photo of a printed puzzle."""
    return photo_files()[0].read_bytes()


@dataclass(frozen=True)
class Case:
    """One hostile upload: the body, its Content-Type, and the status it must get."""

    name: str
    body: bytes
    content_type: str
    status: int


def _multipart_case(name: str, filename: str | None, data: bytes, status: int, **kw: Any) -> Case:
    body, ctype = multipart(filename, data, **kw)
    return Case(name, body, ctype, status)


def cases() -> list[Case]:
    """The hostile uploads every path must survive, with the status each one gets."""
    jpeg = a_photo()
    good_body, good_type = multipart("grid.jpg", jpeg)
    return [
        _multipart_case("text named .jpg", "photo.jpg", b"not a photo at all\n" * 40, 415),
        _multipart_case("truncated JPEG", "cut.jpg", jpeg[: len(jpeg) // 3], 400),
        _multipart_case("JPEG header only", "head.jpg", jpeg[:600], 400),
        _multipart_case("1x1 PNG", "dot.png", _image("PNG"), 422, content_type="image/png"),
        _multipart_case("1x1 JPEG", "dot.jpg", _image("JPEG"), 422),
        _multipart_case("GIF", "anim.gif", _image("GIF", (60, 60), "P"), 415),
        _multipart_case("BMP", "grid.bmp", _image("BMP", (60, 60)), 415),
        _multipart_case("TIFF", "grid.tif", _image("TIFF", (60, 60)), 415),
        _multipart_case("empty field", "empty.jpg", b"", 400),
        _multipart_case("no file field", None, b"a text field, no file", 400),
        _multipart_case("other field name", "grid.jpg", jpeg, 400, field="picture"),
        _multipart_case("photo of no Sudoku", "lake.jpg", no_sudoku_photo(), 422),
        _multipart_case(
            "decompression bomb", "bomb.png", bomb_png(), 413, content_type="image/png"
        ),
        _multipart_case("random bytes", "noise.jpg", random.Random(3).randbytes(50_000), 415),
        Case("raw JPEG body", jpeg, "image/jpeg", 400),
        Case("JSON body", b'{"photo": "x"}', "application/json", 400),
        Case("form-encoded", b"photo=abc", "application/x-www-form-urlencoded", 400),
        Case("no content type", jpeg, "", 400),
        Case("multipart, no boundary", good_body, "multipart/form-data", 400),
        Case("multipart, wrong boundary", good_body, "multipart/form-data; boundary=zz", 400),
        Case("multipart, cut short", good_body[: len(good_body) // 2], good_type, 400),
        Case(
            "multipart, garbage",
            b"--x\r\n\r\n\x00\xff" * 50,
            "multipart/form-data; boundary=x",
            400,
        ),
    ]


CASES = cases()


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app({"TESTING": True}).test_client()


def check_api(response: Any, status: int | None = None) -> dict[str, Any]:
    """A documented status and JSON body: ``read``, ``unreadable`` or the API's error shape."""
    assert response.status_code in STATUSES, response.status_code
    if status is not None:
        assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-store"
    body = json.loads(response.get_data(as_text=True))
    if response.status_code == 200:
        assert body["status"] == "read" and len(body["puzzle"]) == 81
        assert set(body["puzzle"]) <= set("0123456789")
    elif response.status_code == 422:
        assert body["status"] == "unreadable" and body["message"]
    else:
        assert body["status"] == "error" and body["code"] == response.status_code
        assert body["message"] and body["reason"]
    return dict(body)


def check_page(response: Any, status: int | None = None) -> str:
    """The form page, with the same status as the API, saying what became of the photo."""
    assert response.status_code in STATUSES, response.status_code
    if status is not None:
        assert response.status_code == status
    assert response.mimetype == "text/html"
    page = str(response.get_data(as_text=True))
    assert "<h1>" in page and 'id="photo-check"' in page
    assert ("Read from your photo" in page) == (response.status_code == 200)
    return page


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_uploads_get_their_status(client: Any, case: Case) -> None:
    api = client.post("/api/read", data=case.body, content_type=case.content_type or None)
    body = check_api(api, case.status)
    page = client.post("/read", data=case.body, content_type=case.content_type or None)
    check_page(page, case.status)
    if case.status != 200:  # the page says what the API says
        assert body["message"] in page.get_data(as_text=True).replace("&#39;", "'")


def test_an_upload_over_the_limit_is_a_413_unread(client: Any) -> None:
    body, ctype = multipart("big.jpg", b"\xff" * MAX_PHOTO_BODY)
    assert len(body) > MAX_PHOTO_BODY
    assert check_api(client.post("/api/read", data=body, content_type=ctype), 413)["reason"] == (
        "upload_too_large"
    )
    page = check_page(client.post("/read", data=body, content_type=ctype), 413)
    assert "over 8 MB" in page


def test_no_grid_says_so_in_the_issues_words(client: Any) -> None:
    body, ctype = multipart("lake.jpg", no_sudoku_photo())
    answer = check_api(client.post("/api/read", data=body, content_type=ctype), 422)
    assert answer["message"] == (
        "No Sudoku grid found in this photo: try a straighter, closer shot."
    )


@FUZZ
@given(data=st.binary(max_size=4_000), prefix=st.sampled_from(
    [b"", b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x10\x00\x00WEBPVP8 ", b"GIF89a"]
))  # fmt: skip
def test_random_bytes_behind_image_signatures(client: Any, data: bytes, prefix: bytes) -> None:
    body, ctype = multipart("fuzz.jpg", prefix + data)
    check_api(client.post("/api/read", data=body, content_type=ctype))


@settings(FUZZ, max_examples=15)
@given(flips=st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)), max_size=30),
       cut=st.integers(min_value=200, max_value=10**9))  # fmt: skip
def test_damaged_photos(client: Any, flips: list[tuple[int, int]], cut: int) -> None:
    photo = bytearray(a_photo())
    for at, value in flips:
        photo[600 + at % (len(photo) - 600)] = value  # the header stays readable
    body, ctype = multipart("damaged.jpg", bytes(photo[:cut]))
    check_api(client.post("/api/read", data=body, content_type=ctype))


@FUZZ
@given(body=st.binary(max_size=3_000), ctype=st.sampled_from(
    ["multipart/form-data; boundary=x", "multipart/form-data", "multipart/mixed; boundary=x",
     "image/jpeg", "text/plain", ""]
))  # fmt: skip
def test_raw_bodies(client: Any, body: bytes, ctype: str) -> None:
    check_api(client.post("/api/read", data=body, content_type=ctype or None))
    check_page(client.post("/read", data=body, content_type=ctype or None))


# ---- through gunicorn as shipped, raw HTTP ------------------------------------------------------


@pytest.fixture(scope="module")
def served() -> Iterator[int]:
    """``sudoku-web serve`` (the real app, shipped settings, two workers) on a free port."""
    with serve_shipped(workers=2) as port:
        yield port


def raw_post(
    port: int, path: str, body: bytes, ctype: str, *, chunked: bool = False
) -> tuple[int, dict[str, str], bytes]:
    """POSTs over a raw socket, the body sent by a thread while the answer is read (a server
    may answer before it has read a large body); the status, headers and body of the answer."""
    head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    if ctype:
        head.append(f"Content-Type: {ctype}")
    if chunked:
        head.append("Transfer-Encoding: chunked")
        step = 65_536
        payload = (
            b"".join(
                b"%x\r\n" % len(body[i : i + step]) + body[i : i + step] + b"\r\n"
                for i in range(0, len(body), step)
            )
            + b"0\r\n\r\n"
        )
    else:
        head.append(f"Content-Length: {len(body)}")
        payload = body
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)

    def send() -> None:
        try:
            sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        except OSError:
            pass  # the server answered (and closed) before reading it all

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    chunks = []
    try:
        while chunk := sock.recv(65_536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass  # the answer came first; what was read is kept
    finally:
        sock.close()
        sender.join(timeout=30)
    raw = b"".join(chunks)
    head_bytes, _, data = raw.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1."), raw[:200]
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, data


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_uploads_through_gunicorn(served: int, case: Case) -> None:
    for path in ("/api/read", "/read"):
        status, headers, data = raw_post(served, path, case.body, case.content_type)
        assert status == case.status, (path, data[:300])
        if path == "/api/read":
            assert json.loads(data)["status"] in ("read", "unreadable", "error")
        assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.slow
def test_a_photo_through_gunicorn(served: int) -> None:
    body, ctype = multipart("grid.jpg", a_photo())
    status, _, data = raw_post(served, "/api/read", body, ctype)
    assert status == 200 and json.loads(data)["status"] == "read"


@pytest.mark.slow
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_huge_uploads_through_gunicorn_are_413(served: int, chunked: bool) -> None:
    body, ctype = multipart("big.jpg", b"\xff" * (MAX_PHOTO_BODY + 1_000_000))
    for path in ("/api/read", "/read"):
        status, _, _ = raw_post(served, path, body, ctype, chunked=chunked)
        assert status == 413, path
    # Every other route keeps its 16 KiB limit.
    status, _, _ = raw_post(served, "/api/solve", b"7" * 20_000, "application/json")
    assert status == 413
