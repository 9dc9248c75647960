"""Learning the deck during play (kiosk.vision.decks.play_learning): what teaches, what never
does, the bounds, and the check before a refit is read with.

A small namer stands in for the index classifier here, so each rule is seen alone: its
features are a patch's mean colour, and its shipped layer reads every red patch as the
queen of spades, the swap an unseen deck's clubs suffer. The real classifier learning a
held-out deck's hands is tests/table/test_deck_learning.py's.
"""

from __future__ import annotations

import doctest
from collections.abc import Sequence

import numpy as np
import pytest

import kiosk.vision.decks.play_learning as play_learning
from kiosk.vision.decks.deck_profile import INDEX, SHIPPED, DeckProfile, Head
from kiosk.vision.decks.play_learning import FEWEST_CARDS, PlayLearning, origin_of

CARDS = ("QC", "QS", "KC", "KS", "AC", "AS", "9H", "9D", "TH", "TD", "JH", "JD")
CLASSES = (*CARDS, "none")
#: the colour of each card's index in the stand-in's world: a card and its same-colour
#: twin share the blue channel and differ only in green, which the shipped layer ignores
COLOUR = {card: np.array([40.0 + 30 * (i // 2), 200.0 if card[1] in "CH" else 60.0, 30.0])
          for i, card in enumerate(CARDS)}


class Namer:
    """Features: mean blue, green, red of the patch /255, and 1."""

    patch = 8
    margin = 0.9  # the patch is the middle of the box: its colour alone
    classes = CLASSES

    def features(self, patches: Sequence[np.ndarray]) -> np.ndarray:
        rows = [np.append(np.asarray(p, np.float32).reshape(-1, 3).mean(0) / 255.0, 1.0)
                for p in patches]
        return np.array(rows, np.float32).reshape(-1, 4)

    def head(self) -> Head:
        # a template on the blue channel alone, the spade or diamond a little ahead of its
        # twin: every club and heart reads as its same-colour twin
        weights = np.zeros((4, len(CLASSES)), np.float32)
        bias = np.zeros(len(CLASSES), np.float32)
        for i, card in enumerate(CARDS):
            blue = COLOUR[card][0] / 255.0
            weights[0, i] = 60 * blue
            weights[3, i] = -30 * blue * blue
            bias[i] = 0.1 if card[1] in "SD" else 0.0
        return Head(weights, bias, CLASSES, "stand-in")


def picture_of(cards: Sequence[str], rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """A picture with each card's index as a coloured square; their boxes."""
    image = np.full((60, 20 * len(cards) + 20, 3), 128, np.uint8)
    boxes = []
    for i, card in enumerate(cards):
        x = 10 + 20 * i
        colour = np.clip(COLOUR[card] + rng.normal(0, 3, 3), 0, 255)
        image[20:36, x : x + 16] = colour.astype(np.uint8)
        boxes.append((float(x), 20.0, float(x + 16), 36.0))
    return image, boxes


def named(head: Head, namer: Namer, card: str) -> str:
    patch = np.zeros((8, 8, 3), np.uint8) + COLOUR[card].astype(np.uint8)
    return head.classes[int(head.logits(namer.features([patch])).argmax())]


def play(learner: PlayLearning, hand: int, seats: dict[str, str], reads: dict[str, str],
         rng: np.random.Generator, frames: int = 3) -> None:
    """A hand whose cards lie in their seats' zones; ``reads`` the camera's name of each."""
    cards = list(seats.values())
    for _ in range(frames):
        image, boxes = picture_of(cards, rng)
        learner.look(hand, image, [(seat, reads.get(card, card), box)
                                   for (seat, card), box in zip(seats.items(), boxes,
                                                                strict=True)])


def test_the_examples_in_the_docstrings() -> None:
    assert doctest.testmod(play_learning).failed == 0


def test_the_stand_in_swaps_clubs_for_spades_until_play_teaches_it() -> None:
    rng = np.random.default_rng(0)
    namer = Namer()
    assert named(namer.head(), namer, "QC") == "QS"
    learner = PlayLearning(namer)
    for hand in range(1, 4):
        seats = {f"S{i}": card for i, card in enumerate(CARDS)}
        play(learner, hand, seats, {"QC": "QS", "KC": "KS"}, rng)  # the camera's swaps
        learner.settle(hand, list(seats.items()))
    profile = learner.refit()
    assert profile is not None and learner.refits[-1].adopted
    assert named(profile.heads[INDEX], namer, "QC") == "QC"
    assert named(profile.heads[INDEX], namer, "QS") == "QS"
    assert profile.grown_from == SHIPPED


def test_a_card_the_players_corrected_teaches_nothing() -> None:
    rng = np.random.default_rng(1)
    learner = PlayLearning(Namer())
    play(learner, 1, {"W": "QC"}, {"QC": "QS"}, rng)
    added = learner.settle(1, [("W", "QC")], corrected=[("W", "QS"), ("W", "QC")])
    assert added == 0 and learner.cards == 0


def test_an_answered_card_teaches() -> None:
    """The camera asked and the players answered: no name was corrected away."""
    rng = np.random.default_rng(2)
    learner = PlayLearning(Namer())
    play(learner, 1, {"W": "QC"}, {"QC": "QS"}, rng)
    assert learner.settle(1, [("W", "QC")]) == 3 and learner.cards == 1


def test_a_box_teaches_only_its_seats_card_of_the_same_rank() -> None:
    rng = np.random.default_rng(3)
    learner = PlayLearning(Namer())
    play(learner, 1, {"W": "QC", "N": "9H"}, {"9H": "TH"}, rng)  # North's card read as a ten
    learner.settle(1, [("W", "QC"), ("N", "9H"), ("E", "AS")])
    assert learner.cards == 1 and set(learner._pool) == {"QC"}


def test_a_seat_with_two_cards_of_one_rank_teaches_neither() -> None:
    rng = np.random.default_rng(4)
    learner = PlayLearning(Namer())
    play(learner, 1, {"W": "QC"}, {}, rng)
    assert learner.settle(1, [("W", "QC"), ("W", "QS")]) == 0


def test_the_frames_of_another_hand_teach_nothing() -> None:
    rng = np.random.default_rng(5)
    learner = PlayLearning(Namer())
    play(learner, 1, {"W": "QC"}, {}, rng)
    play(learner, 2, {"W": "KC"}, {}, rng)  # hand 1 was never settled: dropped
    assert learner.settle(1, [("W", "QC")]) == 0
    assert learner.settle(2, [("W", "KC")]) == 0  # settled already by the call before


def test_the_pool_is_bounded_to_the_newest_patches_of_each_card() -> None:
    rng = np.random.default_rng(6)
    learner = PlayLearning(Namer(), per_card=5)
    for hand in range(1, 5):
        play(learner, hand, {"W": "QC"}, {}, rng, frames=4)
        learner.settle(hand, [("W", "QC")])
    kept = learner._pool["QC"]
    assert len(kept) == 5 and {h for h, _ in kept} == {3, 4}


def test_a_box_at_the_pictures_edge_is_not_kept() -> None:
    learner = PlayLearning(Namer())
    image = np.zeros((40, 40, 3), np.uint8)
    learner.look(1, image, [("W", "QC", (0.0, 10.0, 12.0, 22.0)),
                            ("W", "QC", (10.0, 10.0, 22.0, 22.0))])
    assert learner.settle(1, [("W", "QC")]) == 1


def test_no_refit_before_enough_cards_from_two_hands() -> None:
    rng = np.random.default_rng(7)
    learner = PlayLearning(Namer())
    few = {f"S{i}": card for i, card in enumerate(CARDS[: FEWEST_CARDS - 1])}
    play(learner, 1, few, {}, rng)
    learner.settle(1, list(few.items()))
    assert learner.refit() is None and not learner.refits  # too few cards
    everything = {f"S{i}": card for i, card in enumerate(CARDS)}
    learner2 = PlayLearning(Namer())
    play(learner2, 1, everything, {}, rng)
    learner2.settle(1, list(everything.items()))
    assert learner2.refit() is None and not learner2.refits  # one hand: nothing to check on


def test_a_refit_that_reads_the_latest_hand_worse_is_not_adopted() -> None:
    """Hands 1 and 2 let every card stand under its twin's name (the players never
    looked); hand 3 shows the cards under their own: the check refuses what 1 and 2
    taught, and the table reads as before."""
    rng = np.random.default_rng(8)
    namer = Namer()
    good = PlayLearning(namer)  # a table profile that reads clubs right already
    seats = {f"S{i}": card for i, card in enumerate(CARDS)}
    for hand in range(1, 4):
        play(good, hand, seats, {}, rng)
        good.settle(hand, list(seats.items()))
    profile = good.refit()
    assert profile is not None and named(profile.heads[INDEX], namer, "QC") == "QC"
    learner = PlayLearning(namer, profile, pull=0.0)
    assert learner.origin == origin_of(profile) == profile.grown_from
    twin = {"C": "S", "S": "C", "H": "D", "D": "H"}
    for hand in (1, 2):
        play(learner, hand, seats, {}, rng)
        learner.settle(hand, [(s, c[0] + twin[c[1]]) for s, c in seats.items()])
    play(learner, 3, seats, {}, rng)
    learner.settle(3, list(seats.items()))
    assert learner.refit() is None
    last = learner.refits[-1]
    assert not last.adopted and last.after < last.before
    assert learner.profile is profile  # the table reads as before


def test_a_profile_learnt_in_play_says_what_it_grew_from(tmp_path: pytest.TempPathFactory
                                                          ) -> None:
    namer = Namer()
    setup = DeckProfile({INDEX: namer.head()}, ("QC",), "club deck", 1, 10)
    assert origin_of(None) == SHIPPED and origin_of(setup) == setup.fingerprint()
    grown = DeckProfile({INDEX: namer.head()}, ("QC",), "club deck", 1, 10,
                        grown_from=setup.fingerprint())
    assert origin_of(grown) == setup.fingerprint()  # learning on keeps the origin
    path = tmp_path / "p.npz"  # type: ignore[operator]
    grown.save(path)
    assert DeckProfile.load(path).grown_from == setup.fingerprint()
