"""What a table is playing: the set-up filled in before the first deal.

Kept as a small frozen value with a JSON form because it is the first entry
of the journal and, later, what the director's pairing fills in.

>>> s = TableSetup(tournament="Spring", table=3, team_ns="Ann & Bob", team_ew="Cy & Di",
...                profile="tournament", points_to_win=10, minutes=30)
>>> TableSetup.from_json(s.to_json()) == s
True
>>> s.team_name("EW")
'Cy & Di'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

#: the most points a game may be played to, and the longest time limit (minutes)
MOST_POINTS = 31
MOST_MINUTES = 180


class SetupFault(StrEnum):
    """What a set-up the table cannot play gets wrong."""

    TABLE = "table"  #: the table number is below 1
    ROUND = "round"  #: the round number is below 1
    POINTS = "points"  #: points to win outside 1 to MOST_POINTS
    MINUTES = "minutes"  #: a time limit outside 0 (none) to MOST_MINUTES
    SAME_NAMES = "same_names"  #: both teams have one name


class TableSetupError(ValueError):
    """A set-up the table cannot play: its `fault` (the players' words for it are
    kiosk.app.words')."""

    def __init__(self, fault: SetupFault) -> None:
        super().__init__(f"set-up refused: {fault}")
        self.fault = fault


@dataclass(frozen=True)
class TableSetup:
    tournament: str
    table: int
    team_ns: str
    team_ew: str
    profile: str
    points_to_win: int
    minutes: int
    round: int = 1
    four_colour: bool = False

    def team_name(self, side: str) -> str:
        """The name players gave their team; 'North-South' if left blank."""
        if side == "NS":
            return self.team_ns or "North-South"
        return self.team_ew or "East-West"

    def checked(self) -> TableSetup:
        """The same set-up with names trimmed; TableSetupError for what cannot work."""
        s = replace(self, tournament=self.tournament.strip(), team_ns=self.team_ns.strip(),
                    team_ew=self.team_ew.strip())
        if s.table < 1:
            raise TableSetupError(SetupFault.TABLE)
        if s.round < 1:
            raise TableSetupError(SetupFault.ROUND)
        if not 1 <= s.points_to_win <= MOST_POINTS:
            raise TableSetupError(SetupFault.POINTS)
        if not 0 <= s.minutes <= MOST_MINUTES:
            raise TableSetupError(SetupFault.MINUTES)
        if s.team_ns and s.team_ns == s.team_ew:
            raise TableSetupError(SetupFault.SAME_NAMES)
        return s

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSetup:
        return cls(
            tournament=str(data.get("tournament", "")),
            table=int(data.get("table", 1)),
            team_ns=str(data.get("team_ns", "")),
            team_ew=str(data.get("team_ew", "")),
            profile=str(data["profile"]),
            points_to_win=int(data["points_to_win"]),
            minutes=int(data["minutes"]),
            round=int(data.get("round", 1)),
            four_colour=bool(data.get("four_colour", False)),
        )


def default_setup() -> TableSetup:
    """A blank set-up under the default rule book, its points and time pre-filled."""
    from kiosk.table import referee

    info = referee.profile_info(referee.DEFAULT_PROFILE)
    return TableSetup(tournament="", table=1, round=1, team_ns="", team_ew="",
                      profile=info.id, points_to_win=info.points_to_win, minutes=info.minutes)
