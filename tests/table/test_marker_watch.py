"""The camera reads the players' 5s once a hand, a few seconds into the next deal, and
only at a table that keeps score with them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kiosk.app.demo import RECORD
from kiosk.rules.cards import Team
from kiosk.table.marker_watch import MarkerWatch
from kiosk.table.session import TableSession

Opener = Callable[..., TableSession]
DEMO = json.loads(RECORD.read_text())


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


class StubDetector:
    """Counts its calls; sees nothing (the reader then reads nothing)."""

    calls = 0

    def detect(self, image: Any) -> list[Any]:
        self.calls += 1
        return []


def after_one_hand(new_session: Opener, profile: str) -> TableSession:
    from tests.table.test_session import feed_tricks, play_bids

    s = new_session(profile)
    s.see_turn_up(DEMO["turn_up"])
    play_bids(s, DEMO["bids"])
    feed_tricks(s, DEMO["tricks"])
    return s


def watch_for(clock: Clock, read: list[dict[Team, int | None]]) -> tuple[MarkerWatch, StubDetector]:
    from kiosk.vision.camera.calibration import Calibration

    detector = StubDetector()
    watch = MarkerWatch(detector, lambda f: Calibration.default("overhead", (64, 64)),
                        read.append, clock=clock)
    return watch, detector


FRAME = np.zeros((64, 64, 3), np.uint8)


def dealt_again(new_session: Opener, profile: str
                ) -> tuple[Clock, list[dict[Team, int | None]], MarkerWatch, StubDetector]:
    """A watch following a table whose next hand has just been dealt."""
    s = after_one_hand(new_session, profile)
    s.next_hand()
    clock, read = Clock(), []
    watch, detector = watch_for(clock, read)
    watch.follow(s)
    return clock, read, watch, detector


def test_one_reading_a_few_seconds_into_the_next_deal(new_session: Opener) -> None:
    s = after_one_hand(new_session, "alberta55")
    clock, read = Clock(), []
    watch, detector = watch_for(clock, read)
    watch.follow(s)
    assert not watch.look(FRAME)  # the hand is over, not dealt again yet
    s.next_hand()
    watch.follow(s)
    assert not watch.look(FRAME)  # the players are still moving their 5s
    clock.now += 5
    assert watch.look(FRAME) and detector.calls == 1
    assert read == []  # two more frames to agree with
    assert not watch.look(FRAME)  # the next one comes half a second later
    for _ in range(2):
        clock.now += 0.5
        assert watch.look(FRAME)
    assert detector.calls == 3 and read == [{Team.NS: None, Team.EW: None}]
    s.see_turn_up("9H")  # more changes in the same hand: no second reading
    watch.follow(s)
    clock.now += 5
    assert not watch.look(FRAME) and detector.calls == 3


def test_a_table_without_fives_is_not_read(new_session: Opener) -> None:
    clock, _read, watch, detector = dealt_again(new_session, "tournament")
    clock.now += 10
    assert not watch.look(FRAME) and detector.calls == 0


def test_the_fives_on_a_rendered_still_reach_the_session(new_session: Opener) -> None:
    """The whole way: a still of the table, the shipped detector, the reader, the session."""
    from datasets import cards_art
    from datasets.marker_stills import random_places, render_still
    from kiosk.vision.camera.calibration import Calibration
    from kiosk.vision.cards.detector import DEFAULT_MODEL, Detector
    from kiosk.vision.fives.print_sizes import FiveSizes

    deck = "kde-standard"
    if deck not in cards_art.held_out_decks() or not DEFAULT_MODEL.exists():
        pytest.skip("needs the held-out deck's art and the model")
    s = after_one_hand(new_session, "alberta55")
    s.next_hand()
    assert s.scores == {"NS": 0, "EW": 1}
    shown = {"NS": 2, "EW": 1}  # North-South's 5s are two points ahead of the kiosk
    still = render_still(deck, "overhead", shown, shown,
                         random_places(np.random.default_rng(7)),
                         {"NS": ("H", "D"), "EW": ("S", "C")}, 7, later=2)
    h, w = still.image.shape[:2]
    calibration = Calibration.from_corners(still.corners, (w, h))
    clock = Clock()
    sizes = {x: FiveSizes.of_face(cards_art.load_card(deck, "5" + x)) for x in "CDHS"}
    watch = MarkerWatch(Detector(), lambda f: calibration, s.see_markers, sizes, clock=clock)
    watch.follow(s)
    clock.now += 5
    for frame in [still.image] + still.later:
        assert watch.look(frame)
        clock.now += 0.5
    [dispute] = s.markers.open()
    assert (dispute.side, dispute.fives, dispute.kiosk) == (Team.NS, 2, 0)
    assert set(watch.places) == {Team.NS, Team.EW}


def test_a_count_stands_when_most_frames_agree(new_session: Opener,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """North/South's 5s read 6, 6 and (a hand over them) nothing: 6; East/West's read 3,
    4 and 3: not read, since one frame saw another count."""
    from kiosk.vision.fives import marker_look
    from kiosk.vision.fives.reading import MarkerReading

    frames = iter([{Team.NS: 6, Team.EW: 3}, {Team.NS: 6, Team.EW: 4},
                   {Team.NS: None, Team.EW: 3}])

    def seen(*_args: Any, **_kw: Any) -> dict[Team, MarkerReading]:
        counts = next(frames)
        return {side: MarkerReading(side, n, place=(0.1, 0.9)) for side, n in counts.items()}

    monkeypatch.setattr(marker_look, "look_at_markers", seen)
    clock, read, watch, _detector = dealt_again(new_session, "alberta55")
    clock.now += 5
    for _ in range(3):
        assert watch.look(FRAME)
        clock.now += 0.5
    assert read == [{Team.NS: 6, Team.EW: None}]
    assert set(watch.places) == {Team.NS}
