"""The camera hook: frames from a video file through a reader into events."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kiosk.rules.cards import Seat
from kiosk.table.feed import FeedError, FrameFeed, open_capture, save_frame
from kiosk.vision.events import CardPlayed, face


def _video(path: Path, frames: int = 6) -> Path:
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    for i in range(frames):
        writer.write(np.full((48, 64, 3), i * 30, dtype=np.uint8))
    writer.release()
    return path


def test_a_video_feeds_the_reader_and_its_events_come_out(tmp_path: Path) -> None:
    capture, source = open_capture(video=str(_video(tmp_path / "hand.avi")))
    assert source == "video:hand.avi"
    got: list[tuple[Any, str]] = []
    done = threading.Event()

    def reader(frame: Any, t: float) -> list[CardPlayed]:
        return [CardPlayed(Seat.N, face("JH"), t, 0.9)] if frame.mean() > 100 and not got else []

    def on_events(events: list[Any], src: str, frame: Any) -> None:
        got.extend((e, src) for e in events)
        save_frame(tmp_path / "frames" / "h1-t1-N.jpg", frame)
        done.set()

    feed = FrameFeed(capture, source, reader=reader, is_video=True)
    feed.start(on_events)
    assert done.wait(5)
    feed.stop()
    (event, src), = got
    assert src == "video:hand.avi" and event.seat is Seat.N and event.t > 0
    assert (tmp_path / "frames" / "h1-t1-N.jpg").stat().st_size > 0


def test_a_missing_video_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(FeedError, match="no such file"):
        open_capture(video=str(tmp_path / "nope.mp4"))


def test_a_held_video_shows_its_first_frame_and_reads_nothing_until_released(
        tmp_path: Path) -> None:
    capture, source = open_capture(video=str(_video(tmp_path / "hand.avi", frames=8)))
    times: list[float] = []
    shown: list[float] = []
    feed = FrameFeed(capture, source, reader=lambda f, t: times.append(t) or [],
                     is_video=True, hold=True, pace=0.01)
    feed.start(lambda *_a: None, on_frame=lambda f: shown.append(float(f.mean())))
    threading.Event().wait(0.3)
    assert feed.held and times == [] and shown == [0.0]  # the first frame only
    feed.release()
    assert feed.ended.wait(5)
    feed.stop()
    # from the first frame again, timed by the file (30 fps), not by the wall clock
    assert times == pytest.approx([i / 30 for i in range(8)])


class _Webcam:
    """A camera that takes what it is asked within its own modes (the hardware apart)."""

    def __init__(self, modes: list[tuple[int, int]], manual: set[float]) -> None:
        import cv2

        self.cv2, self.modes, self.manual = cv2, modes, manual
        self.size = (640, 480)
        self.asked: dict[int, float] = {}
        self.exposure_held_after = -1
        self.reads = 0

    def set(self, prop: int, value: float) -> bool:
        self.asked[prop] = value
        if prop == self.cv2.CAP_PROP_FRAME_WIDTH:
            fitting = [m for m in self.modes if m[0] <= value]
            self.size = max(fitting) if fitting else self.size
            return True
        if prop == self.cv2.CAP_PROP_AUTO_EXPOSURE:
            if value in self.manual:
                self.exposure_held_after = self.reads
                return True
            return False
        return True

    def get(self, prop: int) -> float:
        return float(self.size[0] if prop == self.cv2.CAP_PROP_FRAME_WIDTH else self.size[1])

    def read(self) -> tuple[bool, None]:
        self.reads += 1
        return True, None


def test_a_camera_is_asked_for_its_best_picture_and_a_settled_exposure() -> None:
    from kiosk.table.feed import SETTLING_FRAMES, ask_for_a_readable_picture

    webcam = _Webcam([(640, 480), (1280, 720), (1920, 1080), (3840, 2160)], {0.25})
    assert ask_for_a_readable_picture(webcam) == (1920, 1080)
    assert webcam.exposure_held_after == SETTLING_FRAMES  # held once it had settled


def test_a_camera_that_refuses_keeps_its_own_settings() -> None:
    from kiosk.table.feed import ask_for_a_readable_picture

    webcam = _Webcam([(640, 480)], set())
    assert ask_for_a_readable_picture(webcam) == (640, 480)
    assert webcam.exposure_held_after == -1
