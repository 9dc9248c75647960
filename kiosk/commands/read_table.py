"""`kiosk read-table IMAGE...`: the turn-up and each side's 5s, read from one table's stills.

Prints one JSON object a line per image, in order (CONTRACTS.md, "kiosk read-table"):
``{"image": "hand03.jpg", "turn_up": "JH", "score": {"NS": 3, "EW": 7}}``, ``null``
where the kiosk is not sure. So anyone can check, on their own photos, the two readings
the kiosk makes at the table between hands.

Why through the table's own parts rather than a reader of its own: what is measured here
must be what the kiosk does. The 5s are read by :class:`kiosk.table.marker_watch.MarkerWatch`
(a whole frame and a closer look where each side's pair lies), which keeps, from still to
still, where each side's 5s lie and the sizes its stills showed, as it does through a
game. The turn-up is read by the trick reader's kitty watch
(:class:`kiosk.vision.reader.kitty.KittyWatch`, through
:class:`kiosk.vision.reader.TrickReader`) on the boxes the kiosk's play-area detector
gives (:class:`kiosk.vision.pipeline.AreaDetector`).

Two things a camera has that a still has not, and how they are stood in for:

- time: the kitty watch names a card that lay still in a few frames over its rest time.
  A still is the table lying still, so its boxes are shown to the watch as the fewest
  frames over the shortest time the watch takes a card from (:func:`held_still`): a
  name is read from a still when the watch would read it from that picture seen
  unchanged for its rest time.
- the dealer: the kiosk watches the dealer's kitty, told of the deal by the session. A
  still says no dealer, so every seat's band is watched, the 5s' band included: a face
  read on a pair of 5s is theirs (a picture back's print, such as a back printed with a
  fan of aces), not a kitty's, and is not shown to the watch. A turn-up read in two bands
  is not sure (one deal has one kitty) and reads ``null``.

Calibration, as ``kiosk run``: the mat if the first still shows it, else ``--calibration``,
else the view's default; kept for every still after (scaled to a still of another size).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kiosk.cli import UsageError
from kiosk.commands.common import check_image_files, load_deck, read_image, table_detector
from kiosk.rules.cards import Seat, Team
from kiosk.vision.fives.face_down import THEIRS

if TYPE_CHECKING:
    from kiosk.vision.camera.calibration import Calibration
    from kiosk.vision.pipeline import AreaDetector

#: a box nearer than this (table units) to where a side's 5s lie is on their pair: two
#: card widths, as the 5s' reader takes a face-down card by the other side's pair for theirs
ON_THE_FIVES = THEIRS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE",
                        help="stills of one table, in the order they were taken")
    parser.add_argument("--view", choices=("overhead", "tablet"), default="overhead",
                        help="camera view when there is no calibration (default: overhead)")
    parser.add_argument("--calibration", metavar="FILE", help="a saved table calibration")
    parser.add_argument("--deck", metavar="DECK",
                        help="read with this deck profile (kiosk enrol)")


@dataclass(frozen=True)
class StillReading:
    """What one still showed: the turn-up (None: no kitty with a face-up card read
    surely) and each side's count from its 5s (None: not found, or not read surely)."""

    turn_up: str | None
    score: dict[Team, int | None]

    def to_json(self, image: str) -> dict[str, Any]:
        """The contract's line for ``image``.

        >>> StillReading("JH", {Team.NS: 3, Team.EW: None}).to_json("a.jpg")
        {'image': 'a.jpg', 'turn_up': 'JH', 'score': {'NS': 3, 'EW': None}}
        """
        return {"image": image, "turn_up": self.turn_up,
                "score": {str(side): self.score.get(side) for side in Team}}


def held_still(config: Any) -> list[float]:
    """The times a still's boxes are shown to the kitty watch: its fewest frames, spread
    over its rest time (a still is the table lying still). They start a step after the
    deal, as a camera's do: the watch counts a frame once its clock has moved past the
    deal's zero.

    >>> from kiosk.vision.reader.config import ReaderConfig
    >>> held_still(ReaderConfig(rest_time=0.45, min_frames=3))
    [0.225, 0.45, 0.675]
    """
    frames = max(int(config.min_frames), 2)
    step = float(config.rest_time) / (frames - 1)
    return [(k + 1) * step for k in range(frames)]


class TableStills:
    """One table's stills read in order (``read``), what earlier stills taught kept."""

    def __init__(self, detector: Any, view: str = "overhead",
                 saved: Calibration | None = None) -> None:
        """``detector``: the kiosk's card detector; ``saved``: a table calibration, used
        where the first still shows no mat."""
        from kiosk.table.marker_watch import MarkerWatch

        self.detector = detector
        self.view = view
        self.saved = saved
        self.calibration: Calibration | None = None  # chosen on the first still
        self._areas: dict[tuple[int, int], AreaDetector] = {}
        self.fives = MarkerWatch(detector, self.calibration_of, on_read=lambda _counts: None)

    def calibration_of(self, image: np.ndarray) -> Calibration:
        """The table's calibration for a still: chosen on the first, as the kiosk chooses
        on its camera's first frame, then scaled to each still's size."""
        from kiosk.vision.pipeline import choose_calibration

        size = (int(image.shape[1]), int(image.shape[0]))
        if self.calibration is None:
            self.calibration = choose_calibration(image, self.view, saved=self.saved)
        calibration = self.calibration
        return calibration if calibration.image_size == size else calibration.scaled(size)

    def read(self, image: np.ndarray) -> StillReading:
        """The turn-up and each side's 5s in one still (a BGR picture)."""
        calibration = self.calibration_of(image)
        readings = self.fives.read([image])
        fives = [r.place for r in readings.values() if r.place is not None]
        fives += list(self.fives.places.values())
        counts = {side: reading.count for side, reading in readings.items()}
        return StillReading(self.turn_up(image, calibration, fives), counts)

    def turn_up(self, image: np.ndarray, calibration: Calibration,
                fives: Sequence[tuple[float, float]] = ()) -> str | None:
        """The face-up card on a kitty in the still, read by the kitty watch of every
        seat's band, the boxes on the 5s lying at ``fives`` left out (module docstring);
        None unless exactly one band reads one."""
        from kiosk.vision.cards.detection import Detection
        from kiosk.vision.events import KittyChange, KittySeen
        from kiosk.vision.pipeline import AreaDetector
        from kiosk.vision.reader import TrickReader

        size = calibration.image_size
        if size not in self._areas:
            self._areas[size] = AreaDetector(self.detector, calibration)
        boxes = [Detection.coerce(d) for d in self._areas[size](image)]
        if boxes and fives:
            where = calibration.to_table([d.centre for d in boxes])
            gaps = np.linalg.norm(where[:, None, :] - np.asarray(fives)[None], axis=2)
            boxes = [d for d, gap in zip(boxes, gaps.min(axis=1), strict=True)
                     if gap >= ON_THE_FIVES]
        readers = {seat: TrickReader(calibration) for seat in Seat}
        for seat, reader in readers.items():
            reader.new_deal(seat)
        shown: dict[Seat, str] = {}
        for t in held_still(readers[Seat.N].config):
            for seat, reader in readers.items():
                for event in reader.feed(t, boxes):
                    if isinstance(event, KittySeen) and event.change == KittyChange.SHOWN:
                        shown[seat] = str(event.card)
        return next(iter(shown.values())) if len(shown) == 1 else None


def run(args: argparse.Namespace) -> int:
    saved = _calibration(args.calibration)
    deck = load_deck(args.deck)
    _check_images(args.images)
    stills = TableStills(_detector(deck), view=args.view, saved=saved)
    for name in args.images:
        reading = stills.read(read_image(name))
        print(json.dumps(reading.to_json(name)), flush=True)
    return 0


def _check_images(names: Sequence[str]) -> None:
    """Every image there and decodable before the first is read: a bad one is one line
    and nothing printed (the pictures are decoded again one at a time, to keep memory
    to one still)."""
    check_image_files(names)
    for name in names:
        read_image(name)


def _calibration(path: str | None) -> Calibration | None:
    if path is None:
        return None
    from kiosk.vision.camera.calibration import Calibration, CalibrationError

    try:
        return Calibration.load(path)
    except CalibrationError as problem:
        raise UsageError(str(problem)) from None


def _detector(deck: Any) -> Any:
    return table_detector(deck)
