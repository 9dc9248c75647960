"""The master score sheet as the director's pages show it: a row per team, a column per
game, and the standings beside them.

Built from what the store reads back (`sheetdata`): the games as they stand, with their
sheet points, the open calls and the posts that fit no game.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from kiosk.director.planning import Settings, fold
from kiosk.director.sheetdata import progressive_tally


def master_sheet(version: int, settings: Settings, games: list[dict[str, Any]],
                 calls: list[dict[str, Any]], strays: list[dict[str, Any]]) -> dict[str, Any]:
    """The sheet at ``version`` of the store: each team's row of games, the standings, and
    what needs the director's attention."""
    standings = standings_for(settings, games)
    rows: dict[str, dict[str, Any]] = {}
    for g in games:
        for side in (0, 1):
            name = g["teams"][side]
            if name is None:
                continue
            row = rows.setdefault(name, {"team": name, "cells": {}})
            pts = g["sheet_points"]
            cell: dict[str, Any] = {
                "round": g["round"],
                "table": g["table"],
                "opponent": g["teams"][1 - side],
                "status": g["status"],
                "ended_by": g["ended_by"],
            }
            if pts is not None:
                mine, theirs = pts[side], pts[1 - side]
                cell |= {
                    "points": mine,
                    "result": "W" if mine > theirs else "L" if mine < theirs else "T",
                }
            row["cells"][g["round"]] = cell
    ranks = {s["team"]: s for s in standings.get("standings", [])}
    team_rows = []
    for name, row in rows.items():
        cells = [row["cells"].get(r) for r in range(1, settings.rounds + 1)]
        rank = ranks.get(name, {})
        team_rows.append({"team": name, "cells": cells, "standing": rank})
    team_rows.sort(key=lambda r: (r["standing"].get("rank", 10**6), fold(r["team"])))
    attention = [g for g in games if g["needs_decision"]]
    reneges = [
        {"round": g["round"], "table": g["table"], **r} for g in games for r in g["reneges"]
    ]
    return {
        "tournament": asdict(settings),
        "version": version,
        "rounds": settings.rounds,
        "teams": team_rows,
        "games": games,
        "standings": standings,
        "attention": attention,
        "calls": calls,
        "strays": strays,
        "reneges": reneges,
        "reported": sum(1 for g in games if g["sheet_points"] is not None),
        "scheduled": sum(1 for g in games if not g["bye"]),
    }


def standings_for(settings: Settings | None, games: list[dict[str, Any]]) -> dict[str, Any]:
    """Standings from the games as they stand: the rules engine's, or the progressive tally."""
    if settings is None:
        return {"standings": []}
    if settings.format == "progressive":
        return progressive_tally(games)
    played = [
        {"round": g["round"], "table": g["table"], "teams": g["teams"], "points": g["sheet_points"]}
        for g in games
        if g["sheet_points"] is not None
    ]
    try:
        from kiosk.rules.standings import standings_json
    except ImportError:
        return {"standings": [], "unavailable": "the rules engine's standings are not installed"}
    return standings_json({"games": played}, settings.profile)
