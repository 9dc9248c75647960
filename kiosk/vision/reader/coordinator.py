"""The trick reader's coordinator: each frame through the parts, in order, and the
public face the pipeline, the table and the tests use (see the package's docstring).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from kiosk.rules.cards import EUCHRE_NAMES, Card, CardParseError, Seat, Suit
from kiosk.rules.play import TRICKS_PER_HAND
from kiosk.rules.tricks import trick_winner
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import (
    CardPlayed,
    CardReread,
    ReaderWarning,
    TrickCleared,
    TrickComplete,
    VisionEvent,
    WarningKind,
    face,
)
from kiosk.vision.reader import naming, repair, twins
from kiosk.vision.reader.config import (
    SAME_MOMENT,
    WELL_READ,
    ReaderConfig,
)
from kiosk.vision.reader.frame import CardSighting, FrameSightings
from kiosk.vision.reader.hand import Hand
from kiosk.vision.reader.kitty import KittyWatch
from kiosk.vision.reader.table_fit import TableFit
from kiosk.vision.reader.track import Track
from kiosk.vision.reader.tracking import Tracks
from kiosk.vision.reader.trick import TableTrick, TrickCard, came_down
from kiosk.vision.reader.zones import Occupancy, Places

#: the rule for a trick's winner: its plays in order, (seat letter, card) -> seat letter
WinnerRule = Callable[[Sequence[tuple[str, str]]], str]


def _seat(value: Seat | str | None) -> Seat | None:
    """A seat given at the edge (a letter or a Seat), parsed once."""
    return value if value is None or isinstance(value, Seat) else Seat.parse(value)


def _suit(value: Suit | str | None) -> Suit | None:
    return value if value is None or isinstance(value, Suit) else Suit.parse(value)


def _card(name: str) -> Card | None:
    """A detector's name as a card, for a warning's facts (None for a class that is not
    a card)."""
    try:
        return Card.parse(name)
    except CardParseError:
        return None


def _points(sighting: CardSighting) -> list[tuple[float, float]]:
    """Where the corners of a card read in a frame lie on the table."""
    return [(float(x), float(y)) for x, y in sighting.table]


def _letters(plays: Iterable[tuple[Seat, str]]) -> list[tuple[str, str]]:
    return [(str(seat), card) for seat, card in plays]


class TrickReader:
    """Feeds on one frame's detections at a time and says what happened on the table.

    ``leader`` leads the first trick; ``sitting_out`` is the lone maker's partner;
    ``trump`` (a suit letter) lets the reader find each trick's winner and so
    the next leader; ``winner_of`` overrides that rule (plays -> winning seat).
    Seats and suits may be given as letters or as the rules engine's values.
    """

    def __init__(
        self,
        calibration: Calibration,
        leader: Seat | str | None = None,
        *,
        trump: Suit | str | None = None,
        sitting_out: Seat | str | None = None,
        config: ReaderConfig | None = None,
        winner_of: WinnerRule | None = None,
    ) -> None:
        self.calibration = calibration
        self.config = config or ReaderConfig()
        self.trump = _suit(trump)
        self.sitting_out = _seat(sitting_out)
        self._winner_of = winner_of
        #: where the cards of complete tricks say the table lies: only a table nobody
        #: calibrated has its zones follow them (a saved calibration or the mat is the truth)
        # only a tablet's picture can stand off its place: an overhead camera's default
        # is the whole picture, whose edges hold the kitty, the 5s and the trick piles
        self._fit = TableFit(active=calibration.source == "default"
                             and calibration.view == "tablet")
        self._frame = FrameSightings(calibration, self.config, self._fit)
        self._places = Places(calibration.zones, self._fit)
        self._occupancy = Occupancy()
        self._hand = Hand()
        self._trick = TableTrick(leader=_seat(leader))
        self._following = Tracks(self.config)
        self._now = 0.0
        #: the dealer's kitty, watched from the deal (None: no deal was announced)
        self._kitty: KittyWatch | None = None
        #: the table session's word on the turn-up: the card, and the seat that may still
        #: play it (the dealer when it was ordered up; None when it was turned down)
        self._turn_up: tuple[str, Seat | None] | None = None

    @property
    def _tracks(self) -> dict[str, Track]:
        return self._following.by_card

    # ---- the public face ---------------------------------------------------------------
    @property
    def players(self) -> tuple[Seat, ...]:
        return tuple(s for s in Seat if s != self.sitting_out)

    @property
    def tricks(self) -> list[list[tuple[str, str]]]:
        """Finished tricks, (seat, card) in order."""
        return [_letters(plays) for plays in self._hand.tricks]

    @property
    def current_trick(self) -> list[tuple[str, str]]:
        return _letters(self._trick.pairs())

    @property
    def leader(self) -> str | None:
        leader = self._trick.leader
        return None if leader is None else str(leader)

    def set_leader(self, seat: Seat | str) -> None:
        """The table session's word on who leads the trick now being played."""
        self._trick.leader = _seat(seat)

    def set_contract(self, trump: Suit | str | None, sitting_out: Seat | str | None = None
                     ) -> None:
        """Trump and the lone maker's partner, once bidding has settled them."""
        self.trump, self.sitting_out = _suit(trump), _seat(sitting_out)

    def new_deal(self, dealer: Seat | str) -> None:
        """A new deal by ``dealer``: forget the last hand and watch the dealer's kitty for
        the turn-up (shown, then taken or turned down: ``KittySeen`` events) while the
        players bid; who leads and trump come with :meth:`new_hand` when bidding ends."""
        self.new_hand()
        self._turn_up = None
        seat = _seat(dealer)
        assert seat is not None
        self._kitty = KittyWatch(seat, self.calibration.zones, self.config)

    def new_hand(self, leader: Seat | str | None = None, *, trump: Suit | str | None = None,
                 sitting_out: Seat | str | None = None, turn_up: str | None = None,
                 kept_by: Seat | str | None = None) -> None:
        """Forget the last hand (its cards may all be played again) and start afresh.

        The table session calls this when bidding ends: a turn-up shown in the
        dealer's zone during bidding must not count as the first card played. The
        kitty's watch goes on (the dealer picks the turn-up up after the last bid).
        ``turn_up`` is the session's word on it, and ``kept_by`` the seat that may play
        it (the dealer, when it was ordered up; None: it was turned down): no other seat
        can, so a read of it there is put to the players.
        """
        self.set_contract(trump, sitting_out)
        self._hand = Hand()
        self._trick = TableTrick(leader=_seat(leader))
        self._following.clear()
        self._occupancy.clear()
        if turn_up is not None:
            self._turn_up = (turn_up, _seat(kept_by))

    def out_of_play(self, seat: Seat) -> set[str]:
        """The turn-up, when ``seat`` cannot play it: by the session's word if it gave one,
        else by what the camera saw of the kitty."""
        if self._turn_up is not None:
            card, kept_by = self._turn_up
            return set() if kept_by == seat else {card}
        return self._kitty.out_of_play(seat) if self._kitty is not None else set()

    def all_tricks(self) -> list[list[tuple[str, str]]]:
        """Finished tricks plus the one on the table, if any card of it is down."""
        return self.tricks + ([self.current_trick] if self._trick.plays else [])

    def seats(self, detections: Iterable[Any]) -> list[Seat | None]:
        """The seat each box would be read for (its zone on the table as fitted so far);
        None outside every seat's zone."""
        return self._frame.seats(detections)

    def feed(self, t: float, detections: Iterable[Any]) -> list[VisionEvent]:
        """One frame at time ``t`` (seconds, increasing); returns the events it settles."""
        self._now = t
        seen = self._frame.see(t, detections)
        events: list[VisionEvent] = []
        sightings = seen.sightings
        kitty = self._kitty
        if kitty is not None and not (self._hand.history or self._trick.plays):
            # (until the first card is played: a trick gathered to the dealer's side
            # passes face up through the band)
            events += kitty.see(t, [(s.card, s.score, _points(s)) for s in sightings],
                                seen.backs)
            # the turn-up on the kitty is never a card played, however little of it shows
            sightings = [s for s in sightings if not kitty.claims(s.card, _points(s))]
        by_card: dict[str, list[CardSighting]] = {}
        for s in sightings:
            by_card.setdefault(s.card, []).append(s)
        for card, found in by_card.items():
            self._following.follow(card, found, t, self._trick, self._hand.played)
        known = self._hand.played | self._trick.cards()
        self._occupancy.note(t, {s.seat for s in sightings
                                 if s.seat is not None and s.card not in known}
                             | seen.faint_seats, self.config)
        self._trick.note_gathered(
            t, {s.seat for s in sightings if s.seat is not None} | seen.faint_seats,
            self.config)
        events += self._check_cleared(t)
        if len(self._hand.history) < TRICKS_PER_HAND:  # (after the fifth the hand is over)
            events += self._settle_seats(t)
        self._following.forget(t)
        return events

    def finish(self, t: float) -> list[VisionEvent]:
        """The video ended: a complete trick still on the table counts as played."""
        trick = self._trick
        if trick.plays and (trick.complete
                            or len(self._hand.history) == TRICKS_PER_HAND - 1):
            return self._clear(t)
        return []

    # ---- per frame: decisions -----------------------------------------------------------
    def _seat_of(self, track: Track) -> Seat | None:
        return self._places.seat_of(track, self._trick, self.players, self.sitting_out,
                                    self._now, self.config)

    def _settle_seats(self, t: float) -> list[VisionEvent]:
        """Each seat's card read, questioned or played, in the order the cards came down."""
        events: list[VisionEvent] = []
        confirmed: list[tuple[float, Seat, naming.Verdict]] = []
        pending: dict[Seat, float] = {}  # seat -> earliest rest of a card still being read
        self._following.shadow_corner_reads(self._trick.cards(), t)
        for tr in self._tracks.values():
            zone = self._seat_of(tr)
            if zone != tr.zone_seat:  # when a card came into a seat's zone orders the play
                tr.zone_seat, tr.zone_since = zone, tr.last_seen
        events += self._reread_on_the_table(t)
        trick_cards = self._trick.cards()
        for seat in Seat:
            events += self._read_seat(seat, t, trick_cards, pending, confirmed)
        return events + self._play_in_order(confirmed, pending, t)

    def _read_seat(self, seat: Seat, t: float, trick_cards: set[str],
                   pending: dict[Seat, float],
                   confirmed: list[tuple[float, Seat, naming.Verdict]]) -> list[VisionEvent]:
        """One seat's cards this frame: a card to play goes into ``confirmed``, a card
        still being read into ``pending``; the words for the players are returned."""
        cfg = self.config
        play = self._trick.play_of(seat)
        # Cards of this trick are left out: nudged across a line, or being gathered.
        tracks = [tr for tr in self._tracks.values()
                  if t - tr.last_seen <= cfg.window and tr.card not in trick_cards
                  and not tr.shadow and self._seat_of(tr) == seat]
        if (play is not None and t - play.last_seen < cfg.takeback_gap
                and not self._trick.complete):
            # The played card is still there (or just hidden); only a stray card
            # beside it is worth a word. (Once the trick is full, a new card beside
            # it is the next lead, come before the trick was raked in.)
            return self._stray(seat, tracks, t)
        # Cards still being read here, for the order of play: seen twice at least and
        # not long ago (a hand may hide a card that is on its way in).
        viable = [tr for tr in self._tracks.values()
                  if tr.card in EUCHRE_NAMES and tr.card not in self._hand.played
                  and tr.card not in trick_cards and not tr.shadow
                  and t - tr.last_seen <= cfg.ask_time and tr.total >= WELL_READ
                  and tr.zone_seat == seat]
        if viable and play is None and not self._trick.asked(seat):
            # (a seat whose card was put to the players holds no one up: their answer
            # puts it in its turn, and the trick may be taken in before they tap)
            pending[seat] = min(tr.zone_since for tr in viable)
        # A card outside the euchre deck never competes with one inside it: a 9H that
        # sometimes reads 6H is a 9H. It is only reported when it holds the seat alone.
        euchre = [tr for tr in tracks if tr.card in EUCHRE_NAMES]
        # the turn-up counts as played where this seat cannot play it
        out = self.out_of_play(seat)
        verdict = naming.decide(seat, euchre, play, self._trick, self._tracks.values(),
                                self._hand.played | out, t, cfg)
        if verdict is None:
            stray = self._stray(seat, tracks, t)
            if not stray and play is None:
                return self._ask(seat, euchre, tracks, t)
            return stray
        events: list[VisionEvent] = []
        best = verdict.track
        if best.card in self._hand.played:
            # One name holds the seat, but that card is already in an earlier trick:
            # one of the two reads is wrong. Read far more surely here, and with
            # another name read on the earlier card, the earlier one is (it takes that
            # name, put to the players); else both are put to the players.
            reread = self._reread_earlier(best, verdict.confidence)
            if not reread:
                rivals = dict(verdict.rivals)
                for name, value in best.alternatives.items():
                    rivals[name] = max(rivals.get(name, 0.0), value)
                return self._seen_twice(seat, best.card, rivals)
            events += reread
        if naming.waits(verdict, play, self._trick, t, cfg):
            return events
        if best.card in out:  # read surely, yet this seat cannot hold it: ask
            verdict = replace(verdict, confidence=min(verdict.confidence,
                                                      0.99 * cfg.sure_confidence))
        confirmed.append((best.zone_since, seat, verdict))
        return events

    def _play_in_order(self, confirmed: list[tuple[float, Seat, naming.Verdict]],
                       pending: dict[Seat, float], t: float) -> list[VisionEvent]:
        """Play the confirmed cards in the order they came down, each after any card
        that came down before it and is still being read."""
        cfg = self.config
        events: list[VisionEvent] = []

        def first(seat: Seat, came: float) -> tuple[float, int]:
            # Cards that came into their zones within a moment of each other (both hidden
            # by an arm while they were put down, say) are taken in the order of play.
            return (round(came / SAME_MOMENT), self._turn_index(seat))

        for came, seat, verdict in sorted(confirmed, key=lambda c: first(c[1], c[0])):
            new_play = self._trick.play_of(seat) is None
            earlier = [s for s, r in pending.items() if s != seat and (
                r < came - SAME_MOMENT or (r < came + SAME_MOMENT
                                           and self._turn_index(s) < self._turn_index(seat)))]
            if (new_play and earlier
                    and t - verdict.track.rest_start < cfg.rest_time + cfg.order_hold):
                # Another seat's card came down first (or with it, and that seat's turn
                # comes first) and is still being read: wait for it, so the order of play
                # is the order the cards came down.
                continue
            events += self._accept(seat, verdict.track, verdict.confidence, t,
                                   dict(verdict.rivals),
                                   asked=verdict.track.card in self.out_of_play(seat))
            pending.pop(seat, None)
        return events

    def _turn_index(self, seat: Seat) -> int:
        return self._trick.turn_index(seat, self.sitting_out)

    def _stray(self, seat: Seat, tracks: list[Track], t: float) -> list[VisionEvent]:
        """A card from outside the euchre deck that holds the seat by itself."""
        stray = naming.stray(tracks, self._hand.played, t, self.config)
        if stray is None:
            return []
        return self._warn_once(WarningKind.NOT_EUCHRE, seat, stray.card)

    def _ask(self, seat: Seat, euchre: list[Track], tracks: list[Track], t: float
             ) -> list[VisionEvent]:
        """What stays uncertain is asked of the players, once per seat per trick."""
        cfg = self.config
        fighting = naming.fighting(euchre, t, cfg)
        if fighting:
            doubts = self._trick.doubts.setdefault(seat, {})
            for tr in fighting:
                doubts[tr.card] = max(doubts.get(tr.card, 0.0), tr.total)
            first, second = (_card(tr.card) for tr in fighting)
            return self._warn_trick(WarningKind.AMBIGUOUS, seat, card=first, other=second)
        if (self._occupancy.mostly(seat, t, cfg)
                and not any(tr.rested(t, cfg) for tr in tracks)):
            return self._warn_trick(WarningKind.UNREADABLE, seat)
        return []

    def _accept(self, seat: Seat, track: Track, confidence: float, t: float,
                rivals: dict[str, float], asked: bool = False) -> list[VisionEvent]:
        """Play ``track``'s card for ``seat`` (``asked``: with a question, whatever its
        rivals: reported before it dominated, or a card this seat cannot hold)."""
        events: list[VisionEvent] = []
        weighed = None if asked else track
        cfg = self.config
        trick = self._trick
        if trick.taken_in_before(seat, t, cfg):
            # Record the trick as it stands, ask the players for each missing card, and
            # let this card start the next trick (else every later card would count as a
            # card taken back, and the rest of the hand be lost).
            events += self._clear(t)
            trick = self._trick
        previous = trick.play_of(seat)
        if (trick.complete and previous is not None and track.came < trick.completed_at
                and t - previous.last_seen < cfg.takeback_gap):
            # A name that already lay in this seat before the trick was full, while the
            # seat's own card still lies there, is not the next lead (that comes down
            # after the trick is full) but something on or by that card read wrongly.
            track.shadow = True
            return events
        if trick.complete:
            if trick.ended_by(seat, t, cfg):
                events += self._clear(t)
                trick, previous = self._trick, None
            elif trick.being_gathered(seat, self._tracks):
                # The full trick's other cards have moved since it filled: its winner is
                # sweeping it up, and a name read on the moving pile is a misreading of
                # one of its cards, not a card taken back and replaced
                # (tests/reader/test_gathered).
                track.shadow = True
                return events
        if len(self._hand.history) >= TRICKS_PER_HAND:
            # The hand's five tricks are in: a card seen now is no play (the partner who
            # sat out a lone hand laying a hand down would make a sixth trick).
            return events
        if previous is not None:
            events.append(self._warning(WarningKind.CARD_REPLACED, seat, t,
                                        card=_card(track.card), other=_card(previous.card)))
            previous.card, previous.t, previous.confidence = track.card, t, confidence
            previous.last_seen, previous.rivals, previous.track = t, dict(rivals), track
            return events + self._played(seat, track.card, confidence, t, weighed, rivals)
        expected = trick.expected_seat(self.sitting_out)
        if expected is not None and seat != expected and not trick.asked(expected):
            events.append(self._warning(
                WarningKind.OUT_OF_TURN, seat, t, card=_card(track.card),
                other_seat=None if seat == self.sitting_out else expected))
        if trick.leader is None:
            trick.leader = seat
        play = TrickCard(seat=seat, card=track.card, t=t, confidence=confidence, last_seen=t,
                    came=came_down(trick, seat, track, self._tracks.values(),
                                   cfg.takeback_gap), rivals=dict(rivals), track=track,
                    doubted=seat in trick.doubts)
        for name, total in trick.doubts.get(seat, {}).items():  # (read long enough ago to
            if name != track.card:  # have left the window the rivals above come from)
                play.rivals[name] = max(play.rivals.get(name, 0.0), total)
        trick.put_down(play)
        events += self._played(seat, track.card, confidence, t, weighed, rivals)
        if not trick.complete and {p.seat for p in trick.plays} >= set(self.players):
            trick.complete, trick.completed_at = True, t
            events.append(TrickComplete(t=t))
            events += self._twin_questions(t)
            # (now, while its cards lie where they were played: raked in, they move)
            self._fit.learn({p.seat: p.track.position for p in trick.plays
                             if p.track is not None and p.track.anchors})
        return events

    def _played(self, seat: Seat, card: str, confidence: float, t: float,
                track: Track | None = None, rivals: dict[str, float] | None = None
                ) -> list[VisionEvent]:
        """A card now stands in the trick's record (a new play or a replacement): the trick
        was seen now and is not taken in, and the event goes out, with a question when the
        card was read on thin evidence (the players confirm or fix it with a tap, rather
        than the kiosk scoring, or calling a renege on, a guess). Evidence from names the
        pack rules out does not count, and a doubt only between the card and its twin is
        asked once the trick is full, if its winner hangs on it (:mod:`.twins`; ``track``
        and ``rivals`` are the evidence for that, and without them a card read on thin
        evidence is asked about as it stands)."""
        trick = self._trick
        trick.last_seen = t
        trick.gathered, trick.places_busy = False, t
        events: list[VisionEvent] = [
            CardPlayed(seat=seat, card=face(card), t=t, confidence=confidence)]
        cfg = self.config
        doubt = twins.Doubt.NONE if confidence >= cfg.sure_confidence else twins.Doubt.OTHER
        play = trick.play_of(seat)
        if doubt is twins.Doubt.OTHER and track is not None and play is not None:
            ruled_out = (self._hand.played | self.out_of_play(seat)
                         | (trick.cards() - {card}))
            doubt = twins.doubt(track, rivals or {}, ruled_out, cfg.sure_confidence,
                                cfg.weak_box)
        if play is not None:
            play.twin_doubt = doubt is twins.Doubt.TWIN
        if doubt is twins.Doubt.OTHER:
            events.append(self._warning(WarningKind.UNSURE, seat, t, card=_card(card)))
        elif doubt is twins.Doubt.TWIN and trick.complete:
            events += self._twin_questions(t)  # (a replacement in a full trick)
        return events

    def _twin_questions(self, t: float) -> list[VisionEvent]:
        """The full trick's cards read less than surely only for their twins' reads,
        asked where the trick's winner hangs on them (once each)."""
        events: list[VisionEvent] = []
        trick = self._trick
        for play in trick.plays:
            if play.twin_doubt:
                play.twin_doubt = False
                if twins.winner_hangs_on(trick.pairs(), play.seat, self.trump):
                    events.append(self._warning(
                        WarningKind.UNSURE, play.seat, t, card=_card(play.card),
                        other=_card(twins.twin_name(play.card) or play.card)))
        return events

    # ---- a trick's end ------------------------------------------------------------------
    def _check_cleared(self, t: float) -> list[VisionEvent]:
        what = self._trick.clearing(t, self.config)
        if what == "hidden":
            return self._warn_trick(WarningKind.OCCLUDED, None)
        return self._clear(t) if what == "cleared" else []

    def _clear(self, t: float) -> list[VisionEvent]:
        events: list[VisionEvent] = []
        trick = self._trick
        played = [p.seat for p in trick.plays]
        for seat in self.players:
            if seat not in played:
                events.append(self._warning(WarningKind.MISSING_CARD, seat, t))
        plays = trick.pairs()
        self._hand.take_in(trick.plays)
        self._trick = TableTrick(leader=self._next_leader(plays), started=t)
        self._following.keep(self._hand.played)
        self._occupancy.clear()
        events.append(TrickCleared(t=t))
        return events

    def _next_leader(self, plays: list[tuple[Seat, str]]) -> Seat | None:
        if len(plays) < len(self.players):
            return None
        if self._winner_of is not None:
            return Seat.parse(self._winner_of(_letters(plays)))
        if self.trump is None:
            return None
        return trick_winner([(seat, Card.parse(card)) for seat, card in plays], self.trump)

    # ---- repairs across the hand --------------------------------------------------------
    def _reread_earlier(self, track: Track, confidence: float) -> list[VisionEvent]:
        """A card of an earlier trick is read again, here ``SURER_ELSEWHERE`` more surely
        than it was read there: the earlier card was misread, and takes another name read
        on it (``CardReread``, and the players are asked to check it). Otherwise nothing
        changes ([]): both are asked."""
        found = repair.earlier_misread(track, confidence, self._hand, self._trick,
                                       self._tracks, self.config)
        if found is None:
            return []
        was = repair.apply_reread(found, self._hand)
        seat = found.play.seat
        return [
            CardReread(trick=found.trick, seat=seat, card=face(found.name), was=face(was),
                       t=self._now, confidence=found.confidence),
            self._warning(WarningKind.UNSURE, seat, self._now, trick=found.trick,
                          card=_card(found.name), other=_card(was)),
        ]

    def _reread_on_the_table(self, t: float) -> list[VisionEvent]:
        """Cards of the trick on the table misread as they came down take the names read on
        them since (:func:`repair.retake_misread`): a ``CardPlayed`` for each seat again,
        which the session takes as a correction, with a question when unsure."""
        events: list[VisionEvent] = []
        for play in repair.retake_misread(self._trick, self._tracks, self._hand.played, t,
                                          self.config):
            events += self._played(play.seat, play.card, play.confidence, t)
        return events

    def _seen_twice(self, seat: Seat, card: str, rivals: dict[str, float] | None = None
                    ) -> list[VisionEvent]:
        """Ask about a card read again after it was played: here, and where it was read
        (``rivals``: the other names read on it here, with their evidence)."""
        kind = WarningKind.SEEN_TWICE
        if (kind, card) in self._hand.warned:
            return []
        self._hand.warned.add((kind, card))
        self._trick.warned.add((kind, seat))  # this seat's card is put to them
        found = self._hand.find(card)
        if found is None:  # (not in a trick taken in: nothing earlier to check)
            return [self._warning(kind, seat, self._now, card=_card(card))]
        number, earlier = found
        twin = twins.misread_as_twin(card, rivals or {}, earlier.rivals,
                                     self._hand.played | self._trick.cards()
                                     | (self.out_of_play(seat) & self.out_of_play(earlier.seat)))
        if twin is not None:
            # One question names both places ("which is the ace of clubs?"), and the
            # players' tap on one settles both.
            return [self._warning(kind, seat, self._now, card=_card(card), other=_card(twin),
                                  other_seat=earlier.seat, other_trick=number)]
        return [
            self._warning(kind, seat, self._now, card=_card(card), other_seat=earlier.seat,
                          other_trick=number),
            self._warning(kind, earlier.seat, self._now, trick=number, card=_card(card),
                          other_seat=seat),
        ]

    # ---- warnings -----------------------------------------------------------------------
    @staticmethod
    def _warning(kind: WarningKind, seat: Seat | None, t: float, *, trick: int | None = None,
                 card: Card | None = None, other: Card | None = None,
                 other_seat: Seat | None = None, other_trick: int | None = None
                 ) -> ReaderWarning:
        return ReaderWarning(kind=kind, note="", seat=seat,
                             t=t, trick=trick, card=card, other=other,
                             other_seat=other_seat, other_trick=other_trick)

    def _warn_trick(self, kind: WarningKind, seat: Seat | None, *, card: Card | None = None,
                    other: Card | None = None) -> list[VisionEvent]:
        """A question about the trick on the table, asked once per seat."""
        if (kind, seat) in self._trick.warned:
            return []
        self._trick.warned.add((kind, seat))
        return [self._warning(kind, seat, self._now, card=card, other=other)]

    def _warn_once(self, kind: WarningKind, seat: Seat, card: str) -> list[VisionEvent]:
        """A word about a card, said once a hand."""
        if (kind, card) in self._hand.warned:
            return []
        self._hand.warned.add((kind, card))
        return [self._warning(kind, seat, self._now, card=_card(card))]


__all__ = ["TrickReader", "WinnerRule"]
