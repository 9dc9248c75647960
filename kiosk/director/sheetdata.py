"""Reading the tournament back: seating, games as they stand, one game in full.

These run inside a read snapshot (or the writer's transaction) and only
read. A game's result is, in order: the newest correction by the director,
else the first post that fits the seating ("counted").

The Master Score Card records the winner's points as the target ("10 or
whatever number set by the director for a win, loser actual points",
alberta55.txt Tournament Play 7): a winner who reached the target is written
down with exactly the target; a game stopped by the time limit keeps the
points actually scored. Standings are computed from these sheet points by
the rules engine (`kiosk.rules.standings`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from kiosk.director.gamecheck import recorded_points
from kiosk.director.planning import Settings, fold


def sheet_points(points_a: int, points_b: int, target: int) -> tuple[int, int]:
    """The Master Score Card's entry: the winner who reached the target gets the target.

    >>> sheet_points(11, 7, 10), sheet_points(6, 8, 10), sheet_points(5, 5, 10)
    ((10, 7), (6, 8), (5, 5))
    """
    if points_a > points_b and points_a >= target:
        return target, points_b
    if points_b > points_a and points_b >= target:
        return points_a, target
    return points_a, points_b


def ended_by(result: Mapping[str, Any]) -> str:
    """How the game ended: "points" (a side reached the target), "time" or "hands".

    >>> ended_by({"time_up": True}), ended_by({}), ended_by({"ended_by": "hands"})
    ('time', 'points', 'hands')
    """
    if result.get("ended_by"):
        return str(result["ended_by"])
    return "time" if result.get("time_up") else "points"


def progressive_tally(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Players' totals in a progressive event (tournament.txt: players score individually).

    A player scores their pair's points in each game, or the `player_points`
    the kiosk reported (a lone maker 5, the partner 4). Ranked by points, then
    games won; equal on both share the rank.
    """
    totals: dict[str, dict[str, Any]] = {}
    for g in games:
        if g["sheet_points"] is None:
            continue
        per_player = g.get("player_points") or {}
        for side, pair in enumerate(g["pairs"]):
            mine, theirs = g["sheet_points"][side], g["sheet_points"][1 - side]
            for player in pair:
                row = totals.setdefault(
                    player, {"team": player, "wins": 0, "losses": 0, "ties": 0, "points_for": 0}
                )
                row["points_for"] += int(per_player.get(player, mine))
                key = "wins" if mine > theirs else "losses" if mine < theirs else "ties"
                row[key] += 1
    ordered = sorted(totals.values(), key=lambda r: (-r["points_for"], -r["wins"], fold(r["team"])))
    out: list[dict[str, Any]] = []
    for i, row in enumerate(ordered):
        prev = out[-1] if out else None
        same = prev and (prev["points_for"], prev["wins"]) == (row["points_for"], row["wins"])
        rank = prev["rank"] if same and prev else i + 1
        out.append(row | {"rank": rank, "tiebreak": "equal points and wins" if same else ""})
        if same and prev:
            prev["tiebreak"] = "equal points and wins"
    return {"standings": out}


# -- helpers run inside a read snapshot or the writer's transaction ----------


def read_settings(conn: sqlite3.Connection) -> Settings | None:
    row = conn.execute("SELECT * FROM tournament WHERE id = 1").fetchone()
    if row is None:
        return None
    return Settings(
        name=row["name"],
        profile=row["profile"],
        points_to_win=row["points_to_win"],
        game_minutes=row["game_minutes"],
        format=row["format"],
        entry=row["entry"],
        b_moves_down=bool(row["b_moves_down"]),
        tables=row["tables"],
        rounds=row["rounds"],
        hands_per_game=row["hands_per_game"],
    )


def team_names(
    conn: sqlite3.Connection, slots: tuple[int, ...] | None = None
) -> dict[int, tuple[str | None, bool, list[str]]]:
    """slot -> (name, is bye, players): every team, or only `slots` (a post needs two)."""
    query = "SELECT slot, name, is_bye, players FROM team"
    rows = (
        conn.execute(query + f" WHERE slot IN ({','.join('?' * len(slots))})", slots)
        if slots
        else conn.execute(query)
    )
    return {r["slot"]: (r["name"], bool(r["is_bye"]), json.loads(r["players"])) for r in rows}


def pending_name(slot: int, side: str) -> str:
    return f"Table {slot // 2 + 1} {side} team (to cut)"


def game_names(
    row: sqlite3.Row, names: dict[int, tuple[str | None, bool, list[str]]]
) -> tuple[str, str]:
    """The A and B names of a seating row (progressive: the N-S and E-W pairs)."""
    if row["seats"]:
        seats = json.loads(row["seats"])
        return f"{seats['N']} & {seats['S']}", f"{seats['E']} & {seats['W']}"
    a = names[row["a_slot"]][0] or pending_name(row["a_slot"], "A")
    b = names[row["b_slot"]][0] or pending_name(row["b_slot"], "B")
    return a, b


def seating_entry(
    row: sqlite3.Row, names: dict[int, tuple[str | None, bool, list[str]]]
) -> dict[str, Any]:
    a, b = game_names(row, names)
    bye = not row["seats"] and (names[row["a_slot"]][1] or names[row["b_slot"]][1])
    entry: dict[str, Any] = {
        "round": row["round"],
        "table": row["table_no"],
        "teams": [a, b],
        "bye": bye,
    }
    if row["seats"]:
        entry["seats"] = json.loads(row["seats"])
    else:
        entry["players"] = [names[row["a_slot"]][2], names[row["b_slot"]][2]]
        if bye:
            sitting = a if names[row["b_slot"]][1] else b
            entry["teams"] = [sitting, None]
    return entry


def current_points(conn: sqlite3.Connection, rnd: int, table: int) -> tuple[int, int] | None:
    """The game's result as it stands: the newest correction, else the counted post."""
    fix = conn.execute(
        "SELECT points_a, points_b FROM correction WHERE round = ? AND table_no = ? "
        "ORDER BY id DESC LIMIT 1",
        (rnd, table),
    ).fetchone()
    if fix is not None:
        return None if fix["points_a"] is None else (fix["points_a"], fix["points_b"])
    post = conn.execute(
        "SELECT points_a, points_b FROM post"
        " WHERE round = ? AND table_no = ? AND status = 'counted'",
        (rnd, table),
    ).fetchone()
    return None if post is None else (post["points_a"], post["points_b"])


def read_games(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    settings = read_settings(conn)
    if settings is None:
        return []
    names = team_names(conn)
    posts: dict[tuple[int, int], list[sqlite3.Row]] = {}
    for p in conn.execute("SELECT * FROM post ORDER BY id"):
        posts.setdefault((p["round"], p["table_no"]), []).append(p)
    fixes: dict[tuple[int, int], sqlite3.Row] = {}
    for c in conn.execute("SELECT * FROM correction ORDER BY id"):
        fixes[(c["round"], c["table_no"])] = c
    out = []
    for row in conn.execute("SELECT * FROM seating ORDER BY round, table_no"):
        entry = seating_entry(row, names)
        key = (row["round"], row["table_no"])
        game_posts = posts.get(key, [])
        counted = next((p for p in game_posts if p["status"] == "counted"), None)
        fix = fixes.get(key)
        points: tuple[int, int] | None = None
        source, status = None, "waiting"
        finish = "points"
        body: dict[str, Any] = {}
        if counted is not None:
            body = json.loads(counted["body"])
            points, source, status = (counted["points_a"], counted["points_b"]), "kiosk", "counted"
            finish = ended_by(body)
        if fix is not None:
            source = "director"
            if fix["points_a"] is None:
                points, status = None, "void"
            else:
                points, status = (fix["points_a"], fix["points_b"]), "corrected"
                if counted is not None and fix["post_id"] == counted["id"]:
                    # "Keep the counted result": the director decided, nothing changed
                    source, status = "kiosk", "counted"
                if fix["post_id"] is not None:
                    chosen = next((p for p in game_posts if p["id"] == fix["post_id"]), None)
                    if chosen is not None:
                        body = json.loads(chosen["body"])
                        finish = ended_by(body)
                else:  # the director's own points: a kiosk's per-player split no longer fits
                    body = {k: v for k, v in body.items() if k != "player_points"}
                    finish = fix["ended_by"] or "points"
        open_conflicts = [
            p
            for p in game_posts
            if p["status"] == "conflict" and (fix is None or p["id"] > fix["seen_post"])
        ]
        if entry["bye"]:
            status = "bye"
        sheet = None
        if points is not None:
            sheet = list(
                recorded_points(points, finish, settings.profile, settings.points_to_win)
            )
        shown = counted
        if fix is not None and fix["post_id"] is not None:
            shown = next((p for p in game_posts if p["id"] == fix["post_id"]), counted)
        reneges = renege_reports(conn, shown) if shown is not None else []
        pairs = []
        if row["seats"]:
            seats = json.loads(row["seats"])
            pairs = [[seats["N"], seats["S"]], [seats["E"], seats["W"]]]
        out.append(
            entry
            | {
                "points": list(points) if points else None,
                "sheet_points": sheet,
                "source": source,
                "status": "conflict" if open_conflicts and status != "corrected" else status,
                "ended_by": finish,
                "posts": len(game_posts),
                "conflicts": len(open_conflicts),
                "needs_decision": bool(open_conflicts),
                "reneges": reneges,
                "pairs": pairs,
                "player_points": body.get("player_points") or {},
            }
        )
    return out


def renege_reports(conn: sqlite3.Connection, post: sqlite3.Row) -> list[dict[str, Any]]:
    """The renege reports of the post that counts, with their frames' ids.

    A kiosk may list reneges (with evidence frames) under `reneges`; if it
    does not, the reneges the rules engine proved in each hand's `result`
    are reported (without frames).
    """
    body = json.loads(post["body"])
    listed = body.get("reneges") or []
    if listed:
        out = []
        for i, r in enumerate(listed):
            frame_ids = [
                f[0]
                for f in conn.execute(
                    "SELECT id FROM frame WHERE post_id = ? AND renege_index = ? ORDER BY id",
                    (post["id"], i),
                )
            ]
            out.append(r | {"post_id": post["id"], "frames": frame_ids})
        return out
    found = []
    for number, hand in enumerate(body.get("hands") or [], start=1):
        verdict = hand.get("result") if isinstance(hand, dict) else None
        for r in (verdict or {}).get("reneges") or []:
            if isinstance(r, dict):
                found.append(
                    {k: r.get(k) for k in ("seat", "trick", "proven_at")}
                    | {"hand": number, "post_id": post["id"], "frames": []}
                )
    return found


def read_game(conn: sqlite3.Connection, rnd: int, table: int) -> dict[str, Any] | None:
    game = next((g for g in read_games(conn) if g["round"] == rnd and g["table"] == table), None)
    if game is None:
        return None
    posts = []
    for p in conn.execute(
        "SELECT * FROM post WHERE round = ? AND table_no = ? ORDER BY id", (rnd, table)
    ):
        body = json.loads(p["body"])
        frames = [
            dict(f)
            for f in conn.execute(
                "SELECT id, renege_index, label, mime FROM frame WHERE post_id = ? ORDER BY id",
                (p["id"],),
            )
        ]
        posts.append(
            {
                "id": p["id"],
                "idempotency_key": p["idempotency_key"],
                "received_at": p["received_at"],
                "status": p["status"],
                "note": p["note"],
                "points_a": p["points_a"],
                "points_b": p["points_b"],
                "result": body,
                "frames": frames,
            }
        )
    corrections = [
        dict(c)
        for c in conn.execute(
            "SELECT * FROM correction WHERE round = ? AND table_no = ? ORDER BY id", (rnd, table)
        )
    ]
    return game | {"post_list": posts, "corrections": corrections}


def open_calls(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Players' calls for the director not yet answered, oldest first."""
    return [
        dict(r)
        for r in conn.execute(
            "SELECT id, table_no, round, hand, at, note FROM director_call "
            "WHERE answered_at IS NULL ORDER BY id"
        )
    ]


def stray_posts(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Posts for a game that is not on the schedule (a kiosk set to the wrong round).

    They are kept like any post, but no game row shows them, so the sheet
    lists them on their own.
    """
    rows = conn.execute(
        "SELECT p.id, p.round, p.table_no, p.received_at, p.body, p.note FROM post p "
        "LEFT JOIN seating s ON s.round = p.round AND s.table_no = p.table_no "
        "WHERE s.round IS NULL ORDER BY p.id"
    ).fetchall()
    out = []
    for r in rows:
        body = json.loads(r["body"])
        out.append(
            {
                "id": r["id"],
                "round": r["round"],
                "table": r["table_no"],
                "received_at": r["received_at"],
                "teams": body.get("teams"),
                "points": body.get("points"),
                "note": r["note"],
            }
        )
    return out
