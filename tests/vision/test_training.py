"""A tiny training run proves the pipeline end to end: scenes -> YAML -> train -> ONNX -> detect."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("ultralytics") is None, reason="ultralytics is not installed"
    ),
    pytest.mark.usefixtures("have_card_art"),
]


def test_tiny_training_run(tmp_path: Path) -> None:
    from datasets.generate import write_split, write_yaml

    root = tmp_path / "data"
    for name, count in (("train", 6), ("val", 2), ("test", 1)):
        write_split(name, count, 128, workers=1, root=root)
    data = write_yaml(root, with_real=False)
    run = [sys.executable, str(REPO / "models" / "train.py"), "--smoke", str(data)]
    subprocess.run([*run, "--project", str(tmp_path / "runs")], check=True, cwd=REPO, timeout=600)
    weights = tmp_path / "runs" / "smoke" / "weights" / "last.pt"
    assert weights.exists()

    onnx = tmp_path / "tiny.onnx"
    export = [sys.executable, str(REPO / "models" / "export.py"), "--weights", str(weights)]
    subprocess.run(
        [*export, "--imgsz", "64", "64", "--out", str(onnx)], check=True, cwd=REPO, timeout=600
    )
    from kiosk.vision.detector import Detector

    detector = Detector(onnx, confidence=0.0)
    assert detector.input_hw == (64, 64)
    found = detector.detect(np.zeros((128, 128, 3), np.uint8))
    assert isinstance(found, list)
