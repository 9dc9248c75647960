"""The camera check: a rendered layout as a good camera gives it, then with each fault a
real table has (too far, blurred, dark, washed out), and the one sentence each calls for."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets import cards_art
from kiosk.vision.camera.camera_check import check_picture

DECK = "kde-standard"

pytestmark = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
    reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed",
)


@pytest.fixture(scope="module")
def layout() -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    from datasets.layouts import render_layout

    photo = render_layout(DECK, 11, size=(1280, 720))
    return photo.image, [box for _, box in photo.labels]


def test_a_good_picture_needs_nothing_changed(layout) -> None:
    image, boxes = layout
    check = check_picture(image, boxes)
    assert check.readable and check.advice == ()
    assert check.index_pixels is not None and check.index_pixels >= 20


@pytest.mark.parametrize("fault, words", [
    ("far", "Bring the camera closer"),
    ("blurred", "The picture is blurred"),
    ("dark", "too dark"),
    ("washed", "washed out"),
])  # fmt: skip
def test_each_fault_is_said_in_one_plain_sentence(layout, fault: str, words: str) -> None:
    image, boxes = layout
    if fault == "far":  # the same table from twice as far: every index half as tall
        image = cv2.resize(image, None, fx=0.45, fy=0.45, interpolation=cv2.INTER_AREA)
        boxes = [tuple(v * 0.45 for v in b) for b in boxes]
    elif fault == "blurred":
        image = cv2.GaussianBlur(image, (0, 0), 3.5)
    elif fault == "dark":
        image = (image * 0.2).astype(np.uint8)
    else:  # a lamp's reflection over the top two rows of cards
        image = image.copy()
        image[: image.shape[0] // 2] = np.clip(image[: image.shape[0] // 2] * 0.3 + 200, 0,
                                               255).astype(np.uint8)
    advice = check_picture(image, boxes).advice
    assert any(words in line for line in advice), advice
    assert len([line for line in advice if words in line]) == 1
    assert all(line.endswith(".") and "\n" not in line for line in advice)


def test_no_card_found_asks_for_cards(layout) -> None:
    image, _ = layout
    assert check_picture(image, []).advice[0].startswith("No card found in the picture")
