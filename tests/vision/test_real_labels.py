"""The corners this project adds to the real photos' labels: parsed right, and sane."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasets.classes import CLASS_ID
from datasets.real_photos import (
    ADDED_CORNERS,
    PHOTO_SIDE,
    added_corners,
    corrected_labels,
    split_list,
)


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


def test_a_correction_renames_or_drops_the_source_box_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datasets import real_photos

    (tmp_path / "labels").mkdir()
    # source ids: 32 = AC, 35 = AS (SOURCE_NAMES order)
    (tmp_path / "labels" / "IMG_1.txt").write_text(
        "35 0.5 0.5 0.1 0.1\n35 0.2 0.2 0.1 0.1\n32 0.8 0.8 0.1 0.1\n"
    )
    fixes = tmp_path / "fixes.txt"
    fixes.write_text(
        "# labelled corrected box\n"
        "IMG_1.jpg AS AC 288 288 352 352  # a club\n"
        "IMG_1.jpg AC - 480 480 544 544\n"
    )
    monkeypatch.setattr(real_photos, "REAL_DIR", tmp_path)
    monkeypatch.setattr(real_photos, "corrected_labels", lambda: corrected_labels(fixes))
    monkeypatch.setattr(real_photos, "added_corners", lambda: {})
    fixed = real_photos.read_labels("IMG_1")
    assert [card for card, _ in fixed] == ["AC", "AS"]
    assert fixed[0][1] == pytest.approx((0.5, 0.5, 0.1, 0.1))
    assert [card for card, _ in real_photos.read_labels("IMG_1", added=False)] == ["AS", "AS", "AC"]


def test_every_committed_correction_names_one_source_box_and_a_known_card() -> None:
    from datasets.real_photos import CORRECTED_LABELS, DROPPED, REAL_DIR, read_labels

    if not (REAL_DIR / "labels").is_dir():
        pytest.skip("real photos not present")
    photos = set(split_list("train")) | set(split_list("test"))
    fixes = corrected_labels(CORRECTED_LABELS)
    assert sum(len(v) for v in fixes.values()) >= 9
    for stem, rows in fixes.items():
        assert f"{stem}.jpg" in photos
        source = read_labels(stem, added=False)
        fixed = [c for c, _ in read_labels(stem)]
        for labelled, corrected, box in rows:
            assert corrected in CLASS_ID or corrected == DROPPED
            same = [c for c, b in source if c == labelled and b == pytest.approx(box, abs=1e-3)]
            assert len(same) == 1, (stem, labelled, box)
        dropped = sum(1 for _, corrected, _ in rows if corrected == DROPPED)
        assert len(fixed) == len(source) - dropped + len(added_corners().get(stem, []))
