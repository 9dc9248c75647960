"""`kiosk read-video --dealer` reads the turn-up off the dealer's kitty: a hand rendered
with its kitty (`python -m devtools render-hand --kitty`) read with the oracle detector
gives the record the turn-up that lay there, where without the dealer it can only be
guessed.

Rendering needs the card art; without it this test is skipped.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from datasets.cards_art import card_art_installed

pytestmark = pytest.mark.skipif(not card_art_installed(), reason="card art not installed")


ROOT = Path(__file__).resolve().parents[2]


def kiosk(*args: str, package: str = "kiosk") -> dict[str, object]:
    """A command's JSON answer: ``kiosk``'s, or the development tools' (``devtools``,
    run from the checkout's root as they are)."""
    done = subprocess.run([sys.executable, "-m", package, *args], capture_output=True,
                          text=True, check=True, cwd=ROOT)
    return dict(json.loads(done.stdout))


def test_read_video_takes_the_turn_up_from_the_dealers_kitty(tmp_path: Path) -> None:
    video = tmp_path / "hand.mp4"
    kiosk("render-hand", "--seed", "30003", "--kitty", "--fps", "6", "-o", str(video),
          package="devtools")
    truth = json.loads(video.with_name("hand.truth.json").read_text(encoding="utf-8"))
    record = truth["record"]
    contract = ["--detector", "oracle", "--trump", truth["trump"],
                "--maker", next(b["seat"] for b in record["bids"] if b["call"] != "pass")]
    read = kiosk("read-video", str(video), "--dealer", record["dealer"], *contract,
                 package="devtools")
    assert read["turn_up"] == record["turn_up"]
    assert read["tricks"] == record["tricks"]
    guessed = kiosk("read-video", str(video), *contract, package="devtools")
    assert guessed["tricks"] == record["tricks"]  # the kitty is never taken for a play
