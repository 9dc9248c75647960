"""Hand records scripted into scenes: a random legal hand, its contract, and the keyframed
play of it (cards slid in, hands passing, nudges, take-backs, glare, tricks gathered),
with the truth of when each card came to rest. The first layer of
:mod:`datasets.handvideo` (which renders these scenes), usable alone.

Records are CONTRACTS JSON, so their seats and cards stay the record's letters here;
turn order and partners are the rules engine's ``Seat``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kiosk.rules.cards import EUCHRE_DECK, Card, Seat, Suit
from kiosk.rules.tricks import legal_plays, trick_winner

Rng = np.random.Generator
#: the seats in the order a random draw picks them (N, E, S, W)
_SEATS: tuple[Seat, ...] = tuple(Seat)
#: the euchre cards as records name them, clubs first
EUCHRE = tuple(str(card) for card in EUCHRE_DECK)
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
    dealer = str(_SEATS[int(rng.integers(4))])
    order = [str(s) for s in Seat.parse(dealer).left.clockwise()]
    hands = {seat: deck[5 * i: 5 * i + 5] for i, seat in enumerate(order)}
    turn_up = deck[20]
    trump = str(tuple(Suit)[int(rng.integers(4))])
    maker = str(_SEATS[int(rng.integers(4))])
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
    sitting_out = str(Seat.parse(maker).partner) if lone else None
    players = [str(s) for s in Seat if str(s) != sitting_out]
    leader = str(Seat.parse(dealer).left)
    if leader == sitting_out:
        leader = str(Seat.parse(leader).left)
    held = {s: [Card.parse(c) for c in hands[s]] for s in players}
    t_suit = Suit.parse(trump)
    tricks: list[list[str]] = []
    for _ in range(5):
        plays: list[tuple[Seat, Card]] = []
        for seat in [str(s) for s in Seat.parse(leader).clockwise()]:
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
    sitting_out = str(Seat.parse(maker).partner) if alone else None
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
    piles = {str(s): 0 for s in Seat}

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
                other = str(_SEATS[int(rng.integers(4))])
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
    leader = plays_in[0][0][0] if plays_in else str(Seat.parse(record["dealer"]).left)
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
