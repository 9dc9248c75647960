"""Same-colour twins: the pack as evidence, and a twin's doubt asked only where it matters.

A deck's commonest misread is a card's same-colour twin (the jack of clubs as the jack of
spades, a heart as the diamond of its rank), and it drags a card's confidence below the
``sure_confidence`` at which the reader asks the players. Two things settle most of those
doubts without a tap:

- the pack holds each card once: a twin already played this hand, on the table in this
  trick, or the turn-up where this seat cannot hold it is no rival at all;
- a twin's doubt matters only where a verdict hangs on it. The reader asks about it when
  the twin would win the trick where the card read does not (or lose it where it wins);
  a renege hanging on it is the table's to put to the players (kiosk.table.twins).

A doubt from any other name is asked as before.

>>> twin_name("JC"), twin_name("9H"), twin_name("5S")
('JS', '9D', None)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import Enum

from kiosk.rules.cards import EUCHRE_NAMES, Card, Seat, Suit
from kiosk.rules.tricks import trick_winner
from kiosk.vision.reader.config import WELL_READ
from kiosk.vision.reader.track import Track


class Doubt(Enum):
    """What stands between a card read and a sure read."""

    NONE = "none"  #: sure, once names the pack rules out are left out
    TWIN = "twin"  #: only its same-colour twin: asked where a verdict hangs on it
    OTHER = "other"  #: another name: asked now


def twin_name(card: str) -> str | None:
    """The euchre card of the same rank in the other suit of the colour (None outside the
    euchre pack)."""
    if card not in EUCHRE_NAMES:
        return None
    return card[0] + Suit.parse(card[1]).same_colour.value


def doubt(track: Track, rivals: Mapping[str, float], ruled_out: Collection[str],
          sure: float, weak_box: float) -> Doubt:
    """Why ``track``'s card is not sure (``sure`` is the reader's ``sure_confidence``):
    ``rivals`` are the other names read on it with their evidence, ``ruled_out`` the cards
    the pack says it cannot be (played, on the table, the turn-up out of this seat's
    reach)."""
    twin = twin_name(track.card)
    others = max((v for name, v in rivals.items() if name != twin and name not in ruled_out),
                 default=0.0)
    if track.confidence(others, weak_box) < sure:
        return Doubt.OTHER
    if twin is None or twin in ruled_out or rivals.get(twin, 0.0) <= 0.0:
        return Doubt.NONE
    return Doubt.TWIN


def winner_hangs_on(plays: Sequence[tuple[Seat, str]], seat: Seat, trump: Suit | None
                    ) -> bool:
    """Whether the trick's winner changes if ``seat``'s card were its twin (True where it
    cannot be told: no trump known, a card outside the pack).

    >>> N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
    >>> trick = [(W, "TS"), (N, "AS"), (E, "9S"), (S, "KS")]
    >>> winner_hangs_on(trick, N, Suit.HEARTS)   # the ace of clubs would lose the trick
    True
    >>> winner_hangs_on(trick, E, Suit.HEARTS)   # a 9 of clubs loses it all the same
    False
    >>> winner_hangs_on(trick, W, Suit.HEARTS)   # a club led: the ten of clubs would win
    True
    """
    if trump is None:
        return True
    try:
        cards = [(s, Card.parse(c)) for s, c in plays]
        twin = next(twin_name(c) for s, c in plays if s == seat)
    except (StopIteration, ValueError):
        return True
    if twin is None:
        return True
    swapped = [(s, Card.parse(twin) if s == seat else c) for s, c in cards]
    return trick_winner(cards, trump) != trick_winner(swapped, trump)


__all__ = ["Doubt", "doubt", "twin_name", "winner_hangs_on"]


def misread_as_twin(card: str, rivals: Mapping[str, float], earlier_rivals: Mapping[str, float],
                    seen: Collection[str]) -> str | None:
    """The twin of ``card``, read again after it was played, when one of the two reads is
    that twin misread: the pack holds each card once, the twin is not among the cards
    ``seen`` (played, on the table, or out of both seats' play), and nothing but the twin
    was read on either card (``rivals`` here, ``earlier_rivals`` where it was played)."""
    twin = twin_name(card)
    read_else = [name for reads in (rivals, earlier_rivals)
                 for name, value in reads.items() if name != twin and value >= WELL_READ]
    if twin is None or read_else or twin in seen:
        return None
    return twin
