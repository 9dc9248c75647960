"""Rendered videos of whole euchre hands, with the ground truth written beside them.

Why: the trick reader must be proven on what it will meet at a table (cards
slid in, hands passing over them, a card nudged or taken back, glare, tricks
gathered and turned face down) long before anyone films real hands. This tool
takes a hand record (CONTRACTS), scripts the physical play of it, and renders
it from an overhead camera or a tablet at South's edge.

It reuses the detector's scene code (``datasets.cards_art`` faces and corner
index boxes, ``datasets.surfaces``, ``datasets.photometric``), so the boxes it
writes are exactly the labels the detector was trained on, and it is
deterministic by seed.

Three layers, each usable alone:

- :func:`script_hand`: record -> :class:`Scene` (keyframed cards, hands, glare;
  the truth: when each card came to rest, when each trick was turned);
- :class:`SceneRenderer`: scene -> frame pictures and the visible corner boxes
  per frame (occluded or glared corners are left out);
- :func:`oracle_stream`: visible boxes + injected detector noise (missed boxes
  and frames, jitter, false boxes, mislabels) -> a detection stream, the same
  JSON shape as a recorded one.

Layout in *table coordinates* (the play area as the unit square, North at the
top) matches ``kiosk.vision.calibration``: cards come to rest in their seat's
zone, trick piles and the 5s score markers lie in the band along the edges.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.tricks import legal_plays, trick_winner
from kiosk.vision.oracle import OracleNoise, noisify

Rng = np.random.Generator
SEATS = ("N", "E", "S", "W")
EUCHRE = tuple(r + s for s in "CDHS" for r in "9TJQKA")
#: card width and height in table units (a 63 x 88 mm card on a 75 cm play area)
CARD_W, CARD_H = 0.085, 0.119
#: canvas margin around the unit square, table units (the camera sees a little beyond)
MARGIN = 0.25
VIEW_SIZES = {"overhead": (480, 480), "tablet": (640, 360)}
_AXIS = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
#: card rotation (degrees, counter-clockwise) that turns a card to face its player
_FACING = {"S": 0.0, "E": 90.0, "N": 180.0, "W": -90.0}


# ---- hand records ------------------------------------------------------------------------
def random_hand(rng: Rng, *, alone: bool | None = None, renege_rate: float = 0.0) -> dict[str, Any]:
    """A random dealt and played hand record (CONTRACTS), legal unless a renege is drawn.

    Players follow suit (``renege_rate`` is the chance a player who could follow
    does not), otherwise play a random legal card; a lone maker's partner sits out.
    """
    deck = list(EUCHRE)
    rng.shuffle(deck)
    dealer = SEATS[int(rng.integers(4))]
    order = _clockwise(_left(dealer))
    hands = {seat: deck[5 * i: 5 * i + 5] for i, seat in enumerate(order)}
    turn_up = deck[20]
    trump = "CDHS"[int(rng.integers(4))]
    maker = SEATS[int(rng.integers(4))]
    lone = bool(rng.random() < 0.15) if alone is None else alone
    bids: list[dict[str, Any]]
    discard: str | None
    if trump == turn_up[1]:
        bids = [{"seat": s, "call": "pass"} for s in order[: order.index(maker)]]
        bids.append({"seat": maker, "call": "order", "alone": lone})
        discard = hands[dealer].pop(int(rng.integers(5)))
        hands[dealer].append(turn_up)
    else:
        bids = [{"seat": s, "call": "pass"} for s in order]
        bids += [{"seat": s, "call": "pass"} for s in order[: order.index(maker)]]
        bids.append({"seat": maker, "call": "name", "suit": trump, "alone": lone})
        discard = None
    dealt = {s: list(h) for s, h in hands.items()}
    if discard is not None:
        dealt[dealer] = [c for c in hands[dealer] if c != turn_up] + [discard]
    sitting_out = _partner(maker) if lone else None
    players = [s for s in SEATS if s != sitting_out]
    leader = _left(dealer)
    if leader == sitting_out:
        leader = _left(leader)
    held = {s: [Card.parse(c) for c in hands[s]] for s in players}
    t_suit = Suit.parse(trump)
    tricks: list[list[str]] = []
    for _ in range(5):
        plays: list[tuple[Seat, Card]] = []
        for seat in _clockwise(leader):
            if seat == sitting_out:
                continue
            hand = held[seat]
            legal = legal_plays(hand, plays[0][1] if plays else None, t_suit)
            pool = legal
            if plays and rng.random() < renege_rate:
                pool = [c for c in hand if c not in legal] or legal
            card = pool[int(rng.integers(len(pool)))]
            hand.remove(card)
            plays.append((Seat(seat), card))
        tricks.append([f"{s.value}:{c}" for s, c in plays])
        leader = trick_winner(plays, t_suit).value
    record: dict[str, Any] = {"dealer": dealer, "turn_up": turn_up, "bids": bids,
                              "tricks": tricks}
    record["hands"] = dealt
    if discard is not None:
        record["discard"] = discard
    return record


def contract_of(record: dict[str, Any]) -> tuple[str, str, bool]:
    """(trump, maker, alone) from a record's bids."""
    winning = [b for b in record.get("bids", []) if b.get("call") in ("order", "name")]
    if not winning:
        raise ValueError("the record has no winning bid")
    bid = winning[-1]
    trump = bid["suit"] if bid["call"] == "name" else record["turn_up"][1]
    return str(trump).upper(), str(bid["seat"]), bool(bid.get("alone", False))


def _left(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def _partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def _clockwise(seat: str) -> list[str]:
    i = SEATS.index(seat)
    return [SEATS[(i + k) % 4] for k in range(4)]


# ---- the scene: keyframed cards, hands and glare ----------------------------------------
@dataclass
class Key:
    """A card's (or palm's) pose from time ``t`` on; moves smoothly to the next key."""

    t: float
    x: float
    y: float
    angle: float = 0.0
    face_up: bool = True
    visible: bool = True


@dataclass
class Track:
    """One physical card, or one player's hand (``card`` is None; x, y is the palm)."""

    card: str | None
    keys: list[Key]
    seat: str = "S"
    z: int = 0

    def at(self, t: float) -> Key | None:
        keys = self.keys
        if not keys or t < keys[0].t:
            return None
        for a, b in zip(keys, keys[1:], strict=False):
            if a.t <= t < b.t:
                if not a.visible:
                    return None
                u = (t - a.t) / max(b.t - a.t, 1e-9)
                u = u * u * (3 - 2 * u)  # ease in and out: hands slow down at both ends
                return Key(t, a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u,
                           a.angle + (b.angle - a.angle) * u, a.face_up, True)
        last = keys[-1]
        return last if last.visible else None


@dataclass
class Glare:
    t0: float
    t1: float
    x: float
    y: float
    radius: float


@dataclass
class Scene:
    """A scripted hand: what moves when, and the truth a reader should recover."""

    record: dict[str, Any]
    cards: list[Track]
    hands: list[Track]
    glares: list[Glare]
    plays: list[dict[str, Any]]  # {trick, seat, card, t_rest}
    clears: list[float]  # time each trick was turned face down
    duration: float
    leader: str
    trump: str
    sitting_out: str | None
    events: list[dict[str, Any]] = field(default_factory=list)  # tricky moments, for reports


@dataclass(frozen=True)
class Tricks:
    """How often each tricky thing happens in a scripted hand (per play)."""

    takeback: float = 0.06
    nudge: float = 0.10
    pass_over: float = 0.25
    glare: float = 0.10
    out_of_turn: float = 0.0


def script_hand(record: dict[str, Any], rng: Rng, tricks: Tricks = Tricks()) -> Scene:
    """Turn a hand record into a keyframed scene of it being played."""
    trump, maker, alone = contract_of(record)
    sitting_out = _partner(maker) if alone else None
    plays_in = [[(p.split(":")[0], p.split(":")[1]) for p in trick] for trick in record["tricks"]]
    winners = []
    for k, plays in enumerate(plays_in):
        if k + 1 < len(plays_in):
            winners.append(plays_in[k + 1][0][0])
        else:
            winners.append(trick_winner([(Seat(s), Card.parse(c)) for s, c in plays],
                                        Suit.parse(trump)).value)
    played = {c for trick in plays_in for _s, c in trick}
    spare = [c for c in EUCHRE if c not in played]
    cards: list[Track] = []
    hands: list[Track] = []
    glares: list[Glare] = []
    truth: list[dict[str, Any]] = []
    clears: list[float] = []
    events: list[dict[str, Any]] = []
    z = 0
    t = 0.6
    piles = {s: 0 for s in SEATS}

    def slide_in(seat: str, card: str, t0: float) -> tuple[Track, float, tuple[float, float]]:
        """A card carried from the player's edge to its rest in the seat's zone."""
        nonlocal z
        ax, ay = _AXIS[seat]
        lx, ly = -ay, ax  # lateral direction
        r = rng.uniform(0.15, 0.27)
        lat = rng.uniform(-0.07, 0.07)
        rest = (0.5 + ax * r + lx * lat, 0.5 + ay * r + ly * lat)
        start = (0.5 + ax * 0.62 + lx * lat * 1.5, 0.5 + ay * 0.62 + ly * lat * 1.5)
        angle = _FACING[seat] + rng.uniform(-25, 25)
        slide = rng.uniform(0.45, 0.8)
        t_rest = t0 + slide
        z += 1
        track = Track(card, [Key(t0, *start, angle + rng.uniform(-20, 20)),
                             Key(t_rest, *rest, angle)], seat=seat, z=z)
        hold = rng.uniform(0.1, 0.3)
        back = rng.uniform(0.35, 0.6)
        palm_off = (ax * 0.07, ay * 0.07)
        hands.append(Track(None, [
            Key(t0, start[0] + palm_off[0], start[1] + palm_off[1]),
            Key(t_rest, rest[0] + palm_off[0], rest[1] + palm_off[1]),
            Key(t_rest + hold, rest[0] + palm_off[0], rest[1] + palm_off[1]),
            Key(t_rest + hold + back, start[0] + palm_off[0] * 2, start[1] + palm_off[1] * 2,
                visible=False),
        ], seat=seat))
        return track, t_rest, rest

    def reach(seat: str, target: tuple[float, float], t0: float, stay: float) -> float:
        """A hand reaching from a seat's edge to a point and back; returns its end time."""
        ax, ay = _AXIS[seat]
        edge = (0.5 + ax * 0.65 + (target[0] - 0.5) * abs(ay),
                0.5 + ay * 0.65 + (target[1] - 0.5) * abs(ax))
        go = rng.uniform(0.3, 0.5)
        hands.append(Track(None, [Key(t0, *edge), Key(t0 + go, *target),
                                  Key(t0 + go + stay, *target),
                                  Key(t0 + 2 * go + stay, *edge, visible=False)], seat=seat))
        return t0 + 2 * go + stay

    for k, plays in enumerate(plays_in):
        on_table: list[Track] = []
        for seat, card in plays:
            if rng.random() < tricks.takeback:
                later = [c for trick in plays_in[k + 1:] for s, c in trick if s == seat]
                pool = later or spare
                wrong = pool[int(rng.integers(len(pool)))]
                track, t_rest, rest = slide_in(seat, wrong, t)
                t_take = t_rest + rng.uniform(0.9, 1.6)
                ax, ay = _AXIS[seat]
                edge = (rest[0] + ax * 0.35, rest[1] + ay * 0.35)
                track.keys += [Key(t_take, *rest, track.keys[-1].angle),
                               Key(t_take + 0.5, *edge, track.keys[-1].angle, visible=False)]
                reach(seat, (rest[0] + ax * 0.06, rest[1] + ay * 0.06), t_take - 0.35, 0.35)
                cards.append(track)
                events.append({"kind": "takeback", "seat": seat, "card": wrong,
                               "replaced_by": card, "t": t_take})
                t = t_take + rng.uniform(0.7, 1.1)
            track, t_rest, rest = slide_in(seat, card, t)
            cards.append(track)
            on_table.append(track)
            truth.append({"trick": k + 1, "seat": seat, "card": card, "t_rest": round(t_rest, 3)})
            t = t_rest + rng.uniform(0.5, 1.0)
            if rng.random() < tricks.glare:
                gx, gy = rest
                glares.append(Glare(t_rest + 0.6, t_rest + 0.6 + rng.uniform(0.1, 0.35),
                                    gx + rng.uniform(-0.03, 0.03), gy + rng.uniform(-0.03, 0.03),
                                    rng.uniform(0.05, 0.1)))
                events.append({"kind": "glare", "seat": seat, "t": t_rest + 0.6})
            if rng.random() < tricks.nudge and on_table:
                victim = on_table[int(rng.integers(len(on_table)))]
                last = victim.keys[-1]
                tn = max(t, last.t + 0.2)
                dx, dy = rng.uniform(-0.035, 0.035, size=2)
                victim.keys += [Key(tn, last.x, last.y, last.angle),
                                Key(tn + 0.3, last.x + dx, last.y + dy,
                                    last.angle + rng.uniform(-15, 15))]
                reach(victim.seat, (last.x, last.y), tn - 0.35, 0.3)
                events.append({"kind": "nudge", "seat": victim.seat, "t": tn})
                t = tn + 0.6
            if rng.random() < tricks.pass_over:
                other = SEATS[int(rng.integers(4))]
                target = (0.5 + rng.uniform(-0.15, 0.15), 0.5 + rng.uniform(-0.15, 0.15))
                end = reach(other, target, t - 0.2, rng.uniform(0.2, 0.8))
                events.append({"kind": "pass_over", "seat": other, "t": t - 0.2})
                t = max(t, end - 0.3)
        # gather the trick: to the centre, then to a pile before the winner, face down
        winner = winners[k]
        tg = t + rng.uniform(0.4, 1.0)
        ax, ay = _AXIS[winner]
        lx, ly = -ay, ax
        lat = -0.2 + 0.09 * piles[winner]
        piles[winner] += 1
        pile = (0.5 + ax * 0.44 + lx * lat, 0.5 + ay * 0.44 + ly * lat)
        pile_angle = _FACING[winner] + 90 + rng.uniform(-10, 10)
        for i, track in enumerate(on_table):
            last = track.keys[-1]
            cx, cy = 0.5 + 0.01 * i, 0.5 - 0.01 * i
            track.keys += [Key(tg + 0.05 * i, last.x, last.y, last.angle),
                           Key(tg + 0.6, cx, cy, pile_angle),
                           Key(tg + 0.8, cx, cy, pile_angle),
                           Key(tg + 1.5, *pile, pile_angle),
                           Key(tg + 1.7, *pile, pile_angle, face_up=False)]
            track.z = 1000 * (k + 1) + i
        hands.append(Track(None, [Key(tg - 0.3, 0.5 + ax * 0.65, 0.5 + ay * 0.65),
                                  Key(tg + 0.6, 0.5 + ax * 0.06, 0.5 + ay * 0.06),
                                  Key(tg + 0.8, 0.5 + ax * 0.06, 0.5 + ay * 0.06),
                                  Key(tg + 1.5, pile[0] + ax * 0.06, pile[1] + ay * 0.06),
                                  Key(tg + 1.8, pile[0] + ax * 0.06, pile[1] + ay * 0.06),
                                  Key(tg + 2.2, 0.5 + ax * 0.7, 0.5 + ay * 0.7, visible=False)],
                           seat=winner))
        clears.append(round(tg + 1.7, 3))
        t = tg + 2.2 + rng.uniform(0.2, 0.8)
    leader = plays_in[0][0][0] if plays_in else _left(record["dealer"])
    return Scene(record=record, cards=cards, hands=hands, glares=glares, plays=truth,
                 clears=clears, duration=t + 1.5, leader=leader, trump=trump,
                 sitting_out=sitting_out, events=events)


def score_markers(rng: Rng) -> list[Track]:
    """The two teams' 5s at the side of the table (out of every seat's zone)."""
    suits = list("CDHS")
    rng.shuffle(suits)
    out = []
    for i, (x, y, angle) in enumerate([(0.035, 0.72, 0.0), (0.965, 0.28, 180.0)]):
        a, b = suits[2 * i], suits[2 * i + 1]
        out.append(Track("5" + b, [Key(0, x, y + 0.03, angle + rng.uniform(-5, 5), face_up=False)],
                         z=-2))
        out.append(Track("5" + a, [Key(0, x, y - 0.02, angle + rng.uniform(-5, 5))], z=-1))
    return out


# ---- the camera -------------------------------------------------------------------------
def table_corners(view: str, size: tuple[int, int], rng: Rng) -> np.ndarray:
    """Pixel positions of the table square's corners NW, NE, SE, SW for a camera."""
    w, h = size
    if view == "overhead":
        inset = rng.uniform(0.0, 0.05, size=(4, 2))
        base = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.float64)
        signs = np.array([(1, 1), (-1, 1), (-1, -1), (1, -1)])
        corners = base + signs * inset
    elif view == "tablet":
        from kiosk.vision.calibration import TABLET_CORNERS

        corners = np.array(TABLET_CORNERS) + rng.uniform(-0.03, 0.03, size=(4, 2))
    else:
        raise ValueError(f"unknown view {view!r}")
    return corners * (w, h)


@dataclass(frozen=True)
class Look:
    """The light and camera of one video (kept for every frame of it)."""

    deck: str
    surface: str
    seed: int
    glare_strength: float
    blur: float
    noise: float


class SceneRenderer:
    """Draws a scene frame by frame and lists the corner boxes a perfect detector would see."""

    def __init__(self, scene: Scene, view: str, seed: int, size: tuple[int, int] | None = None,
                 mat: bool = False, deck: str | None = None) -> None:
        from datasets import cards_art, surfaces

        rng = np.random.default_rng(seed)
        self.scene, self.view = scene, view
        self.size = size or VIEW_SIZES[view]
        decks = cards_art.table_decks()
        if not decks:
            raise RuntimeError("no card decks installed (gnome-cards-data)")
        self.deck = deck or decks[int(rng.integers(len(decks)))]
        self.corners = table_corners(view, self.size, rng)
        w, h = self.size
        per_unit = max(float(np.linalg.norm(self.corners[2] - self.corners[3])),
                       float(np.linalg.norm(self.corners[1] - self.corners[2])))
        self.canvas_size = int(min(1100, max(400, per_unit * (1 + 2 * MARGIN))))
        cs = self.canvas_size
        self.px_per_unit = cs / (1 + 2 * MARGIN)
        table_to_frame = cv2.getPerspectiveTransform(
            np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32),
            self.corners.astype(np.float32))
        canvas_to_table = np.array([[1 / self.px_per_unit, 0, -MARGIN],
                                    [0, 1 / self.px_per_unit, -MARGIN], [0, 0, 1]])
        self.canvas_to_frame = table_to_frame @ canvas_to_table
        self.table_to_frame = table_to_frame
        surface_name = list(surfaces.SURFACES)[int(rng.integers(len(surfaces.SURFACES)))]
        self.background = np.clip(surfaces.SURFACES[surface_name](cs, rng), 0, 255).astype(
            np.float32)
        if mat:
            self._draw_mat()
        self.markers = score_markers(rng)
        self.look = Look(deck=self.deck, surface=surface_name, seed=seed,
                         glare_strength=float(rng.uniform(150, 260)),
                         blur=float(rng.uniform(0.4, 1.0)), noise=float(rng.uniform(1.5, 4)))
        self._light = self._lighting(rng)
        self._noise = [rng.normal(0, self.look.noise, (h, w, 3)).astype(np.float32)
                       for _ in range(5)]
        self._skin = np.array([[235, 190, 160], [200, 150, 110], [160, 110, 75],
                               [110, 70, 45]], np.float32)[int(rng.integers(4))]
        self._art: dict[str, np.ndarray] = {}

    # -- static parts
    def _draw_mat(self) -> None:
        from kiosk.vision.mat import render_mat

        side = int(self.px_per_unit)
        mat = render_mat(side).astype(np.float32)[:, :, ::-1]  # BGR -> RGB
        o = int(round(MARGIN * self.px_per_unit))
        self.background[o:o + side, o:o + side] = mat[: self.canvas_size - o,
                                                      : self.canvas_size - o]

    def _lighting(self, rng: Rng) -> np.ndarray:
        from datasets import photometric

        w, h = self.size
        ones = np.ones((h, w, 3), np.float32) * 200.0
        lit = photometric.light_gradient(ones, rng) if rng.random() < 0.7 else ones
        if rng.random() < 0.4:
            lit = photometric.shadow(lit, rng)
        gain = lit / 200.0
        cast = rng.uniform(0.85, 1.15, size=3).astype(np.float32)
        return gain * cast * rng.uniform(0.7, 1.15)

    def _card_art(self, card: str) -> np.ndarray:
        if card not in self._art:
            from datasets import cards_art

            face = cards_art.load_card(self.deck, card)
            width = max(8, int(CARD_W * self.px_per_unit * 2))
            height = int(round(face.shape[0] * width / face.shape[1]))
            self._art[card] = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
        return self._art[card]

    # -- geometry
    def _card_matrix(self, art_size: tuple[int, int], key: Key) -> np.ndarray:
        """2x3 affine: card-art pixels -> canvas pixels for a card at ``key``."""
        w, h = art_size
        s = CARD_W * self.px_per_unit / w
        a = math.radians(key.angle)
        c, si = math.cos(a) * s, math.sin(a) * s
        rot = np.array([[c, si], [-si, c]])
        centre = np.array([(key.x + MARGIN) * self.px_per_unit,
                           (key.y + MARGIN) * self.px_per_unit])
        offset = centre - rot @ np.array([w / 2, h / 2])
        return np.hstack([rot, offset[:, None]])

    def state(self, t: float) -> tuple[list[tuple[Track, Key]], list[tuple[Track, Key]],
                                      list[Glare]]:
        cards = [(tr, k) for tr in self.markers + self.scene.cards
                 if (k := tr.at(t)) is not None]
        cards.sort(key=lambda item: item[0].z)
        hands = [(tr, k) for tr in self.scene.hands if (k := tr.at(t)) is not None]
        glares = [g for g in self.scene.glares if g.t0 <= t < g.t1]
        return cards, hands, glares

    def boxes(self, t: float) -> list[dict[str, Any]]:
        """Corner boxes visible at ``t`` in frame pixels: what a perfect detector reports."""
        from datasets import cards_art

        cards, hands, glares = self.state(t)
        out = []
        w, h = self.size
        polys = []
        for tr, key in cards:
            face = cards_art.load_card(self.deck, tr.card or "back")
            m = self._card_matrix((face.shape[1], face.shape[0]), key)
            polys.append(_transform(m, np.array([(0, 0), (face.shape[1], 0),
                                                 (face.shape[1], face.shape[0]),
                                                 (0, face.shape[0])], np.float64)))
        for i, (tr, key) in enumerate(cards):
            label = (tr.card or "back") if key.face_up else "back"
            face = cards_art.load_card(self.deck, tr.card or "back")
            m = self._card_matrix((face.shape[1], face.shape[0]), key)
            boxes = cards_art.index_boxes(self.deck, label) or _default_index_boxes(face.shape)
            for box in boxes:
                x1, y1, x2, y2 = box
                quad = _transform(m, np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)],
                                              np.float64))
                centre = quad.mean(axis=0)
                if label != "back" and any(_inside(centre, polys[j])
                                           for j in range(i + 1, len(cards))):
                    continue
                if label != "back" and any(_under_hand(centre, hk, self.px_per_unit)
                                           for _tr, hk in hands):
                    continue
                table_pt = centre / self.px_per_unit - MARGIN
                if label != "back" and any(math.dist(table_pt, (g.x, g.y)) < g.radius
                                           for g in glares):
                    continue
                fq = _transform(self.canvas_to_frame, quad)
                bx1, by1 = fq.min(axis=0)
                bx2, by2 = fq.max(axis=0)
                if bx1 < 0 or by1 < 0 or bx2 > w or by2 > h:
                    continue
                out.append({"card": label, "box": [round(float(v), 1)
                                                   for v in (bx1, by1, bx2, by2)]})
        return out

    def frame(self, t: float, index: int = 0) -> np.ndarray:
        """The picture at ``t`` (BGR uint8, as a camera gives it)."""
        cards, hands, glares = self.state(t)
        canvas = self.background.copy()
        for tr, key in cards:
            art = self._card_art(tr.card if key.face_up and tr.card else "back")
            _paste(canvas, art, self._card_matrix((art.shape[1], art.shape[0]), key))
        for _tr, key in hands:
            self._draw_hand(canvas, key)
        for g in glares:
            self._draw_glare(canvas, g)
        w, h = self.size
        img = cv2.warpPerspective(canvas, self.canvas_to_frame, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        img *= self._light
        img += self._noise[index % len(self._noise)]
        if self.look.blur > 0.3:  # after the noise: a camera's own denoising softens it too
            img = cv2.GaussianBlur(img, (0, 0), self.look.blur)
        return np.clip(img, 0, 255).astype(np.uint8)[:, :, ::-1].copy()

    def _draw_hand(self, canvas: np.ndarray, key: Key) -> None:
        s = self.px_per_unit
        cs = self.canvas_size
        parts = _hand_parts(key)
        pts = np.array([p for a, b, _r in parts for p in (a, b)]) + MARGIN
        pad = max(r for _a, _b, r in parts) + 0.01
        x0, y0 = np.clip(((pts.min(axis=0) - pad) * s).astype(int), 0, cs)
        x1, y1 = np.clip(((pts.max(axis=0) + pad) * s).astype(int) + 1, 0, cs)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for (ax, ay), (bx, by), r in parts:
            p = (int((ax + MARGIN) * s) - x0, int((ay + MARGIN) * s) - y0)
            q = (int((bx + MARGIN) * s) - x0, int((by + MARGIN) * s) - y0)
            cv2.line(mask, p, q, 255, max(2, int(2 * r * s)))
            cv2.circle(mask, q, max(1, int(r * s)), 255, -1)
        alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.0)
        roi = canvas[y0:y1, x0:x1]
        shade = 0.75 + 0.25 * alpha
        roi *= 1 - alpha[:, :, None]
        roi += (self._skin[None, None, :] * shade[:, :, None]) * alpha[:, :, None]

    def _draw_glare(self, canvas: np.ndarray, g: Glare) -> None:
        s = self.px_per_unit
        r = int(g.radius * s * 1.6)
        cx, cy = int((g.x + MARGIN) * s), int((g.y + MARGIN) * s)
        y0, y1 = max(0, cy - r), min(canvas.shape[0], cy + r)
        x0, x1 = max(0, cx - r), min(canvas.shape[1], cx + r)
        if y1 <= y0 or x1 <= x0:
            return
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        d = np.hypot(xx - cx, yy - cy) / max(g.radius * s, 1)
        spot = np.clip(1.3 - d, 0, 1) ** 1.5
        canvas[y0:y1, x0:x1] += (spot * self.look.glare_strength)[:, :, None]


def _hand_parts(key: Key) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """Capsules (from, to, radius) in table units: arm, palm, fingers toward the centre.

    The arm comes in from the nearest table edge; the same shapes are drawn and
    tested for occlusion, so the truth and the picture agree.
    """
    px, py = key.x, key.y
    dx, dy = px - 0.5, py - 0.5
    if abs(dx) > abs(dy):
        wrist = (1.3 if dx > 0 else -0.3, py + dy * 0.2)
    else:
        wrist = (px + dx * 0.2, 1.3 if dy > 0 else -0.3)
    ux, uy = px - wrist[0], py - wrist[1]
    n = math.hypot(ux, uy) or 1.0
    ux, uy = ux / n, uy / n
    parts = [(wrist, (px, py), 0.045), ((px - ux * 0.02, py - uy * 0.02), (px, py), 0.05)]
    for k in range(4):
        a = math.atan2(uy, ux) + (k - 1.5) * 0.25
        tip = (px + math.cos(a) * 0.085, py + math.sin(a) * 0.085)
        parts.append(((px, py), tip, 0.011))
    return parts


def _under_hand(point_canvas: np.ndarray, key: Key, px_per_unit: float) -> bool:
    p = point_canvas / px_per_unit - MARGIN
    return any(_seg_dist(p, np.array(a), np.array(b)) < r for a, b, r in _hand_parts(key))


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    u = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-12), 0, 1))
    return float(np.linalg.norm(p - (a + u * ab)))


def _inside(point: np.ndarray, poly: np.ndarray) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32), (float(point[0]), float(point[1])),
                                False) > 0


def _transform(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    if m.shape == (2, 3):
        return pts @ m[:, :2].T + m[:, 2]
    hom = np.hstack([pts, np.ones((len(pts), 1))]) @ m.T
    return hom[:, :2] / hom[:, 2:3]


def _default_index_boxes(shape: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """Where a corner index usually is, for a face whose index the art loader could not find."""
    h, w = shape[:2]
    return ((int(0.03 * w), int(0.03 * h), int(0.17 * w), int(0.24 * h)),
            (int(0.83 * w), int(0.76 * h), int(0.97 * w), int(0.97 * h)))


def _paste(canvas: np.ndarray, rgba: np.ndarray, m: np.ndarray) -> None:
    """Alpha-composite an RGBA card through a 2x3 matrix, warping only its bounding box."""
    h, w = rgba.shape[:2]
    quad = _transform(m, np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64))
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shifted = m.copy()
    shifted[:, 2] -= (x0, y0)
    warped = cv2.warpAffine(rgba, shifted, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    roi = canvas[y0:y1, x0:x1]
    roi *= 1.0 - alpha
    roi += warped[:, :, :3].astype(np.float32) * alpha


# ---- detector noise (the oracle lives in the kiosk so ``read-video`` can use it) -----------
def oracle_stream(frames: Sequence[tuple[float, Sequence[dict[str, Any]]]], rng: Rng,
                  size: tuple[int, int], noise: OracleNoise | None = None
                  ) -> list[dict[str, Any]]:
    """Perfect per-frame boxes made imperfect: a detection stream with known failure rates."""
    noisy = noisify([boxes for _t, boxes in frames], rng, size, noise or OracleNoise())
    return [{"t": round(float(t), 4), "detections": dets}
            for (t, _boxes), dets in zip(frames, noisy, strict=True)]


# ---- whole videos -----------------------------------------------------------------------
def frame_times(duration: float, fps: float) -> Iterator[float]:
    n = int(math.ceil(duration * fps))
    for i in range(n):
        yield i / fps


def truth_of(scene: Scene, renderer: SceneRenderer, fps: float, frames: list[Any]
             ) -> dict[str, Any]:
    """The ground truth JSON written beside a video."""
    return {
        "record": scene.record,
        "view": renderer.view,
        "fps": fps,
        "size": list(renderer.size),
        "seed": renderer.look.seed,
        "deck": renderer.deck,
        "surface": renderer.look.surface,
        "leader": scene.leader,
        "trump": scene.trump,
        "sitting_out": scene.sitting_out,
        "table_corners": [[round(float(v), 2) for v in p] for p in renderer.corners],
        "plays": scene.plays,
        "clears": scene.clears,
        "events": scene.events,
        "duration": round(scene.duration, 3),
        "frames": frames,
    }


def render_hand(record: dict[str, Any], out: str | Path | None, *, seed: int = 0,
                view: str = "overhead", fps: float = 12.0, size: tuple[int, int] | None = None,
                mat: bool = False, tricks: Tricks = Tricks(), pixels: bool = True
                ) -> dict[str, Any]:
    """Render a hand record to ``out`` (.mp4 or .avi) and write ``out`` + ``.truth.json``.

    With ``pixels=False`` only the truth (with its per-frame boxes) is made: the
    oracle benchmark needs no pictures. Returns the truth.
    """
    rng = np.random.default_rng(seed)
    scene = script_hand(record, rng, tricks)
    renderer = SceneRenderer(scene, view, seed=seed + 7919, size=size, mat=mat)
    writer = None
    if pixels and out is not None:
        out = Path(out)
        fourcc = cv2.VideoWriter.fourcc(*("MJPG" if out.suffix == ".avi" else "mp4v"))
        writer = cv2.VideoWriter(str(out), fourcc, fps, renderer.size)
        if not writer.isOpened():
            raise RuntimeError(f"cannot write video {out}")
    frames = []
    try:
        for i, t in enumerate(frame_times(scene.duration, fps)):
            frames.append(renderer.boxes(t))
            if writer is not None:
                writer.write(renderer.frame(t, i))
    finally:
        if writer is not None:
            writer.release()
    truth = truth_of(scene, renderer, fps, frames)
    if out is not None:
        truth_path(out).write_text(json.dumps(truth, separators=(",", ":")) + "\n",
                                   encoding="utf-8")
    return truth


def truth_path(video: str | Path) -> Path:
    video = Path(video)
    return video.with_name(video.stem + ".truth.json")
