"""The journal: append-only, durable, idempotent, ordered."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.table.journal import Journal


def test_an_entry_is_committed_before_append_returns(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    journal.append("bid", {"seat": "E", "call": "pass"}, key="k1")
    # A second connection (another process after a crash) sees it at once.
    other = sqlite3.connect(path)
    assert other.execute("SELECT kind, key FROM journal").fetchall() == [("bid", "k1")]
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_key_is_recorded_once(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    first = journal.append("vision", {"n": 1}, key="same")
    again = journal.append("vision", {"n": 2}, key="same")
    assert first is not None and again is None
    assert [e.payload for e in journal.entries()] == [{"n": 1}]


def test_sequence_numbers_only_grow_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    seqs = [journal.append("x", {}, key=f"k{i}").seq for i in range(3)]  # type: ignore[union-attr]
    journal.close()
    reopened = Journal(path)
    entry = reopened.append("x", {}, key="k3")
    assert entry is not None
    assert seqs == [1, 2, 3] and entry.seq == 4
    assert [e.seq for e in reopened.entries()] == [1, 2, 3, 4]
