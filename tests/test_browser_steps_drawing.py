"""Browser check of a chain drawn on the steps page: visible over its grid, at a phone's
width too, and no Content Security Policy complaint (the drawing uses no inline style)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_steps_drawing import chain_puzzle

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1000, 360])
def test_chain_drawing_is_visible_over_its_grid(page: Page, live_server: str, width: int) -> None:
    problems: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(message.text)

    page.on("console", on_console)
    page.set_viewport_size({"width": width, "height": 900})
    puzzle, explanation, number = chain_puzzle()
    page.goto(f"{live_server}/p/{puzzle}/steps?step={number}#step-{number}")
    page.wait_for_load_state("load")
    step = page.locator(f"#step-{number}")
    svg = step.locator("svg.chain")
    expect(svg).to_be_visible()
    expect(svg.locator("path.chain-link")).to_have_count(len(explanation.steps[number - 1].links))
    # The overlay covers the grid exactly (the CSS stretches it; no inline style).
    grid = step.locator("table.pm-grid").bounding_box()
    drawing = svg.bounding_box()
    assert grid and drawing
    for key in ("x", "y", "width", "height"):
        assert abs(grid[key] - drawing[key]) < 1, key
    # The marks sit on their candidates as the browser lays them out: the start ring's centre
    # falls inside the start digit's slot, each red cross's inside its struck digit's.
    links = explanation.steps[number - 1].links
    eliminations = explanation.steps[number - 1].eliminations
    rings = [("circle.chain-start", links[0][0])]
    rings += [(f"path.chain-elim >> nth={i}", e) for i, e in enumerate(eliminations)]
    for selector, (cell, digit) in rings:
        ring = svg.locator(selector).bounding_box()
        row, col = divmod(cell, 9)
        mark = step.locator(f"tbody tr >> nth={row}").locator(f"td >> nth={col}")
        slot = mark.locator(f".pm i >> nth={digit - 1}").bounding_box()
        assert ring and slot
        x, y = ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2
        assert slot["x"] <= x <= slot["x"] + slot["width"], (selector, cell, digit)
        assert slot["y"] <= y <= slot["y"] + slot["height"], (selector, cell, digit)
    # Weak links are dashed, strong ones solid: the stylesheet applied.
    dash = svg.locator("path.weak").first.evaluate("e => getComputedStyle(e).strokeDasharray")
    solid = svg.locator("path.strong").first.evaluate("e => getComputedStyle(e).strokeDasharray")
    assert dash != "none" and solid == "none"
    if os.environ.get("SCREENSHOTS"):
        step.screenshot(path=f"/tmp/chain-step-{width}.png")
    assert problems == []
