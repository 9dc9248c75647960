"""The score drawn as two 5s, the way the rule books keep score without paper.

Pure geometry, no Kivy: the kiosk's score screen draws these poses, and the training
scenes (datasets/marker_stills.py) lay real 5s in them, so both share this one module.

alberta55.txt, "10. MARKERS": a 5 face up at the bottom, a second card on top
face down. Each point moves the top card to expose one more pip of the
bottom 5. At five points the top card is turned face up (it counts five) and
covers the bottom again; points six to nine expose pips again; ten shows the
whole bottom card.

A straight slide uncovers a 5's pips two at a time (a row or a column go
together), so each count has its own pose of the top card (a turn and a
shift), found by a search for the widest gap between every pip and the top
card's edge: a pip is either plainly visible or plainly hidden. Pips appear in
the order top-left, top-right, centre, bottom-left, bottom-right.
tests/app/test_markers.py checks every count from 0 to 10.

Geometry is in card units: a card is 1 wide and 1.4 high, origin bottom-left,
y up (as in Kivy).

>>> m = marker(7)
>>> m.top_face_up, m.exposed
(True, 2)
>>> exposed_pips(m)
2
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CARD_W = 1.0
CARD_H = 1.4
#: Pips of the bottom 5 (card units), in the order the top card uncovers them.
PIPS: tuple[tuple[float, float], ...] = (
    (0.25 * CARD_W, 0.84 * CARD_H), (0.75 * CARD_W, 0.84 * CARD_H),
    (0.5 * CARD_W, 0.5 * CARD_H),
    (0.25 * CARD_W, 0.16 * CARD_H), (0.75 * CARD_W, 0.16 * CARD_H),
)
PIP_RADIUS = 0.065
#: The top card's pose for 0..5 exposed pips: (turn in degrees, shift x, shift y).
POSES: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.0, 0.0),
    (-40.0, 0.16, -0.12),
    (-40.0, -0.08, -0.48),
    (0.0, 0.0, -0.92),
    (5.0, 0.56, -0.92),
    (0.0, 1.08, -0.2),
)


@dataclass(frozen=True)
class Marker:
    """How the two 5s lie for one side's score."""

    points: int
    top_face_up: bool  # the top card shows its face (it counts five)
    exposed: int  # pips of the bottom card showing
    offset: tuple[float, float]  # the top card's shift, card units
    tilt: float  # the top card's turn about its centre, degrees (counter-clockwise)


def marker(points: int) -> Marker:
    """Where the top card lies for `points` (capped to 0..10)."""
    points = max(0, min(10, points))
    face_up = points >= 5
    exposed = 5 if points == 10 else points % 5
    tilt, dx, dy = POSES[exposed]
    return Marker(points=points, top_face_up=face_up, exposed=exposed, offset=(dx, dy),
                  tilt=tilt)


def _corners(m: Marker) -> list[tuple[float, float]]:
    cx, cy = CARD_W / 2 + m.offset[0], CARD_H / 2 + m.offset[1]
    th = math.radians(m.tilt)
    out = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = sx * CARD_W / 2, sy * CARD_H / 2
            out.append((cx + x * math.cos(th) - y * math.sin(th),
                        cy + x * math.sin(th) + y * math.cos(th)))
    return out


def span() -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of the drawing over every count: a fixed frame,
    so the marker does not jump about as the score changes."""
    xs, ys = [0.0, CARD_W], [0.0, CARD_H]
    for n in range(11):
        for x, y in _corners(marker(n)):
            xs.append(x)
            ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def clearance(px: float, py: float, m: Marker) -> float:
    """Signed distance from a pip's centre to the top card's edge (> 0: outside)."""
    cx, cy = CARD_W / 2 + m.offset[0], CARD_H / 2 + m.offset[1]
    dx, dy = px - cx, py - cy
    th = -math.radians(m.tilt)
    lx = dx * math.cos(th) - dy * math.sin(th)
    ly = dx * math.sin(th) + dy * math.cos(th)
    qx, qy = abs(lx) - CARD_W / 2, abs(ly) - CARD_H / 2
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0)


def exposed_pips(m: Marker) -> int:
    """How many pips of the bottom card the drawn top card leaves in sight."""
    return sum(clearance(px, py, m) > PIP_RADIUS for px, py in PIPS)
