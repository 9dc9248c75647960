"""The table's 5s' sizes learnt from the stills the kiosk reads (kiosk.vision.fives.marker_sizes):
used only once stills agree, a still that disagrees is outvoted, and the sizes a plain
read shows are the deck's own, measured the reader's way."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from kiosk.rules.cards import Team
from kiosk.vision.fives import marker_sizes
from kiosk.vision.fives.marker_sizes import LearntFiveSizes
from kiosk.vision.fives.print_sizes import FiveSizes
from kiosk.vision.fives.reading import MarkerReading


def showing(*seen: tuple[str, float]) -> MarkerReading:
    return MarkerReading(Team.NS, 3, seen=tuple((suit, FiveSizes(pip, (0.008, 0.028)))
                                                for suit, pip in seen))


def test_one_still_is_not_enough() -> None:
    learnt = LearntFiveSizes()
    learnt.add([showing(("H", 0.031))])
    assert learnt.sizes() == {}


def test_two_stills_that_agree_give_the_suits_sizes() -> None:
    learnt = LearntFiveSizes()
    learnt.add([showing(("H", 0.030)), showing(("C", 0.025))])
    learnt.add([showing(("H", 0.032))])
    sizes = learnt.sizes()
    assert set(sizes) == {"H"}
    assert sizes["H"].pip == pytest.approx(0.031)
    # the corner mark all but a pip's size is dropped; the corner's small suit is kept
    assert sizes["H"].corner == (0.008,)


def test_a_still_that_disagrees_is_outvoted_not_averaged() -> None:
    """A diamond 5 named as a heart once: its pips must not pull the hearts' size."""
    learnt = LearntFiveSizes()
    for pip in (0.031, 0.0185, 0.032):
        learnt.add([showing(("H", pip))])
    assert learnt.sizes()["H"].pip == pytest.approx(0.0315)


def test_stills_that_disagree_evenly_teach_nothing() -> None:
    learnt = LearntFiveSizes()
    for pip in (0.031, 0.0185):
        learnt.add([showing(("H", pip))])
    assert learnt.sizes() == {}


def test_only_the_newest_stills_count() -> None:
    """A table handed another deck: its stills outvote the old deck's in time."""
    learnt = LearntFiveSizes()
    for _ in range(4):
        learnt.add([showing(("S", 0.027))])
    for _ in range(marker_sizes.KEPT - 3):
        learnt.add([showing(("S", 0.0084))])
    assert learnt.sizes()["S"].pip == pytest.approx(0.0084)


def test_plain_reads_show_the_decks_own_pip_size() -> None:
    """Rendered stills of a held-out deck, read as the kiosk reads them: the bottom 5
    under a face-down top shows its pips, and the size most stills measured is within a
    tenth of the art's; no count is read wrong on the way."""
    from datasets import cards_art
    from datasets.marker_stills import random_places, render_still
    from kiosk.vision.camera.calibration import Calibration
    from kiosk.vision.cards.detector import DEFAULT_MODEL, Detector
    from kiosk.vision.fives.markers import read_markers

    deck = "kde-standard"
    if deck not in cards_art.held_out_decks() or not DEFAULT_MODEL.exists():
        pytest.skip("needs the held-out deck's art and the model")
    detector = Detector()
    learnt = LearntFiveSizes()
    places = random_places(np.random.default_rng(5))
    for seed in range(40, 46):
        shown = {"NS": 2 + seed % 3, "EW": 3}
        still = render_still(deck, "overhead", shown, shown, places,
                             {"NS": ("D", "H"), "EW": ("S", "C")}, seed)
        h, w = still.image.shape[:2]
        calibration = Calibration.from_corners(still.corners, (w, h), view="overhead")
        readings = read_markers(still.image, detector.detect(still.image), calibration,
                                None, learnt.sizes())
        assert readings[Team.NS].count in (shown["NS"], None), readings[Team.NS]
        learnt.add(readings.values())
    art = FiveSizes.of_face(cards_art.load_card(deck, "5D")).pip
    assert learnt.sizes()["D"].pip == pytest.approx(art, rel=0.1)


def blobs(n: int, area: float, card_w: float = 100.0) -> list[tuple[int, float, float]]:
    return [(round(area * card_w ** 2), float(i), 0.0) for i in range(n)]


def test_the_mate_of_a_known_five_is_learnt_beside_it() -> None:
    """The diamonds' pips known, a face-up heart 5 over them: its five pips of another
    size are the hearts'; a set of the known size, of a corner's size, or of two alone
    teaches nothing."""
    from kiosk.vision.fives.marker_sizes import mate_seen

    red = frozenset({"H", "D"})
    known = {"D": FiveSizes(0.0187, ())}
    [(suit, sizes)] = mate_seen([blobs(5, 0.0304), blobs(3, 0.0187)], red, 100.0, known)
    assert suit == "H" and sizes.pip == pytest.approx(0.0304, rel=0.01)
    assert mate_seen([blobs(5, 0.0190)], red, 100.0, known) == ()
    assert mate_seen([blobs(5, 0.0187), blobs(3, 0.0062)], red, 100.0, known) == ()
    assert mate_seen([blobs(5, 0.0187), blobs(2, 0.0304)], red, 100.0, known) == ()
    assert mate_seen([blobs(5, 0.0304)], red, 100.0, {}) == ()


def test_the_examples_in_the_docstrings() -> None:
    assert doctest.testmod(marker_sizes).failed == 0
