"""Standings: ranking teams from game results, with each rule book's tie-breaks.

alberta55 (rule 10 of tournament play): most wins; a two-way tie goes to who
beat who, then total points; a three-way tie to total points; what is still
tied is settled by coin flip and play-off games, which the engine cannot
play, so those teams share the rank and `tiebreak` says so.  ssc: win 2, tie
1, loss 0; tied teams by head-to-head when every tied team met every other,
otherwise by points for.  See docs/rules-profiles.md for general and tournament.

>>> games = {"games": [
...     {"round": 1, "table": 1, "teams": ["Ann & Bob", "Cy & Di"], "points": [10, 6]},
...     {"round": 2, "table": 1, "teams": ["Cy & Di", "Ed & Flo"], "points": [10, 8]},
...     {"round": 3, "table": 1, "teams": ["Ed & Flo", "Ann & Bob"], "points": [10, 9]}]}
>>> [(s["rank"], s["team"], s["tiebreak"]) for s in standings_json(games, "alberta55")["standings"]]
[(1, 'Ann & Bob', 'points'), (2, 'Ed & Flo', 'points'), (3, 'Cy & Di', 'points')]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from kiosk.rules.profiles import Ranking, StandingsRule, TieBreak, get_profile


class StandingsError(ValueError):
    """Game results that cannot be ranked; the message is one line naming the problem."""


@dataclass(frozen=True)
class GameResult:
    """One game: two teams and their final points (equal points: a tie, as on time)."""

    teams: tuple[str, str]
    points: tuple[int, int]
    round: int | None = None
    table: int | None = None

    @property
    def winner(self) -> str | None:
        """The team with more points, or None for a tie."""
        if self.points[0] == self.points[1]:
            return None
        return self.teams[0] if self.points[0] > self.points[1] else self.teams[1]


@dataclass(frozen=True)
class TeamRecord:
    """One team's totals over the event."""

    team: str
    wins: int = 0
    losses: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0


@dataclass(frozen=True)
class Standing:
    """A team's place: teams sharing `rank` are tied; `tiebreak` says what decided it."""

    rank: int
    record: TeamRecord
    tiebreak: str | None

    def to_json(self) -> dict[str, Any]:
        r = self.record
        return {
            "rank": self.rank,
            "team": r.team,
            "wins": r.wins,
            "losses": r.losses,
            "ties": r.ties,
            "points_for": r.points_for,
            "points_against": r.points_against,
            "tiebreak": self.tiebreak,
        }


HEAD_TO_HEAD = "head-to-head"
POINTS = "points"


def team_records(
    games: Iterable[GameResult], rule: StandingsRule | None = None
) -> dict[str, TeamRecord]:
    """Wins, losses, ties and points for and against, per team.

    With a `rule` whose `winner_points_cap` is set, a winner's points stop at that figure,
    as the score card records them (alberta55: 10 for a win, the loser's actual points).
    """
    cap = None if rule is None else rule.winner_points_cap
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for game in games:
        winner = game.winner
        recorded = tuple(
            min(points, cap) if cap is not None and team == winner else points
            for team, points in zip(game.teams, game.points, strict=True)
        )
        for side in (0, 1):
            team, mine, theirs = game.teams[side], recorded[side], recorded[1 - side]
            row = totals[team]
            row["points_for"] += mine
            row["points_against"] += theirs
            key = "ties" if winner is None else ("wins" if winner == team else "losses")
            row[key] += 1
    return {team: TeamRecord(team, **row) for team, row in totals.items()}


def rank_teams(games: Sequence[GameResult], rule: StandingsRule) -> list[Standing]:
    """Rank every team that played, applying `rule`'s ranking figure and tie-breaks."""
    records = team_records(games, rule)

    def figure(team: str) -> int:
        r = records[team]
        if rule.ranking is Ranking.WINS:
            return r.wins
        return r.wins * rule.win_points + r.ties * rule.tie_points + r.losses * rule.loss_points

    blocks: list[tuple[list[str], str | None]] = []
    for _value, group in _split(sorted(records), figure):
        if len(group) == 1:
            blocks.append((group, None))
        elif rule.tiebreak is TieBreak.WHO_BEAT_WHO_THEN_POINTS:
            blocks.extend(_who_beat_who_then_points(group, games, records, rule))
        else:
            blocks.extend(_head_to_head_if_all_met(group, games, records, rule))
    standings: list[Standing] = []
    for teams, label in blocks:
        rank = len(standings) + 1
        standings.extend(Standing(rank, records[team], label) for team in sorted(teams))
    return standings


def _split(teams: Iterable[str], key: Any) -> list[tuple[int, list[str]]]:
    """Teams grouped by `key`, highest first."""
    groups: dict[int, list[str]] = defaultdict(list)
    for team in teams:
        groups[key(team)].append(team)
    return sorted(groups.items(), key=lambda item: -item[0])


def _h2h_wins(a: str, b: str, games: Iterable[GameResult]) -> tuple[int, int]:
    wins = {a: 0, b: 0}
    for game in games:
        if set(game.teams) == {a, b} and game.winner is not None:
            wins[game.winner] += 1
    return wins[a], wins[b]


def _who_beat_who_then_points(
    group: list[str],
    games: Sequence[GameResult],
    records: dict[str, TeamRecord],
    rule: StandingsRule,
) -> list[tuple[list[str], str | None]]:
    if len(group) == 1:
        return [(group, None)]
    if len(group) == 2:
        a, b = group
        a_wins, b_wins = _h2h_wins(a, b, games)
        if a_wins != b_wins:
            order = [a, b] if a_wins > b_wins else [b, a]
            return [([order[0]], HEAD_TO_HEAD), ([order[1]], HEAD_TO_HEAD)]
    by_points = _split(group, lambda team: records[team].points_for)
    if len(by_points) == 1:
        return [(group, rule.unsettled)]
    out: list[tuple[list[str], str | None]] = []
    for _points, sub in by_points:
        if len(sub) == 1:
            out.append((sub, POINTS))
        else:  # a residual tie among a larger group starts over with its own size
            out.extend(_who_beat_who_then_points(sub, games, records, rule))
    return out


def _head_to_head_if_all_met(
    group: list[str],
    games: Sequence[GameResult],
    records: dict[str, TeamRecord],
    rule: StandingsRule,
) -> list[tuple[list[str], str | None]]:
    if len(group) == 1:
        return [(group, None)]
    among = [game for game in games if set(game.teams) <= set(group)]
    met = {frozenset(game.teams) for game in among}
    if all(frozenset(pair) in met for pair in combinations(group, 2)):
        mini = team_records(among)

        def mini_figure(team: str) -> int:
            r = mini[team]
            return r.wins * rule.win_points + r.ties * rule.tie_points + r.losses * rule.loss_points

        separated = _split(group, mini_figure)
        if len(separated) > 1:
            return _resolve(separated, HEAD_TO_HEAD, games, records, rule)
    by_points = _split(group, lambda team: records[team].points_for)
    if len(by_points) > 1:
        return _resolve(by_points, POINTS, games, records, rule)
    return [(group, rule.unsettled)]


def _resolve(
    subgroups: list[tuple[int, list[str]]],
    label: str,
    games: Sequence[GameResult],
    records: dict[str, TeamRecord],
    rule: StandingsRule,
) -> list[tuple[list[str], str | None]]:
    out: list[tuple[list[str], str | None]] = []
    for _value, sub in subgroups:
        if len(sub) == 1:
            out.append((sub, label))
        else:
            out.extend(_head_to_head_if_all_met(sub, games, records, rule))
    return out


def parse_games(data: object) -> list[GameResult]:
    """Read the CONTRACTS `{"games": [...]}` object; `StandingsError` on bad input."""
    if not isinstance(data, dict) or not isinstance(data.get("games"), list):
        raise StandingsError('game results are an object {"games": [...]}')
    out = []
    for index, entry in enumerate(data["games"], 1):
        where = f"game {index}"
        if not isinstance(entry, dict):
            raise StandingsError(f"{where} is not an object")
        teams, points = entry.get("teams"), entry.get("points")
        if (
            not isinstance(teams, list)
            or len(teams) != 2
            or not all(isinstance(team, str) and team.strip() for team in teams)
        ):
            raise StandingsError(f"{where}: 'teams' is a list of two team names")
        if teams[0] == teams[1]:
            raise StandingsError(f"{where}: {teams[0]!r} cannot play itself")
        if (
            not isinstance(points, list)
            or len(points) != 2
            or not all(type(p) is int and p >= 0 for p in points)
        ):
            raise StandingsError(f"{where}: 'points' is a list of two whole numbers, 0 or more")
        numbers = []
        for key in ("round", "table"):
            value = entry.get(key)
            if value is not None and type(value) is not int:
                raise StandingsError(f"{where}: {key!r} is a whole number")
            numbers.append(value)
        out.append(GameResult((teams[0], teams[1]), (points[0], points[1]), numbers[0], numbers[1]))
    return out


def standings_json(games_json: dict[str, Any], profile_name: str) -> dict[str, Any]:
    """The `kiosk standings` output for decoded game results under a profile.

    Raises `StandingsError` for bad results and `ValueError` for an unknown profile.
    """
    profile = get_profile(profile_name)
    games = parse_games(games_json)
    return {"standings": [s.to_json() for s in rank_teams(games, profile.standings)]}
