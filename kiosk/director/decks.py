"""Deck profiles the director keeps and hands to tables.

Why: a club plays one deck at every table, and learning it takes one table a minute at
set-up (kiosk.app.deck_setup). That table offers its profile to the director (or the
director uploads a file), and the director hands it to every table, or to chosen ones;
each kiosk fetches its table's profile at the start of a game (docs/director-api.md).

A file is checked before anything is stored (kiosk.director.deck_check: size, a real
``.npz``, readable, learnt on the networks this version ships), so a refusal leaves no
trace but its one line. The same bytes offered twice are one deck. A handout and a
take-back are audited like every other change, which also wakes the live pages.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from kiosk.deck_bytes import digest
from kiosk.director.deck_check import DeckFileError, check_deck_bytes
from kiosk.director.posting import audit_row, now
from kiosk.director.store import Database
from kiosk.director.text import clean

#: a deck's name, as the director types it
MAX_NAME = 80
#: decks kept at most (a club has a few; a kiosk gone wrong must not fill the disk)
MAX_DECKS = 40


class DeckError(ValueError):
    """A deck action that cannot be done as asked; the message is one plain line."""


@dataclass(frozen=True)
class Added:
    """A deck as stored after an upload or an offer; ``new`` is False for bytes already
    kept (under their first name)."""

    id: int
    name: str
    digest: str
    new: bool


def clean_name(text: str) -> str:
    """A name as the page shows it: one line, spaces folded, at most :data:`MAX_NAME`.

    >>> clean_name("  Club's   Bicycle\\njumbo ")
    "Club's Bicycle jumbo"
    """
    return clean(text, MAX_NAME)  # NFC, no bidi or zero-width tricks (kiosk.director.text)


class Decks:
    """The director's deck profiles and which table reads with which."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- keeping -------------------------------------------------------------

    def add(self, data: bytes, name: str, source: str, who: str) -> Added:
        """Check and keep a profile; ``source``: "uploaded", or "table 3" for an offer."""
        try:
            profile = check_deck_bytes(data)
        except DeckFileError as problem:
            raise DeckError(_sentence(str(problem))) from None
        wanted = clean_name(name) or clean_name(profile.deck) or "A deck"
        key = digest(data)

        def job(conn: sqlite3.Connection) -> Added:
            old = conn.execute("SELECT id, name FROM deck WHERE digest = ?", (key,)).fetchone()
            if old is not None:
                return Added(int(old["id"]), str(old["name"]), key, False)
            if conn.execute("SELECT count(*) FROM deck").fetchone()[0] >= MAX_DECKS:
                raise DeckError(f"{MAX_DECKS} decks are kept already: forget one you no "
                                "longer need first.")
            row = conn.execute(
                "INSERT INTO deck (name, digest, data, cards, photos, source, added_at, "
                "added_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (wanted, key, data, json.dumps(list(profile.enrolled)), profile.photos,
                 source, now(), who),
            )
            what = f"Deck {wanted!r} ({len(profile.enrolled)} cards) {_came(source)}"
            audit_row(conn, who, "deck", what)
            return Added(int(row.lastrowid or 0), wanted, key, True)

        return self.db.write(job)

    def rename(self, deck: int, name: str, who: str) -> str:
        wanted = clean_name(name)
        if not wanted:
            raise DeckError("Type a name for the deck.")

        def job(conn: sqlite3.Connection) -> None:
            old = _name(conn, deck)
            conn.execute("UPDATE deck SET name = ? WHERE id = ?", (wanted, deck))
            audit_row(conn, who, "deck", f"Deck {old!r} renamed {wanted!r}")

        self.db.write(job)
        return wanted

    def remove(self, deck: int, who: str) -> str:
        """Forget a deck, taking it back from the tables it was handed to."""

        def job(conn: sqlite3.Connection) -> str:
            name = _name(conn, deck)
            conn.execute("DELETE FROM deck_assignment WHERE deck_id = ?", (deck,))
            conn.execute("DELETE FROM deck WHERE id = ?", (deck,))
            audit_row(conn, who, "deck", f"Deck {name!r} removed")
            return name

        return self.db.write(job)

    # -- handing out ---------------------------------------------------------

    def hand(self, deck: int, tables: list[int] | None, who: str) -> list[int]:
        """Hand a deck to these tables (None: every table); returns the tables."""

        def job(conn: sqlite3.Connection) -> list[int]:
            name = _name(conn, deck)
            known = [int(r[0]) for r in conn.execute(
                "SELECT table_no FROM kiosk_table ORDER BY table_no")]
            if not known:
                raise DeckError("Set up the tournament first: a deck is handed to its tables.")
            chosen = known if tables is None else sorted(set(tables))
            if not chosen:
                raise DeckError("Tick the tables to hand the deck to, or hand it to every table.")
            stray = [t for t in chosen if t not in known]
            if stray:
                raise DeckError(f"There is no table {stray[0]}.")
            at = now()
            conn.executemany(
                "INSERT INTO deck_assignment (table_no, deck_id, at, who) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (table_no) DO UPDATE SET deck_id = excluded.deck_id, "
                "at = excluded.at, who = excluded.who, fetched_at = CASE WHEN "
                "deck_id = excluded.deck_id THEN fetched_at END",
                [(t, deck, at, who) for t in chosen],
            )
            audit_row(conn, who, "deck", f"Deck {name!r} handed to {table_words(chosen)}")
            return chosen

        return self.db.write(job)

    def take_back(self, table: int, who: str) -> str:
        """Take a table's deck back: its kiosk returns to the one it had before."""

        def job(conn: sqlite3.Connection) -> str:
            row = conn.execute(
                "SELECT d.name FROM deck_assignment a JOIN deck d ON d.id = a.deck_id "
                "WHERE a.table_no = ?", (table,)).fetchone()
            if row is None:
                raise DeckError(f"Table {table} has no deck from the director.")
            conn.execute("DELETE FROM deck_assignment WHERE table_no = ?", (table,))
            audit_row(conn, who, "deck", f"Deck {row[0]!r} taken back from table {table}")
            return str(row[0])

        return self.db.write(job)

    def fetched(self, table: int, digest: str) -> None:
        """The kiosk at ``table`` downloaded its deck (the page says so; not audited: it
        changes nothing the sheet shows)."""
        self.db.write(lambda conn: conn.execute(
            "UPDATE deck_assignment SET fetched_at = ? WHERE table_no = ? AND deck_id = "
            "(SELECT id FROM deck WHERE digest = ?)", (now(), table, digest)))

    # -- reading -------------------------------------------------------------

    def listing(self) -> list[dict[str, Any]]:
        """Every deck, newest first, with what it holds and the tables that have it."""

        def job(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            handed: dict[int, list[int]] = {}
            for t, d in conn.execute(
                    "SELECT table_no, deck_id FROM deck_assignment ORDER BY table_no"):
                handed.setdefault(int(d), []).append(int(t))
            rows = conn.execute(
                "SELECT id, name, digest, length(data) AS size, cards, photos, source, "
                "added_at, added_by FROM deck ORDER BY id DESC").fetchall()
            return [_about(r) | {"tables": handed.get(int(r["id"]), [])} for r in rows]

        return self.db.read(job)

    def assignments(self) -> dict[int, dict[str, Any]]:
        """Each table's deck from the director, by table (tables without one left out)."""

        def job(conn: sqlite3.Connection) -> dict[int, dict[str, Any]]:
            return {int(r["table_no"]): {"id": int(r["deck_id"]), "name": str(r["name"]),
                                         "at": str(r["at"]), "who": str(r["who"]),
                                         "fetched_at": r["fetched_at"]}
                    for r in conn.execute(
                        "SELECT a.table_no, a.deck_id, a.at, a.who, a.fetched_at, d.name FROM "
                        "deck_assignment a JOIN deck d ON d.id = a.deck_id")}

        return self.db.read(job)

    def for_table(self, table: int) -> dict[str, Any] | None:
        """What the kiosk at ``table`` is told of its deck (no bytes), or None."""

        def job(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute(
                "SELECT d.id, d.name, d.digest, length(d.data) AS size, d.cards, d.photos, "
                "d.source, d.added_at, d.added_by, a.at AS handed_at FROM deck_assignment a "
                "JOIN deck d ON d.id = a.deck_id WHERE a.table_no = ?", (table,)).fetchone()
            return None if row is None else _about(row) | {"handed_at": row["handed_at"]}

        return self.db.read(job)

    def file_for_table(self, table: int) -> tuple[str, bytes] | None:
        """The digest and bytes of the deck handed to ``table``, or None."""

        def job(conn: sqlite3.Connection) -> tuple[str, bytes] | None:
            row = conn.execute(
                "SELECT d.digest, d.data FROM deck_assignment a JOIN deck d "
                "ON d.id = a.deck_id WHERE a.table_no = ?", (table,)).fetchone()
            return None if row is None else (str(row[0]), bytes(row[1]))

        return self.db.read(job)


def _about(row: sqlite3.Row) -> dict[str, Any]:
    return {"id": int(row["id"]), "name": row["name"], "digest": row["digest"],
            "size": int(row["size"]), "cards": json.loads(row["cards"]),
            "photos": int(row["photos"]), "source": row["source"],
            "added_at": row["added_at"], "added_by": row["added_by"]}


def _name(conn: sqlite3.Connection, deck: int) -> str:
    row = conn.execute("SELECT name FROM deck WHERE id = ?", (deck,)).fetchone()
    if row is None:
        raise DeckError("That deck is no longer kept here.")
    return str(row[0])


#: the source of a profile the director's laptop learnt from a layout photo
LEARNT_HERE = "learnt here"


def _came(source: str) -> str:
    if source == LEARNT_HERE:
        return "learnt on this laptop from a layout photo"
    return "uploaded" if source == "uploaded" else f"offered by the kiosk at {source}"


def table_words(tables: list[int]) -> str:
    """ "table 2", "tables 1, 2 and 3".

    >>> table_words([2]), table_words([1, 2, 3])
    ('table 2', 'tables 1, 2 and 3')
    """
    if len(tables) == 1:
        return f"table {tables[0]}"
    return "tables " + ", ".join(str(t) for t in tables[:-1]) + f" and {tables[-1]}"


def _sentence(text: str) -> str:
    """A check's message as the page shows it: a capital and a full stop.

    >>> _sentence("not a deck profile: the file is not a .npz")
    'Not a deck profile: the file is not a .npz.'
    """
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."
