"""Progressive-event scoring (tournament.txt, SCORING): players scored one by one.

In a progressive event partners change from round to round, so points go to
players, not partnerships.  Each player scores what their side scores in a
hand, except a lone march: "the person making the lone scores 5 points and
his partner scores 4 points".  A round is 8 hands, everyone dealing twice.

>>> from kiosk.rules.profiles import get_profile
>>> from kiosk.rules.cards import Suit
>>> from kiosk.rules.scoring import HandResult, Outcome
>>> lone_march = HandResult(Suit.SPADES, Seat.E, True, (Seat.E,) * 5, {"NS": 0, "EW": 5},
...                         {"NS": 0, "EW": 4}, Outcome.MARCH)
>>> rule = get_profile("tournament").progressive
>>> {str(seat): points for seat, points in progressive_hand_points(lone_march, rule).items()}
{'N': 0, 'E': 5, 'S': 0, 'W': 4}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from kiosk.rules.cards import Seat
from kiosk.rules.profiles import ProgressiveRule, RuleProfile
from kiosk.rules.scoring import HandResult, Outcome

__all__ = ["progressive_hand_points", "progressive_round"]


def progressive_hand_points(result: HandResult, rule: ProgressiveRule) -> dict[Seat, int]:
    """Each seat's points for one hand."""
    if result.alone and result.outcome is Outcome.MARCH and result.maker is not None:
        return {
            seat: rule.lone_maker_points
            if seat is result.maker
            else rule.lone_partner_points
            if seat is result.maker.partner
            else 0
            for seat in Seat
        }
    return {seat: result.points[seat.team] for seat in Seat}


def progressive_round(
    hands: Sequence[tuple[Mapping[Seat, str], HandResult]], profile: RuleProfile
) -> dict[str, int]:
    """Players' totals over one round: each hand with who sat where, and its result.

    Raises `ValueError` if the profile has no progressive scoring or the round
    has more hands than the profile's `hands_per_round`.
    """
    rule = profile.progressive
    if rule is None:
        raise ValueError(f"the {profile.name} rules have no progressive-event scoring")
    if len(hands) > rule.hands_per_round:
        raise ValueError(f"a progressive round is {rule.hands_per_round} hands, not {len(hands)}")
    totals: Counter[str] = Counter()
    for seating, result in hands:
        missing = [str(seat) for seat in Seat if seat not in seating]
        if missing:
            raise ValueError(f"no player given for seat {', '.join(missing)}")
        for seat, points in progressive_hand_points(result, rule).items():
            totals[seating[seat]] += points
    return dict(totals)
