"""A deck profile's bytes as they cross the network: the bounds both sides hold them to.

Why a module of its own, with the standard library alone: the director keeps profiles
and hands them on without reading with them (kiosk.director.deck_check), the kiosk
fetches them and reads with them (kiosk.vision.decks.deck_file), and the director imports
nothing of the kiosk's vision (ARCHITECTURE.md). The cheapest refusals come first: a
file far larger than a profile, a file that is no zip (an ``.npz`` is one), and a small
zip that would unpack to gigabytes.

>>> bytes_problem(b"not a zip")
'not a deck profile: the file is not a .npz'
>>> digest(b"")[:12]
'e3b0c44298fc'
"""

from __future__ import annotations

import hashlib
import io
import zipfile

#: a quick profile is about 66 KB, a deep one (its own naming network) about 2 MB;
#: anything far beyond is not one
MAX_BYTES = 3 * 1024 * 1024
#: what its arrays may unpack to (two float32 layers are well under 1 MB)
MAX_UNPACKED = 16 * 1024 * 1024
#: a profile holds a header and two arrays per layer
MAX_MEMBERS = 16


def digest(data: bytes) -> str:
    """SHA-256 of a profile's bytes: how the director and the kiosk tell profiles apart."""
    return hashlib.sha256(data).hexdigest()


def bytes_problem(data: bytes, max_bytes: int = MAX_BYTES) -> str | None:
    """What rules the bytes out before anything unpacks them, in one line; None when
    they are a zip of a profile's size."""
    if len(data) > max_bytes:
        return (f"the file is too large for a deck profile ({human_size(len(data))}; "
                f"a profile is under {human_size(max_bytes)})")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return "not a deck profile: the file is not a .npz"
    if len(members) > MAX_MEMBERS or sum(m.file_size for m in members) > MAX_UNPACKED:
        return "not a deck profile: the file unpacks to far more than one holds"
    return None


def human_size(count: int) -> str:
    """A byte count as a volunteer reads it.

    >>> human_size(65_781), human_size(3 * 1024 * 1024)
    ('64 KB', '3.0 MB')
    """
    if count < 1024 * 1024:
        return f"{max(1, round(count / 1024))} KB"
    return f"{count / (1024 * 1024):.1f} MB"
