"""Evidence per card name: where its corners have lain, how long it has rested, how much
was read of it, and the geometry that says two names are read on one card.

A euchre deck has one card of each name, so each name is one track. A card that is not
seen keeps its state: it only needs to be seen again, not to rest again (resting is
reset by motion, two sightings in a row off its resting place, never by absence).

>>> import numpy as np
>>> cfg = ReaderConfig()
>>> track = Track("JH", first_seen=0.0, last_seen=0.0, rest_start=0.0, came=0.0,
...               points=np.array([[0.5, 0.2]]))
>>> for i in range(6):
...     track.observe(i / 10, np.array([[0.5, 0.2]]), 0.9, cfg)
>>> round(track.total, 2), track.frames(0.5, cfg), [round(float(v), 2) for v in track.position]
(5.4, 6, [0.5, 0.2])
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kiosk.rules.cards import Seat
from kiosk.vision.reader.config import ON_CORNERS, SAME_PLACE, ReaderConfig


@dataclass
class Track:
    """One card name seen on the table: when, where, how sure."""

    card: str
    first_seen: float
    last_seen: float
    rest_start: float
    points: np.ndarray
    #: when the card was put where it lies: a nudge restarts ``rest_start`` but not this
    #: (the card was played when it first came down); being taken away and put down
    #: again restarts both
    came: float = -math.inf
    observations: deque[tuple[float, float]] = field(default_factory=deque)
    #: corners seen since the card came to rest: [x, y, weight of the running mean, sightings]
    anchors: list[list[float]] = field(default_factory=list)
    moving: np.ndarray | None = None  # where the last sighting that moved was
    total: float = 0.0  # every sighting's score since the name was first seen here
    #: every sighting's score since the card stopped where it lies (``rest_start``): what
    #: was read while it slid in, blurred, is not counted
    at_rest: float = 0.0
    #: the classifier's runner-up names on its corners, summed like ``total``
    alternatives: dict[str, float] = field(default_factory=dict)
    shadow: bool = False  # read on a trick card's corners: a misreading of that card
    #: the trick card whose corners it is read on (when ``shadow`` was set for that)
    shadow_of: str | None = None
    zone_seat: Seat | None = None  # the seat whose zone it lies in, and since when
    zone_since: float = 0.0

    def observe(self, t: float, points: np.ndarray, score: float, cfg: ReaderConfig) -> None:
        """Add one sighting. Resting is judged against where each corner has lain since the
        card stopped (a running mean, so box jitter averages out); a corner that appears
        or vanishes (a hand passing) is not motion; the card has moved only when two
        sightings in a row are off by more than ``move_tolerance``. A card seen again far
        from where it lay, after it was out of sight, was picked up and put down again."""
        if self.anchors and t - self.last_seen > cfg.takeback_gap and min(
                math.hypot(p[0] - a[0], p[1] - a[1]) for p in points for a in self.anchors
        ) > cfg.corner_jump:
            self.rest_start = self.came = t
            self.observations.clear()
            self.anchors = []
            self.total = self.at_rest = 0.0  # what was seen elsewhere says nothing of here
            self.alternatives = {}
            self.shadow, self.shadow_of = False, None
            self.zone_seat = None  # (and when it came into its zone: from now)
        matched: list[tuple[float, list[float], np.ndarray]] = []
        fresh: list[np.ndarray] = []
        for p in points:
            best: list[float] | None = None
            distance = math.inf
            for anchor in self.anchors:
                d = math.hypot(p[0] - anchor[0], p[1] - anchor[1])
                if d < distance:
                    best, distance = anchor, d
            if best is None or distance > cfg.corner_jump:
                fresh.append(p)
            else:
                matched.append((distance, best, p))
        # Only new corners and none of the old ones: the card has jumped (a fast slide)
        # or a hand swapped which corner shows; a second such sighting in a row decides.
        moved = (min(d for d, _a, _p in matched) > cfg.move_tolerance if matched
                 else bool(self.anchors))
        if moved and self.moving is not None and float(np.min(np.linalg.norm(
                points[:, None, :] - self.moving[None, :, :], axis=2))) > cfg.cluster_radius:
            # this sighting and the last one that moved disagree: one of them was a
            # false box; keep the card where it was and remember the newer one
            self.moving = points
            return
        if moved and self.moving is not None:
            if not matched or self.last_seen - self.rest_start < cfg.rest_time:
                # still arriving, or gone somewhere else; a card that had come to rest
                # and moved a little was nudged, and was played when it came down
                self.came = t
            self.rest_start = t
            self.at_rest = 0.0
            self.observations.clear()
            self.anchors = [[float(p[0]), float(p[1]), 1.0, 1.0] for p in points]
            self.moving = None
            self.shadow, self.shadow_of = False, None  # judged afresh where it now lies
        else:
            self.moving = points if moved else None
            if not moved:
                for _d, anchor, p in matched:
                    n = min(anchor[2], 8.0)
                    anchor[0] = (anchor[0] * n + float(p[0])) / (n + 1)
                    anchor[1] = (anchor[1] * n + float(p[1])) / (n + 1)
                    anchor[2] = n + 1
                    anchor[3] += 1
            self.anchors += [[float(p[0]), float(p[1]), 1.0, 1.0] for p in fresh
                             if not self.anchors or min(math.hypot(p[0] - a[0], p[1] - a[1])
                                                        for a in self.anchors)
                             <= cfg.cluster_radius]
        self.points = points
        self.last_seen = t
        self.total += score
        self.at_rest += score
        self.observations.append((t, score))
        while self.observations and self.observations[0][0] < t - cfg.window:
            self.observations.popleft()

    @property
    def position(self) -> np.ndarray:
        """Where the card lies: the mean of its corners since it came to rest (both
        corners, once both were seen), so one visible corner does not move it; each
        corner weighs as often as it was seen, so a stray misread box hardly counts."""
        a = np.array(self.anchors)
        centre: np.ndarray = np.average(a[:, :2], axis=0, weights=a[:, 3])
        return centre

    def main_corners(self) -> list[list[float]]:
        """The corners seen at least half as often as the most seen one."""
        most = max(a[3] for a in self.anchors)
        return [a for a in self.anchors if a[3] >= most / 2]

    def distance(self, points: np.ndarray) -> float:
        """How far the nearest of ``points`` lies from the nearest of its corners."""
        if not self.anchors:
            return math.inf
        return min(math.hypot(p[0] - a[0], p[1] - a[1]) for p in points for a in self.anchors)

    def evidence(self, now: float, cfg: ReaderConfig) -> float:
        """The scores read since it stopped, within the last ``window``."""
        since = max(self.rest_start, now - cfg.window)
        return sum(s for t, s in self.observations if t >= since)

    def frames(self, now: float, cfg: ReaderConfig) -> int:
        """The frames it was read in since it stopped, within the last ``window``."""
        since = max(self.rest_start, now - cfg.window)
        return sum(1 for t, _ in self.observations if t >= since)

    def rested(self, t: float, cfg: ReaderConfig) -> bool:
        """Whether it has lain still long enough, in enough frames, read surely enough."""
        return (t - self.rest_start >= cfg.rest_time and self.frames(t, cfg) >= cfg.min_frames
                and self.evidence(t, cfg) >= cfg.accept_evidence)

    def mean_score(self, sure: float = 0.0) -> float:
        """The mean score of its recent frames; of those scored ``sure`` or more, when it
        has any (a card read surely is not made doubtful by weak reads of its name between)."""
        scores = [s for _, s in self.observations]
        surely = [s for s in scores if s >= sure]
        chosen = surely or scores
        return sum(chosen) / len(chosen) if chosen else 0.0

    def confidence(self, runner_up: float, sure: float = 0.0) -> float:
        """How sure a play of this name is against a rival read ``runner_up`` in all: its
        mean score (over its frames scored ``sure`` or more, if any), times its share of the
        two names' evidence."""
        return min(0.999, self.mean_score(sure) * self.total / (self.total + runner_up))


def overlaps(a: Track, b: Track, reach: float = ON_CORNERS) -> bool:
    """Whether name ``a`` is mostly read on the corners of card ``b`` (one card, read
    two ways), judged on the corners where ``a`` is read most."""
    return bool(a.anchors) and all_near(a.main_corners(), b.anchors, reach)


def one_card(a: Track, b: Track) -> bool:
    """Whether names ``a`` and ``b`` are read on one card, either mostly on the other's
    corners (a name read on one corner of a card read on both is still that card)."""
    return overlaps(a, b) or overlaps(b, a)


def on_the_spot(a: Track, b: Track) -> bool:
    """Whether name ``a`` is read exactly where name ``b`` was (within ``SAME_PLACE``):
    where ``b``'s corners lay, or where it was last seen (a card still sliding in when it
    was last read has no resting corners there yet)."""
    spots = [*b.anchors, *b.points]
    return bool(a.anchors) and all_near(a.main_corners(), spots, SAME_PLACE)


def all_near(points: Iterable[Sequence[float]], spots: Sequence[Sequence[float]],
             reach: float) -> bool:
    """Whether every point lies within ``reach`` of one of the spots (x, y first).

    >>> all_near([(0, 0), (1, 1)], [(0, 0.01), (1, 1)], 0.02), all_near([(0, 0)], [], 1)
    (True, False)
    """
    return all(any(math.hypot(p[0] - q[0], p[1] - q[1]) <= reach for q in spots)
               for p in points)
