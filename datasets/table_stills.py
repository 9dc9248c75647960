"""Stills of one table between hands, as one camera sees it through a game: each side's
5s at its count, the next deal's kitty beside its dealer (the turn-up face up, or turned
down), and now and then a player's hand over a pair of 5s.

Why not :func:`datasets.marker_stills.render_still`: each of its stills is a table of its
own (its own camera, cloth and light). ``kiosk read-table`` reads one table's stills in
order and carries over what the earlier ones taught (where each side keeps its 5s, their
sizes), so its stills come from one camera over one table; only the camera's noise and
what lies on the table change from still to still.

Where the kitty lies: as :func:`datasets.kitty.kitty_place` puts it (the band between the
dealer's zone and the dealer's edge, toward a corner), or where that is against a pair of
5s (a table's corner ends two edges), at the edge's other end or nearer its middle (no
trick piles lie there between hands): players do not lay the kitty against their score.

>>> kitty_at("N", {})[0], kitty_at("N", {"NS": MarkerPlace("NS", "N", 0.8, 0.08, 0.0)})[0]
((0.8, 0.08), (0.2, 0.08))
>>> kitty_at("E", {"NS": MarkerPlace("NS", "N", 0.77, 0.12, 0.0),
...                "EW": MarkerPlace("EW", "E", 0.86, 0.77, 0.0)})[0]
(0.92, 0.35)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from datasets.hand_script import Glare, Key, Rng, Scene, Track
from datasets.kitty import KITTY_ALONG, KITTY_OUT
from datasets.marker_stills import STILL_SIZES, MarkerPlace, marker_tracks

_AXIS = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
_FACING = {"S": 0.0, "E": 90.0, "N": 180.0, "W": -90.0}
#: the share of stills with a lamp's glare somewhere on the table (as marker_stills)
GLARE_SHARE = 0.15
#: how far along the dealer's edge the kitty may lie (table units, to the dealer's left
#: first), and how far from a pair of 5s it lies when it can (three card widths)
KITTY_ALONGS = (KITTY_ALONG, -KITTY_ALONG, 0.15, -0.15)
CLEAR_OF_FIVES = 0.25


@dataclass(frozen=True)
class Kitty:
    """The deal's kitty: three cards face down beside ``dealer``, ``card`` on top."""

    dealer: str
    card: str
    face_up: bool = True  #: False: the dealer turned it down (everyone passed)


def kitty_at(dealer: str, places: dict[str, MarkerPlace]) -> tuple[tuple[float, float], float]:
    """The kitty's centre (table units) and angle (degrees): the first spot along the
    dealer's edge (:data:`KITTY_ALONGS`) clear of every pair of 5s, else the clearest."""
    ax, ay = _AXIS[dealer]
    lx, ly = -ay, ax
    spots = [(round(0.5 + ax * KITTY_OUT + along * lx, 4),
              round(0.5 + ay * KITTY_OUT + along * ly, 4)) for along in KITTY_ALONGS]

    def room(point: tuple[float, float]) -> float:
        return min((math.dist(point, (p.x, p.y)) for p in places.values()), default=1.0)

    clear = [spot for spot in spots if room(spot) >= CLEAR_OF_FIVES]
    return (clear[0] if clear else max(spots, key=room)), _FACING[dealer] + 90.0


def kitty_tracks(kitty: Kitty, places: dict[str, MarkerPlace], rng: Rng) -> list[Track]:
    """The kitty's four cards: three face down, the turn-up on top."""
    (cx, cy), angle = kitty_at(kitty.dealer, places)
    tracks = [Track(None, [Key(0.0, cx + float(rng.uniform(-0.006, 0.006)),
                               cy + float(rng.uniform(-0.006, 0.006)),
                               angle + float(rng.uniform(-6, 6)), face_up=False)],
                    seat=kitty.dealer, z=-10 + i) for i in range(3)]
    tracks.append(Track(kitty.card, [Key(0.0, cx, cy, angle + float(rng.uniform(-10, 10)),
                                         face_up=kitty.face_up)], seat=kitty.dealer, z=-6))
    return tracks


class TableCamera:
    """One camera over one table for a game (its pose, cloth and light drawn once from
    ``seed``), rendering the table as it lies between hands."""

    def __init__(self, deck: str, view: str, seed: int,
                 size: tuple[int, int] | None = None) -> None:
        from datasets.handvideo import SceneRenderer

        self.deck, self.view = deck, view
        self.renderer = SceneRenderer(_scene([], [], []), view, seed=seed,
                                      size=size or STILL_SIZES[view], deck=deck)

    @property
    def corners(self) -> np.ndarray:
        """The table's corners NW, NE, SE, SW in the picture (a saved calibration's)."""
        return np.asarray(self.renderer.corners).copy()

    def still(self, shown: dict[str, int], places: dict[str, MarkerPlace],
              suits: dict[str, tuple[str, str]], seed: int, kitty: Kitty | None = None,
              hand_over: str | None = None) -> np.ndarray:
        """The table with each side in ``places`` showing its count in ``shown`` (a side
        left out of ``places`` has no 5s on the table), the kitty if given, and a player's
        palm over the 5s of side ``hand_over``."""
        rng = np.random.default_rng(seed)
        glares = []
        if rng.random() < GLARE_SHARE:
            glares.append(Glare(-1.0, 1.0, float(rng.uniform(0.1, 0.9)),
                                float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.05, 0.1))))
        cards = kitty_tracks(kitty, places, rng) if kitty is not None else []
        hands = []
        if hand_over is not None:
            place = places[hand_over]
            hands.append(Track(None, [Key(0.0, place.x, place.y)], seat=place.edge))
        self.renderer.scene = _scene(cards, hands, glares)
        self.renderer.markers = [t for side, place in places.items()
                                 for t in marker_tracks(self.deck, place, shown[side],
                                                        suits[side], rng)]
        picture: np.ndarray = self.renderer.frame(0.0, int(rng.integers(5)))
        return picture


def _scene(cards: list[Track], hands: list[Track], glares: list[Glare]) -> Any:
    return Scene(record={}, cards=cards, hands=hands, glares=glares, plays=[], clears=[],
                 duration=1.0, leader="N", trump="H", sitting_out=None)
