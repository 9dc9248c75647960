"""YOLO training pictures cut from rendered hands (``datasets.hand_frames``).

The proposal network should learn indices at the size the kiosk's detector shows them:
a tablet's frame warped top-down and shrunk until an index keeps about
``INDEX_PIXELS`` pixels, an overhead frame cut to the play area and shrunk the same way.
These tests render short clips and check the pictures, their labels and the data file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
handvideo = pytest.importorskip("datasets.handvideo")
from datasets.cards_art import card_art_installed  # noqa: E402
from datasets.classes import CLASSES  # noqa: E402
from datasets.hand_frames import (  # noqa: E402
    BACK,
    WINDOW,
    cut_window,
    hand_windows,
    main,
    write,
    write_data_yaml,
)
from kiosk.vision.pipeline import INDEX_PIXELS  # noqa: E402

RECORD = {
    "dealer": "N",
    "turn_up": "9H",
    "bids": [{"seat": "E", "call": "order", "alone": False}],
    "tricks": [["E:AS", "S:9S", "W:KS", "N:TS"]],
}


def _index_sides(window) -> list[float]:
    h, w = window.image.shape[:2]
    return [max(bw * w, bh * h) for cls, (_x, _y, bw, bh) in window.labels if cls != BACK]


@pytest.mark.skipif(not card_art_installed(), reason="card art not installed")
@pytest.mark.parametrize("view", ["tablet", "overhead"])
def test_a_rendered_hand_becomes_pictures_at_the_kiosk_detectors_scale(
    tmp_path: Path, view: str
) -> None:
    video = tmp_path / f"hand-0006-{view}.mp4"
    size = tuple(2 * side for side in handvideo.VIEW_SIZES[view])  # as the benchmark's
    handvideo.render_hand(RECORD, video, seed=6, view=view, fps=6, size=size)
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    windows = list(hand_windows(video, step=2))
    assert len(windows) >= 10
    raw_sides = []
    for window in windows:
        assert window.image.shape[0] <= WINDOW and window.image.shape[1] <= WINDOW
        frame = int(window.name.rsplit("-f", 1)[1])
        drawn = {b["card"] for b in truth["frames"][frame]}
        named = {CLASSES[cls] for cls, _ in window.labels}
        assert named <= drawn  # every label is a card the renderer drew in that frame
        assert named - {"back"}  # and every picture teaches at least one index
        for _cls, (cx, cy, bw, bh) in window.labels:
            assert 0 < cx < 1 and 0 < cy < 1 and 0 < bw <= 1 and 0 < bh <= 1
        raw_sides += [
            max(b["box"][2] - b["box"][0], b["box"][3] - b["box"][1])
            for b in truth["frames"][frame]
            if b["card"] != "back"
        ]
    sides = [s for window in windows for s in _index_sides(window)]
    # indices as small as the detector sees them (about INDEX_PIXELS, the longer side of a
    # turned index's box a little more), not as large as the rendered frame draws them
    assert 0.8 * INDEX_PIXELS <= np.median(sides) <= 2.0 * INDEX_PIXELS
    assert np.median(raw_sides) > 1.4 * np.median(sides)
    # the same seed cuts the same pictures
    again = list(hand_windows(video, step=2))
    assert [w.name for w in again] == [w.name for w in windows]
    assert all(np.array_equal(a.image, b.image) for a, b in zip(again, windows, strict=True))
    # cut for a larger training size (--window 384): the same frames, more table around
    # each index, and the index at the same scale (the network's, not the window's)
    wide = list(hand_windows(video, step=2, window=384))
    assert [w.name for w in wide] == [w.name for w in windows]
    assert max(max(w.image.shape[:2]) for w in wide) == 384
    assert np.median([s for w in wide for s in _index_sides(w)]) == pytest.approx(
        np.median(sides), rel=0.1
    )


def test_a_window_keeps_an_index_only_when_most_of_it_is_inside() -> None:
    picture = np.zeros((700, 900, 3), np.uint8)
    inside = (400.0, 300.0, 410.0, 314.0, 0)
    rng = np.random.default_rng(1)
    image, labels = cut_window(picture, [inside], rng, side=320)
    assert image.shape == (320, 320, 3)
    assert [cls for cls, _ in labels] == [0]  # the window is placed on the index
    cx, cy, bw, bh = labels[0][1]
    assert bw * 320 == pytest.approx(10) and bh * 320 == pytest.approx(14)
    # an index cut in half by the window's edge is left out, not taught as a half index
    half_out = (-5.0, 100.0, 5.0, 114.0, 3)
    _, labels = cut_window(
        picture[:, :320], [half_out, (100.0, 100.0, 110.0, 114.0, 2)], rng, side=320
    )
    assert [cls for cls, _ in labels] == [2]


def test_a_picture_smaller_than_the_window_is_kept_whole() -> None:
    picture = np.full((200, 260, 3), 50, np.uint8)
    image, labels = cut_window(picture, [(10.0, 20.0, 20.0, 34.0, 5)], np.random.default_rng(0))
    assert image.shape == (200, 260, 3)
    assert labels[0][1] == pytest.approx((15 / 260, 27 / 200, 10 / 260, 14 / 200))


@pytest.mark.skipif(not card_art_installed(), reason="card art not installed")
def test_the_pictures_join_the_training_data(tmp_path: Path) -> None:
    (tmp_path / "hands").mkdir()
    handvideo.render_hand(
        RECORD, tmp_path / "hands" / "hand-0007-tablet.mp4", seed=7, view="tablet", fps=6
    )
    generated = tmp_path / "generated"
    base = generated / "cards-real6.yaml"
    generated.mkdir()
    base.write_text(
        yaml.safe_dump(
            {
                "path": str(generated),
                "train": ["scenes/train/images", "real_train6/images"],
                "val": "scenes/val/images",
                "names": {0: "9C"},
            }
        )
    )
    out = generated / "hand_frames"
    assert (
        main([str(tmp_path / "hands"), "--out", str(out), "--base", str(base), "--step", "3"]) == 0
    )
    images = sorted((out / "images").glob("*.jpg"))
    assert images
    for image in images:
        rows = (out / "labels" / f"{image.stem}.txt").read_text().split("\n")
        assert all(len(row.split()) == 5 for row in rows if row)
    data = yaml.safe_load((generated / "cards-hands.yaml").read_text())
    assert data["train"] == ["scenes/train/images", "real_train6/images", "hand_frames/images"]
    assert data["names"][52] == "back" and data["val"] == "scenes/val/images"
    write_data_yaml(out, base)  # written again: the pictures are listed once
    again = yaml.safe_load((generated / "cards-hands.yaml").read_text())
    assert again["train"] == data["train"]
    assert write(iter([]), out) == 0


def test_no_rendered_hands_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no rendered hands" in err


@pytest.mark.parametrize("option", [["--window", "0"], ["--step", "0"]])
def test_a_window_or_step_that_cannot_cut_pictures_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    assert main([str(tmp_path), *option]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--window 32 or more" in err
