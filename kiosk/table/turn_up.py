"""What the camera saw of the turn-up, weighed against the bids the players tapped.

The camera reads the kitty beside the dealer: its face-up card (the turn-up, which the
bidding screen offers for one tap of agreement), then whether the dealer picked it up
(it was ordered up) or turned it face down (everyone passed). That second sight checks
the bids: the players tapped one story, the table shows the other. This module only
states the disagreement as a fact; the presenter says it in words.

>>> bids = [{"seat": s, "call": "pass"} for s in "ESWN"]
>>> kitty_doubt("taken", bids)
KittyDoubt(seen='taken', maker=None)
>>> kitty_doubt("turned_down", bids) is None, kitty_doubt("taken", bids[:2]) is None
(True, True)
>>> kitty_doubt("turned_down", [{"seat": "E", "call": "order", "alone": False}])
KittyDoubt(seen='turned_down', maker='E')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: what the camera saw happen to the turn-up (``KittySeen.change``)
TAKEN = "taken"
TURNED_DOWN = "turned_down"


@dataclass(frozen=True)
class KittyDoubt:
    """The camera's sight of the turn-up (``seen``) disagrees with the bids: ``maker`` is
    who ordered it up by the bids (the camera saw it turned down), None when the bids say
    all four passed it (the camera saw the dealer pick it up)."""

    seen: str
    maker: str | None


def ordered_by(bids: Sequence[dict[str, Any]]) -> str | None:
    """The seat that ordered the turn-up up, by the bids (None: nobody, or not yet)."""
    return next((str(b["seat"]) for b in bids if b.get("call") == "order"), None)


def all_passed_it(bids: Sequence[dict[str, Any]]) -> bool:
    """Whether the first round's four bids are in and all four passed the turn-up."""
    return len(bids) >= 4 and all(b.get("call") == "pass" for b in bids[:4])


def kitty_doubt(seen: str, bids: Sequence[dict[str, Any]]) -> KittyDoubt | None:
    """The disagreement between what the camera saw of the turn-up and the bids, if any.
    Bids still being tapped disagree with nothing yet (the camera may see the dealer's
    hand before the players tap)."""
    maker = ordered_by(bids)
    if seen == TURNED_DOWN and maker is not None:
        return KittyDoubt(seen=seen, maker=maker)
    if seen == TAKEN and all_passed_it(bids):
        return KittyDoubt(seen=seen, maker=None)
    return None
