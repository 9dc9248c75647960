"""Irregularities: plays and bids the rule books penalize or correct, not reject.

A camera cannot stop a player leading out of turn, so the engine records what
happened and the profile decides what it costs.  Each `Irregularity` says who,
where, and the ruling applied.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from kiosk.rules.cards import Seat


class IrregularityKind(enum.Enum):
    """What went wrong."""

    BID_OUT_OF_TURN = "bid_out_of_turn"
    TURNED_DOWN_SUIT_NAMED = "turned_down_suit_named"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    PLAY_OUT_OF_TURN = "play_out_of_turn"


class Ruling(enum.Enum):
    """What the profile does about it."""

    #: play stops; the non-offending side scores the profile's penalty
    PENALTY = "penalty"
    #: the bid is void and the offending side may not make trump
    VOID_SIDE_BARRED = "void_side_barred"
    #: the non-offending side voided the bid instead of taking the penalty
    VOIDED_BY_OPPONENTS = "voided_by_opponents"
    #: everyone played to the trick, so it stands
    TRICK_STANDS = "trick_stands"
    #: noted, no effect (a pass out of turn, a card followed out of order)
    NO_PENALTY = "no_penalty"


@dataclass(frozen=True)
class Irregularity:
    """One irregularity; `bid` or `trick` (1-based) says where it happened.

    >>> Irregularity(IrregularityKind.LEAD_OUT_OF_TURN, Seat.W, Ruling.PENALTY, trick=2).to_json()
    {'kind': 'lead_out_of_turn', 'seat': 'W', 'trick': 2, 'ruling': 'penalty'}
    """

    kind: IrregularityKind
    seat: Seat
    ruling: Ruling
    bid: int | None = None
    trick: int | None = None

    @property
    def ends_hand(self) -> bool:
        """Whether this irregularity stops play and decides the hand's score."""
        return self.ruling is Ruling.PENALTY

    def to_json(self) -> dict[str, Any]:
        """The CONTRACTS form used in `irregularities`."""
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat.value}
        if self.bid is not None:
            out["bid"] = self.bid
        if self.trick is not None:
            out["trick"] = self.trick
        out["ruling"] = self.ruling.value
        return out
