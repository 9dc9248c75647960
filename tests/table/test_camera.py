"""The camera's reader: which detector reads the picture, and the pipeline following
the hand; then the bundled demo video read through the real vision pipeline into a
table session, as `kiosk run` does, without a window."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from devtools.run import oracle_choice
from kiosk.app.demo import DemoDriver, start_demo
from kiosk.app.presenter import TablePresenter
from kiosk.app.words import detector_line, detector_short, notice_words
from kiosk.rules.cards import Seat, Suit
from kiosk.table.camera import CameraLink, HandFollower, choose_detector
from kiosk.table.feed import FrameFeed, open_capture
from kiosk.table.session import TableSession
from kiosk.vision.brief import HandBrief
from kiosk.vision.pipeline import FramePipeline

ROOT = Path(__file__).resolve().parents[2]
VIDEO = ROOT / "kiosk" / "assets" / "demo-hand.mp4"
needs_video = pytest.mark.skipif(not VIDEO.is_file(), reason="the demo video is not built")
EUCHRE_AND_FIVES = [r + s for s in "CDHS" for r in "59TJQKA"]


class NamesEverything:
    """A 'model' that names every card on every frame: it finds every true corner."""

    path = "fake.onnx"

    def detect(self, image: Any) -> list[dict[str, Any]]:
        return [{"card": c, "confidence": 0.9, "box": [0, 0, 1, 1]} for c in EUCHRE_AND_FIVES
                for _ in range(4)]


class SeesNothing(NamesEverything):
    def detect(self, image: Any) -> list[dict[str, Any]]:
        return []


def _no_model() -> Any:
    raise RuntimeError("model file not found: models/cards.onnx")


@needs_video
def test_without_a_model_the_kiosk_has_the_players_tap() -> None:
    """A kiosk carries no stand-in detector: without the model, the players tap."""
    choice = choose_detector(VIDEO, load_model=_no_model)
    assert choice.detector is None and choice.name == "none"
    assert "model file not found" in detector_line(choice)
    with pytest.raises(ValueError, match="unknown card detector 'oracle'"):
        choose_detector(VIDEO, "oracle", load_model=_no_model)


@needs_video
def test_without_a_model_the_demo_is_read_by_the_oracle_and_says_so() -> None:
    """The development tools' fallback (python -m devtools run)."""
    choice = choose_detector(VIDEO, load_model=_no_model, fallback=oracle_choice)
    assert choice.name == "oracle"
    assert "ORACLE" in detector_line(choice) and "model file not found" in detector_line(choice)
    assert "not the trained model" in detector_short(choice)


@needs_video
def test_a_weak_model_is_set_aside_for_the_oracle_and_a_good_one_is_used() -> None:
    weak = choose_detector(VIDEO, load_model=SeesNothing, fallback=oracle_choice)
    assert weak.name == "oracle" and "read only 0%" in detector_line(weak)
    assert choose_detector(VIDEO, load_model=SeesNothing).name == "none"  # a kiosk: taps
    good = choose_detector(VIDEO, load_model=NamesEverything, fallback=oracle_choice)
    assert good.name == "model" and "100%" in detector_line(good)
    forced = choose_detector(VIDEO, "model", load_model=SeesNothing, fallback=oracle_choice)
    assert forced.name == "model"  # asked for by name: used, weak or not


class SeesOnlyTheMarkers(NamesEverything):
    """Names the 5s, the score markers that lie on the table all game, and nothing played."""

    def detect(self, image: Any) -> list[dict[str, Any]]:
        return [d for d in super().detect(image) if d["card"].startswith("5")]


@needs_video
def test_the_sample_is_of_tricks_on_the_table_not_of_the_score_markers() -> None:
    """A model that reads only the markers reads about a third of the sample's cards (two
    5s beside three or four played cards), not the whole of frames showing nothing else."""
    import re

    choice = choose_detector(VIDEO, load_model=SeesOnlyTheMarkers, fallback=oracle_choice)
    assert choice.name == "oracle"
    read = re.search(r"read only (\d+)% of the cards", detector_line(choice))
    assert read is not None and 2 / 6 <= int(read.group(1)) / 100 <= 2 / 5 + 0.005


@needs_video
@pytest.mark.skipif(not (ROOT / "models" / "cards.onnx").is_file(), reason="no exported model")
def test_the_trained_model_reads_the_bundled_demo() -> None:
    """The README's main command shows the real detector: the demo video is a tablet's
    720p picture, which the shipped model reads (the oracle is the fallback only)."""
    choice = choose_detector(VIDEO)
    assert choice.name == "model", detector_line(choice)
    assert "Cards read by the trained detector (cards.onnx, read" in detector_line(choice)


def test_no_model_and_no_ground_truth_means_tapping(tmp_path: Path) -> None:
    choice = choose_detector(tmp_path / "game.mp4", load_model=_no_model)
    assert choice.detector is None and choice.name == "none"
    with pytest.raises(ValueError, match="cannot load the card detector"):
        choose_detector(tmp_path / "game.mp4", "model", load_model=_no_model)


class Recorder:
    def __init__(self) -> None:
        self.hands: list[HandBrief] = []
        self.frames = 0

    def new_hand(self, brief: HandBrief) -> None:
        self.hands.append(brief)

    def __call__(self, frame: Any, t: float) -> list[Any]:
        self.frames += 1
        return []


def test_the_pipeline_hears_of_each_hand_once_when_its_bidding_ends() -> None:
    pipeline = Recorder()
    follower = HandFollower(pipeline)
    follower.follow(HandBrief(hand=1))
    follower(None, 0.0)
    assert pipeline.hands == []  # nobody leads yet: the reader is not told anything
    first = HandBrief(hand=1, leader=Seat.E, trump=Suit.HEARTS)
    follower.follow(first)
    follower(None, 0.1)
    follower.follow(HandBrief(hand=1, leader=Seat.N, trump=Suit.HEARTS))  # trick 2
    follower(None, 0.2)
    second = HandBrief(hand=2, leader=Seat.S, trump=Suit.CLUBS, sitting_out=Seat.W)
    follower.follow(second)
    follower(None, 0.3)
    assert pipeline.hands == [first, second]
    assert pipeline.frames == 4


def play_video(journal: Path, stop_after_tricks: int | None = None) -> TableSession:
    """What `kiosk run` does for the demo, without a window: bids tapped by the demo
    driver, then the held video released and read frame by frame through FramePipeline
    with the oracle; the events go into the session on this (the "UI") thread."""
    session = TableSession.open(journal)
    start_demo(session, deal=True)
    presenter = TablePresenter(session, camera=True)
    driver = DemoDriver(session, pace=0.01, autoplay=False, camera_hands=frozenset({1}))
    capture, source = open_capture(video=str(VIDEO))
    choice = choose_detector(VIDEO, "oracle", fallback=oracle_choice)
    follower = HandFollower(FramePipeline(choice.detector, view="tablet"))
    feed = FrameFeed(capture, source, reader=follower, is_video=True, hold=True, pace=0.01)
    CameraLink(session, presenter, feed, follower, from_start=True).update()
    inbox: list[tuple[list[Any], str]] = []
    lock = threading.Lock()
    shown = threading.Event()

    def on_events(events: list[Any], src: str, _frame: Any) -> None:
        with lock:
            inbox.append((events, src))

    feed.start(on_events, on_frame=lambda _f: shown.set())
    assert shown.wait(5)  # the first frame is shown while the players bid (or at once)

    def won() -> int:
        hand = session.hand
        return 0 if hand is None or hand.view is None else sum(hand.view.tricks_won.values())

    deadline = time.monotonic() + 60
    while session.phase != "hand_over" and time.monotonic() < deadline:
        if stop_after_tricks is not None and won() >= stop_after_tricks:
            break
        driver.tick(0.01)
        with lock:
            batch, inbox[:] = list(inbox), []
        for events, src in batch:
            for event in events:
                session.feed(event, source=src)
        time.sleep(0.005)
    assert not feed.held
    feed.stop()
    return session


@needs_video
def test_the_demo_video_read_by_the_pipeline_plays_the_hand_into_the_session(
        tmp_path: Path) -> None:
    truth = json.loads(VIDEO.with_name("demo-hand.truth.json").read_text())
    session = play_video(tmp_path / "demo.sqlite3")
    assert session.phase == "hand_over"
    assert session.hand is not None and session.hand.view is not None
    assert session.hand.view.record["tricks"] == truth["record"]["tricks"]
    assert session.scores == {"NS": 0, "EW": 1}
    assert any("took back" in notice_words(n) for n in session.notices)  # the reader's own warning


@needs_video
def test_a_kiosk_restarted_mid_hand_replays_the_video_and_counts_nothing_twice(
        tmp_path: Path) -> None:
    truth = json.loads(VIDEO.with_name("demo-hand.truth.json").read_text())
    first = play_video(tmp_path / "demo.sqlite3", stop_after_tricks=2)
    assert first.phase == "playing"
    first.journal.close()
    again = play_video(tmp_path / "demo.sqlite3")  # the video starts over from its first frame
    assert again.phase == "hand_over"
    assert again.hand is not None and again.hand.view is not None
    assert again.hand.view.record["tricks"] == truth["record"]["tricks"]
    assert again.scores == {"NS": 0, "EW": 1}


def test_the_oracle_reads_no_fives(new_session: Any) -> None:
    """The oracle serves the video's truth one frame a call: the 5s' reader, which asks
    for more than one look a frame, would put it out of step with the video, and its
    truth holds no 5s to read. The 5s are read where the trained model reads."""
    from kiosk.commands.run import _feed

    session = new_session("alberta55")  # a rule book that keeps score with 5s
    presenter = TablePresenter(session, camera=True)
    capture, source = open_capture(video=str(VIDEO))
    feed = _feed(session, presenter, capture, source, str(VIDEO),
                 choose_detector(VIDEO, "oracle", fallback=oracle_choice), 0.01, True,
                 learn=False)
    try:
        assert feed.reader.marker_watch is None
    finally:
        capture.release()
