"""What each screen shows and what each button does, with no Kivy in sight.

The Kivy screens are thin: they copy a view (a frozen value from
`kiosk.app.views`) into their properties and call a presenter method when tapped. All
wording, colours, which buttons are live and which screen is up are decided
here and in `kiosk.app.view_builders` (what each screen shows), so every screen's logic
is tested without a window (tests/app/test_presenter.py).

A tap that the game refuses never raises into Kivy: the presenter keeps the
plain-words reason in `message`, which every screen shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.app import view_builders, words
from kiosk.app.director_link import DirectorLink, assigned
from kiosk.app.fives import FIVES_PHASES, FivesCheck
from kiosk.app.speech import TableVoice
from kiosk.app.twin_question import TwinCheck, deck_pack
from kiosk.app.views import (
    BiddingView,
    CorrectionView,
    GameEndView,
    LiveView,
    RenegeView,
    ScoreView,
    SetupView,
)
from kiosk.app.words import SIDE_NAMES, clock_text, plain
from kiosk.rules.cards import Card, Seat
from kiosk.table import referee
from kiosk.table.intents import IntentRefused, tapped_card, tapped_seat
from kiosk.table.phases import Phase
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup, default_setup
from kiosk.vision.events import CardPlayed, VisionEvent, as_card

#: the screen each phase of the game shows, unless the players opened another
SCREEN_OF = {
    Phase.SETUP: "setup", Phase.READY: "setup", Phase.BIDDING: "bidding",
    Phase.PLAYING: "live", Phase.RENEGE: "renege", Phase.HAND_OVER: "score",
    Phase.GAME_OVER: "game_end", Phase.CONFIRMED: "game_end",
}


@dataclass
class TablePresenter(DirectorLink):
    """Turns the session into views and taps into intents."""

    session: TableSession
    camera: bool = False  # a live picture is shown behind the table
    #: which card detector reads the picture, in plain words (the camera set-up shows it)
    detector: str = ""
    message: str = ""
    overlay: str | None = None  # a screen the players opened: 'correction', 'score', ...
    selected: tuple[int, Seat] | None = None
    _listeners: list[Callable[[], None]] = field(default_factory=list)
    #: what the table looked like when the Score screen was opened over the game
    _score_opened_at: tuple[Any, ...] | None = None
    #: where the table's voice settings are kept (None: not kept), and how a sentence is
    #: said (None: espeak-ng; tests pass their own)
    voice_path: Path | None = None
    voice_runner: Callable[[Sequence[str]], Any] | None = None
    #: a finished trick's card the players picked, waiting for their yes: (trick, seat,
    #: card)
    pending_fix: tuple[int, Seat, Card] | None = None
    #: the renege option tapped, waiting for the yes (its index)
    pending_renege: int | None = None
    #: the team whose agreement with the final score waits for its yes ('' none)
    agreeing: str = ""
    #: when the camera's last picture came (monotonic seconds; None: no picture yet), and
    #: whether its feed has ended (a video played out)
    frame_at: float | None = None
    feed_ended: bool = False

    def __post_init__(self) -> None:
        from kiosk.app.camera_setup import CameraSetup
        from kiosk.app.deck_setup import DeckSetup

        self.session.subscribe(lambda _s: self._changed())
        #: the calibration screen's logic (kiosk.app.camera_setup)
        self.camera_setup = CameraSetup(self.session, on_change=self._changed)
        #: the deck set-up screen's logic (kiosk.app.deck_setup)
        self.deck_setup = DeckSetup(self.session, on_change=self._changed)
        # once the table is set up, its own deck profile (if it keeps one) is read with
        self.session.subscribe(lambda _s: self.deck_setup.table_known())
        # ... and once it has looked, the deck the director handed to this table
        self.deck_setup.on_table = self.fetch_deck
        #: the question when the players' 5s and the kiosk's score differ (kiosk.app.fives)
        self.fives = FivesCheck(self.session, self.teams, self._say)
        #: before a renege is called, a card it depends on that may be its same-colour
        #: twin: the two cards, one tap (kiosk.app.twin_question)
        self.twins = TwinCheck(self.session, self._do)
        # ... where the table's deck profile knows its pack, the pack is evidence
        self.session.deck_pack = lambda: deck_pack(self.deck_setup.detector)
        #: the voice for low-vision players (kiosk.app.speech)
        self.voice = TableVoice(self.session, self.voice_path, screen=lambda: self.screen,
                                teams=self.teams, on_change=self._changed,
                                run=self.voice_runner)

    # ------------------------------------------------------------ plumbing

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _table_moment(self) -> tuple[Any, ...] | None:
        """What the cards and bids of the hand are now: the Score screen, opened over the
        game, closes once this moves on."""
        hand = self.session.hand
        if hand is None:
            return None
        return len(hand.plays), len(hand.pending), hand.turn_up, len(hand.bids)

    def _changed(self) -> None:
        if (self.overlay == "score" and self._score_opened_at is not None
                and self._table_moment() != self._score_opened_at):
            self.overlay = None  # a card was played: the game's own screen again
        for listener in list(self._listeners):
            listener()

    def _do(self, action: Callable[[], Any]) -> bool:
        """Run an intent; a refusal becomes `message` for the screen."""
        try:
            action()
        except IntentRefused as refused:
            self.message = plain(words.refused_words(refused))
            self._changed()
            return False
        self.message = ""
        self._changed()
        return True

    @property
    def four_colour(self) -> bool:
        s = self.session.setup
        return bool(s and s.four_colour)

    @property
    def screen(self) -> str:
        """The screen to show: the game's phase, unless the players opened one."""
        phase = self.session.phase
        if self.overlay == "correction" and phase in (Phase.PLAYING, Phase.RENEGE,
                                                      Phase.HAND_OVER):
            return "correction"
        if self.overlay == "score" and phase in (Phase.PLAYING, Phase.BIDDING):
            return "score"
        if self.overlay in ("calibration", "deck") and phase in (
                Phase.SETUP, Phase.READY, Phase.BIDDING, Phase.PLAYING):
            return self.overlay  # set-up, or the camera moved during a game
        if self.overlay in ("rules", "pairing") and phase in (Phase.SETUP, Phase.READY):
            return self.overlay
        if self.overlay == "voice" and phase in (Phase.SETUP, Phase.READY, Phase.BIDDING,
                                                 Phase.PLAYING, Phase.HAND_OVER):
            return self.overlay
        if phase == Phase.PLAYING and self.twins.asked() is not None:
            return "twin"  # put to the players before any renege is called
        if phase in FIVES_PHASES and self.session.markers.open():
            return "fives"  # put to both teams before the next deal
        return SCREEN_OF[phase]

    def shot_name(self) -> str:
        """The name a picture of the screen now shown is saved under (headless runs save
        one per name): the screen, plus the live screen again in the middle of a hand,
        when the picture shows cards in several seats."""
        name = self.screen
        hand = self.session.hand
        if name == "live" and hand is not None and hand.view is not None:
            tricks = hand.view.tricks
            if len(tricks) >= 2 and tricks[-1].winner is None and len(tricks[-1].cards) >= 2:
                return "live-mid-hand"
        return name

    def open(self, overlay: str | None) -> None:
        """Open a screen on top of the game's own (or None to go back)."""
        self.overlay = overlay
        self.selected = None
        self.pending_fix = None
        self.message = ""
        self._score_opened_at = self._table_moment() if overlay == "score" else None
        if overlay == "calibration":
            self.camera_setup.opened()
        elif overlay == "deck":
            self.deck_setup.opened()
        self._changed()

    def teams(self) -> dict[str, str]:
        s = self.session.setup
        if s is None:
            return dict(SIDE_NAMES)
        return {"NS": s.team_name("NS"), "EW": s.team_name("EW")}

    def clock(self) -> str:
        left = self.session.time_left()
        if left is None:
            return clock_text(self.session.elapsed())
        return clock_text(max(0.0, left))

    # ---------------------------------------------------------------- setup

    def setup_view(self) -> SetupView:
        s = self.session.setup or default_setup()
        info = referee.profile_info(s.profile)
        dealer = self.session.first_dealer
        return SetupView(
            tournament=s.tournament, table=str(s.table), round=str(s.round),
            team_ns=s.team_ns, team_ew=s.team_ew, profile=s.profile,
            profiles=tuple((p, words.profile_name(p)) for p in referee.profile_ids()),
            points_to_win=s.points_to_win, minutes=s.minutes, four_colour=s.four_colour,
            profile_notes=words.profile_notes(info),
            first_dealer=None if dealer is None else str(dealer),
            pairing=self.pairing_status(),
        )

    def profile_defaults(self, profile: str) -> tuple[int, int]:
        """Points to win and minutes a profile suggests (the set-up pre-fills them)."""
        info = referee.profile_info(profile)
        return info.points_to_win, info.minutes

    def save_setup(self, tournament: str, table: str, round_: str, team_ns: str, team_ew: str,
                   profile: str, points_to_win: int, minutes: int, four_colour: bool) -> bool:
        try:
            setup = TableSetup(tournament=tournament, table=int(table or 0),
                               round=int(round_ or 0), team_ns=team_ns, team_ew=team_ew,
                               profile=profile, points_to_win=int(points_to_win),
                               minutes=int(minutes), four_colour=four_colour)
        except ValueError:
            self.message = "Table and round are numbers."
            self._changed()
            return False
        return self._do(lambda: self.session.configure(setup))

    def update_setup(self, **changes: Any) -> bool:
        """Change some of the set-up (the names on one screen, the rules on another),
        keeping the rest as saved."""
        s = self.session.setup or default_setup()
        rules = {"profile": s.profile, "points_to_win": s.points_to_win, "minutes": s.minutes}
        if self.rules_locked() and any(k in changes and changes[k] != v
                                       for k, v in rules.items()):
            return self._say("The director set these rules for this table: ask the director "
                             "to change them.")
        fields: dict[str, Any] = {
            "tournament": s.tournament, "table": str(s.table), "round_": str(s.round),
            "team_ns": s.team_ns, "team_ew": s.team_ew, "profile": s.profile,
            "points_to_win": s.points_to_win, "minutes": s.minutes, "four_colour": s.four_colour}
        fields.update(changes)
        return self.save_setup(**fields)

    def rules_locked(self) -> bool:
        """A paired kiosk plays the rules the director set: the players cannot change
        them (the director's sheet and the kiosk's result would disagree)."""
        return self.paired()

    def rules_words(self, short: bool = False) -> str:
        """The rules as the set-up screen's button says them: 'Alberta 55+: first to 10,
        25 minutes' (short, on a small screen: 'first to 10')."""
        s = self.session.setup or default_setup()
        if short:
            return f"first to {s.points_to_win}"
        limit = f"{s.minutes} minutes" if s.minutes else "no time limit"
        return f"{words.profile_name(s.profile)}: first to {s.points_to_win}, {limit}"

    def _say(self, message: str) -> bool:
        self.message = message
        self._changed()
        return False

    def start(self, dealer: str) -> bool:
        setup = self.session.setup
        if self.paired() and setup is not None and not (setup.team_ns and setup.team_ew):
            return self._say("The director needs both teams' names: tap 'Get the teams' or "
                             "type them above.")
        return self._do(lambda: self.session.start_game(dealer))

    def undo(self) -> bool:
        """Take back the last bid, the turn-up or the dealer (the Undo button)."""
        return self._do(self.session.undo)

    # -------------------------------------------------------------- bidding

    def bidding_view(self) -> BiddingView:
        return view_builders.bidding_view(self)

    def tap_bid(self, index: int) -> bool:
        options = self.session.bid_options()
        if not 0 <= index < len(options):
            return False
        option = options[index]
        if not option.allowed:
            self.message = words.bid_reason(option)
            self._changed()
            return False
        return self._do(lambda: self.session.bid(option.call, option.suit, option.alone))

    def tap_turn_up(self, card: str) -> bool:
        return self._do(lambda: self.session.see_turn_up(card, source="tap"))

    # ----------------------------------------------------------------- live

    def live_view(self) -> LiveView:
        return view_builders.live_view(self)

    #: seconds without a picture before the players are told the camera stopped
    CAMERA_QUIET_S = 4.0

    def frame_seen(self, now: float) -> None:
        """A camera picture arrived (the app calls this on the UI thread)."""
        self.frame_at = now

    def camera_note(self, now: float | None = None) -> str:
        """Said on the live screen when the camera sends no picture any more."""
        import time

        if not self.camera or self.frame_at is None:
            return ""
        quiet = (time.monotonic() if now is None else now) - self.frame_at
        if self.feed_ended or quiet >= self.CAMERA_QUIET_S:
            # short: it shares a small screen's message box
            what = "Video ended" if self.feed_ended else "No camera"
            return f"{what}: tap a seat to enter its card."
        return ""

    # --------------------------------------------------------------- renege

    def renege_view(self) -> RenegeView:
        return view_builders.renege_view(self)

    def frame_name(self, event: VisionEvent) -> str | None:
        """Where to keep the frame a played card was read from (None: not kept). A card
        of an earlier trick read again under another name keeps the frame it was played
        in: the frame now shows a later trick."""
        hand = self.session.hand
        if hand is None or hand.view is None or not isinstance(event, CardPlayed):
            return None
        seat, card = event.seat, as_card(event.card)
        for number, trick in enumerate(hand.view.tricks, start=1):
            if (seat, card) in trick.cards:
                path = self.session.frame_path(hand.number, number, seat)
                return None if path is None else str(path)
        return None

    def tap_renege_option(self, index: int) -> bool:
        options = self.session.renege_options()
        if not 0 <= index < len(options):
            return False
        self.pending_renege = index  # put again: one tap never scores a penalty
        self.message = ""
        self._changed()
        return True

    def confirm_renege(self, yes: bool) -> bool:
        """The players' yes (the choice counts) or no (back to the choices)."""
        index, self.pending_renege = self.pending_renege, None
        if not yes or index is None:
            self._changed()
            return False
        options = self.session.renege_options()
        if not 0 <= index < len(options):
            self._changed()
            return False
        return self._do(lambda: self.session.choose_renege(options[index].choice))

    def call_director(self) -> bool:
        """Call the director; tapped again while the call is open, it withdraws it."""
        if self.session.director_called:
            return self._do(self.session.cancel_director_call)
        if not self.paired():
            # nobody would be told: say so, rather than "Director called"
            return self._say("This kiosk is not paired with the director, so nobody was "
                             "told. Please raise a hand or fetch the director.")
        return self._do(self.session.call_director)

    def director_words(self) -> str:
        """The Call the director button's words."""
        if self.session.director_called:
            return "Director called: tap to cancel"
        return "Call the director"

    def tap_seat(self, seat: str) -> bool:
        """A seat's place on the live screen was tapped: fix (or add) its card in the
        trick on the table, on the correction screen with that place chosen."""
        if not self.session.can_tap_cards():
            return False
        view = self.live_view()
        if seat == next((s.seat for s in view.seats if s.sitting_out), None):
            return self._say(f"{words.seat_name(seat)} sits out this hand.")
        self.open("correction")
        # a finished trick still on the table: the tap starts the next one (a card of the
        # finished trick changes only through Fix a card, with the players' yes)
        self.select_slot(view.current_trick, seat)
        return True

    def ask_about_suggestion(self) -> bool:
        """The camera's second thought about a finished trick's card: open the correction
        screen with the change put to the players (what it changes, yes or no)."""
        hand = self.session.hand
        if hand is None or hand.suggestion is None:
            return False
        s = hand.suggestion
        self.open("correction")
        self.selected = (s.trick, s.seat)
        self.pending_fix = (s.trick, s.seat, s.card)
        self._changed()
        return True

    def keep_card(self) -> bool:
        """The players keep the card the record holds, against the camera's reading."""
        return self._do(self.session.keep_card)

    # ----------------------------------------------------------- correction

    def correction_view(self) -> CorrectionView:
        return view_builders.correction_view(self)

    def select_none(self) -> None:
        """Back from the cards to the tricks' places."""
        self.selected = None
        self.pending_fix = None
        self.message = ""
        self._changed()

    def select_slot(self, trick: int, seat: Seat | str) -> None:
        self.selected = (trick, tapped_seat(seat))
        self.pending_fix = None
        self.message = ""
        self._changed()

    def pick_card(self, tapped: Card | str) -> bool:
        if self.selected is None:
            self.message = "First tap the card to fix, or an empty place."
            self._changed()
            return False
        trick, seat = self.selected
        try:
            card = tapped_card(tapped)
        except IntentRefused as refused:
            return self._say(plain(words.refused_words(refused)))
        if self.session.fix_needs_yes(trick, seat, card):
            # a finished trick: what the change does is said first, for a yes or a no
            problem = self.session.fix_preview(trick, seat, card).problem
            if problem:
                return self._say(plain(words.refusal_words(problem)))
            self.pending_fix = (trick, seat, card)
            self.message = ""
            self._changed()
            return False
        ok = self._do(lambda: self.session.correct(trick, seat, card))
        if ok:
            self.selected = self._next_place()
            self._changed()
        return ok

    def _next_place(self) -> tuple[int, Seat] | None:
        """After a card is tapped in, the place of the seat to play next (cards tapped in
        one after another), or none."""
        hand = self.session.hand
        if hand is None or hand.view is None or not self.session.can_tap_cards():
            return None
        view = hand.view
        if view.to_play is None:
            return None
        return view_builders.trick_to_tap(view, ""), view.to_play

    def confirm_fix(self, yes: bool) -> bool:
        """The players' answer to a finished trick's change: yes makes it (Undo can take it
        back), no leaves the trick as it was."""
        pending, self.pending_fix = self.pending_fix, None
        hand = self.session.hand
        s = hand.suggestion if hand is not None else None
        asked = pending is not None and s is not None and pending == (s.trick, s.seat, s.card)
        if not yes or pending is None:
            self.selected = None
            if asked:  # the camera is not asked again; back to the game
                ok = self.keep_card()
                if ok:
                    self.open(None)
                return False
            self._changed()
            return False
        trick, seat, card = pending
        ok = self._do(lambda: self.session.correct(trick, seat, card, confirmed=True))
        if ok:
            self.selected = None
            if asked:
                self.open(None)  # the camera's question answered: back to the game
            self._changed()
        return ok

    def undo_fix(self) -> bool:
        """Take back the last change of a card (the Undo on the correction screen)."""
        return self._do(self.session.undo_fix)

    # ---------------------------------------------------------------- score

    def score_view(self) -> ScoreView:
        return view_builders.score_view(self)

    def next_hand(self) -> bool:
        return self._do(self.session.next_hand)

    def end_game(self) -> bool:
        return self._do(self.session.end_game)

    # ------------------------------------------------------------- game end

    def game_end_view(self) -> GameEndView:
        return view_builders.game_end_view(self)

    def confirm(self, side: str) -> bool:
        """A team's button: its agreement is put again before it counts."""
        if not self.session.can_confirm(side):
            return False
        self.agreeing = side
        self.message = ""
        self._changed()
        return True

    def answer_agreement(self, yes: bool) -> bool:
        side, self.agreeing = self.agreeing, ""
        if not yes or not side:
            self._changed()
            return False
        return self._do(lambda: self.session.confirm(side))

    def take_back(self, side: str) -> bool:
        """A team that agreed takes it back (until both teams agree)."""
        return self._do(lambda: self.session.unconfirm(side))

    def new_game(self, fetcher: Callable[[str, str], dict[str, Any]] | None = None,
                 same_teams: bool = False) -> bool:
        """The table's next game; a paired kiosk asks the director who plays it. Not
        paired, the players chose: the same teams again, or new names to fill in."""
        before = self.session.setup
        played = before.round if before else 0
        if not self._do(self.session.new_game):
            return False
        outbox = self.session.outbox
        config = outbox.config() if outbox is not None else {}
        current = self.session.setup
        if current is None or not (config.get("server") and config.get("token")):
            if same_teams and before is not None:
                from dataclasses import replace

                keep = replace(current or before, team_ns=before.team_ns,
                               team_ew=before.team_ew)
                return self._do(lambda: self.session.configure(keep))
            return True  # not paired: the players fill in the names
        self.fetch_deck()  # the deck the director hands out, as each game starts
        setup, problem = assigned(current, config["server"], config["token"], fetcher,
                                   after=played)
        if problem:  # the game is still started: the players fill in the names
            self._say(f"The seating for the next game did not come: {problem} "
                      "Fill in the names.")
            return True
        if setup != current:
            return self._do(lambda: self.session.configure(setup))
        return True

    # --------------------------------------------------------------- camera

    def apply(self, event: VisionEvent, source: str = "camera") -> bool:
        """A vision event from the reader (already on the UI thread)."""
        return self.session.feed(event, source=source)


__all__ = ["TablePresenter"]
