"""The director keeps and hands on a deep deck profile (one carrying its own naming
network) as it does a quick one, checked with the standard library alone."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kiosk.deck_bytes import MAX_BYTES
from kiosk.director.deck_check import DeckFileError, check_deck_bytes, shipped_networks
from kiosk.shipped import shipped_model
from kiosk.vision.decks.deck_profile import SUIT, DeckProfile, Head

pytestmark = pytest.mark.skipif(not shipped_model("index_classifier.onnx").is_file(),
                                reason="the shipped networks are not in this checkout")


def _deep_profile() -> DeckProfile:
    """A profile in the deep format: a network of its own (here the shipped one's bytes,
    as a network learnt from it would be) and the suit reader's refitted layer."""
    networks = shipped_networks()
    suit = Head(np.zeros((4, 4), np.float32), np.zeros(4, np.float32), ("C", "D", "H", "S"),
                networks["suit"])
    namer = shipped_model("index_classifier.onnx").read_bytes()
    return DeckProfile({SUIT: suit}, ("9C", "JS"), "club deck", 1, 10, namer=namer,
                       namer_from=networks["index"])


def _bytes(profile: DeckProfile, tmp_path: Path) -> bytes:
    path = tmp_path / "deck.npz"
    profile.save(path)
    return path.read_bytes()


def test_a_deep_profile_is_kept_and_fits_the_size_bound(tmp_path: Path) -> None:
    data = _bytes(_deep_profile(), tmp_path)
    assert len(data) < MAX_BYTES
    found = check_deck_bytes(data)
    assert found.deck == "club deck" and found.own_network and found.layers == {
        SUIT: shipped_networks()["suit"]}


def test_a_deep_profile_grown_from_other_networks_is_refused(tmp_path: Path) -> None:
    data = _bytes(replace(_deep_profile(), namer_from="0" * 64), tmp_path)
    with pytest.raises(DeckFileError, match="enrol the deck again"):
        check_deck_bytes(data)


def test_a_deep_profile_whose_network_was_changed_is_refused(tmp_path: Path) -> None:
    data = _bytes(_deep_profile(), tmp_path)
    members = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            members[name] = archive.read(name)
    changed = bytearray(members["namer.npy"])
    changed[-1] ^= 0xFF
    members["namer.npy"] = bytes(changed)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, body in members.items():
            archive.writestr(name, body)
    with pytest.raises(DeckFileError, match="does not match its header"):
        check_deck_bytes(out.getvalue())
