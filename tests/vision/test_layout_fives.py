"""The table's 5s measured from the enrolment layout (kiosk.vision.layout_fives): the
sizes the score-marker reader tells pips from corner marks by, kept in the deck profile
and read by the kiosk's 5s' watch. The layouts are rendered with decks no network saw
(``datasets/layouts.py``); without their card art these tests are skipped.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from datasets import cards_art
from kiosk.table.marker_watch import MarkerWatch
from kiosk.vision.deck_profile import DeckProfile
from kiosk.vision.detector import Detector
from kiosk.vision.enrolment import learn_deck, read_layout
from kiosk.vision.layout_fives import fives_of_layouts
from kiosk.vision.markers import FiveSizes

DECKS = ("kde-standard", "kde-nicu-white")  # standard indices, and jumbo ones

pytestmark = pytest.mark.skipif(
    not set(DECKS) <= set(cards_art.held_out_decks()) or not cards_art.card_art_installed(),
    reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed",
)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(threads=1)


@pytest.mark.parametrize("deck", DECKS)
def test_each_five_of_the_layout_is_measured_as_its_art_would_be(detector: Detector,
                                                                 deck: str) -> None:
    from datasets.layouts import render_layout

    reading = read_layout(detector, render_layout(deck, 100).image)
    fives = fives_of_layouts([reading])
    laid = {r.card[1] for r in reading.places if r.card and r.card[0] == "5"}
    assert set(fives) == laid and len(laid) == 2
    for suit, (pip, corner) in fives.items():
        art = FiveSizes.of_face(cards_art.load_card(deck, "5" + suit))
        assert pip == pytest.approx(art.pip, rel=0.15)
        assert corner  # the corner marks, which pips are told from


def test_the_profile_keeps_the_fives_and_the_watch_reads_with_them(
        detector: Detector, tmp_path: Path) -> None:
    from dataclasses import replace

    from datasets.layouts import render_layout

    reading = read_layout(detector, render_layout("kde-standard", 100).image)
    profile = replace(learn_deck(detector, [reading.photo]), fives=fives_of_layouts([reading]))
    profile.save(tmp_path / "deck.npz")
    kept = DeckProfile.load(tmp_path / "deck.npz")
    assert kept.fives == profile.fives and len(kept.fives) == 2  # floats kept exactly (JSON)
    watch = MarkerWatch(SimpleNamespace(deck=kept), lambda frame: None, lambda counts: None)
    sizes = watch._deck_sizes()
    assert set(sizes) == set(kept.fives)
    assert all(isinstance(s, FiveSizes) and s.pip == kept.fives[k][0] for k, s in sizes.items())
    assert MarkerWatch(SimpleNamespace(deck=None), lambda f: None, lambda c: None
                       )._deck_sizes() == {}
