"""The table keeps learning its deck during play (kiosk.table.deck_learning): the real
detector reads rendered table shots of a deck no network saw through the kiosk's frame
pipeline, the session's finished hands say which cards counted, and what is learnt is
read with from the next frame, kept beside the table's set-up profile and found again
after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from datasets import cards_art
from kiosk.app.words import learning_words
from kiosk.table.deck_learning import (
    TableDeckLearning,
    accepted_cards,
    corrected_cards,
    learnt_path,
    load_learnt,
)
from kiosk.table.hand_log import Correction, FinishedHand
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.detector import Detector
from kiosk.vision.decks.deck_profile import SHIPPED, DeckProfile
from kiosk.vision.pipeline import FramePipeline

DECK = "kde-standard"

pytestmark = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
    reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed",
)


@dataclass
class Session:
    """What the learning reads of the table session."""

    finished: list[FinishedHand] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(threads=1)


@pytest.fixture(scope="module")
def hands() -> list[list[Any]]:
    """Four hands of three rendered table shots each."""
    from datasets.layouts import render_table_shots

    shots = render_table_shots(DECK, 21, 12)
    return [shots[k : k + 3] for k in range(0, 12, 3)]


def seats_of(shot: Any, calibration: Calibration) -> list[tuple[str, str]]:
    """(seat, card) for each card of a shot with an index in a seat's zone."""
    out = set()
    for card, box in shot.labels:
        point = calibration.to_table(np.array([[(box[0] + box[2]) / 2,
                                                (box[1] + box[3]) / 2]]))[0]
        seat = calibration.zones.seat_at((float(point[0]), float(point[1])))
        if seat is not None:
            out.add((str(seat), card))
    return sorted(out)


def play_hands(detector: Detector, learning: TableDeckLearning, hands: list[list[Any]],
               session: Session, corrected: dict[int, list[tuple[str, str]]] | None = None,
               first: int = 1) -> None:
    """Each hand's shots through the frame pipeline and the learning, then the hand
    finished in the session (its cards in one trick: the learning reads only which)."""
    corrected = corrected or {}
    for number, shots in enumerate(hands, start=first):
        h, w = shots[0].image.shape[:2]
        calibration = Calibration.default("overhead", (w, h))
        pipeline = FramePipeline(detector, calibration=calibration, use_mat=False)
        counted: dict[str, str] = {}  # card -> the seat that played it (a card is played once)
        for t, shot in enumerate(shots):
            pipeline(shot.image, float(t))
            learning.look(number, pipeline)
            counted |= {card: seat for seat, card in seats_of(shot, calibration)
                        if card not in counted}
        record = {"tricks": [[f"{seat}:{card}" for card, seat in counted.items()]]}
        session.finished.append(FinishedHand(number, "N", record, {}, {}))
        for seat, card in corrected.get(number, []):
            other = card[0] + {"C": "S", "S": "C", "H": "D", "D": "H"}[card[1]]
            session.corrections.append(Correction(number, 1, seat, other, card, 0))
        learning.follow(session)


def test_a_finished_hand_says_which_cards_counted_and_which_were_corrected() -> None:
    record = {"tricks": [["E:AS", "S:9S", "W:KS", "N:TS"], ["E:JH", "S:10D"]]}
    assert accepted_cards(record)[-1] == ("S", "TD")
    fixes = [Correction(3, 1, "W", "QS", "QC", 10), Correction(3, 2, "N", None, "9H", 11),
             Correction(2, 1, "E", "AS", "AC", 5), Correction(3, 2, "E", "TD", "TD", 12)]
    # a card added where the camera saw none, or confirmed as read, is no correction
    assert corrected_cards(fixes, 3) == [("W", "QS"), ("W", "QC")]


def test_play_teaches_the_table_and_the_frame_thread_reads_with_it(
        detector: Detector, hands: list[list[Any]], tmp_path: Path) -> None:
    detector.use_deck(None)
    deck_file = tmp_path / "table-1-deck.npz"
    learning = TableDeckLearning(detector, lambda: deck_file, start=lambda work: work())
    session = Session()
    try:
        play_hands(detector, learning, hands, session)
        refits = learning.learner.refits
        assert refits, "four hands are enough to try a refit"
        assert detector.deck is None  # nothing changes until the frame thread takes it
        if refits[-1].adopted:
            assert learning.last_note is not None
            assert "read with it now" in learning_words(learning.last_note)
            learning.adopt()
            learnt = detector.deck
            assert learnt is not None and learnt.grown_from == SHIPPED
            assert learnt_path(deck_file).is_file()
            assert load_learnt(deck_file, None) is not None  # found again after a restart
            assert load_learnt(deck_file, learnt) is not None  # learning on keeps its origin
            enrolled = DeckProfile({"index": detector.namer.head()},  # type: ignore[union-attr]
                                   ("QC",), "enrolled at set-up")
            assert load_learnt(deck_file, enrolled) is None  # the table enrolled since
        else:
            assert not learnt_path(deck_file).exists()
    finally:
        detector.use_deck(None)


def test_a_restart_resumes_what_play_taught(detector: Detector, tmp_path: Path) -> None:
    detector.use_deck(None)
    head = detector.namer.head()  # type: ignore[union-attr]
    deck_file = tmp_path / "table-2-deck.npz"
    taught = DeckProfile({"index": head}, ("QC",), "learnt in play", 0, 4, grown_from=SHIPPED)
    taught.save(learnt_path(deck_file))
    learning = TableDeckLearning(detector, lambda: deck_file, start=lambda work: work())
    try:
        learning.follow(Session())
        learning.adopt()
        assert detector.deck is not None and detector.deck.fingerprint() == taught.fingerprint()
        assert learning.learner.origin == SHIPPED
    finally:
        detector.use_deck(None)


def test_corrected_cards_never_reach_the_pool(detector: Detector, hands: list[list[Any]],
                                             tmp_path: Path) -> None:
    detector.use_deck(None)
    learning = TableDeckLearning(detector, lambda: None, start=lambda work: work())
    h, w = hands[0][0].image.shape[:2]
    counted = [seen for shot in hands[0]
               for seen in seats_of(shot, Calibration.default("overhead", (w, h)))]
    assert counted
    session = Session()
    play_hands(detector, learning, hands[:1], session, corrected={1: counted})
    assert learning.learner.cards == 0
    play_hands(detector, learning, hands[:1], session, first=2)
    assert learning.learner.cards > 0  # the same cards, let stand, teach


def test_a_deck_handed_out_while_a_hand_is_learnt_wins(
        detector: Detector, hands: list[list[Any]], tmp_path: Path) -> None:
    """The director's deck arrives (the screen's thread swaps it in) while the worker
    still learns a hand from the deck before: what grew from the old deck is dropped."""
    detector.use_deck(None)
    waiting: list[Any] = []
    hold = False

    def start(work: Any) -> None:
        waiting.append(work) if hold else work()

    learning = TableDeckLearning(detector, lambda: tmp_path / "table-3-deck.npz", start=start)
    try:
        session = Session()
        play_hands(detector, learning, hands[:3], session)
        hold = True  # the last hand is still being learnt when the deck arrives
        play_hands(detector, learning, hands[3:], session, first=4)
        handed = DeckProfile({"index": detector.namer.head()},  # type: ignore[union-attr]
                             ("QC",), "Club's Bicycle jumbo")
        detector.use_deck(handed)
        learnt_path(tmp_path / "table-3-deck.npz").unlink(missing_ok=True)
        tried = len(learning.learner.refits)
        for work in waiting:
            work()
        assert len(learning.learner.refits) > tried and learning.learner.refits[-1].adopted
        learning.adopt()
        assert detector.deck is handed
        assert not learnt_path(tmp_path / "table-3-deck.npz").exists()
        learning.follow(session)  # the next change: learning starts again from it
        assert learning.learner.profile is handed
    finally:
        detector.use_deck(None)
