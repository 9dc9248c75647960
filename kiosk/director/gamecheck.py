"""Is this score a game result the tournament's rule book allows? Pure functions, no I/O.

A kiosk's post and the director's correction go through the same check, so a
score that cannot happen is refused before it is stored, whoever typed it.

A game ended by points (every book: "the first team to reach 10 points wins",
or the number the director set) has a winner who reached the target, with at
most the target plus three (a side one point short marching alone scores 4:
tournament.txt and ssc.txt, "a total of 13 points per game is possible"), and a
loser below the target. A game stopped by the time limit keeps the points as
they stood; it may be tied only where the book scores ties (ssc.txt: "Win =
2pts, Tie = 1pts"). A progressive game is a fixed number of hands, each worth
at most 4 points to a side.

How a win is recorded is the book's too: alberta55.txt (Tournament Play 7)
writes a winner down with the target ("10 or whatever number set by the
director for a win, loser actual points"); the other books keep the points
as scored.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Books that score a tied game (ssc.txt, Round Robin Game Scoring).
TIES_ALLOWED = frozenset({"ssc"})
#: Books whose Master Score Card writes a winner down with the target (alberta55.txt TP 7).
WINNER_WRITTEN_AS_TARGET = frozenset({"alberta55"})
#: The most a side scores on one hand (a lone march, or a renege against a lone hand).
MAX_HAND_POINTS = 4
#: How an ending is written in a post (`ended_by`), and in words.
ENDINGS = {"points": "a side reached the target", "time": "the time limit", "hands": "the hands"}


class ImpossibleScoreError(ValueError):
    """A score the rule book and target cannot produce; the message says why in one sentence."""


@dataclass(frozen=True)
class Rules:
    """What the check needs to know of the tournament."""

    profile: str
    target: int
    game_minutes: int = 0
    progressive: bool = False
    hands_per_game: int = 8

    @property
    def ties(self) -> bool:
        return self.profile in TIES_ALLOWED


def check_score(points: tuple[int, int], ending: str, rules: Rules) -> None:
    """Raise `ImpossibleScoreError` unless `points` can end a game this way under `rules`.

    >>> r = Rules("alberta55", 10, 25)
    >>> check_score((10, 7), "points", r); check_score((6, 6), "time", Rules("ssc", 10, 25))
    >>> check_score((10, 10), "points", r)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kiosk.director.gamecheck.ImpossibleScoreError: Both sides have 10 or more points: ...
    >>> check_score((6, 5), "points", Rules("alberta55", 7))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kiosk.director.gamecheck.ImpossibleScoreError: A game won on points needs a side with 7 ...
    """
    a, b = points
    for p in points:
        if not 0 <= p <= 99:
            raise ImpossibleScoreError("Points must be whole numbers from 0 to 99.")
    if rules.progressive:
        _check_progressive(a, b, ending, rules)
        return
    if ending == "hands":
        raise ImpossibleScoreError(
            "Only a progressive event ends after a fixed number of hands; this is a round robin."
        )
    high, low = max(a, b), min(a, b)
    ceiling = rules.target + MAX_HAND_POINTS - 1
    if high > ceiling:
        raise ImpossibleScoreError(
            f"{high} points is more than a game to {rules.target} can reach "
            f"(at most {ceiling}: one short, then a lone march)."
        )
    if ending == "time":
        if not rules.game_minutes:
            raise ImpossibleScoreError(
                "This tournament has no time limit, so no game can end by time."
            )
        if a == b and not rules.ties:
            raise ImpossibleScoreError(
                f"A tie is not a result under the {rules.profile} rules: "
                "the director decides who won."
            )
        if low >= rules.target:
            raise ImpossibleScoreError(
                f"Both sides have {rules.target} or more points: "
                f"only the winner can reach the target of {rules.target}."
            )
        return
    if low >= rules.target:
        raise ImpossibleScoreError(
            f"Both sides have {rules.target} or more points: "
            f"only the winner can reach the target of {rules.target}."
        )
    if high < rules.target:
        raise ImpossibleScoreError(
            f"A game won on points needs a side with {rules.target} points or more; "
            f"{a}-{b} did not reach the target"
            + (' (tick "ended by time" if the time limit stopped it).' if rules.game_minutes
               else ".")
        )


def _check_progressive(a: int, b: int, ending: str, rules: Rules) -> None:
    if ending not in ("hands", "time"):
        raise ImpossibleScoreError(
            f"A progressive game ends after its {rules.hands_per_game} hands, not on points."
        )
    most = MAX_HAND_POINTS * rules.hands_per_game
    if max(a, b) > most:
        raise ImpossibleScoreError(
            f"{max(a, b)} points is more than {rules.hands_per_game} hands can give "
            f"(at most {most})."
        )


def recorded_points(
    points: tuple[int, int], ending: str, profile: str, target: int
) -> tuple[int, int]:
    """The Master Score Card's entry for a checked result, as the rule book records a win.

    >>> recorded_points((11, 7), "points", "alberta55", 10)
    (10, 7)
    >>> recorded_points((11, 7), "points", "tournament", 10)
    (11, 7)
    >>> recorded_points((6, 5), "time", "alberta55", 10)
    (6, 5)
    """
    a, b = points
    if ending != "points" or profile not in WINNER_WRITTEN_AS_TARGET:
        return a, b
    if a > b and a >= target:
        return target, b
    if b > a and b >= target:
        return a, target
    return a, b
