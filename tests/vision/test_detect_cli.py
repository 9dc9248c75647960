"""`kiosk detect`: JSON Lines per CONTRACTS, one-line errors with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.cli import main

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MODEL = REPO / "models" / "cards.onnx"


def test_missing_image(tmp_path, capsys) -> None:
    assert main(["detect", str(tmp_path / "nope.jpg")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "nope.jpg" in err


def test_corrupt_image(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    assert main(["detect", "--model", str(MODEL), str(bad)]) == 2
    _out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "bad.jpg" in err


def test_missing_model(tmp_path, capsys) -> None:
    image = next(FIXTURES.glob("*.jpg"), None)
    if image is None:
        pytest.skip("no fixture images")
    assert main(["detect", "--model", str(tmp_path / "m.onnx"), str(image)]) == 2
    _out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "model" in err


@pytest.mark.skipif(not MODEL.exists(), reason="no exported model")
def test_json_lines(capsys) -> None:
    images = sorted(str(p) for p in FIXTURES.glob("*.jpg"))[:2]
    assert main(["detect", "--json", *images]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(images)
    for line, image in zip(lines, images, strict=True):
        record = json.loads(line)
        assert record["image"] == image
        for d in record["detections"]:
            assert set(d) == {"card", "confidence", "box"}
            assert 0 <= d["confidence"] <= 1 and len(d["box"]) == 4
