"""Deck profiles: the shipped networks' last layers refitted for one deck, saved and loaded.

The refit starts from the shipped layer, so a profile that learnt nothing reads exactly
as the shipped classifier does; it learns what its photos show, and leaves the classes
they never showed close to where they were. A profile is refused by networks other than
the ones it was learnt on, and a damaged file is one line naming it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kiosk.vision.cards.detector import Detector, ModelError
from kiosk.vision.decks.deck_profile import (
    INDEX,
    READS,
    DeckProfile,
    FitSettings,
    Head,
    ProfileError,
    fit_head,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _toy_head() -> Head:
    # three classes over two features: class 0 along x, class 1 along y, "none" neither
    weights = np.array([[4.0, 0.0, 0.0], [0.0, 4.0, 0.0]], np.float32)
    return Head(weights, np.array([0.0, 0.0, 1.0], np.float32), ("QC", "QS", "none"), "abc")


def test_a_profile_that_learnt_nothing_reads_as_the_shipped_layer() -> None:
    shipped = _toy_head()
    x = np.random.default_rng(0).normal(size=(20, 2)).astype(np.float32)
    same = fit_head(x, ["QC"] * 20, shipped, FitSettings(steps=0))
    assert np.array_equal(same.probabilities(x), shipped.probabilities(x))


def test_the_refit_learns_this_decks_look_and_keeps_the_rest() -> None:
    # this deck's queen of spades lies where the shipped layer sees clubs
    shipped = _toy_head()
    rng = np.random.default_rng(1)
    spades = rng.normal((1.0, 0.2), 0.05, (30, 2)).astype(np.float32)
    clubs = rng.normal((1.6, -0.3), 0.05, (30, 2)).astype(np.float32)
    blank = rng.normal((0.0, 0.0), 0.05, (30, 2)).astype(np.float32)
    assert (shipped.probabilities(spades).argmax(axis=1) == 0).all()  # read as QC
    refit = fit_head(np.vstack([spades, clubs, blank]),
                     ["QS"] * 30 + ["QC"] * 30 + ["none"] * 30, shipped)
    assert (refit.probabilities(spades).argmax(axis=1) == 1).mean() > 0.9
    assert (refit.probabilities(clubs).argmax(axis=1) == 0).mean() > 0.9
    assert (refit.probabilities(blank).argmax(axis=1) == 2).mean() > 0.9
    assert refit.classes == shipped.classes and refit.network == shipped.network


def test_a_card_shown_without_its_twin_keeps_the_shipped_weights() -> None:
    # only queens of spades shown: learning them alone would pull every queen of clubs
    # of this deck to spades, so neither moves
    shipped = _toy_head()
    x = np.random.default_rng(4).normal((1.0, 0.2), 0.05, (30, 2)).astype(np.float32)
    refit = fit_head(x, ["QS"] * 30, shipped)
    assert np.array_equal(refit.weights[:, :2], shipped.weights[:, :2])


def test_the_pull_holds_the_layer_near_the_shipped_one() -> None:
    shipped = _toy_head()
    x = np.random.default_rng(2).normal((1.0, 0.2), 0.05, (60, 2)).astype(np.float32)
    names = ["QS", "QC"] * 30
    loose = fit_head(x, names, shipped, FitSettings(pull=0.0, steps=300))
    held = fit_head(x, names, shipped, FitSettings(pull=5.0, steps=300))
    assert (np.abs(held.weights - shipped.weights).sum()
            < np.abs(loose.weights - shipped.weights).sum())


def test_a_name_the_network_does_not_know_is_refused() -> None:
    with pytest.raises(ProfileError, match="no class 'XX'"):
        fit_head(np.zeros((1, 2), np.float32), ["XX"], _toy_head())


def test_save_and_load_give_the_same_profile(tmp_path: Path) -> None:
    profile = DeckProfile({INDEX: _toy_head()}, ("QS",), "club deck", 3, 120)
    path = tmp_path / "deck.npz"
    profile.save(path)
    again = DeckProfile.load(path)
    assert (again.enrolled, again.deck, again.photos, again.patches) == (("QS",), "club deck",
                                                                         3, 120)
    head = again.heads[INDEX]
    assert head.classes == ("QC", "QS", "none") and head.network == "abc"
    assert np.array_equal(head.weights, _toy_head().weights)
    assert not list(tmp_path.glob("*.partial*"))


@pytest.mark.parametrize("content, words", [
    (None, "no such deck profile"),
    (b"not a zip at all", "unreadable"),
])  # fmt: skip
def test_a_bad_profile_file_is_one_line(tmp_path: Path, content: bytes | None,
                                        words: str) -> None:
    path = tmp_path / "deck.npz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ProfileError, match=words) as caught:
        DeckProfile.load(path)
    assert "\n" not in str(caught.value)


def test_a_profile_of_another_format_version_says_enrol_again(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    np.savez(path, header=np.array(json.dumps({"version": min(READS) - 1})))
    with pytest.raises(ProfileError, match="enrol the deck again"):
        DeckProfile.load(path)


def test_the_shipped_classifier_gives_the_features_its_last_layer_reads() -> None:
    namer = Detector().namer
    assert namer is not None and namer.has_features
    patches = [np.random.default_rng(3).integers(0, 255, (32, 32, 3), np.uint8)
               for _ in range(4)]
    head = namer.head()
    logits = namer._session.run([namer._logits], {namer._input: _blob(patches)})[0]
    recomputed = namer.features(patches) @ head.weights + head.bias
    assert np.allclose(recomputed, logits, atol=1e-4)


def test_a_profile_of_other_networks_is_refused_by_the_detector() -> None:
    detector = Detector()
    assert detector.namer is not None
    shipped = detector.namer.head()
    foreign = Head(shipped.weights, shipped.bias, shipped.classes, "another network")
    with pytest.raises(ModelError, match="enrol the deck again"):
        detector.use_deck(DeckProfile({INDEX: foreign}))
    assert detector.namer.deck_head is None and detector.deck is None


def test_a_profile_refused_in_part_leaves_the_detector_reading_without_one() -> None:
    # its index layer fits, its suit layer was learnt on another network: neither is used,
    # and the profile the detector read with before is dropped too
    from kiosk.vision.decks.deck_profile import SUIT

    detector = Detector()
    assert detector.namer is not None and detector.suit_reader is not None
    fitting = DeckProfile({INDEX: detector.namer.head()})
    detector.use_deck(fitting)
    assert detector.deck is fitting
    suits = detector.suit_reader.head()
    foreign = Head(suits.weights, suits.bias, suits.classes, "another network")
    with pytest.raises(ModelError):
        detector.use_deck(DeckProfile({INDEX: detector.namer.head(), SUIT: foreign}))
    assert detector.deck is None and detector.namer.deck_head is None
    assert detector.suit_reader.deck_head is None


def test_the_detector_reads_through_the_profile_it_is_given() -> None:
    import cv2

    image = cv2.imread(str(sorted(FIXTURES.glob("*.jpg"))[0]))
    detector = Detector()
    assert detector.namer is not None
    before = [(d.card, d.box) for d in detector.detect(image)]
    shipped = detector.namer.head()
    # a layer whose every card reads "none": the detector then names nothing
    blind = Head(np.zeros_like(shipped.weights), np.where(
        np.array(shipped.classes) == "none", 10.0, 0.0).astype(np.float32),
        shipped.classes, shipped.network)
    detector.use_deck(DeckProfile({INDEX: blind}))
    assert before and detector.detect(image) == []
    detector.use_deck(None)
    assert [(d.card, d.box) for d in detector.detect(image)] == before


def _blob(patches: list[np.ndarray]) -> np.ndarray:
    from kiosk.vision.cards.index_classifier import to_blob

    return to_blob(patches)


def test_a_freshly_trained_classifier_is_exported_ready_for_deck_profiles(tmp_path: Path) -> None:
    import sys

    pytest.importorskip("torch")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "models"))
    import train_classifier as trainer

    from kiosk.vision.cards.index_classifier import IndexClassifier

    labels = ["QC", "QS", "none"]
    out = tmp_path / "classifier.onnx"
    trainer.export(trainer.build_network(len(labels)), labels, out)
    exported = IndexClassifier(out)
    assert exported.has_features and exported.head().classes == tuple(labels)
