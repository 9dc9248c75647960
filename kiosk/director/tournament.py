"""What the director and the kiosks can do, as plain Python over the store.

The HTTP layer (`app`, `views/`) only translates requests into these calls;
tests can drive a whole tournament through this class without a socket.

Results are never overwritten. A game's result is, in order of precedence:
the newest correction by the director, else the first post that fits the
seating ("counted"). A later post that agrees is "same" (nothing counts
twice); one that disagrees is a "conflict", shown to the director, who
settles it with a correction.

Checking the set-up form lives in `planning`, reading the sheet back in
`sheetdata`, a kiosk's post in `posting` (checked by `gamecheck`); this module
holds the other writes and the `Director` facade.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from kiosk.director import auth, schedule
from kiosk.director.gamecheck import ImpossibleScoreError, check_score
from kiosk.director.master_sheet import master_sheet, standings_for
from kiosk.director.planning import (
    FORMATS,
    MAX_NAME,
    Settings,
    SetupError,
    SetupPlan,
    clean,
    fold,
    plan_setup,
)
from kiosk.director.posting import (
    MAX_HANDS,
    MAX_ROUND,
    KeyReusedError,
    PostOutcome,
    ResultError,
    post_job,
    rules_of,
    seat_next_progressive_round,
)
from kiosk.director.posting import audit_row as _audit
from kiosk.director.posting import now as now
from kiosk.director.sheetdata import (
    current_points,
    game_names,
    open_calls,
    read_game,
    read_games,
    read_settings,
    seating_entry,
    stray_posts,
    team_names,
)
from kiosk.director.store import Database

__all__ = ["Director", "DirectorError", "KeyReusedError", "PostOutcome", "ResultError"]


class DirectorError(ValueError):
    """A director action that cannot be done as asked; the message says why."""


class Director:
    """One tournament in one database: set-up, pairing, results, corrections, sheets."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.secret, self.pin = db.write(self._init_meta)
        self.throttle = auth.Throttle()
        # Paired kiosks' tokens (hash -> table), all read at once, so a post needs no read
        # to be let in and a wrong token costs none; forgotten around every write that
        # pairs, revokes or sets up (`_tokens_change`).
        self._tokens: dict[str, int] = {}
        self._tokens_complete = False  # every paired table's token is in _tokens
        self._tokens_generation = 0
        self._tokens_lock = threading.Lock()

    @staticmethod
    def _init_meta(conn: sqlite3.Connection) -> tuple[str, str]:
        for key, make in (("secret", auth.new_token), ("pin", auth.new_pin)):
            conn.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (key, make()))
        rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        return rows["secret"], rows["pin"]

    # -- reading the basics ------------------------------------------------

    def settings(self) -> Settings | None:
        """The tournament as set up, or None before set-up."""
        return self.db.read(read_settings)

    def version(self) -> int:
        """Changes with every write: the live sheet polls it."""
        return int(
            self.db.read(
                lambda c: c.execute("SELECT coalesce(max(id), 0) FROM audit").fetchone()[0]
            )
        )

    # -- set-up ------------------------------------------------------------

    def setup(self, form: Mapping[str, str], who: str = "Director") -> Settings:
        """Create (or, before any result, replace) the tournament from the set-up form."""
        plan = plan_setup(form)
        with self._tokens_change():
            self.db.write(lambda conn: _apply_setup(conn, plan, who))
        return plan.settings

    # -- pairing -----------------------------------------------------------

    def pair(self, code: str, remote: str) -> tuple[int, str]:
        """Exchange a one-time code for the table's token: (table, token)."""
        if self.throttle.blocked(remote):
            raise DirectorError("too many wrong codes from this address; wait a minute")
        wanted = auth.normalize_code(code)
        token = auth.new_token()

        def job(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                "SELECT table_no FROM kiosk_table WHERE code = ?", (wanted,)
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE kiosk_table SET token_hash = ?, code = NULL, paired_at = ?, "
                "paired_from = ?, revoked_at = NULL WHERE table_no = ?",
                (auth.token_hash(token), now(), remote, row[0]),
            )
            _audit(conn, f"table {row[0]} kiosk", "pair", f"Table {row[0]} paired from {remote}")
            return int(row[0])

        with self._tokens_change():
            table = self.db.write(job) if wanted else None
        if table is None:
            self.throttle.failed(remote)
            raise DirectorError("that code is not right, or it was already used")
        return table, token

    def authenticate(self, token: str) -> int | None:
        """The table a bearer token belongs to, or None."""
        digest = auth.token_hash(token)
        with self._tokens_lock:
            if self._tokens_complete:
                return self._tokens.get(digest)
            generation = self._tokens_generation
        rows = self.db.read(
            lambda c: c.execute(
                "SELECT token_hash, table_no FROM kiosk_table WHERE token_hash IS NOT NULL"
            ).fetchall()
        )
        paired = {str(r[0]): int(r[1]) for r in rows}
        with self._tokens_lock:
            if generation == self._tokens_generation:  # no pairing changed meanwhile
                self._tokens, self._tokens_complete = paired, True
        return paired.get(digest)

    @contextmanager
    def _tokens_change(self) -> Iterator[None]:
        """Around a write that changes who is paired: the kept tokens are forgotten before
        (no read begun earlier may keep one) and after (none read meanwhile stays)."""
        self._forget_tokens()
        try:
            yield
        finally:
            self._forget_tokens()

    def _forget_tokens(self) -> None:
        with self._tokens_lock:
            self._tokens_generation += 1
            self._tokens, self._tokens_complete = {}, False

    def revoke(self, table: int, who: str, why: str = "") -> str:
        """Cut a table's kiosk off and issue a fresh pairing code; return the code."""
        code = auth.new_code()

        def job(conn: sqlite3.Connection) -> None:
            found = conn.execute(
                "UPDATE kiosk_table SET token_hash = NULL, code = ?, revoked_at = ? "
                "WHERE table_no = ?",
                (code, now(), table),
            ).rowcount
            if not found:
                raise DirectorError(f"there is no table {table}")
            _audit(conn, who, "revoke", f"Table {table}: kiosk cut off, new pairing code", why)

        with self._tokens_change():
            self.db.write(job)
        return code

    def tables(self) -> list[dict[str, Any]]:
        """Every table with its pairing state (the code only while unpaired)."""

        def job(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = conn.execute(
                "SELECT table_no, token_hash IS NOT NULL AS paired, code, paired_at, "
                "paired_from, revoked_at, last_seen FROM kiosk_table ORDER BY table_no"
            ).fetchall()
            return [dict(r) | {"paired": bool(r["paired"])} for r in rows]

        return self.db.read(job)

    # -- what a kiosk needs to know ---------------------------------------

    def table_info(self, table: int) -> dict[str, Any]:
        """Settings and this table's seating, round by round (GET /api/v1/table)."""

        def job(conn: sqlite3.Connection) -> dict[str, Any]:
            settings = read_settings(conn)
            if settings is None:
                raise DirectorError("the tournament is not set up yet")
            names = team_names(conn)
            rounds = []
            for row in conn.execute(
                "SELECT * FROM seating WHERE table_no = ? ORDER BY round", (table,)
            ):
                entry = seating_entry(row, names)
                posted = conn.execute(
                    "SELECT count(*) FROM post WHERE round = ? AND table_no = ?",
                    (row["round"], table),
                ).fetchone()[0]
                entry["reported"] = bool(posted)
                rounds.append(entry)
            playing = [r for r in rounds if not r["bye"]]
            nxt = next((r["round"] for r in playing if not r["reported"]), None)
            return {
                "table": table,
                "tournament": settings.name,
                "profile": settings.profile,
                "points_to_win": settings.points_to_win,
                "game_minutes": settings.game_minutes,
                "format": settings.format,
                "hands_per_game": settings.hands_per_game,
                "rounds": rounds,
                "next_round": nxt,
            }

        return self.db.read(job)

    # -- results -------------------------------------------------------------

    def post_result(self, table: int, key: str, body: object) -> PostOutcome:
        """Record a kiosk's result once; say how it counts. Commits before returning."""
        return self.db.write(post_job(table, key, body))

    def correct(
        self,
        rnd: int,
        table: int,
        who: str,
        why: str,
        points: tuple[int, int] | None = None,
        post_id: int | None = None,
        void: bool = False,
        ending: str = "points",
    ) -> int:
        """The director's word on a game, as a new audit row (the posts stay as they were).

        New points go through the same rule-book check as a kiosk's post
        (`gamecheck`), with `ending` "time" when the time limit stopped the game.
        """
        who, why = clean(who, MAX_NAME), clean(why, 500)
        if not who:
            raise DirectorError("Please write your name, so the sheet shows who changed it.")
        if not why:
            raise DirectorError("Please write why, so the sheet shows the reason.")
        if void and points is not None:
            raise DirectorError("Either void the game or give new points, not both.")
        if sum(x is not None and x is not False for x in (points, post_id, void or None)) != 1:
            raise DirectorError("Give new points, choose a posted result, or void the game.")

        def job(conn: sqlite3.Connection) -> int:
            seat = conn.execute(
                "SELECT * FROM seating WHERE round = ? AND table_no = ?", (rnd, table)
            ).fetchone()
            if seat is None:
                raise DirectorError(f"There is no game {rnd} at table {table}.")
            settings = read_settings(conn)
            if points is not None and settings is not None:
                try:
                    check_score(points, ending, rules_of(settings))
                except ImpossibleScoreError as problem:
                    raise DirectorError(str(problem)) from None
            new_points = points
            if post_id is not None:
                post = conn.execute(
                    "SELECT points_a, points_b FROM post"
                    " WHERE id = ? AND round = ? AND table_no = ?",
                    (post_id, rnd, table),
                ).fetchone()
                if post is None or post["points_a"] is None:
                    raise DirectorError("That posted result does not fit this game's teams.")
                new_points = (post["points_a"], post["points_b"])
            a, b = new_points if new_points else (None, None)
            before = current_points(conn, rnd, table)
            seen = conn.execute(
                "SELECT coalesce(max(id), 0) FROM post WHERE round = ? AND table_no = ?",
                (rnd, table),
            ).fetchone()[0]
            cur = conn.execute(
                "INSERT INTO correction (round, table_no, points_a, points_b, post_id, seen_post,"
                " who, at, why, ended_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (rnd, table, a, b, post_id, seen, who, now(), why,
                 ending if points is not None else None),
            )
            names = team_names(conn)
            a_name, b_name = game_names(seat, names)
            what = (
                f"Game {rnd}, table {table}: game void"
                if void
                else f"Game {rnd}, table {table}: {a_name} {a}, {b_name} {b}"
                + (f" (result #{post_id} chosen)" if post_id else "")
                + (" (ended by time)" if points is not None and ending == "time" else "")
            ) + (
                f" (was {before[0]}-{before[1]})" if before else " (was no result)"
            )
            _audit(conn, who, "correct", what, why)
            seat_next_progressive_round(conn)
            return int(cur.lastrowid or 0)

        return self.db.write(job)

    def record_cut(self, table: int, a: list[str], b: list[str], who: str) -> None:
        """Players who cut for partners at `table` in round 1 become teams A and B."""
        if len(a) != 2 or len(b) != 2:
            raise DirectorError("Each team is two players.")

        def job(conn: sqlite3.Connection) -> None:
            settings = read_settings(conn)
            if settings is None or settings.entry != "players" or settings.format != "round_robin":
                raise DirectorError("Cutting for partners is for a round robin of players.")
            slot_a, slot_b = schedule.a_slot(table), schedule.b_slot(table)
            rows = conn.execute(
                "SELECT slot, players FROM team WHERE slot IN (?, ?)", (slot_a, slot_b)
            ).fetchall()
            four = {fold(p) for r in rows for p in json.loads(r["players"])}
            if len(rows) != 2 or {fold(p) for p in a + b} != four or len(four) != 4:
                raise DirectorError(f"The four players must be the ones seated at table {table}.")
            taken = {
                fold(r[0])
                for r in conn.execute(
                    "SELECT name FROM team WHERE name IS NOT NULL AND slot NOT IN (?, ?)",
                    (slot_a, slot_b),
                )
            }
            for slot, pair in ((slot_a, a), (slot_b, b)):
                name = f"{pair[0]} & {pair[1]}"
                if fold(name) in taken:
                    raise DirectorError(f"Another team is already called {name}.")
                conn.execute(
                    "UPDATE team SET name = ?, players = ? WHERE slot = ?",
                    (name, json.dumps(pair), slot),
                )
            _audit(
                conn,
                who,
                "cut",
                f"Table {table}: A team {a[0]} & {a[1]}, B team {b[0]} & {b[1]}",
            )

        self.db.write(job)

    def call(self, table: int, key: str, body: object) -> int:
        """Players at `table` asked for the director (idempotent on `key`); with
        `"cancelled": true` they settled it themselves and withdraw the table's open calls
        (0 is returned)."""
        data = body if isinstance(body, dict) else {}
        hand, rnd = data.get("hand"), data.get("round")
        for what, value, high in (("hand", hand, MAX_HANDS), ("round", rnd, MAX_ROUND)):
            if value is not None and not (
                isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high
            ):
                raise ResultError(f"{what} must be a whole number from 0 to {high}")

        def withdraw(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "UPDATE director_call SET answered_at = ?, answered_by = ? "
                "WHERE table_no = ? AND answered_at IS NULL",
                (now(), "the players (call withdrawn)", table),
            )
            if cur.rowcount:
                _audit(conn, f"table {table} kiosk", "call",
                       f"Table {table} withdrew its call for the director")
            return 0

        if data.get("cancelled") is True:
            return self.db.write(withdraw)
        # a result the director refused (too large, impossible): the kiosk set it aside
        refused = data.get("refused")
        note = ("a result from this table was set aside: " + clean(refused, 300)
                if isinstance(refused, str) and clean(refused) else "")

        def job(conn: sqlite3.Connection) -> int:
            old = conn.execute(
                "SELECT id FROM director_call WHERE idempotency_key = ?", (key,)
            ).fetchone()
            if old is not None:
                return int(old[0])
            cur = conn.execute(
                "INSERT INTO director_call (idempotency_key, table_no, round, hand, at, note)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key, table, rnd, hand, now(), note),
            )
            _audit(
                conn,
                f"table {table} kiosk",
                "call",
                f"Table {table} calls the director" + (f" (hand {hand})" if hand else "")
                + (f": {note}" if note else ""),
            )
            return int(cur.lastrowid or 0)

        if not key:
            raise ResultError("an idempotency key is required")
        return self.db.write(job)

    def answer_call(self, call_id: int, who: str) -> None:
        """The director went to the table."""

        def job(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT table_no FROM director_call WHERE id = ? AND answered_at IS NULL",
                (call_id,),
            ).fetchone()
            if row is None:
                return
            conn.execute(
                "UPDATE director_call SET answered_at = ?, answered_by = ? WHERE id = ?",
                (now(), who, call_id),
            )
            _audit(conn, who, "call", f"Went to table {row[0]}")

        self.db.write(job)

    def open_calls(self) -> list[dict[str, Any]]:
        """Tables whose players are waiting for the director."""
        return self.db.read(open_calls)

    def frame(self, frame_id: int) -> tuple[str, bytes] | None:
        """A renege frame's (mime type, bytes)."""
        row = self.db.read(
            lambda c: c.execute("SELECT mime, data FROM frame WHERE id = ?", (frame_id,)).fetchone()
        )
        return None if row is None else (row["mime"], bytes(row["data"]))

    # -- the sheets ----------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Every scheduled game with its result as it now stands."""
        return self.db.read(read_games)

    def game(self, rnd: int, table: int) -> dict[str, Any] | None:
        """One game in full: its posts (hand records, reneges, frames), corrections."""
        return self.db.read(lambda conn: read_game(conn, rnd, table))

    def seating(self) -> list[dict[str, Any]]:
        """Each round's seating, table by table."""

        def job(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            names = team_names(conn)
            out: list[dict[str, Any]] = []
            for row in conn.execute("SELECT * FROM seating ORDER BY round, table_no"):
                out.append(seating_entry(row, names))
            return out

        return self.db.read(job)

    def pending_cuts(self) -> list[dict[str, Any]]:
        """Tables whose four players have not yet cut for partners."""

        def job(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = conn.execute(
                "SELECT slot, players FROM team WHERE name IS NULL AND is_bye = 0 ORDER BY slot"
            ).fetchall()
            by_table: dict[int, list[str]] = {}
            for r in rows:
                by_table.setdefault(r["slot"] // 2 + 1, []).extend(json.loads(r["players"]))
            return [{"table": t, "players": p} for t, p in sorted(by_table.items())]

        return self.db.read(job)

    def standings(self) -> dict[str, Any]:
        """Live standings from the rules engine, with each tie-break's reason."""
        settings, games = self.db.read(lambda c: (read_settings(c), read_games(c)))
        return standings_for(settings, games)

    def sheet(self) -> dict[str, Any]:
        """The master score sheet: a row per team, a column per game, plus standings."""

        def snapshot(conn: sqlite3.Connection) -> tuple[Any, ...]:
            return (
                conn.execute("SELECT coalesce(max(id), 0) FROM audit").fetchone()[0],
                read_settings(conn),
                read_games(conn),
                open_calls(conn),
                stray_posts(conn),
            )

        version, settings, games, calls, strays = self.db.read(snapshot)
        if settings is None:
            return {"tournament": None, "version": version}
        return master_sheet(version, settings, games, calls, strays)

    def audit(self) -> list[dict[str, Any]]:
        """Every change, newest first."""
        return self.db.read(
            lambda c: [dict(r) for r in c.execute("SELECT * FROM audit ORDER BY id DESC")]
        )


def _apply_setup(conn: sqlite3.Connection, plan: SetupPlan, who: str) -> None:
    if conn.execute("SELECT count(*) FROM post").fetchone()[0]:
        raise SetupError(
            "Results have already come in, so this tournament cannot be set up again. "
            "To run a new one, start the director with a new --data folder."
        )
    s = plan.settings
    replacing = conn.execute("SELECT count(*) FROM tournament").fetchone()[0]
    for table in ("tournament", "team", "player", "seating", "correction"):
        conn.execute(f"DELETE FROM {table}")
    conn.execute(
        "INSERT INTO tournament (id, name, profile, points_to_win, game_minutes, format, entry,"
        " b_moves_down, tables, rounds, hands_per_game, created_at)"
        " VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            s.name,
            s.profile,
            s.points_to_win,
            s.game_minutes,
            s.format,
            s.entry,
            int(s.b_moves_down),
            s.tables,
            s.rounds,
            s.hands_per_game,
            now(),
        ),
    )
    if s.entry == "players":
        conn.executemany("INSERT INTO player (name) VALUES (?)", [(p,) for p in plan.entrants])
    if s.format == "round_robin":
        for slot, (name, players, bye) in enumerate(plan.teams):
            conn.execute(
                "INSERT INTO team (slot, name, players, is_bye) VALUES (?, ?, ?, ?)",
                (slot, name if not bye else "(bye)", json.dumps(players), int(bye)),
            )
        for game in schedule.round_robin(s.tables, s.rounds, s.b_moves_down):
            conn.execute(
                "INSERT INTO seating (round, table_no, a_slot, b_slot) VALUES (?, ?, ?, ?)",
                (game.round, game.table, game.a_slot, game.b_slot),
            )
    else:
        for t, seats in schedule.first_progressive_seating(plan.entrants).items():
            conn.execute(
                "INSERT INTO seating (round, table_no, seats) VALUES (1, ?, ?)",
                (t, json.dumps(seats)),
            )
    # Keep the pairing of tables that still exist; new tables get a code.
    conn.execute("DELETE FROM kiosk_table WHERE table_no > ?", (s.tables,))
    for t in range(1, s.tables + 1):
        conn.execute(
            "INSERT OR IGNORE INTO kiosk_table (table_no, code) VALUES (?, ?)", (t, auth.new_code())
        )
    what = (
        f"{'Replaced' if replacing else 'Set up'} {s.name!r}: {FORMATS[s.format].lower()}, "
        f"{s.profile} rules, {len(plan.entrants)} {s.entry}, {s.tables} tables, "
        f"{s.rounds} games per team"
    )
    _audit(conn, who, "setup", what)
