"""The players' 5s read from rendered stills by the shipped detector and
kiosk.vision.fives.markers: every count from 0 to 10, in the table's own deck (a held-out
one), from above and from a tablet at South's edge; what cannot be read is said, never
guessed."""

from __future__ import annotations

import doctest

import cv2
import numpy as np
import pytest

from datasets import cards_art
from datasets.marker_stills import Still, random_places, render_still
from kiosk.rules.cards import Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.detector import DEFAULT_MODEL
from kiosk.vision.fives import face_down as fives_face_down
from kiosk.vision.fives import markers
from kiosk.vision.fives import patch as fives_patch
from kiosk.vision.fives import pips as fives_pips
from kiosk.vision.fives.print_sizes import FiveSizes
from kiosk.vision.fives.reading import MarkerReading

DECK = "kde-standard"
pytestmark = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed()
    or not DEFAULT_MODEL.exists(), reason="needs the held-out deck's art and the model")


@pytest.fixture(scope="module")
def detector():  # type: ignore[no-untyped-def]
    from kiosk.vision.cards.detector import Detector

    return Detector()


def rendered(deck: str, count_ns: int, count_ew: int, view: str, seed: int) -> Still:
    """A still of the table with each side's 5s at its count (the seed places them)."""
    shown = {"NS": count_ns, "EW": count_ew}
    return render_still(deck, view, shown, shown, random_places(np.random.default_rng(seed)),
                        {"NS": ("H", "D"), "EW": ("S", "C")}, seed)


def read_still(detector, still: Still, deck: str, view: str,  # type: ignore[no-untyped-def]
               places_of: dict[Team, tuple[float, float]] | None = None
               ) -> dict[Team, MarkerReading]:
    """The still read with the deck's 5s' sizes from its art."""
    h, w = still.image.shape[:2]
    calibration = Calibration.from_corners(still.corners, (w, h), view=view)
    sizes = {s: FiveSizes.of_face(cards_art.load_card(deck, "5" + s)) for s in "CDHS"}
    return markers.read_markers(still.image, detector.detect(still.image), calibration,
                                places_of, sizes)


def read(detector, count_ns: int, count_ew: int, view: str, seed: int,  # type: ignore[no-untyped-def]
         places_of: dict[Team, tuple[float, float]] | None = None
         ) -> dict[Team, MarkerReading]:
    return read_still(detector, rendered(DECK, count_ns, count_ew, view, seed), DECK, view,
                      places_of)


@pytest.mark.parametrize("count", range(1, 11))
def test_each_count_is_read_from_above(detector, count: int) -> None:  # type: ignore[no-untyped-def]
    readings = read(detector, count, 10 - count if count != 10 else 5, "overhead", 100 + count)
    assert readings[Team.NS].count == count, readings[Team.NS]


@pytest.mark.parametrize("count", [1, 4, 6, 9])
def test_counts_are_read_from_a_tablet(detector, count: int) -> None:  # type: ignore[no-untyped-def]
    readings = read(detector, count, count, "tablet", 200 + count)
    assert readings[Team.NS].count == count, readings[Team.NS]


def test_nought_is_read_where_the_fives_lie_face_down(detector) -> None:  # type: ignore[no-untyped-def]
    readings = read(detector, 0, 3, "overhead", 300)
    assert readings[Team.NS].count == 0, readings[Team.NS]
    assert readings[Team.EW].count == 3, readings[Team.EW]


def test_a_side_with_no_fives_on_the_table_is_not_read_as_nought(detector) -> None:  # type: ignore[no-untyped-def]
    """Its 5s were seen at the table's far corner; now nothing lies there."""
    readings = read(detector, 0, 4, "overhead", 301, places_of={Team.NS: (0.5, 0.5)})
    assert readings[Team.NS].count is None
    assert "no face-down card" in readings[Team.NS].why


def test_a_picture_with_no_fives_reads_nothing(detector) -> None:  # type: ignore[no-untyped-def]
    blank = np.full((480, 480, 3), (40, 110, 50), np.uint8)
    readings = markers.read_markers(blank, detector.detect(blank),
                                    Calibration.default("overhead", (480, 480)))
    assert all(r.count is None for r in readings.values())


def test_the_examples_in_the_docstrings() -> None:
    from kiosk.vision.fives import print_sizes, reading

    for part in (markers, fives_pips, fives_face_down, print_sizes, reading):
        assert doctest.testmod(part).failed == 0, part.__name__


def test_nought_is_read_where_a_picture_back_the_detector_does_not_name_lies(detector) -> None:  # type: ignore[no-untyped-def]
    """The nicu-white deck's back is a picture of four aces: no ``back`` is named, so the
    face-down pair is found by its outline, and the aces' pips on it are no 5's pips."""
    deck = "kde-nicu-white"
    if deck not in cards_art.held_out_decks():
        pytest.skip("needs the held-out deck's art")
    still = rendered(deck, 4, 0, "overhead", 30)
    h, w = still.image.shape[:2]
    found = detector.detect(still.image)
    assert not [d for d in found if d.card == "back"]
    readings = markers.read_markers(still.image, found,
                                    Calibration.from_corners(still.corners, (w, h)))
    assert readings[Team.EW].count == 0, readings[Team.EW]
    assert readings[Team.EW].place is not None


def test_nought_is_read_on_a_two_hued_tablecloth(detector) -> None:  # type: ignore[no-untyped-def]
    """A checked or striped cloth has two hues: a picture back is found by its outline
    against both (and the blend along their edges), not against their median, which
    one of them is as far from as the back is."""
    deck = "kde-nicu-white"
    if deck not in cards_art.held_out_decks():
        pytest.skip("needs the held-out deck's art")
    still = rendered(deck, 0, 3, "overhead", 305)
    assert still.info["surface"] == "tablecloth"
    readings = read_still(detector, still, deck, "overhead")
    assert readings[Team.NS].count == 0, readings[Team.NS]


def test_a_cloth_of_two_hues_is_told_from_one() -> None:
    rng = np.random.default_rng(0)
    plain = rng.normal((150.0, 130.0), 3.0, (5000, 2))
    checked = np.concatenate([plain, rng.normal((110.0, 170.0), 3.0, (4000, 2))])
    one, two = fives_face_down.table_hues(plain), fives_face_down.table_hues(checked)
    # a plain cloth's spread split in two halves, each near its hue
    assert np.linalg.norm(one - (150, 130), axis=1).max() < 5
    assert sorted(np.round(two).tolist()) == [[110.0, 170.0], [150.0, 130.0]]
    assert fives_face_down.off_table_hue(np.array([[110.0, 170.0]]), one)[0] > \
        fives_face_down.OTHER_HUE
    # the blend along the checks' edges is the cloth; a blue back is not
    blend, blue = np.array([[130.0, 150.0]]), np.array([[140.0, 80.0]])
    assert fives_face_down.off_table_hue(blend, two)[0] < 2 < fives_face_down.OTHER_HUE
    assert fives_face_down.off_table_hue(blue, two)[0] > fives_face_down.OTHER_HUE


def test_nought_never_seen_is_not_confused_with_the_other_sides_top_card(detector) -> None:  # type: ignore[no-untyped-def]
    """North-South's 5s were never seen; East-West's lie at a corner of the table with a
    face-down top card (3). A corner ends two edges, so that back lies at a corner end
    of North-South's edges too: it is East-West's, and North-South's nought is the one
    other face-down card at a corner end."""
    readings = read(detector, 0, 3, "overhead", 302)
    assert readings[Team.EW].count == 3, readings[Team.EW]
    assert readings[Team.NS].count == 0, readings[Team.NS]


#: the standard deck's red 5s' sizes as a table learnt them (card widths squared)
STANDARD_RED = [("D", FiveSizes(0.0184, ())),
                ("H", FiveSizes(0.0309, (0.0053, 0.0107)))]


def test_a_blurred_pair_is_measured_at_its_top_cards_scale() -> None:
    """A blurred still measures every mark larger than printed: the standard deck's
    diamonds (0.0184 card widths², hearts 0.0309) measure 0.0258, nearer a heart. Taken
    at the scale of the top card's five pips, they are diamonds and the lone larger mark
    is the bottom 5's heart; the corners' diamonds are corner marks, not pips."""
    sizes = STANDARD_RED
    top = [(258, i, 0) for i in range(5)]
    (pips,) = fives_pips._pips_at_the_top_cards_scale(
        [*top, (402, 9, 9), (176, 7, 7), (169, 8, 8)], sizes, 100.0)
    assert sorted(pips) == sorted([*top, (402, 9, 9)])
    # five hearts measured as printed beside two diamonds' pips
    hearts = [(309, i, 0) for i in range(5)]
    readings = fives_pips._pips_at_the_top_cards_scale([*hearts, (190, 7, 7), (180, 8, 8)], sizes,
                                                    100.0)
    assert [len(pips) for pips in readings] == [7]


def test_a_pair_that_adds_up_at_both_scales_offers_both_counts() -> None:
    """Five marks between the two suits' pips and one smaller: five hearts and a diamond
    (6), or five diamonds and a heart's corner mark (5). Both are offered, and the reader
    leaves it to the sizes as learnt (taking either suit's reading as ambiguous turned
    a twentieth of the bench's right reads into "cannot read")."""
    sizes = STANDARD_RED
    blobs = [(240, i, 0) for i in range(5)] + [(160, 9, 9)]
    readings = fives_pips._pips_at_the_top_cards_scale(blobs, sizes, 100.0)
    assert sorted(len(pips) for pips in readings) == [5, 6]
    # two suits printed alike are never told apart by size: left to the absolute sizes
    alike = [("C", FiveSizes(0.0254, ())), ("S", FiveSizes(0.0265, ()))]
    assert fives_pips._pips_at_the_top_cards_scale(blobs, alike, 100.0) == []


def test_the_paper_in_a_shadow_is_the_5s_paper() -> None:
    """A lamp lights the 5's corner and a shadow's edge falls over its far pips: the
    shaded paper (58 % of the corner's lightness) is still the card's paper, so the pips
    on it count; the table beside it, darker still, is not paper."""
    lab = np.full((120, 200, 3), (90.0, 128.0, 128.0), np.float32)  # a grey table
    lab[20:100, 20:180] = (240.0, 128.0, 128.0)  # the card, lit ...
    lab[20:100, 100:180, 0] = 140.0  # ... and in shadow beyond its middle
    corner = np.zeros((120, 200), bool)
    corner[25:45, 25:45] = True
    paper = fives_patch.paper(lab, corner, card_area=160.0 * 160.0)
    assert paper[20:100, 20:180].all()
    assert not paper[:15].any() and not paper[105:].any()


def _outline(points: list[tuple[int, int]]) -> tuple[np.ndarray, float]:
    mask = np.zeros((60, 60), np.uint8)
    cv2.fillPoly(mask, [np.array(points, np.int32)], 1)
    contour = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0][0]
    return contour, float(mask.sum())


def test_a_corners_blurred_rank_is_told_from_a_diamond() -> None:
    """A standard deck's blurred "5" beside its corner's diamond measured as large as a
    diamond pip (0.014 of a card width squared against 0.019) and counted as one: it is
    1.76 times longer than wide, a diamond about 1.4."""
    diamond = _outline([(30, 10), (40, 24), (30, 38), (20, 24)])  # 20 wide, 28 high
    rank = _outline([(22, 10), (38, 10), (38, 38), (22, 38)])  # 16 by 28: 1.75
    run_together = _outline([(25, 5), (35, 5), (35, 50), (25, 50)])
    assert not fives_pips._glyph(*diamond)
    assert fives_pips._glyph(*rank) and fives_pips._glyph(*run_together)


def _pair_read_with(monkeypatch, others: list[Detection],  # type: ignore[no-untyped-def]
                    as_face_up: int | None, as_face_down: int | None
                    ) -> tuple[MarkerReading, list[bool]]:
    """South's pair (a 5 of clubs by South's edge) read with ``others`` beside it, each
    way of reading its pips giving the count told: the reading chosen, and the ways
    asked for (True: under a face-down top)."""
    calibration = Calibration.from_corners(((0, 0), (1000, 0), (1000, 1000), (0, 1000)),
                                           (1000, 1000))
    five = Detection("5C", 0.9, (480.0, 880.0, 500.0, 910.0))
    asked: list[bool] = []

    def count_pair(image, fives, dets, calibration, side, place, sizes,  # type: ignore[no-untyped-def]
                   face_down_top):
        asked.append(face_down_top)
        count = as_face_down if face_down_top else as_face_up
        return MarkerReading(side, count, place=place, why="" if count else "no pip")

    monkeypatch.setattr(markers, "count_pair", count_pair)
    image = np.zeros((1000, 1000, 3), np.uint8)
    return markers.read_markers(image, [five, *others], calibration)[Team.NS], asked


def test_another_faces_index_on_the_pair_is_read_as_a_picture_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The nicu-white deck's back shows a fan of aces, read as an ace of clubs on the
    pair (bench seed 46, hand 77: two pips shown, three read as under a face-up top)."""
    ace = Detection("AC", 0.78, (400.0, 860.0, 420.0, 890.0))  # a card width away
    reading, asked = _pair_read_with(monkeypatch, [ace], as_face_up=3, as_face_down=2)
    assert reading.count == 2 and asked == [True]


def test_a_pair_that_adds_up_only_under_a_face_up_top_is_read_so(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Where the pips under a face-down top add up to nothing, the other reading stands
    (bench seed 4600, hand 35: the one pip shown measures as large as the jumbo corner's
    suit by the learnt sizes)."""
    ace = Detection("AC", 0.69, (400.0, 860.0, 420.0, 890.0))
    reading, asked = _pair_read_with(monkeypatch, [ace], as_face_up=1, as_face_down=None)
    assert reading.count == 1 and asked == [True, False]


def test_a_card_away_from_the_pair_changes_nothing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A face lying three card widths off (a trick, a player's card) is no part of it;
    a named back on the pair is read as a face-down top alone."""
    far = Detection("AC", 0.9, (200.0, 860.0, 220.0, 890.0))
    reading, asked = _pair_read_with(monkeypatch, [far], as_face_up=7, as_face_down=2)
    assert reading.count == 7 and asked == [False]
    back = Detection("back", 0.9, (420.0, 840.0, 470.0, 900.0))
    reading, asked = _pair_read_with(monkeypatch, [back], as_face_up=7, as_face_down=2)
    assert reading.count == 2 and asked == [True]
