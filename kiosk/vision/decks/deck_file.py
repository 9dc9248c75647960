"""A deck profile file that came from elsewhere, checked before anything keeps it.

Why: the director hands one table's profile to the others, so a profile reaches a kiosk
as bytes. Before the kiosk swaps one in, the bytes are checked here in the order a
hostile or mistaken file fails cheapest: its size, that it is a NumPy ``.npz`` (a zip)
whose arrays would not unpack to more than a profile ever holds (a small zip can
inflate to gigabytes), and that :meth:`DeckProfile.load` reads it; whether its layers
were learnt on the networks the kiosk runs is its detector's to say
(:meth:`kiosk.vision.cards.detector.Detector.use_deck`). The director checks what it keeps
with the standard library alone (kiosk.director.deck_check). Every refusal is a
:class:`ProfileError` with one plain line.

>>> read_profile_bytes(b"not a zip")
Traceback (most recent call last):
...
kiosk.vision.decks.deck_profile.ProfileError: not a deck profile: the file is not a .npz
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from kiosk.deck_bytes import MAX_BYTES, bytes_problem
from kiosk.vision.decks.deck_profile import DeckProfile, ProfileError


def read_profile_bytes(data: bytes, max_bytes: int = MAX_BYTES) -> DeckProfile:
    """The profile the bytes hold (size, zip and contents checked; its networks not: a
    kiosk asks its own detector, which knows the networks it runs)."""
    problem = bytes_problem(data, max_bytes)
    if problem is not None:
        raise ProfileError(problem)
    return _load(data)


def _load(data: bytes) -> DeckProfile:
    """:meth:`DeckProfile.load` on the bytes (it reads a file), its message without the
    temporary file's name."""
    handle, name = tempfile.mkstemp(suffix=".npz")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        try:
            return DeckProfile.load(name)
        except ProfileError as problem:
            raise ProfileError(str(problem).replace(f": {name}", "").replace(
                f" {name} ", " ")) from None
    finally:
        Path(name).unlink(missing_ok=True)
