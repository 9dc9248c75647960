"""Flow 3 of ARCHITECTURE.md end to end, with the real parts and real sockets:

a game ends -> both teams confirm on the screen -> the result goes to the
outbox -> the director (retried until acknowledged, never counted twice) ->
the master sheet and the standings show it.

The director runs as `kiosk director` in a subprocess on 127.0.0.1 and is set
up through its own set-up form. The kiosk is the real table session with its
journal and outbox, driven through the app's presenter (no Kivy): it pairs
with the table's short code, takes its teams from the director, and plays a
whole game to 10 points from camera events (`CardPlayed`, `TrickCleared`)
and bidding taps. The deals are random but seeded, and every card comes from
a dealt hand and is legal, so the rules engine, fed the whole deal, scores
each hand independently of the session.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.app.presenter import TablePresenter
from kiosk.rules.bidding import Call
from kiosk.rules.cards import EUCHRE_DECK, Card, Seat, Suit
from kiosk.rules.profiles import get_profile
from kiosk.rules.record import HandRecord
from kiosk.rules.scoring import score_hand
from kiosk.rules.tricks import effective_suit, legal_plays
from kiosk.table.outbox import Outbox, urllib_transport
from kiosk.table.session import TableSession
from kiosk.vision.events import CardPlayed, TrickCleared

pytestmark = pytest.mark.slow  # starts the director (a few seconds)

TEAMS = ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal"]
PROFILE = "alberta55"
GAME_MINUTES = 25  # alberta55's own limit, as the director's form leaves it


class Clock:
    """The kiosk's wall clock, moved by the test (the game's 25 minutes pass in no time)."""

    def __init__(self) -> None:
        self.now = 1_763_776_800.0

    def __call__(self) -> float:
        return self.now


class ScriptedTable:
    """Four players with real cards: deals from a seeded shuffle, bids on their hands by
    tapping the bidding screen's buttons, plays legal cards the camera then reports."""

    def __init__(self, presenter: TablePresenter, clock: Clock, seed: int) -> None:
        self.presenter = presenter
        self.session = presenter.session
        self.clock = clock
        self.rng = random.Random(seed)
        self.t = 0.0  # the trick reader's own clock
        #: each hand as the engine would want it: with the deal and the discard
        self.records: list[dict[str, Any]] = []

    def see(self, event: CardPlayed | TrickCleared) -> None:
        self.clock.now += 2  # under a minute a hand: the game ends well inside 25
        assert self.presenter.apply(event, source="e2e-camera")

    def play_game(self, first_dealer: str = "N", max_hands: int = 60) -> None:
        assert self.presenter.start(first_dealer), self.presenter.message
        for _ in range(max_hands):
            self.play_hand()
            assert self.session.phase == "hand_over", self.session.phase
            if self.session.game_can_end():
                assert self.presenter.end_game(), self.presenter.message
                return
            assert self.presenter.next_hand(), self.presenter.message
        raise AssertionError(f"no side reached 10 in {max_hands} hands")

    def play_hand(self) -> None:
        session = self.session
        assert session.hand is not None and session.phase == "bidding"
        dealer = session.hand.dealer
        deck = list(EUCHRE_DECK)
        self.rng.shuffle(deck)
        hands = {seat: deck[5 * i: 5 * i + 5] for i, seat in enumerate(dealer.left.clockwise())}
        dealt = {seat: list(cards) for seat, cards in hands.items()}
        turn_up = deck[20]
        # The dealer turns the card up in front of them: the camera reports it.
        self.t += 1
        self.see(CardPlayed(dealer, turn_up, self.t, 0.97))
        assert session.hand.turn_up == turn_up
        self.bid_hand(hands, turn_up)
        view = session.hand.view
        assert view is not None
        record: dict[str, Any] = {"hands": {s.value: [str(c) for c in dealt[s]] for s in Seat}}
        if view.phase == "over":  # everyone passed twice: a new deal
            self.records.append(view.record | record)
            return
        trump = view.trump
        assert trump is not None
        if view.record["bids"][-1]["call"] == Call.ORDER.value:  # the dealer takes it up
            hand = hands[dealer] + [turn_up]
            others = [c for c in hand if effective_suit(c, trump) is not trump] or hand[:-1]
            discard = min(others, key=lambda c: c.rank.order)
            hand.remove(discard)
            hands[dealer] = hand
            record["discard"] = str(discard)
        while session.phase == "playing":
            view = session.hand.view
            seat = view.to_play
            assert seat is not None
            open_trick = view.tricks[-1] if view.tricks and view.tricks[-1].winner is None else None
            led = open_trick.cards[0][1] if open_trick else None
            card = self.rng.choice(legal_plays(hands[seat], led, trump))
            hands[seat].remove(card)
            self.t += 1
            self.see(CardPlayed(seat, card, self.t, 0.95))
            done = session.hand.view.tricks
            if done and done[-1].winner is not None:
                self.t += 1
                self.see(TrickCleared(self.t))
        self.records.append(session.hand.view.record | record)

    def bid_hand(self, hands: dict[Seat, list[Card]], turn_up: Card) -> None:
        """Each seat taps a button: order or name a suit it holds three trumps of, else pass."""
        session = self.session
        while session.phase == "bidding":
            view = session.hand.view
            seat = view.to_bid
            assert seat is not None
            wanted: tuple[Call, Suit | None] = (Call.PASS, None)
            if view.bidding_round == 1:
                cards = hands[seat] + ([turn_up] if seat is view.dealer else [])
                natural = any(c.suit is turn_up.suit for c in hands[seat])
                strong = sum(effective_suit(c, turn_up.suit) is turn_up.suit for c in cards)
                if strong >= 3 and (natural or seat is not Seat(view.dealer)):
                    wanted = (Call.ORDER, None)
            else:
                counts = {s: sum(effective_suit(c, s) is s for c in hands[seat])
                          for s in Suit if s is not turn_up.suit}
                best = max(counts, key=lambda s: counts[s])
                if counts[best] >= 3:
                    wanted = (Call.NAME, best)
            buttons = session.bid_options()
            # Not alone if the rules allow it, else alone (alberta55: the dealer's partner
            # who orders up must), else pass (or the first bid allowed).
            choice = next((i for alone in (False, True) for i, o in enumerate(buttons)
                           if o.allowed and (o.call, o.suit, o.alone) == (*wanted, alone)),
                          None)
            if choice is None:
                choice = next(i for i, o in enumerate(buttons) if o.allowed)
            assert self.presenter.tap_bid(choice), self.presenter.message


def engine_points(records: list[dict[str, Any]]) -> dict[str, int]:
    """The game's score from the rules engine alone, given every deal in full."""
    total = {"NS": 0, "EW": 0}
    for record in records:
        result = score_hand(HandRecord.from_json(record), get_profile(PROFILE))
        assert not result.reneges, record
        for side in total:
            total[side] += result.points[side]
    return total


class LosesFirstAnswer:
    """The outbox's transport with a fault: the first post reaches the director and is
    stored, then the director is SIGKILLed and the answer never arrives."""

    def __init__(self, on_first_post: Callable[[], None]) -> None:
        self.on_first_post = on_first_post
        self.posts: list[tuple[str, str]] = []  # (url, idempotency key) of every attempt
        self.killed = threading.Event()

    def __call__(self, url: str, body: bytes, headers: dict[str, str],
                 timeout: float) -> tuple[int, bytes]:
        self.posts.append((url, headers.get("Idempotency-Key", "")))
        answer = urllib_transport(url, body, headers, timeout)
        if not self.killed.is_set():
            assert answer[0] == 200, answer  # stored and committed before we lose it
            self.on_first_post()
            self.killed.set()
            raise ConnectionError("the director died before its answer reached the kiosk")
        return answer


def open_kiosk(folder: Path, clock: Clock, **outbox: Any) -> tuple[TableSession, Outbox]:
    """Start (or restart) the kiosk as `kiosk run` does: outbox, journal, resend if due."""
    box = Outbox(folder / "outbox.sqlite3", timeout=3.0, max_pause=1.0, **outbox)
    session = TableSession.open(folder / "journal.sqlite3", clock=clock, outbox=box)
    if session.phase == "confirmed" and not session.submitted:
        session.submit()  # kiosk/commands/run.py: a confirm the kiosk died before sending
    return session, box


def test_a_confirmed_game_reaches_the_master_sheet_exactly_once(director, tmp_path: Path) -> None:
    # -- the director sets up the tournament in its own form (loopback is trusted)
    director.post_setup({"name": "E2E Open", "profile": PROFILE, "format": "round_robin",
                         "entry": "teams", "entrants": "\n".join(TEAMS),
                         "points_to_win": "", "game_minutes": "", "tables": "", "rounds": ""})
    tables = director.get_json("/tables.json")["tables"]
    assert [t["table_no"] for t in tables] == [1, 2]
    code = next(t["code"] for t in tables if t["table_no"] == 1)
    seating = director.get_json("/seating.json")["seating"]
    round1 = next(g for g in seating if g["round"] == 1 and g["table"] == 1)

    # -- the kiosk pairs by the typed short code and takes its seating from the director
    kiosk = tmp_path / "kiosk"
    clock = Clock()
    session, outbox = open_kiosk(kiosk, clock)
    presenter = TablePresenter(session)
    assert presenter.pair(director.url, code.lower()), presenter.message
    setup = session.setup
    assert setup is not None
    assert (setup.tournament, setup.table, setup.round, setup.profile) == (
        "E2E Open", 1, 1, PROFILE)
    assert [setup.team_ns, setup.team_ew] == round1["teams"]
    assert (setup.points_to_win, setup.minutes) == (10, GAME_MINUTES)
    assert outbox.config()["server"] == director.url

    # -- a whole game to 10 from camera events and bidding taps
    table = ScriptedTable(presenter, clock, seed=1)
    table.play_game()
    scores = session.scores
    assert scores == engine_points(table.records)
    assert session.elapsed() < GAME_MINUTES * 60
    winner = max(scores, key=lambda side: scores[side])
    loser = "EW" if winner == "NS" else "NS"
    assert scores[winner] >= 10 > scores[loser]
    names = {side: setup.team_name(side) for side in ("NS", "EW")}

    # The players take their time at the game-end screen: the 25 minutes run out
    # before both have tapped. The game was still won on points.
    clock.now = session.started_at + GAME_MINUTES * 60 + 30
    director.kill()  # ... and the director's laptop is closed meanwhile
    assert all(presenter.confirm(side) and presenter.answer_agreement(True)
               for side in ("NS", "EW")), presenter.message
    assert session.phase == "confirmed" and session.submitted
    assert outbox.counts() == {"pending": 1, "acknowledged": 0, "rejected": 0}
    key = session.game_id()
    outbox.close()
    session.journal.close()

    # -- the kiosk restarts before anything was sent: the result is still there, once.
    # Its first post reaches the restarted director and is stored, then the director
    # dies before answering: the outbox must retry with the same key.
    director.start()
    faulty = LosesFirstAnswer(director.kill)
    session, outbox = open_kiosk(kiosk, clock, transport=faulty)
    assert session.phase == "confirmed" and session.submitted
    assert [i.key for i in outbox.pending()] == [key]
    outbox.start()
    assert faulty.killed.wait(15), outbox.pending()
    assert outbox.pending(), "nothing was acknowledged while the director was down"
    director.start()
    assert outbox.wait_until_sent(20), outbox.pending()
    item = outbox.item(key)
    assert item is not None and item.state == "acknowledged", item
    assert item.answer["replay"] is True and item.answer["status"] == "counted", item.answer
    assert len(faulty.posts) >= 2 and {k for _url, k in faulty.posts} == {key}
    outbox.close()
    session.journal.close()

    # -- the kiosk restarts after the acknowledgement: nothing is posted again
    again = LosesFirstAnswer(lambda: None)
    again.killed.set()
    session, outbox = open_kiosk(kiosk, clock, transport=again)
    assert session.phase == "confirmed" and session.submitted
    report = outbox.flush(force=True)
    assert (report.sent, again.posts) == (0, [])
    assert outbox.counts() == {"pending": 0, "acknowledged": 1, "rejected": 0}

    # -- the director shows exactly that game, counted once, on the sheet and standings
    game = director.get_json("/game/1/1.json")
    assert game["posts"] == 1 and game["status"] == "counted", game
    a, b = round1["teams"]
    expected = {names[winner]: 10, names[loser]: scores[loser]}  # the target, the actual
    assert game["sheet_points"] == [expected[a], expected[b]]
    assert game["points"] == [scores["NS"], scores["EW"]]  # as played, kept on the game
    assert game["ended_by"] == "points"

    sheet = director.get_json("/sheet.json")
    assert sheet["reported"] == 1 and sheet["attention"] == [] and sheet["strays"] == []
    reported = [g for g in sheet["games"] if g["sheet_points"] is not None]
    assert [(g["round"], g["table"]) for g in reported] == [(1, 1)]
    rows = {row["team"]: row for row in sheet["teams"]}
    win_cell, lose_cell = rows[names[winner]]["cells"][0], rows[names[loser]]["cells"][0]
    assert (win_cell["points"], win_cell["result"]) == (10, "W")
    assert (lose_cell["points"], lose_cell["result"]) == (scores[loser], "L")
    assert sheet["teams"][0]["team"] == names[winner]

    standings = director.get_json("/standings.json")["standings"]
    assert standings == sheet["standings"]["standings"]
    top = standings[0]
    assert (top["team"], top["rank"], top["wins"], top["losses"]) == (names[winner], 1, 1, 0)
    assert (top["points_for"], top["points_against"]) == (10, scores[loser])
    last = next(s for s in standings if s["team"] == names[loser])
    assert (last["wins"], last["losses"], last["points_for"]) == (0, 1, scores[loser])
    assert last["rank"] > top["rank"]

    results = [a for a in director.get_json("/audit.json")["audit"] if a["action"] == "result"]
    assert len(results) == 1, results

    # -- the same kiosk plays the table's next game: the director says who sits there now
    presenter = TablePresenter(session)
    assert presenter.new_game(), presenter.message
    round2 = next(g for g in seating if g["round"] == 2 and g["table"] == 1)
    setup = session.setup
    assert setup is not None and (setup.round, setup.table) == (2, 1)
    assert [setup.team_ns, setup.team_ew] == round2["teams"]
    table = ScriptedTable(presenter, clock, seed=5)
    table.play_game(first_dealer="E")
    scores2 = session.scores
    assert scores2 == engine_points(table.records)
    assert all(presenter.confirm(side) and presenter.answer_agreement(True)
               for side in ("EW", "NS")), presenter.message
    assert session.game_id() != key
    outbox.start()
    assert outbox.wait_until_sent(20), outbox.pending()
    assert outbox.counts() == {"pending": 0, "acknowledged": 2, "rejected": 0}
    outbox.close()
    session.journal.close()
    game2 = director.get_json("/game/2/1.json")
    assert (game2["status"], game2["posts"], game2["ended_by"]) == ("counted", 1, "points")
    assert game2["points"] == [scores2["NS"], scores2["EW"]]
    assert sorted(game2["sheet_points"]) == [min(scores2.values()), 10]
    sheet = director.get_json("/sheet.json")
    assert (sheet["reported"], sheet["attention"], sheet["strays"]) == (2, [], [])
    assert director.get_json("/game/1/1.json")["posts"] == 1
    results = [a for a in director.get_json("/audit.json")["audit"] if a["action"] == "result"]
    assert len(results) == 2, results
