"""The camera hook: frames from a video file through a reader into events."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kiosk.table.feed import FeedError, FrameFeed, open_capture, save_frame
from kiosk.vision.events import CardPlayed


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
        return [CardPlayed("N", "JH", t, 0.9)] if frame.mean() > 100 and not got else []

    def on_events(events: list[Any], src: str, frame: Any) -> None:
        got.extend((e, src) for e in events)
        save_frame(tmp_path / "frames" / "h1-t1-N.jpg", frame)
        done.set()

    feed = FrameFeed(capture, source, reader=reader, is_video=True)
    feed.start(on_events)
    assert done.wait(5)
    feed.stop()
    (event, src), = got
    assert src == "video:hand.avi" and event.seat == "N" and event.t > 0
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
