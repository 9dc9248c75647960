"""Why the table refuses a tap, as facts: the session says *what* it cannot take now
(`Why`, with the seat, card, trick or choice it is about), and the app says it in the
players' words (kiosk.app.words.refused_words)."""

from __future__ import annotations

from enum import StrEnum

from kiosk.rules.cards import Card, Seat
from kiosk.table.referee import BidOption, Refusal, euchre_card
from kiosk.table.setup import SetupFault


class Why(StrEnum):
    """What a refused tap ran into."""

    GAME_STARTED = "game_started"  #: the set-up can no longer change
    BAD_SETUP = "bad_setup"  #: the set-up's own check said no (``setup``: its fault)
    UNKNOWN_RULES = "unknown_rules"  #: ``detail``: the rule book asked for
    NO_SETUP = "no_setup"  #: the table is not set up yet
    ALREADY_STARTED = "already_started"  #: the first dealer was drawn already
    UNKNOWN_SEAT = "unknown_seat"  #: ``detail``: the seat as given
    UNKNOWN_SIDE = "unknown_side"  #: ``detail``: the side as given
    NOT_A_CARD = "not_a_card"  #: ``detail``: what is wrong with the card given
    BIDDING_STARTED = "bidding_started"  #: the turn-up can no longer change
    NOBODY_TO_BID = "nobody_to_bid"
    NO_SUCH_BID = "no_such_bid"
    BID_BARRED = "bid_barred"  #: ``bid``: the option, with why it is barred
    NOTHING_TO_UNDO = "nothing_to_undo"
    CARDS_DOWN = "cards_down"  #: nothing to undo: cards are on the table
    NO_CARDS_YET = "no_cards_yet"  #: nothing to correct yet
    TRICK_FINISHED = "trick_finished"  #: ``trick``: changes only with the players' yes
    RULES_REFUSE = "rules_refuse"  #: ``refusal``: the engine's
    NO_FIX_TO_UNDO = "no_fix_to_undo"
    NOTHING_TO_ASK = "nothing_to_ask"  #: the camera asks about no card
    NO_RENEGE = "no_renege"
    NOT_A_CHOICE = "not_a_choice"  #: ``detail``: the choice tapped
    DIRECTOR_NOT_CALLED = "director_not_called"
    FINISH_THE_HAND = "finish_the_hand"
    GAME_OVER = "game_over"  #: end the game and confirm the score
    GAME_NOT_OVER = "game_not_over"
    NO_AGREEMENT = "no_agreement"  #: no agreement to take back
    FINISH_THE_GAME = "finish_the_game"  #: finish and confirm this game first
    NOT_TIME_TO_BID = "not_time_to_bid"
    NOT_NOW = "not_now"


class IntentRefused(ValueError):
    """A tap the game cannot take now: `why`, and the facts its words need."""

    def __init__(self, why: Why, *, detail: str = "", trick: int | None = None,
                 refusal: Refusal | None = None, bid: BidOption | None = None,
                 setup: SetupFault | None = None) -> None:
        about = detail or refusal or (bid and bid.bar) or setup or trick
        super().__init__(f"{why}: {about}" if about else str(why))  # for logs
        self.why = why
        self.detail = detail
        self.trick = trick
        self.refusal = refusal
        self.bid = bid
        self.setup = setup


def tapped_card(card: Card | str) -> Card:
    """The card a tap names (``jh``, ``10H``, a `Card`), or the tap refused: no euchre card."""
    try:
        return euchre_card(card)
    except ValueError as problem:
        raise IntentRefused(Why.NOT_A_CARD, detail=str(problem)) from None


def tapped_seat(seat: Seat | str) -> Seat:
    """The seat a tap names (``E``, a `Seat`), or the tap refused: no seat."""
    if isinstance(seat, Seat):
        return seat
    try:
        return Seat.parse(seat)
    except ValueError:
        raise IntentRefused(Why.UNKNOWN_SEAT, detail=seat) from None
