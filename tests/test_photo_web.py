"""Reading a photo through the web: ``POST /api/read`` and the form's ``POST /read`` answer
with the reading (the form filled, the doubtful cells marked and named) within their bounds:
their own upload limit while every other route keeps 16 KiB, the pixel cap, the readers'
slots (``web/runtime/slots.py``)."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from photo_inputs import doubtful_photo, truth

from benchmarks.hostile import multipart, photo_files
from sudoku_web import create_app
from sudoku_web.web.runtime import slots

SOLVE_LIMIT = 16 * 1024


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app({"TESTING": True}).test_client()


def _post(client: Any, path: str, photo: Path, **kw: Any) -> Any:
    body, ctype = multipart(photo.name, photo.read_bytes())
    return client.post(path, data=body, content_type=ctype, **kw)


def test_the_api_reads_a_photo_for_a_person_to_check(client: Any) -> None:
    photo = photo_files()[0]
    response = _post(client, "/api/read", photo)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert list(body)[:6] == ["status", "puzzle", "size", "uncertain", "changed", "reading"]
    assert body["status"] == "read" and body["size"] == 9
    assert re.fullmatch(r"[0-9]{81}", body["puzzle"])
    names = {f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)}
    assert set(body["uncertain"]) | set(body["changed"]) <= names
    assert len(body["confidence"]) == 81
    assert body["form_url"].endswith("/?p=" + body["puzzle"])
    # What a person reads: check first, the cells named.
    assert body["notes"][0] == "Check the grid against the photo, then press Solve."
    for name in body["uncertain"] + body["changed"]:
        assert any(name in note for note in body["notes"][1:])


def test_photos_read_right_through_the_api(client: Any) -> None:
    """The test photos come back as their printed givens (the reader's accuracy is measured
    on held-out photos by benchmarks/photo_bench.py; here: the route carries it whole)."""
    right = 0
    for photo in photo_files():
        body = _post(client, "/api/read", photo).get_json()
        right += body["puzzle"] == truth(photo)
    assert right >= len(photo_files()) - 1, f"{right} of {len(photo_files())}"


def test_the_form_comes_back_filled_with_the_doubtful_cells_marked(client: Any) -> None:
    photo = photo_files()[0]
    answer = _post(client, "/api/read", photo).get_json()
    response = _post(client, "/read", photo)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    values = re.findall(r'id="cells-\d+"[^>]*value="([^"]*)"', page)
    assert "".join(v or "0" for v in values) == answer["puzzle"]
    marked = re.findall(
        r'<td class="[^"]*\bdoubtful\b[^"]*"><label[^>]*>Row (\d), column (\d)', page
    )
    assert sorted(f"r{r}c{c}" for r, c in marked) == sorted(
        set(answer["uncertain"]) | set(answer["changed"])
    )
    assert page.count('aria-describedby="photo-check"') == len(marked)
    assert "Check the grid against the photo, then press Solve." in page
    assert "/p/" not in page.split('id="photo-check"')[1].split("</div>")[0]  # nothing solved


def test_a_doubtful_reading_marks_its_cells(client: Any) -> None:
    """A photo the reader doubts: the doubtful cells are marked and named, on the page as in
    the API."""
    data, _ = doubtful_photo()
    body, ctype = multipart("small.jpg", data)
    answer = client.post("/api/read", data=body, content_type=ctype).get_json()
    doubtful = sorted(set(answer["uncertain"]) | set(answer["changed"]))
    assert doubtful
    page = client.post("/read", data=body, content_type=ctype).get_data(as_text=True)
    marked = re.findall(
        r'<td class="[^"]*\bdoubtful\b[^"]*">(?:.*?)<label[^>]*>Row (\d), column (\d)', page
    )
    assert sorted(f"r{r}c{c}" for r, c in marked) == doubtful
    notes = page.split('id="photo-check"')[1].split("</div>")[0]
    for name in doubtful:
        assert name in notes


def test_only_the_photo_readers_take_more_than_16_kib(client: Any) -> None:
    photo = photo_files()[0]
    assert photo.stat().st_size > SOLVE_LIMIT
    assert _post(client, "/api/read", photo).status_code == 200
    for path in ("/", "/hint", "/api/solve", "/api/explain", "/api/check"):
        body, ctype = multipart(photo.name, photo.read_bytes())
        response = client.post(path, data=body, content_type=ctype)
        assert response.status_code == 413, path


def test_the_pixel_cap_refuses_before_decoding() -> None:
    small = create_app({"TESTING": True, "PHOTO_MAX_PIXELS": 100_000}).test_client()
    response = _post(small, "/api/read", photo_files()[0])
    assert response.status_code == 413
    assert response.get_json()["reason"] == "too_large"


def test_past_the_deadline_the_answer_says_what_was_cut() -> None:
    """``PHOTO_DEADLINE_MS`` reaches the reader: with no time to proof-read, the reading comes
    back unchecked and says so, for the person to check every cell."""
    hurried = create_app({"TESTING": True, "PHOTO_DEADLINE_MS": 1}).test_client()
    body = _post(hurried, "/api/read", photo_files()[0]).get_json()
    assert body["status"] == "read" and body["reading"] == "unchecked"
    assert "check every cell" in " ".join(body["notes"])


def test_other_forms_say_where_photos_are_read(client: Any) -> None:
    classic = client.get("/").get_data(as_text=True)
    assert 'type="file"' in classic and 'accept="image/*"' in classic
    assert 'enctype="multipart/form-data"' in classic
    for variant in ("x", "jigsaw", "16x16"):
        page = client.get(f"/?v={variant}").get_data(as_text=True)
        assert 'type="file"' not in page and "classic 9x9 grids" in page, variant


def _hold(directory: str, count: int, ready: Any) -> None:
    with slots.slot(Path(directory), "photo", count, 0) as held:
        assert held
        ready.set()
        signal.pause()  # until killed


def test_readers_at_once_are_bounded_across_processes(tmp_path: Path) -> None:
    ctx = mp.get_context("fork")
    ready = ctx.Event()
    holder = ctx.Process(target=_hold, args=(str(tmp_path), 1, ready))
    holder.start()
    try:
        assert ready.wait(10)
        with slots.slot(tmp_path, "photo", 1, 0.05) as held:
            assert not held  # the other process holds the only slot
    finally:
        os.kill(holder.pid or 0, signal.SIGKILL)  # a worker killed at its timeout
        holder.join()
    with slots.slot(tmp_path, "photo", 1, 0.05) as held:
        assert held  # the kernel dropped the dead holder's lock


def test_a_busy_server_says_come_back(client: Any) -> None:
    """Every slot held elsewhere: 429 with Retry-After, JSON and page alike."""
    app = client.application
    count = int(app.config["PHOTO_MAX_CONCURRENT"])
    held = [slots.slot(slots.slots_dir(), "photo", count, 0) for _ in range(count)]
    try:
        assert all(h.__enter__() for h in held)
        for path in ("/api/read", "/read"):
            response = _post(client, path, photo_files()[0])
            assert response.status_code == 429 and response.headers["Retry-After"]
        body = json.loads(_post(client, "/api/read", photo_files()[0]).get_data())
        assert body["reason"] == "busy"
    finally:
        for h in held:
            h.__exit__(None, None, None)
    assert _post(client, "/api/read", photo_files()[0]).status_code == 200


@pytest.mark.parametrize(
    ("kind", "status"), [("photo", 200), ("photo-bomb", 413), ("photo-over-limit", 413)]
)
def test_the_load_tests_photo_kinds_are_what_they_say(client: Any, kind: str, status: int) -> None:
    """``loadtest --photos`` measures what its report names (benchmarks/hostile.py)."""
    import random

    from benchmarks.hostile import PHOTO_KINDS

    request = PHOTO_KINDS[kind](random.Random(5))
    assert request.kind == kind and request.path == "/api/read"
    response = client.post(request.path, data=request.body, content_type=request.content_type)
    assert response.status_code == status
