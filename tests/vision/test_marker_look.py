"""A closer look where each side's 5s lie: the far side's pair seen from a tablet at
South's edge, which the whole frame's boxes miss or box only in part, is read from the
boxes of the frame's region around it (kiosk.vision.fives.marker_look)."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import cards_art
from datasets.marker_stills import random_places, render_still
from kiosk.rules.cards import Team
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.detection import Detection
from kiosk.vision.cards.detector import DEFAULT_MODEL
from kiosk.vision.fives import markers
from kiosk.vision.fives.marker_look import look_at_markers, region_around
from kiosk.vision.fives.print_sizes import FiveSizes

DECK = "kde-standard"
needs_art = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed()
    or not DEFAULT_MODEL.exists(), reason="needs the held-out deck's art and the model")


@pytest.fixture(scope="module")
def detector():  # type: ignore[no-untyped-def]
    from kiosk.vision.cards.detector import Detector

    return Detector()


def far_side_still(seed: int, count: int):  # type: ignore[no-untyped-def]
    """A tablet's still with North/South's 5s along North's edge (the far one)."""
    places = random_places(np.random.default_rng(seed))
    assert places["NS"].edge == "N"
    shown = {"NS": count, "EW": 2}
    still = render_still(DECK, "tablet", shown, shown, places,
                         {"NS": ("H", "D"), "EW": ("S", "C")}, seed)
    h, w = still.image.shape[:2]
    calibration = Calibration.from_corners(still.corners, (w, h), view="tablet")
    last_seen = {Team.NS: (places["NS"].x, places["NS"].y)}
    sizes = {s: FiveSizes.of_face(cards_art.load_card(DECK, "5" + s)) for s in "CDHS"}
    return still, calibration, last_seen, sizes


@needs_art
@pytest.mark.parametrize(("seed", "count"), [(417, 3), (496, 6), (411, 4)])
def test_the_far_sides_fives_are_read_from_a_closer_look(detector, seed: int,  # type: ignore[no-untyped-def]
                                                         count: int) -> None:
    """Seeds 417 and 496: the whole frame boxes no 5 of the pair (a face-down top card,
    a face-up one); seed 411: it sees a pip beside the face-down top card but names no
    5. (Seed 408, whose whole frame missed a corner and read one pip short, is read
    right from the whole frame by the reader of 28 November.)"""
    still, calibration, last_seen, sizes = far_side_still(seed, count)
    whole = markers.read_markers(still.image, detector.detect(still.image), calibration,
                                 last_seen, sizes)[Team.NS]
    assert whole.count != count, "the whole frame reads this pair now: pick a harder one"
    closer = look_at_markers(still.image, detector, calibration, last_seen, sizes)
    assert closer[Team.NS].count == count, closer[Team.NS]


class Recording:
    """The detector's calls, and nothing found (what the closer look asks for)."""

    iou = 0.5

    def __init__(self) -> None:
        self.rois: list[tuple[int, ...] | None] = []

    def detect(self, image: np.ndarray, roi: object = None) -> list[Detection]:
        self.rois.append(None if roi is None else tuple(roi))  # type: ignore[arg-type]
        return []


def test_only_where_a_sides_fives_were_seen_is_looked_at_closely() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    calibration = Calibration.default("overhead", (640, 480))
    recording = Recording()
    look_at_markers(frame, recording, calibration, {Team.EW: (0.05, 0.8)})
    assert recording.rois[0] is None  # the whole frame first
    assert len(recording.rois) == 2  # then East/West's place alone
    x1, y1, x2, y2 = recording.rois[1]  # type: ignore[misc]
    assert (x1, y1) == (0, y1) and x2 < 640 / 2 and y2 > 480 / 2  # the table's left, low


def test_a_place_off_the_picture_gets_no_closer_look() -> None:
    calibration = Calibration.default("overhead", (640, 480))
    assert region_around(calibration, (5.0, 5.0), (480, 640)) is None
    x1, y1, x2, y2 = region_around(calibration, (0.5, 0.5), (480, 640))  # type: ignore[misc]
    assert 0 < x1 < 320 < x2 < 640 and 0 < y1 < 240 < y2 < 480
