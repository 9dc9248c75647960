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
    trained = subprocess.run(
        [*run, "--project", str(tmp_path / "runs"), "--threads", "2"],
        check=True, cwd=REPO, timeout=600, capture_output=True, text=True,
    )  # fmt: skip
    # ultralytics alone would train on one thread of two cores (or one fewer than any count)
    assert "training threads: 2" in trained.stdout
    weights = tmp_path / "runs" / "smoke" / "weights" / "last.pt"
    assert weights.exists()

    onnx = tmp_path / "tiny.onnx"
    export = [sys.executable, str(REPO / "models" / "export.py"), "--weights", str(weights)]
    subprocess.run(
        [*export, "--imgsz", "64", "64", "--out", str(onnx)], check=True, cwd=REPO, timeout=600
    )
    from kiosk.vision.cards.detector import Detector

    detector = Detector(onnx, confidence=0.0)
    assert detector.input_hw == (64, 64)
    found = detector.detect(np.zeros((128, 128, 3), np.uint8))
    assert isinstance(found, list)


def test_training_threads_under_one_are_refused_in_one_line(tmp_path: Path) -> None:
    run = [sys.executable, str(REPO / "models" / "train.py"), "--threads", "0"]
    refused = subprocess.run(
        [*run, "--project", str(tmp_path)], cwd=REPO, timeout=120, capture_output=True, text=True
    )
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == ["--threads must be 1 or more, not 0"]


def test_training_step_benchmark_times_each_thread_count() -> None:
    bench = [sys.executable, str(REPO / "scripts" / "bench_training_step.py")]
    timed = subprocess.run(
        [*bench, "--threads", "1", "2", "--imgsz", "64", "--batch", "2", "--repeats", "1"],
        check=True, cwd=REPO, timeout=300, capture_output=True, text=True,
    )  # fmt: skip
    assert "yolov8n.yaml, 53 classes, batch 2 at imgsz 64" in timed.stdout
    lines = [line for line in timed.stdout.splitlines() if "thread(s):" in line]
    assert [line.split(":")[0] for line in lines] == ["1 thread(s)", "2 thread(s)"]
    assert all(float(line.split()[2]) > 0 for line in lines)
    refused = subprocess.run([*bench, "--threads", "0"], cwd=REPO, capture_output=True, text=True)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
