"""A deck profile file that came from elsewhere, checked before anything keeps it.

Why: the director hands one table's profile to the others, so a profile reaches a kiosk
as bytes. Before the kiosk swaps one in, the bytes are checked here in the order a
hostile or mistaken file fails cheapest: its size, that it is a NumPy ``.npz`` (a zip)
whose arrays would not unpack to more than a profile ever holds (a small zip can
inflate to gigabytes), and that :meth:`DeckProfile.load` reads it; whether its layers
were learnt on the networks the kiosk runs is its detector's to say
(:meth:`kiosk.vision.detector.Detector.use_deck`). The director checks what it keeps
with the standard library alone (kiosk.director.deck_check). Every refusal is a
:class:`ProfileError` with one plain line.

>>> read_profile_bytes(b"not a zip")
Traceback (most recent call last):
...
kiosk.vision.deck_profile.ProfileError: not a deck profile: the file is not a .npz
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import zipfile
from pathlib import Path

from kiosk.vision.deck_profile import DeckProfile, ProfileError

#: a profile is about 66 KB; anything far beyond is not one
MAX_BYTES = 2 * 1024 * 1024
#: what its arrays may unpack to (two float32 layers are well under 1 MB)
MAX_UNPACKED = 16 * 1024 * 1024
#: a profile holds a header and two arrays per layer
MAX_MEMBERS = 16


def digest(data: bytes) -> str:
    """SHA-256 of a profile's bytes: how the director and the kiosk tell profiles apart.

    >>> digest(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def read_profile_bytes(data: bytes, max_bytes: int = MAX_BYTES) -> DeckProfile:
    """The profile the bytes hold (size, zip and contents checked; its networks not: a
    kiosk asks its own detector, which knows the networks it runs)."""
    if len(data) > max_bytes:
        raise ProfileError(f"the file is too large for a deck profile ({_size(len(data))}; "
                           f"a profile is under {_size(max_bytes)})")
    _check_zip(data)
    return _load(data)


def _check_zip(data: bytes) -> None:
    """A zip of a few members that would unpack to a profile's size, no more."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ProfileError("not a deck profile: the file is not a .npz") from None
    if len(members) > MAX_MEMBERS or sum(m.file_size for m in members) > MAX_UNPACKED:
        raise ProfileError("not a deck profile: the file unpacks to far more than one holds")


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


def _size(count: int) -> str:
    """A byte count as a volunteer reads it.

    >>> _size(65_781), _size(3 * 1024 * 1024)
    ('64 KB', '3.0 MB')
    """
    if count < 1024 * 1024:
        return f"{max(1, round(count / 1024))} KB"
    return f"{count / (1024 * 1024):.1f} MB"
