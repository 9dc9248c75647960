"""The director's SQLite file: the schema, one writer thread, many readers.

Why this shape:
- One file in the data directory, so a volunteer can copy the whole
  tournament onto a USB stick.
- WAL mode, so the master sheet's readers never block a kiosk's write.
- Every write goes through one writer thread. Writes that arrive together are
  committed together (group commit: one fsync for many kiosks), and each
  caller gets its answer only after the commit, so an acknowledged result is
  on disk even if the director is killed the next instant.
- The kiosk's posts and the director's corrections are only ever inserted,
  never updated or deleted: the file is its own audit trail.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: The whole schema. `CREATE ... IF NOT EXISTS` so that opening is also creating.
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    profile TEXT NOT NULL,
    points_to_win INTEGER NOT NULL,
    game_minutes INTEGER NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('round_robin', 'progressive')),
    entry TEXT NOT NULL CHECK (entry IN ('teams', 'players')),
    b_moves_down INTEGER NOT NULL DEFAULT 0,
    tables INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    hands_per_game INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
-- Round-robin entrants by slot: the A team that starts at table t is slot
-- 2(t-1), its B team 2(t-1)+1. `name` is NULL until unmatched players have
-- cut for partners. A bye is a slot that never plays.
CREATE TABLE IF NOT EXISTS team (
    slot INTEGER PRIMARY KEY,
    name TEXT,
    players TEXT NOT NULL DEFAULT '[]',
    is_bye INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS player (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
-- Who sits where each round: slots for the round robin, seats (JSON
-- {"N": name, ...}) for the progressive event.
CREATE TABLE IF NOT EXISTS seating (
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    a_slot INTEGER,
    b_slot INTEGER,
    seats TEXT,
    PRIMARY KEY (round, table_no)
);
-- One row per table: the hash of its kiosk's token, or the one-time code
-- that a kiosk exchanges for a token.
CREATE TABLE IF NOT EXISTS kiosk_table (
    table_no INTEGER PRIMARY KEY,
    token_hash TEXT UNIQUE,
    code TEXT UNIQUE,
    paired_at TEXT,
    paired_from TEXT,
    revoked_at TEXT,
    last_seen TEXT
);
-- Every result a kiosk posted, as posted. status: counted (the game's first
-- result), same (another post agreeing with it), conflict (disagrees, or does
-- not fit the seating: the director decides). points_a/points_b: the posted
-- points turned to the seating's A and B teams (NULL when the teams don't fit).
CREATE TABLE IF NOT EXISTS post (
    id INTEGER PRIMARY KEY,
    idempotency_key TEXT NOT NULL UNIQUE,
    table_no INTEGER NOT NULL,
    round INTEGER NOT NULL,
    received_at TEXT NOT NULL,
    body TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('counted', 'same', 'conflict')),
    points_a INTEGER,
    points_b INTEGER,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS post_game ON post (round, table_no);
-- Renege evidence: the frames a kiosk attached, kept out of the post's JSON.
CREATE TABLE IF NOT EXISTS frame (
    id INTEGER PRIMARY KEY,
    post_id INTEGER NOT NULL REFERENCES post (id),
    renege_index INTEGER NOT NULL,
    label TEXT NOT NULL,
    mime TEXT NOT NULL,
    data BLOB NOT NULL
);
-- The director's word on a game; the newest row for a game wins. Both points
-- NULL and no post = the game is void. seen_post: the newest post the director
-- had seen; a conflicting post after it still needs a decision.
CREATE TABLE IF NOT EXISTS correction (
    id INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    points_a INTEGER,
    points_b INTEGER,
    post_id INTEGER REFERENCES post (id),
    seen_post INTEGER NOT NULL DEFAULT 0,
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    why TEXT NOT NULL,
    ended_by TEXT
);
CREATE INDEX IF NOT EXISTS correction_game ON correction (round, table_no);
-- Players asking for the director from a kiosk, until the director says done.
CREATE TABLE IF NOT EXISTS director_call (
    id INTEGER PRIMARY KEY,
    idempotency_key TEXT NOT NULL UNIQUE,
    table_no INTEGER NOT NULL,
    round INTEGER,
    hand INTEGER,
    at TEXT NOT NULL,
    answered_at TEXT,
    answered_by TEXT,
    note TEXT NOT NULL DEFAULT ''
);
-- A device signed in as the director with the PIN: the cookie's hash, never the cookie.
CREATE TABLE IF NOT EXISTS director_session (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    device TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    last_seen REAL NOT NULL,
    ended_at REAL,
    ended_by TEXT
);
-- Wrong PINs, kept on disk so a restart does not forgive a guesser.
CREATE TABLE IF NOT EXISTS pin_failure (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS pin_failure_address ON pin_failure (address, at);
-- Deck profiles the director hands to tables (kiosk/director/decks.py): the file as
-- checked on arrival (kiosk/director/deck_check.py), and what it holds, for the page.
CREATE TABLE IF NOT EXISTS deck (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    data BLOB NOT NULL,
    cards TEXT NOT NULL DEFAULT '[]',
    photos INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL,
    added_at TEXT NOT NULL,
    added_by TEXT NOT NULL
);
-- The deck each table reads with; a table without a row keeps the one it has.
-- fetched_at: when the table's kiosk last downloaded it (NULL: not yet).
CREATE TABLE IF NOT EXISTS deck_assignment (
    table_no INTEGER PRIMARY KEY,
    deck_id INTEGER NOT NULL REFERENCES deck (id),
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    fetched_at TEXT
);
-- Everything that happened, in order; max(id) is the sheet's version.
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    action TEXT NOT NULL,
    what TEXT NOT NULL,
    why TEXT NOT NULL DEFAULT ''
);
"""

#: Columns added after a tournament file may already exist: (table, column, declaration).
#: `CREATE TABLE IF NOT EXISTS` does not add them to an old file, so opening does.
ADDED_COLUMNS = [
    ("correction", "ended_by", "TEXT"),
    ("deck_assignment", "fetched_at", "TEXT"),
    ("director_call", "note", "TEXT NOT NULL DEFAULT ''"),
]

#: a write job, the future its caller waits on, and when it was queued
_Job = tuple[Callable[[sqlite3.Connection], Any], "Future[Any]", float]


class WriterStats:
    """Where the writer's time goes: waiting in the queue, running jobs, committing
    (the fsync). Written by the writer thread only; read by the timings page."""

    def __init__(self) -> None:
        self.batches = self.jobs = 0
        self.queued = self.running = self.committing = 0.0
        self.largest = 0

    def report(self) -> dict[str, float]:
        jobs, batches = max(1, self.jobs), max(1, self.batches)
        return {
            "batches": self.batches,
            "jobs": self.jobs,
            "largest_batch": self.largest,
            "mean_queue_ms": round(self.queued / jobs * 1000, 2),
            "mean_job_ms": round(self.running / jobs * 1000, 2),
            "mean_commit_ms": round(self.committing / batches * 1000, 2),
        }


class Database:
    """One SQLite file: `write()` runs on the single writer thread, `read()` anywhere.

    >>> import tempfile, os
    >>> db = Database(Path(tempfile.mkdtemp()) / "t.sqlite3")
    >>> db.write(lambda c: c.execute("INSERT INTO meta VALUES ('k', 'v')").rowcount)
    1
    >>> db.read(lambda c: c.execute("SELECT value FROM meta").fetchone()[0])
    'v'
    >>> db.close()
    """

    #: How many queued writes may share one commit.
    BATCH = 128

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer_conn = self._connect()
        self._writer_conn.executescript(SCHEMA)
        for table, column, declaration in ADDED_COLUMNS:
            known = {r[1] for r in self._writer_conn.execute(f"PRAGMA table_info({table})")}
            if column not in known:
                self._writer_conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
        #: called (on the writer's caller's thread) after every committed write: live pages
        self.listeners: list[Callable[[], None]] = []
        self._readers: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()  # None: stop
        self.stats = WriterStats()
        self._closed = False
        self._thread = threading.Thread(target=self._write_loop, name="db-writer", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on the disk, not only in the OS cache, before we acknowledge.
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=10000")
        return conn

    # -- writing ---------------------------------------------------------

    def write(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run `job` in a transaction on the writer thread; return once committed.

        If `job` raises, its changes are rolled back and the exception is
        raised here; other jobs in the same batch are unaffected.
        """
        if self._closed:
            raise RuntimeError("database is closed")
        future: Future[T] = Future()
        self._jobs.put((job, future, time.perf_counter()))
        value = future.result()
        for listener in list(self.listeners):
            listener()
        return value

    def _write_loop(self) -> None:
        conn = self._writer_conn
        while True:
            first = self._jobs.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.BATCH:
                try:
                    item = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._jobs.put(None)  # stop after this batch
                    break
                batch.append(item)
            self._run_batch(conn, batch, self.stats)
        conn.close()

    @staticmethod
    def _run_batch(conn: sqlite3.Connection, batch: list[_Job], stats: WriterStats) -> None:
        outcomes: list[tuple[Future[Any], BaseException | None, Any]] = []
        began = time.perf_counter()
        stats.batches += 1
        stats.jobs += len(batch)
        stats.largest = max(stats.largest, len(batch))
        stats.queued += sum(began - queued for _job, _future, queued in batch)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for job, future, _queued in batch:
                conn.execute("SAVEPOINT job")
                try:
                    value = job(conn)
                except BaseException as problem:  # handed to the caller of write()
                    conn.execute("ROLLBACK TO job")
                    conn.execute("RELEASE job")
                    outcomes.append((future, problem, None))
                else:
                    conn.execute("RELEASE job")
                    outcomes.append((future, None, value))
            ran = time.perf_counter()
            conn.execute("COMMIT")
            stats.running += ran - began
            stats.committing += time.perf_counter() - ran
        except BaseException as problem:  # the commit failed: nobody is acknowledged
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for _job, future, _queued in batch:
                future.set_exception(problem)
            return
        for future, failure, value in outcomes:
            if failure is None:
                future.set_result(value)
            else:
                future.set_exception(failure)

    # -- reading ---------------------------------------------------------

    @contextmanager
    def reader(self) -> Iterator[sqlite3.Connection]:
        """A pooled read connection (WAL: it sees the last commit and never blocks writes)."""
        try:
            conn = self._readers.get_nowait()
        except queue.Empty:
            conn = self._connect()
        try:
            conn.execute("BEGIN")
            yield conn
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self._readers.put(conn)

    def read(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run `job` on a consistent snapshot."""
        with self.reader() as conn:
            return job(conn)

    def close(self) -> None:
        """Finish queued writes, then close every connection."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join(timeout=30)
        while True:
            try:
                self._readers.get_nowait().close()
            except queue.Empty:
                break
