"""A game: hand points added up until one partnership reaches the target.

The target is the profile's `points_to_win` (10; a director may set 5 or 7
with `dataclasses.replace`).  A game that ends on time (ssc's 25 minutes) is
decided by the score so far and may be a tie.  A score never goes below zero:
alberta55's revoke penalty "taken from the points of the revoking side" can
take away only points that side has (a 5's marker cannot show less than 0;
the profile's `scores_floor_at_zero`).

>>> from kiosk.rules.profiles import get_profile
>>> tally = game_tally([{"NS": 2, "EW": 0}, {"NS": 0, "EW": 4}, {"NS": 4, "EW": 0}],
...                    get_profile("general"))
>>> tally.points, tally.winner
({'NS': 6, 'EW': 4}, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.rules.cards import TEAMS
from kiosk.rules.profiles import RuleProfile


class GameOverError(ValueError):
    """A hand scored after the game was already won."""


@dataclass(frozen=True)
class GameTally:
    """The score of a game so far."""

    points: dict[str, int]
    hands: int
    points_to_win: int
    floor_at_zero: bool = True

    @property
    def winner(self) -> str | None:
        """The partnership that reached the target, if one has."""
        reached = [team for team in TEAMS if self.points[team] >= self.points_to_win]
        return reached[0] if reached else None

    def add(self, hand_points: Mapping[str, int]) -> GameTally:
        """The tally after one more hand (penalty deductions stop at zero).

        >>> GameTally({"NS": 9, "EW": 1}, 7, 10).add({"NS": 2, "EW": 0}).winner
        'NS'
        """
        if self.winner is not None:
            raise GameOverError(f"{self.winner} has already won the game")
        points = add_hand_points(self.points, hand_points, self.floor_at_zero)
        return GameTally(points, self.hands + 1, self.points_to_win, self.floor_at_zero)


def add_hand_points(
    points: Mapping[str, int], hand_points: Mapping[str, int], floor_at_zero: bool
) -> dict[str, int]:
    """A game's score after one more hand; with `floor_at_zero` a deduction stops at 0.

    The table session adds up a game hand by hand with this, so the screen, the
    result sent to the director and the engine's own tally always agree.

    >>> add_hand_points({"NS": 1, "EW": 4}, {"NS": -2, "EW": 0}, True)
    {'NS': 0, 'EW': 4}
    >>> add_hand_points({"NS": 1, "EW": 4}, {"NS": -2, "EW": 0}, False)
    {'NS': -1, 'EW': 4}
    """
    total = {team: points.get(team, 0) + hand_points.get(team, 0) for team in TEAMS}
    if floor_at_zero:
        total = {team: max(0, value) for team, value in total.items()}
    return total


def game_tally(hands: Iterable[Mapping[str, int]], profile: RuleProfile) -> GameTally:
    """Add up a game's hands (each a `points` object of `score-hand`)."""
    tally = GameTally(
        {team: 0 for team in TEAMS}, 0, profile.points_to_win, profile.scores_floor_at_zero
    )
    for hand_points in hands:
        tally = tally.add(hand_points)
    return tally


def result_on_time(points: Mapping[str, int]) -> str | None:
    """The winner of a game stopped on time (the higher score), or None for a tie.

    >>> result_on_time({"NS": 6, "EW": 6}) is None
    True
    """
    ns, ew = points["NS"], points["EW"]
    return None if ns == ew else ("NS" if ns > ew else "EW")
