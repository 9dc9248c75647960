"""A deck profile file that came from elsewhere, checked before anything keeps it.

Why: the director hands one table's profile to the others, and a kiosk offers the one it
learnt to the director, so a profile now crosses the network as bytes. Before the
director stores one, or a kiosk swaps it in, the bytes are checked here in the order a
hostile or mistaken file fails cheapest: its size, that it is a NumPy ``.npz`` (a zip)
whose arrays would not unpack to more than a profile ever holds (a small zip can
inflate to gigabytes), that :meth:`DeckProfile.load` reads it, and that each layer was
learnt on the network this version ships (another network's features mean something
else). Every refusal is a :class:`ProfileError` with one plain line.

>>> check_profile_bytes(b"not a zip")
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
from collections.abc import Mapping
from pathlib import Path

from kiosk.vision.deck_profile import DeckProfile, ProfileError, file_digest

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


def shipped_networks() -> dict[str, str]:
    """The SHA-256 of each network a profile may refit, by layer name, as this version
    ships them (a network missing from this install is left out)."""
    from kiosk.vision.deck_profile import INDEX, SUIT
    from kiosk.vision.index_classifier import DEFAULT_CLASSIFIER
    from kiosk.vision.suit_reader import DEFAULT_SUIT_READER

    found = {}
    for name, path in ((INDEX, DEFAULT_CLASSIFIER), (SUIT, DEFAULT_SUIT_READER)):
        if path.is_file():
            found[name] = _cached_digest(path)
    return found


_DIGESTS: dict[tuple[str, int, float], str] = {}


def _cached_digest(path: Path) -> str:
    """A network's digest, read once per file version (they are megabytes)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime)
    if key not in _DIGESTS:
        _DIGESTS[key] = file_digest(path)
    return _DIGESTS[key]


def check_profile_bytes(
    data: bytes, networks: Mapping[str, str] | None = None, max_bytes: int = MAX_BYTES
) -> DeckProfile:
    """The profile the bytes hold, or a one-line :class:`ProfileError`; ``networks``:
    the digest each layer must have been learnt on (default :func:`shipped_networks`)."""
    profile = read_profile_bytes(data, max_bytes)
    wanted = shipped_networks() if networks is None else networks
    for name, head in profile.heads.items():
        if name not in wanted or head.network != wanted[name]:
            raise ProfileError("this deck profile was learnt with other card networks than "
                               "this version's: enrol the deck again with this version")
    return profile


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
