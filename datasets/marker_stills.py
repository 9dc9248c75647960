"""Stills of a table after a hand, with each side's two 5s left at a known count.

Why: the kiosk checks the players' own score board (alberta55.txt, "10. MARKERS")
against its own after every hand, and must be measured on pictures whose truth is
known long before anyone films a club's table. A still shows what the camera sees when
the last trick is turned: both sides' 5s at the side of the table, the hand's tricks
face down in front of the players who took them, the table's light, noise and blur
(:class:`datasets.handvideo.SceneRenderer`, so the same camera as the rendered hands).

The 5s are the table's own deck (any deck, the held-out ones included). A player moves
the top card until the pips they want show, so each count's pose is searched for on
*that deck's* 5 (its pips found in its art): the first ``k`` pips in reading order
(top-left, top-right, centre, bottom-left, bottom-right) plainly uncovered and the rest
plainly covered, starting from the poses :mod:`kiosk.vision.fives.poses` draws.

Layout in table coordinates (:mod:`kiosk.vision.camera.calibration`): each side keeps its 5s
in the band along one of its players' edges, towards a corner; the tricks lie in the
middle of the band, in front of the players who took them.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from datasets.hand_script import CARD_W, Glare, Key, Rng, Scene, Track
from kiosk.rules.cards import Seat
from kiosk.vision.fives import poses as drawn

#: the seats whose edge a side's 5s may lie along
SIDE_EDGES = {"NS": ("N", "S"), "EW": ("E", "W")}
_AXIS = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
_FACING = {"S": 0.0, "E": 90.0, "N": 180.0, "W": -90.0}
#: still sizes: the kiosk reads the 5s from one full-resolution still after a hand (a
#: tablet's camera takes 1920 x 1080; the far side's pips are small even so)
STILL_SIZES = {"overhead": (960, 960), "tablet": (1920, 1080)}
#: how clearly a pip must be in or out of sight (card widths, beyond the pip's radius)
POSE_MARGIN = 0.06
SUITS_OF_COLOUR = {"red": ("H", "D"), "black": ("C", "S")}


@dataclass(frozen=True)
class PipLayout:
    """Where a deck's 5 prints its pips: centres in card widths from the top-left corner
    (y down), in reading order, with the largest pip's radius."""

    centres: tuple[tuple[float, float], ...]
    radius: float
    aspect: float  # card height / width


@functools.cache
def pip_layout(deck: str) -> PipLayout:
    """The five pips of the deck's 5 of hearts, found in its art (the index corners left
    out: their suits lie within a fifth of the card's width of its sides)."""
    from datasets import cards_art

    art = cards_art.load_card(deck, "5H")
    h, w = art.shape[:2]
    rgb = art[:, :, :3].astype(np.int16)
    red = ((rgb[:, :, 0] - np.maximum(rgb[:, :, 1], rgb[:, :, 2]) > 60)
           & (art[:, :, 3] > 128)).astype(np.uint8)
    n, _labels, stats, cents = cv2.connectedComponentsWithStats(red, connectivity=8)
    blobs = []
    for i in range(1, n):
        cx, cy = cents[i]
        if 0.2 * w < cx < 0.8 * w and 0.1 * h < cy < 0.9 * h and stats[i, 4] > 0.0005 * w * h:
            blobs.append((int(stats[i, 4]), cx / w, cy / w,
                          max(stats[i, 2], stats[i, 3]) / 2 / w))
    blobs = sorted(blobs, reverse=True)[:5]
    if len(blobs) != 5:
        raise ValueError(f"{deck}: found {len(blobs)} pips on the 5 of hearts, not 5")
    # reading order: the top row left to right, the centre, the bottom row left to right
    by_y = sorted(blobs, key=lambda b: b[2])
    ordered = sorted(by_y[:2], key=lambda b: b[1]) + [by_y[2]] + sorted(by_y[3:],
                                                                        key=lambda b: b[1])
    return PipLayout(centres=tuple((b[1], b[2]) for b in ordered),
                     radius=max(b[3] for b in ordered), aspect=h / w)


def _clearance(layout: PipLayout, tilt: np.ndarray, dx: np.ndarray, dy: np.ndarray
               ) -> np.ndarray:
    """Signed distance (card widths, > 0 outside) from each pip's centre to the top card's
    edge, for many poses at once: shape (poses, 5). A pose is the top card's turn
    (degrees, counter-clockwise on the picture) and the shift of its centre from the
    bottom card's (card widths, y down)."""
    a = layout.aspect
    px = np.array([c[0] - 0.5 for c in layout.centres])[None, :] - dx[:, None]
    py = np.array([c[1] - a / 2 for c in layout.centres])[None, :] - dy[:, None]
    t = np.radians(tilt)[:, None]
    # into the top card's frame: undo its turn (a turn t maps (u, v) to
    # (u cos t + v sin t, -u sin t + v cos t) on the picture)
    lx = px * np.cos(t) - py * np.sin(t)
    ly = px * np.sin(t) + py * np.cos(t)
    qx, qy = np.abs(lx) - 0.5, np.abs(ly) - a / 2
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    result: np.ndarray = outside + np.minimum(np.maximum(qx, qy), 0)
    return result


@functools.cache
def count_poses(deck: str, exposed: int, wanted: int = 24) -> tuple[tuple[float, float, float],
                                                                   ...]:
    """Poses (turn, dx, dy) of the top card that show exactly the first ``exposed`` pips
    of the deck's 5, each pip at least :data:`POSE_MARGIN` clear of the top card's edge;
    the ones nearest :mod:`kiosk.vision.fives.poses`' drawing first."""
    layout = pip_layout(deck)
    tilt0, dx0, dy0 = drawn.POSES[exposed]
    rng = np.random.default_rng(exposed)
    n = 40000
    spread = np.array([35.0, 0.45, 0.45]) if exposed not in (0,) else np.array([4.0, 0.03, 0.03])
    tilt = tilt0 + rng.uniform(-1, 1, n) * spread[0]
    dx = dx0 + rng.uniform(-1, 1, n) * spread[1]
    dy = -dy0 * layout.aspect / drawn.CARD_H + rng.uniform(-1, 1, n) * spread[2]
    clear = _clearance(layout, tilt, dx, dy)
    shown = np.arange(5) < exposed
    # each pip's slack: how far beyond its own radius it is in (or out of) sight
    slack = np.where(shown[None, :], clear, -clear).min(axis=1) - layout.radius
    # a deck whose pips sit close together cannot give every pip the full margin
    ok = slack > min(POSE_MARGIN, 0.8 * float(slack.max()))
    if exposed == 0:  # the top card lies square on the bottom one, give or take a hand
        ok = np.ones(n, bool)
    idx = np.flatnonzero(ok)
    if idx.size == 0:
        raise ValueError(f"{deck}: no pose of the top card shows exactly {exposed} pips")
    distance = (np.abs(tilt[idx] - tilt0) / 40 + np.abs(dx[idx] - dx0)
                + np.abs(dy[idx] + dy0 * layout.aspect / drawn.CARD_H))
    best = idx[np.argsort(distance)[:wanted]]
    return tuple((float(tilt[i]), float(dx[i]), float(dy[i])) for i in best)


@dataclass(frozen=True)
class MarkerPlace:
    """Where one side's 5s lie: the bottom card's centre (table units) and its turn."""

    side: str
    edge: str  # the seat whose edge they lie along
    x: float
    y: float
    angle: float


def marker_tracks(deck: str, place: MarkerPlace, count: int, suits: tuple[str, str],
                  rng: Rng) -> list[Track]:
    """The two 5s at ``count`` (0..10): the bottom 5 face up, the top card face down under
    five and face up from five, moved to show the count's pips."""
    count = max(0, min(10, count))
    exposed = 5 if count == 10 else count % 5
    poses = count_poses(deck, exposed)
    tilt, dx, dy = poses[int(rng.integers(min(len(poses), 8)))]
    a = math.radians(place.angle)
    c, s = math.cos(a), math.sin(a)
    ox, oy = dx * CARD_W, dy * CARD_W
    top_x = place.x + c * ox + s * oy
    top_y = place.y - s * ox + c * oy
    bottom, top = "5" + suits[0], "5" + suits[1]
    return [Track(bottom, [Key(0, place.x, place.y, place.angle)], z=-4),
            Track(top, [Key(0, top_x, top_y, place.angle + tilt, face_up=count >= 5)], z=-3)]


def random_place(side: str, rng: Rng) -> MarkerPlace:
    """A side's 5s in the band along one of its players' edges, towards a corner: past
    the middle stretch where the tricks are laid, and whole on the table. The cards lie
    head to the edge, so the top card moves in towards the table (a 5 looks the same
    either way up)."""
    edge = SIDE_EDGES[side][int(rng.integers(2))]
    ax, ay = _AXIS[edge]
    lx, ly = -ay, ax
    lateral = float(rng.choice([-1, 1]) * rng.uniform(0.25, 0.3))
    depth = rng.uniform(0.41, 0.43)  # the bottom card's centre, from the table's centre
    angle = _FACING[edge] + 180 + rng.uniform(-12, 12)
    return MarkerPlace(side, edge, 0.5 + ax * depth + lx * lateral,
                       0.5 + ay * depth + ly * lateral, float(angle))


def random_places(rng: Rng) -> dict[str, MarkerPlace]:
    """Both sides' places, at different corners of the table (two pairs never overlap)."""
    ns = random_place("NS", rng)
    while True:
        ew = random_place("EW", rng)
        if (ew.x > 0.5) != (ns.x > 0.5) or (ew.y > 0.5) != (ns.y > 0.5):
            return {"NS": ns, "EW": ew}


def trick_tracks(rng: Rng, places: dict[str, MarkerPlace] | None = None) -> list[Track]:
    """The last hand's tricks, face down in front of the players who took them (and
    beside the 5s, never on them)."""
    out = []
    keep_clear = list((places or {}).values())
    winners = rng.choice(list("NESW"), size=5)
    piles = {s: 0 for s in "NESW"}
    for k, seat in enumerate(winners):
        ax, ay = _AXIS[str(seat)]
        lx, ly = -ay, ax
        lat = -0.17 + 0.075 * piles[str(seat)] + rng.uniform(-0.01, 0.01)
        piles[str(seat)] += 1
        x, y = 0.5 + ax * 0.44 + lx * lat, 0.5 + ay * 0.44 + ly * lat
        if any(math.hypot(x - p.x, y - p.y) < 0.2 for p in keep_clear):
            continue
        angle = _FACING[str(seat)] + 90 + rng.uniform(-10, 10)
        for i in range(4):
            out.append(Track("9C", [Key(0, x + rng.uniform(-0.004, 0.004),
                                        y + rng.uniform(-0.004, 0.004),
                                        angle + rng.uniform(-4, 4), face_up=False)],
                             z=10 * k + i))
    return out


@dataclass
class Still:
    """One still: its picture, and the truth a marker reader should recover."""

    image: np.ndarray
    view: str
    deck: str
    corners: np.ndarray  # the table's corners NW, NE, SE, SW in the picture
    score: dict[str, int]  # the kiosk's score
    shown: dict[str, int]  # what each side's 5s show
    places: dict[str, MarkerPlace]
    info: dict[str, Any] = field(default_factory=dict)
    #: the camera's next frames of the same table (its sensor's noise differs)
    later: list[np.ndarray] = field(default_factory=list)


def render_still(deck: str, view: str, score: dict[str, int], shown: dict[str, int],
                 places: dict[str, MarkerPlace], suits: dict[str, tuple[str, str]],
                 seed: int, later: int = 0) -> Still:
    """One still of the table after a hand (the renderer's light, noise, blur and glare),
    and ``later`` more frames of it as the camera goes on filming."""
    from datasets.handvideo import SceneRenderer

    rng = np.random.default_rng(seed)
    glares = []
    if rng.random() < 0.15:
        glares.append(Glare(-1.0, 1.0, float(rng.uniform(0.1, 0.9)),
                            float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.05, 0.1))))
    scene = Scene(record={}, cards=trick_tracks(rng, places), hands=[], glares=glares, plays=[],
                  clears=[], duration=1.0, leader="N", trump="H", sitting_out=None)
    renderer = SceneRenderer(scene, view, seed=seed + 7919, size=STILL_SIZES[view], deck=deck)
    renderer.markers = [t for side in ("NS", "EW")
                        for t in marker_tracks(deck, places[side], shown[side], suits[side], rng)]
    index = int(rng.integers(5))
    image = renderer.frame(0.0, index)
    return Still(image=image, view=view, deck=deck, corners=renderer.corners.copy(),
                 score=dict(score), shown=dict(shown), places=places,
                 info={"surface": renderer.look.surface, "glare": bool(glares)},
                 later=[renderer.frame(0.0, index + k) for k in range(1, later + 1)])


def game_scores(rng: Rng, target: int = 10) -> list[dict[str, int]]:
    """The score after each hand of one game to ``target`` (points per hand 1, 2 or 4)."""
    score = {"NS": 0, "EW": 0}
    out = []
    while max(score.values()) < target:
        side = "NS" if rng.random() < 0.5 else "EW"
        score[side] = min(target, score[side] + int(rng.choice([1, 1, 1, 2, 2, 4])))
        out.append(dict(score))
    return out


def wrong_count(true: int, rng: Rng) -> int:
    """A count players might leave by mistake: a point or two off, or a 5 not turned."""
    options = {true - 2, true - 1, true + 1, true + 2}
    if true >= 5:
        options.add(true - 5)  # the top card not turned over
    choices = sorted(o for o in options if 0 <= o <= 10 and o != true)
    return int(choices[int(rng.integers(len(choices)))])


def seats_of(side: str) -> tuple[Seat, Seat]:
    a, b = SIDE_EDGES[side]
    return Seat.parse(a), Seat.parse(b)
