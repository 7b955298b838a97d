"""The digit classifier: a small two-layer perceptron over a glyph's 28x28 ink map.

Classes are 0-9: 1-9 the printed digits, 0 "no digit" (a blot, a fragment of a line or of a
neighbour's digit). Its weights ship beside this module in ``digits.npz`` (float16, well under
a megabyte) and are made by ``python -m sudoku_web.photo.train``; nothing is downloaded.
A two-layer perceptron rather than a CNN: printed digits on a straightened grid need little
more, numpy runs it in a few milliseconds per grid, and it adds no dependency.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

WEIGHTS = Path(__file__).with_name("digits.npz")


class Model(NamedTuple):
    """The perceptron's parameters: input scaling, hidden layer, output layer."""

    mean: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray


def features(glyphs: np.ndarray) -> np.ndarray:
    """(n, 28, 28) glyphs as (n, 784) float32 rows."""
    return glyphs.reshape(len(glyphs), -1).astype(np.float32)


def forward(model: Model, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hidden activations and class probabilities for feature rows ``x``.

    The products are ``einsum`` without BLAS: a few dozen rows are too few for BLAS to gain,
    and a threaded BLAS's waiting threads burn the CPU a busy server's other requests need
    (benchmarks/RESULTS.md, "Reading a photo").
    """
    hidden = np.maximum(_product(x - model.mean, model.w1) + model.b1, 0.0)
    logits = _product(hidden, model.w2) + model.b2
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return hidden, odds / odds.sum(axis=1, keepdims=True)


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The matrix product a @ b in numpy's own loops (never BLAS's threads)."""
    product: np.ndarray = np.einsum("ij,jk->ik", a, b, optimize=False)
    return product


def save(model: Model, path: Path = WEIGHTS) -> None:
    """Write the weights as float16 (the shipped file)."""
    np.savez_compressed(path, **{k: v.astype(np.float16) for k, v in model._asdict().items()})


def load(path: Path = WEIGHTS) -> Model:
    """Read weights written by :func:`save`, as float32."""
    with np.load(path) as data:
        return Model(**{k: data[k].astype(np.float32) for k in Model._fields})


@lru_cache(maxsize=1)
def shipped() -> Model:
    """The shipped weights, read once per process."""
    return load()


def classify(glyphs: list[np.ndarray], model: Model | None = None) -> np.ndarray:
    """(n, 10) class probabilities for ``glyphs`` (an empty list gives a (0, 10) array)."""
    if not glyphs:
        return np.zeros((0, 10), dtype=np.float32)
    return forward(model or shipped(), features(np.stack(glyphs)))[1]
