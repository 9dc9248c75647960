"""The kitty beside the dealer: its face-up card read, then seen taken or turned down.

After the deal the kitty lies in the band between the dealer's seat zone and the
dealer's edge (no seat's zone: what lies there is never a card played), three cards
face down with the turn-up face up on top. The watch names the face-up card there as the
trick reader names a played card (seen resting, in a few frames, one name far ahead of
any other) and then follows it: carried off toward the dealer's edge, it was *taken*
(the dealer picked it up); gone where it lay, with a face-down card seen there since, it
was *turned down*. A face hidden for a moment by a hand is neither.

What it saw goes out as :class:`~kiosk.vision.events.KittySeen`; the table session weighs
it against the bids. The card's fate also tells the reader who may still play it
(:meth:`KittyWatch.out_of_play`): nobody once turned down, only the dealer once taken.

>>> from kiosk.vision.camera.calibration import SeatZones
>>> watch = KittyWatch(Seat.N, SeatZones(), ReaderConfig())
>>> watch.in_kitty((0.8, 0.09)), watch.in_kitty((0.5, 0.25)), watch.in_kitty((0.8, 0.91))
(True, False, False)
>>> nine = [("9H", 0.9, [(0.78, 0.11), (0.82, 0.07)])]
>>> events = [e for i in range(8) for e in watch.see(i / 8, nine, [])]
>>> [(e.change.value, str(e.seat), str(e.card)) for e in events]
[('shown', 'N', '9H')]
>>> later = [e for i in range(8, 30) for e in watch.see(i / 8, [], [(0.8, 0.09)])]
>>> [(e.change.value, str(e.card)) for e in later], watch.out_of_play(Seat.N)
([('turned_down', '9H')], {'9H'})
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kiosk.rules.cards import EUCHRE_NAMES, Seat
from kiosk.vision.camera.calibration import SeatZones
from kiosk.vision.events import KittyChange, KittySeen, VisionEvent, face
from kiosk.vision.reader.config import ReaderConfig

#: how far past the zones' outer edge (table units) the kitty may lie: the band to the edge
BAND_END = 0.56
#: a face read this far (table units) from where the turn-up rested is another card
NEAR = 0.12
#: a corner of the turn-up read this far (table units) from every place a corner of it lay
#: at rest, and this much further toward the dealer's edge than its inner corner lay, shows
#: it being carried off (a hand brushing it moves it less)
MOVED = 0.03
CARRIED = 0.015
#: a face-down card this near where the turn-up rested covers its place
SAME_PLACE = 0.07
#: seconds the turn-up must be gone before its fate is told (a hand passing hides it less)
GONE_TIME = 1.5
#: seconds after which a turn-up gone where it lay was turned down, even with no face-down
#: card read there (a back cut by the edge of the part of the picture the detector reads)
LONG_GONE = 3.0

#: one face read in a frame: name, score, where its corners read lie (table units)
Face = tuple[str, float, Sequence[tuple[float, float]]]

def _middle(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


_AXIS = {Seat.N: (0.0, -1.0), Seat.E: (1.0, 0.0), Seat.S: (0.0, 1.0), Seat.W: (-1.0, 0.0)}


@dataclass
class _Name:
    """The evidence for one name read on the kitty."""

    total: float = 0.0
    frames: int = 0
    first: float = 0.0
    last: float = 0.0
    #: the corners read, each frame's middle of them
    corners: list[tuple[float, float]] = field(default_factory=list)
    where: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class KittyWatch:
    """Watches the dealer's kitty for one deal."""

    dealer: Seat
    zones: SeatZones
    config: ReaderConfig
    #: the turn-up as read (None until it is), and where it rested
    card: str | None = None
    place: tuple[float, float] | None = None
    fate: KittyChange | None = None
    _names: dict[str, _Name] = field(default_factory=dict)
    _last_face: float = 0.0
    #: where the turn-up's corners were read while it rested
    _rest: list[tuple[float, float]] = field(default_factory=list)
    _carried: bool = False
    _covered: bool = False

    def in_kitty(self, point: Sequence[float]) -> bool:
        """Whether ``point`` lies in the band between the dealer's zone and their edge."""
        dx, dy = float(point[0]) - 0.5, float(point[1]) - 0.5
        ax, ay = _AXIS[self.dealer]
        out = dx * ax + dy * ay  # toward the dealer's edge
        along = abs(dx * ay - dy * ax)
        return self.zones.outer < out <= BAND_END and along <= out

    def see(self, t: float, faces: Iterable[Face], backs: Iterable[Sequence[float]]
            ) -> list[VisionEvent]:
        """One frame's face-up cards (name, score, where) and face-down cards (where)."""
        if self.fate is not None:
            return []
        faces = list(faces)
        if self.card is None or self.place is None:
            return self._read(t, faces)
        return self._follow(t, faces, [(float(p[0]), float(p[1])) for p in backs])

    def claims(self, card: str, corners: Sequence[tuple[float, float]]) -> bool:
        """Whether a card read at ``corners`` is the turn-up still lying on the kitty (or a
        name being read there): the trick reader leaves it alone. A hand over the kitty
        can hide the turn-up's outer corner, and its inner one alone lies in the dealer's
        zone: it is still the kitty, not a card played."""
        x, y = _middle(corners)
        if self.card is not None and self.place is not None:
            return card == self.card and math.hypot(x - self.place[0], y - self.place[1]) <= NEAR
        seen = self._names.get(card)
        return seen is not None and any(math.hypot(x - wx, y - wy) <= NEAR
                                        for wx, wy in seen.where[-3:])

    def out_of_play(self, seat: Seat) -> set[str]:
        """The turn-up, when ``seat`` can no longer play it: turned down, nobody can;
        taken, only the dealer can."""
        if self.card is None or self.fate is None:
            return set()
        if self.fate == KittyChange.TAKEN and seat == self.dealer:
            return set()
        return {self.card}

    def _moved_out(self, point: tuple[float, float]) -> bool:
        """Whether a corner read at ``point`` shows the turn-up moved toward the dealer's
        edge: it lies where no corner lay while the card rested (``MOVED`` away from each),
        and further out than the inner one lay. Corners, not their middle: a hand hiding
        one corner moves the middle, and shrinks a corner's box by less than ``MOVED``; and
        the outer corner of a card slid off soon leaves the part of the picture the
        detector reads, the inner one is seen coming after it."""
        if any(math.hypot(r[0] - point[0], r[1] - point[1]) < MOVED for r in self._rest):
            return False
        ax, ay = _AXIS[self.dealer]
        inner = min((r[0] - 0.5) * ax + (r[1] - 0.5) * ay for r in self._rest)
        return (point[0] - 0.5) * ax + (point[1] - 0.5) * ay > inner + CARRIED

    # ---- before it is named: the turn-up read ------------------------------------------
    def _read(self, t: float, faces: list[Face]) -> list[VisionEvent]:
        cfg = self.config
        for name, score, corners in faces:
            where = _middle(corners)
            if name not in EUCHRE_NAMES or not self.in_kitty(where):
                continue
            seen = self._names.setdefault(name, _Name(first=t))
            if seen.last < t:
                seen.frames += 1
            seen.total += score
            seen.last = t
            seen.where.append(where)
            seen.corners += corners
        if not self._names:
            return []
        ranked = sorted(self._names.items(), key=lambda item: -item[1].total)
        name, top = ranked[0]
        rival = ranked[1][1].total if len(ranked) > 1 else 0.0
        if (top.frames < cfg.min_frames or top.last - top.first < cfg.rest_time
                or top.total < cfg.accept_evidence or top.total < cfg.dominance * rival):
            return []
        self.card = name
        self.place = _middle(top.where)
        self._last_face = t
        self._rest = top.corners
        confidence = top.total / (top.total + rival)
        return [KittySeen(seat=self.dealer, card=face(name), change=KittyChange.SHOWN, t=t,
                          confidence=round(confidence, 3))]

    # ---- after: taken, or turned down ---------------------------------------------------
    def _follow(self, t: float, faces: list[Face], backs: list[tuple[float, float]]
                ) -> list[VisionEvent]:
        assert self.card is not None and self.place is not None
        px, py = self.place
        seen_now = False
        for name, _score, corners in faces:
            x, y = _middle(corners)
            if name != self.card or math.hypot(x - px, y - py) > NEAR:
                continue
            seen_now, self._last_face, self._covered = True, t, False
            if any(self._moved_out(p) for p in corners):
                self._carried = True
        if seen_now:
            return []
        if any(math.hypot(x - px, y - py) <= SAME_PLACE for x, y in backs):
            self._covered = True
        if t - self._last_face < GONE_TIME:
            return []
        if self._carried:
            self.fate = KittyChange.TAKEN
        elif self._covered or t - self._last_face >= LONG_GONE:
            self.fate = KittyChange.TURNED_DOWN
        else:
            return []  # gone, and nothing seen there since: a hand still over it?
        return [KittySeen(seat=self.dealer, card=face(self.card), change=self.fate, t=t,
                          confidence=1.0)]
