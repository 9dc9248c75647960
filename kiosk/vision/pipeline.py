"""Frames to table events: detector + calibration + trick reader, for a camera or a file.

Two entry points:

- :class:`FramePipeline` is the callable ``reader(frame, t) -> events`` the table
  feed (``kiosk.table.feed``) plugs in: it runs the detector on each frame,
  calibrates from the first frame (the mat's markers if they are in view, else
  the saved calibration or the view's default), warns when the camera has
  moved, and passes the boxes to a :class:`~kiosk.vision.reader.TrickReader`.
- :func:`read_video` reads a whole recorded hand, or a recorded detection
  stream (JSON), and returns the tricks it saw with every event and timing.

A detector is anything with ``detect(image) -> list`` of CONTRACTS detections
(dicts or objects with ``card``, ``confidence``, ``box``), or a plain callable.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.rules.cards import Seat
from kiosk.vision.brief import HandBrief
from kiosk.vision.camera.calibration import Calibration, CalibrationError
from kiosk.vision.camera.rectify import TableView
from kiosk.vision.cards.detection import Detection
from kiosk.vision.events import ReaderWarning, VisionEvent, WarningKind
from kiosk.vision.reader import ReaderConfig, TrickReader

Detector = Callable[[np.ndarray], Sequence[Any]]

#: how often (seconds of video or camera time) the mat markers are looked for again
RECHECK_EVERY = 10.0
#: how many pixels a printed index should keep in the proposal network's input; a larger
#: picture of the play area is cut into tiles rather than shrunk below this. The
#: classifier names each box from the full-resolution frame, so the proposals need only
#: find the index: on rendered 720p hands 8-18 px found the same share of cards, and 10
#: costs 1 pass overhead and 2 on a tablet's frame, where 18 costs 2 and 6 (README)
INDEX_PIXELS = 10.0
#: the classifier's confidence from which a box goes to the trick reader. Lower than the
#: detector's operating point for a single picture (``detector.CONFIDENCE``, 0.5): the
#: reader adds up what many frames read before it names a card, so a far card read just
#: under the operating point frame after frame is evidence, not noise: kept out, such a
#: card never reaches the reader and is only asked about when its trick is taken in.
#: Chosen on rendered hands the tests do not use (``scripts/bench_reader.py``)
READ_CONFIDENCE = 0.3


def takes_play_area(detector: Any) -> bool:
    """True for a detector whose ``detect`` accepts ``roi`` and ``min_scale`` (ours)."""
    return {"roi", "min_scale"} <= _detect_parameters(detector)


def _detect_parameters(detector: Any) -> set[str]:
    """The names of the parameters the detector's ``detect`` takes (none if it has none)."""
    method = getattr(detector, "detect", None)
    if method is None:
        return set()
    try:
        return set(inspect.signature(method).parameters)
    except (TypeError, ValueError):
        return set()


def play_area_options(
    calibration: Calibration, index_pixels: float = INDEX_PIXELS
) -> dict[str, Any]:
    """``detect()`` keywords that make the detector look at the play area only, in tiles
    fine enough for the indices to keep ``index_pixels`` pixels."""
    return {
        "roi": calibration.play_area_box(),
        "min_scale": index_pixels / max(calibration.index_pixels(), 1.0),
    }


def reading_plan(
    calibration: Calibration, index_pixels: float = INDEX_PIXELS, rectify: bool = True
) -> tuple[TableView | None, dict[str, Any]]:
    """How the detector reads a calibrated camera's frames: the warp to a top-down square
    for a slanted view (None for one looking down) and ``detect()``'s keywords. One rule
    for the kiosk and for the training pictures cut as the kiosk reads them."""
    table_view = TableView.for_calibration(calibration) if rectify else None
    if table_view is not None:
        # the warped square is the play area; every index there is one size
        return table_view, {"min_scale": index_pixels / max(table_view.index_pixels(), 1.0)}
    return None, play_area_options(calibration, index_pixels)


def as_detector(detector: Any) -> Detector:
    """A callable ``image -> detections`` from a detector object or function."""
    if hasattr(detector, "detect"):
        return detector.detect  # type: ignore[no-any-return]
    if callable(detector):
        return detector  # type: ignore[no-any-return]
    raise TypeError(f"not a detector: {detector!r}")


class AreaDetector:
    """``detect(frame)`` as the kiosk runs it on a calibrated camera: the play area only,
    finely enough to keep the indices readable, and for a slanted (tablet) view warped to
    a top-down square first (:mod:`kiosk.vision.camera.rectify`); boxes in the frame's pixels.
    A detector without ``roi``/``min_scale`` (a plain callable) gets the whole frame. Ours
    keeps its boxes from ``confidence`` up (:data:`READ_CONFIDENCE`: what the reader needs)."""

    def __init__(self, detector: Any, calibration: Calibration, *,
                 index_pixels: float = INDEX_PIXELS, rectify: bool = True,
                 confidence: float | None = READ_CONFIDENCE) -> None:
        self.detector = detector
        self.table_view: TableView | None = None
        self.options: dict[str, Any] | None = None
        #: the picture the detector read last and its boxes in that picture's pixels (a
        #: tablet's warped square, else the frame): what learning in play cuts patches from
        self.last_view: tuple[np.ndarray | None, Sequence[Any]] = (None, ())
        self._plain = as_detector(detector)
        if not takes_play_area(detector):
            return
        self.table_view, self.options = reading_plan(calibration, index_pixels, rectify)
        if confidence is not None and "confidence" in _detect_parameters(detector):
            self.options["confidence"] = confidence  # (None: the detector's own)

    def __call__(self, frame: np.ndarray) -> Sequence[Any]:
        if self.table_view is not None:
            square = self.table_view.warp(frame)
            found = self.detector.detect(square, **(self.options or {}))
            self.last_view = (square, found)
            return self.table_view.detections_to_frame(found)
        if self.options is not None:
            found = self.detector.detect(frame, **self.options)
        else:
            found = self._plain(frame)
        self.last_view = (frame, found)
        return found  # type: ignore[no-any-return]


def choose_calibration(frame: np.ndarray, view: str, *, saved: Calibration | None = None,
                       use_mat: bool = True) -> Calibration:
    """How a camera's first frame is calibrated: the mat if the frame shows it, else the
    saved calibration (rescaled to the frame), else the view's default. One rule for the
    kiosk and for the training pictures cut as the kiosk reads them."""
    h, w = frame.shape[:2]
    if use_mat:
        try:
            return Calibration.from_image(frame, view=view)
        except CalibrationError:
            pass
    if saved is not None:
        return saved.scaled((w, h)) if saved.image_size != (w, h) else saved
    return Calibration.default(view, (w, h))


class FramePipeline:
    """``reader(frame, t) -> events``: one frame through detector, calibration and reader."""

    def __init__(self, detector: Any, *, calibration: Calibration | None = None,
                 view: str = "overhead", brief: HandBrief | None = None,
                 config: ReaderConfig | None = None, use_mat: bool = True,
                 index_pixels: float = INDEX_PIXELS, rectify: bool = True,
                 box_confidence: float | None = READ_CONFIDENCE) -> None:
        self.index_pixels = index_pixels
        self.box_confidence = box_confidence
        #: warp a slanted (tablet) view to a top-down one before detecting (our detector)
        self.rectify = rectify
        self._detector = detector
        #: the detector as run on this camera's frames, once calibrated
        self.detect: AreaDetector | None = None
        self.calibration = calibration
        self.view = view
        self.brief = brief or HandBrief()
        self.config = config
        self.use_mat = use_mat
        self.reader: TrickReader | None = None
        #: the dealer of the deal being bid (the reader watches their kitty)
        self.dealer: Seat | None = None
        self._next_check = 0.0
        self.detector_seconds = 0.0
        self.reader_seconds = 0.0
        self.frames = 0
        #: the last frame's boxes, as the detector gave them (for recording a stream)
        self.last_detections: Sequence[Any] = ()

    def _start(self, frame: np.ndarray, t: float) -> list[VisionEvent]:
        """Calibrate on the first frame: the mat if seen, else the saved one, else default."""
        events: list[VisionEvent] = []
        saved = self.calibration
        if saved is not None and saved.markers:
            check = saved.check(frame)
            if check.moved:
                events.append(ReaderWarning(kind=WarningKind.CAMERA_MOVED, note=check.message,
                                            seat=None, t=t))
        calibration = choose_calibration(frame, self.view, saved=saved, use_mat=self.use_mat)
        self.calibration = calibration
        self.detect = AreaDetector(self._detector, calibration,
                                   index_pixels=self.index_pixels, rectify=self.rectify,
                                   confidence=self.box_confidence)
        brief = self.brief
        self.reader = TrickReader(calibration, brief.leader, trump=brief.trump,
                                  sitting_out=brief.sitting_out, config=self.config)
        if self.dealer is not None:
            self.reader.new_deal(self.dealer)
            if brief.leader is not None:  # a recorded hand: its contract is known
                self.reader.new_hand(brief.leader, trump=brief.trump,
                                     sitting_out=brief.sitting_out)
        self._next_check = t + RECHECK_EVERY
        return events

    @property
    def table_view(self) -> TableView | None:
        """The warp to a top-down view, when the camera is slanted (after the first frame)."""
        return self.detect.table_view if self.detect is not None else None

    @property
    def last_view(self) -> tuple[np.ndarray | None, Sequence[Any]]:
        """The picture the detector read last and its boxes in that picture's pixels, in
        the order of :attr:`last_detections` (see :attr:`AreaDetector.last_view`)."""
        return self.detect.last_view if self.detect is not None else (None, ())

    def new_deal(self, dealer: Seat) -> None:
        """A new deal (bidding begins): the reader watches the dealer's kitty."""
        self.dealer, self.brief = dealer, HandBrief()
        if self.reader is not None:
            self.reader.new_deal(dealer)

    def new_hand(self, brief: HandBrief) -> None:
        """A new hand starts (bidding is over): who leads, trump, a lone hand."""
        self.brief = brief
        if self.reader is not None:
            self.reader.new_hand(brief.leader, trump=brief.trump,
                                 sitting_out=brief.sitting_out,
                                 turn_up=None if brief.turn_up is None else str(brief.turn_up),
                                 kept_by=brief.kept_by)

    def __call__(self, frame: np.ndarray, t: float) -> list[VisionEvent]:
        events: list[VisionEvent] = []
        if self.reader is None:
            events += self._start(frame, t)
        assert self.reader is not None and self.calibration is not None
        if self.calibration.markers and t >= self._next_check:
            self._next_check = t + RECHECK_EVERY
            check = self.calibration.check(frame)
            if check.moved:
                events.append(ReaderWarning(kind=WarningKind.CAMERA_MOVED, note=check.message,
                                            seat=None, t=t))
        start = time.perf_counter()
        assert self.detect is not None
        detections = self.detect(frame)
        middle = time.perf_counter()
        self.last_detections = detections
        events += self.reader.feed(t, detections)
        self.detector_seconds += middle - start
        self.reader_seconds += time.perf_counter() - middle
        self.frames += 1
        return events


@dataclass
class VideoReading:
    """What :func:`read_video` saw: the tricks, every event with the frame time it was
    emitted at, and how long the detector and reader took per frame."""

    tricks: list[list[tuple[str, str]]]
    events: list[tuple[float, VisionEvent]]
    frames: int
    duration: float
    calibration: Calibration | None
    detector_ms: float = 0.0
    reader_ms: float = 0.0
    warnings: list[ReaderWarning] = field(default_factory=list)

    def tricks_json(self) -> list[list[str]]:
        return [[f"{s}:{c}" for s, c in trick] for trick in self.tricks]


def read_video(path: str | Path, detector: Any, *, calibration: Calibration | None = None,
               view: str = "overhead", brief: HandBrief | None = None,
               config: ReaderConfig | None = None, fps: float | None = None,
               index_pixels: float = INDEX_PIXELS,
               record: list[dict[str, Any]] | None = None,
               rectify: bool = True,
               box_confidence: float | None = READ_CONFIDENCE,
               on_frame: Callable[[FramePipeline], None] | None = None,
               dealer: Seat | None = None) -> VideoReading:
    """Read a recorded hand from a video file with a detector.

    ``rectify=False`` detects on the frame itself even when the view is slanted;
    ``box_confidence`` is where our detector's boxes start (None: the detector's own).
    ``record``, when given, receives every frame's boxes as a detection stream's frames
    (``{"t", "detections": [[card, confidence, x1, y1, x2, y2], ...]}``, see
    :func:`compact_box`): with the
    calibration, :func:`read_stream` replays them without the video or the detector.
    ``on_frame`` is shown the pipeline after each frame (learning in play watches it).
    With ``dealer``, the reader also watches the dealer's kitty for the turn-up
    (``KittySeen`` events among the reading's events).
    """
    from kiosk.vision.camera.frames import open_frames

    pipeline = FramePipeline(detector, calibration=calibration, view=view, brief=brief,
                             config=config, index_pixels=index_pixels, rectify=rectify,
                             box_confidence=box_confidence)
    pipeline.dealer = dealer
    events: list[tuple[float, VisionEvent]] = []
    t = 0.0
    for frame in open_frames(path, fps):
        t = frame.t
        events += [(t, e) for e in pipeline(frame.image, t)]
        if on_frame is not None:
            on_frame(pipeline)
        if record is not None:
            record.append({"t": round(t, 4), "detections": [
                compact_box(d) for d in pipeline.last_detections]})
    reader = pipeline.reader
    if reader is None:
        raise ValueError(f"no frames in {path}")
    end = t + 1.0 / (fps or 15.0)
    events += [(end, e) for e in reader.finish(end)]
    n = max(pipeline.frames, 1)
    return VideoReading(
        tricks=reader.all_tricks(), events=events, frames=pipeline.frames, duration=end,
        calibration=pipeline.calibration,
        detector_ms=1000 * pipeline.detector_seconds / n,
        reader_ms=1000 * pipeline.reader_seconds / n,
        warnings=[e for _t, e in events if isinstance(e, ReaderWarning)])


def read_stream(frames: Iterable[dict[str, Any]], calibration: Calibration, *,
                brief: HandBrief | None = None, config: ReaderConfig | None = None
                ) -> VideoReading:
    """Read a detection stream: ``[{"t": seconds, "detections": [...]}, ...]``."""
    brief = brief or HandBrief()
    reader = TrickReader(calibration, brief.leader, trump=brief.trump,
                         sitting_out=brief.sitting_out, config=config)
    events: list[tuple[float, VisionEvent]] = []
    t = 0.0
    count = 0
    spent = 0.0
    for frame in frames:
        t = float(frame["t"])
        start = time.perf_counter()
        events += [(t, e) for e in reader.feed(t, frame["detections"])]
        spent += time.perf_counter() - start
        count += 1
    end = t + 0.1
    events += [(end, e) for e in reader.finish(end)]
    return VideoReading(tricks=reader.all_tricks(), events=events, frames=count, duration=end,
                        calibration=calibration, reader_ms=1000 * spent / max(count, 1),
                        warnings=[e for _t, e in events if isinstance(e, ReaderWarning)])


def load_stream(path: str | Path) -> dict[str, Any]:
    """A recorded detection stream (JSON): frames plus what is known of the camera.

    Shape: ``{"size": [w, h], "view": "overhead", "fps": 12, "frames": [{"t": 0.0,
    "detections": [{"card": "JH", "confidence": 0.9, "box": [x1, y1, x2, y2]}]}]}``,
    optionally with ``"calibration"`` (a saved calibration) and ``"play"``
    (``leader``, ``trump``, ``sitting_out``) and ``"expect"`` (for tests).
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "frames" not in data:
        raise ValueError(f"{path} is not a detection stream (no 'frames')")
    return data


def save_stream(path: str | Path, frames: list[dict[str, Any]],
                calibration: Calibration | None, *, view: str, fps: float,
                video: str | None = None) -> None:
    """Write frames recorded by :func:`read_video` (``record=``) as a stream that
    :func:`load_stream` reads back; raises ``OSError`` when the file cannot be written."""
    data: dict[str, Any] = {
        "view": view, "fps": fps, "frames": frames,
        "size": list(calibration.image_size) if calibration is not None else [0, 0],
        "calibration": calibration.to_json() if calibration is not None else None,
    }
    if video is not None:
        data["video"] = video
    Path(path).write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def compact_box(item: Any) -> list[Any]:
    """One box as a recorded stream keeps it: ``[card, confidence, x1, y1, x2, y2]``, then
    ``alternative, its confidence`` when the classifier named a runner-up."""
    d = Detection.coerce(item)
    row = [d.card, round(d.confidence, 4), *(round(v, 1) for v in d.box)]
    if d.alternative is not None:
        row += [d.alternative, round(d.alternative_confidence, 3)]
    return row


def stream_calibration(stream: dict[str, Any]) -> Calibration:
    """The calibration a recorded stream names, or its view's default."""
    if stream.get("calibration"):
        return Calibration.from_json(stream["calibration"])
    size = stream.get("size", [640, 360])
    return Calibration.default(stream.get("view", "overhead"), (int(size[0]), int(size[1])))
