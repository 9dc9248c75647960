"""The camera hook: a frame source feeding a trick reader, events into the session.

    frames (cv2.VideoCapture: camera N or a video file)
      -> reader(frame, t) -> iterable of kiosk.vision.events
      -> on_events(events, source)      (the app moves them to the UI thread)

The trick reader is plugged in as any callable `reader(frame, t)`; until one
is given the feed uses `null_reader` and the players tap what the camera
would have seen. Frames are read in a background thread so a slow detector
never freezes the touchscreen; the session itself is only ever touched from
the UI thread (one writer to the journal).

`t` is what makes a sighting's idempotency key: wall-clock seconds for a
camera (so keys never repeat across restarts) and the position in the file
for a video (so replaying the file after a restart re-sends the same keys and
nothing is counted twice).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kiosk.vision.events import VisionEvent

Reader = Callable[[Any, float], Iterable[VisionEvent]]
#: (events, source, the frame they were read from)
EventSink = Callable[[list[VisionEvent], str, Any], None]
FrameSink = Callable[[Any], None]


class FeedError(Exception):
    """The camera or video cannot be opened; the message is one line for the user."""


def null_reader(frame: Any, t: float) -> Iterable[VisionEvent]:
    """No trick reader yet: frames are shown, nothing is read from them."""
    return ()


def open_capture(camera: int | None = None, video: str | None = None) -> tuple[Any, str]:
    """Open a camera index or a video file with OpenCV; (capture, source name)."""
    import os

    # OpenCV and FFmpeg log their own failures at length; the user gets our one line.
    os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    import cv2

    if video is not None:
        if not Path(video).is_file():
            raise FeedError(f"cannot open video {video!r}: no such file")
        capture = cv2.VideoCapture(video)
        source = f"video:{Path(video).name}"
        what = f"video {video!r}"
        why = "not a video OpenCV can read"
    else:
        capture = cv2.VideoCapture(int(camera or 0))
        source = f"camera:{camera}"
        what = f"camera {camera}"
        why = "is it connected? try another number"
    if not capture.isOpened():
        raise FeedError(f"cannot open {what} ({why})")
    if video is None:
        ask_for_a_readable_picture(capture)
    ok, _frame = capture.read()
    if not ok:
        capture.release()
        raise FeedError(f"cannot read a frame from {what}")
    if video is not None:
        capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
    return capture, source


#: the largest picture asked of a camera: indices need pixels (models/README.md, "Deck
#: profiles": the smallest index read reliably), and a camera gives its largest mode
#: that fits; more than this costs the detector's tiles for no index a table shows
BEST_RESOLUTION = (1920, 1080)


#: frames the camera's automatic exposure is given to settle on the table before it is
#: held (about half a second)
SETTLING_FRAMES = 15


def ask_for_a_readable_picture(capture: Any) -> tuple[int, int]:
    """Ask the camera for its largest picture up to :data:`BEST_RESOLUTION`, let its
    automatic exposure settle on the table, then hold that exposure, where it lets us;
    returns the picture size it gives.

    A webcam opens at 640 x 480 by default, where a card's corner index at arm's length
    is a dozen pixels; and automatic exposure hunts as hands and white cards come and
    go, so the same card reads dim in one frame and washed out in the next. A camera
    that refuses either keeps its own setting (OpenCV answers False; nothing fails).
    """
    import cv2

    width, height = BEST_RESOLUTION
    # one frame queued at most: a slow reader gets the table as it is now, not as it was
    capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
    for _ in range(SETTLING_FRAMES):
        capture.read()
    # manual exposure keeps the value the automatic one settled on; V4L2 calls it 1,
    # other backends 0.25: ask for one, then the other
    if not capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1):
        capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)
    return int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))


def frame_pause(began: float, now: float, period: float) -> float:
    """How long to wait before the camera's next frame: only what is left of the frame's
    period. A slow machine (a Raspberry Pi takes most of the period to read a frame)
    reads the next frame at once instead of idling a whole period after each.

    >>> frame_pause(10.0, 10.02, 1 / 15) > 0.04, frame_pause(10.0, 10.2, 1 / 15)
    (True, 0.0)
    """
    return max(0.0, began + period - now)


def save_frame(path: str | Path, frame: Any) -> None:
    """Keep the frame a card was read from: the renege screen shows it as evidence."""
    import cv2

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 80])


class FrameFeed:
    """Reads frames in a background thread and hands on what the reader saw.

    A video can be held on its first frame (`hold=True`) until `release()`:
    a recorded hand starts when the bidding is over, as the players would
    start playing, so the reader knows who leads before the first card.
    `pace` scales a video's speed (0.1: ten times faster) for demos and tests;
    its `t` stays the file's own time, so what is read does not change.
    """

    def __init__(self, capture: Any, source: str, reader: Reader = null_reader,
                 is_video: bool = False, fps: float = 15.0, hold: bool = False,
                 pace: float = 1.0) -> None:
        self.capture = capture
        self.source = source
        self.reader = reader
        self.is_video = is_video
        self.fps = fps
        self.pace = pace
        self._stop = threading.Event()
        self._go = threading.Event()
        if not hold:
            self._go.set()
        #: set once a video has played to its end
        self.ended = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, on_events: EventSink, on_frame: FrameSink | None = None) -> None:
        self._thread = threading.Thread(target=self._run, args=(on_events, on_frame),
                                        name="frames", daemon=True)
        self._thread.start()

    def release(self) -> None:
        """Start playing a held video (from the UI thread: the hand is in play)."""
        self._go.set()

    @property
    def held(self) -> bool:
        return not self._go.is_set()

    def _run(self, on_events: EventSink, on_frame: FrameSink | None) -> None:
        try:
            self._loop(on_events, on_frame)
        finally:
            self.ended.set()

    def _loop(self, on_events: EventSink, on_frame: FrameSink | None) -> None:
        import cv2

        rate = float(self.capture.get(cv2.CAP_PROP_FPS) or 0) if self.is_video else 0.0
        rate = rate if rate > 0 else self.fps
        if not self._go.is_set():
            ok, first = self.capture.read()
            if ok and on_frame is not None:
                on_frame(first)  # the table as it stands, while the players bid
            while not self._go.wait(0.1):
                if self._stop.is_set():
                    return
            self.capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
        index = 0
        start = time.monotonic()
        while not self._stop.is_set():
            began = time.monotonic()
            ok, frame = self.capture.read()
            if not ok:
                if self.is_video:
                    return  # the video ended; the session keeps what it saw
                time.sleep(0.2)
                continue
            if self.is_video:
                # the file's own clock (frame number / rate): the same keys on every replay
                t = index / rate
                index += 1
                # play a file at its own speed (times pace), not as fast as it decodes
                lag = t * self.pace - (time.monotonic() - start)
                if lag > 0:
                    time.sleep(lag)
            else:
                t = time.time()
            events = list(self.reader(frame, t))
            if events:
                on_events(events, self.source, frame)
            if on_frame is not None:
                on_frame(frame)
            if not self.is_video:
                time.sleep(frame_pause(began, time.monotonic(), 1.0 / self.fps))

    def stop(self) -> None:
        self._stop.set()
        self._go.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.capture.release()
