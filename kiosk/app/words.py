"""Everything the kiosk says to players, in plain words: cards by name, never by code.

The rules engine and the trick reader speak in card codes (`9D`, `TS`) and
seat letters; a player reads "the nine of diamonds" and "East". Every sentence
a screen shows passes through here, and `plain()` is the last guard: any card
code left in a message becomes words.
"""

from __future__ import annotations

import re
from typing import Any

from kiosk.rules.cards import Card, Seat, Team
from kiosk.table import referee
from kiosk.table.fixing import FixPreview
from kiosk.table.referee import SIDE_NAMES, SUIT_NAMES, seat_name
from kiosk.table.turn_up import KittyDoubt

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_LABELS = {"T": "10"}


def card_label(card: str) -> str:
    """`TH` -> `10♥`: the short form drawn on a card face (never in running text)."""
    return f"{RANK_LABELS.get(card[0], card[0])}{SUIT_SYMBOLS[card[1]]}"


def card_words(card: str) -> str:
    """`TH` -> 'ten of hearts' (for sentences)."""
    return referee.card_words(card)


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
    "pass": ("{who}: pass", "Undo {who}'s pass"),
    "order": ("{who}: order it up{alone}", "Undo: {who} ordered it up{alone}"),
    "name": ("{who}: {suit}{alone}", "Undo: {who} named {suit}{alone}"),
}


def _bid_text(bid: dict[str, Any], form: int) -> str:
    return _BID_FORMS[bid["call"]][form].format(
        who=seat_name(bid["seat"]), alone=" alone" if bid.get("alone") else "",
        suit=SUIT_NAMES.get(str(bid.get("suit")), ""))


def bid_words(bid: dict[str, Any]) -> str:
    """One bid as the history shows it: 'West: order it up alone'."""
    return _bid_text(bid, 0)


def undo_words(step: tuple[str, dict[str, Any]] | None) -> str:
    """What the Undo button takes back, on the button itself ('' when nothing)."""
    if step is None:
        return ""
    kind, data = step
    if kind == "start":
        return f"Undo: {seat_name(data['dealer'])} deals"
    if kind == "turn_up":
        return "Not this card" if data.get("source") == "camera" else "Undo the turn-up"
    return _bid_text(data, 1)


def camera_turn_up_words(card: str) -> str:
    """The turn-up the camera read, put to the players: their first bid agrees with it.

    >>> camera_turn_up_words("9H")
    "Turn-up: nine of hearts. Right? Then just bid. If not, tap 'Not this card'."
    """
    return f"Turn-up: {card_words(card)}. Right? Then just bid. If not, tap 'Not this card'."


def kitty_doubt_words(doubt: KittyDoubt, dealer: str) -> str:
    """What the camera saw of the turn-up, against the bids tapped, as a question with
    what to do (short: it shares the live screen's notice box).

    >>> kitty_doubt_words(KittyDoubt(seen="taken"), "N")
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
        return f"{change} The rules refuse it: {plain(preview.problem)}"
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


def undo_fix_words(trick: int, seat: str, was: str) -> str:
    """The Undo button after a fix of a finished trick's card: short, to fit a small
    screen's column (the correction screen's log says which card it was)."""
    return "Undo the change"


__all__ = ["SIDE_NAMES", "SUIT_NAMES", "card_label", "card_words", "plain", "seat_name"]
