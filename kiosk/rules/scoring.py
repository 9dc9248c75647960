"""Scoring a hand: the points table, penalties, and the `score-hand` verdict.

Every book scores a hand as played the same way (made 1, march 2, lone hand
3-4 tricks 1, lone march 4, euchred 2 to the defenders).  They differ in what
an irregularity costs, which the profile holds as data: a fixed penalty that
ends the hand, or (alberta55's revoke) a choice left to the non-offending side,
offered as `penalty_options` next to the hand as played.

>>> from kiosk.rules.profiles import get_profile
>>> points_as_played(makers_tricks=5, alone=True, table=get_profile("ssc").hand_points)
('makers', 4)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from kiosk.rules.cards import TEAMS, Seat, Suit, other_team
from kiosk.rules.irregularities import Irregularity
from kiosk.rules.play import HandState
from kiosk.rules.profiles import HandPoints, RenegeRuling, RuleProfile
from kiosk.rules.record import HandRecord, HandRecordError, replay
from kiosk.rules.renege import RenegeProof


class Outcome(enum.Enum):
    """How a hand ended."""

    MADE = "made"
    MARCH = "march"
    EUCHRED = "euchred"
    PASSED = "passed"
    RENEGE = "renege"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    BID_OUT_OF_TURN = "bid_out_of_turn"


class UnfinishedHandError(ValueError):
    """Play stopped before five tricks with nothing that ends a hand."""


@dataclass(frozen=True)
class PenaltyOption:
    """A score the non-offending side may choose instead of `HandResult.points`."""

    option: str
    points: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"option": self.option, "points": dict(self.points)}


@dataclass(frozen=True)
class HandResult:
    """The verdict on one hand, as `kiosk score-hand` prints it."""

    trump: Suit | None
    maker: Seat | None
    alone: bool
    trick_winners: tuple[Seat, ...]
    tricks_won: dict[str, int]
    points: dict[str, int]
    outcome: Outcome
    reneges: tuple[RenegeProof, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    #: alternatives the non-offending side may choose; None when the profile fixes the score
    penalty_options: tuple[PenaltyOption, ...] | None = field(default=None)

    @property
    def makers(self) -> str | None:
        """The partnership that made trump."""
        return None if self.maker is None else self.maker.team

    def to_json(self) -> dict[str, Any]:
        """Exactly the CONTRACTS `score-hand` object."""
        out: dict[str, Any] = {
            "trump": None if self.trump is None else self.trump.value,
            "maker": None if self.maker is None else self.maker.value,
            "makers": self.makers,
            "alone": self.alone,
            "trick_winners": [seat.value for seat in self.trick_winners],
            "tricks_won": {team: self.tricks_won[team] for team in TEAMS},
            "points": {team: self.points[team] for team in TEAMS},
            "outcome": self.outcome.value,
            "reneges": [proof.to_json() for proof in self.reneges],
            "irregularities": [irregularity.to_json() for irregularity in self.irregularities],
        }
        if self.penalty_options is not None:
            out["penalty_options"] = [option.to_json() for option in self.penalty_options]
        return out


def points_as_played(makers_tricks: int, alone: bool, table: HandPoints) -> tuple[str, int]:
    """Which side scores a hand played out (`makers` or `defenders`), and how much.

    >>> table = HandPoints()
    >>> [points_as_played(n, False, table) for n in (2, 3, 5)]
    [('defenders', 2), ('makers', 1), ('makers', 2)]
    >>> [points_as_played(n, True, table) for n in (2, 4, 5)]
    [('defenders', 2), ('makers', 1), ('makers', 4)]
    """
    if makers_tricks >= 5:
        return "makers", table.lone_march if alone else table.march
    if makers_tricks >= 3:
        return "makers", table.lone_made if alone else table.made
    return "defenders", table.lone_euchred if alone else table.euchred


def score_hand(record: HandRecord, profile: RuleProfile) -> HandResult:
    """Replay a record under a profile and score it; `HandRecordError` if it cannot be a hand.

    >>> from kiosk.rules.profiles import get_profile
    >>> record = HandRecord.from_json({
    ...     "dealer": "N", "turn_up": "9H",
    ...     "bids": [{"seat": "E", "call": "pass"}, {"seat": "S", "call": "pass"},
    ...              {"seat": "W", "call": "order", "alone": False}],
    ...     "tricks": [["E:AS", "S:9D", "W:KS", "N:TS"], ["E:JH", "S:9S", "W:TH", "N:QH"]]})
    >>> verdict = score_hand(record, get_profile("tournament")).to_json()
    >>> verdict["outcome"], verdict["points"], verdict["reneges"]
    ('renege', {'NS': 0, 'EW': 2}, [{'seat': 'S', 'trick': 1, 'proven_at': 2}])
    """
    state = replay(record, profile)
    try:
        return score_state(state)
    except UnfinishedHandError as problem:
        raise HandRecordError(str(problem)) from None


def score_state(state: HandState) -> HandResult:
    """Score a hand in whatever state play has reached (for the table session)."""
    profile = state.profile
    contract = state.contract
    reneges = tuple(state.reneges)
    irregularities = tuple(state.irregularities)
    trick_winners = tuple(trick.winner for trick in state.tricks)
    tricks_won = state.tricks_won()

    def result(
        points: dict[str, int], outcome: Outcome, options: tuple[PenaltyOption, ...] | None = None
    ) -> HandResult:
        return HandResult(
            trump=None if contract is None else contract.trump,
            maker=None if contract is None else contract.maker,
            alone=False if contract is None else contract.alone,
            trick_winners=trick_winners,
            tricks_won=tricks_won,
            points=points,
            outcome=outcome,
            reneges=reneges,
            irregularities=irregularities,
            penalty_options=options,
        )

    pending = state.auction.pending_penalty
    if pending is not None:
        owed = other_team(pending.seat.team)
        return result(_award(owed, profile.bid_out_of_turn_penalty.points), Outcome.BID_OUT_OF_TURN)
    if state.auction.passed_out:
        return result(_award("NS", 0), Outcome.PASSED)
    if contract is None:
        raise UnfinishedHandError("bidding is unfinished: no trump was made")

    ended = state.ended_by
    if isinstance(ended, Irregularity):  # a lead out of turn the profile penalizes
        owed = other_team(ended.seat.team)
        points = profile.lead_out_of_turn_penalty.points_for(
            alone=contract.alone, owed_to_makers=owed == contract.makers
        )
        return result(_award(owed, points), Outcome(ended.kind.value))

    if reneges:
        # the first renege proven decides; the rest are reported
        offenders = reneges[0].seat.team
        owed = other_team(offenders)
        points = profile.renege_penalty.points_for(
            alone=contract.alone, owed_to_makers=owed == contract.makers
        )
        if profile.renege_ruling is RenegeRuling.FIXED_PENALTY:
            return result(_award(owed, points), Outcome.RENEGE)
        added = PenaltyOption("penalty_added", _award(owed, points))
        deducted = PenaltyOption("penalty_deducted", _award(offenders, -points))
        if not state.play_complete:  # stopped at the proof: "as played" is not on offer
            return result(added.points, Outcome.RENEGE, (deducted,))
        as_played, outcome = _as_played(state)
        return result(as_played, outcome, (added, deducted))

    if not state.play_complete:
        raise UnfinishedHandError(
            f"play stops after {len(state.tricks)} tricks with nothing that ends the hand"
        )
    as_played, outcome = _as_played(state)
    return result(as_played, outcome)


def _as_played(state: HandState) -> tuple[dict[str, int], Outcome]:
    contract = state.contract
    assert contract is not None
    makers_tricks = state.tricks_won()[contract.makers]
    side, points = points_as_played(makers_tricks, contract.alone, state.profile.hand_points)
    team = contract.makers if side == "makers" else other_team(contract.makers)
    if side == "defenders":
        outcome = Outcome.EUCHRED
    else:
        outcome = Outcome.MARCH if makers_tricks == 5 else Outcome.MADE
    return _award(team, points), outcome


def _award(team: str, points: int) -> dict[str, int]:
    return {side: (points if side == team else 0) for side in TEAMS}


def false_renege_claim_points(accused_team: str, profile: RuleProfile) -> dict[str, int]:
    """Points for a side falsely accused of reneging (tournament: 2); a ValueError where the
    profile's book has no such rule.

    >>> from kiosk.rules.profiles import get_profile
    >>> false_renege_claim_points("EW", get_profile("tournament"))
    {'NS': 0, 'EW': 2}
    """
    if profile.false_renege_claim_points is None:
        raise ValueError(f"the {profile.name} rules give no points for a false renege claim")
    return _award(accused_team, profile.false_renege_claim_points)
