"""What the table tells the camera's reader of the hand in play: the other way from
kiosk.vision.events. The table session writes a `HandBrief` after every change
(kiosk.table.standing.hand_brief); the frame pipeline tells its trick reader.

>>> brief = HandBrief.from_contract(Seat.N, Suit.HEARTS, maker=Seat.W, alone=True)
>>> str(brief.leader), str(brief.sitting_out)
('S', 'E')
>>> HandBrief.from_json({"leader": "E", "trump": "S"}).trump
<Suit.SPADES: 'S'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kiosk.rules.cards import Card, Seat, Suit
from kiosk.rules.play import first_leader


@dataclass(frozen=True)
class HandBrief:
    """The hand as far as the reader must know it: its number (a new hand, a new reader),
    the dealer (whose kitty shows the turn-up), who leads the trick to come, trump, the
    seat sitting out of a lone hand, the turn-up and the seat that may still play it (the
    dealer when it was ordered up; None when turned down). None: not known yet."""

    hand: int | None = None
    dealer: Seat | None = None
    leader: Seat | None = None
    trump: Suit | None = None
    sitting_out: Seat | None = None
    turn_up: Card | None = None
    kept_by: Seat | None = None

    @classmethod
    def from_contract(cls, dealer: Seat | None, trump: Suit | None, maker: Seat | None,
                      alone: bool = False) -> HandBrief:
        """A recorded hand's brief from its deal and contract (the first trick's leader by
        the rules engine's rule)."""
        sitting_out = maker.partner if alone and maker is not None else None
        leader = None if dealer is None else first_leader(dealer, sitting_out)
        return cls(dealer=dealer, leader=leader, trump=trump, sitting_out=sitting_out)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> HandBrief:
        """A detection stream's ``play`` (its letters: ``{"leader": "E", "trump": "S"}``)."""
        def seat(name: str) -> Seat | None:
            value = data.get(name)
            return None if value is None else Seat.parse(str(value))

        trump, turn_up, hand = data.get("trump"), data.get("turn_up"), data.get("hand")
        return cls(hand=None if hand is None else int(str(hand)), dealer=seat("dealer"),
                   leader=seat("leader"), trump=None if trump is None else Suit.parse(str(trump)),
                   sitting_out=seat("sitting_out"),
                   turn_up=None if turn_up is None else Card.parse(str(turn_up)),
                   kept_by=seat("kept_by"))


__all__ = ["HandBrief"]
