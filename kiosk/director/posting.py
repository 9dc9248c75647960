"""A kiosk's post: checked against the contract and the rule book, then stored once.

Everything here runs before or inside the writer's transaction: a post that
is not a possible game result raises `ResultError` (HTTP 422) and nothing is
stored; one that is stored is answered only after the commit. Posts are only
ever inserted: a later post that agrees is "same", one that disagrees is a
"conflict" for the director.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kiosk.director import schedule
from kiosk.director.gamecheck import ImpossibleScoreError, Rules, check_score
from kiosk.director.planning import Settings
from kiosk.director.sheetdata import (
    current_points,
    ended_by,
    game_names,
    read_settings,
    team_names,
)
from kiosk.director.text import clean, fold

#: a renege frame's image at most (a camera still is 100-300 KB); with `MAX_FRAMES` frames
#: base64-encoded and `MAX_REST` of hand records, a legal result always fits the 16 MB body
MAX_FRAME_BYTES = 1_000_000
MAX_FRAMES = 10
MAX_REST = 2_000_000
MAX_KEY = 200
#: two names of at most 80 letters joined by " & ", with room to spare
MAX_TEAM_TEXT = 200
#: rounds are numbered 1 up (a round robin of 500 tables has 500); a larger number is no round
MAX_ROUND = 999
#: hands in one game (a game to 10 points ends in 19 hands at most; a progressive round in 8)
MAX_HANDS = 200
#: posts kept for one game (or for rounds not on the schedule) from one table: a kiosk
#: sends a game once and the outbox retries with the same key, so a few is plenty
MAX_POSTS_PER_GAME = 6
#: renege frames kept for one table in all; past it a post is kept without its frames
FRAME_BUDGET_PER_TABLE = 64_000_000
SEATS = ("N", "E", "S", "W")
#: the first bytes of the images a kiosk may attach, and their types
IMAGE_MAGIC = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG\r\n\x1a\n", "image/png"))


class ResultError(ValueError):
    """A posted result that cannot be a game result (HTTP 422)."""


class KeyReusedError(ValueError):
    """The idempotency key was already used for a different result (HTTP 409)."""


def now() -> str:
    """UTC time of day as the sheet shows it (ISO 8601, seconds)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def canonical(value: object) -> str:
    """The one JSON spelling of a value, so equal posts hash equal.

    >>> canonical({"teams": ["Ann & Bob", "Cy & Di"], "round": 1})
    '{"round":1,"teams":["Ann & Bob","Cy & Di"]}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class PostOutcome:
    """What the director did with a post: what the kiosk's acknowledgement says."""

    status: str  # counted | same | conflict
    post_id: int
    replay: bool  # this idempotency key was seen before: nothing new was stored
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "acknowledged": True,
            "status": self.status,
            "result_id": self.post_id,
            "replay": self.replay,
            "note": self.note,
        }


def image_type(data: bytes) -> str | None:
    """The image type of a frame by its first bytes (JPEG, PNG or WebP), else None.

    >>> image_type(b"\\xff\\xd8\\xff\\xe0"), image_type(b"RIFF1234WEBPVP8 "), image_type(b"<svg")
    ('image/jpeg', 'image/webp', None)
    """
    for magic, mime in IMAGE_MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _frames_from(renege: Mapping[str, Any], index: int) -> list[tuple[str, str, bytes]]:
    """Decode a renege's frames: [{"label", "image": data URL or base64 image}]."""
    frames = renege.get("frames") or []
    if not isinstance(frames, list):
        raise ResultError(f"reneges[{index}].frames must be a list")
    decoded = []
    for k, frame in enumerate(frames):
        if not isinstance(frame, Mapping) or not isinstance(frame.get("image"), str):
            raise ResultError(f"reneges[{index}].frames[{k}] needs an image")
        image: str = frame["image"]
        match = re.match(r"data:image/(?:jpeg|png|webp);base64,", image)
        if match:
            image = image[match.end() :]
        if len(image) > MAX_FRAME_BYTES * 4 // 3 + 4:
            raise ResultError(f"reneges[{index}].frames[{k}] is larger than 1 MB")
        try:
            data = base64.b64decode(image, validate=True)
        except (binascii.Error, ValueError):
            raise ResultError(f"reneges[{index}].frames[{k}].image is not base64") from None
        mime = image_type(data)
        if mime is None:
            raise ResultError(f"reneges[{index}].frames[{k}] is not a JPEG, PNG or WebP image")
        label = clean(str(frame.get("label") or f"frame {k + 1}"), 120)
        decoded.append((label, mime, data))
    return decoded


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _renege(renege: object, i: int, teams: list[str]) -> dict[str, Any]:
    """One renege report, its fields checked; only the fields the sheet knows are kept."""
    if not isinstance(renege, dict):
        raise ResultError(f"reneges[{i}] must be an object")
    if renege.get("seat") not in SEATS:
        raise ResultError(f"reneges[{i}].seat must be N, E, S or W")
    for key, high in (("hand", MAX_HANDS), ("trick", 5), ("proven_at", 5)):
        if key in renege and not _whole(renege[key], 1, high):
            raise ResultError(f"reneges[{i}].{key} must be a whole number from 1 to {high}")
    kept = {k: renege[k] for k in ("seat", "hand", "trick", "proven_at") if k in renege}
    if "team" in renege:
        team = renege["team"]
        if not isinstance(team, str) or fold(team) not in {fold(t) for t in teams}:
            raise ResultError(f"reneges[{i}].team must be one of the two teams of this game")
        kept["team"] = clean(team, MAX_TEAM_TEXT)
    if "penalty" in renege:
        if not isinstance(renege["penalty"], str):
            raise ResultError(f"reneges[{i}].penalty must be text")
        kept["penalty"] = clean(renege["penalty"], 200)
    if "frames" in renege:
        kept["frames"] = renege["frames"]
    return kept


def validate_result(body: object) -> dict[str, Any]:
    """Check a posted result's shape (docs/director-api.md); return it as a dict, its
    names cleaned (kiosk.director.text) and its renege reports reduced to known fields."""
    if not isinstance(body, dict):
        raise ResultError("the result must be a JSON object")
    teams = _score_fields(body)
    _game_fields(body)
    result = dict(body)
    result["teams"] = [clean(t) for t in teams]
    if "reneges" in body:
        result["reneges"] = [_renege(r, i, result["teams"])
                             for i, r in enumerate(body["reneges"])]
    return result


def _score_fields(body: dict[str, Any]) -> list[str]:
    """Check the round, the two teams and their points; the teams as posted."""
    rnd = body.get("round")
    if not _whole(rnd, 1, MAX_ROUND):
        raise ResultError(f"round must be a whole number from 1 to {MAX_ROUND}")
    teams = body.get("teams")
    if (
        not isinstance(teams, list)
        or len(teams) != 2
        or not all(isinstance(t, str) and clean(t) for t in teams)
    ):
        raise ResultError("teams must be a list of two team names")
    points = body.get("points")
    if not isinstance(points, list) or len(points) != 2 or not all(
        _whole(p, 0, 99) for p in points
    ):
        raise ResultError("points must be a list of two whole numbers from 0 to 99")
    if any(len(t) > MAX_TEAM_TEXT for t in teams):
        raise ResultError(f"a team name is longer than {MAX_TEAM_TEXT} characters")
    return teams


def _game_fields(body: dict[str, Any]) -> None:
    """Check the table, how the game ended, and the lists and objects beside the score."""
    if "table" in body and not _whole(body["table"], 1, 10_000):
        raise ResultError("table must be a whole number from 1 to 10000")
    if body.get("ended_by", "points") not in ("points", "time", "hands"):
        raise ResultError("ended_by must be points, time or hands")
    if not isinstance(body.get("time_up", False), bool):
        raise ResultError("time_up must be true or false")
    if body.get("time_up") and body.get("ended_by", "time") != "time":
        raise ResultError("time_up is true but ended_by says the game ended otherwise")
    for key in ("hands", "reneges"):
        if not isinstance(body.get(key, []), list):
            raise ResultError(f"{key} must be a list")
    if len(body.get("hands", [])) > MAX_HANDS:
        raise ResultError(f"a game has at most {MAX_HANDS} hands")
    for key in ("seats", "player_points"):
        if not isinstance(body.get(key, {}), dict):
            raise ResultError(f"{key} must be an object")


def rules_of(settings: Settings) -> Rules:
    """What `gamecheck` needs to know of the tournament as set up."""
    return Rules(
        profile=settings.profile,
        target=settings.points_to_win,
        game_minutes=settings.game_minutes,
        progressive=settings.format == "progressive",
        hands_per_game=settings.hands_per_game or 8,
    )


def check_possible(conn: sqlite3.Connection, result: Mapping[str, Any]) -> None:
    """Refuse (ResultError) a score the tournament's rule book and target cannot produce."""
    settings = read_settings(conn)
    if settings is None:
        return
    points = (int(result["points"][0]), int(result["points"][1]))
    try:
        check_score(points, ended_by(result), rules_of(settings))
    except ImpossibleScoreError as problem:
        raise ResultError(str(problem)) from None


def post_job(table: int, key: str, body: object) -> Callable[[sqlite3.Connection], PostOutcome]:
    """Check a kiosk's post now and return the write that stores it (for `Database.write`).

    The shape is checked before anything reaches the writer; the rule-book
    check needs the settings, so it runs inside the write, before the insert.
    """
    if not key or len(key) > MAX_KEY:
        raise ResultError(f"an idempotency key (1 to {MAX_KEY} characters) is required")
    result = validate_result(body)
    frames = [_frames_from(r, i) for i, r in enumerate(result.get("reneges", []))]
    if sum(len(f) for f in frames) > MAX_FRAMES:
        raise ResultError(f"a result carries at most {MAX_FRAMES} renege frames")
    digest = hashlib.sha256(canonical(result).encode()).hexdigest()
    stored = dict(result)
    stored["reneges"] = [
        {k: v for k, v in r.items() if k != "frames"} | {"frame_count": len(f)}
        for r, f in zip(result.get("reneges", []), frames, strict=True)
    ]
    if len(canonical(stored).encode()) > MAX_REST:
        raise ResultError("the result's hand records are larger than 2 MB")
    return lambda conn: _store_post(conn, table, key, result, stored, digest, frames)


def audit_row(conn: sqlite3.Connection, who: str, action: str, what: str, why: str = "") -> None:
    conn.execute(
        "INSERT INTO audit (at, who, action, what, why) VALUES (?, ?, ?, ?, ?)",
        (now(), who, action, what, why),
    )


def _orient(
    conn: sqlite3.Connection, rnd: int, table: int, result: Mapping[str, Any]
) -> tuple[int | None, int | None, str]:
    """Turn posted (teams, points) into the seating's (A points, B points), or say why not."""
    seat = conn.execute(
        "SELECT * FROM seating WHERE round = ? AND table_no = ?", (rnd, table)
    ).fetchone()
    if seat is None:
        return None, None, f"no game {rnd} is scheduled at table {table}"
    names = team_names(conn, (seat["a_slot"], seat["b_slot"])) if not seat["seats"] else {}
    if not seat["seats"] and (names[seat["a_slot"]][1] or names[seat["b_slot"]][1]):
        return None, None, f"table {table} sits out game {rnd} (bye)"
    a, b = game_names(seat, names)
    posted = [fold(t) for t in result["teams"]]
    points = result["points"]
    if posted == [fold(a), fold(b)]:
        return points[0], points[1], ""
    if posted == [fold(b), fold(a)]:
        return points[1], points[0], ""
    return (
        None,
        None,
        (
            f"the teams posted ({result['teams'][0]}, {result['teams'][1]}) are not the ones "
            f"seated at table {table} for game {rnd} ({a}, {b})"
        ),
    )


def _store_post(
    conn: sqlite3.Connection,
    table: int,
    key: str,
    result: dict[str, Any],
    stored: dict[str, Any],
    digest: str,
    frames: list[list[tuple[str, str, bytes]]],
) -> PostOutcome:
    old = conn.execute(
        "SELECT id, body_hash, status, note FROM post WHERE idempotency_key = ?", (key,)
    ).fetchone()
    if old is not None:
        if old["body_hash"] != digest:
            raise KeyReusedError("this idempotency key was already used for a different result")
        return PostOutcome(old["status"], old["id"], replay=True, note=old["note"])
    check_possible(conn, result)
    rnd = int(result["round"])
    _check_room(conn, table, rnd)
    if frames and _frame_bytes(conn, table) + sum(
        len(d) for f in frames for _l, _m, d in f
    ) > FRAME_BUDGET_PER_TABLE:
        frames = []  # the result counts; its evidence does not fit this table's share
    points_a, points_b, note = _orient(conn, rnd, table, result)
    said = result.get("table", table)
    if said != table:
        points_a = points_b = None
        note = f"the kiosk paired with table {table} says it is table {said}"
    current = current_points(conn, rnd, table)
    if points_a is None:
        status = "conflict"
    elif current is None:
        status = "counted"
    elif current == (points_a, points_b):
        status, note = "same", "agrees with the result already counted"
    else:
        status = "conflict"
        note = f"disagrees with the result already counted ({current[0]}-{current[1]})"
    if (
        status == "counted"
        and conn.execute(
            "SELECT 1 FROM correction WHERE round = ? AND table_no = ?", (rnd, table)
        ).fetchone()
    ):
        status, note = "conflict", "the director voided this game"
    cur = conn.execute(
        "INSERT INTO post (idempotency_key, table_no, round, received_at, body, body_hash, status,"
        " points_a, points_b, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (key, table, rnd, now(), canonical(stored), digest, status, points_a, points_b, note),
    )
    post_id = int(cur.lastrowid or 0)
    for index, renege_frames in enumerate(frames):
        for label, mime, data in renege_frames:
            conn.execute(
                "INSERT INTO frame (post_id, renege_index, label, mime, data)"
                " VALUES (?, ?, ?, ?, ?)",
                (post_id, index, label, mime, data),
            )
    conn.execute("UPDATE kiosk_table SET last_seen = ? WHERE table_no = ?", (now(), table))
    teams, pts = result["teams"], result["points"]
    what = f"Game {rnd}, table {table}: {teams[0]} {pts[0]}, {teams[1]} {pts[1]} ({status})"
    audit_row(conn, f"table {table} kiosk", "result", what + (f": {note}" if note else ""))
    if status == "counted":
        seat_next_progressive_round(conn)
    return PostOutcome(status, post_id, replay=False, note=note)


def _check_room(conn: sqlite3.Connection, table: int, rnd: int) -> None:
    """Refuse a post past `MAX_POSTS_PER_GAME` for this game, or for rounds that are not
    on the schedule: a paired kiosk cannot fill the director's disk with conflicts."""
    scheduled = conn.execute(
        "SELECT 1 FROM seating WHERE round = ? AND table_no = ?", (rnd, table)
    ).fetchone()
    if scheduled:
        count = conn.execute(
            "SELECT count(*) FROM post WHERE round = ? AND table_no = ?", (rnd, table)
        ).fetchone()[0]
        where = f"game {rnd}"
    else:
        count = conn.execute(
            "SELECT count(*) FROM post p WHERE p.table_no = ? AND NOT EXISTS (SELECT 1 FROM"
            " seating s WHERE s.round = p.round AND s.table_no = p.table_no)", (table,)
        ).fetchone()[0]
        where = "games that are not on the schedule"
    if count >= MAX_POSTS_PER_GAME:
        raise ResultError(
            f"table {table} has already sent {count} results for {where}; "
            "the director settles it at the table"
        )


def _frame_bytes(conn: sqlite3.Connection, table: int) -> int:
    return int(conn.execute(
        "SELECT coalesce(sum(length(f.data)), 0) FROM frame f JOIN post p ON p.id = f.post_id"
        " WHERE p.table_no = ?", (table,)
    ).fetchone()[0])


def seat_next_progressive_round(conn: sqlite3.Connection) -> None:
    """Seat the next progressive round once every table of the last one has a result."""
    settings = read_settings(conn)
    if settings is None or settings.format != "progressive":
        return
    last = conn.execute("SELECT max(round) FROM seating").fetchone()[0]
    if last is None or last >= settings.rounds:
        return
    seating: dict[int, dict[str, str]] = {}
    winners: dict[int, str] = {}
    for row in conn.execute("SELECT table_no, seats FROM seating WHERE round = ?", (last,)):
        points = current_points(conn, last, row["table_no"])
        if points is None:
            return
        seating[row["table_no"]] = json.loads(row["seats"])
        # A tie (possible over a fixed number of hands) sends the N-S pair up.
        winners[row["table_no"]] = "NS" if points[0] >= points[1] else "EW"
    for t, seats in schedule.next_progressive_seating(seating, winners).items():
        conn.execute(
            "INSERT INTO seating (round, table_no, seats) VALUES (?, ?, ?)",
            (last + 1, t, json.dumps(seats)),
        )
    audit_row(conn, "director", "seating", f"Game {last + 1} seated: winners moved up one table")
