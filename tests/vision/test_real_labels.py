"""The corners this project adds to the real photos' labels: parsed right, and sane."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasets.classes import CLASS_ID
from datasets.real_photos import ADDED_CORNERS, PHOTO_SIDE, added_corners, split_list


def test_added_corners_parse_to_normalised_centre_boxes(tmp_path: Path) -> None:
    path = tmp_path / "added.txt"
    path.write_text("# a comment\n\nIMG_1.jpg 5D 64 128 128 320  # trailing note\n")
    found = added_corners(path)
    assert list(found) == ["IMG_1"]
    [(card, box)] = found["IMG_1"]
    assert card == "5D" and box == pytest.approx((0.15, 0.35, 0.1, 0.3))


def test_committed_corners_name_known_photos_cards_and_boxes() -> None:
    photos = set(split_list("train")) | set(split_list("test"))
    found = added_corners(ADDED_CORNERS)
    assert sum(len(v) for v in found.values()) >= 40
    for stem, boxes in found.items():
        assert f"{stem}.jpg" in photos
        for card, (cx, cy, w, h) in boxes:
            assert card in CLASS_ID
            assert 0 < w < 0.3 and 0 < h < 0.3
            assert cx - w / 2 >= 0 and cx + w / 2 <= 1 + 1e-6
            assert cy - h / 2 >= 0 and cy + h / 2 <= 1 + 1e-6


def test_photo_side_matches_the_photos() -> None:
    cv2 = pytest.importorskip("cv2")
    from datasets.real_photos import REAL_DIR

    first = REAL_DIR / "images" / split_list("test")[0]
    if not first.exists():
        pytest.skip("real photos not present")
    assert cv2.imread(str(first)).shape[:2] == (PHOTO_SIDE, PHOTO_SIDE)
