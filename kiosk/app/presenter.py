"""What each screen shows and what each button does, with no Kivy in sight.

The Kivy screens are thin: they copy a view (a frozen value from
`kiosk.app.views`) into their properties and call a presenter method when tapped. All
wording, colours, which buttons are live and which screen is up are decided
here, so every screen's logic is tested without a window
(tests/app/test_presenter.py).

A tap that the game refuses never raises into Kivy: the presenter keeps the
plain-words reason in `message`, which every screen shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.app import words
from kiosk.app.director_link import DirectorLink, assigned
from kiosk.app.fives import FIVES_PHASES, FivesCheck
from kiosk.app.speech import TableVoice
from kiosk.app.twin_question import TwinCheck, deck_pack
from kiosk.app.views import (
    BiddingView,
    ButtonView,
    CorrectionView,
    GameEndView,
    LiveView,
    RenegeView,
    ScoreView,
    SeatView,
    SetupView,
)
from kiosk.app.words import SUIT_SYMBOLS, card_words, clock_text, plain
from kiosk.rules.cards import Seat
from kiosk.table import fixing, referee
from kiosk.table.phases import Phase
from kiosk.table.referee import SIDE_NAMES, SUIT_NAMES, seat_name
from kiosk.table.session import IntentRefused, TableSession
from kiosk.table.setup import TableSetup, default_setup
from kiosk.table.turn_up import kitty_doubt
from kiosk.vision.events import CardPlayed, VisionEvent

#: the screen each phase of the game shows, unless the players opened another
SCREEN_OF = {
    Phase.SETUP: "setup", Phase.READY: "setup", Phase.BIDDING: "bidding",
    Phase.PLAYING: "live", Phase.RENEGE: "renege", Phase.HAND_OVER: "score",
    Phase.GAME_OVER: "game_end", Phase.CONFIRMED: "game_end",
}


def _short_reason(reason: str) -> str:
    """A refused bid's reason, short enough for a small screen's message box: the suit
    turned down is said as what it means for the button (a void call cannot be tapped)."""
    import re

    turned = re.match(r"(\w+) were turned down", reason)
    if turned:
        return f"{turned.group(1)} were turned down, so they cannot be trump now."
    return reason


@dataclass
class TablePresenter(DirectorLink):
    """Turns the session into views and taps into intents."""

    session: TableSession
    camera: bool = False  # a live picture is shown behind the table
    #: which card detector reads the picture, in plain words (the camera set-up shows it)
    detector: str = ""
    message: str = ""
    overlay: str | None = None  # a screen the players opened: 'correction', 'score', ...
    selected: tuple[int, str] | None = None
    _listeners: list[Callable[[], None]] = field(default_factory=list)
    #: what the table looked like when the Score screen was opened over the game
    _score_opened_at: tuple[Any, ...] | None = None
    #: where the table's voice settings are kept (None: not kept), and how a sentence is
    #: said (None: espeak-ng; tests pass their own)
    voice_path: Path | None = None
    voice_runner: Callable[[Sequence[str]], Any] | None = None
    #: a finished trick's card the players picked, waiting for their yes: (trick, seat,
    #: card)
    pending_fix: tuple[int, str, str] | None = None
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
            self.message = plain(str(refused))
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
        return SetupView(
            tournament=s.tournament, table=str(s.table), round=str(s.round),
            team_ns=s.team_ns, team_ew=s.team_ew, profile=s.profile,
            profiles=tuple((p, referee.profile_info(p).name) for p in referee.profile_ids()),
            points_to_win=s.points_to_win, minutes=s.minutes, four_colour=s.four_colour,
            profile_notes=info.notes,
            first_dealer=self.session.first_dealer,
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
        return f"{referee.profile_info(s.profile).name}: first to {s.points_to_win}, {limit}"

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
        session = self.session
        hand = session.hand
        assert hand is not None and hand.view is not None
        view = hand.view
        options = session.bid_options()
        buttons = tuple(ButtonView(o.label, o.allowed, o.reason, i) for i, o in enumerate(options))
        history = tuple(words.bid_words(b) for b in hand.bids)
        # the reasons, each once; a shared screen says whose side, never 'your side'
        side = self.teams()[str(Seat.parse(view.to_bid).team)] if view.to_bid else ""
        reasons = [_short_reason(o.reason).replace("Your side", side).replace("your side", side)
                   for o in options if not o.allowed and o.reason]
        explain = " ".join(dict.fromkeys(reasons))
        hint = view.hint
        if hint and hint.split(" were ")[0] in explain:
            hint = ""  # the reason already says it (the suit turned down)
        to_bid = seat_name(view.to_bid)
        if view.bidding_round == 1 and view.turn_up is None:
            title = "Tap the turn-up card below"
        else:
            title = f"{to_bid} to bid"
        return BiddingView(
            title=title, dealer=f"{seat_name(hand.dealer)} dealt",
            turn_up=view.turn_up,
            turn_up_words=card_words(view.turn_up) if view.turn_up else "not seen yet",
            round=view.bidding_round, buttons=buttons, history=history, explain=explain,
            hint=hint, teams=self.teams(), scores=session.scores,
            undo=words.undo_words(session.last_step()),
            director_called=hand.director_called,
            turn_up_note=self._turn_up_note(),
        )

    def _turn_up_note(self) -> str:
        """The turn-up the camera read, put to the players until the first bid agrees;
        then what the camera saw of it (taken, turned down) where the bids disagree."""
        hand = self.session.hand
        assert hand is not None
        if hand.turn_up and hand.turn_up_source == "camera" and not hand.bids:
            return words.camera_turn_up_words(hand.turn_up)
        doubt = kitty_doubt(hand.kitty_seen, hand.bids) if hand.kitty_seen else None
        return words.kitty_doubt_words(doubt, hand.dealer) if doubt else ""

    def tap_bid(self, index: int) -> bool:
        options = self.session.bid_options()
        if not 0 <= index < len(options):
            return False
        option = options[index]
        if not option.allowed:
            self.message = option.reason
            self._changed()
            return False
        return self._do(lambda: self.session.bid(option.call, option.suit, option.alone))

    def tap_turn_up(self, card: str) -> bool:
        return self._do(lambda: self.session.see_turn_up(card, source="tap"))

    # ----------------------------------------------------------------- live

    def live_view(self) -> LiveView:
        session = self.session
        hand = session.hand
        assert hand is not None and hand.view is not None
        view = hand.view
        current = view.tricks[-1] if view.tricks else None
        done = sum(1 for t in view.tricks if t.winner is not None)
        on_table: dict[str, str] = {}
        won_by = ""
        if current is not None and (current.winner is None or hand.cleared < done):
            on_table = dict(current.cards)  # an open trick, or a full one not yet raked in
            if current.winner is not None:
                won_by = f"Trick {done} to {seat_name(current.winner)}"
        seats = tuple(
            SeatView(seat=s, name=seat_name(s), card=on_table.get(s) or hand.pending.get(s),
                     on_turn=view.to_play == s, sitting_out=view.sitting_out == s)
            for s in (str(seat) for seat in Seat)
        )
        if session.phase == Phase.HAND_OVER:
            title = "Hand over"
        elif won_by:
            title = won_by
        elif view.to_play:
            title = f"{seat_name(view.to_play)} to play"
        else:
            title = "Waiting for the cards"
        trump = f"Trump: {SUIT_NAMES[view.trump]} {SUIT_SYMBOLS[view.trump]}" if view.trump else ""
        contract = ""
        if view.maker:
            contract = f"{seat_name(view.maker)} made it" + (" and plays alone" if view.alone
                                                              else "")
        fresh = [n for n in session.notices[-2:]
                 if n.hand == hand.number and n.seq >= hand.changed_at]
        notices = tuple(plain(n.text) for n in fresh)
        if not any(t.winner for t in view.tricks) and self._turn_up_note():
            notices = (*notices, self._turn_up_note())  # until the first trick is won
        if view.problem:
            notices = (*notices, plain(view.problem))
        return LiveView(title=title, trump=trump, contract=contract, seats=seats,
                        tricks=dict(view.tricks_won), teams=self.teams(),
                        trick_number=min(5, view.trick_number), notices=notices,
                        scores=session.scores, clock=self.clock(), won_by=won_by,
                        camera=self.camera, trump_suit=view.trump or "",
                        director_called=hand.director_called,
                        turn=seat_name(view.to_play) if view.to_play and not won_by else "",
                        undo=words.undo_words(session.last_step()),
                        recalibrate=any(n.kind == "camera_moved" for n in fresh),
                        current_trick=self._trick_to_tap(view, won_by),
                        ask=self._suggestion_words(), camera_note=self.camera_note(),
                        ask_note=self._ask_note())

    def _ask_note(self) -> str:
        hand = self.session.hand
        if hand is None or hand.suggestion is None:
            return ""
        return f"Check trick {hand.suggestion.trick}: tap 'Check the card'."

    @staticmethod
    def _trick_to_tap(view: referee.HandView, won_by: str) -> int:
        """The trick a tap on a seat's place adds to or fixes: the open trick, or, when
        a finished trick is still shown, the next one."""
        if not view.tricks:
            return 1
        if view.tricks[-1].winner is not None or won_by:
            return min(5, len(view.tricks) + 1)
        return len(view.tricks)

    def _suggestion_words(self) -> str:
        hand = self.session.hand
        if hand is None or hand.suggestion is None:
            return ""
        s = hand.suggestion
        if s.twin:  # a renege hangs on this card: the players say which it is first
            return (f"Before a renege is called: is {seat_name(s.seat)}'s card in trick "
                    f"{s.trick} the {card_words(s.was)} or the {card_words(s.card)}?")
        return (f"The camera now reads {seat_name(s.seat)}'s card in trick {s.trick} as the "
                f"{card_words(s.card)}; the record has the {card_words(s.was)}.")

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
        session = self.session
        hand = session.hand
        assert hand is not None and hand.view is not None
        r = hand.view.renege
        assert r is not None
        who = seat_name(r.seat)
        led = SUIT_NAMES.get(r.led_suit or "", "the suit led")
        story = [f"In trick {r.trick}, {led} were led and {who} played "
                 + (f"the {card_words(r.failed_card)}." if r.failed_card else "another suit.")]
        if r.proof_card:
            story.append(f"In trick {r.proven_at}, {who} played the {card_words(r.proof_card)}: "
                         f"{who} still had {led} and did not follow suit.")
        teams = self.teams()
        offended = Seat.parse(r.seat).team.other  # the side that did not renege chooses
        found = session.renege_options()
        options = tuple(ButtonView(words.renege_option_words(o.choice, o.points, teams,
                                                             offended), True, "", i)
                        for i, o in enumerate(found))
        if len(found) > 1:
            chooser = (f"{teams[offended]} ({SIDE_NAMES[offended]}) choose, "
                       f"because {who} reneged:")
        else:
            chooser = "The rule book gives one penalty: both teams, tap to go on."
        frames = self._frames(hand.number, r)
        confirm = ""
        if self.pending_renege is not None and self.pending_renege < len(options):
            confirm = options[self.pending_renege].label
        return RenegeView(headline=f"Renege: {who} did not follow suit", story=tuple(story),
                          failed_card=r.failed_card, proof_card=r.proof_card, trick=r.trick,
                          proven_at=r.proven_at, frames=frames, options=options,
                          director_called=hand.director_called, chooser=chooser,
                          confirm=confirm)

    def frame_name(self, event: VisionEvent) -> str | None:
        """Where to keep the frame a played card was read from (None: not kept). A card
        of an earlier trick read again under another name keeps the frame it was played
        in: the frame now shows a later trick."""
        hand = self.session.hand
        if hand is None or hand.view is None or not isinstance(event, CardPlayed):
            return None
        seat, card = str(event.seat), str(event.card)
        for number, trick in enumerate(hand.view.tricks, start=1):
            if any(s == seat and c == card for s, c in trick.cards):
                path = self.session.frame_path(hand.number, number, seat)
                return None if path is None else str(path)
        return None

    def _frames(self, hand: int, r: referee.ProvenRenege) -> tuple[str, ...]:
        """Saved camera frames of the two tricks, where the frame source kept them."""
        paths = [self.session.frame_path(hand, t, r.seat) for t in (r.trick, r.proven_at)]
        return tuple(str(p) for p in paths if p is not None and p.exists())

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
            return self._say(f"{seat_name(seat)} sits out this hand.")
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
        hand = self.session.hand
        assert hand is not None and hand.view is not None
        rows = []
        for number, trick in enumerate(hand.view.tricks, start=1):
            cards = dict(trick.cards)
            rows.append((number, tuple((s, cards.get(s)) for s in (str(x) for x in Seat)
                                       if s != hand.view.sitting_out)))
        if hand.view.to_play and (not rows or all(c for _s, c in rows[-1][1])):
            number = len(rows) + 1
            rows.append((number, tuple((str(s), None) for s in Seat
                                       if str(s) != hand.view.sitting_out)))
        if self.selected:
            t, s = self.selected
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
            for c in self.session.corrections if c.hand == hand.number
        )
        question = ""
        if self.pending_fix is not None:
            question = words.fix_words(self.session.fix_preview(*self.pending_fix))
        fix = self.session.last_fix()
        undo = words.undo_fix_words(fix.trick, fix.seat, fix.was) if fix and fix.was else ""
        return CorrectionView(rows=tuple(rows), selected=self.selected, prompt=prompt,
                              log=log[-4:], question=question, undo=undo)

    def select_none(self) -> None:
        """Back from the cards to the tricks' places."""
        self.selected = None
        self.pending_fix = None
        self.message = ""
        self._changed()

    def select_slot(self, trick: int, seat: str) -> None:
        self.selected = (trick, seat)
        self.pending_fix = None
        self.message = ""
        self._changed()

    def pick_card(self, card: str) -> bool:
        if self.selected is None:
            self.message = "First tap the card to fix, or an empty place."
            self._changed()
            return False
        trick, seat = self.selected
        if self.session.fix_needs_yes(trick, seat, card):
            # a finished trick: what the change does is said first, for a yes or a no
            problem = self.session.fix_preview(trick, seat, card).problem
            if problem:
                return self._say(plain(problem))
            self.pending_fix = (trick, seat, card)
            self.message = ""
            self._changed()
            return False
        ok = self._do(lambda: self.session.correct(trick, seat, card))
        if ok:
            self.selected = self._next_place()
            self._changed()
        return ok

    def _next_place(self) -> tuple[int, str] | None:
        """After a card is tapped in, the place of the seat to play next (cards tapped in
        one after another), or none."""
        hand = self.session.hand
        if hand is None or hand.view is None or not self.session.can_tap_cards():
            return None
        view = hand.view
        if view.to_play is None:
            return None
        return self._trick_to_tap(view, ""), view.to_play

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
        session = self.session
        setup = session.setup
        assert setup is not None
        teams = self.teams()
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
            clock_note = referee.profile_info(session.profile).at_time
        hands = tuple(
            f"Hand {h.number}: " + (", ".join(f"{teams[side]} {h.points[side]:+d}"
                                              for side in ("NS", "EW") if h.points.get(side))
                                    or "new deal")
            for h in session.finished[-3:]
        )
        phase = session.phase
        return ScoreView(
            teams=teams, scores=session.scores, points_to_win=setup.points_to_win,
            hand_summary=summary, clock=self.clock(), clock_note=clock_note,
            can_next=phase == Phase.HAND_OVER and not session.game_can_end(),
            can_end=session.game_can_end(), hands=hands,
        )

    def next_hand(self) -> bool:
        return self._do(self.session.next_hand)

    def end_game(self) -> bool:
        return self._do(self.session.end_game)

    # ------------------------------------------------------------- game end

    def game_end_view(self) -> GameEndView:
        session = self.session
        teams = self.teams()
        scores = session.scores
        if scores["NS"] == scores["EW"]:
            headline = f"A tie, {scores['NS']} to {scores['EW']}"
        else:
            win = "NS" if scores["NS"] > scores["EW"] else "EW"
            lose = "EW" if win == "NS" else "NS"
            headline = f"{teams[win]} win {scores[win]} to {scores[lose]}"
        confirmed = {side: side in session.confirmed for side in ("NS", "EW")}
        if session.submitted:
            note = self._delivery()
        elif all(confirmed.values()):
            note = "Both teams agree. Waiting to send to the director."
        else:
            note = ("Each team taps its own button to agree with this score. If you do not "
                    "agree, call the director.")
        question = ""
        if self.agreeing:
            question = f"{teams[self.agreeing]}: do you agree with this score?"
        return GameEndView(headline=headline, teams=teams, scores=scores, confirmed=confirmed,
                           sent=session.submitted, note=note, agreeing=self.agreeing,
                           question=question, director_called=session.director_called,
                           paired=self.paired())

    def _delivery(self) -> str:
        """Whether the director has the result yet, in plain words."""
        outbox = self.session.outbox
        item = outbox.item(self.session.game_id()) if outbox is not None else None
        if item is not None and item.state == "acknowledged":
            if item.answer.get("status") == "conflict":
                return ("The director has the result, but it does not match the director's "
                        "sheet: please call the director.")
            return "The director has the result. Thank you!"
        if item is not None and item.state == "rejected":
            return "The director refused the result: please call the director."
        return "Saved. It goes to the director as soon as the director can be reached."

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
