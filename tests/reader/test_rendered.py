"""Short rendered clips: the renderer, then the whole pipeline from video file to record.

Rendering needs the card art (gnome-cards-data and rsvg-convert, installed by
scripts/install-system-packages.sh); without it these tests are skipped.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from kiosk.cli import main

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
handvideo = pytest.importorskip("datasets.handvideo")
from datasets.cards_art import card_art_installed  # noqa: E402
from devtools.__main__ import main as devtools  # noqa: E402

RECORD = {
    "dealer": "N", "turn_up": "9H",
    "bids": [{"seat": "E", "call": "order", "alone": False}],
    "tricks": [["E:AS", "S:9S", "W:KS", "N:TS"], ["E:JH", "S:9D", "W:TH", "N:QH"]],
}


pytestmark = pytest.mark.skipif(not card_art_installed(), reason="card art not installed")


def test_render_and_read_a_clip_through_the_mat(tmp_path, capsys) -> None:
    """Two tricks on a tablet with the printed mat: the mat calibrates the camera, the
    oracle detector reads the corner boxes, the record comes out exact."""
    record = tmp_path / "hand.json"
    record.write_text(json.dumps(RECORD))
    video = tmp_path / "hand.avi"
    assert devtools(["render-hand", str(record), "-o", str(video), "--view", "tablet",
                     "--mat", "--fps", "8", "--seed", "3", "--calm"]) == 0
    rendered = json.loads(capsys.readouterr().out)
    truth = json.loads(Path(rendered["truth"]).read_text())
    assert truth["record"]["tricks"] == RECORD["tricks"] and len(truth["plays"]) == 8
    assert len(truth["frames"]) == rendered["frames"] > 0
    stream = tmp_path / "boxes.json"
    options = ["--dealer", "N", "--trump", "H", "--maker", "E", "--turn-up", "9H"]
    assert devtools(["read-video", str(video), "--detector", "oracle", "--view", "tablet",
                     "--save-detections", str(stream), *options]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["tricks"] == RECORD["tricks"]
    saved = json.loads(stream.read_text())
    assert saved["calibration"]["source"] == "mat" and len(saved["frames"]) == rendered["frames"]
    # the recorded stream replays to the same record, without the video
    assert main(["read-video", "gone.avi", "--detections", str(stream), *options]) == 0
    assert json.loads(capsys.readouterr().out)["tricks"] == RECORD["tricks"]


def test_renderer_is_deterministic_by_seed() -> None:
    a = handvideo.render_hand(RECORD, None, seed=11, view="overhead", fps=6, pixels=False)
    b = handvideo.render_hand(RECORD, None, seed=11, view="overhead", fps=6, pixels=False)
    c = handvideo.render_hand(RECORD, None, seed=12, view="overhead", fps=6, pixels=False)
    assert a["frames"] == b["frames"] and a["plays"] == b["plays"]
    assert a["frames"] != c["frames"]


def test_truth_boxes_leave_out_what_a_hand_covers() -> None:
    """While a card is carried in, the palm hides its near corner: fewer boxes than corners."""
    rng = np.random.default_rng(0)
    scene = handvideo.script_hand(RECORD, rng, handvideo.Tricks(0, 0, 0, 0))
    renderer = handvideo.SceneRenderer(scene, "overhead", seed=1)
    play = scene.plays[0]
    during = renderer.boxes(play["t_rest"] - 0.05)
    after = renderer.boxes(play["t_rest"] + 1.5)
    count = sum(b["card"] == play["card"] for b in during)
    assert count < sum(b["card"] == play["card"] for b in after)
    picture = renderer.frame(play["t_rest"])
    assert picture.shape == (480, 480, 3) and picture.dtype == np.uint8


def test_random_hands_are_legal_and_whole() -> None:
    from kiosk.rules.profiles import get_profile
    from kiosk.rules.record import HandRecord
    from kiosk.rules.scoring import score_hand

    for seed in range(20):
        record = handvideo.random_hand(np.random.default_rng(seed))
        result = score_hand(HandRecord.from_json(record), get_profile("tournament")).to_json()
        assert result["reneges"] == [] and len(record["tricks"]) == 5


def test_rendered_hands_use_decks_with_court_ranks() -> None:
    """A deck whose courts print no rank letter (guyenne-classic) is never dealt at a
    rendered table: no corner-index reader could tell its jack from its queen."""
    from datasets import cards_art

    assert "guyenne-classic" in cards_art.DECKS
    assert "guyenne-classic" not in cards_art.table_decks()
    rng = np.random.default_rng(0)
    scene = handvideo.script_hand(RECORD, rng, handvideo.Tricks(0, 0, 0, 0))
    dealt = {handvideo.SceneRenderer(scene, "overhead", seed=s).deck for s in range(40)}
    assert dealt <= set(cards_art.table_decks()) and len(dealt) > 3


def test_the_renderer_is_a_development_tool_that_says_bad_input_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m devtools render-hand``, not ``kiosk render-hand``: the renderer needs
    the training package, which an installed kiosk does not carry."""
    assert main(["render-hand", "-o", str(tmp_path / "hand.mp4")]) == 2
    assert "unknown command 'render-hand'" in capsys.readouterr().err
    assert devtools(["render-hand", "-o", str(tmp_path / "hand.txt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "python -m devtools render-hand: the video must end in .mp4 or .avi"
