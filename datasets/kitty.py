"""The deal's kitty, scripted as players leave it: three cards face down beside the dealer
with the turn-up face up on top, and what bidding does to it (ordered up: the dealer
picks the turn-up up and later discards face down onto the kitty; all pass: the dealer
turns it face down). A layer over :func:`datasets.hand_script.script_hand`: the hand's
play is moved later by the bidding's length, so a scene without a kitty is unchanged.

Where it lies: in the band between the dealer's seat zone and the dealer's edge
(``kiosk.vision.camera.calibration.SeatZones``: the band is no seat's, so the kitty is never
taken for a played card), toward the dealer's right, away from where the trick piles
end, with its long side along the edge so its corner indices stay inside the part of
the table the detector looks at (``PLAY_AREA_MARGIN``).

>>> import numpy as np
>>> from datasets.hand_script import random_hand, script_hand
>>> record = random_hand(np.random.default_rng(3))
>>> scene = script_hand(record, np.random.default_rng(3))
>>> first = scene.plays[0]["t_rest"]
>>> kitty = add_kitty(scene, np.random.default_rng(3))
>>> kitty.card == record["turn_up"], kitty.fate in ("taken", "turned_down")
(True, True)
>>> scene.plays[0]["t_rest"] > first > 0 and kitty.fate_at < kitty.play_starts
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from datasets.hand_script import _AXIS, _FACING, Key, Rng, Scene, Track

#: the kitty's centre: this far from the table's centre toward the dealer's edge (table
#: units; the seat zones end at 0.37, the detector looks up to 0.45) ...
KITTY_OUT = 0.42
#: ... and this far along the edge, to the dealer's left, past where the trick piles end
KITTY_ALONG = 0.3
#: how far (table units) the dealer slides the turn-up toward the edge before lifting it
DRAG = 0.1
#: when the play of a scene without a kitty starts (``script_hand``'s first card)
_PLAY_START = 0.6


@dataclass(frozen=True)
class KittyTruth:
    """What a reader of the deal should recover, with when it happened (seconds)."""

    dealer: str
    card: str
    #: the turn-up's centre, table units
    place: tuple[float, float]
    #: the dealer's hand has left the turn-up, face up
    shown_at: float
    #: 'taken' (ordered up: the dealer picked it up) or 'turned_down' (all passed)
    fate: str
    #: the dealer's hand reaches the turn-up to take it or turn it
    fate_at: float
    #: the first bid (the players' tap that agrees with the turn-up the camera read)
    first_bid_at: float
    #: the last bid
    bidding_ends: float
    #: the first card of the hand starts its way in
    play_starts: float

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["place"] = [round(v, 4) for v in self.place]
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in data.items()}


def kitty_place(dealer: str) -> tuple[tuple[float, float], float]:
    """The kitty's centre (table units) and its angle (degrees) beside ``dealer``.

    >>> kitty_place("S")
    ((0.2, 0.92), 90.0)
    """
    ax, ay = _AXIS[dealer]
    lx, ly = -ay, ax  # along the edge, to the dealer's left (as script_hand's piles)
    x = 0.5 + ax * KITTY_OUT + lx * KITTY_ALONG
    y = 0.5 + ay * KITTY_OUT + ly * KITTY_ALONG
    return (round(x, 4), round(y, 4)), _FACING[dealer] + 90.0


def _bid_count(record: dict[str, Any]) -> tuple[int, int, bool]:
    """(bids in round one, bids in round two, whether the turn-up was ordered up)."""
    bids = record.get("bids", [])
    ordered = any(b.get("call") == "order" for b in bids)
    first = min(len(bids), 4) if not ordered else len(bids)
    return first, len(bids) - first, ordered


def add_kitty(scene: Scene, rng: Rng) -> KittyTruth:
    """Put the kitty and the bidding before the scene's play (in place) and return its
    truth. The scene's cards, hands, glares and truth times all move later together."""
    record = scene.record
    dealer = str(record["dealer"])
    card = str(record["turn_up"])
    (cx, cy), angle = kitty_place(dealer)
    ax, ay = _AXIS[dealer]
    edge = (cx + ax * 0.3, cy + ay * 0.3)  # beyond the dealer's edge, out of sight
    palm = (ax * 0.07, ay * 0.07)  # a hand's palm lies outward of what it holds

    # the deal is done: the kitty lies there, the dealer turns its top card up
    kitty: list[Track] = []
    for i in range(3):
        jitter = rng.uniform(-0.006, 0.006, size=2)
        kitty.append(Track(None, [Key(0.0, cx + jitter[0], cy + jitter[1],
                                      angle + rng.uniform(-6, 6), face_up=False)],
                           seat=dealer, z=-10 + i))
    turn_angle = angle + rng.uniform(-10, 10)
    t_up = rng.uniform(0.3, 0.6)
    turn_up = Track(card, [Key(0.0, cx, cy, turn_angle, face_up=False),
                           Key(t_up, cx, cy, turn_angle, face_up=True)], seat=dealer, z=-6)
    held = (cx + palm[0], cy + palm[1])
    hands = [_reach(dealer, held, t_up - 0.35, 0.35)]
    shown_at = t_up + 0.35

    # round one's bids, then the dealer takes the turn-up or turns it down
    first, second, ordered = _bid_count(record)
    t = shown_at + rng.uniform(0.4, 1.0)
    bid_times = []
    for _ in range(first):
        t += rng.uniform(0.8, 2.0)
        bid_times.append(t)
    bidding_ends = t
    fate_at = t + rng.uniform(0.5, 1.2)
    if ordered:
        # the dealer's hand comes, slides the turn-up off the kitty to the table's edge and
        # lifts it into the hand
        drag = rng.uniform(0.5, 0.9)
        lifted = (cx + ax * DRAG, cy + ay * DRAG)
        turn_up.keys += [Key(fate_at, cx, cy, turn_angle),
                         Key(fate_at + drag, *lifted, turn_angle, visible=False)]
        hands.append(Track(None, [Key(fate_at - 0.8, edge[0] + palm[0], edge[1] + palm[1]),
                                  Key(fate_at - 0.4, *held), Key(fate_at, *held),
                                  Key(fate_at + drag, lifted[0] + palm[0], lifted[1] + palm[1]),
                                  Key(fate_at + drag + 0.3, edge[0] + palm[0],
                                      edge[1] + palm[1], visible=False)], seat=dealer))
        slide = drag
        # the discard, face down onto the kitty
        discard = str(record.get("discard") or card)
        t_discard = fate_at + slide + rng.uniform(1.0, 2.0)
        jitter = rng.uniform(-0.01, 0.01, size=2)
        kitty.append(Track(discard, [Key(t_discard - 0.5, *edge, angle, face_up=False),
                                     Key(t_discard, cx + jitter[0], cy + jitter[1],
                                         angle + rng.uniform(-8, 8), face_up=False)],
                           seat=dealer, z=-5))
        hands.append(_reach(dealer, held, t_discard - 0.5 + 0.35, 0.2))
        play_starts = t_discard + rng.uniform(0.8, 1.5)
    else:
        # the dealer's hand comes and turns it face down where it lies
        hands.append(_reach(dealer, held, fate_at, 0.3))
        turn_up.keys.append(Key(fate_at + 0.1, cx, cy, turn_angle, face_up=False))
        t = fate_at + 0.5
        for _ in range(second):
            t += rng.uniform(0.8, 2.0)
        bidding_ends = t
        play_starts = t + rng.uniform(0.8, 1.5)
    _shift(scene, play_starts - _PLAY_START)
    scene.cards[:0] = [*kitty, turn_up]
    scene.hands[:0] = hands
    return KittyTruth(dealer=dealer, card=card, place=(cx, cy), shown_at=shown_at,
                      fate="taken" if ordered else "turned_down", fate_at=fate_at,
                      first_bid_at=bid_times[0] if bid_times else bidding_ends,
                      bidding_ends=bidding_ends, play_starts=play_starts)


def _reach(seat: str, target: tuple[float, float], t0: float, stay: float,
           travel: float = 0.35) -> Track:
    """A hand from the seat's edge to ``target``, held ``stay`` seconds, then back."""
    ax, ay = _AXIS[seat]
    edge = (target[0] + ax * 0.3, target[1] + ay * 0.3)
    return Track(None, [Key(t0 - travel, *edge), Key(t0, *target), Key(t0 + stay, *target),
                        Key(t0 + stay + travel, *edge, visible=False)], seat=seat)


def _shift(scene: Scene, by: float) -> None:
    """Every time in the scene ``by`` seconds later."""
    for track in scene.cards + scene.hands:
        for key in track.keys:
            key.t += by
    for glare in scene.glares:
        glare.t0 += by
        glare.t1 += by
    for play in scene.plays:
        play["t_rest"] = round(play["t_rest"] + by, 3)
    scene.clears[:] = [round(t + by, 3) for t in scene.clears]
    for event in scene.events:
        event["t"] = event["t"] + by
    scene.duration += by
