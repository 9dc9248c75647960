"""Held-out decks and the rendered enrolment photos (``datasets/layouts.py``).

Deck enrolment is measured on decks no network trained on; these tests keep those decks
out of training and check that the rendered layout is labelled as the grid of
``kiosk/vision/decks/deck_layout.py`` says. Rendering needs the card art (gnome-cards-data,
kdegames-card-data-kf5 and rsvg-convert); without it these tests are skipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from datasets import cards_art  # noqa: E402
from datasets.layouts import (  # noqa: E402
    EUCHRE_AND_FIVES,
    RenderedPhoto,
    render_layout,
    render_table_shots,
    write_photo_set,
)
from kiosk.vision.decks.deck_layout import FIVE, place_at  # noqa: E402

#: small pictures keep the tests fast; every index is still a few pixels over MIN_BOX
SIZE = (640, 360)


def _installed(deck: str) -> bool:
    return deck in cards_art.held_out_decks() and cards_art.card_art_installed()


pytestmark = pytest.mark.skipif(
    not any(_installed(deck) for deck in cards_art.HELD_OUT_DECKS),
    reason="card art (kdegames-card-data-kf5, gnome-cards-data, rsvg-convert) not installed",
)


@pytest.fixture(params=sorted(cards_art.HELD_OUT_DECKS))
def deck(request: pytest.FixtureRequest) -> str:
    if not _installed(request.param):
        pytest.skip(f"{request.param} is not installed")
    return request.param


_LAYOUTS: dict[str, RenderedPhoto] = {}


def _any_deck() -> str:
    """An installed held-out deck, for the tests that need one deck only."""
    return next(deck for deck in sorted(cards_art.HELD_OUT_DECKS) if _installed(deck))


def _layout(deck: str) -> RenderedPhoto:
    """Seed 3's layout of a deck, rendered once for all the tests that only look at it."""
    if deck not in _LAYOUTS:
        _LAYOUTS[deck] = render_layout(deck, 3, SIZE)
    return _LAYOUTS[deck]


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """A box's centre as a share of the picture (place coordinates)."""
    x1, y1, x2, y2 = box
    return (x1 + x2) / 2 / SIZE[0], (y1 + y2) / 2 / SIZE[1]


def test_every_euchre_card_and_five_loads_with_two_index_boxes(deck: str) -> None:
    for card in EUCHRE_AND_FIVES:
        face = cards_art.load_card(deck, card)
        h, w = face.shape[:2]
        assert face.shape[2] == 4 and abs(w - cards_art.CARD_WIDTH) <= 8, (card, face.shape)
        boxes = cards_art.index_boxes(deck, card)
        assert len(boxes) == 2, card
        (x1, y1, x2, y2), (u1, v1, u2, v2) = boxes
        assert x2 < 0.35 * w and y2 < 0.5 * h, (card, "top-left box not in its corner")
        assert u1 > 0.65 * w and v1 > 0.5 * h, (card, "bottom-right box not in its corner")
        assert 1.8 < (y2 - y1) / (x2 - x1) < 3.5, (card, "not a rank over its suit")


def test_held_out_decks_are_never_trained_on() -> None:
    for name in cards_art.HELD_OUT_DECKS:
        assert name not in cards_art.DECKS
        assert name not in cards_art.usable_decks()
        assert name not in cards_art.table_decks()
        assert cards_art.deck_info(name).licence.startswith("GPL-2+")


def test_layout_labels_each_card_in_its_place(deck: str) -> None:
    photo = _layout(deck)
    assert photo.image.shape == (SIZE[1], SIZE[0], 3) and photo.image.dtype == np.uint8
    assert photo.deck == deck
    names = {card for card, _box in photo.labels}
    assert len(names) == 26
    for card, box in photo.labels:
        place = place_at(*_centre(box))
        assert place is not None, (card, box)
        assert place.card == (FIVE if card[0] == "5" else card), (card, place)
    fives = sorted(name for name in names if name[0] == "5")
    assert fives in (["5D", "5H"], ["5C", "5S"])


def test_missing_and_swapped_cards_are_labelled_as_laid(deck: str) -> None:
    photo = render_layout(deck, 3, SIZE, missing=["QH"], swapped={"9C": "6C"}, fives=("5C", "5S"))
    names = {card for card, _box in photo.labels}
    assert "QH" not in names and "9C" not in names
    assert {"6C", "5C", "5S"} <= names and len(names) == 25
    places = {place_at(*_centre(box)).card for card, box in photo.labels if card == "6C"}
    assert places == {"9C"}


def test_a_card_with_no_place_is_refused() -> None:
    with pytest.raises(ValueError):
        render_layout(_any_deck(), 0, SIZE, missing=["2C"])
    with pytest.raises(ValueError):
        render_layout(_any_deck(), 0, SIZE, swapped={"9C": "6X"})


def test_the_same_seed_gives_the_same_photo() -> None:
    deck = _any_deck()
    again = render_layout(deck, 3, SIZE)
    assert np.array_equal(again.image, _layout(deck).image)
    assert again.labels == _layout(deck).labels


def test_table_shots_show_only_euchre_cards_and_fives() -> None:
    shots = render_table_shots(_any_deck(), 5, 2, SIZE)
    assert len(shots) == 2
    # each shot draws from its own stream: asking for fewer does not change the first
    again = render_table_shots(_any_deck(), 5, 1, SIZE)[0]
    assert np.array_equal(again.image, shots[0].image) and again.labels == shots[0].labels
    for shot in shots:
        assert shot.image.shape == (SIZE[1], SIZE[0], 3)
        assert shot.labels and {card for card, _box in shot.labels} <= set(EUCHRE_AND_FIVES)


def test_write_photo_set_writes_parseable_labels(tmp_path: Path) -> None:
    photo = _layout(_any_deck())
    write_photo_set([photo, photo], tmp_path)
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == ["0000.jpg", "0001.jpg"]
    lines = (tmp_path / "labels" / "0001.txt").read_text().splitlines()
    assert len(lines) == len(photo.labels) + len(photo.ignore)
    ignored = [(card, box) for card, box in photo.truth() if card is None]
    assert [line.split()[0] for line in lines[len(photo.labels):]] == ["IGNORE"] * len(ignored)
    for line, (card, box) in zip(lines, photo.labels, strict=False):
        name, *numbers = line.split()
        cx, cy, w, h = (float(v) for v in numbers)
        assert name == card and 0 < cx < 1 and 0 < cy < 1 and 0 < w < 1 and 0 < h < 1
        assert (cx, cy) == pytest.approx(_centre(box), abs=1e-5)


def test_indices_that_show_in_part_are_ignored_not_labelled() -> None:
    from datasets.layouts import render_table_shots

    shots = render_table_shots(_any_deck(), 0, 8)
    assert any(shot.ignore for shot in shots)  # cards overlap a little, some cut by edges
    for shot in shots:
        truth = shot.truth()
        assert len(truth) == len(shot.labels) + len(shot.ignore)
        assert all(card is None for card, _ in truth[len(shot.labels):])
