"""What the director says this table plays next: `GET /api/v1/table` into a set-up.

After pairing, the kiosk asks the director for its table's seating, so the
players only check the names instead of typing them (docs/director-api.md).
Team A sits North-South, team B East-West.

>>> from kiosk.table.setup import TableSetup
>>> here = TableSetup("", 1, "", "", "tournament", 10, 0)
>>> data = {"table": 2, "tournament": "Spring", "profile": "alberta55", "points_to_win": 10,
...         "game_minutes": 25, "next_round": 2,
...         "rounds": [{"round": 2, "table": 2, "teams": ["Ann & Bob", "Gus & Hal"]}]}
>>> s = setup_from_assignment(here, data)
>>> (s.table, s.round, s.team_ns, s.team_ew, s.profile, s.minutes)
(2, 2, 'Ann & Bob', 'Gus & Hal', 'alberta55', 25)

After a game, the kiosk asks again for the round after the one it played, even if
its result has not reached the director yet (the director still says round 2):

>>> data["rounds"].append({"round": 3, "table": 2, "teams": ["Cy & Di", "Gus & Hal"]})
>>> s = setup_from_assignment(s, data, after=2)
>>> (s.round, s.team_ns, s.team_ew)
(3, 'Cy & Di', 'Gus & Hal')
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kiosk.table.director_problem import DirectorFault, DirectorProblem
from kiosk.table.setup import TableSetup

#: (url, headers, timeout) -> (HTTP status, body)
Getter = Callable[[str, dict[str, str], float], tuple[int, bytes]]


class AssignmentError(DirectorProblem):
    """The director could not say what this table plays."""


def urllib_get(url: str, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
    """GET; an ``https://`` director only through its pinned certificate."""
    if url.lower().startswith("https://"):
        from kiosk.table import pinning

        return pinning.request("GET", url, None, headers, timeout)
    request = urllib.request.Request(url, headers=headers, method="GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - LAN
            return int(response.status), response.read()
    except urllib.error.HTTPError as answer:
        return int(answer.code), answer.read()


def fetch_assignment(server: str, token: str, get: Getter | None = None,
                     timeout: float = 5.0) -> dict[str, Any]:
    """The director's `GET /api/v1/table` answer for this kiosk's token."""
    try:
        status, raw = (get or urllib_get)(server.rstrip("/") + "/api/v1/table",
                                          {"Authorization": f"Bearer {token}"}, timeout)
    except (OSError, ValueError) as problem:
        raise AssignmentError(DirectorFault.UNREACHABLE, detail=str(problem)) from None
    try:
        data = json.loads(raw.decode("utf-8") or "{}")
    except ValueError:
        data = {}
    if status != 200 or not isinstance(data, dict):
        reason = data.get("error") if isinstance(data, dict) else None
        raise AssignmentError(DirectorFault.NO_ANSWER, detail=str(reason or ""), status=status)
    return data


def setup_from_assignment(current: TableSetup, data: dict[str, Any],
                          after: int = 0) -> TableSetup:
    """The set-up with what the director decided filled in (the rest kept).

    `after`: the round this kiosk has just played; the teams are taken for a
    later round only.
    """
    setup = replace(
        current,
        table=int(data.get("table") or current.table),
        tournament=str(data.get("tournament") or current.tournament),
        profile=str(data.get("profile") or current.profile),
        points_to_win=int(data.get("points_to_win") or current.points_to_win),
        minutes=int(data.get("game_minutes") or 0) if "game_minutes" in data
        else current.minutes,
    )
    upcoming = data.get("next_round")
    if after and (upcoming is None or int(upcoming) <= after):
        # The director has not heard of the game just played yet (the outbox is
        # still sending it): the next game is the first later round this table plays.
        upcoming = next((entry.get("round") for entry in data.get("rounds") or []
                         if int(entry.get("round") or 0) > after and not entry.get("bye")
                         and not entry.get("reported")), None)
    for entry in data.get("rounds") or []:
        if entry.get("round") == upcoming and not entry.get("bye"):
            teams = list(entry.get("teams") or [])
            if len(teams) == 2:
                setup = replace(setup, round=int(upcoming), team_ns=str(teams[0]),
                                team_ew=str(teams[1]))
    return setup
