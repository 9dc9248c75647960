"""The hand so far: the tricks taken in, with what else each card was read as, and the
hand-level questions already asked (each asked once a hand).

>>> hand = Hand()
>>> hand.take_in([TrickCard(Seat.N, "JH", t=1.0, confidence=0.9)])
>>> hand.tricks, hand.played
([[(<Seat.N: 'N'>, 'JH')]], {'JH'})
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk.rules.cards import Seat
from kiosk.vision.reader.trick import TrickCard


@dataclass
class Hand:
    """The tricks of this hand taken in so far."""

    #: each finished trick's plays, in the order played
    history: list[list[TrickCard]] = field(default_factory=list)
    #: the cards of those tricks (a deck has one of each)
    played: set[str] = field(default_factory=set)
    #: questions asked once a hand: (kind, card)
    warned: set[tuple[str, str]] = field(default_factory=set)

    @property
    def tricks(self) -> list[list[tuple[Seat, str]]]:
        """Finished tricks, (seat, card) in order."""
        return [[(p.seat, p.card) for p in plays] for plays in self.history]

    def take_in(self, plays: list[TrickCard]) -> None:
        """A trick is over: keep its plays, with what else each card was read as while it
        lay there and where it lay."""
        self.history.append(plays)
        for p in plays:
            for name, value in (p.track.alternatives.items() if p.track else ()):
                p.rivals[name] = max(p.rivals.get(name, 0.0), value)
            if p.track is not None and p.track.anchors:
                p.where = tuple(float(v) for v in p.track.position)
            p.track = None
        self.played |= {p.card for p in plays}

    def find(self, card: str) -> tuple[int, TrickCard] | None:
        """The trick (1 = the hand's first) and play where ``card`` was played."""
        return next(((number, p) for number, plays in enumerate(self.history, start=1)
                     for p in plays if p.card == card), None)
