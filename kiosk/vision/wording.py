"""Words for people from what vision reports: seats by name, cards in words (never codes).

The reader's events carry facts (a seat, a card, the other card); this is the one place
that turns them into sentences, so the screens and the journal say a card the same way.

>>> card_words("9D"), card_words(Card.parse("AC")), seat_words("E")
('nine of diamonds', 'ace of clubs', 'East')
>>> narrate(ReaderWarning(WarningKind.AMBIGUOUS, "", Seat.N, 2.0, card=Card.parse("JD"),
...                       other=Card.parse("JH")))
"Is North's card the jack of diamonds or the jack of hearts? Please tap it."
"""

from __future__ import annotations

from kiosk.rules.cards import Card, CardParseError, Seat
from kiosk.vision.events import ReaderWarning, WarningKind


def card_words(card: Card | str) -> str:
    """A card in plain words ('JH' -> 'jack of hearts'); a name that is no card (a
    detector class such as ``back``) as it is."""
    if isinstance(card, Card):
        return card.words
    try:
        return Card.parse(card).words
    except CardParseError:
        return card


def seat_words(seat: Seat | str) -> str:
    """A seat by name ('E' -> 'East'; the rules engine's `Seat.words`)."""
    return (seat if isinstance(seat, Seat) else Seat.parse(seat)).words


def narrate(warning: ReaderWarning) -> str:
    """The reader's warning in words a player can act on."""
    kind, trick = warning.kind, warning.trick
    who = seat_words(warning.seat) if warning.seat is not None else ""
    card = card_words(warning.card) if warning.card is not None else "card"
    other = card_words(warning.other) if warning.other is not None else "card"
    other_seat = seat_words(warning.other_seat) if warning.other_seat is not None else ""
    if kind == WarningKind.UNSURE and trick is not None:
        return (f"The camera now reads {who}'s card in trick {trick} as the {card}, not "
                f"the {other} (that card came later): tap it if it is another card.")
    if kind == WarningKind.UNSURE and warning.other is not None:  # a twin the trick hangs on
        return f"Is {who}'s card the {card} or the {other}? Please tap it."
    if kind == WarningKind.UNSURE:
        return (f"Is {who}'s card the {card}? The camera is not sure: tap it if it is "
                "another card.")
    if kind == WarningKind.OCCLUDED:
        return "Cannot see the cards of this trick: is something in the way?"
    if kind == WarningKind.MISSING_CARD:
        return (f"The trick was taken in without a card from {who}; please tap the card "
                "that was played.")
    if kind == WarningKind.SEEN_TWICE:
        return _seen_twice(warning, who, card, other_seat)
    if kind == WarningKind.NOT_EUCHRE:
        return f"The {card} is not a euchre card; please take it out of {who}'s place."
    if kind == WarningKind.AMBIGUOUS:
        return f"Is {who}'s card the {card} or the {other}? Please tap it."
    if kind == WarningKind.UNREADABLE:
        return f"Cannot read {who}'s card: straighten it or tap it in."
    if kind == WarningKind.CARD_REPLACED:
        return f"{who} took back the {other} and played the {card} instead."
    if kind == WarningKind.OUT_OF_TURN:
        why = (f"it was {other_seat}'s turn" if warning.other_seat is not None
               else f"{who} sits out this lone hand")
        return f"{who} played the {card} out of turn ({why})."
    return f"The camera reports {kind}."


def _seen_twice(warning: ReaderWarning, who: str, card: str, other_seat: str) -> str:
    """A card read again after it was played: said of the card now down (with where it
    was read before), or of the earlier one (``trick`` set, ``other_seat`` showing it now)."""
    if warning.trick is not None:
        where = f"{who}'s card in trick {warning.trick}"
        return (f"{other_seat}'s card reads as the {card}, which was read as {where}: "
                "please check that card too.")
    if warning.other_seat is None:
        return f"The {card} was already played this hand; please check {who}'s card."
    where = f"{other_seat}'s card in trick {warning.other_trick}"
    if warning.other is not None:  # the pack's word: one of the two is the card's twin
        return (f"{where} and {who}'s card both read as the {card}, and a pack has one. "
                f"Please tap the one that is not (the {card_words(warning.other)}?).")
    return f"The {card} was already read as {where}; please check {who}'s card."


# ---- what the table made of a sighting (kiosk.table.intake's notices) -----------------


def unnamed_card(seat: Seat | str) -> str:
    """Something lies in front of a seat that is no euchre card the camera can name."""
    return (f"The camera saw something it cannot name in front of {seat_words(seat)}. "
            "Tap the card to fix it.")


def read_again(seat: Seat | str, card: Card | str, was: Card | str) -> str:
    """A seat's card in the open trick is read as another card now."""
    return (f"The camera now reads {seat_words(seat)}'s card as the {card_words(card)} "
            f"(it read the {card_words(was)} before).")


def before_the_lead(seat: Seat | str, leader: Seat | str) -> str:
    """A card came down before the seat on lead led."""
    return (f"{seat_words(seat)}'s card came before {seat_words(leader)} led. "
            "If it was a lead out of turn, call the director.")


def reread_refused(seat: Seat | str, trick: int, card: Card | str, why: str) -> str:
    """A card of an earlier trick is read as another card now, which the rules refuse
    (``why``: the rules' refusal, in words)."""
    return (f"The camera now reads {seat_words(seat)}'s card in trick {trick} as the "
            f"{card_words(card)}, but the record cannot take it: {why.rstrip('.')}. "
            "Please tap that card.")
