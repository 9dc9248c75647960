"""The naming bound: a scene drawn again with one face swapped, the noise's floor, and the
scene-knowing observer reading the saved picture."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.scenes import render_scene
from lab import naming_bound
from lab.naming_bound import confusion_floor, distance, draw, rivals, scene_bounds

#: a small scene (160 px) with sensor noise and three small faces: 8S, 5D, KC
SEED, SIZE = 19, 160


def _save(image_rgb: np.ndarray, path: Path) -> Path:
    """As the generator saves a scene: JPEG at quality 95."""
    cv2.imwrite(str(path), cv2.cvtColor(image_rgb, cv2.COLOR_RGB2BGR),
                [cv2.IMWRITE_JPEG_QUALITY, 95])  # fmt: skip
    return path


def test_a_swapped_face_changes_that_card_alone() -> None:
    scene, truth = draw(SEED, SIZE)
    assert truth.sigma is not None and 2 <= truth.sigma <= 14
    np.testing.assert_array_equal(scene.image, render_scene(SEED, SIZE).image)
    itself = draw(SEED, SIZE, ("5D", "5D"))[1]
    assert distance(truth, itself) == 0.0
    swapped, other = draw(SEED, SIZE, ("5D", "6D"))
    names = [label.card for label in scene.labels]
    assert "5D" in names and "6D" not in names
    assert [label.card for label in swapped.labels] == [
        "6D" if name == "5D" else name for name in names
    ]
    assert distance(truth, other) > 20  # the noise hides little of a face


def test_the_recorded_strength_is_the_noise_the_picture_got() -> None:
    """The noise's strength read from the generator is the one the camera used: the
    picture drawn with its noise and without JPEG, less the recorded signal, divided by
    the camera's brightness factor, has that spread (unclipped pixels only)."""
    with naming_bound._recording() as seen:
        noisy = render_scene(SEED, SIZE, without=("jpeg",)).image.astype(np.float64)
    (drawn,) = seen
    assert drawn.sigma is not None
    signal = drawn.signal.astype(np.float64)
    inside = (signal > 40) & (signal < 215)
    spread = ((noisy - signal) / (0.5 + signal / 510.0))[inside].std()
    assert spread == pytest.approx(drawn.sigma, rel=0.05)


def test_the_floor_falls_with_distance() -> None:
    assert confusion_floor(0.0) == pytest.approx(0.5)
    assert confusion_floor(2.0) == pytest.approx(0.1587, abs=1e-4)
    assert confusion_floor(10.0) < 1e-6
    assert rivals("9C") == ["9D", "9H", "9S", "6C", "8C", "5C", "3C"]


def test_the_observer_reads_the_saved_picture(tmp_path: Path) -> None:
    saved = _save(render_scene(SEED, SIZE).image, tmp_path / f"{SEED}.jpg")
    rows = scene_bounds(SEED, SIZE, picture=saved)
    assert {row.card for row in rows} == {"8S", "5D", "KC"}
    for row in rows:
        assert row.nearest == row.card
        assert row.d is not None and row.rival in rivals(row.card)
        assert row.floor == pytest.approx(confusion_floor(row.d), rel=0.01)
        assert row.floor < 1e-6
    # a picture with the 5D's face swapped for the 6D's is read as the 6D there
    other = draw(SEED, SIZE, ("5D", "6D"))[0].image
    lied = scene_bounds(SEED, SIZE, picture=_save(other, tmp_path / "swapped.jpg"))
    assert {row.card: row.nearest for row in lied}["5D"] == "6D"


def test_large_indices_can_be_left_unmeasured() -> None:
    rows = scene_bounds(SEED, SIZE, measure_under=13)  # only the 8S (10 px) and 5D (12 px)
    measured = {row.card for row in rows if row.d is not None}
    assert measured == {"8S", "5D"}
    assert all(row.floor == 0.0 and row.nearest is None for row in rows if row.card == "KC")
    assert all(math.isfinite(row.long_side) for row in rows)


def test_a_split_with_no_scenes_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(naming_bound, "SCENES", tmp_path)
    assert naming_bound.main(["--split", "nowhere", "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("naming_bound: no scenes in") and "\n" not in err
    assert not (tmp_path / "x.json").exists()


def test_a_scene_drawn_without_noise_gives_no_floor_but_is_still_read(tmp_path: Path) -> None:
    seed = 5  # at 160 px: no sensor noise drawn; KH, 4H and 2C, 9-13 px
    assert draw(seed, SIZE)[1].sigma is None
    saved = _save(render_scene(seed, SIZE).image, tmp_path / f"{seed}.jpg")
    rows = scene_bounds(seed, SIZE, picture=saved)
    assert {row.card for row in rows} == {"KH", "4H", "2C"}
    assert all(row.d is None and row.floor == 0.0 and row.rival is None for row in rows)
    assert all(row.nearest == row.card for row in rows)


def test_a_network_that_will_not_load_is_one_line_before_the_long_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kiosk.vision.cards.detector import Detector

    (tmp_path / "val" / "images").mkdir(parents=True)
    _save(render_scene(SEED, SIZE).image, tmp_path / "val" / "images" / f"{SEED}.jpg")
    monkeypatch.setattr(naming_bound, "SCENES", tmp_path)
    monkeypatch.setattr(naming_bound, "Detector", lambda: Detector(tmp_path / "no.onnx"))
    monkeypatch.setattr(naming_bound, "scene_bounds", None)  # never reached
    out = tmp_path / "x.json"
    assert naming_bound.main(["--split", "val", "--detector", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("naming_bound: ") and "no.onnx" in err and "\n" not in err
    assert not out.exists()


def test_an_unreadable_scene_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    images = tmp_path / "val" / "images"
    images.mkdir(parents=True)
    _save(render_scene(SEED, SIZE).image, images / f"{SEED}.jpg")
    (images / "20.jpg").write_bytes(b"not a picture")
    monkeypatch.setattr(naming_bound, "SCENES", tmp_path)
    out = tmp_path / "x.json"
    argv = ["--split", "val", "--workers", "1", "--measure-under", "0", "--out", str(out)]
    assert naming_bound.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"naming_bound: cannot read {images / '20.jpg'}"
    assert not out.exists()
