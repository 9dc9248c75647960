"""Everything the kiosk says to players, in plain words: cards by name, never by code.

The rules engine and the trick reader speak in card codes (`9D`, `TS`) and
seat letters; a player reads "the nine of diamonds" and "East". Every sentence
a screen shows passes through here, and `plain()` is the last guard: any card
code left in a message becomes words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from kiosk.rules.bidding import Bid, BidFault, Call
from kiosk.rules.cards import Card, Seat, Suit, Team
from kiosk.rules.play import PlayFault
from kiosk.table import referee
from kiosk.table.camera import DetectorChoice, ModelSetAside
from kiosk.table.director_problem import DirectorFault, DirectorProblem
from kiosk.table.entries import BidSpoken, GameStarted, TurnUpSeen
from kiosk.table.fixing import FixPreview
from kiosk.table.hand_log import Notice, NoticeAbout
from kiosk.table.intents import IntentRefused, Why
from kiosk.table.learning_notes import LearningFailed, LearningFault, LearningNote
from kiosk.table.referee import BidBar, BidHint, BidOption, Refusal
from kiosk.table.setup import MOST_MINUTES, MOST_POINTS, SetupFault
from kiosk.table.turn_up import KittyDoubt
from kiosk.vision import wording

_Fact = TypeVar("_Fact")

SUIT_NAMES = {str(suit): suit.name.lower() for suit in Suit}  # as Card.words says them
SIDE_NAMES = {"NS": "North-South", "EW": "East-West"}

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_LABELS = {"T": "10"}


def card_label(card: Card | str) -> str:
    """`TH` -> `10♥`: the short form drawn on a card face (never in running text)."""
    code = str(card)
    return f"{RANK_LABELS.get(code[0], code[0])}{SUIT_SYMBOLS[code[1]]}"


card_words = wording.card_words


def seat_name(seat: Seat | str | None) -> str:
    """A seat by name ('E' -> 'East', as kiosk.vision.wording says it); what is no seat as
    it is."""
    try:
        return wording.seat_words(seat) if seat is not None else str(seat)
    except ValueError:
        return str(seat)


def suit_name(suit: Suit | None) -> str:
    """A suit in a sentence ('hearts'); '' for none."""
    return "" if suit is None else SUIT_NAMES[str(suit)]


_CARD_CODE = re.compile(r"\b(?:the )?([9TJQKA])([CDHS])\b")
_SEAT_IN_BRACKET = re.compile(r"\(by ([NESW]) ")


def plain(text: str) -> str:
    """The last guard before a screen: any card code left in a message said in words
    ('AC is played twice' -> 'The ace of clubs is played twice'), and a seat letter in
    '(by N ...' by name. The table's messages are made from facts; this catches what a
    message from elsewhere (an older journal's words) may still hold."""

    def card(match: re.Match[str]) -> str:
        words = "the " + Card.parse(match.group(1) + match.group(2)).words
        before = text[:match.start()].rstrip()
        return words[:1].upper() + words[1:] if not before or before[-1] in ".:?!" else words

    text = _CARD_CODE.sub(card, text)
    return _SEAT_IN_BRACKET.sub(lambda m: f"(by {Seat.parse(m.group(1)).words} ", text)


def clock_text(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


#: a bid as the history says it, and as the Undo button takes it back
_BID_FORMS = {
    Call.PASS: ("{who}: pass", "Undo {who}'s pass"),
    Call.ORDER: ("{who}: order it up{alone}", "Undo: {who} ordered it up{alone}"),
    Call.NAME: ("{who}: {suit}{alone}", "Undo: {who} named {suit}{alone}"),
}


def _bid_text(bid: Bid, form: int) -> str:
    return _BID_FORMS[bid.call][form].format(
        who=bid.seat.words, alone=" alone" if bid.alone else "", suit=suit_name(bid.suit))


def bid_words(bid: Bid) -> str:
    """One bid as the history shows it: 'West: order it up alone'."""
    return _bid_text(bid, 0)


def undo_words(step: GameStarted | TurnUpSeen | BidSpoken | None) -> str:
    """What the Undo button takes back, on the button itself ('' when nothing)."""
    if step is None:
        return ""
    if isinstance(step, GameStarted):
        return f"Undo: {step.dealer.words} deals"
    if isinstance(step, TurnUpSeen):
        return "Not this card" if step.source == "camera" else "Undo the turn-up"
    return _bid_text(step.bid, 1)


def camera_turn_up_words(card: Card) -> str:
    """The turn-up the camera read, put to the players: their first bid agrees with it.

    >>> camera_turn_up_words(Card.parse("9H"))
    "Turn-up: nine of hearts. Right? Then just bid. If not, tap 'Not this card'."
    """
    return f"Turn-up: {card_words(card)}. Right? Then just bid. If not, tap 'Not this card'."


def kitty_doubt_words(doubt: KittyDoubt, dealer: Seat) -> str:
    """What the camera saw of the turn-up, against the bids tapped, as a question with
    what to do (short: it shares the live screen's notice box).

    >>> from kiosk.vision.events import KittyChange
    >>> kitty_doubt_words(KittyDoubt(seen=KittyChange.TAKEN), Seat.N)
    'The camera saw North pick up the turn-up. Was it ordered up? If so, tap Undo.'
    """
    return (f"The camera saw {seat_name(dealer)} pick up the turn-up. Was it ordered up? "
            "If so, tap Undo.")


def points_words(points: dict[str, int], teams: dict[str, str]) -> str:
    """'Ann & Bob +2, Cy & Di -2', or 'no points'."""
    return ", ".join(f"{teams[s]} {points[s]:+d}" for s in Team if points.get(s)) or "no points"


def result_words(view: referee.HandView, points: dict[str, int],
                 teams: dict[str, str]) -> str:
    """How the hand ended and what it scored; a renege is always named."""
    result = view.result or view.penalty_now or {}
    outcome = result.get("outcome", "")
    if outcome == "passed":
        return "Everyone passed: new deal."
    makers = str(result.get("makers"))
    words = {
        "made": f"{teams.get(makers, makers)} made it",
        "march": f"{teams.get(makers, makers)} took all five tricks",
        "euchred": f"{teams.get(makers, makers)} were euchred",
        "renege": "Renege",
    }.get(outcome, outcome.replace("_", " ").capitalize())
    if view.renege is not None:
        who = seat_name(view.renege.seat)
        words = f"Renege by {who}, penalty scored" if outcome != "renege" else f"Renege by {who}"
    return f"{words}: {points_words(points, teams)}"


def renege_option_words(choice: str, points: dict[str, int], teams: dict[str, str],
                        offended: str) -> str:
    """A renege option with team names, never 'our' or 'their' (all four players read
    the one screen)."""
    offender = Team(offended).other
    amount = max((abs(n) for n in points.values()), default=0)
    if choice == "penalty_added":
        return f"Give {teams[offended]} {amount} points"
    if choice == "penalty_deducted":
        return f"Take {amount} points from {teams[offender]}"
    if choice == "as_played":
        return f"Score the hand as played: {points_words(points, teams)}"
    if choice == "accept":
        return f"Score the penalty: {points_words(points, teams)}"
    if choice == "play_on":
        return "Play the hand out, and choose at the end"
    return f"{choice.replace('_', ' ').capitalize()}: {points_words(points, teams)}"


def fix_words(preview: FixPreview) -> str:
    """What fixing a card of a finished trick changes, said before it is done: 'Trick 1,
    North: the queen of spades becomes the ten of hearts. Trick 1 then goes to North, not
    East.'"""
    who = seat_name(preview.seat)
    if preview.was is None:
        change = f"Trick {preview.trick}, {who}: add the {card_words(preview.card)}."
    else:
        change = (f"Trick {preview.trick}, {who}: the {card_words(preview.was)} becomes the "
                  f"{card_words(preview.card)}.")
    if preview.problem:
        return f"{change} The rules refuse it: {plain(refusal_words(preview.problem))}"
    parts = [change]
    for trick, before, after in preview.winners:
        if after is None:
            parts.append(f"Trick {trick} then has no winner yet.")
        else:
            parts.append(f"Trick {trick} then goes to {seat_name(after)}, not "
                         f"{seat_name(before or '')}.")
    if not preview.winners:
        parts.append("Who won each trick stays the same.")
    if preview.renege_before != preview.renege_after:
        if preview.renege_after is None:
            seat, trick = preview.renege_before or ("", 0)
            parts.append(f"The renege by {seat_name(seat)} in trick {trick} is gone.")
        else:
            seat, trick = preview.renege_after
            parts.append(f"It shows a renege by {seat_name(seat)} in trick {trick}.")
    return " ".join(parts)


def undo_fix_words(trick: int, seat: Seat, was: Card) -> str:
    """The Undo button after a fix of a finished trick's card: short, to fit a small
    screen's column (the correction screen's log says which card it was)."""
    return "Undo the change"


# ------------------------------------------------------------------ the camera

def set_aside_words(why: ModelSetAside) -> str:
    """Why the trained model is not used, for the console's line."""
    if why.read is not None:
        return (f"the trained model read only {why.read:.0%} of the cards of sample frames: "
                "still too weak")
    return why.error


def detector_line(choice: DetectorChoice) -> str:
    """The console's line: which detector reads the cards, and why."""
    if choice.own_words is not None:
        return choice.own_words[0]
    if choice.name == "model":
        tested = ("" if choice.sample_read is None
                  else f", read {choice.sample_read:.0%} of the sample cards")
        return f"Cards read by the trained detector ({choice.model_file}{tested})."
    why = set_aside_words(choice.set_aside) if choice.set_aside else "none chosen"
    return f"No card detector ({why}): tap each card on the screen."


def detector_short(choice: DetectorChoice) -> str:
    """The camera set-up screen's line: which detector reads the cards."""
    if choice.own_words is not None:
        return choice.own_words[1]
    if choice.name == "model":
        return "Cards read by the trained detector."
    return "No card detector: tap the cards."


def learning_words(note: LearningNote) -> str:
    """What learning the deck in play did, for the console."""
    if isinstance(note, LearningFailed):
        return {LearningFault.NOT_USED: "A profile learnt in play was not used: ",
                LearningFault.NOT_KEPT: "The deck learnt in play could not be kept: ",
                }[note.fault] + note.problem
    text = f"Deck learning: hand {note.hand} taught {note.patches} patches"
    refit = note.refit
    if refit is not None:
        what = "its network learnt again" if refit.deep else "a refit"
        return (text + f"; {what} on {refit.cards} cards named {refit.after} of the last "
                f"hand's {refit.checked} right (the deck in use {refit.before}): "
                + ("read with it now." if refit.adopted else "kept the deck in use."))
    if note.too_few:
        return text + f"; {note.cards} cards so far, too few to refit yet."
    return text + f"; {note.cards} cards so far: a refit waits for another hand to be checked on."


# ------------------------------------------------------------------ the director

def director_problem_words(problem: DirectorProblem) -> str:
    """Why the director could not be asked, or its answer not used, in one sentence."""
    at = f" at {problem.server}" if problem.server else ""
    return {
        DirectorFault.UNREACHABLE: f"Cannot reach the director{at}: {problem.reason}",
        DirectorFault.NO_ANSWER: f"The director did not say: {problem.reason}.",
        DirectorFault.SAID_NO: f"The director said no: {problem.reason}.",
        DirectorFault.NOT_UNDERSTOOD: "The director's answer about the deck was not "
                                      "understood.",
        DirectorFault.NOT_A_CODE: "This QR code is not a table pairing code.",
        DirectorFault.BAD_FINGERPRINT: "This QR code's certificate fingerprint is damaged: "
                                       "show the kiosk the code again.",
        DirectorFault.OTHER_TABLE: "The director paired a different table than the code "
                                   "says.",
        DirectorFault.DAMAGED_FILE: "the file arrived damaged (its digest differs).",
        DirectorFault.UNUSABLE_PROFILE: problem.reason,
    }[problem.fault]


# ------------------------------------------------------------------ the rule books

PROFILE_NAMES = {
    "alberta55": "Alberta 55+",
    "general": "General rules",
    "ssc": "SSC",
    "tournament": "Tournament",
}
#: what happens when a game's clock runs out, under every timed rule book
AT_TIME = ("Time is up: finish the hand being played, then the game ends with the score as "
           "it stands.")


def profile_name(profile: str) -> str:
    """A rule book's name on the set-up screen."""
    return PROFILE_NAMES.get(profile, profile)


def profile_notes(info: referee.ProfileInfo) -> str:
    """What sets a rule book apart, in short sentences."""
    p = info.rules
    notes = []
    if p.stick_the_dealer:
        notes.append("Stick the dealer.")
    if p.dealer_needs_natural_trump:
        notes.append("The dealer needs a natural trump to pick up.")
    if p.dealer_partner_order_forces_alone:
        notes.append("The dealer's partner who orders it up plays alone.")
    if p.game_minutes:
        notes.append(f"{p.game_minutes}-minute games.")
    return " ".join(notes)


# ------------------------------------------------------------------ the rules' answers


def refusal_words(refusal: Refusal) -> str:
    """The engine's refusal in players' words, made from its facts: seats by name,
    cards in words. A refusal without facts (a malformed record) is said as written.

    >>> refusal_words(Refusal(play=PlayFault.TWICE_IN_TRICK, seats=(Seat.S,), trick=2))
    'South plays twice in trick 2.'
    """
    if refusal.play is not None:
        text = _play_refusal(refusal, refusal.play)
    elif refusal.bid is not None:
        text = _bid_refusal(refusal, refusal.bid)
    else:
        text = refusal.message
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _the(card: Card | None) -> str:
    """'the ace of spades'; a card outside the euchre pack by its code, as the engine
    wrote it."""
    assert card is not None
    return f"the {card.words}" if card.is_euchre else str(card)


def _play_refusal(r: Refusal, fault: PlayFault) -> str:
    who = r.seats[0].words if r.seats else ""
    other = r.seats[1].words if len(r.seats) > 1 else ""
    plays = f"{who} plays {_the(r.card)}" if r.card is not None else ""
    words: dict[PlayFault, Callable[[], str]] = {
        PlayFault.PASSED_OUT: lambda: "no trump was made: the hand was passed out",
        PlayFault.BEFORE_TRUMP: lambda: (f"{plays} before trump is made" if plays
                                         else "trump is not made yet"),
        PlayFault.AFTER_THE_HAND: lambda: f"{plays} after all five tricks",
        PlayFault.NOT_EUCHRE: lambda: f"{plays}, which is not a euchre card",
        PlayFault.SITS_OUT: lambda: f"{who} plays, but sits out ({other} plays alone)",
        PlayFault.TWICE_IN_TRICK: lambda: f"{who} plays twice in trick {r.trick}",
        PlayFault.CARD_TWICE: lambda: (f"{_the(r.card)} is played twice (by {who} in trick "
                                       f"{r.trick})"),
        PlayFault.TURNED_DOWN: lambda: f"{plays}, the turn-up turned down in the kitty",
        PlayFault.DISCARD: lambda: f"{plays}, the dealer's discard",
        PlayFault.TAKEN_UP: lambda: f"{plays}, taken up by {other}",
        PlayFault.DEALT_TO: lambda: f"{plays}, dealt to {other}",
        PlayFault.NOT_IN_HAND: lambda: f"{plays}, which is not in {who}'s hand",
        PlayFault.NO_NATURAL_TRUMP: lambda: (
            f"{who} (dealer) took up {_the(r.card)} without a natural "
            f"{'' if r.card is None else r.card.suit} (dealt "
            f"{' '.join(_the(c) for c in r.cards)}, discarded {_the(r.discard)})"),
    }
    return words[fault]()


def _bid_refusal(r: Refusal, fault: BidFault) -> str:
    who = r.seats[0].words if r.seats else ""
    words: dict[BidFault, Callable[[], str]] = {
        BidFault.BIDDING_OVER: lambda: (
            f"bidding is over ({'passed out' if r.passed_out else 'trump is made'}),"
            f" {who} cannot bid"),
        BidFault.NAME_IN_ROUND_ONE: lambda: (
            f"{who} names a suit in round one (round one is 'pass' or 'order')"),
        BidFault.ORDER_IN_ROUND_TWO: lambda: (
            f"{who} orders up in round two, after the turn-up was turned down"),
        BidFault.SIDE_BARRED: lambda: (
            f"{who}'s side may not make trump after its void declaration"),
        BidFault.STICK_THE_DEALER: lambda: (
            f"stick the dealer: {who} (dealer) must name trump, not pass"),
        BidFault.TURNED_DOWN_SUIT: lambda: (
            f"{who} names {r.suit}, the turned-down suit, which cannot be trump"),
        BidFault.NO_NATURAL_TRUMP: lambda: (
            f"{who} (dealer) takes up {_the(r.card)} without a natural {r.suit}"),
    }
    return words[fault]()


def bid_label(option: BidOption) -> str:
    """A bid's button: 'Pass', 'Order it up' ('Pick it up' for the dealer), 'Hearts
    alone'."""
    if option.call is Call.PASS:
        return "Pass"
    if option.call is Call.ORDER:
        word = "Pick it up" if option.by_dealer else "Order it up"
    else:
        word = suit_name(option.suit).capitalize()
    return f"{word} alone" if option.alone else word


_NO_SUCH_BID = "That bid is not possible now."


def bid_reason(option: BidOption) -> str:
    """Why a bid cannot be tapped now, in plain words ('' when it can)."""
    turned_down = suit_name(option.turned_down).capitalize()
    if option.bar is None:
        return ""
    if option.bar is BidBar.REFUSED and option.refusal is not None:
        return refusal_words(option.refusal)
    return {
        BidBar.DEALER_MUST_NAME: "Stick the dealer: everyone else passed, so the dealer "
                                 "must name a suit.",
        BidBar.SIDE_BARRED: "Your side made a void call this hand, so it can no longer "
                            "make trump.",
        BidBar.TURNED_DOWN: f"{turned_down} were turned down, so they cannot be trump now.",
        BidBar.NAMING_VOID: f"{turned_down} were turned down: naming them is void and your "
                            "side could no longer make trump.",
        BidBar.MUST_GO_ALONE: "The dealer's partner who orders it up must play alone: "
                              "tap 'Order it up alone'.",
    }.get(option.bar, _NO_SUCH_BID)


def hint_words(hint: BidHint | None, turn_up: Card | None) -> str:
    """A reminder for the bidder the camera cannot check ('' for none)."""
    if hint is None or turn_up is None:
        return ""
    suit = suit_name(turn_up.suit)
    if hint is BidHint.NATURAL_TRUMP:
        return (f"The dealer may pick it up only with a natural {suit[:-1]} in hand "
                "(the left bower does not count).")
    return f"{suit.capitalize()} were turned down and cannot be trump."


def refused_words(refused: IntentRefused) -> str:
    """Why a tap was not taken, in the players' words.

    >>> refused_words(IntentRefused(Why.TRICK_FINISHED, trick=2))
    'Trick 2 is finished: a card in it changes only when the players agree to what the change does.'
    """
    return _REFUSED_WORDS[refused.why](refused)


_REFUSED_WORDS: dict[Why, Callable[[IntentRefused], str]] = {
    Why.GAME_STARTED: lambda r: "The game has started; the set-up can no longer change.",
    Why.BAD_SETUP: lambda r: setup_words(r.setup) if r.setup else "That set-up cannot be played.",
    Why.UNKNOWN_RULES: lambda r: f"Unknown rules {r.detail!r}.",
    Why.NO_SETUP: lambda r: "Set up the table first.",
    Why.ALREADY_STARTED: lambda r: "The game has already started.",
    Why.UNKNOWN_SEAT: lambda r: f"Unknown seat {r.detail!r}.",
    Why.UNKNOWN_SIDE: lambda r: f"Unknown side {r.detail!r}.",
    Why.NOT_A_CARD: lambda r: r.detail,
    Why.BIDDING_STARTED: lambda r: "Bidding has started; the turn-up can no longer change.",
    Why.NOBODY_TO_BID: lambda r: "Nobody is to bid now.",
    Why.NO_SUCH_BID: lambda r: _NO_SUCH_BID,
    Why.BID_BARRED: lambda r: bid_reason(r.bid) if r.bid else _NO_SUCH_BID,
    Why.NOTHING_TO_UNDO: lambda r: "There is nothing to undo.",
    Why.CARDS_DOWN: lambda r: "There is nothing to undo: cards are already on the table.",
    Why.NO_CARDS_YET: lambda r: "There are no cards to correct yet.",
    Why.TRICK_FINISHED: lambda r: (f"Trick {r.trick} is finished: a card in it changes only "
                                   "when the players agree to what the change does."),
    Why.RULES_REFUSE: lambda r: (refusal_words(r.refusal) if r.refusal
                                 else "The rules do not allow it."),
    Why.NO_FIX_TO_UNDO: lambda r: "There is no change of a card to undo.",
    Why.NOTHING_TO_ASK: lambda r: "The camera has nothing to ask about.",
    Why.NO_RENEGE: lambda r: "There is no renege to settle.",
    Why.NOT_A_CHOICE: lambda r: f"{r.detail!r} is not a choice here.",
    Why.DIRECTOR_NOT_CALLED: lambda r: "The director has not been called.",
    Why.FINISH_THE_HAND: lambda r: "Finish this hand first.",
    Why.GAME_OVER: lambda r: "The game is over: end it and confirm the score.",
    Why.GAME_NOT_OVER: lambda r: "The game is not over yet.",
    Why.NO_AGREEMENT: lambda r: "There is no agreement to take back.",
    Why.FINISH_THE_GAME: lambda r: "Finish and confirm this game first.",
    Why.NOT_TIME_TO_BID: lambda r: "This is not the time to bid.",
    Why.NOT_NOW: lambda r: "Not now.",
}


def setup_words(fault: SetupFault) -> str:
    """What to change in a set-up the table cannot play."""
    return {
        SetupFault.TABLE: "The table number starts at 1.",
        SetupFault.ROUND: "The round number starts at 1.",
        SetupFault.POINTS: f"Points to win must be between 1 and {MOST_POINTS}.",
        SetupFault.MINUTES: f"The time limit must be between 0 (none) and {MOST_MINUTES} "
                            "minutes.",
        SetupFault.SAME_NAMES: "The two teams need different names.",
    }[fault]


def notice_words(notice: Notice) -> str:
    """A notice to the players in words they can act on."""
    return _NOTICE_WORDS[notice.about](notice)


def _need(value: _Fact | None) -> _Fact:
    assert value is not None, "a notice lacks a fact its words need"
    return value


def _refused(notice: Notice) -> str:
    assert notice.refusal is not None, "a refusal's notice lacks the refusal"
    return refusal_words(notice.refusal)


_NOTICE_WORDS: dict[NoticeAbout, Callable[[Notice], str]] = {
    NoticeAbout.READER: lambda n: n.words,
    NoticeAbout.REFUSED: lambda n: (
        _refused(n) + " Tap the card to fix it if the camera misread it."),
    NoticeAbout.UNNAMED: lambda n: wording.unnamed_card(_need(n.seat)),
    NoticeAbout.READ_AGAIN: lambda n: wording.read_again(_need(n.seat), _need(n.card),
                                                         _need(n.other)),
    NoticeAbout.BEFORE_LEAD: lambda n: wording.before_the_lead(_need(n.seat), _need(n.leader)),
    NoticeAbout.REREAD_REFUSED: lambda n: wording.reread_refused(
        _need(n.seat), _need(n.trick), _need(n.card), _refused(n)),
}


__all__ = ["SIDE_NAMES", "SUIT_NAMES", "card_label", "card_words", "plain", "seat_name",
           "suit_name"]
