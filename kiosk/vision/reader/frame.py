"""What was seen in one frame: the detector's boxes coerced, the weak reads that only
make a fight of a card read surely now and then left out, and the corner boxes grouped
into one sighting per card, each placed in a seat's zone.

Boxes with the same name within one card diagonal are one card; its score for the
frame is ``1 - prod(1 - conf)``, so two agreeing corners count more than one.

>>> from kiosk.vision.camera.calibration import Calibration
>>> frame = FrameSightings(Calibration.default("overhead", (100, 100)), ReaderConfig())
>>> boxes = [["JH", 0.9, 45, 20, 50, 25], ["JH", 0.8, 50, 25, 55, 30], ["9S", 0.1, 0, 0, 5, 5]]
>>> seen = frame.see(0.0, boxes)
>>> [(s.card, round(s.score, 2), s.seat) for s in seen.sightings], seen.faint_seats
([('JH', 0.98, <Seat.N: 'N'>)], set())
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kiosk.rules.cards import Seat
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection
from kiosk.vision.reader.config import SAME_CARD, ReaderConfig
from kiosk.vision.reader.table_fit import TableFit
from kiosk.vision.reader.twins import twin_name


@dataclass(frozen=True)
class CardSighting:
    """The corner boxes of one card in one frame, grouped."""

    card: str
    score: float
    pixels: np.ndarray
    table: np.ndarray
    seat: Seat | None
    #: runner-up euchre names of its boxes, each at its surest box's confidence
    alternatives: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Seen:
    """One frame, read: the cards it showed, and the seats where boxes too faint to name
    lay (an unreadable card is still a card, and should be asked about)."""

    sightings: list[CardSighting]
    faint_seats: set[Seat]
    #: where face-down cards lie (table units): the kitty's turn-up turned down shows one
    backs: list[tuple[float, float]] = field(default_factory=list)


def _one_of_twins(sightings: list[CardSighting]) -> list[CardSighting]:
    """A card read under its name on some corners and as its same-colour twin on others
    in one frame (the jack of spades on three, the jack of clubs on one) is one card: the
    pack holds each card once, so the frame counts it under the name more of its corners
    bear, the other kept as a runner-up name. Left as two sightings, a twin read on one
    corner of four would count a whole frame, and a deck that confuses the twins on one
    corner in seven would look like a fight between them. Even counts stay two sightings."""
    dropped: set[int] = set()
    for i, a in enumerate(sightings):
        for j, b in enumerate(sightings):
            if (i in dropped or j in dropped or twin_name(a.card) != b.card
                    or len(a.table) <= len(b.table)
                    or np.linalg.norm(a.table.mean(axis=0) - b.table.mean(axis=0)) > SAME_CARD):
                continue
            dropped.add(j)
            a.alternatives[b.card] = max(a.alternatives.get(b.card, 0.0), b.score)
    return [s for k, s in enumerate(sightings) if k not in dropped]


class FrameSightings:
    """Turns each frame's boxes into card sightings; remembers the boxes read surely in
    the last ``weak_after`` seconds, which decide whether a weak read counts."""

    def __init__(self, calibration: Calibration, config: ReaderConfig,
                 fit: TableFit | None = None) -> None:
        self.calibration = calibration
        self.config = config
        #: where the cards say the table lies (:mod:`.table_fit`): its zones are the ones
        self.fit = fit or TableFit(active=False)
        #: (time, x, y, name, confidence) of the boxes read surely in the last ``weak_after``
        self._sure_seen: deque[tuple[float, float, float, str, float]] = deque()

    def see(self, t: float, detections: Iterable[Any]) -> Seen:
        """One frame at time ``t``: its sightings, and where faint boxes lie."""
        boxes = [Detection.coerce(d) for d in detections]
        # each box's centre on the table, mapped once for the weak-read filter and grouping
        points = self.calibration.to_table(np.array([d.centre for d in boxes]).reshape(-1, 2))
        boxes, points = self._unless_read_surely(t, boxes, points)
        sightings = self._group(boxes, points)
        low = [d for d in boxes if d.confidence < self.config.min_confidence
               and d.card != FACE_DOWN]
        backs = [(float(x), float(y)) for d, (x, y) in zip(boxes, points, strict=True)
                 if d.card == FACE_DOWN and d.confidence >= self.config.min_confidence]
        return Seen(sightings, {s for s in self.seats(low) if s is not None}, backs)

    def seats(self, detections: Iterable[Any]) -> list[Seat | None]:
        """The seat whose zone each box's centre lies in, as :meth:`see` attributes them
        (where the table's fit puts the point), None outside every zone."""
        boxes = [Detection.coerce(d) for d in detections]
        points = self.calibration.to_table(np.array([d.centre for d in boxes]).reshape(-1, 2))
        return [self._seat_at(point) for point in points]

    def _seat_at(self, point: np.ndarray) -> Seat | None:
        seat = self.calibration.zones.seat_at(self.fit.place(point))
        return None if seat is None else Seat(seat)

    def _group(self, detections: list[Detection], points: np.ndarray) -> list[CardSighting]:
        """The frame's face boxes grouped into card sightings; ``points`` are the boxes'
        centres on the table, row for row."""
        cfg = self.config
        kept = [i for i, d in enumerate(detections)
                if d.card != FACE_DOWN and d.confidence >= cfg.min_confidence]
        if not kept:
            return []
        usable = [detections[i] for i in kept]
        centres = np.array([d.centre for d in usable], dtype=np.float64)
        table = points[kept]
        order = sorted(range(len(usable)), key=lambda i: -usable[i].confidence)
        groups: list[list[int]] = []
        for i in order:
            for g in groups:
                if (len(g) < 4 and usable[g[0]].card == usable[i].card
                        and np.linalg.norm(table[g[0]] - table[i]) <= cfg.cluster_radius):
                    g.append(i)
                    break
            else:
                groups.append([i])
        out = []
        for g in groups:
            score = 1.0 - math.prod(1.0 - min(usable[i].confidence, 0.999) for i in g)
            alternatives: dict[str, float] = {}
            for i in g:
                name = usable[i].alternative
                if name is not None:
                    alternatives[name] = max(alternatives.get(name, 0.0),
                                             usable[i].alternative_confidence)
            out.append(CardSighting(card=usable[g[0]].card, score=score, pixels=centres[g],
                                    table=table[g], seat=self._seat_at(table[g].mean(axis=0)),
                                    alternatives=alternatives))
        return _one_of_twins(out)

    def _unless_read_surely(self, t: float, boxes: list[Detection], points: np.ndarray
                            ) -> tuple[list[Detection], np.ndarray]:
        """The boxes and their table points, less the weak ones (named under ``weak_box``)
        that give another name than the one read most surely on the same card in the last
        ``weak_after`` seconds.
        A far card read at 0.45 on both corners, frame after frame and never more surely,
        is read in the end; but where a card is read surely now and then, a weak read of
        another name in between would only make a fight of it (tests/reader/test_weak_reads).
        A weak read agreeing with the sure ones still counts: it is more of the same."""
        cfg = self.config
        weak: list[tuple[Detection, float, float]] = []
        for d, (x, y) in zip(boxes, points, strict=True):
            if d.confidence >= cfg.weak_box or d.card == FACE_DOWN:
                self._sure_seen.append((t, float(x), float(y), d.card, d.confidence))
            else:
                weak.append((d, float(x), float(y)))
        while self._sure_seen and self._sure_seen[0][0] < t - cfg.weak_after:
            self._sure_seen.popleft()
        dropped: set[int] = set()  # (ids of the boxes left out)
        for d, x, y in weak:
            read: dict[str, float] = {}  # names read surely on this card, summed
            for _t, sx, sy, card, confidence in self._sure_seen:
                if math.hypot(sx - x, sy - y) <= SAME_CARD:
                    read[card] = read.get(card, 0.0) + confidence
            if read and max(read, key=lambda name: read[name]) != d.card:
                dropped.add(id(d))
        kept = [i for i, d in enumerate(boxes) if id(d) not in dropped]
        return [boxes[i] for i in kept], points[kept]
