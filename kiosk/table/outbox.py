"""The kiosk's outbox: finished games wait here until the director acknowledges them.

Why it exists: the hall's Wi-Fi drops and the director's laptop gets closed.
A confirmed game is written to this SQLite file *before* anything is sent, so
it survives the kiosk restarting too; a sender retries with growing pauses
until the director answers "acknowledged" (which it says only after its own
commit). Each game carries an idempotency key that stays the same on every
retry, so the director counts it once however often it arrives.

Use from the table session::

    outbox = Outbox("var/kiosk/outbox.sqlite3")
    outbox.configure(server="http://192.168.1.5:8555", token=token)  # after pairing
    outbox.start()                       # background sender
    outbox.submit(session.game_result()) # returns the key; sent as soon as it can be
    outbox.counts()                      # {"pending": 0, "acknowledged": 1, "rejected": 0}

A result the director refuses for good (malformed, too large, or its key
reused for a different result) is kept as "rejected" with the reason, never
dropped, and never holds up the games after it: the kiosk shows it, and a
short call tells the director which table's result was set aside and why. A
result larger than the director takes (`MAX_BODY`) is set aside before it is
sent: the director would cut the connection, which looks like a dropped
Wi-Fi and would be retried for ever.
"""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.table import pinning

#: (url, body, headers, timeout seconds) -> (HTTP status, body). Raises OSError when
#: the director cannot be reached at all.
Transport = Callable[[str, bytes, dict[str, str], float], tuple[int, bytes]]

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    key TEXT PRIMARY KEY,            -- the idempotency key the director dedups on
    kind TEXT NOT NULL,              -- result | call
    body TEXT NOT NULL,              -- the JSON to post, exactly as first submitted
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'acknowledged', 'rejected')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    answer TEXT NOT NULL DEFAULT '',  -- the director's acknowledgement or refusal
    created REAL NOT NULL,
    done REAL
);
CREATE TABLE IF NOT EXISTS outbox_config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

PATHS = {"result": "/api/v1/results", "call": "/api/v1/calls"}
#: the largest body the director takes on each path (docs/director-api.md, "Limits")
MAX_BODY = {"result": 16 * 1024 * 1024, "call": 512 * 1024}
#: Answers worth retrying: the director is busy, restarting, or something in between.
RETRY_STATUSES = {408, 425, 429, 500, 502, 503, 504}
#: Not paired, or revoked: wait for a new pairing (configure()), keep the results.
AUTH_STATUSES = {401, 403}


def urllib_transport(
    url: str, body: bytes, headers: dict[str, str], timeout: float
) -> tuple[int, bytes]:
    """POST with the standard library (no dependency on the kiosk); to an ``https://``
    director only if its certificate is the one pinned at pairing (kiosk.table.pinning)."""
    if url.lower().startswith("https://"):
        return pinning.request("POST", url, body, headers, timeout)
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as answer:
        return int(answer.code), answer.read()
    except http.client.HTTPException as broken:
        # The connection died mid-answer (the director was killed, the Wi-Fi dropped):
        # the post may or may not have been stored, so it is retried with the same key.
        raise ConnectionError(f"the answer was cut off: {broken!r}") from broken


@dataclass(frozen=True)
class Item:
    """One queued post as the outbox holds it."""

    key: str
    kind: str
    body: dict[str, Any]
    state: str
    attempts: int
    next_try: float
    last_error: str
    answer: dict[str, Any]


@dataclass(frozen=True)
class FlushReport:
    """What one pass over the outbox did."""

    sent: int = 0
    acknowledged: int = 0
    rejected: int = 0
    failed: int = 0
    waiting: int = 0  # still pending after this pass


class Outbox:
    """A persistent queue of posts to the director, retried until acknowledged."""

    def __init__(
        self,
        path: str | Path,
        *,
        server: str | None = None,
        token: str | None = None,
        transport: Transport | None = None,
        timeout: float = 10.0,
        max_pause: float = 60.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.executescript(SCHEMA)
        self._lock = threading.RLock()
        self._send_lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.transport: Transport = transport or urllib_transport
        self.timeout = timeout
        self.max_pause = max_pause
        self.clock = clock
        #: the last unexpected error the background sender survived ('' if none)
        self.last_failure = ""
        if server is not None and token is not None:
            self.configure(server, token)
        else:  # a restart: the pin this kiosk paired with holds again
            kept = self.config()
            if kept.get("server") and kept.get("fingerprint"):
                pinning.pin(kept["server"], kept["fingerprint"])

    # -- configuration (what pairing gave us) ------------------------------

    def configure(self, server: str, token: str, fingerprint: str | None = None) -> None:
        """Remember the director's address, this table's token and the fingerprint of the
        director's certificate (default: the one pairing pinned for that address); retry
        everything now."""
        fingerprint = pinning.pinned(server) if fingerprint is None else fingerprint
        if fingerprint:
            pinning.pin(server, fingerprint)
        with self._lock:
            self._conn.execute("BEGIN")
            self._conn.execute("DELETE FROM outbox_config WHERE key = 'fingerprint'")
            kept = [("server", server.rstrip("/")), ("token", token)]
            if fingerprint:  # (a plain-HTTP director, on a trusted network, has none)
                kept.append(("fingerprint", pinning.normalize(fingerprint)))
            for key, value in kept:
                self._conn.execute(
                    "INSERT OR REPLACE INTO outbox_config VALUES (?, ?)", (key, value)
                )
            self._conn.execute("UPDATE outbox SET next_try = 0 WHERE state = 'pending'")
            self._conn.execute("COMMIT")
        self._wake.set()

    def config(self) -> dict[str, str]:
        with self._lock:
            return dict(self._conn.execute("SELECT key, value FROM outbox_config").fetchall())

    # -- putting things in ---------------------------------------------------

    def submit(self, result: dict[str, Any], kind: str = "result") -> str:
        """Queue a finished game; return its idempotency key. Committed before it returns.

        The key is the result's `game_id` (stable across the kiosk's restarts),
        else its `idempotency_key`, else a new random one. Submitting the same
        key again changes nothing, so calling this twice for one game is safe.
        """
        if kind not in PATHS:
            raise ValueError(f"unknown outbox kind {kind!r}")
        key = str(result.get("game_id") or result.get("idempotency_key") or uuid.uuid4().hex)
        body = json.dumps(result, sort_keys=True, ensure_ascii=False)
        with self._lock:
            self._conn.execute(
                "INSERT OR IGNORE INTO outbox (key, kind, body, created) VALUES (?, ?, ?, ?)",
                (key, kind, body, self.clock()),
            )
        self._wake.set()
        return key

    def call_director(self, setup: dict[str, Any], hand: int, cancelled: bool = False) -> str:
        """The players asked for the director (or withdrew the call: `cancelled`): queued
        like a result, shown on the sheet."""
        body: dict[str, Any] = {
            "idempotency_key": f"call:{uuid.uuid4().hex}",
            "table": setup.get("table"),
            "round": setup.get("round"),
            "hand": hand,
        }
        if cancelled:
            body["cancelled"] = True
        return self.submit(body, kind="call")

    # -- looking -------------------------------------------------------------

    def item(self, key: str) -> Item | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT key, kind, body, state, attempts, next_try, last_error, answer "
                "FROM outbox WHERE key = ?",
                (key,),
            ).fetchone()
        return None if row is None else _item(row)

    def items(self, state: str | None = None) -> list[Item]:
        query = (
            "SELECT key, kind, body, state, attempts, next_try, last_error, answer FROM outbox"
            + (" WHERE state = ?" if state else "")
            + " ORDER BY created, key"
        )
        with self._lock:
            rows = self._conn.execute(query, (state,) if state else ()).fetchall()
        return [_item(r) for r in rows]

    def pending(self) -> list[Item]:
        """Everything the director has not acknowledged yet, oldest first."""
        return self.items("pending")

    def counts(self) -> dict[str, int]:
        with self._lock:
            rows = dict(self._conn.execute("SELECT state, count(*) FROM outbox GROUP BY state"))
        return {s: int(rows.get(s, 0)) for s in ("pending", "acknowledged", "rejected")}

    # -- sending -------------------------------------------------------------

    def flush(self, force: bool = False) -> FlushReport:
        """Try each pending post whose pause is over (all of them with `force`) once."""
        with self._send_lock:
            config = self.config()
            server, token = config.get("server"), config.get("token")
            due = [i for i in self.pending() if force or i.next_try <= self.clock()]
            # Fresh posts first: one that keeps failing cannot hold up those behind it.
            due.sort(key=lambda i: i.attempts)
            sent = acked = rejected = failed = 0
            if server and token:
                for index, item in enumerate(due):
                    sent += 1
                    outcome = self._send(item, server, token)
                    acked += outcome == "acknowledged"
                    rejected += outcome == "rejected"
                    failed += outcome in ("retry", "unreachable", "unauthorized")
                    if outcome in ("unreachable", "unauthorized"):
                        # The others would fail the same way (and a dropped Wi-Fi costs a
                        # timeout each): they wait for the next pass, paused like this one.
                        reason = (self.item(item.key) or item).last_error
                        for rest in due[index + 1 :]:
                            self._retry(rest, reason)
                        break
            return FlushReport(sent, acked, rejected, failed, len(self.pending()))

    def _send(self, item: Item, server: str, token: str) -> str:
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {token}",
            "Idempotency-Key": item.key,
        }
        body = json.dumps(item.body, ensure_ascii=False).encode()
        if len(body) > MAX_BODY[item.kind]:
            self._set_aside(item, 413, f"the result is too large to send ({len(body) // 2**20} MB;"
                            f" the director takes {MAX_BODY[item.kind] // 2**20} MB at most)")
            return "rejected"
        try:
            status, raw = self.transport(server + PATHS[item.kind], body, headers, self.timeout)
        except (OSError, ValueError) as problem:  # refused, timed out, no route, bad URL
            self._retry(item, f"cannot reach the director: {problem}")
            return "unreachable"
        try:
            answer = json.loads(raw.decode("utf-8") or "{}")
        except ValueError:
            answer = {}
        if not isinstance(answer, dict):
            answer = {}
        if 200 <= status < 300 and answer.get("acknowledged"):
            self._finish(item, "acknowledged", answer)
            return "acknowledged"
        message = str(answer.get("error") or f"HTTP {status}")
        if status in AUTH_STATUSES:
            self._retry(item, f"not paired with the director: {message}")
            return "unauthorized"
        if status in RETRY_STATUSES or status >= 500 or 200 <= status < 300:
            self._retry(item, message)
            return "retry"
        self._set_aside(item, status, message, answer)
        return "rejected"

    def _set_aside(self, item: Item, status: int, message: str,
                   answer: dict[str, Any] | None = None) -> None:
        """A permanent refusal: kept as rejected, and the director is told in a call."""
        self._finish(item, "rejected", (answer or {"error": message}) | {"status": status})
        if item.kind == "result":
            rnd = item.body.get("round")
            self.submit({"idempotency_key": f"refused:{item.key}"[:200],
                         "table": item.body.get("table"),
                         "round": rnd if isinstance(rnd, int) and 0 < rnd < 1000 else None,
                         "refused": message[:300]}, kind="call")

    def _retry(self, item: Item, error: str) -> None:
        attempts = item.attempts + 1
        pause = min(self.max_pause, 0.5 * 2 ** min(attempts, 16)) * random.uniform(0.5, 1.0)
        with self._lock:
            self._conn.execute(
                "UPDATE outbox SET attempts = ?, next_try = ?, last_error = ? WHERE key = ?",
                (attempts, self.clock() + pause, error[:500], item.key),
            )

    def _finish(self, item: Item, state: str, answer: dict[str, Any]) -> None:
        with self._lock:
            self._conn.execute(
                "UPDATE outbox SET state = ?, attempts = ?, answer = ?, done = ?, last_error = ''"
                " WHERE key = ?",
                (state, item.attempts + 1, json.dumps(answer), self.clock(), item.key),
            )

    # -- the background sender -----------------------------------------------

    def start(self) -> None:
        """Send in a background thread until `stop()`: wakes on submit and on each pause's end."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.flush()
            except Exception as problem:  # the sender must outlive any one failure
                # e.g. the file was busy, or a transport raised something unexpected:
                # everything stays pending and is tried again on the next beat.
                self.last_failure = repr(problem)
                self._wake.wait(1.0)
            waits = [i.next_try for i in self.pending()]
            pause = max(0.05, min(waits) - self.clock()) if waits else self.max_pause
            self._wake.wait(min(pause, self.max_pause))

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=self.timeout + 5)
            self._thread = None

    def wait_until_sent(self, timeout: float) -> bool:
        """Block until nothing is pending (True) or `timeout` seconds pass (False)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.pending():
                return True
            time.sleep(0.05)
        return not self.pending()

    def close(self) -> None:
        self.stop()
        with self._lock:
            self._conn.close()


def _item(row: tuple[Any, ...]) -> Item:
    key, kind, body, state, attempts, next_try, last_error, answer = row
    return Item(
        key,
        kind,
        json.loads(body),
        state,
        attempts,
        next_try,
        last_error,
        json.loads(answer) if answer else {},
    )
