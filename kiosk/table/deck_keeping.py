"""Where a table keeps its deck profile, and where the one in use came from.

Why: a table's profile is learnt at its set-up (kiosk.app.deck_setup) or handed out by
the director (kiosk.table.deck_handout), and the players should be told which they read
with. The profile in use is always ``table-3-deck.npz`` beside the table's calibration
(so a restart finds it); ``table-3-deck.json`` says where it came from. When the
director hands one out, a profile the table learnt itself is set aside as
``table-3-deck-own.npz``, so that taking the director's back returns the table to its
own rather than to nothing. The note also remembers which of the director's profiles
the table last took, so the same one is not fetched again after the players learnt
their own.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.table.calibration import calibration_path

if TYPE_CHECKING:
    from kiosk.table.session import TableSession

#: where the profile in use came from
DIRECTOR, TABLE = "director", "table"


@dataclass(frozen=True)
class DeckOrigin:
    """Where this table's profile in use came from.

    >>> DeckOrigin.from_json(DeckOrigin(DIRECTOR, "Club's jumbo", "ab12").to_json())
    DeckOrigin(source='director', name="Club's jumbo", handed='ab12')
    """

    source: str  #: DIRECTOR or TABLE
    name: str = ""  #: the name the director gave it
    #: the digest of the director's profile this table last took ("" none)
    handed: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> DeckOrigin:
        data = json.loads(text)
        return cls(str(data.get("source", TABLE)), str(data.get("name", "")),
                   str(data.get("handed", "")))


def deck_path(session: TableSession) -> Path | None:
    """Where this table keeps the deck profile it reads with: beside its calibration
    (None before the table is set up)."""
    calibration = calibration_path(session)
    if calibration is None:
        return None
    return calibration.with_name(calibration.stem + "-deck.npz")


def _beside(session: TableSession, suffix: str) -> Path | None:
    path = deck_path(session)
    return None if path is None else path.with_name(path.stem + suffix)


def read_origin(session: TableSession) -> DeckOrigin | None:
    """Where the kept profile came from (None: nothing said, e.g. before any handout:
    a kept profile then was learnt at this table)."""
    path = _beside(session, ".json")
    if path is None or not path.is_file():
        return None
    try:
        return DeckOrigin.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, AttributeError):
        return None


def _write(path: Path, data: bytes) -> None:
    """Written aside, then moved into place: a pulled plug leaves the old file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def note_origin(session: TableSession, origin: DeckOrigin) -> None:
    """Say where the kept profile came from."""
    path = _beside(session, ".json")
    if path is not None:
        _write(path, origin.to_json().encode())


def keep_handed(session: TableSession, data: bytes, name: str, digest: str) -> Path:
    """Keep the director's profile as the one in use, the table's own set aside."""
    path = deck_path(session)
    own = _beside(session, "-own.npz")
    if path is None or own is None:
        raise ValueError("Set up the table first: a deck profile is kept per table.")
    origin = read_origin(session)
    if path.is_file() and (origin is None or origin.source != DIRECTOR):
        os.replace(path, own)
    _write(path, data)
    note_origin(session, DeckOrigin(DIRECTOR, name, digest))
    return path


def take_back(session: TableSession) -> Path | None:
    """The director took its profile back: the table's own returns (its path), or the
    table reads without a profile (None). The handed digest is forgotten, so the same
    profile handed out again comes again."""
    path = deck_path(session)
    own = _beside(session, "-own.npz")
    origin = read_origin(session)
    if path is None or own is None or origin is None:
        return path if path is not None and path.is_file() else None
    if origin.source == DIRECTOR:
        if own.is_file():
            os.replace(own, path)
        else:
            path.unlink(missing_ok=True)
    note_origin(session, DeckOrigin(TABLE))
    return path if path.is_file() else None


def learnt_here(session: TableSession) -> None:
    """The players learnt their deck at this table: it is the one in use now (the
    director's last handout is remembered, so it is not fetched over their work)."""
    origin = read_origin(session) or DeckOrigin(TABLE)
    note_origin(session, replace(origin, source=TABLE, name=""))
    own = _beside(session, "-own.npz")
    if own is not None:
        own.unlink(missing_ok=True)
