"""When the camera reads the players' 5s: once a hand, a few seconds into the next deal.

Why then: the players move their 5s as the hand is scored, while the next dealer
gathers and shuffles; by the time the new hand's bidding starts they have done it, and
no card is being played that a reading could get in the way of. Three full pictures
half a second apart are read then (the detector's whole frame, not the play area the
trick reader looks at: the 5s lie at the side of the table, with a closer look where
each side's lie), in the frame thread, and the counts most frames agree on are handed
on to be recorded on the UI thread
(:meth:`kiosk.table.session.TableSession.see_markers`).

The watch remembers where each side's 5s were read, so a side at nought (its 5s face
down, no pip in sight) is found there next time (kiosk.vision.fives.face_down), and what the
table's 5s' pips and corners measure (kiosk.vision.fives.marker_sizes), so a corner the
detector did not box is told from a pip once a few stills have shown the sizes plainly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kiosk.rules.cards import Team
from kiosk.table.markers import wanted
from kiosk.vision.fives.marker_sizes import LearntFiveSizes
from kiosk.vision.fives.reading import MarkerReading

if TYPE_CHECKING:
    from kiosk.table.session import TableSession

#: seconds into a new deal before the 5s are read (they have been moved by then)
SETTLE = 4.0
#: frames read a hand, and the seconds between them (kiosk.vision.fives.marker_look.agreed)
FRAMES = 3
APART = 0.5


class MarkerWatch:
    """Reads the 5s once per hand; `follow` on the UI thread, `look` on the frame thread."""

    def __init__(self, detector: Any, calibration_of: Callable[[Any], Any],
                 on_read: Callable[[dict[Team, int | None]], None],
                 sizes: Mapping[str, Any] | None = None, settle: float = SETTLE,
                 clock: Callable[[], float] = time.monotonic, frames: int = FRAMES) -> None:
        """``calibration_of(frame)`` gives the table's calibration for a frame (the trick
        reader's, or the view's default); ``on_read`` gets each side's count (None:
        could not read) and must move it to the UI thread itself. ``sizes``: the 5s'
        print sizes where the deck's are known; without them they are learnt from the
        stills read."""
        self.detector = detector
        self.calibration_of = calibration_of
        self.on_read = on_read
        self.sizes = dict(sizes or {})
        self.settle = settle
        self.clock = clock
        self.frames = frames
        self._frames: list[dict[Team, Any]] = []  # the readings so far of hand _due[0]
        self._lock = threading.Lock()
        self._due: tuple[int, float] | None = None  # (hand, when) of the next reading
        self._read: int | None = None  # the hand whose deal was last read at
        self.places: dict[Team, tuple[float, float]] = {}
        self.learnt = LearntFiveSizes()

    def follow(self, session: TableSession) -> None:
        """After every change to the session (UI thread): a new deal after a scored hand,
        at a table that keeps its 5s, arms one reading."""
        hand = session.hand
        number = hand.number if hand is not None else None
        with self._lock:
            if (number is None or number < 2 or number == self._read
                    or not wanted(session.profile, session.markers)
                    or (self._due is not None and self._due[0] == number)):
                return
            self._due = (number, self.clock() + self.settle)
            self._frames = []

    def look(self, frame: Any) -> bool:
        """Read the 5s on this frame if a reading is due (frame thread); True if read.

        A hand's reading takes :data:`FRAMES` frames :data:`APART` seconds apart; the
        counts they agree on (:func:`kiosk.vision.fives.marker_look.agreed`) are handed on
        after the last."""
        with self._lock:
            due = self._due
            if due is None or self.clock() < due[1]:
                return False
            last = len(self._frames) + 1 >= self.frames
            self._due = None if last else (due[0], self.clock() + APART)
            if last:
                self._read = due[0]
        from kiosk.vision.fives.marker_look import agreed

        readings = self._read_frame(frame)
        with self._lock:
            self._frames.append(readings)
            if not last:
                return True
            counted, self._frames = self._remembered(agreed(self._frames)), []
        self.on_read({side: reading.count for side, reading in counted.items()})
        return True

    def read(self, frames: Sequence[Any]) -> dict[Team, MarkerReading]:
        """The 5s read now from ``frames`` of one moment of the table (one still, or a few
        frames of it), each frame as :meth:`look` reads one and the counts they agree on
        kept, with what earlier readings taught (places, sizes) and teaching the next.

        Why apart from :meth:`look`: ``kiosk read-table`` reads stills the user names,
        with no deal to wait for; the reading must be the table's own, not a copy of it."""
        from kiosk.vision.fives.marker_look import agreed

        return self._remembered(agreed([self._read_frame(frame) for frame in frames]))

    def _read_frame(self, frame: Any) -> dict[Team, MarkerReading]:
        """One frame's reading with the places and sizes known so far; its plain reads
        join the sizes learnt."""
        from kiosk.vision.fives.marker_look import look_at_markers

        sizes = self.sizes or self.learnt.sizes()
        readings = look_at_markers(frame, self.detector, self.calibration_of(frame),
                                   self.places, sizes)
        self.learnt.add(readings.values())
        return readings

    def _remembered(self, counted: dict[Team, MarkerReading]) -> dict[Team, MarkerReading]:
        """``counted``, after noting where each side's 5s were read (a nought is found
        there next time)."""
        for side, reading in counted.items():
            if reading.read and reading.place is not None:
                self.places[side] = reading.place
        return counted
