"""What each screen shows, made from the table session and the presenter's own state (the
taps waiting for a yes, the screen the players opened): one function per screen's view,
each a frozen value of `kiosk.app.views`. The presenter (kiosk.app.presenter) hands them
out and turns taps into intents; the words come from here and `kiosk.app.words`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from kiosk.app import words
from kiosk.app.views import (
    BiddingView,
    ButtonView,
    CorrectionView,
    GameEndView,
    LiveView,
    RenegeView,
    ScoreView,
    SeatView,
)
from kiosk.app.words import SIDE_NAMES, SUIT_SYMBOLS, card_words, plain, seat_name, suit_name
from kiosk.rules.cards import Card, Seat
from kiosk.table import fixing, referee
from kiosk.table.phases import Phase
from kiosk.table.referee import BidBar, BidHint
from kiosk.table.turn_up import kitty_doubt

if TYPE_CHECKING:
    from kiosk.app.presenter import TablePresenter


def _short_reason(option: referee.BidOption, reason: str) -> str:
    """A barred bid's reason (``reason``, its button's), short enough for a small screen's
    message box: naming the suit turned down is said as what it means for the button (it
    cannot be tapped)."""
    if option.bar is BidBar.NAMING_VOID:
        return words.bid_reason(replace(option, bar=BidBar.TURNED_DOWN))
    return reason


def bidding_view(p: TablePresenter) -> BiddingView:
    """The bidding screen: the turn-up, whose bid it is, and every call, allowed or why not."""
    session = p.session
    hand = session.hand
    assert hand is not None and hand.view is not None
    view = hand.view
    options = session.bid_options()
    why = [words.bid_reason(o) for o in options]
    buttons = tuple(ButtonView(words.bid_label(o), o.allowed, why[i], i)
                    for i, o in enumerate(options))
    history = tuple(words.bid_words(b) for b in hand.bids)
    # the reasons, each once; a shared screen says whose side, never 'your side'
    side = p.teams()[str(view.to_bid.team)] if view.to_bid else ""
    reasons = [_short_reason(o, why[i]).replace("Your side", side).replace("your side", side)
               for i, o in enumerate(options) if not o.allowed]
    explain = " ".join(dict.fromkeys(r for r in reasons if r))
    hint = words.hint_words(view.hint, view.turn_up)
    if view.hint is BidHint.TURNED_DOWN and any(
            o.bar in (BidBar.TURNED_DOWN, BidBar.NAMING_VOID) for o in options):
        hint = ""  # the reason already says it (the suit turned down)
    to_bid = seat_name(view.to_bid)
    if view.bidding_round == 1 and view.turn_up is None:
        title = "Tap the turn-up card below"
    else:
        title = f"{to_bid} to bid"
    return BiddingView(
        title=title, dealer=f"{seat_name(hand.dealer)} dealt",
        turn_up=_code(view.turn_up),
        turn_up_words=card_words(view.turn_up) if view.turn_up else "not seen yet",
        round=view.bidding_round, buttons=buttons, history=history, explain=explain,
        hint=hint, teams=p.teams(), scores=session.scores,
        undo=words.undo_words(session.last_step()),
        director_called=hand.director_called,
        turn_up_note=_turn_up_note(p),
    )


def _turn_up_note(p: TablePresenter) -> str:
    """The turn-up the camera read, put to the players until the first bid agrees;
    then what the camera saw of it (taken, turned down) where the bids disagree."""
    hand = p.session.hand
    assert hand is not None
    if hand.turn_up and hand.turn_up_source == "camera" and not hand.bids:
        return words.camera_turn_up_words(hand.turn_up)
    doubt = kitty_doubt(hand.kitty_seen, hand.bids) if hand.kitty_seen is not None else None
    return words.kitty_doubt_words(doubt, hand.dealer) if doubt else ""


def live_view(p: TablePresenter) -> LiveView:
    """The live screen: the trick on the table, whose turn it is, and what the players are told."""
    session = p.session
    hand = session.hand
    assert hand is not None and hand.view is not None
    view = hand.view
    current = view.tricks[-1] if view.tricks else None
    done = sum(1 for t in view.tricks if t.winner is not None)
    on_table: dict[Seat, Card] = {}
    won_by = ""
    if current is not None and (current.winner is None or hand.cleared < done):
        on_table = dict(current.cards)  # an open trick, or a full one not yet raked in
        if current.winner is not None:
            won_by = f"Trick {done} to {seat_name(current.winner)}"
    seats = tuple(_seat_view(s, on_table.get(s) or hand.pending.get(s), view) for s in Seat)
    if session.phase == Phase.HAND_OVER:
        title = "Hand over"
    elif won_by:
        title = won_by
    elif view.to_play:
        title = f"{seat_name(view.to_play)} to play"
    else:
        title = "Waiting for the cards"
    trump = (f"Trump: {suit_name(view.trump)} {SUIT_SYMBOLS[str(view.trump)]}" if view.trump
             else "")
    contract = ""
    if view.maker:
        contract = f"{seat_name(view.maker)} made it" + (" and plays alone" if view.alone
                                                          else "")
    fresh = [n for n in session.notices[-2:]
             if n.hand == hand.number and n.seq >= hand.changed_at]
    notices = tuple(plain(words.notice_words(n)) for n in fresh)
    if not any(t.winner for t in view.tricks) and _turn_up_note(p):
        notices = (*notices, _turn_up_note(p))  # until the first trick is won
    if view.problem:
        notices = (*notices, plain(words.refusal_words(view.problem)))
    return LiveView(title=title, trump=trump, contract=contract, seats=seats,
                    tricks=dict(view.tricks_won), teams=p.teams(),
                    trick_number=min(5, view.trick_number), notices=notices,
                    scores=session.scores, clock=p.clock(), won_by=won_by,
                    camera=p.camera, trump_suit=str(view.trump or ""),
                    director_called=hand.director_called,
                    turn=seat_name(view.to_play) if view.to_play and not won_by else "",
                    undo=words.undo_words(session.last_step()),
                    recalibrate=any(n.kind == "camera_moved" for n in fresh),
                    current_trick=trick_to_tap(view, won_by),
                    ask=_suggestion_words(p), camera_note=p.camera_note(),
                    ask_note=_ask_note(p))


def _seat_view(seat: Seat, card: Card | None, view: referee.HandView) -> SeatView:
    return SeatView(seat=str(seat), name=seat.words, card=_code(card),
                    on_turn=view.to_play is seat, sitting_out=view.sitting_out is seat)


def _ask_note(p: TablePresenter) -> str:
    hand = p.session.hand
    if hand is None or hand.suggestion is None:
        return ""
    return f"Check trick {hand.suggestion.trick}: tap 'Check the card'."


def trick_to_tap(view: referee.HandView, won_by: str) -> int:
    """The trick a tap on a seat's place adds to or fixes: the open trick, or, when
    a finished trick is still shown, the next one."""
    if not view.tricks:
        return 1
    if view.tricks[-1].winner is not None or won_by:
        return min(5, len(view.tricks) + 1)
    return len(view.tricks)


def _suggestion_words(p: TablePresenter) -> str:
    hand = p.session.hand
    if hand is None or hand.suggestion is None:
        return ""
    s = hand.suggestion
    if s.twin:  # a renege hangs on this card: the players say which it is first
        return (f"Before a renege is called: is {seat_name(s.seat)}'s card in trick "
                f"{s.trick} the {card_words(s.was)} or the {card_words(s.card)}?")
    return (f"The camera now reads {seat_name(s.seat)}'s card in trick {s.trick} as the "
            f"{card_words(s.card)}; the record has the {card_words(s.was)}.")


def renege_view(p: TablePresenter) -> RenegeView:
    """The renege screen: the proven renege told as a story, and the ways to settle it."""
    session = p.session
    hand = session.hand
    assert hand is not None and hand.view is not None
    r = hand.view.renege
    assert r is not None
    who = seat_name(r.seat)
    led = suit_name(r.led_suit) or "the suit led"
    story = [f"In trick {r.trick}, {led} were led and {who} played "
             + (f"the {card_words(r.failed_card)}." if r.failed_card else "another suit.")]
    if r.proof_card:
        story.append(f"In trick {r.proven_at}, {who} played the {card_words(r.proof_card)}: "
                     f"{who} still had {led} and did not follow suit.")
    teams = p.teams()
    offended = r.seat.team.other  # the side that did not renege chooses
    found = session.renege_options()
    options = tuple(ButtonView(words.renege_option_words(o.choice, o.points, teams,
                                                         offended), True, "", i)
                    for i, o in enumerate(found))
    if len(found) > 1:
        chooser = (f"{teams[offended]} ({SIDE_NAMES[offended]}) choose, "
                   f"because {who} reneged:")
    else:
        chooser = "The rule book gives one penalty: both teams, tap to go on."
    frames = _frames(p, hand.number, r)
    confirm = ""
    if p.pending_renege is not None and p.pending_renege < len(options):
        confirm = options[p.pending_renege].label
    return RenegeView(headline=f"Renege: {who} did not follow suit", story=tuple(story),
                      failed_card=_code(r.failed_card), proof_card=_code(r.proof_card),
                      trick=r.trick,
                      proven_at=r.proven_at, frames=frames, options=options,
                      director_called=hand.director_called, chooser=chooser,
                      confirm=confirm)


def _frames(p: TablePresenter, hand: int, r: referee.ProvenRenege) -> tuple[str, ...]:
    """Saved camera frames of the two tricks, where the frame source kept them."""
    paths = [p.session.frame_path(hand, t, r.seat) for t in (r.trick, r.proven_at)]
    return tuple(str(p) for p in paths if p is not None and p.exists())


def correction_view(p: TablePresenter) -> CorrectionView:
    """The correction screen: every trick's places, the chosen one, and the fixes made."""
    hand = p.session.hand
    assert hand is not None and hand.view is not None
    rows = []
    for number, trick in enumerate(hand.view.tricks, start=1):
        cards = dict(trick.cards)
        rows.append((number, tuple((str(s), _code(cards.get(s))) for s in Seat
                                   if s is not hand.view.sitting_out)))
    if hand.view.to_play and (not rows or all(c for _s, c in rows[-1][1])):
        number = len(rows) + 1
        rows.append((number, tuple((str(s), None) for s in Seat
                                   if s is not hand.view.sitting_out)))
    if p.selected:
        t, s = p.selected
        if fixing.card_in(hand, t, s) is None:
            prompt = f"Trick {t}, {seat_name(s)}: tap the card {seat_name(s)} played"
        elif fixing.is_finished(hand, t):
            prompt = f"Trick {t} is finished. {seat_name(s)}: tap the right card"
        else:
            prompt = f"Trick {t}, {seat_name(s)}: tap the right card"
    else:
        prompt = "Tap the wrong card, or an empty place"
    log = tuple(
        f"Trick {c.trick}, {seat_name(c.seat)}: "
        + (f"{card_words(c.card)} kept" if c.was == c.card
           else f"back to the {card_words(c.card)}" if c.undo_of
           else f"{card_words(c.was)} changed to {card_words(c.card)}" if c.was
           else f"{card_words(c.card)} added")
        for c in p.session.corrections if c.hand == hand.number
    )
    question = ""
    if p.pending_fix is not None:
        question = words.fix_words(p.session.fix_preview(*p.pending_fix))
    fix = p.session.last_fix()
    undo = words.undo_fix_words(fix.trick, fix.seat, fix.was) if fix and fix.was else ""
    selected = None if p.selected is None else (p.selected[0], str(p.selected[1]))
    return CorrectionView(rows=tuple(rows), selected=selected, prompt=prompt,
                          log=log[-4:], question=question, undo=undo)


def _code(card: Card | None) -> str | None:
    """A card as the screens' views carry it (its code), or None."""
    return None if card is None else str(card)


def score_view(p: TablePresenter) -> ScoreView:
    """The score screen: the score, the hand's result, the clock, and whether to deal on."""
    session = p.session
    setup = session.setup
    assert setup is not None
    teams = p.teams()
    hand = session.hand
    summary = ""
    points = session.current_points()
    if hand is not None and hand.view is not None and points is not None:
        summary = words.result_words(hand.view, points, teams)
    left = session.time_left()
    if left is None:
        clock_note = "No time limit"
    elif left > 0:
        clock_note = "Time left"
    else:
        clock_note = words.AT_TIME
    hands = tuple(
        f"Hand {h.number}: " + (", ".join(f"{teams[side]} {h.points[side]:+d}"
                                          for side in ("NS", "EW") if h.points.get(side))
                                or "new deal")
        for h in session.finished[-3:]
    )
    phase = session.phase
    return ScoreView(
        teams=teams, scores=session.scores, points_to_win=setup.points_to_win,
        hand_summary=summary, clock=p.clock(), clock_note=clock_note,
        can_next=phase == Phase.HAND_OVER and not session.game_can_end(),
        can_end=session.game_can_end(), hands=hands,
    )


def game_end_view(p: TablePresenter) -> GameEndView:
    """The game's end: the result, and each team's agreement with it."""
    session = p.session
    teams = p.teams()
    scores = session.scores
    if scores["NS"] == scores["EW"]:
        headline = f"A tie, {scores['NS']} to {scores['EW']}"
    else:
        win = "NS" if scores["NS"] > scores["EW"] else "EW"
        lose = "EW" if win == "NS" else "NS"
        headline = f"{teams[win]} win {scores[win]} to {scores[lose]}"
    confirmed = {side: side in session.confirmed for side in ("NS", "EW")}
    if session.submitted:
        note = _delivery(p)
    elif all(confirmed.values()):
        note = "Both teams agree. Waiting to send to the director."
    else:
        note = ("Each team taps its own button to agree with this score. If you do not "
                "agree, call the director.")
    question = ""
    if p.agreeing:
        question = f"{teams[p.agreeing]}: do you agree with this score?"
    return GameEndView(headline=headline, teams=teams, scores=scores, confirmed=confirmed,
                       sent=session.submitted, note=note, agreeing=p.agreeing,
                       question=question, director_called=session.director_called,
                       paired=p.paired())


def _delivery(p: TablePresenter) -> str:
    """Whether the director has the result yet, in plain words."""
    outbox = p.session.outbox
    item = outbox.item(p.session.game_id()) if outbox is not None else None
    if item is not None and item.state == "acknowledged":
        if item.answer.get("status") == "conflict":
            return ("The director has the result, but it does not match the director's "
                    "sheet: please call the director.")
        return "The director has the result. Thank you!"
    if item is not None and item.state == "rejected":
        return "The director refused the result: please call the director."
    return "Saved. It goes to the director as soon as the director can be reached."
