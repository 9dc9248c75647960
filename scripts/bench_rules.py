"""How many hands per second the rules engine scores.

Builds random complete hand records (random deal, random maker, random legal
cards; a quarter of them lone hands, half with the dealt hands known), then
times `score_hand(HandRecord.from_json(record), profile)`: reading, validating,
replaying and scoring, everything `kiosk score-hand` does but the file I/O.

    .venv/bin/python scripts/bench_rules.py [--hands 5000] [--rules ssc] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from kiosk.rules.cards import EUCHRE_DECK, Card, Seat
from kiosk.rules.profiles import PROFILES, get_profile
from kiosk.rules.record import HandRecord
from kiosk.rules.scoring import score_hand
from kiosk.rules.tricks import legal_plays, trick_winner


def random_record(rng: random.Random) -> dict[str, Any]:
    """A complete, legal hand record: someone orders up in round one and play runs to the end."""
    while True:
        deck = list(EUCHRE_DECK)
        rng.shuffle(deck)
        dealer = rng.choice(list(Seat))
        seats = dealer.left.clockwise()
        hands = {seat: deck[5 * i : 5 * i + 5] for i, seat in enumerate(seats)}
        turn_up = deck[20]
        maker = rng.choice(seats)
        if maker is not dealer or any(card.suit is turn_up.suit for card in hands[dealer]):
            break  # (the dealer needs a natural trump under alberta55 and general)
    alone = maker is dealer.partner or rng.random() < 0.25
    bids: list[dict[str, Any]] = [
        {"seat": s.value, "call": "pass"} for s in seats[: seats.index(maker)]
    ]
    bids.append({"seat": maker.value, "call": "order", "alone": alone})
    trump = turn_up.suit
    holding = {seat: list(cards) for seat, cards in hands.items()}
    discard = rng.choice(holding[dealer])
    holding[dealer].remove(discard)
    holding[dealer].append(turn_up)
    active = [seat for seat in seats if not (alone and seat is maker.partner)]
    leader = active[0]
    tricks = []
    for _ in range(5):
        order = [seat for seat in leader.clockwise() if seat in active]
        plays: list[tuple[Seat, Card]] = []
        for seat in order:
            led = plays[0][1] if plays else None
            card = rng.choice(legal_plays(holding[seat], led, trump))
            holding[seat].remove(card)
            plays.append((seat, card))
        leader = trick_winner(plays, trump)
        tricks.append([f"{seat}:{card}" for seat, card in plays])
    record: dict[str, Any] = {
        "dealer": dealer.value,
        "turn_up": str(turn_up),
        "bids": bids,
        "tricks": tricks,
    }
    if rng.random() < 0.5:
        record["hands"] = {seat.value: [str(c) for c in cards] for seat, cards in hands.items()}
        record["discard"] = str(discard)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--rules", default="ssc", choices=sorted(PROFILES))
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = [random_record(rng) for _ in range(args.hands)]
    profile = get_profile(args.rules)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for record in records:
            score_hand(HandRecord.from_json(record), profile)
        best = min(best, time.perf_counter() - start)
    print(
        f"{args.hands / best:,.0f} hands/s ({args.hands} hands, --rules {args.rules}, "
        f"best of {args.repeat}: {best:.3f} s)"
    )


if __name__ == "__main__":
    main()
