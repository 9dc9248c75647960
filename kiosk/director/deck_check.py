"""What the director checks of a deck profile's bytes before it keeps them, with the
standard library alone.

Why apart from the kiosk's check (kiosk.vision.decks.deck_file): the director imports the
rules engine and nothing else of the kiosk (ARCHITECTURE.md), and it never reads with a
profile, it only keeps one and hands it on. So it reads the file as what it is on disk,
a zip of NumPy ``.npy`` members, without NumPy: its size, that the zip would not unpack
past what a profile holds, its JSON header (format version, the cards, the photos, each
layer's classes and the SHA-256 of the network it was learnt on) and each layer's array
shapes from their ``.npy`` headers. A layer learnt on other networks than this version
ships is refused here, at the upload, rather than at every table. The kiosk checks the
bytes it fetches again with its own detector.

Every refusal is a :class:`DeckFileError` with one plain line.

>>> read_deck_bytes(b"not a zip")
Traceback (most recent call last):
...
kiosk.director.deck_check.DeckFileError: not a deck profile: the file is not a .npz
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import struct
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.deck_bytes import MAX_BYTES, bytes_problem
from kiosk.shipped import shipped_model

#: the profile file format this version writes (kiosk.vision.decks.deck_profile), and the ones
#: it reads (3: no deep network)
VERSION = 4
READS = (3, 4)
#: the networks a profile may refit, by the name its file gives each layer
NETWORKS = {"index": "index_classifier.onnx", "suit": "suit_reader.onnx"}


class DeckFileError(ValueError):
    """Bytes that are not a deck profile this version can hand on; one plain line."""


@dataclass(frozen=True)
class DeckFile:
    """What a deck profile's header says it holds."""

    deck: str
    enrolled: tuple[str, ...]
    photos: int
    layers: Mapping[str, str]  #: layer name -> SHA-256 of the network it was learnt on
    #: a deep profile's own network: its SHA-256, and the shipped network's it grew from
    own_network: str = ""
    grown_from: str = ""


def check_deck_bytes(data: bytes, networks: Mapping[str, str] | None = None,
                     max_bytes: int = MAX_BYTES) -> DeckFile:
    """What the bytes hold, or a one-line :class:`DeckFileError`; ``networks``: the
    digest each layer must have been learnt on (default :func:`shipped_networks`)."""
    found = read_deck_bytes(data, max_bytes)
    wanted = shipped_networks() if networks is None else networks
    foreign = DeckFileError("this deck profile was learnt with other card networks than "
                            "this version's: enrol the deck again with this version")
    if found.own_network and wanted.get("index") != found.grown_from:
        raise foreign
    for name, network in found.layers.items():
        if wanted.get(name) != network and not (found.own_network
                                                and network == found.own_network):
            raise foreign
    return found


def read_deck_bytes(data: bytes, max_bytes: int = MAX_BYTES) -> DeckFile:
    """The header of a profile's bytes, its size, zip and arrays checked (not its
    networks)."""
    problem = bytes_problem(data, max_bytes)
    if problem is not None:
        raise DeckFileError(problem)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = {m.filename: m for m in archive.infolist()}
            if "header.npy" not in members:
                raise DeckFileError("not a deck profile: it has no header")
            header = _header(archive.read("header.npy"))
            own, grown_from = _own_network(archive, members, header.get("namer"))
            layers = header.get("heads")
            if not isinstance(layers, dict) or not (layers or own):
                raise DeckFileError("not a deck profile: it holds no layer")
            for name, about in layers.items():
                _check_layer(archive, members, str(name), about)
    except DeckFileError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, KeyError, EOFError, RecursionError):
        raise DeckFileError("not a deck profile: the file is not a .npz") from None
    photos = header.get("photos", 0)
    if not isinstance(photos, int) or not 0 <= photos <= 1_000_000:
        raise DeckFileError("not a deck profile (its header is unreadable)")
    try:
        return DeckFile(
            deck=str(header.get("deck", "")),
            enrolled=tuple(str(c) for c in header.get("enrolled", ())),
            photos=int(header.get("photos", 0)),
            layers={str(n): str(a["network"]) for n, a in layers.items()},
            own_network=own, grown_from=grown_from)
    except (TypeError, ValueError, KeyError):
        raise DeckFileError("not a deck profile (its header is unreadable)") from None


def shipped_networks() -> dict[str, str]:
    """The SHA-256 of each network a profile may refit, as this version ships them (a
    network missing from this install is left out)."""
    found = {}
    for name, file in NETWORKS.items():
        path = shipped_model(file)
        if path.is_file():
            found[name] = _cached_digest(path)
    return found


_DIGESTS: dict[tuple[str, int, float], str] = {}


def _cached_digest(path: Path) -> str:
    """A network's digest, read once per file version (they are megabytes)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime)
    if key not in _DIGESTS:
        _DIGESTS[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _DIGESTS[key]


def _header(member: bytes) -> dict[str, Any]:
    """The profile's JSON header, stored as a NumPy 0-d unicode array."""
    about, body = _npy(member)
    descr = str(about.get("descr", ""))
    if about.get("shape") != () or not descr.startswith("<U"):
        raise DeckFileError("not a deck profile (its header is unreadable)")
    try:
        header = json.loads(body.decode("utf-32-le").rstrip("\x00"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):  # RecursionError:
        # a header nested thousands deep is an attack, not a profile
        raise DeckFileError("not a deck profile (its header is unreadable)") from None
    if not isinstance(header, dict):
        raise DeckFileError("not a deck profile (its header is unreadable)")
    if header.get("version") not in READS:
        raise DeckFileError(f"deck profile has format version {header.get('version')}, "
                            f"this kiosk reads {VERSION}: enrol the deck again")
    return header


def _own_network(archive: zipfile.ZipFile, members: Mapping[str, Any],
                 about: Any) -> tuple[str, str]:
    """A deep profile's own network (``namer``): its SHA-256 as the header gives it, checked
    against its bytes, and the shipped network it grew from; ("", "") for a quick one."""
    if not about:
        return "", ""
    if (not isinstance(about, dict) or not isinstance(about.get("sha256"), str)
            or not isinstance(about.get("grown_from"), str)):
        raise DeckFileError("not a deck profile (its header is unreadable)")
    if "namer.npy" not in members:
        raise DeckFileError("not a deck profile: its network is missing")
    shape, data = _npy(archive.read("namer.npy"))
    if shape.get("descr") not in ("|u1", "<u1") or hashlib.sha256(data).hexdigest() != about[
            "sha256"]:
        raise DeckFileError("not a deck profile: its network does not match its header")
    return str(about["sha256"]), str(about["grown_from"])


def _check_layer(archive: zipfile.ZipFile, members: Mapping[str, Any], name: str,
                 about: Any) -> None:
    """A layer's weights are (features, classes) and its bias (classes,), floats."""
    classes = about.get("classes") if isinstance(about, dict) else None
    if not isinstance(classes, list) or not isinstance(about.get("network"), str):
        raise DeckFileError("not a deck profile (its header is unreadable)")
    shapes = []
    for part in ("weights", "bias"):
        member = f"{name}_{part}.npy"
        if member not in members:
            raise DeckFileError(f"not a deck profile: its {name} layer is missing")
        shapes.append(_npy(archive.read(member))[0].get("shape"))
    weights, bias = shapes
    if (not isinstance(weights, tuple) or len(weights) != 2 or weights[1] != len(classes)
            or bias != (len(classes),)):
        raise DeckFileError("not a deck profile (its arrays disagree)")


def _npy(member: bytes) -> tuple[dict[str, Any], bytes]:
    """A ``.npy`` member's header dictionary and its data bytes (format 1 to 3)."""
    if member[:6] != b"\x93NUMPY" or len(member) < 10:
        raise DeckFileError("not a deck profile: the file is not a .npz")
    major = member[6]
    if major == 1:
        (length,), start = struct.unpack("<H", member[8:10]), 10
    else:
        (length,), start = struct.unpack("<I", member[8:12]), 12
    try:
        about = ast.literal_eval(member[start : start + length].decode("latin-1"))
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        raise DeckFileError("not a deck profile: the file is not a .npz") from None
    if not isinstance(about, dict):
        raise DeckFileError("not a deck profile: the file is not a .npz")
    return about, member[start + length :]
