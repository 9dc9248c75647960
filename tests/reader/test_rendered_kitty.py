"""Rendered deals with the kitty as players leave it (datasets/kitty.py): the turn-up lies
face up in the dealer's band, no seat's zone; ordered up it leaves, all passing it turns
face down; the play itself is the same as without the kitty, only later. Read through
the trick reader, the renderer's own boxes give the turn-up, its fate, and no card played
before the first is.

Rendering needs the card art; without it these tests are skipped.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
hv = pytest.importorskip("datasets.handvideo")
from datasets.cards_art import card_art_installed  # noqa: E402
from kiosk.vision.camera.calibration import Calibration  # noqa: E402
from kiosk.vision.events import CardPlayed, KittySeen  # noqa: E402
from kiosk.vision.reader import TrickReader  # noqa: E402

pytestmark = pytest.mark.skipif(not card_art_installed(), reason="card art not installed")

#: two deals: 30003's turn-up is ordered up, 30000's passed by all four
SEEDS = {30003: "taken", 30000: "turned_down"}


def deal(seed: int, *, kitty: bool, view: str = "overhead",
         until: float | None = None) -> dict[str, Any]:
    record = hv.random_hand(np.random.default_rng(seed), renege_rate=0.03)
    return hv.render_hand(record, None, seed=seed, view=view, fps=8, pixels=False,
                          kitty=kitty, until=until)


def test_a_deal_without_its_kitty_renders_as_it_always_did_and_with_it_only_later() -> None:
    plain, with_kitty = deal(30003, kitty=False), deal(30003, kitty=True)
    assert "kitty" not in plain
    shift = with_kitty["kitty"]["play_starts"] - 0.6
    assert [(p["seat"], p["card"]) for p in with_kitty["plays"]] == [
        (p["seat"], p["card"]) for p in plain["plays"]]
    assert [p["t_rest"] for p in with_kitty["plays"]] == pytest.approx(
        [p["t_rest"] + shift for p in plain["plays"]], abs=0.002)
    assert with_kitty["duration"] == pytest.approx(plain["duration"] + shift, abs=0.002)


@pytest.mark.parametrize("view", ["overhead", "tablet"])
@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_the_turn_up_lies_in_the_dealers_band_then_leaves_or_turns_down(seed: int,
                                                                       view: str) -> None:
    truth = deal(seed, kitty=True, view=view)
    kitty = truth["kitty"]
    assert kitty["fate"] == SEEDS[seed]
    # where the camera's picture puts the table (a mat would say so)
    cal = Calibration.from_corners(truth["table_corners"], tuple(truth["size"]))
    fps = truth["fps"]
    bidding = [boxes for i, boxes in enumerate(truth["frames"])
               if kitty["shown_at"] <= i / fps < kitty["fate_at"] - 0.5]
    middles = []
    for boxes in bidding:  # the middle of the turn-up's corners seen, frame by frame
        faces = [b["box"] for b in boxes if b["card"] == kitty["card"]]
        if faces:
            points = cal.to_table([((x1 + x2) / 2, (y1 + y2) / 2) for x1, y1, x2, y2 in faces])
            middles.append(points.mean(axis=0))
    assert middles, "the turn-up's corners are seen while the players bid"
    assert all(cal.zones.seat_at(p) is None for p in middles)  # no seat's zone
    after = [boxes for i, boxes in enumerate(truth["frames"])
             if kitty["fate_at"] + 1.0 <= i / fps < kitty["play_starts"]]
    assert after and not any(b["card"] == kitty["card"] for boxes in after for b in boxes)


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_the_reader_reads_the_rendered_kitty_and_plays_none_of_it(seed: int) -> None:
    truth = deal(seed, kitty=True, until=None)
    kitty = truth["kitty"]
    reader = TrickReader(Calibration.default("overhead", tuple(truth["size"])))
    reader.new_deal(kitty["dealer"])
    events = []
    told = False
    for i, boxes in enumerate(truth["frames"]):
        t = i / truth["fps"]
        if t > kitty["play_starts"]:
            break
        if not told and t >= kitty["bidding_ends"]:
            told = True
            reader.new_hand(truth["leader"], trump=truth["trump"])
        events += reader.feed(t, [b | {"confidence": 0.9} for b in boxes])
    seen = [(e.change.value, str(e.card)) for e in events if isinstance(e, KittySeen)]
    assert seen == [("shown", kitty["card"]), (kitty["fate"], kitty["card"])]
    assert not [e for e in events if isinstance(e, CardPlayed)]
