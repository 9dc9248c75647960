"""The game told as plain text, one line per thing that happened, as it happens.

Why: a kiosk started where nobody can see a screen (a server, CI, an SSH
session: `kiosk run` with no display) still has to show that the whole loop
works. The narrator listens to the table session like a screen does and
prints each new fact once: the deal, the turn-up, every bid, every card read
in each seat, each trick's winner, the hand's score, the game's end and both
teams' agreement. No Kivy: it is tested with a plain session.

Each fact has a key; a key already printed is never printed again, so the
narrator can look at the whole session after every change (even a replayed
journal) without repeating itself.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.app.presenter import TablePresenter
from kiosk.app.words import (
    bid_words,
    card_words,
    notice_words,
    result_words,
    seat_name,
    suit_name,
)
from kiosk.table.phases import Phase
from kiosk.table.referee import HandPhase
from kiosk.table.session import TableSession

Write = Callable[[str], None]


def _print(line: str) -> None:
    print(line, flush=True)


class Narrator:
    """Prints what a player would see on the screen, as lines of text."""

    def __init__(self, session: TableSession, write: Write = _print) -> None:
        self.session = session
        self.write = write
        self._said: set[tuple[object, ...]] = set()
        self._presenter = TablePresenter(session)  # for team names and wording only
        session.subscribe(lambda _s: self.update())

    def _say(self, key: tuple[object, ...], line: str) -> None:
        if key not in self._said:
            self._said.add(key)
            self.write(line)

    def update(self) -> None:
        """Print every fact of the session not printed yet, in the order of play."""
        s = self.session
        setup = s.setup
        if setup is None:
            return
        teams = self._presenter.teams()
        self._say(("setup",), (
            f"Table {setup.table}{', ' + setup.tournament if setup.tournament else ''}: "
            f"{teams['NS']} (North-South) against {teams['EW']} (East-West), "
            f"{setup.profile} rules, {setup.points_to_win} point"
            f"{'' if setup.points_to_win == 1 else 's'} to win"))
        self._hand(teams)
        self._game_end(teams)

    def _hand(self, teams: dict[str, str]) -> None:
        """The hand in play: its deal, bids, tricks, notices and score."""
        s = self.session
        hand = s.hand
        if hand is None or hand.view is None:
            return
        n = hand.number
        view = hand.view
        self._say(("deal", n), f"Hand {n}: {seat_name(hand.dealer)} deals.")
        if view.turn_up:
            self._say(("turn_up", n), f"  Turn-up: {card_words(view.turn_up)} "
                                      f"({view.turn_up}).")
        for i, bid in enumerate(hand.bids):
            self._say(("bid", n, i), f"  Bid: {bid_words(bid)}")
        if view.trump and view.maker and view.phase is not HandPhase.BIDDING:
            alone = ", alone" if view.alone else ""
            self._say(("trump", n), f"  Trump is {suit_name(view.trump)}: "
                                    f"{seat_name(view.maker)} made it{alone}.")
        for t, trick in enumerate(view.tricks, start=1):
            for seat, card in trick.cards:
                self._say(("card", n, t, seat, card),
                          f"  Trick {t}: {seat_name(seat)} played {card} "
                          f"({card_words(card)}).")
            if trick.winner is not None:
                won = view.tricks_won
                self._say(("won", n, t), (
                    f"  Trick {t} to {seat_name(trick.winner)}. Tricks: "
                    f"{teams['NS']} {won['NS']}, {teams['EW']} {won['EW']}."))
        for notice in s.notices:
            if notice.hand == n:
                self._say(("notice", notice.seq), f"  Camera: {notice_words(notice)}")
        asked = hand.suggestion
        if asked is not None and asked.twin:  # no renege before its cards are settled
            self._say(("twin", n, asked.trick, asked.seat), (
                f"  Asked: which card did {seat_name(asked.seat)} play in trick "
                f"{asked.trick}, the {card_words(asked.was)} or the {card_words(asked.card)}?"))
        elif view.renege is not None:
            self._say(("renege", n), f"  Renege: {seat_name(view.renege.seat)} did not "
                                     f"follow suit in trick {view.renege.trick}.")
        points = s.current_points()
        if s.phase == Phase.HAND_OVER and points is not None:
            self._say(("over", n), (
                f"Hand {n} over: {result_words(view, points, teams)}. "
                f"Score: {teams['NS']} {s.scores['NS']}, {teams['EW']} {s.scores['EW']}."))

    def _game_end(self, teams: dict[str, str]) -> None:
        """The game's end and each team's agreement."""
        s = self.session
        if s.phase in (Phase.GAME_OVER, Phase.CONFIRMED):
            scores = s.scores
            self._say(("game_over",), (
                f"Game over: {self._presenter.game_end_view().headline} "
                f"({teams['NS']} {scores['NS']}, {teams['EW']} {scores['EW']})."))
            for side in ("NS", "EW"):
                if side in s.confirmed:
                    self._say(("confirm", side), f"  {teams[side]} agree with the score.")
        if s.phase == Phase.CONFIRMED:
            self._say(("confirmed",), "Both teams agreed: the result is saved for the "
                                      "director.")
