"""Journals written by the kiosk before its events were typed (issue 60) still replay to
the game they recorded: the same hands, notices, questions, 5s and post to the director.
The journals and the states they replayed to then are in tests/fixtures/journals
(written by its record.py, with the code of that time)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from kiosk.table.entries import ENTRY_TYPES, read_entry
from kiosk.table.journal import SCHEMA
from kiosk.table.session import TableSession
from kiosk.vision.events import event_from_json
from tests.table.conftest import FakeClock
from tests.table.journal_state import state_of

JOURNALS = Path(__file__).parents[1] / "fixtures" / "journals"
NAMES = sorted(p.stem for p in JOURNALS.glob("*.json"))


def recorded(name: str) -> dict[str, Any]:
    return json.loads((JOURNALS / f"{name}.json").read_text())  # type: ignore[no-any-return]


def journal_file(path: Path, entries: list[dict[str, Any]]) -> Path:
    """A journal file holding exactly these entries, as the old kiosk wrote them."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO journal (seq, key, kind, payload, wall) VALUES (?, ?, ?, ?, ?)",
                   [(e["seq"], e["key"], e["kind"],
                     json.dumps(e["payload"], sort_keys=True, separators=(",", ":")), e["wall"])
                    for e in entries])
    db.commit()
    db.close()
    return path


def test_the_recorded_journals_are_there() -> None:
    assert NAMES == ["fixes", "markers", "normal_games", "twins", "warnings"]


@pytest.mark.parametrize("name", NAMES)
def test_an_old_journal_replays_to_the_state_it_recorded(name: str, tmp_path: Path) -> None:
    data = recorded(name)
    assert len(data["states"]) >= 2
    for mark in data["states"]:
        entries = [e for e in data["entries"] if e["seq"] <= mark["seq"]]
        path = journal_file(tmp_path / f"{name}-{mark['seq']}.sqlite3", entries)
        session = TableSession.open(path, clock=FakeClock())
        assert state_of(session) == mark["state"], f"{name} up to entry {mark['seq']}"
        session.journal.close()


@pytest.mark.parametrize("name", NAMES)
def test_an_old_journals_sightings_sent_again_are_known(name: str, tmp_path: Path) -> None:
    """A reader that restarts sends its sightings again: each has the key the old kiosk
    gave it, so none is counted twice."""
    data = recorded(name)
    last = data["states"][-1]
    session = TableSession.open(journal_file(tmp_path / "j.sqlite3", data["entries"]),
                                clock=FakeClock())
    games = 1
    for entry in data["entries"]:
        games += entry["kind"] == "new_game"
        if entry["kind"] != "vision" or games != session.game_number:
            continue
        event = event_from_json(entry["payload"]["event"])
        assert session.has_seen(event, entry["payload"]["source"]), entry["key"]
        assert session.feed(event, source=entry["payload"]["source"]) is False
    assert state_of(session) == last["state"]


@pytest.mark.parametrize("name", NAMES)
def test_every_old_entry_reads_as_its_type_and_writes_back_as_it_was(name: str) -> None:
    """Each entry is read as one typed value whose JSON is the payload the old kiosk
    wrote (but for a warning's words, written again from its facts)."""
    for entry in recorded(name)["entries"]:
        typed = read_entry(entry["kind"], entry["payload"])
        assert typed.kind == entry["kind"]
        assert typed.to_json() == entry["payload"], entry


def test_the_recorded_journals_hold_every_kind_of_entry() -> None:
    kinds = {e["kind"] for name in NAMES for e in recorded(name)["entries"]}
    assert kinds == set(ENTRY_TYPES)


def test_an_entry_of_no_known_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown journal entry 'tap'"):
        read_entry("tap", {})
