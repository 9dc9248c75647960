"""A deep profile keeps learning deeply in play (issue 63): between hands its own
network learns the accepted cards' patches with deep enrolment's recipe, is checked on
the latest hand's patches, and is adopted only as checked; without torch the last layer
is refitted as for a quick profile.

The shipped index classifier stands in for a deep profile's network here (a deep
profile whose network is the shipped one's bytes), and two rendered layouts of a deck no
network saw are two hands, each card in the seat of its suit. A few steps: the tests
check what is learnt, kept and adopted, not how well (scripts/bench_play_learning.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import kiosk.vision.decks.deep_enrolment as deep_enrolment
import kiosk.vision.decks.play_learning as play_learning
from kiosk.vision.cards.index_classifier import DEFAULT_CLASSIFIER, IndexClassifier
from kiosk.vision.decks.deck_profile import INDEX, SUIT, DeckProfile, file_digest
from kiosk.vision.decks.deep_enrolment import DeepSettings
from kiosk.vision.decks.play_learning import PlayLearning, origin_of
from tests.vision.marks import needs_deck_and_torch

DECK = "kde-standard"
#: a few steps on one thread: seconds
FEW = DeepSettings(steps=3, deck_batch=16, replay_batch=8, threads=1)
SEAT_OF_SUIT = {"C": "N", "D": "E", "H": "S", "S": "W"}

pytestmark = needs_deck_and_torch(DECK)


@pytest.fixture(scope="module")
def namer() -> IndexClassifier:
    return IndexClassifier(threads=1)


@pytest.fixture(scope="module")
def hands() -> list[Any]:
    from datasets.layouts import render_layout

    return [render_layout(DECK, seed, size=(640, 360)) for seed in (7, 8)]


@pytest.fixture(scope="module")
def deep() -> DeckProfile:
    """A deep profile whose own network is the shipped one, and a suit layer beside it."""
    from kiosk.vision.decks.deck_profile import Head

    suit = Head(np.zeros((2, 2), np.float32), np.zeros(2, np.float32), ("C", "S"), "x")
    return DeckProfile({SUIT: suit}, ("AC",), "club deck", 1, 10,
                       namer=DEFAULT_CLASSIFIER.read_bytes(),
                       namer_from=file_digest(DEFAULT_CLASSIFIER))


def played(learner: PlayLearning, hands: list[Any]) -> None:
    """Each layout a hand: its boxes seen in the seat of their suit, every card accepted."""
    for number, photo in enumerate(hands, start=1):
        seen = [(SEAT_OF_SUIT[name[1]], name, box) for name, box in photo.labels]
        learner.look(number, photo.image, seen)
        accepted = sorted({(SEAT_OF_SUIT[name[1]], name) for name, _ in photo.labels})
        assert learner.settle(number, accepted) > 0


def test_a_deep_profile_learns_its_network_and_keeps_it_only_as_checked(
        namer: IndexClassifier, hands: list[Any], deep: DeckProfile) -> None:
    learner = PlayLearning(namer, deep, deep=FEW)
    played(learner, hands)
    learnt = learner.refit()
    last = learner.refits[-1]
    assert last.deep and last.checked > 0  # the network learnt, checked on hand 2
    assert last.nothing_before > 0  # ... and on patches of no card it did not learn from
    assert last.adopted == (last.after >= last.before
                            and last.nothing_after >= last.nothing_before)
    if not last.adopted:
        assert learnt is None and learner.namer is namer and learner.profile is deep
        return
    assert learnt is not None and learnt.deep and learnt.namer != deep.namer
    assert learner.namer.digest == learnt.namer_digest  # type: ignore[attr-defined]
    assert INDEX not in learnt.heads and learnt.heads[SUIT] is deep.heads[SUIT]
    assert learnt.grown_from == origin_of(deep) and learnt.namer_from == deep.namer_from


def test_the_network_adopted_is_the_one_checked_and_reads_with_onnx_runtime(
        namer: IndexClassifier, hands: list[Any], deep: DeckProfile,
        monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[Any] = []

    def named_right(reader: Any, head: Any, patches: list[Any], names: list[str]) -> int:
        checked.append(reader)
        return len(checked) - 1  # the network in use 0, the one learnt 1: adopted

    monkeypatch.setattr(play_learning, "_named_right", named_right)
    learner = PlayLearning(namer, deep, deep=FEW)
    played(learner, hands)
    learnt = learner.refit()
    assert learnt is not None and learner.refits[-1].adopted
    assert checked[0] is namer and checked[1] is learner.namer  # checked, then kept
    again = IndexClassifier(learnt.namer, 1)  # what the kiosk reads: ONNX Runtime alone
    assert again.classes == namer.classes and again.has_features
    assert set(learnt.enrolled) >= {"AC", "JS", "9H"}
    # learning on starts from that network, and a restart finds it from the profile
    assert PlayLearning(namer, learnt, deep=FEW).namer.digest == learnt.namer_digest  # type: ignore[attr-defined]


def test_without_torch_a_deep_profile_refits_its_last_layer(
        namer: IndexClassifier, hands: list[Any], deep: DeckProfile,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deep_enrolment, "missing_extras", lambda: "no torch here")
    learner = PlayLearning(namer, deep, deep=FEW)
    played(learner, hands)
    learnt = learner.refit()
    assert learner.refits and not learner.refits[-1].deep
    if learnt is not None:  # the layer, learnt on the profile's own network
        assert learnt.namer == deep.namer and learnt.heads[INDEX].network == namer.digest


def test_a_quick_profile_never_learns_deeply(namer: IndexClassifier,
                                             hands: list[Any]) -> None:
    quick = DeckProfile({INDEX: namer.head()}, ("AC",), "quick")
    learner = PlayLearning(namer, quick, deep=FEW)
    played(learner, hands)
    learner.refit()
    assert learner.refits and not learner.refits[-1].deep


def test_a_deep_refit_that_fails_falls_back_to_the_layer(
        namer: IndexClassifier, hands: list[Any], deep: DeckProfile,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_replay(*_args: Any) -> Any:
        raise ValueError("no replay patches at nowhere")

    monkeypatch.setattr(deep_enrolment, "load_replay", no_replay)
    learner = PlayLearning(namer, deep, deep=FEW)
    played(learner, hands)
    learner.refit()
    assert learner.deep is None and "no replay" in learner.deep_failed
    assert learner.refits and not learner.refits[-1].deep
