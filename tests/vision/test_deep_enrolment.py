"""Deep enrolment (``kiosk enrol --deep``): the naming network learnt again on one deck,
carried in the profile, read with ONNX Runtime, and never kept when it reads worse."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from kiosk.vision.cards.detector import Detector, ModelError
from kiosk.vision.decks.deck_profile import INDEX, DeckProfile, Head, ProfileError
from kiosk.vision.decks.enrolment import LabelledPhoto, read_layout
from tests.vision.marks import needs_deck_and_torch

DECK = "kde-standard"
#: few steps: the tests check what is learnt and kept, not how well (the bench does)
QUICK = {"steps": 8, "deck_batch": 24, "replay_batch": 8}

pytestmark = needs_deck_and_torch(DECK)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(threads=1)


@pytest.fixture(scope="module")
def layout_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two rendered layout photos of the deck, drawn once for the module."""
    from tests.layout_images import layout_image

    folder = tmp_path_factory.mktemp("layouts")
    paths = []
    for seed in (7, 8):
        path = folder / f"layout{seed}.png"
        cv2.imwrite(str(path), layout_image(DECK, seed))
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def layout(detector: Detector, layout_files: list[Path]) -> LabelledPhoto:
    return read_layout(detector, cv2.imread(str(layout_files[0])), "layout").photo


@dataclass(frozen=True)
class Enrolled:
    """What ``kiosk enrol --deep`` left: the profile file and the line it said."""

    path: Path
    line: str
    status: int


@pytest.fixture(scope="module")
def enrolled(layout_files: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Enrolled:
    """The deck learnt deeply once for the module, by the command a volunteer runs."""
    from kiosk.vision.decks import deep_enrolment

    out = tmp_path_factory.mktemp("deep") / "deck.npz"
    said = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(said):
        patch.setattr(deep_enrolment, "SETTINGS", deep_enrolment.DeepSettings(**QUICK))
        status = main(["enrol", "--deep", "--layout", str(layout_files[0]), "-o", str(out),
                       "--name", "club deck"])
    return Enrolled(out, said.getvalue().strip(), status)


@pytest.fixture(scope="module")
def deep(enrolled: Enrolled) -> DeckProfile:
    return DeckProfile.load(enrolled.path)


def _right(detector: Detector, photo: LabelledPhoto) -> int:
    rows = detector.naming(photo.image, [box for _, box in photo.labels])
    classes = detector.namer.classes  # type: ignore[union-attr]
    return sum(classes[int(row.argmax())] == name
               for (name, _), row in zip(photo.labels, rows, strict=True))


def test_a_deep_profile_carries_its_own_network(deep: DeckProfile, detector: Detector) -> None:
    shipped = detector.shipped_namer
    assert shipped is not None
    assert deep.deep and deep.namer[:2] != b"" and deep.namer_from == shipped.digest
    assert deep.deck == "club deck" and len(deep.enrolled) == 26
    assert INDEX not in deep.heads  # the network's own last layer names
    # it learnt: the network is not the shipped one
    assert deep.namer != shipped.path.read_bytes()


def test_the_detector_reads_through_a_deep_profile_and_back(
        deep: DeckProfile, detector: Detector, layout: LabelledPhoto) -> None:
    shipped = detector.namer
    before = detector.naming(layout.image, [b for _, b in layout.labels])
    detector.use_deck(deep)
    try:
        assert detector.namer is not shipped and detector.deck is deep
        assert detector.namer.classes == shipped.classes  # type: ignore[union-attr]
        during = detector.naming(layout.image, [b for _, b in layout.labels])
        assert not np.allclose(before, during)
        assert _right(detector, layout) >= len(layout.labels) - 1
    finally:
        detector.use_deck(None)
    assert detector.namer is shipped
    assert np.allclose(detector.naming(layout.image, [b for _, b in layout.labels]), before)


def test_a_deep_profile_saves_and_loads_whole(deep: DeckProfile, tmp_path: Path) -> None:
    path = tmp_path / "deep.npz"
    deep.save(path)
    again = DeckProfile.load(path)
    assert again.namer == deep.namer and again.namer_from == deep.namer_from
    assert again.fingerprint() == deep.fingerprint()


def test_a_damaged_deep_network_is_one_line(deep: DeckProfile, tmp_path: Path,
                                            detector: Detector) -> None:
    path = tmp_path / "deep.npz"
    deep.save(path)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["namer"] = arrays["namer"][:1000]  # cut short: the header's digest disagrees
    np.savez(path, **arrays)
    with pytest.raises(ProfileError, match="damaged"):
        DeckProfile.load(path)
    garbage = replace(deep, namer=b"not an onnx model")
    with pytest.raises(ModelError, match="cannot be read"):
        detector.use_deck(garbage)
    assert detector.deck is None and detector.namer is detector.shipped_namer


def test_a_deep_profile_from_other_networks_is_refused(deep: DeckProfile,
                                                       detector: Detector) -> None:
    with pytest.raises(ModelError, match="enrol the deck again"):
        detector.use_deck(replace(deep, namer_from="0" * 64))
    assert detector.deck is None


def test_enrol_deep_from_a_layout(enrolled: Enrolled) -> None:
    assert enrolled.status == 0
    assert "\n" not in enrolled.line
    assert enrolled.line.endswith(f"Deep deck profile written to {enrolled.path}.")
    assert DeckProfile.load(enrolled.path).deep


def test_a_profile_that_reads_worse_is_not_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], detector: Detector,
        monkeypatch: pytest.MonkeyPatch, layout_files: list[Path]) -> None:
    """Two layout photos and a good profile already at the path: a new one that names the
    held-out photo worse is refused, and the old file stays byte for byte."""
    from kiosk.vision.decks import deep_enrolment
    from kiosk.vision.decks.enrolment import learn_deck

    images = layout_files
    out = tmp_path / "deck.npz"
    photo = read_layout(detector, cv2.imread(str(images[0]))).photo
    learn_deck(detector, [photo]).save(out)
    kept = out.read_bytes()

    def wrecked(found: Detector, photos: list[LabelledPhoto], deck: str = "",
                **_: object) -> DeckProfile:
        """A profile whose index layer names every box the same card."""
        head = found.shipped_namer.head()  # type: ignore[union-attr]
        flat = Head(np.zeros_like(head.weights), np.eye(len(head.classes))[0] * 9,
                    head.classes, head.network)
        return DeckProfile({INDEX: flat}, ("9C",), deck, len(photos), 1)

    monkeypatch.setattr(deep_enrolment, "learn_deck_deeply", wrecked)
    status = main(["enrol", "--deep", "--layout", *map(str, images), "-o", str(out)])
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert status == 1 and line.startswith("Not written: the new profile names")
    assert "The old profile is kept." in line
    assert out.read_bytes() == kept


def test_enrol_deep_without_the_training_extras_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.vision.decks import deep_enrolment

    monkeypatch.setattr(deep_enrolment, "missing_extras",
                        lambda: "deep enrolment needs the training extras (torch and onnx)")
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    out = tmp_path / "deck.npz"
    assert main(["enrol", "--deep", "--layout", str(photo), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "training extras" in captured.err and not out.exists()


def test_the_replay_patches_fit_the_shipped_network(detector: Detector) -> None:
    from kiosk.vision.decks.deep_enrolment import REPLAY, load_replay

    namer = detector.shipped_namer
    assert namer is not None
    x, y = load_replay(REPLAY, namer.classes, namer.patch)
    assert len(x) == len(y) and x.shape[1:] == (namer.patch, namer.patch, 3)
    # every class the network names is replayed, so no class is forgotten
    assert set(np.unique(y).tolist()) == set(range(len(namer.classes)))


def test_a_layer_learnt_in_play_on_a_deep_network_reads_on_with_the_same_network(
        deep: DeckProfile, detector: Detector) -> None:
    """Play's profile keeps the deep network: adopting it between hands does not load the
    network again."""
    detector.use_deck(deep)
    try:
        namer = detector.namer
        assert namer is not None
        grown = replace(deep, heads={**deep.heads, INDEX: namer.head()}, grown_from="x")
        detector.use_deck(grown)
        assert detector.namer is namer and detector.deck is grown
    finally:
        detector.use_deck(None)
