"""What a hostile client sends straight to ``sudoku-web serve`` (gunicorn as shipped, the real
app, raw sockets): a body the server cannot read, and a header that would move the app."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from shipped_server import serve_shipped

from sudoku_web import create_app
from sudoku_web.core.board import standard
from sudoku_web.core.cages import Cage, link_spelling
from sudoku_web.core.variants import DEFAULT_JIGSAW

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def _raw(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send ``data`` as is and read the whole answer (the server closes the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


@pytest.fixture(scope="module")
def served() -> Iterator[int]:
    """``sudoku-web serve`` as shipped, one worker (a crash would show at once)."""
    with serve_shipped(workers=1) as port:
        yield port


def _post_paths() -> list[str]:
    """Every route that takes POST, its share-link parts filled with a real puzzle."""
    app = create_app({"TESTING": True})
    paths = set()
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        # One given: a puzzle on every board, so each route gets as far as the body.
        values = {arg: "1" + "0" * 80 for arg in rule.arguments}
        if "regions" in values:
            values["regions"] = DEFAULT_JIGSAW
        if "cages" in values:  # one cage, r1c1 + r1c2 = 3, which the given 1 keeps
            values["cages"] = link_spelling((Cage(3, (0, 1)),), standard(9))
        if "rules" in values:  # a board with rules: anti-knight
            values["rules"] = "kn"
        with app.test_request_context():
            paths.add(app.url_map.bind("localhost").build(rule.endpoint, values))
    return sorted(paths)


POST_PATHS = _post_paths()
# The photo readers refuse any body but multipart/form-data before reading it (a 400 that says so).
PHOTO_READERS = {"/read", "/api/read"}


def test_every_post_route_is_tried() -> None:
    assert {"/", "/api/solve", "/api/check", "/api/hint"} <= set(POST_PATHS)
    assert any(p.endswith("/play") for p in POST_PATHS)


@pytest.mark.slow
@pytest.mark.parametrize("size", [b"zz", b"-2", b"0x2"])
@pytest.mark.parametrize("path", POST_PATHS)
def test_a_malformed_chunked_body_is_a_400(served: int, path: str, size: bytes) -> None:
    def post(kind: bytes) -> bytes:
        return _raw(
            served,
            b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + kind
            + b"\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + size + b"\r\nab\r\n0\r\n\r\n",
        )  # fmt: skip

    # Every POST route reads a form: the photo readers a multipart one.
    form = (
        b"multipart/form-data; boundary=b"
        if path in PHOTO_READERS
        else b"application/x-www-form-urlencoded"
    )
    answer = post(form)
    assert _status(answer) == 400, answer[:300]
    assert b"chunked encoding is malformed" in answer
    # JSON: the API reads it (400); a page that takes forms only never reads it (no 5xx).
    answer = post(b"application/json")
    assert _status(answer) < 500, answer[:300]
    if path.startswith("/api/") and path not in PHOTO_READERS:
        assert _status(answer) == 400 and b"chunked encoding is malformed" in answer
    # The worker is still there and well.
    assert _status(_raw(served, b"GET /healthz HTTP/1.0\r\n\r\n")) == 200


@pytest.mark.slow
@pytest.mark.parametrize("name", [b"SCRIPT_NAME", b"Script_Name", b"PATH_INFO"])
@pytest.mark.parametrize("value", [b"/elsewhere", b"/healthz", b"/"])
def test_a_header_that_would_move_the_app_is_refused(
    served: int, name: bytes, value: bytes
) -> None:
    answer = _raw(
        served,
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + name + b": " + value
        + b"\r\nConnection: close\r\n\r\n",
    )  # fmt: skip
    assert _status(answer) == 400, answer[:200]
    assert _status(_raw(served, b"GET /healthz HTTP/1.0\r\n\r\n")) == 200


@pytest.mark.slow
def test_a_well_formed_chunked_body_is_read(served: int) -> None:
    body = b'{"puzzle": "' + PUZZLE.encode() + b'"}'
    answer = _raw(
        served,
        b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        b"Connection: close\r\n\r\n"
        + f"{len(body):x}".encode() + b"\r\n" + body + b"\r\n0\r\n\r\n",
    )  # fmt: skip
    assert _status(answer) == 200 and b'"solved"' in answer
