"""No renege on a twin's word: the cards a renege verdict hangs on, put to the players.

A deck's commonest misread is a card's same-colour twin (the jack of clubs read as the
jack of spades, a heart as the diamond of its rank), and it is often *sure*: the same card
read as its twin in every frame, so no vote of frames sets it right. A renege found on
such a read would be a false flag on the camera's word alone, so before the table flags a
renege, each card the verdict hangs on (the lead of the trick where the seat failed to
follow, the seat's card there, and the later card that proves it) whose twin would make
the verdict vanish is first a question to the players: "the ace of clubs or the ace of
spades?". Reneges are rare, so the question costs little.

The pack is evidence: a euchre pack holds each card once, so a twin already played
elsewhere in the hand, or the turn-up where this seat cannot hold it (the rules engine
refuses both), or a card the table's pack does not hold (``pack``), is no doubt at all,
and no question is asked. A card the players set (fixed, kept, or told in answer to an
earlier question: ``settled``) is never asked about again.

>>> from kiosk.rules.bidding import Bid, Call
>>> from kiosk.table.referee import plays_of
>>> plays = plays_of("E AS", "S 9S", "W KD", "N TS",   # West shows out...
...                  "E 9C", "S TC", "W QS", "N AC")   # ...and has a spade
>>> bids = [Bid(Seat.E, Call.ORDER)]
>>> [str(q) for q in renege_questions("tournament", Seat.N, Card.parse("9H"), bids, plays)]
['trick 2 W: QS or QC?']

(The lead's twin, the ace of clubs, is North's card in trick 2; the king of hearts would
be a trump, still not a spade: neither is asked.) Once the players have said which:

>>> renege_questions("tournament", Seat.N, Card.parse("9H"), bids, plays,
...                  settled={(2, Seat.W)})
[]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.rules.bidding import Bid
from kiosk.rules.cards import EUCHRE_DECK, Card, Seat
from kiosk.rules.play import HandState
from kiosk.rules.record import SeatCard
from kiosk.table import referee


def twin_of(card: Card) -> Card:
    """The card of the same rank in the other suit of its colour.

    >>> str(twin_of(Card.parse("JC"))), str(twin_of(Card.parse("TH")))
    ('JS', 'TD')
    """
    return Card(card.rank, card.suit.same_colour)


#: the fewest euchre cards a table's deck profile must have enrolled to be taken as the
#: pack the deck holds: a complete pack, or one with a card lost (the layout's check says
#: "the pack is imperfect"). Fewer, and a card the photos never showed may still be in
#: the deck: ruling out its twin's doubt would flag a renege on the camera's word.
PACK_KNOWN = 23


def enrolled_pack(enrolled: Iterable[str]) -> frozenset[Card] | None:
    """The euchre cards a table's deck holds, as its deck profile enrolled them (the 5s
    kept as score markers, and anything else its photos showed, are no card of play);
    None where the profile saw too little of the pack to say.

    >>> pack = enrolled_pack([str(c) for c in EUCHRE_DECK if str(c) != "KD"] + ["5C", "5D"])
    >>> len(pack), Card.parse("KD") in pack, Card.parse("5C") in pack
    (23, False, False)
    >>> enrolled_pack(["JC", "JS", "AH", "5C"]) is None  # ten shots that showed four cards
    True
    """
    names = {str(c).upper() for c in enrolled}
    cards = frozenset(card for card in EUCHRE_DECK if str(card) in names)
    return cards if len(cards) >= PACK_KNOWN else None


@dataclass(frozen=True)
class TwinQuestion:
    """Is ``seat``'s card in ``trick`` (1 = the hand's first) the ``card`` the record holds,
    or its same-colour ``twin``? The renege flagged in the hand vanishes if it is the twin."""

    trick: int
    seat: Seat
    card: Card
    twin: Card

    def __str__(self) -> str:
        return f"trick {self.trick} {self.seat}: {self.card} or {self.twin}?"

    def to_json(self) -> dict[str, Any]:
        return {"trick": self.trick, "seat": str(self.seat), "card": str(self.card),
                "twin": str(self.twin)}


def renege_questions(profile: str, dealer: Seat, turn_up: Card | None,
                     bids: Sequence[Bid], plays: Sequence[SeatCard], *,
                     settled: Collection[tuple[int, Seat]] = (),
                     pack: Collection[Card] | None = None,
                     renege_choice: str | None = None) -> list[TwinQuestion]:
    """The questions to put to the players before a renege in this hand is flagged, in
    the order to ask them (the trick's lead, the seat's card there, the card that proves
    it); [] when the hand shows no renege or every card it hangs on is beyond doubt."""
    view = referee.replay(profile, dealer, turn_up, bids, plays, renege_choice)
    state = view.state
    if not isinstance(state, HandState) or not state.reneges:
        return []
    questions: list[TwinQuestion] = []
    for proof in state.reneges:
        verdict = (proof.seat, proof.trick)
        for trick, seat in _hinges(view, proof.seat, proof.trick, proof.proven_at):
            if (trick, seat) in settled or any((q.trick, q.seat) == (trick, seat)
                                               for q in questions):
                continue
            card = (dict(view.tricks[trick - 1].cards).get(seat)
                    if 1 <= trick <= len(view.tricks) else None)
            if card is None or (seat, card) not in plays:
                continue
            index = list(plays).index((seat, card))  # (not counting plays refused)
            twin = twin_of(card)
            if pack is not None and twin not in pack:
                continue
            changed = list(plays)
            changed[index] = (seat, twin)
            trial = referee.replay(profile, dealer, turn_up, bids, changed, renege_choice)
            if trial.problem and trial.problem != view.problem:
                continue  # the twin is elsewhere in the hand, or the turn-up
            after = trial.state
            if isinstance(after, HandState) and verdict in {
                    (p.seat, p.trick) for p in after.reneges}:
                continue  # the verdict stands either way: nothing to ask
            questions.append(TwinQuestion(trick, seat, card, twin))
    return questions


def _hinges(view: referee.HandView, seat: Seat, trick: int, proven_at: int
            ) -> list[tuple[int, Seat]]:
    """(trick, seat) of the cards a renege verdict hangs on: the lead of the trick where
    ``seat`` failed to follow, its card there, and its card that proves the renege."""
    out: list[tuple[int, Seat]] = []
    if 1 <= trick <= len(view.tricks) and view.tricks[trick - 1].cards:
        out.append((trick, view.tricks[trick - 1].cards[0][0]))
    out += [(trick, seat), (proven_at, seat)]
    return list(dict.fromkeys(out))


__all__ = ["PACK_KNOWN", "TwinQuestion", "enrolled_pack", "renege_questions", "twin_of"]
