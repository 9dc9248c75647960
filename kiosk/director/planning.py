"""The set-up form, checked and worked out: tables, rounds, teams. No database here.

Every problem is a `SetupError` whose message is one plain sentence telling
the director what to change, because the form is filled in by a volunteer
minutes before the first deal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from kiosk.director.text import clean, fold

__all__ = ["ENTRIES", "FORMATS", "MAX_NAME", "Settings", "SetupError", "SetupPlan", "clean",
           "fold", "plan_setup", "split_players"]

FORMATS = {"round_robin": "Round robin", "progressive": "Progressive event"}
ENTRIES = {"teams": "Teams of two", "players": "Players (cut for partners)"}
MAX_NAME = 80


class SetupError(ValueError):
    """A set-up form the director must fix; the message says how, in plain words."""


def split_players(team: str) -> list[str]:
    """The players in a team line: "Ann & Bob", "Ann and Bob", "Ann, Bob", "Ann/Bob".

    >>> split_players("Ann Smith & Bob Jones")
    ['Ann Smith', 'Bob Jones']
    >>> split_players("The Aces")
    []
    """
    parts = [p.strip() for p in re.split(r"\s*(?:&|\+|/|,|\band\b)\s*", team) if p.strip()]
    return parts if len(parts) == 2 else []


def profile_defaults(profile: str) -> tuple[int, int | None, int]:
    """(points to win, game minutes or None, hands per progressive game) of a profile."""
    from kiosk.rules.profiles import get_profile

    rule = get_profile(profile)
    hands = rule.progressive.hands_per_round if rule.progressive else 8
    return rule.points_to_win, rule.game_minutes, hands


def profile_ids() -> list[str]:
    """The rule profiles the set-up form offers."""
    from kiosk.rules.profiles import PROFILES

    return sorted(PROFILES)


@dataclass(frozen=True)
class Settings:
    """A tournament as set up."""

    name: str
    profile: str
    points_to_win: int
    game_minutes: int
    format: str
    entry: str
    b_moves_down: bool
    tables: int
    rounds: int
    hands_per_game: int


@dataclass(frozen=True)
class SetupPlan:
    """A checked set-up form: the settings and the entrants."""

    settings: Settings
    entrants: list[str]
    #: round robin: (name or None until the cut, players, is_bye) by slot
    teams: list[tuple[str | None, list[str], bool]] = field(default_factory=list)


def _int_field(form: Mapping[str, str], key: str, label: str, low: int, high: int) -> int | None:
    text = (form.get(key) or "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise SetupError(f"{label} must be a whole number, not {text!r}.") from None
    if not low <= value <= high:
        raise SetupError(f"{label} must be between {low} and {high}.")
    return value


def plan_setup(form: Mapping[str, str]) -> SetupPlan:
    """Check the set-up form and work out tables, rounds and teams.

    Every message is one plain sentence saying what to change.

    >>> p = plan_setup({"name": "Spring", "profile": "alberta55",
    ...                 "entrants": "Ann & Bob\\nCy & Di\\nEd & Flo"})
    >>> p.settings.tables, p.settings.rounds, [t[0] for t in p.teams]
    (2, 2, ['Ann & Bob', 'Cy & Di', 'Ed & Flo', None])
    """
    name = clean(form.get("name") or "")
    if not name:
        raise SetupError("Please give the tournament a name.")
    profile = (form.get("profile") or "").strip()
    if profile not in profile_ids():
        raise SetupError(f"Please choose the rules: {', '.join(profile_ids())}.")
    default_points, default_minutes, hands = profile_defaults(profile)
    fmt = (form.get("format") or "round_robin").strip()
    if fmt not in FORMATS:
        raise SetupError("Please choose round robin or progressive event.")
    entry = "players" if fmt == "progressive" else (form.get("entry") or "teams").strip()
    if entry not in ENTRIES:
        raise SetupError("Please say whether you are entering teams or players.")
    points = _int_field(form, "points_to_win", "Points to win", 1, 50) or default_points
    minutes = _int_field(form, "game_minutes", "Time limit (minutes)", 0, 240)
    if minutes is None:
        minutes = default_minutes or 0
    b_down = (form.get("b_moves_down") or "").strip().lower() in {"1", "on", "yes", "true"}
    what = "team" if entry == "teams" else "player"
    entrants = _entrants(form, what)
    teams, tables = _teams_and_tables(entrants, entry, fmt)
    given_tables = _int_field(form, "tables", "Tables", 1, 500)
    if given_tables is not None and given_tables != tables:
        raise SetupError(
            f"{len(entrants)} {what}s need {tables} table{'s' if tables != 1 else ''}, "
            f"not {given_tables}. Leave Tables empty to let the sheet count them."
        )
    max_rounds = tables if fmt == "round_robin" else 50
    rounds = _int_field(form, "rounds", "Games per team", 1, max_rounds)
    if rounds is None:
        rounds = tables if fmt == "round_robin" else min(8, max_rounds)
    settings = Settings(
        name=name[:MAX_NAME],
        profile=profile,
        points_to_win=points,
        game_minutes=minutes,
        format=fmt,
        entry=entry,
        b_moves_down=b_down and fmt == "round_robin",
        tables=tables,
        rounds=rounds,
        hands_per_game=hands if fmt == "progressive" else 0,
    )
    return SetupPlan(settings, entrants, teams)


def _entrants(form: Mapping[str, str], what: str) -> list[str]:
    """The entrants listed, one a line, each once and of a name's length."""
    lines = [clean(line) for line in (form.get("entrants") or "").splitlines()]
    entrants = [line for line in lines if line]
    if not entrants:
        raise SetupError(f"Please list the {what}s, one per line.")
    seen: set[str] = set()
    for entrant in entrants:
        if len(entrant) > MAX_NAME:
            raise SetupError(f"This name is too long (at most {MAX_NAME} letters): {entrant[:40]}…")
        if fold(entrant) in seen:
            raise SetupError(f"{entrant!r} is listed twice. Each {what} once, please.")
        seen.add(fold(entrant))
    return entrants


def _teams_and_tables(entrants: list[str], entry: str, fmt: str
                      ) -> tuple[list[tuple[str | None, list[str], bool]], int]:
    """The teams (name, players, whether it is the bye) and the tables they need: teams
    entered as teams (a bye where their number is odd), or players seated four a table
    (a round robin's teams are the pairs as listed)."""
    teams: list[tuple[str | None, list[str], bool]] = []
    if entry == "teams":
        if len(entrants) < 2:
            raise SetupError("A round robin needs at least two teams.")
        teams = [(t, split_players(t), False) for t in entrants]
        if len(teams) % 2:
            teams.append((None, [], True))  # the bye: one team sits out each round
        return teams, len(teams) // 2
    if len(entrants) % 4:
        short = 4 - len(entrants) % 4
        raise SetupError(
            f"{len(entrants)} players do not fill tables of four: add {short} more, "
            f"or ask {4 - short} to sit out."
        )
    tables = len(entrants) // 4
    if fmt == "round_robin":
        for t in range(tables):
            four = entrants[4 * t : 4 * t + 4]
            teams.append((None, four[:2], False))
            teams.append((None, four[2:], False))
    return teams, tables
