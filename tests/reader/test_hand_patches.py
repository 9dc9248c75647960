"""Classifier patches cut from rendered hand videos (``datasets.index_crops --hands``).

The trick reader meets cards in video frames: sliding, at a tablet's angle, through the
video's compression. These tests render short clips and check that their frames become
patches named after the cards the renderer drew, that a tablet's frames are cut as the
kiosk's detector reads them (warped top-down), and that a face-down card is never
taught as background.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
handvideo = pytest.importorskip("datasets.handvideo")
from datasets.cards_art import card_art_installed  # noqa: E402
from datasets.index_crops import (  # noqa: E402
    LABELS,
    NONE_ID,
    UNNAMED,
    build,
    hand_truth,
    patches_for,
)
from kiosk.vision.camera.calibration import Calibration  # noqa: E402
from kiosk.vision.camera.rectify import TableView  # noqa: E402

RECORD = {
    "dealer": "N",
    "turn_up": "9H",
    "bids": [{"seat": "E", "call": "order", "alone": False}],
    "tricks": [["E:AS", "S:9S", "W:KS", "N:TS"]],
}


@pytest.mark.skipif(not card_art_installed(), reason="card art not installed")
def test_frames_of_a_rendered_hand_become_patches_of_its_cards(tmp_path: Path) -> None:
    video = tmp_path / "hand-0001-overhead.mp4"
    handvideo.render_hand(RECORD, video, seed=5, view="overhead", fps=6)
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    items = list(hand_truth(tmp_path, step=4))
    # every 4th frame, with the renderer's boxes of that frame
    assert len(items) == (len(truth["frames"]) + 3) // 4
    frame, labels = items[-1]
    assert frame.ndim == 3 and frame.shape[2] == 3
    drawn = truth["frames"][4 * (len(items) - 1)]
    named = sorted(LABELS[c] for c, _ in labels if c != UNNAMED)
    assert named == sorted(b["card"] for b in drawn if b["card"] != "back")
    for _, (cx, cy, w, h) in labels:  # normalised, inside the picture
        assert 0 < cx < 1 and 0 < cy < 1 and 0 < w < 1 and 0 < h < 1
    x, y, _ = build([("clip", iter(items), 1, False)], None)
    played = {LABELS[i] for i in y} - {"none"}
    # the played cards are among the patches' names, and no name the renderer did not draw
    drawn_names = {b["card"] for boxes in truth["frames"][::4] for b in boxes} - {"back"}
    assert {"AS", "9S", "KS", "TS"} <= played == drawn_names
    assert x.shape[1:] == (32, 32, 3)


def test_a_proposal_on_a_face_down_card_is_not_taught_as_background() -> None:
    image = np.full((200, 200, 3), 90, np.uint8)
    face_down = (20.0, 20.0, 80.0, 110.0)  # as the renderer boxes a face-down card
    pile = (10.0, 15.0, 75.0, 100.0)  # the proposal: the pile it lies in
    elsewhere = (150.0, 150.0, 160.0, 164.0)
    rng = np.random.default_rng(0)
    out = list(patches_for(image, [], rng, 1, [pile, elsewhere], randoms=0, unnamed=[face_down]))
    assert [cls for _, cls in out] == [NONE_ID]  # only the empty place is background


@pytest.mark.skipif(not card_art_installed(), reason="card art not installed")
def test_a_tablet_clip_is_cut_as_the_kiosk_detector_sees_it(tmp_path: Path) -> None:
    """A tablet's frames are warped top-down before detection, so its patches are cut
    from the warped square: there, the far seat's indices are about as large as the near
    seat's (in the raw frame they differ twice over or more)."""
    video = tmp_path / "hand-0002-tablet.mp4"
    handvideo.render_hand(RECORD, video, seed=6, view="tablet", fps=6)
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    width, height = truth["size"]
    items = list(hand_truth(tmp_path, step=4))
    view = TableView.for_calibration(Calibration.default("tablet", (width, height)))
    assert view is not None
    assert all(picture.shape[:2] == (view.size[1], view.size[0]) for picture, _ in items)

    def played(boxes: list[dict]) -> list[dict]:  # the trick's cards, not the 5s beside it
        return [b for b in boxes if b["card"] in {"AS", "9S", "KS", "TS"}]

    # the frame where most of the trick lies on the table
    number = max(range(len(items)), key=lambda k: len(played(truth["frames"][4 * k])))
    picture, labels = items[number]
    drawn = played(truth["frames"][4 * number])
    assert {b["card"] for b in drawn} == {"AS", "9S", "KS", "TS"}
    side = picture.shape[0]  # (square) each index's longer side, in pixels:
    trick = [(LABELS[c], max(w, h) * side) for c, (_x, _y, w, h) in labels
             if c != UNNAMED and LABELS[c] in {"AS", "9S", "KS", "TS"}]
    assert sorted(name for name, _ in trick) == sorted(b["card"] for b in drawn)

    def spread(sides: list[float]) -> float:
        return max(sides) / min(sides)

    raw = [max(b["box"][2] - b["box"][0], b["box"][3] - b["box"][1]) for b in drawn]
    assert spread(raw) > 2.0 and spread([h for _, h in trick]) < 1.5


@pytest.mark.skipif(not card_art_installed(), reason="card art not installed")
def test_suit_patches_from_hands_alone_validate_on_other_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--suits --no-scenes --hands A --val-hands B``: the suit reader's wide patches
    from one set of rendered hands, validated on another, with no scenes generated; a
    folder without rendered hands is one clear line and status 2."""
    import datasets.index_crops as index_crops

    monkeypatch.setattr(index_crops, "real_truth", lambda split: iter(()))  # no photos here
    train, val = tmp_path / "train", tmp_path / "val"
    for folder, seed, view in ((train, 5, "overhead"), (val, 6, "tablet")):
        folder.mkdir()
        handvideo.render_hand(RECORD, folder / "hand-0001.mp4", seed=seed, view=view, fps=6)
    out = tmp_path / "suits.npz"
    args = ["--suits", "--patch", "48", "--margin", "6", "--no-scenes", "--hand-step", "4",
            "--hands", str(train), "--val-hands", str(val), "--out", str(out)]
    assert index_crops.main(args) == 0
    with np.load(out) as saved:
        assert [str(v) for v in saved["labels"]] == ["C", "D", "H", "S"]
        assert saved["x"].shape[1:] == (48, 48, 3) and float(saved["margin"]) == 6.0
        # the trick is all spades; the 5s lying as score markers give the other suits
        assert 3 in saved["y"] and 3 in saved["val_y"] and len(saved["val_y"]) > 0
        assert len(saved["val_y"]) < len(saved["y"])  # every 12th frame, not every 4th
    empty = tmp_path / "empty"
    empty.mkdir()
    assert index_crops.main([*args[:-4], "--val-hands", str(empty), "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"no rendered hands (hand-*.mp4 with .truth.json) in {empty}"
    ]
