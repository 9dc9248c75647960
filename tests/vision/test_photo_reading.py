"""Reading a photo at the resolution its indices need: one pass when they are large
enough, tiles when the whole picture shrank them past reading."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import cards_art
from datasets.reading_score import ReadingScore
from kiosk.vision.cards.detector import Detector
from kiosk.vision.cards.photo_reading import fine_scale, read_photo

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(threads=1)


def test_a_photo_with_large_indices_is_read_in_one_pass(detector: Detector) -> None:
    image = cv2.imread(str(sorted(FIXTURES.glob("*.jpg"))[0]))
    found = detector.detect(image)
    assert found and fine_scale(detector, image, found) is None
    assert read_photo(detector, image) == found


def test_nothing_found_is_looked_for_again_only_in_a_much_shrunk_picture(
        detector: Detector) -> None:
    assert fine_scale(detector, np.zeros((1440, 2560, 3), np.uint8), []) == 1.0
    assert fine_scale(detector, np.zeros((640, 640, 3), np.uint8), []) is None


@pytest.mark.skipif("kde-nicu-white" not in cards_art.held_out_decks()
                    or not cards_art.card_art_installed(), reason="card art not installed")
def test_small_indices_are_read_again_in_tiles_and_more_cards_found(
        detector: Detector) -> None:
    from datasets.layouts import render_table_shots

    whole, photo = ReadingScore(), ReadingScore()
    again = 0
    for shot in render_table_shots("kde-nicu-white", 0, 6):
        found = detector.detect(shot.image)
        again += fine_scale(detector, shot.image, found) is not None
        whole.add(shot.labels, [(d.card, d.box) for d in found])
        photo.add(shot.labels, [(d.card, d.box) for d in read_photo(detector, shot.image)])
    assert again >= 2 and photo.cards_found > whole.cards_found
