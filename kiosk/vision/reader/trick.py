"""A trick's life: its plays in the order they came down, who is to play, and the
moments it ends (full and raked in, taken in before all its cards were read, a card of
it taken back and replaced, the pile being gathered).

>>> trick = TableTrick(leader=Seat.N)
>>> trick.plays.append(TrickCard(Seat.N, "JH", t=1.0, confidence=0.9))
>>> trick.expected_seat(sitting_out=None), trick.turn_index(Seat.W, sitting_out=None)
(<Seat.E: 'E'>, 2)
>>> trick.expected_seat(sitting_out=Seat.E)
<Seat.S: 'S'>
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from kiosk.rules.cards import Seat
from kiosk.vision.events import WarningKind
from kiosk.vision.reader.config import LATE_READ, WELL_READ, ReaderConfig
from kiosk.vision.reader.track import Track, on_the_spot, overlaps

#: the questions that put a seat's card to the players: their answer puts it in its turn
ASKING = (WarningKind.AMBIGUOUS, WarningKind.UNREADABLE, WarningKind.SEEN_TWICE)


@dataclass
class TrickCard:
    """One card in a trick's record."""

    seat: Seat
    card: str
    t: float
    confidence: float
    last_seen: float = -math.inf  # last frame the card was seen (two sightings in a row)
    came: float = -math.inf  # when the card came to rest where it lies (orders the trick)
    #: other euchre names read on this card, with their evidence: what it may be instead,
    #: should its name be read more surely on a later card
    rivals: dict[str, float] = field(default_factory=dict)
    #: the card's track, whose runner-up names join ``rivals`` when the trick is cleared
    track: Track | None = field(default=None, repr=False)
    #: where the card lay when its trick was cleared (table units)
    where: tuple[float, ...] | None = None
    #: two names fought for this card and the players were asked which (``ambiguous``)
    doubted: bool = False
    #: read less than surely only for its same-colour twin's reads: asked about once the
    #: trick is full, if its winner hangs on it (:mod:`.twins`)
    twin_doubt: bool = False


@dataclass
class TableTrick:
    """The trick on the table."""

    leader: Seat | None
    plays: list[TrickCard] = field(default_factory=list)
    complete: bool = False
    last_seen: float = -math.inf  # last frame any of this trick's cards was seen
    #: the questions asked about it, once each: (kind, seat)
    warned: set[tuple[str, Seat | None]] = field(default_factory=set)
    #: seat -> the names that fought for its card when the players were asked which
    #: (``ambiguous``), with their evidence then
    doubts: dict[Seat, dict[str, float]] = field(default_factory=dict)
    #: last frame anything at all (any name, any confidence) lay in a seat that played
    places_busy: float = -math.inf
    #: those places were all empty for ``gathered_time``: the trick was taken in
    gathered: bool = False
    completed_at: float = math.inf  # when every seat had a card in it
    started: float = -math.inf  # when the trick before it was cleared

    def play_of(self, seat: Seat) -> TrickCard | None:
        return next((p for p in self.plays if p.seat == seat), None)

    def cards(self) -> set[str]:
        return {p.card for p in self.plays}

    def pairs(self) -> list[tuple[Seat, str]]:
        """Its plays as (seat, card), in order."""
        return [(p.seat, p.card) for p in self.plays]

    def put_down(self, play: TrickCard) -> None:
        """Add a play to the record, which keeps the order the cards came down: a card read
        late (a hard index, a hand over it) that plainly lay there before cards already
        reported goes in its place, not at the end."""
        place = len(self.plays)
        while place > 0 and self.plays[place - 1].came > play.came + LATE_READ:
            place -= 1
        self.plays.insert(place, play)

    def expected_seat(self, sitting_out: Seat | None) -> Seat | None:
        """Whose turn it is: the first seat from the leader round that has not played."""
        if self.leader is None:
            return None
        played = {p.seat for p in self.plays}
        return next((seat for seat in self.leader.clockwise()
                     if seat not in played and seat != sitting_out), None)

    def turn_index(self, seat: Seat, sitting_out: Seat | None) -> int:
        """How many turns from now this seat plays in the trick (0: its turn now)."""
        start = self.expected_seat(sitting_out) or self.leader or seat
        return start.clockwise().index(seat)

    def asked(self, seat: Seat) -> bool:
        """The players were asked to name this seat's card in the trick on the table (its
        card lies there; the answer puts it in its turn)."""
        return any((kind, seat) in self.warned for kind in ASKING)

    def note_gathered(self, t: float, busy: set[Seat], cfg: ReaderConfig) -> None:
        """Latch when an unfinished trick's places have all been empty for a while: its
        cards were taken in, even those nobody could read. ``busy``: the seats where
        anything at all was seen this frame (a card read under another name, or too
        faintly to name, still keeps its place busy). Every play sets ``places_busy``, so
        the clock runs from the trick's last card at the latest."""
        if not self.plays or self.complete or self.gathered:
            return
        places = {p.seat for p in self.plays}
        if places & busy:
            self.places_busy = t
        elif t - self.places_busy >= cfg.gathered_time:
            self.gathered = True

    def taken_in_before(self, seat: Seat, t: float, cfg: ReaderConfig) -> bool:
        """Whether this unfinished trick was taken in before a card now read in ``seat``:
        its places have all been empty for a while (or none of its several cards has been
        seen for as long: the next lead may come down where one of them lay, or the others
        went long before this card came), and this card is not its lone card's
        replacement. (tests/reader/test_trick_taken_in: a lone hand's trick taken in with
        North's card unread, and West leading the next a second later.)"""
        if self.complete:
            return False
        previous = self.play_of(seat)
        several = len(self.plays) > 1
        # a card put in place of one taken back comes while the trick's other cards still
        # lie there; once they have all been gone as long as a trick takes to be cleared,
        # a card in a seat that played starts the next trick
        others_gone = several and previous is not None and all(
            t - p.last_seen >= cfg.clear_time for p in self.plays if p.seat != seat)
        return ((self.gathered and (several or previous is None))
                or (several and t - self.last_seen >= cfg.gathered_time)
                or others_gone)

    def ended_by(self, seat: Seat, t: float, cfg: ReaderConfig) -> bool:
        """Whether a card resting in ``seat`` ends this full trick and leads the next: its
        player's own card is still there, or all the trick's cards went. Only a card whose
        own went while the rest of the trick stayed is a replacement."""
        gap = cfg.takeback_gap
        previous = self.play_of(seat)
        others = [p for p in self.plays if p.seat != seat]
        return (previous is None or t - previous.last_seen < gap
                or not any(t - p.last_seen < gap for p in others))

    def being_gathered(self, seat: Seat, tracks: Mapping[str, Track]) -> bool:
        """The full trick's other cards have moved (or gone from sight) since it filled.

        A corrected revoke takes back one card while the others lie still; gathering
        moves them all. One other card moving may be a nudge, so it takes two (every
        other card, when a lone hand's trick has fewer).
        """
        others = [p for p in self.plays if p.seat != seat]
        moved = 0
        for play in others:
            track = tracks.get(play.card)
            if track is None or track.rest_start > self.completed_at:
                moved += 1
        return moved >= min(2, len(others))

    def clearing(self, t: float, cfg: ReaderConfig) -> Literal["cleared", "hidden"] | None:
        """What the trick's cards being out of sight since ``last_seen`` means at ``t``:
        ``"cleared"`` (a full trick raked in), ``"hidden"`` (several cards of an unfinished
        trick out of sight too long: something is in the way), or None (wait: one card gone
        may be a lead taken back)."""
        if not self.plays or t - self.last_seen < cfg.clear_time:
            return None
        if self.complete:
            return "cleared"
        if t - self.last_seen < cfg.ask_time or len(self.plays) < 2:
            return None
        return "hidden"


def came_down(trick: TableTrick, seat: Seat, track: Track, tracks: Iterable[Track],
              takeback_gap: float) -> float:
    """When the card just read came down, for its place in the order of play: its
    own arrival, or that of another name read well on its corners since this trick
    began and read until this name came (a QC read QS for seconds came down when the
    QS was first seen). A false box that once fell on it does not count. A card that
    moved within its seat's zone since it came there came down when it came into the
    zone (tests/reader/test_moved_in_its_zone, test_unread_a_while)."""
    came = track.came
    if track.zone_seat == seat:
        came = min(came, max(track.zone_since, trick.started))
    since = track.came - takeback_gap  # (longer gone: a card taken back)
    for other in tracks:
        if (other is not track and other.zone_seat == seat and other.total >= WELL_READ
                and other.came >= trick.started
                and ((other.last_seen >= since and overlaps(other, track))
                     or on_the_spot(track, other))):
            # (read on the very spot where the other name was read, however long ago:
            # the same card, unread for a while, not one put in its place)
            came = min(came, other.came)
    return came
