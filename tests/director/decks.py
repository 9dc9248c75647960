"""Deck profile files for the tests: real ``.npz`` profiles, learnt (as far as their
headers say) on the networks this version ships, or on others; the upload form as a
browser sends it, and the director's list of decks."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import httpx
import numpy as np

from kiosk.director.deck_check import shipped_networks
from kiosk.rules.cards import EUCHRE_DECK
from kiosk.vision.decks.deck_profile import INDEX, SUIT, DeckProfile, Head
from tests.director.helpers import Answer, Client


def profile_bytes(tmp: Path, deck: str = "Club's Bicycle jumbo",
                  network: str | None = None, photos: int = 3,
                  cards: tuple[str, ...] = ("JC", "JS", "QC")) -> bytes:
    """A small profile; ``network``: the digest its layers claim (default: the shipped
    networks'), ``cards``: those it says its photos showed. The deck name makes each
    profile's bytes its own."""
    networks = shipped_networks()
    heads = {name: Head(np.zeros((4, 3), np.float32), np.zeros(3, np.float32),
                        ("JC", "JS", "none"), network or networks[name])
             for name in (INDEX, SUIT)}
    path = tmp / f"{abs(hash((deck, network)))}.npz"
    DeckProfile(heads, cards, deck, photos, 120).save(path)
    return path.read_bytes()


#: a whole pack laid in the set-up grid: the 24 euchre cards and the table's two 5s
WHOLE_PACK = tuple(str(c) for c in EUCHRE_DECK) + ("5D", "5H")


def zip_bomb() -> bytes:
    """A zip of a few KB that unpacks to 64 MB: a deck profile's name, not its size."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.npy", b"\0" * (64 * 1024 * 1024))
    return out.getvalue()


def upload_body(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body as a browser's file upload sends it, and its
    content type."""
    request = httpx.Request("POST", "http://x/decks", data=fields,
                            files={"profile": (filename, data, "application/octet-stream")})
    return request.read(), request.headers["content-type"]


def upload(client: Client, data: bytes, name: str = "", filename: str = "deck.npz",
           csrf: str | None = None) -> Answer:
    """The Decks page's upload form, sent with this device's CSRF token (or ``csrf``)."""
    body, kind = upload_body({"csrf": client.csrf() if csrf is None else csrf, "name": name},
                             filename, data)
    return client.request("POST", "/decks", body, {"Content-Type": kind})


def decks(client: Client) -> list[dict[str, object]]:
    """The decks the director keeps, newest first (``/decks.json``)."""
    return list(client.get("/decks.json").json()["decks"])
