"""The twin question in one tap: before a renege is called on a card the camera may have
read as its same-colour twin, the two cards are shown large and the players tap the one
that lies on the table (kiosk.table.twins decides what to ask; this says it).

Why a screen of its own: a deck's commonest misread is a club read as the spade of its
rank (a heart as the diamond), and often in every frame, so no vote of frames settles
it. A renege flagged on such a read would accuse a player on the camera's word alone.
The players over 55 this kiosk serves answer by looking at the card: one large face
each, one tap, and the trick or the renege follows from the answer.

>>> from kiosk.table.hand_log import Suggestion
>>> v = twin_view(Suggestion(2, "W", card="QC", was="QS", twin=True))
>>> v.headline
'Which card did West play in trick 2?'
>>> v.question
'The queen of clubs or the queen of spades?'
>>> [(c.card, c.label) for c in v.choices]
[('QC', 'Queen of clubs'), ('QS', 'Queen of spades')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.app.words import card_words
from kiosk.rules.cards import Card, Suit
from kiosk.table.hand_log import Suggestion
from kiosk.table.intents import IntentRefused, tapped_card
from kiosk.table.twins import enrolled_pack

#: the order the two cards stand in, whichever the camera read: clubs before spades,
#: diamonds before hearts (the camera's read is not put first, nor said to be it)
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def twin_pair(s: Suggestion) -> tuple[Card, Card]:
    """The two cards of a twin question in the order they are offered (`SUIT_ORDER`)."""
    first, second = sorted((s.was, s.card), key=lambda c: SUIT_ORDER.index(c.suit))
    return first, second


@dataclass(frozen=True)
class TwinChoice:
    card: str  #: the card a tap on it says lies on the table
    label: str  #: its words on the button


@dataclass(frozen=True)
class TwinView:
    headline: str
    question: str
    detail: str
    choices: tuple[TwinChoice, ...]
    trick: int
    seat: str


def twin_view(s: Suggestion) -> TwinView:
    """The question for the table's twin question ``s`` (``s.was`` the card the record
    holds, ``s.card`` its same-colour twin)."""
    who = s.seat.words
    pair = twin_pair(s)
    choices = tuple(TwinChoice(str(c), card_words(c).capitalize()) for c in pair)
    return TwinView(
        headline=f"Which card did {who} play in trick {s.trick}?",
        question=f"The {card_words(pair[0])} or the {card_words(pair[1])}?",
        detail=f"A renege depends on this card. Look at {who}'s card and tap the same one.",
        choices=choices, trick=s.trick, seat=str(s.seat))


def deck_pack(detector: Any) -> frozenset[Card] | None:
    """The cards the deck the detector reads with holds, where its profile knows them
    (kiosk.table.twins.enrolled_pack): the table's twin check takes them as evidence."""
    deck = getattr(detector, "deck", None)
    return enrolled_pack(deck.enrolled) if deck is not None else None


class TwinCheck:
    """The presenter's part for the twin question (kiosk.app.presenter)."""

    def __init__(self, session: Any, do: Callable[[Callable[[], Any]], bool]) -> None:
        """``do`` runs an intent of the session, a refusal said as the screen's message
        (the presenter's ``_do``)."""
        self.session = session
        self.do = do

    def asked(self) -> Suggestion | None:
        """The table's twin question now waiting for the players; None when there is
        none (the camera's own second thoughts are the live screen's 'Check the card')."""
        hand = self.session.hand
        s = hand.suggestion if hand is not None else None
        return s if s is not None and s.twin else None

    def view(self) -> TwinView | None:
        s = self.asked()
        return twin_view(s) if s is not None else None

    def answer(self, tapped: Card | str) -> bool:
        """The players tapped ``card``: it is the card on the table. One tap answers;
        the next question, the renege or the game follows."""
        s = self.asked()
        try:
            card = tapped_card(tapped)
        except IntentRefused:
            return False
        if s is None or card not in (s.was, s.card):
            return False
        if card == s.was:  # as the record holds it: kept, never asked again
            return self.do(self.session.keep_card)
        return self.do(lambda: self.session.correct(s.trick, s.seat, card, confirmed=True))


__all__ = ["TwinCheck", "TwinChoice", "TwinView", "deck_pack", "twin_pair", "twin_view"]
