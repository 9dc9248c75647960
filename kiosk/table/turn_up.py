"""What the camera saw of the turn-up, weighed against the bids the players tapped.

The camera reads the kitty beside the dealer: its face-up card (the turn-up, which the
bidding screen offers for one tap of agreement), then whether the dealer carried it off
(it was ordered up) or it vanished where it lay (turned face down, as when everyone
passes). Seen carried off while the bids say all four passed, the players are asked.

Only that way round: a card that vanished where it lay may have been turned down, or
lifted straight up under the dealer's hand, and a camera cannot tell the two apart (on
rendered deals read by the model, half the turn-ups ordered up were taken so; see
``scripts/bench_turn_up.py``). So a turn-up "turned down" questions no order; it is kept
as what the camera saw. This module only states the disagreement as a fact; the
presenter says it in words.

>>> from kiosk.rules.bidding import Bid, Call
>>> from kiosk.rules.cards import Seat
>>> from kiosk.vision.events import KittyChange
>>> bids = [Bid(Seat.parse(s), Call.PASS) for s in "ESWN"]
>>> kitty_doubt(KittyChange.TAKEN, bids)
KittyDoubt(seen=<KittyChange.TAKEN: 'taken'>)
>>> kitty_doubt(KittyChange.TURNED_DOWN, bids), kitty_doubt(KittyChange.TAKEN, bids[:2])
(None, None)
>>> kitty_doubt(KittyChange.TURNED_DOWN, [Bid(Seat.E, Call.ORDER)]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import Seat
from kiosk.vision.events import KittyChange


@dataclass(frozen=True)
class KittyDoubt:
    """The camera's sight of the turn-up (``seen``) disagrees with the bids: the camera saw
    the dealer pick it up, the bids say all four passed it."""

    seen: KittyChange


def ordered_by(bids: Sequence[Bid]) -> Seat | None:
    """The seat that ordered the turn-up up, by the bids (None: nobody, or not yet)."""
    return next((b.seat for b in bids if b.call is Call.ORDER), None)


def all_passed_it(bids: Sequence[Bid]) -> bool:
    """Whether the first round's four bids are in and all four passed the turn-up."""
    return len(bids) >= 4 and all(b.call is Call.PASS for b in bids[:4])


def kitty_doubt(seen: KittyChange, bids: Sequence[Bid]) -> KittyDoubt | None:
    """The disagreement between what the camera saw of the turn-up and the bids, if any.
    Bids still being tapped disagree with nothing yet (the camera may see the dealer's
    hand before the players tap)."""
    if seen is KittyChange.TAKEN and all_passed_it(bids):
        return KittyDoubt(seen=seen)
    return None
