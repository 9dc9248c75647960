"""The naming network's torch side: an export read back computes what the export does,
for the shipped 32-pixel design and for the 64-pixel one with a stem."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from kiosk.vision.cards.index_classifier import DEFAULT_CLASSIFIER

#: torch is imported by the tests that run, not at collection (every worker collects)
pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                reason="needs torch (make setup-dev)")


def _onnx_logits(model_bytes: bytes, patches: np.ndarray) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(model_bytes, providers=["CPUExecutionProvider"])
    blob = np.ascontiguousarray(patches[..., ::-1].transpose(0, 3, 1, 2)).astype(np.float32)
    return np.asarray(session.run(["logits"], {"patches": blob / 255})[0])


@pytest.mark.parametrize("stem, side", [(False, 32), (True, 64)])
def test_an_export_read_back_computes_the_same(stem: bool, side: int) -> None:
    import torch

    from kiosk.vision.decks.naming_network import (
        build_network,
        export_bytes,
        network_from_export,
        to_tensor,
    )

    torch.manual_seed(1)
    model = build_network(5, 1, 0.5, stem)
    model.eval()
    data = export_bytes(model, ["9C", "9S", "JC", "JS", "none"], side, 1.3)
    patches = (np.random.default_rng(0).random((40, side, side, 3)) * 255).astype(np.uint8)
    again = network_from_export(data, patches)
    again.eval()
    with torch.no_grad():
        mine = again(to_tensor(patches[:6]).float() / 255).numpy()
    assert np.abs(mine - _onnx_logits(data, patches[:6])).max() < 1e-4
    assert (len([m for m in again if isinstance(m, torch.nn.Conv2d)]) == 7) == stem


def test_the_shipped_classifier_loads_into_torch_as_it_reads() -> None:
    import torch

    from kiosk.vision.decks.naming_network import network_from_export, to_tensor

    data = DEFAULT_CLASSIFIER.read_bytes()
    patches = (np.random.default_rng(1).random((64, 32, 32, 3)) * 255).astype(np.uint8)
    model = network_from_export(data, patches)
    model.eval()
    with torch.no_grad():
        mine = model(to_tensor(patches[:8]).float() / 255).numpy()
    assert np.abs(mine - _onnx_logits(data, patches[:8])).max() < 1e-3


def test_a_stem_grown_in_front_of_a_32_pixel_network_starts_where_it_stands() -> None:
    """The 64-pixel design warm-started from the 32-pixel one (``grow_stem``) gives
    nearly the logits the 32-pixel network gives the same picture at half the side."""
    import cv2
    import torch

    from kiosk.vision.decks.naming_network import build_network, grow_stem, to_tensor

    torch.manual_seed(3)
    narrow = build_network(6, 1, 0.5)
    narrow.eval()
    wide = build_network(6, 1, 0.5, stem=True)
    rng = np.random.default_rng(2)
    small = [cv2.GaussianBlur((rng.random((32, 32, 3)) * 255).astype(np.uint8), (0, 0), 1.5)
             for _ in range(120)]
    large = np.stack([cv2.resize(p, (64, 64), interpolation=cv2.INTER_LINEAR) for p in small])
    grow_stem(narrow, wide, large)
    wide.eval()
    with torch.no_grad():
        halved = np.stack([cv2.resize(p, (32, 32), interpolation=cv2.INTER_AREA) for p in large])
        a = narrow(to_tensor(halved).float() / 255).numpy().ravel()
        b = wide(to_tensor(large).float() / 255).numpy().ravel()
    assert np.corrcoef(a, b)[0, 1] > 0.9
