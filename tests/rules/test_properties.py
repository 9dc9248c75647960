"""Property tests: random deals played with random legal cards.

- never a renege when every card is legal;
- one injected failure to follow is flagged as soon as the proof appears, never before;
- tricks add up to five, and only one side scores a hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.rules.bidding import Bid, Call
from kiosk.rules.cards import EUCHRE_DECK, Card, Seat, Suit
from kiosk.rules.play import HandState
from kiosk.rules.profiles import PROFILES, get_profile
from kiosk.rules.renege import RenegeProof
from kiosk.rules.scoring import score_state
from kiosk.rules.tricks import effective_suit, legal_plays

SETTINGS = settings(max_examples=60, deadline=None)


@dataclass
class Played:
    state: HandState
    #: per card played: the proofs the engine reported at that moment
    proofs: list[tuple[Seat, Card, tuple[RenegeProof, ...]]] = field(default_factory=list)
    #: the injected renege: (seat, trick) and the trick whose play should prove it
    injected: tuple[Seat, int] | None = None
    injected_suit: Suit | None = None
    expected_proof_at: int | None = None


def play_hand(rng: random.Random, profile: str, *, known: bool, inject: bool) -> Played | None:
    deck = list(EUCHRE_DECK)
    rng.shuffle(deck)
    dealer = rng.choice(list(Seat))
    seats = dealer.left.clockwise()
    hands = {seat: deck[5 * i : 5 * i + 5] for i, seat in enumerate(seats)}
    turn_up = deck[20]
    state = HandState(get_profile(profile), dealer, turn_up, hands if known else None)
    # a random maker orders up in round one (the dealer's partner only where allowed alone)
    maker = rng.choice(list(seats))
    for seat in seats[: seats.index(maker)]:
        state.bid(Bid(seat, Call.PASS))
    bid = Bid(maker, Call.ORDER, alone=rng.random() < 0.25)
    if not state.can_bid(bid):
        return None  # the dealer without a natural trump, under alberta55/general
    contract = state.bid(bid).contract
    assert contract is not None
    holding = {seat: list(cards) for seat, cards in hands.items()}
    discard = rng.choice(holding[dealer])
    holding[dealer].remove(discard)
    holding[dealer].append(turn_up)
    if known:
        state.set_discard(discard)
    played = Played(state)
    inject_at = rng.randint(1, 4) if inject else None
    while not state.play_complete:
        seat = state.turn
        assert seat is not None
        led = state.current[0][1] if state.current else None
        choices = legal_plays(holding[seat], led, contract.trump)
        if (
            inject_at == state.trick_number
            and played.injected is None
            and led is not None
            and len(choices) < len(holding[seat])
        ):
            choices = [card for card in holding[seat] if card not in choices]
            played.injected = (seat, state.trick_number)
            led_suit = effective_suit(led, contract.trump)
            played.injected_suit = led_suit
            if known or (
                seat is dealer
                and turn_up in holding[seat]
                and effective_suit(turn_up, contract.trump) is led_suit
            ):
                played.expected_proof_at = state.trick_number
        card = rng.choice(choices)
        if (
            played.injected is not None
            and played.expected_proof_at is None
            and played.injected[0] is seat
            and effective_suit(card, contract.trump) is played.injected_suit
        ):
            played.expected_proof_at = state.trick_number
        holding[seat].remove(card)
        result = state.play(seat, card)
        played.proofs.append((seat, card, result.proofs))
    return played


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(PROFILES)), st.booleans())
def test_legal_play_never_flags_a_renege(rng: random.Random, profile: str, known: bool) -> None:
    played = play_hand(rng, profile, known=known, inject=False)
    if played is None:
        return
    assert played.state.reneges == []
    assert all(not proofs for _seat, _card, proofs in played.proofs)
    if known:
        assert all(p.known_legal is True for p in played.state.plays)


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(PROFILES)), st.booleans())
def test_one_failure_to_follow_is_proven_when_the_proof_appears(
    rng: random.Random, profile: str, known: bool
) -> None:
    played = play_hand(rng, profile, known=known, inject=True)
    if played is None or played.injected is None:
        return
    seat, trick = played.injected
    # in a complete hand the reneging player must show the suit by trick 5
    assert played.expected_proof_at is not None
    proof = RenegeProof(seat, trick, played.expected_proof_at)
    assert played.state.reneges == [proof]
    reported_at = [i for i, (_s, _c, proofs) in enumerate(played.proofs) if proof in proofs]
    assert len(reported_at) == 1
    proving_play = played.state.plays[reported_at[0]]
    assert proving_play.trick == played.expected_proof_at
    assert all(not proofs for _s, _c, proofs in played.proofs[: reported_at[0]])


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(PROFILES)), st.booleans())
def test_tricks_add_up_and_only_one_side_scores(
    rng: random.Random, profile: str, inject: bool
) -> None:
    played = play_hand(rng, profile, known=False, inject=inject)
    if played is None:
        return
    result = score_state(played.state)
    assert sum(result.tricks_won.values()) == 5 == len(result.trick_winners)
    scored = [team for team, points in result.points.items() if points != 0]
    assert len(scored) == 1 and result.points[scored[0]] > 0
    assert all(len(trick.plays) == (3 if result.alone else 4) for trick in played.state.tricks)
