"""The camera's reader for a table: which card detector, and a pipeline that follows the hand.

Why here: the vision pipeline (kiosk.vision.pipeline.FramePipeline) turns
frames into events but knows nothing of bidding; it must be told, when each
hand's bidding ends, who leads, what is trump and who sits out. The table
session knows that. `HandFollower` carries it across: the UI thread calls
`follow(session.hand_brief())` after every change, the frame thread
applies it before the next frame, and only once per hand (telling the
reader of a new hand mid-hand would make it forget the cards on the table):
the deal as bidding begins (the reader watches the dealer's kitty for the
turn-up), the contract as it ends.

Which detector (`choose_detector`), in plain words for the players and the
console, because a reading is only as good as its detector:

1. the trained model (models/cards.onnx) when it loads and, on a video that
   has its ground truth beside it (the bundled demo), reads at least half of the
   cards of a few sample frames with a trick on the table (a card is read when
   any of its corners is, as the trick reader needs);
2. else nothing: the picture is shown and the players tap the cards.

A caller may offer a `fallback` for when the model is not used: the development
tools offer their oracle detector that way (devtools/oracle.py), which a kiosk
never carries.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.vision.brief import HandBrief
from kiosk.vision.events import VisionEvent

if TYPE_CHECKING:
    from kiosk.table.feed import FrameFeed
    from kiosk.table.session import TableSession


class CameraShown(Protocol):
    """The screen's side of the camera: whether its picture is shown."""

    camera: bool

#: share of the cards on the sample frames the model must name (any corner of each)
USABLE_RECALL = 0.5
SAMPLE_FRAMES = 6
#: a sample frame shows at least this many played cards (euchre cards: not the 5s, the
#: score markers that lie there all game, nor a face-down card): a trick on the table
SAMPLE_TRICK = 3


@dataclass(frozen=True)
class ModelSetAside:
    """Why the trained model is not used: it did not load (``error``, its first line), or
    it read too few of the sample frames' cards (``read``, a share)."""

    error: str = ""
    read: float | None = None


@dataclass(frozen=True)
class DetectorChoice:
    """The detector to run (None: no detector) and why, as facts (the console's line and
    the screen's: kiosk.app.words.detector_line, detector_short)."""

    detector: Any
    name: str  # 'model', 'none', or a fallback's own name
    model_file: str = ""  #: the trained model's file, when it is used
    sample_read: float | None = None  #: the share of the sample cards it read, if tried
    set_aside: ModelSetAside | None = None  #: why the model is not used
    #: a fallback's own (console, screen) lines: a development stand-in speaks for itself
    own_words: tuple[str, str] | None = None


#: what a caller may offer when the model is not used: given the video, the detector
#: asked for and why the model was set aside (None: it was not tried), a choice or None
Fallback = Callable[[str | Path | None, str, ModelSetAside | None], DetectorChoice | None]


def truth_beside(video: str | Path) -> Path | None:
    """`VIDEO.truth.json` next to a rendered video, if there is one."""
    video = Path(video)
    truth = video.with_name(video.stem + ".truth.json")
    return truth if truth.is_file() else None


def choose_detector(video: str | Path | None, wanted: str = "auto",
                    load_model: Callable[[], Any] | None = None,
                    fallback: Fallback | None = None) -> DetectorChoice:
    """Pick the detector for a camera or a video (see the module's docstring):
    ``wanted`` is 'auto', 'model' or 'none', or a name the ``fallback`` knows."""
    if wanted not in ("auto", "model", "none") and fallback is None:
        raise ValueError(f"unknown card detector {wanted!r} (auto, model or none)")
    truth = truth_beside(video) if video is not None else None
    set_aside: ModelSetAside | None = None
    if wanted in ("auto", "model"):
        try:
            model = (load_model or _load_model)()
        except Exception as problem:  # ModelError, or a runtime's own error
            model = None
            error = str(problem).splitlines()[0] if str(problem) else type(problem).__name__
            set_aside = ModelSetAside(error=error)
        if model is not None:
            score = _sample_recall(model, video, truth) if (video and truth) else None
            if score is None or score >= USABLE_RECALL or wanted == "model":
                return DetectorChoice(model, "model",
                                      model_file=Path(getattr(model, "path", "model")).name,
                                      sample_read=score)
            set_aside = ModelSetAside(read=score)
        elif wanted == "model":
            why = set_aside.error if set_aside is not None else ""
            raise ValueError(f"cannot load the card detector: {why}")
    if fallback is not None and wanted != "none":
        chosen = fallback(video, wanted, set_aside)
        if chosen is not None:
            return chosen
    return DetectorChoice(None, "none", set_aside=set_aside)


def _load_model() -> Any:
    from kiosk.vision.cards.detector import Detector, threads_beside_the_screen

    return Detector(threads=threads_beside_the_screen())


def _sample_recall(model: Any, video: str | Path, truth: Path) -> float | None:
    """Share of the cards on a few frames of the video that the model names (by any
    corner), the frames spread over those with a trick on the table.

    Cards, not corners: the trick reader needs one corner of a card, and a tablet's
    far corners are the hardest. Frames with a trick, not any frame: the score markers
    lie on the table all game, and frames showing only them say nothing of the play."""
    import cv2

    from kiosk.vision.camera.calibration import Calibration
    from kiosk.vision.pipeline import AreaDetector, as_detector

    data = json.loads(truth.read_text(encoding="utf-8"))
    frames = data.get("frames") or []
    busy = [i for i, boxes in enumerate(frames)
            if len({b.get("card") for b in boxes} & EUCHRE_NAMES) >= SAMPLE_TRICK]
    if not busy:
        return None
    picks = [busy[int(k * (len(busy) - 1) / max(SAMPLE_FRAMES - 1, 1))]
             for k in range(SAMPLE_FRAMES)]
    detect = as_detector(model)
    if data.get("view") and data.get("size"):
        # as the frame pipeline will run it: the play area (a tablet's warped top-down)
        detect = AreaDetector(model, Calibration.default(data["view"], tuple(data["size"])))
    capture = cv2.VideoCapture(str(video))
    found = wanted = 0
    try:
        for index in sorted(set(picks)):
            capture.set(cv2.CAP_PROP_POS_FRAMES, index)
            ok, image = capture.read()
            if not ok:
                continue
            names = {b["card"] for b in frames[index] if b.get("card") not in (None, "back")}
            seen = {getattr(d, "card", None) or d.get("card") for d in detect(image)}
            wanted += len(names)
            found += len(names & seen)
    finally:
        capture.release()
    return found / wanted if wanted else None


class HandFollower:
    """`reader(frame, t)` for the feed: the pipeline, told of each hand as bidding ends."""

    def __init__(self, pipeline: Any, rebuild: Callable[[Any], Any] | None = None,
                 learning: Any = None) -> None:
        """`rebuild(calibration)` makes a new pipeline when the table is calibrated again;
        `learning` (kiosk.table.deck_learning.TableDeckLearning) is shown each frame of a
        hand in play, and swaps in a profile it adopted between frames."""
        self.pipeline = pipeline
        self.rebuild = rebuild
        self.learning = learning
        self._lock = threading.Lock()
        self._brief: HandBrief | None = None
        self._calibration: Any = None
        self._told: int | None = None  # the hand the pipeline was last told of
        self._dealt: int | None = None  # the hand whose deal the pipeline was last told of
        self._in_play = False  # that hand's cards are being played
        #: reads the players' 5s once a hand (kiosk.table.marker_watch), if a table has one
        self.marker_watch: Any = None

    def recalibrate(self, calibration: Any) -> None:
        """A calibration was saved (UI thread): read the next frames with it."""
        with self._lock:
            self._calibration = calibration

    def follow(self, brief: HandBrief) -> None:
        """The session's `hand_brief()` (UI thread): remembered for the next frame."""
        with self._lock:
            self._brief = brief

    def __call__(self, frame: Any, t: float) -> Iterable[VisionEvent]:
        with self._lock:
            brief, calibration, self._calibration = self._brief, self._calibration, None
        if calibration is not None and self.rebuild is not None:
            self.pipeline = self.rebuild(calibration)
            self._told = self._dealt = None  # the new pipeline must hear of the hand again
        if (brief is not None and brief.dealer is not None and brief.leader is None
                and brief.hand != self._dealt and hasattr(self.pipeline, "new_deal")):
            # bidding: the reader watches the dealer's kitty for the turn-up
            self._dealt = brief.hand
            self.pipeline.new_deal(brief.dealer)
        if brief is not None and brief.leader is not None and brief.hand != self._told:
            self._told = brief.hand
            self.pipeline.new_hand(brief)
        if brief is not None:  # cards are played in this hand (not bid, not over)
            self._in_play = brief.leader is not None and brief.hand == self._told
        if self.learning is not None:
            self.learning.adopt()
        events: list[VisionEvent] = self.pipeline(frame, t)
        if self.learning is not None and self._in_play:
            self.learning.look(self._told, self.pipeline)
        if self.marker_watch is not None:
            self.marker_watch.look(frame)
        return events


class CameraLink:
    """Keeps the feed and its reader in step with the session (on the UI thread).

    After every change: the reader learns the hand's contract; a held video
    starts once the hand is in play; and once the video is over and the game
    has moved to a hand it did not film, the screen stops showing its picture.

    A video always plays from its start, so after a restart mid-hand its reader
    must expect the hand's first leader, not the leader of the trick the
    journal has reached (a camera, live, sees that trick: the session's word).
    """

    def __init__(self, session: TableSession, presenter: CameraShown, feed: FrameFeed,
                 follower: HandFollower | None = None, from_start: bool = False) -> None:
        self.session = session
        self.presenter = presenter
        self.feed = feed
        self.follower = follower
        self.from_start = from_start
        self._filmed: set[int] = set()
        session.subscribe(lambda _s: self.update())

    def update(self) -> None:
        brief = self.session.hand_brief()
        view = self.session.hand.view if self.session.hand is not None else None
        if self.from_start and brief.leader is not None and view is not None and view.tricks:
            brief = replace(brief, leader=view.tricks[0].leader)
        if self.follower is not None:
            self.follower.follow(brief)
            if self.follower.learning is not None:
                self.follower.learning.follow(self.session)
        hand = brief.hand
        if self.feed.held and self.session.phase == "playing" and hand is not None:
            self._filmed.add(hand)
            self.feed.release()
        elif not self.feed.held and not self.feed.ended.is_set() and hand is not None:
            self._filmed.add(hand)
        if self.feed.ended.is_set() and hand is not None and hand not in self._filmed:
            self.presenter.camera = False
