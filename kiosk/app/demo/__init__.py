"""The bundled demo: a hand record played out as the trick reader would report it.

With no camera, `kiosk run` still shows the whole loop: the demo turns the
bundled hand record (hand1.json, a real deal: see its `hands`) into a timed
script of `CardPlayed`/`TrickComplete`/`TrickCleared` events, plus the bids
the players would tap. Each later hand is the same deal turned one seat to
the left, so the deal passes round the table as it should.

No Kivy here: the app calls `DemoDriver.tick()` from a clock, the
kill-and-restart test calls it from a plain loop. A driver started on a
journal that already holds part of the hand skips what was recorded, so the
demo resumes mid-hand after a restart like a camera would.

>>> steps = script(load_record("N"))
>>> steps[0].event
CardPlayed(seat=<Seat.N: 'N'>, card=Card.parse('9H'), t=1.0, confidence=0.99)
>>> sum(1 for s in steps if s.bid), sum(1 for s in steps if isinstance(s.event, TrickCleared))
(3, 5)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.rules.cards import Seat
from kiosk.table.intents import IntentRefused
from kiosk.table.phases import Phase
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup
from kiosk.vision.events import CardPlayed, TrickCleared, TrickComplete, VisionEvent, face

HERE = Path(__file__).resolve().parent
RECORD = HERE / "hand1.json"

DEMO_SETUP = TableSetup(tournament="Demo night", table=1, round=1, team_ns="Ann & Bob",
                        team_ew="Cy & Di", profile="tournament", points_to_win=10, minutes=30)


@dataclass(frozen=True)
class Step:
    """One thing the demo does `at` seconds into the hand: a camera event or a bid tap."""

    at: float
    event: VisionEvent | None = None
    bid: dict[str, Any] | None = None
    bid_index: int = -1


def _turn(seat: str, by: int) -> str:
    return str(Seat.parse(seat).clockwise()[by % 4])


def load_record(dealer: str = "N") -> dict[str, Any]:
    """The bundled hand, turned round the table so that `dealer` deals it."""
    base = json.loads(RECORD.read_text())
    by = Seat.parse(base["dealer"]).clockwise().index(Seat.parse(dealer))
    rec = {
        "dealer": _turn(base["dealer"], by),
        "turn_up": base["turn_up"],
        "bids": [{**b, "seat": _turn(b["seat"], by)} for b in base["bids"]],
        "tricks": [[f"{_turn(p[0], by)}:{p[2:]}" for p in trick] for trick in base["tricks"]],
    }
    return rec


def script(record: dict[str, Any], pace: float = 1.0, cards: bool = True) -> list[Step]:
    """The hand as a timeline; `pace` scales every pause (0.01 for tests).

    Without `cards` only the turn-up and the bids are scripted: the cards come
    from a camera (the bundled video read by the vision pipeline).
    """
    steps: list[Step] = []
    t = 1.0 * pace
    steps.append(Step(t, CardPlayed(Seat.parse(record["dealer"]), face(record["turn_up"]),
                                      round(t, 3), 0.99)))
    for index, bid in enumerate(record["bids"]):
        t += 2.0 * pace
        steps.append(Step(t, bid=bid, bid_index=index))
    t += 1.0 * pace
    for trick in record["tricks"] if cards else []:
        for play in trick:
            t += 1.4 * pace
            seat, card = play.split(":")
            steps.append(Step(t, CardPlayed(Seat.parse(seat), face(card), round(t, 3), 0.97)))
        t += 0.8 * pace
        steps.append(Step(t, TrickComplete(round(t, 3))))
        t += 1.6 * pace
        steps.append(Step(t, TrickCleared(round(t, 3))))
    return steps


class DemoDriver:
    """Plays the demo hand into a session, as a camera and the players would."""

    def __init__(self, session: TableSession, pace: float = 1.0, autobid: bool = True,
                 autoplay: bool = True, confirm: bool = False,
                 camera_hands: frozenset[int] = frozenset()) -> None:
        self.session = session
        self.pace = pace
        self.autobid = autobid
        #: also tap the first dealer and "Next hand" when nobody does (unattended demo)
        self.autoplay = autoplay
        #: also tap both teams' agreement at the game's end (a demo nobody watches)
        self.confirm = confirm
        #: hands whose cards a camera (the demo video) reads: only their bids are scripted
        self.camera_hands = camera_hands
        self._idle = 0.0
        self._hand = 0
        self._steps: list[Step] = []
        self._cursor = 0
        self._clock = 0.0

    @property
    def source(self) -> str:
        return f"demo:h{self._hand}"

    def _sync_hand(self) -> None:
        hand = self.session.hand
        number = hand.number if hand else 0
        if number != self._hand:
            self._hand = number
            self._steps = (script(load_record(str(hand.dealer)), self.pace,
                                  cards=number not in self.camera_hands) if hand else [])
            self._cursor = 0
            self._clock = 0.0

    def _done(self, step: Step) -> bool:
        """Already in the journal (a restart): skip it without waiting."""
        hand = self.session.hand
        if step.event is not None:
            return self.session.has_seen(step.event, self.source)
        return hand is not None and len(hand.bids) > step.bid_index

    def tick(self, dt: float) -> int:
        """Advance the demo clock by `dt` seconds; returns how many steps ran."""
        self._sync_hand()
        if self.autoplay and self._autoplay(dt):
            return 1
        if not self._steps:
            return 0
        self._clock += dt
        ran = 0
        while self._cursor < len(self._steps):
            step = self._steps[self._cursor]
            if self._done(step):
                self._cursor += 1
                self._clock = max(self._clock, step.at)
                continue
            if step.at > self._clock:
                break
            if step.event is not None:
                self.session.feed(step.event, source=self.source)
            elif step.bid is not None:
                if not self.autobid:
                    break  # the players tap the bids themselves
                try:
                    self.session.bid(step.bid["call"], step.bid.get("suit"),
                                     bool(step.bid.get("alone", False)))
                except IntentRefused:
                    break  # someone tapped a different bid: the demo waits
            self._cursor += 1
            ran += 1
            self._sync_hand()
        return ran

    def _autoplay(self, dt: float) -> bool:
        """Between hands, wait a while for the players, then tap for them."""
        phase = self.session.phase
        waits = {Phase.READY: 3.0, Phase.HAND_OVER: 8.0}
        if self.confirm:
            waits[Phase.GAME_OVER] = 3.0
        if phase not in waits:
            self._idle = 0.0
            return False
        self._idle += dt
        if self._idle < waits[phase] * max(self.pace, 0.01):
            return False
        self._idle = 0.0
        try:
            if phase == Phase.GAME_OVER:
                side = next(s for s in ("NS", "EW") if s not in self.session.confirmed)
                self.session.confirm(side)
            elif phase == Phase.READY:
                self.session.start_game(json.loads(RECORD.read_text())["dealer"])
            elif self.session.game_can_end():
                self.session.end_game()
            else:
                self.session.next_hand()
        except IntentRefused:
            return False
        self._sync_hand()
        return True

    @property
    def finished(self) -> bool:
        """The hand's script has run out (the session waits for the players)."""
        self._sync_hand()
        return self._cursor >= len(self._steps)


def start_demo(session: TableSession, deal: bool = False,
               setup: TableSetup = DEMO_SETUP) -> None:
    """Fill in the demo set-up (unless the journal already has a game); with
    `deal`, also start it (else the players, or the driver's autoplay, do)."""
    if session.setup is None:
        session.configure(setup)
    if deal and session.started_at is None:
        session.start_game(json.loads(RECORD.read_text())["dealer"])
