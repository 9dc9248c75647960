"""Renege proof from what a camera sees.

A player who fails to follow the led suit in trick t and later plays a card of
that suit has reneged: the later card was in the hand all along (the dealer's
turn-up included, taken up before the first lead).  The proof is the later
trick.  Suits are effective suits, so a later left bower of the led suit's
colour is a trump, not a proof.  When the hand is known (dealt hands, or the
turn-up the dealer took), the proof is immediate.

>>> watch = RenegeWatch(trump=Suit.HEARTS)
>>> watch.observe(Seat.W, Card.parse("9C"), trick=1, led=Suit.DIAMONDS)   # fails to follow
[]
>>> watch.observe(Seat.W, Card.parse("JD"), trick=3, led=Suit.SPADES)    # left bower: a trump
[]
>>> watch.observe(Seat.W, Card.parse("KD"), trick=4, led=None)
[RenegeProof(seat=<Seat.W: 'W'>, trick=1, proven_at=4)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.tricks import effective_suit


@dataclass(frozen=True)
class RenegeProof:
    """`seat` failed to follow in `trick` while holding the led suit; `proven_at` shows it."""

    seat: Seat
    trick: int
    proven_at: int

    def to_json(self) -> dict[str, Any]:
        """The CONTRACTS form used in `reneges`."""
        return {"seat": self.seat.value, "trick": self.trick, "proven_at": self.proven_at}


class RenegeWatch:
    """Remembers every failure to follow until a later card proves it a renege."""

    def __init__(self, trump: Suit) -> None:
        self.trump = trump
        self._unproven: dict[Seat, list[tuple[int, Suit]]] = {seat: [] for seat in Seat}
        self.proofs: list[RenegeProof] = []

    def observe(
        self,
        seat: Seat,
        card: Card,
        trick: int,
        led: Suit | None,
        *,
        held_led_suit: bool = False,
    ) -> list[RenegeProof]:
        """Watch one card; return the reneges it proves.

        `led` is the effective suit led to this trick (None on a lead);
        `held_led_suit` says the player is known to hold that suit now, which
        makes a failure to follow a renege at once.
        """
        suit = effective_suit(card, self.trump)
        found = [
            RenegeProof(seat, failed_at, trick)
            for failed_at, failed_suit in self._unproven[seat]
            if failed_suit is suit
        ]
        self._unproven[seat] = [entry for entry in self._unproven[seat] if entry[1] is not suit]
        if led is not None and suit is not led:
            if held_led_suit:
                found.append(RenegeProof(seat, trick, trick))
            else:
                self._unproven[seat].append((trick, led))
        self.proofs.extend(found)
        return found
