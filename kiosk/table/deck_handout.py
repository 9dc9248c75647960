"""The deck profile the director handed to this table: fetched when it changed, checked,
kept; and this table's own profile offered to the director.

Why: one table learns the club's deck, the director hands it to the others
(docs/director-api.md, "Deck profiles"). At the start of each game a paired kiosk asks
``GET /api/v1/deck`` (a few hundred bytes); only when the digest differs from the one it
last took does it download the file. The bytes must match that digest, be a profile
(kiosk.vision.decks.deck_file), and be accepted by ``use`` (the detector, which knows its own
networks): otherwise nothing is kept and the table reads as before. A handout taken back
returns the table to the profile it learnt itself, if any (kiosk.table.deck_keeping).

The outcomes are facts; the presenter words them for the players.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.table.assignment import Getter, urllib_get
from kiosk.table.deck_keeping import (
    DIRECTOR,
    DeckOrigin,
    keep_handed,
    note_origin,
    read_origin,
    take_back,
)
from kiosk.table.director_problem import DirectorFault, DirectorProblem
from kiosk.table.outbox import Transport, urllib_transport

#: what came of asking the director
UNCHANGED, NEW, REFUSED, TAKEN_BACK, NONE, UNREACHABLE = (
    "unchanged", "new", "refused", "taken back", "none", "unreachable")
INFO, FILE = "/api/v1/deck", "/api/v1/deck/file"


class HandoutError(DirectorProblem):
    """The director could not be asked, or did not answer as documented."""


@dataclass(frozen=True)
class Handout:
    outcome: str  #: UNCHANGED, NEW, REFUSED, TAKEN_BACK, NONE or UNREACHABLE
    name: str = ""  #: the deck's name, as the director gave it
    problem: DirectorProblem | None = None  #: why it was refused, or not reached


def _get(server: str, path: str, token: str, get: Getter | None, timeout: float) -> bytes:
    try:
        status, raw = (get or urllib_get)(server.rstrip("/") + path,
                                          {"Authorization": f"Bearer {token}"}, timeout)
    except (OSError, ValueError) as problem:
        raise HandoutError(DirectorFault.UNREACHABLE, detail=str(problem)) from None
    if status != 200:
        raise HandoutError(DirectorFault.NO_ANSWER, detail=_reason(raw), status=status)
    return raw


def _reason(raw: bytes) -> str:
    try:
        data = json.loads(raw.decode("utf-8") or "{}")
    except ValueError:
        return ""
    return str(data.get("error", "")) if isinstance(data, dict) else ""


def fetch_deck_info(server: str, token: str, get: Getter | None = None,
                    timeout: float = 5.0) -> dict[str, Any] | None:
    """What the director says of this table's deck (``digest``, ``name``...), or None."""
    raw = _get(server, INFO, token, get, timeout)
    try:
        deck = json.loads(raw.decode("utf-8"))["deck"]
    except (ValueError, KeyError, TypeError):
        raise HandoutError(DirectorFault.NOT_UNDERSTOOD) from None
    if deck is not None and not (isinstance(deck, dict) and isinstance(deck.get("digest"), str)):
        raise HandoutError(DirectorFault.NOT_UNDERSTOOD)
    return deck


def take_handout(session: Any, server: str, token: str,
                 use: Callable[[Any], None], get: Getter | None = None) -> Handout:
    """Bring this table's deck in line with the director's word. ``use(profile)`` reads
    with a profile (None: without one) and raises ``ProfileError`` when it cannot."""
    from kiosk.deck_bytes import digest
    from kiosk.vision.decks.deck_file import read_profile_bytes
    from kiosk.vision.decks.deck_profile import DeckProfile, ProfileError

    try:
        info = fetch_deck_info(server, token, get)
    except HandoutError as problem:
        return Handout(UNREACHABLE, problem=problem)
    origin = read_origin(session)
    if info is None:
        if origin is None or origin.source != DIRECTOR:
            if origin is not None and origin.handed:
                note_origin(session, DeckOrigin(origin.source))  # handed again, it comes again
            return Handout(NONE)
        restored = take_back(session)
        try:
            use(DeckProfile.load(restored) if restored is not None else None)
        except ProfileError:
            use(None)
        return Handout(TAKEN_BACK, origin.name)
    wanted, name = str(info["digest"]), str(info.get("name", ""))
    if origin is not None and origin.handed == wanted:
        if origin.source == DIRECTOR and origin.name != name:  # renamed on the Decks page
            note_origin(session, DeckOrigin(DIRECTOR, name, wanted))
        return Handout(UNCHANGED, name if origin.source == DIRECTOR else origin.name)
    try:
        data = _get(server, FILE, token, get, 10.0)
    except HandoutError as problem:
        return Handout(UNREACHABLE, name, problem)
    if digest(data) != wanted:
        return Handout(REFUSED, name, DirectorProblem(DirectorFault.DAMAGED_FILE))
    try:
        profile = read_profile_bytes(data)
        use(profile)
    except ProfileError as problem:
        return Handout(REFUSED, name,
                       DirectorProblem(DirectorFault.UNUSABLE_PROFILE, detail=str(problem)))
    keep_handed(session, data, name, wanted)
    return Handout(NEW, name)


def offer_deck(server: str, token: str, path: str | Path, name: str,
               transport: Transport | None = None, timeout: float = 10.0) -> str:
    """Send this table's own profile to the director; returns the name it is kept under."""
    body = json.dumps({"name": name, "profile": base64.b64encode(
        Path(path).read_bytes()).decode("ascii")}).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    try:
        status, raw = (transport or urllib_transport)(server.rstrip("/") + INFO, body,
                                                      headers, timeout)
    except (OSError, ValueError) as problem:
        raise HandoutError(DirectorFault.UNREACHABLE, detail=str(problem)) from None
    if status != 200:
        raise HandoutError(DirectorFault.SAID_NO, detail=_reason(raw), status=status)
    try:
        return str(json.loads(raw.decode("utf-8"))["name"])
    except (ValueError, KeyError, TypeError):
        return name
