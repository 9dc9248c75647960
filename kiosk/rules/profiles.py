"""Rule profiles: each rule book in ../shared/rules/ as one frozen value.

A profile is data, not code paths: the engine asks a profile *what* the rule
is ("does the dealer need a natural trump?", "what does a renege cost?") and
never asks *which* profile it is.  docs/rules-profiles.md documents every
field clause by clause against its rule book, including the readings chosen
where a book is ambiguous; each such reading is a field, so a director who
reads the book differently changes a value, not the code.

>>> get_profile("ssc").game_minutes
25
>>> import dataclasses
>>> dataclasses.replace(get_profile("alberta55"), points_to_win=7).points_to_win
7
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class LoneScope(enum.Enum):
    """When an irregularity's higher lone-hand figure applies."""

    #: only when the offence was against a lone hand (the loner's side is owed the points)
    AGAINST_LONER = "against_loner"
    #: whenever the hand was a lone hand, whichever side offended
    ANY_LONE_HAND = "any_lone_hand"


@dataclass(frozen=True)
class Penalty:
    """Points a penalized irregularity gives the non-offending side.

    >>> Penalty(2, 4, LoneScope.AGAINST_LONER).points_for(alone=True, owed_to_makers=False)
    2
    >>> Penalty(2, 4, LoneScope.ANY_LONE_HAND).points_for(alone=True, owed_to_makers=False)
    4
    """

    points: int = 2
    lone_points: int = 4
    lone_scope: LoneScope = LoneScope.AGAINST_LONER

    def __post_init__(self) -> None:
        if self.points < 0 or self.lone_points < 0:
            raise ValueError("penalty points cannot be negative")

    def points_for(self, *, alone: bool, owed_to_makers: bool) -> int:
        """The penalty in a hand; `owed_to_makers`: the non-offending side made trump."""
        if alone and (self.lone_scope is LoneScope.ANY_LONE_HAND or owed_to_makers):
            return self.lone_points
        return self.points


class RenegeRuling(enum.Enum):
    """What a proven renege does to the hand's score."""

    #: the penalty replaces the hand's score
    FIXED_PENALTY = "fixed_penalty"
    #: the non-revoking side chooses: the hand as played, the penalty added to
    #: its score, or the penalty taken from the revoking side (alberta55)
    NON_REVOKING_SIDE_CHOOSES = "non_revoking_side_chooses"


class OutOfTurnBidRuling(enum.Enum):
    """What a declaration out of turn does."""

    #: the bid is void and the offending side may not make trump (no points)
    VOID_SIDE_BARRED = "void_side_barred"
    #: play stops and the non-offending side scores the penalty, unless that
    #: side voids the bid and bidding goes on (ssc, tournament)
    PENALTY = "penalty"


class OutOfTurnLeadRuling(enum.Enum):
    """What a lead out of turn does."""

    #: the trick stands once everyone has played to it; no points
    TRICK_STANDS = "trick_stands"
    #: play stops and the non-offending side scores the penalty
    PENALTY = "penalty"


class LoneLead(enum.Enum):
    """Who leads the first trick of a lone hand.

    Every rule book in ../shared/rules/ keeps the opening lead at the dealer's left
    (the next player on, where that is the lone player's partner); some online play
    moves it to the lone player's left (Euchre Game Notation's ``loner_lead``).
    """

    #: the dealer's left, skipping the partner who sits out (all four books)
    DEALERS_LEFT = "dealers_left"
    #: the lone player's left-hand opponent
    LONERS_LEFT = "loners_left"


class Ranking(enum.Enum):
    """What standings sort by before any tie-break."""

    WINS = "wins"
    GAME_POINTS = "game_points"


class TieBreak(enum.Enum):
    """How teams level on the ranking figure are separated."""

    #: two-way: who beat who, then total points; three or more: total points
    #: (alberta55 rule 10, tournament play)
    WHO_BEAT_WHO_THEN_POINTS = "who_beat_who_then_points"
    #: head-to-head results when every tied team met every other, else points for
    HEAD_TO_HEAD_IF_ALL_MET = "head_to_head_if_all_met"


@dataclass(frozen=True)
class HandPoints:
    """The scoring table for a hand as played (identical in all four books)."""

    made: int = 1
    march: int = 2
    lone_made: int = 1
    lone_march: int = 4
    euchred: int = 2
    lone_euchred: int = 2


@dataclass(frozen=True)
class StandingsRule:
    """How a round robin is ranked."""

    ranking: Ranking = Ranking.WINS
    win_points: int = 2
    tie_points: int = 1
    loss_points: int = 0
    tiebreak: TieBreak = TieBreak.WHO_BEAT_WHO_THEN_POINTS
    #: what `tiebreak` says for a tie no rule settles
    unsettled: str = "coin flip or play-off"
    #: a winner who reached this figure is recorded with exactly it, as the Master Score
    #: Card has it (alberta55 tournament play 7: "10 or whatever number set by the director
    #: for a win, loser actual points"); a game won on time keeps the points scored.
    #: None: the points as scored
    winner_points_cap: int | None = None


@dataclass(frozen=True)
class ProgressiveRule:
    """A progressive event: players scored individually over a fixed number of hands."""

    lone_maker_points: int = 5
    lone_partner_points: int = 4
    hands_per_round: int = 8


@dataclass(frozen=True)
class RuleProfile:
    """One rule book's rules, as data.  See docs/rules-profiles.md for each field's clause."""

    name: str
    rule_book: str
    points_to_win: int = 10
    #: a game's time limit; None when the book sets none
    game_minutes: int | None = None
    #: a penalty taken from a side's score stops at zero (a 5's marker shows no less)
    scores_floor_at_zero: bool = True
    hand_points: HandPoints = field(default_factory=HandPoints)
    # --- bidding
    dealer_needs_natural_trump: bool = False
    dealer_partner_order_forces_alone: bool = False
    stick_the_dealer: bool = False
    #: naming the turned-down suit in round two: void and the side barred
    #: (True) or simply not allowed (False: the record cannot be a hand)
    turned_down_suit_bars_side: bool = False
    bid_out_of_turn: OutOfTurnBidRuling = OutOfTurnBidRuling.VOID_SIDE_BARRED
    bid_out_of_turn_penalty: Penalty = field(
        default_factory=lambda: Penalty(2, 2, LoneScope.AGAINST_LONER)
    )
    #: whether a *pass* out of turn counts as a bid out of turn
    pass_out_of_turn_is_bid: bool = False
    #: whether the dealer's round-one pass (turning the turn-up down) out of turn counts
    #: as a bid out of turn (alberta55 11: "a declaration (or turn-down) other than a pass")
    turn_down_out_of_turn_is_bid: bool = False
    # --- play
    lone_lead: LoneLead = LoneLead.DEALERS_LEFT
    lead_out_of_turn: OutOfTurnLeadRuling = OutOfTurnLeadRuling.TRICK_STANDS
    lead_out_of_turn_penalty: Penalty = field(default_factory=Penalty)
    renege_ruling: RenegeRuling = RenegeRuling.FIXED_PENALTY
    renege_penalty: Penalty = field(default_factory=Penalty)
    #: whether play stops once a renege is proven
    renege_ends_hand: bool = True
    #: points to a side falsely accused of reneging; None when the book has no such rule
    false_renege_claim_points: int | None = None
    # --- events
    standings: StandingsRule = field(default_factory=StandingsRule)
    progressive: ProgressiveRule | None = None

    def __post_init__(self) -> None:
        if self.points_to_win < 1:
            raise ValueError(f"points_to_win must be positive, not {self.points_to_win}")
        if self.game_minutes is not None and self.game_minutes < 1:
            raise ValueError(f"game_minutes must be positive, not {self.game_minutes}")


ALBERTA55 = RuleProfile(
    name="alberta55",
    rule_book="alberta55.txt + alberta55-booklet.txt",
    game_minutes=25,
    dealer_needs_natural_trump=True,
    dealer_partner_order_forces_alone=True,
    stick_the_dealer=False,
    turned_down_suit_bars_side=True,
    bid_out_of_turn=OutOfTurnBidRuling.VOID_SIDE_BARRED,
    turn_down_out_of_turn_is_bid=True,
    lead_out_of_turn=OutOfTurnLeadRuling.TRICK_STANDS,
    renege_ruling=RenegeRuling.NON_REVOKING_SIDE_CHOOSES,
    renege_penalty=Penalty(2, 4, LoneScope.AGAINST_LONER),
    renege_ends_hand=False,
    standings=StandingsRule(
        ranking=Ranking.WINS,
        tiebreak=TieBreak.WHO_BEAT_WHO_THEN_POINTS,
        unsettled="coin flip and play-off",
        winner_points_cap=10,
    ),
)

GENERAL = RuleProfile(
    name="general",
    rule_book="general.txt",
    game_minutes=None,
    dealer_needs_natural_trump=True,
    dealer_partner_order_forces_alone=True,
    stick_the_dealer=False,
    turned_down_suit_bars_side=False,
    bid_out_of_turn=OutOfTurnBidRuling.VOID_SIDE_BARRED,
    turn_down_out_of_turn_is_bid=True,
    lead_out_of_turn=OutOfTurnLeadRuling.TRICK_STANDS,
    renege_ruling=RenegeRuling.FIXED_PENALTY,
    renege_penalty=Penalty(2, 4, LoneScope.AGAINST_LONER),
    renege_ends_hand=True,
    standings=StandingsRule(ranking=Ranking.GAME_POINTS, tiebreak=TieBreak.HEAD_TO_HEAD_IF_ALL_MET),
)

SSC = RuleProfile(
    name="ssc",
    rule_book="ssc.txt",
    game_minutes=25,
    dealer_needs_natural_trump=False,
    dealer_partner_order_forces_alone=True,
    stick_the_dealer=False,
    turned_down_suit_bars_side=False,
    bid_out_of_turn=OutOfTurnBidRuling.PENALTY,
    bid_out_of_turn_penalty=Penalty(2, 2, LoneScope.AGAINST_LONER),
    lead_out_of_turn=OutOfTurnLeadRuling.PENALTY,
    lead_out_of_turn_penalty=Penalty(2, 4, LoneScope.ANY_LONE_HAND),
    renege_ruling=RenegeRuling.FIXED_PENALTY,
    renege_penalty=Penalty(2, 4, LoneScope.AGAINST_LONER),
    renege_ends_hand=True,
    standings=StandingsRule(
        ranking=Ranking.GAME_POINTS,
        win_points=2,
        tie_points=1,
        loss_points=0,
        tiebreak=TieBreak.HEAD_TO_HEAD_IF_ALL_MET,
    ),
)

TOURNAMENT = RuleProfile(
    name="tournament",
    rule_book="tournament.txt",
    game_minutes=None,
    dealer_needs_natural_trump=False,
    dealer_partner_order_forces_alone=False,
    stick_the_dealer=True,
    turned_down_suit_bars_side=False,
    bid_out_of_turn=OutOfTurnBidRuling.PENALTY,
    bid_out_of_turn_penalty=Penalty(2, 2, LoneScope.AGAINST_LONER),
    lead_out_of_turn=OutOfTurnLeadRuling.PENALTY,
    lead_out_of_turn_penalty=Penalty(2, 4, LoneScope.ANY_LONE_HAND),
    renege_ruling=RenegeRuling.FIXED_PENALTY,
    renege_penalty=Penalty(2, 4, LoneScope.ANY_LONE_HAND),
    renege_ends_hand=True,
    false_renege_claim_points=2,
    standings=StandingsRule(ranking=Ranking.GAME_POINTS, tiebreak=TieBreak.HEAD_TO_HEAD_IF_ALL_MET),
    progressive=ProgressiveRule(lone_maker_points=5, lone_partner_points=4, hands_per_round=8),
)

#: Every profile by its id (the `--rules` argument).
PROFILES: dict[str, RuleProfile] = {
    profile.name: profile for profile in (ALBERTA55, GENERAL, SSC, TOURNAMENT)
}


def get_profile(name: str) -> RuleProfile:
    """The profile with this id; an unknown id raises `ValueError` listing the valid ones.

    >>> get_profile("tournament").stick_the_dealer
    True
    >>> get_profile("hoyle")
    Traceback (most recent call last):
    ...
    ValueError: unknown rule profile 'hoyle' (valid: alberta55, general, ssc, tournament)
    """
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        valid = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown rule profile {name!r} (valid: {valid})") from None
