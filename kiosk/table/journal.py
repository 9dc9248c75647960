"""The table's append-only journal: the one place a game's history lives.

Every intent (a player's tap) and every vision event is appended here and
committed *before* the session acts on it or the screen shows it. The
session's state is never saved directly; on start it is rebuilt by replaying
this journal through the rules engine, so a kiosk killed mid-hand comes back
exactly where it was.

Each entry has a monotonic sequence number and an idempotency key. Appending
an entry whose key is already in the journal does nothing and says so: the
trick reader re-sending a sighting after a restart, or a double-tapped button
carrying the same key, is counted once.

SQLite in WAL mode with `synchronous=FULL`: a commit survives the process
being killed and the power being cut; readers never block the single writer.

>>> j = Journal(":memory:")
>>> j.append("bid", {"seat": "E", "call": "pass"}, key="tap-1").seq
1
>>> j.append("bid", {"seat": "E", "call": "pass"}, key="tap-1") is None
True
>>> [e.kind for e in j.entries()]
['bid']
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,  -- monotonic, never reused
    key     TEXT NOT NULL UNIQUE,               -- idempotency key
    kind    TEXT NOT NULL,                      -- what happened: 'bid', 'vision', ...
    payload TEXT NOT NULL,                      -- JSON object
    wall    REAL NOT NULL                       -- wall-clock seconds when recorded
);
"""


@dataclass(frozen=True)
class Entry:
    """One recorded happening, as replayed."""

    seq: int
    key: str
    kind: str
    payload: dict[str, Any]
    wall: float


class Journal:
    """Append-only, durable log of one table's intents and events."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.Lock()
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one per append.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def append(self, kind: str, payload: dict[str, Any], key: str) -> Entry | None:
        """Record one entry and commit it; None if `key` was already recorded."""
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        wall = float(self._clock())
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO journal (key, kind, payload, wall) VALUES (?, ?, ?, ?)",
                    (key, kind, text, wall),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        if cur.rowcount == 0:
            return None
        seq = cur.lastrowid
        assert seq is not None
        return Entry(seq=seq, key=key, kind=kind, payload=json.loads(text), wall=wall)

    def has(self, key: str) -> bool:
        row = self._db.execute("SELECT 1 FROM journal WHERE key = ?", (key,)).fetchone()
        return row is not None

    def entries(self) -> Iterator[Entry]:
        """Every entry in the order it was recorded."""
        rows = self._db.execute(
            "SELECT seq, key, kind, payload, wall FROM journal ORDER BY seq"
        ).fetchall()
        for seq, key, kind, payload, wall in rows:
            yield Entry(seq=seq, key=key, kind=kind, payload=json.loads(payload), wall=wall)

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM journal").fetchone()[0])

    def close(self) -> None:
        self._db.close()
