"""Deck enrolment end to end: the layout read and checked, a profile learnt, and
`kiosk enrol` / `kiosk detect --deck` as CONTRACTS.md ("Deck profiles") says.

The photos are rendered with a deck no network trained on (``kde-standard``,
``datasets/layouts.py``); without its card art these tests are skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import cards_art
from kiosk.cli import main
from kiosk.vision.cards.detector import Detector
from kiosk.vision.decks.deck_layout import PLACES
from kiosk.vision.decks.deck_profile import INDEX, SUIT, DeckProfile
from kiosk.vision.decks.enrolment import learn_deck, read_layout

DECK = "kde-standard"

pytestmark = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
    reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed",
)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(threads=1)


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A complete layout, one with the nine of hearts missing and the ten of clubs
    replaced by a six, and a folder of labelled table shots, written once."""
    from datasets.layouts import render_table_shots, write_photo_set
    from tests.layout_images import layout_image

    folder = tmp_path_factory.mktemp("enrol")
    out = {}
    for name, options in (("complete", {}),
                          ("imperfect", {"missing": ["9H"], "swapped": {"TC": "6C"}})):
        out[name] = folder / f"{name}.png"
        cv2.imwrite(str(out[name]), layout_image(DECK, 7, **options))  # type: ignore[arg-type]
    write_photo_set(render_table_shots(DECK, 3, 3), folder / "shots")
    out["shots"] = folder / "shots"
    return out


def test_the_layout_names_every_card_by_its_place(detector: Detector,
                                                  photos: dict[str, Path]) -> None:
    reading = read_layout(detector, cv2.imread(str(photos["complete"])))
    assert not reading.missing and not reading.wrong
    named = {r.place: r.card for r in reading.places}
    assert all(named[p] == p.card for p in PLACES if p.card != "5")
    fives = sorted(named[p] for p in PLACES if p.card == "5")
    assert fives in (["5D", "5H"], ["5C", "5S"])  # two 5s of one colour, suits read
    assert len(reading.photo.labels) >= 2 * 24  # both corners of nearly every card


def test_an_imperfect_pack_is_said_in_plain_words(photos: dict[str, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deck.npz"
    assert main(["enrol", "--layout", str(photos["imperfect"]), "-o", str(out)]) == 1
    line = capsys.readouterr().out.strip()
    assert "\n" not in line and "imperfect" in line
    assert "the nine of hearts is missing" in line
    assert "the place of the ten of clubs holds the six of clubs" in line
    assert DeckProfile.load(out).enrolled  # learnt from the cards that are right


def test_enrol_from_the_layout_writes_a_profile_the_detector_reads_with(
    photos: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.npz"
    assert main(["enrol", "--layout", str(photos["complete"]), "-o", str(out),
                 "--name", "club deck"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("All 26 cards seen: a complete pack (markers: the five of")
    profile = DeckProfile.load(out)
    assert profile.deck == "club deck" and len(profile.enrolled) == 26
    assert set(profile.heads) == {INDEX, SUIT}
    shot = str(next((photos["shots"] / "images").iterdir()))
    assert main(["detect", "--json", "--deck", str(out), shot]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["image"] == shot and record["detections"]


def test_a_profile_reads_its_own_layout_at_least_as_well(detector: Detector,
                                                         photos: dict[str, Path]) -> None:
    image = cv2.imread(str(photos["complete"]))
    photo = read_layout(detector, image).photo
    boxes = [box for _, box in photo.labels]
    classes = detector.namer.classes  # type: ignore[union-attr]

    def right() -> int:
        rows = detector.naming(image, boxes)
        return sum(classes[int(i)] == name for i, (name, _) in zip(rows.argmax(axis=1),
                                                                   photo.labels, strict=True))

    before = right()
    detector.use_deck(learn_deck(detector, [photo]))
    try:
        assert right() >= before and right() >= len(boxes) - 1
    finally:
        detector.use_deck(None)


def test_enrol_from_labelled_photos(photos: dict[str, Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deck.npz"
    assert main(["enrol", "--photos", str(photos["shots"]), "-o", str(out)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("Learnt ") and "from 3 photos" in line
    assert DeckProfile.load(out).photos == 3


def _labelled_folder(tmp_path: Path, label: str, yaml: str | None = None) -> Path:
    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    cv2.imwrite(str(folder / "images" / "a.jpg"), np.full((64, 64, 3), 200, np.uint8))
    if label is not None:
        (folder / "labels" / "a.txt").write_text(label)
    if yaml is not None:
        (folder / "data.yaml").write_text(yaml)
    return folder


@pytest.mark.parametrize("label, yaml, words", [
    ("QS 0.5 0.5 0.1", None, "expected NAME cx cy w h"),
    ("QS 0.5 0.5 0.1 x", None, "not four numbers"),
    ("QS 1.5 0.5 0.1 0.1", None, "normalised"),
    ("7 0.5 0.5 0.1 0.1", None, "no data.yaml"),
    ("70 0.5 0.5 0.1 0.1", "names:\n  0: 2C\n", "not in data.yaml"),
])  # fmt: skip
def test_a_bad_label_is_one_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], label: str, yaml: str | None,
    words: str,
) -> None:
    folder = _labelled_folder(tmp_path, label, yaml)
    out = tmp_path / "deck.npz"
    assert main(["enrol", "--photos", str(folder), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err and "a.txt" in err
    assert not out.exists()


def test_missing_inputs_are_one_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.npz"
    folder = _labelled_folder(tmp_path, "QS 0.5 0.5 0.1 0.1")
    (folder / "labels" / "a.txt").unlink()
    for argv, words in (
        (["--layout", str(tmp_path / "none.jpg")], "no such photo"),
        (["--photos", str(tmp_path / "nowhere")], "no such folder"),
        (["--photos", str(folder)], "no label file for a.jpg"),
    ):
        assert main(["enrol", *argv, "-o", str(out)]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and words in err
    assert not out.exists()


def test_detect_refuses_a_damaged_profile(tmp_path: Path, photos: dict[str, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "deck.npz"
    bad.write_bytes(b"garbage")
    assert main(["detect", "--deck", str(bad), str(photos["complete"])]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "not a deck profile" in err


def test_a_profile_of_other_networks_is_one_line_on_read_video(
    tmp_path: Path, detector: Detector, capsys: pytest.CaptureFixture[str]
) -> None:
    from kiosk.vision.decks.deck_profile import Head

    video = Path(__file__).resolve().parents[2] / "kiosk" / "assets" / "demo-hand.mp4"
    if not video.is_file():
        pytest.skip("the demo video is not built")
    assert detector.namer is not None
    shipped = detector.namer.head()
    foreign = tmp_path / "deck.npz"
    DeckProfile({INDEX: Head(shipped.weights, shipped.bias, shipped.classes, "other")}).save(
        foreign)
    assert main(["read-video", str(video), "--deck", str(foreign)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "enrol the deck again" in err
