"""Everything a table session holds after replaying a journal, as plain JSON data: two
equal states mean the same game, the same notices, the same questions and the same post
to the director. The recorded journals (tests/fixtures/journals) keep the state today's
code built from them; a journal written by an older kiosk must replay to it still."""

from __future__ import annotations

from enum import Enum
from typing import Any

from kiosk.app import words
from kiosk.rules.bidding import Bid
from kiosk.rules.cards import Card
from kiosk.table.entries import BidSpoken, GameStarted, TurnUpSeen
from kiosk.table.referee import HandView
from kiosk.table.session import TableSession


def plain(value: Any) -> Any:
    """JSON's own form of a value (tuples as lists, seats, suits and cards as their codes,
    a bid as the hand's log kept it)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Bid):
        return _bid(value)
    if isinstance(value, dict):
        return {_key(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return plain(vars(value))
    return value


def _key(key: Any) -> str:
    if isinstance(key, tuple):
        return ",".join(str(plain(k)) for k in key)
    return str(plain(key))


def _bid(bid: Bid) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": str(bid.seat), "call": bid.call.value, "alone": bid.alone}
    if bid.suit is not None:
        data["suit"] = str(bid.suit)
    return data


def _step(step: GameStarted | TurnUpSeen | BidSpoken | None) -> Any:
    """Undo's next step as the state has always written it: (kind, facts)."""
    if isinstance(step, GameStarted):
        return ["start", {"dealer": str(step.dealer)}]
    if isinstance(step, TurnUpSeen):
        return ["turn_up", {"card": str(step.card), "source": step.source}]
    if isinstance(step, BidSpoken):
        return ["bid", _bid(step.bid)]
    return None


def _summary(view: HandView) -> dict[str, Any]:
    return {
        "phase": view.phase, "to_bid": view.to_bid, "trump": view.trump,
        "maker": view.maker, "alone": view.alone, "to_play": view.to_play,
        "tricks": [[t.leader, list(t.cards), t.winner] for t in view.tricks],
        "tricks_won": view.tricks_won, "result": view.result,
        "renege": None if view.renege is None else view.renege.__dict__,
    }


def snapshot(session: TableSession) -> dict[str, Any]:
    """Everything a player could see, as plain data: equal snapshots mean the same game
    (the kill-and-restart tests compare these)."""
    hand = session.hand
    return plain({
        "phase": session.phase,
        "setup": session.setup.to_json() if session.setup else None,
        "scores": session.scores,
        "finished": [vars(h) for h in session.finished],
        "hand": None if hand is None else {
            "number": hand.number, "dealer": hand.dealer, "turn_up": hand.turn_up,
            "bids": hand.bids, "plays": hand.plays, "pending": hand.pending,
            "renege_choice": hand.renege_choice,
            "view": None if hand.view is None else _summary(hand.view),
        },
        "corrections": [vars(c) for c in session.corrections],
        "confirmed": sorted(session.confirmed),
        "journal": len(session.journal),
    })


def _renege_options(session: TableSession) -> list[Any]:
    from kiosk.table import referee

    hand = session.hand
    if hand is None or hand.view is None or hand.view.phase == "bidding":
        return []
    settled = referee.settle(hand.view, hand.renege_choice)
    return [[o.choice, o.points] for o in settled.options]


def state_of(session: TableSession) -> dict[str, Any]:
    hand = session.hand
    state: dict[str, Any] = {
        "snapshot": snapshot(session),
        "phase": str(session.phase),
        "game_number": session.game_number,
        "started_at": session.started_at,
        "first_dealer": session.first_dealer,
        "game_ended": session.game_ended,
        "submitted": session.submitted,
        "director_called": session.director_called,
        "notices": [[words.notice_words(n), n.seat, n.seq, n.hand, n.kind]
                    for n in session.notices],
        "markers": [d.to_json() | {"seq": d.seq} for d in session.markers.disputes],
        "readings": [[h, f] for h, f in session.markers.readings],
        "undoable": list(session.undoable),
        "reader_context": session.hand_brief(),
        "last_step": _step(session.last_step()),
        "scores": session.scores,
        "bid_options": [[o.call, o.suit, o.alone, words.bid_label(o), o.allowed,
                         words.bid_reason(o)] for o in session.bid_options()],
        "renege_options": _renege_options(session),
        "last_fix": session.last_fix(),
        "hand": None if hand is None else {
            "turn_up_source": hand.turn_up_source, "kitty_seen": hand.kitty_seen or "",
            "cleared": hand.cleared, "changed_at": hand.changed_at,
            "fixed": hand.fixed, "held_back": hand.held_back,
            "suggestion": None if hand.suggestion is None else [
                hand.suggestion.trick, hand.suggestion.seat, hand.suggestion.card,
                hand.suggestion.was, hand.suggestion.twin],
            "director_called": hand.director_called,
            "problem": None if hand.view is None or hand.view.problem is None
            else words.refusal_words(hand.view.problem),
            "record": None if hand.view is None else hand.view.record,
            "hint": None if hand.view is None
            else words.hint_words(hand.view.hint, hand.view.turn_up),
        },
        "result": session.game_result() if session.setup and session.started_at else None,
    }
    return plain(state)
