"""The trick reader: per-frame card detections in, table events out.

The detector names printed corner indices, frame by frame, and is often wrong
for a frame: a hand covers a corner, glare washes one out, a box jitters, a
false box appears for one frame. The reader turns that flicker into the few
facts the table session needs (``kiosk.vision.events``):

- ``CardPlayed(seat, card, t, confidence)`` once a card has *rested* in one
  seat's zone for ``rest_time`` with enough evidence for one name;
- ``TrickComplete`` when every seat that plays this hand has a card down;
- ``TrickCleared`` when the trick's cards have left the table for ``clear_time``
  (or the next trick's first card rests before that). A trick taken in before all
  its cards were read (its places empty for ``gathered_time``) is cleared when the
  next card comes down, with a ``missing_card`` question for each card it lacks;
  after the hand's fifth trick nothing more is a play;
- ``CardReread(trick, seat, card, was)`` when a card already played in an
  earlier trick is read again, ``_SURER_ELSEWHERE`` more surely than it was
  read there (or, when the players were asked which of two names the earlier
  card was, at least as surely and surely enough not to be asked about), and
  another name not played yet was read on the earlier card:
  that card is taken to be misread, it takes the other name (with an ``unsure``
  question about it) and the new card is played;
- ``ReaderWarning`` for what it will not guess: two names fighting for one seat
  (``ambiguous``), something in a seat it cannot read (``unreadable``), a card
  already played earlier in the hand and not settled as above (``seen_twice``:
  one of the two reads is wrong, so it asks about both, the earlier one with
  its trick number), a card
  that is not in a euchre deck (``not_euchre``), a card reported on thin evidence
  (``unsure``, with its ``CardPlayed``), a play out of turn (``out_of_turn``; not
  when the seat whose turn it was holds a card put to the players), a card
  taken back and another played instead (``card_replaced``), a trick cleared
  with a seat missing (``missing_card``), the cards hidden too long
  (``occluded``).

How each tricky case is handled, so none creates or loses a play:

- Corner boxes are grouped per card: boxes with the same name within one card
  diagonal are one card; its score for the frame is ``1 - prod(1 - conf)``, so
  two agreeing corners count more than one. A euchre deck has one card of each
  name, so each name is one track: where its corners have lain since it came
  to rest (their centre says which seat's zone it is in, even when only one
  corner shows), how long it has rested, how much evidence it has. Of several
  places one name is read in at once, it is the one where it already lay, unless
  the card is not played yet and another place reads it far more surely: then the
  old place was another card misread (a TC's corner read TS), and two such frames
  move the name to where it is read surely.
- *Hands and arms* hide corners: a card that is not seen keeps its state; it
  only needs to be seen again, not to rest again (resting is reset by motion,
  two sightings in a row off its resting place, never by absence; a single far
  box of the same name is a false box and is ignored).
- *The next lead before the trick is raked in*: a new card resting while a
  full trick still lies on the table ends that trick (``TrickCleared``) and
  starts the next one.
- *Misreadings*: a name read on the very corners of a card of the trick on
  the table (AC read AS for a frame) is that card misread, never a new card; nor,
  when the name is that of another card of the trick, is the card where that one lies
  (so a card taken back is gone even while its name is read on another trick card).
  Conversely a trick card whose name gives way, on its very corners, to another
  name read ``reread`` times as much since before the first went was misread as it
  came down: it takes that name at once (a new ``CardPlayed`` for its seat, no
  ``card_replaced``: nothing was taken back).
- *A nudged card* moves but stays in its seat, and a card already played in
  this trick never counts again, wherever it lies (the trick being gathered
  sweeps cards through other seats' zones).
- *Weak reads*: the pipeline passes boxes named from ``pipeline.READ_CONFIDENCE`` (0.3),
  under the detector's operating point for one picture (0.5): a far card read at 0.45
  frame after frame is evidence. Such a box counts only where nothing on the same card
  was read surely for ``weak_after``, so weak reads never make a fight of a card that is
  read surely now and then.
- *A name giving way*: a name that another has replaced on its very corners (read there
  surely since it was last read) is not reported, and a reading that settled after the
  card stopped weighs the names by what each showed since then (a card read TC as it
  slid in, blurred, then TS at rest, is the TS, reported once).
- *Glare* drops or corrupts boxes for a frame or two: one frame is far below
  the evidence a play needs, and a name must beat every other name read in the
  seat ``dominance`` times over, counting all it was seen since it appeared
  (so a card that reads half JD, half JH is asked about, never guessed). A
  reading that has *settled* on one name (no other read there for a moment) leading
  ``lead`` times over does not wait for that: ``decide_time`` after its place
  stopped it is reported with an ``unsure`` question, so the players see every
  card within about a second. A
  name outside the euchre deck never outvotes one inside it (a 9H misread as
  6H is a 9H); it is reported only when it holds a place by itself.
- *Order*: a card that came into its zone first is reported first, even when
  a later one was read sooner (a far card on a tablet's picture is small, or a
  hand hid it as it landed): the later one waits up to ``order_hold`` for it.
  Two cards that came into sight at the same moment are taken in turn order. A seat
  whose card was put to the players (``ambiguous``, ``unreadable``) holds no one
  up: their answer puts its card in its turn, and the trick may be raked in before
  they tap (a rendered hand lost a well-read card that way). A card
  read later still (its name stayed in doubt past ``order_hold``) takes its place in
  the trick's record before the cards that came down a second or more after it
  (when it came down: a nudge since then does not change that; a card read under
  another name at first, on the same corners, came down when that name was first read).
- *A misread beside a trick card*: a name that already lay in a seat before the
  trick was full, while the seat's own card still lies there, is not the next
  lead (a lead comes down after the trick is full); it is set aside.
- *A card taken back and replaced* before the trick is turned: once the played
  card has been gone for ``takeback_gap`` and another card rests in that seat,
  the reader warns ``card_replaced`` and reports a new ``CardPlayed`` for the
  same seat; **a later CardPlayed for a seat that already played in the current
  trick replaces the earlier one** (its place in the order of play is kept).
  Not while a full trick is being gathered: once two of its other cards (every
  other card, in a lone hand's trick) have moved since it filled, a name read in
  the sweep is a misreading of the pile and is set aside (a corrected revoke
  leaves the other cards lying still).
- *Lone hands*: the partner who sits out is given (``sitting_out``); tricks are
  complete with three cards, and a card from that seat is out of turn.
- *Order of play*: the leader is given; with ``trump`` the reader works out each
  trick's winner (the next leader) with the rules engine, otherwise the table
  session tells it (``set_leader``). A card resting in the wrong seat is still
  reported (the record keeps the order played) and warned ``out_of_turn``.
- *A card across the line* between two seats' zones (its centre within
  ``_ACROSS_LINE`` of the diagonal) is the neighbouring seat's when that seat
  has not played and either the zone's own seat has its card down or, that seat
  not having played, it is the neighbour's turn.
- *A card read late* keeps its turn: it came down when it came into its seat's
  zone (not when a sweep or a slide last moved it), or when another name was
  read on its very spot (``_SAME_PLACE``) earlier in the trick, however long it
  then went unread.

The reader knows nothing of bidding or scoring: the rules engine, fed by the
table session, decides whether a card proves a renege.

>>> from kiosk.vision.calibration import Calibration
>>> reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N")
>>> north_card = [{"card": "JH", "confidence": 0.9, "box": [45, 20, 50, 25]}]
>>> events = [e for i in range(10) for e in reader.feed(i / 10, north_card)]
>>> [(e.kind, e.seat, e.card) for e in events]
[('card_played', 'N', 'JH')]
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kiosk.rules.cards import EUCHRE_NAMES, Card
from kiosk.rules.play import TRICKS_PER_HAND
from kiosk.vision.calibration import Calibration
from kiosk.vision.events import (
    CardPlayed,
    CardReread,
    ReaderWarning,
    TrickCleared,
    TrickComplete,
    VisionEvent,
)

SEATS = ("N", "E", "S", "W")
EUCHRE_CARDS = EUCHRE_NAMES
FACE_DOWN = "back"

# Warning codes (``ReaderWarning.kind``) this reader raises.
AMBIGUOUS = "ambiguous"
UNREADABLE = "unreadable"
SEEN_TWICE = "seen_twice"
NOT_EUCHRE = "not_euchre"
OUT_OF_TURN = "out_of_turn"
CARD_REPLACED = "card_replaced"
MISSING_CARD = "missing_card"
OCCLUDED = "occluded"
UNSURE = "unsure"

#: seconds between two sightings of a card for them to count as it being there
_PRESENCE_GAP = 0.35
#: cards that came to rest less than this apart (seconds) are ordered by turn
_SAME_MOMENT = 0.3
#: a card reported late goes before a card already reported only when it came into its
#: zone this much earlier (seconds): plainly first, not a near tie
_LATE_READ = 1.0
#: evidence (summed scores) that makes a name more than a stray box: a card being read
_WELL_READ = 0.8
#: a name not yet played, read this much more surely (score) in another place than where
#: it has lain, is followed there
_SURER_ELSEWHERE = 0.2
#: a card read within this distance (table units) of where a card of an earlier trick lay
#: is taken for that same card, still lying there
_SAME_PLACE = 0.02
#: a card whose centre lies this near (table units) the diagonal between two seats' zones
#: may be either seat's: the turn of play decides
_ACROSS_LINE = 0.04
#: how near a name read must lie to another card's corners to be read on that card
_ON_CORNERS = 0.03
#: two corner indices of one card lie this near each other (table units) at the most
_SAME_CARD = 0.12

_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass(frozen=True)
class Detection:
    """One box from the detector, in picture pixels (CONTRACTS ``kiosk detect``)."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]
    #: the classifier's runner-up euchre name and its confidence, when it gave one
    alternative: str | None = None
    alternative_confidence: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    @classmethod
    def coerce(cls, item: Any) -> Detection:
        """Accept a Detection, a CONTRACTS dict, a compact ``[card, confidence, x1, y1, x2,
        y2]`` list (recorded streams; ``alternative, confidence`` may follow), or any
        object with card/confidence/box (and perhaps alternative/alternative_confidence)."""
        if isinstance(item, Detection):
            return item
        alternative, other = None, 0.0
        if isinstance(item, list | tuple):
            card, conf, box = item[0], item[1], item[2:6]
            if len(item) >= 8:
                alternative, other = item[6], item[7]
        elif isinstance(item, dict):
            card, conf, box = item["card"], item["confidence"], item["box"]
            alternative, other = item.get("alternative"), item.get("alternative_confidence", 0.0)
        else:
            card, conf, box = item.card, item.confidence, item.box
            alternative = getattr(item, "alternative", None)
            other = getattr(item, "alternative_confidence", 0.0)
        x1, y1, x2, y2 = (float(v) for v in box)
        return cls(card=str(card).upper() if card != FACE_DOWN else FACE_DOWN,
                   confidence=float(conf), box=(x1, y1, x2, y2),
                   alternative=None if alternative is None else str(alternative).upper(),
                   alternative_confidence=float(other))


@dataclass(frozen=True)
class ReaderConfig:
    """Timings in seconds, distances in table units (the play area is the unit square).

    The defaults are tuned on rendered hands at 10-15 frames per second: a card
    counts about half a second after it stops, a hand may hide cards for over a
    second without losing them, and the trick is cleared a second after its
    cards vanish.
    """

    rest_time: float = 0.45
    min_frames: int = 3
    min_confidence: float = 0.2
    accept_evidence: float = 1.6
    dominance: float = 2.5
    window: float = 1.5
    move_tolerance: float = 0.02
    corner_jump: float = 0.06
    cluster_radius: float = 0.17
    takeback_gap: float = 0.8
    clear_time: float = 1.2
    ask_time: float = 2.5
    forget_time: float = 4.0
    order_hold: float = 1.5
    #: an unfinished trick whose places have all been empty this long was taken in
    gathered_time: float = 2.0
    #: a card reported with less confidence than this comes with a question (``unsure``):
    #: on rendered hands read by the trained model, 3 of the 9 wrong reads and 6 of the
    #: 140 right ones fell under 0.6
    sure_confidence: float = 0.6
    #: a card whose place has held it this long (since it stopped, under whichever name),
    #: its likeliest name read ``lead`` times as much as the next though not yet
    #: ``dominance`` times, is reported now with a question, not waited on: the players
    #: see it within a second (on 300 rendered hands read by the model, the cards over a
    #: second fell from 22 to 17, for 0.03 more questions a hand)
    decide_time: float = 0.8
    lead: float = 1.5
    #: a card of the trick on the table whose name, on its very corners, has given way
    #: to another read this many times as much takes that name (misread as it came down)
    reread: float = 1.5
    #: the evidence of a name already played this hand, where it is the runner-up to a
    #: name still to come (rendered hand 10055: North's AS read 0.95 on one corner and AC,
    #: East's card in trick 1, 0.55 on the other, was asked about, not taken)
    played_weight: float = 0.5
    #: a box named under this confidence (the detector's operating point for one picture;
    #: the pipeline passes boxes from ``pipeline.READ_CONFIDENCE`` up) is a weak read: it
    #: does not count where another name was read more surely on the same card (within
    #: ``_SAME_CARD``) in the last ``weak_after`` seconds
    weak_box: float = 0.5
    weak_after: float = 0.75


@dataclass
class _Track:
    """One card name seen in one seat's zone: when, where, how sure."""

    card: str
    first_seen: float
    last_seen: float
    rest_start: float
    points: np.ndarray
    #: when the card was put where it lies: a nudge restarts ``rest_start`` but not this
    #: (the card was played when it first came down); being taken away and put down
    #: again restarts both
    came: float = -math.inf
    observations: deque[tuple[float, float]] = field(default_factory=deque)
    # corners seen since the card came to rest: [x, y, weight of the running mean, sightings]
    anchors: list[list[float]] = field(default_factory=list)
    moving: np.ndarray | None = None  # where the last sighting that moved was
    total: float = 0.0  # every sighting's score since the name was first seen here
    #: every sighting's score since the card stopped where it lies (``rest_start``): what
    #: was read while it slid in, blurred, is not counted
    at_rest: float = 0.0
    #: the classifier's runner-up names on its corners, summed like ``total``
    alternatives: dict[str, float] = field(default_factory=dict)
    shadow: bool = False  # read on a trick card's corners: a misreading of that card
    #: the trick card whose corners it is read on (when ``shadow`` was set for that)
    shadow_of: str | None = None
    zone_seat: str | None = None  # the seat whose zone it lies in, and since when
    zone_since: float = 0.0

    def observe(self, t: float, points: np.ndarray, score: float, cfg: ReaderConfig) -> None:
        """Add one sighting. Resting is judged against where each corner has lain since the
        card stopped (a running mean, so box jitter averages out); a corner that appears
        or vanishes (a hand passing) is not motion; the card has moved only when two
        sightings in a row are off by more than ``move_tolerance``. A card seen again far
        from where it lay, after it was out of sight, was picked up and put down again."""
        if self.anchors and t - self.last_seen > cfg.takeback_gap and min(
                math.hypot(p[0] - a[0], p[1] - a[1]) for p in points for a in self.anchors
        ) > cfg.corner_jump:
            self.rest_start = self.came = t
            self.observations.clear()
            self.anchors = []
            self.total = self.at_rest = 0.0  # what was seen elsewhere says nothing of here
            self.alternatives = {}
            self.shadow, self.shadow_of = False, None
            self.zone_seat = None  # (and when it came into its zone: from now)
        matched: list[tuple[float, list[float], np.ndarray]] = []
        fresh: list[np.ndarray] = []
        for p in points:
            best, distance = None, math.inf
            for anchor in self.anchors:
                d = math.hypot(p[0] - anchor[0], p[1] - anchor[1])
                if d < distance:
                    best, distance = anchor, d
            if best is None or distance > cfg.corner_jump:
                fresh.append(p)
            else:
                matched.append((distance, best, p))
        # Only new corners and none of the old ones: the card has jumped (a fast slide)
        # or a hand swapped which corner shows; a second such sighting in a row decides.
        moved = (min(d for d, _a, _p in matched) > cfg.move_tolerance if matched
                 else bool(self.anchors))
        if moved and self.moving is not None and float(np.min(np.linalg.norm(
                points[:, None, :] - self.moving[None, :, :], axis=2))) > cfg.cluster_radius:
            # this sighting and the last one that moved disagree: one of them was a
            # false box; keep the card where it was and remember the newer one
            self.moving = points
            return
        if moved and self.moving is not None:
            if not matched or self.last_seen - self.rest_start < cfg.rest_time:
                # still arriving, or gone somewhere else; a card that had come to rest
                # and moved a little was nudged, and was played when it came down
                self.came = t
            self.rest_start = t
            self.at_rest = 0.0
            self.observations.clear()
            self.anchors = [[float(p[0]), float(p[1]), 1.0, 1.0] for p in points]
            self.moving = None
            self.shadow, self.shadow_of = False, None  # judged afresh where it now lies
        else:
            self.moving = points if moved else None
            if not moved:
                for _d, anchor, p in matched:
                    n = min(anchor[2], 8.0)
                    anchor[0] = (anchor[0] * n + float(p[0])) / (n + 1)
                    anchor[1] = (anchor[1] * n + float(p[1])) / (n + 1)
                    anchor[2] = n + 1
                    anchor[3] += 1
            self.anchors += [[float(p[0]), float(p[1]), 1.0, 1.0] for p in fresh
                             if not self.anchors or min(math.hypot(p[0] - a[0], p[1] - a[1])
                                                        for a in self.anchors)
                             <= cfg.cluster_radius]
        self.points = points
        self.last_seen = t
        self.total += score
        self.at_rest += score
        self.observations.append((t, score))
        while self.observations and self.observations[0][0] < t - cfg.window:
            self.observations.popleft()

    @property
    def position(self) -> np.ndarray:
        """Where the card lies: the mean of its corners since it came to rest (both
        corners, once both were seen), so one visible corner does not move it; each
        corner weighs as often as it was seen, so a stray misread box hardly counts."""
        a = np.array(self.anchors)
        return np.average(a[:, :2], axis=0, weights=a[:, 3])

    def main_corners(self) -> list[list[float]]:
        """The corners seen at least half as often as the most seen one."""
        most = max(a[3] for a in self.anchors)
        return [a for a in self.anchors if a[3] >= most / 2]

    def distance(self, points: np.ndarray) -> float:
        if not self.anchors:
            return math.inf
        return min(math.hypot(p[0] - a[0], p[1] - a[1]) for p in points for a in self.anchors)

    def evidence(self, now: float, cfg: ReaderConfig) -> float:
        since = max(self.rest_start, now - cfg.window)
        return sum(s for t, s in self.observations if t >= since)

    def frames(self, now: float, cfg: ReaderConfig) -> int:
        since = max(self.rest_start, now - cfg.window)
        return sum(1 for t, _ in self.observations if t >= since)

    def mean_score(self, sure: float = 0.0) -> float:
        """The mean score of its recent frames; of those scored ``sure`` or more, when it
        has any (a card read surely is not made doubtful by weak reads of its name between)."""
        scores = [s for _, s in self.observations]
        surely = [s for s in scores if s >= sure]
        chosen = surely or scores
        return sum(chosen) / len(chosen) if chosen else 0.0

    def confidence(self, runner_up: float, sure: float = 0.0) -> float:
        """How sure a play of this name is against a rival read ``runner_up`` in all: its
        mean score (over its frames scored ``sure`` or more, if any), times its share of the
        two names' evidence."""
        return min(0.999, self.mean_score(sure) * self.total / (self.total + runner_up))


@dataclass
class _Play:
    seat: str
    card: str
    t: float
    confidence: float
    last_seen: float = -math.inf  # last frame the card was seen (two sightings in a row)
    came: float = -math.inf  # when the card came to rest where it lies (orders the trick)
    #: other euchre names read on this card, with their evidence: what it may be instead,
    #: should its name be read more surely on a later card
    rivals: dict[str, float] = field(default_factory=dict)
    #: the card's track, whose runner-up names join ``rivals`` when the trick is cleared
    track: _Track | None = field(default=None, repr=False)
    #: where the card lay when its trick was cleared (table units)
    where: tuple[float, ...] | None = None
    #: two names fought for this card and the players were asked which (``ambiguous``)
    doubted: bool = False


@dataclass
class _Trick:
    leader: str | None
    plays: list[_Play] = field(default_factory=list)
    complete: bool = False
    last_seen: float = -math.inf  # last frame any of this trick's cards was seen
    warned: set[str] = field(default_factory=set)
    #: seat -> the names that fought for its card when the players were asked which
    #: (``ambiguous``), with their evidence then
    doubts: dict[str, dict[str, float]] = field(default_factory=dict)
    #: last frame anything at all (any name, any confidence) lay in a seat that played
    places_busy: float = -math.inf
    #: those places were all empty for ``gathered_time``: the trick was taken in
    gathered: bool = False
    completed_at: float = math.inf  # when every seat had a card in it
    started: float = -math.inf  # when the trick before it was cleared

    def play_of(self, seat: str) -> _Play | None:
        return next((p for p in self.plays if p.seat == seat), None)

    def cards(self) -> set[str]:
        return {p.card for p in self.plays}


@dataclass(frozen=True)
class _CardSighting:
    """The corner boxes of one card in one frame, grouped."""

    card: str
    score: float
    pixels: np.ndarray
    table: np.ndarray
    seat: str | None
    #: runner-up euchre names of its boxes, each at its surest box's confidence
    alternatives: dict[str, float] = field(default_factory=dict)


class TrickReader:
    """Feeds on one frame's detections at a time and says what happened on the table.

    ``leader`` leads the first trick; ``sitting_out`` is the lone maker's partner;
    ``trump`` (a suit letter) lets the reader find each trick's winner and so
    the next leader; ``winner_of`` overrides that rule (plays -> winning seat).
    """

    def __init__(
        self,
        calibration: Calibration,
        leader: str | None = None,
        *,
        trump: str | None = None,
        sitting_out: str | None = None,
        config: ReaderConfig | None = None,
        winner_of: Callable[[Sequence[tuple[str, str]]], str] | None = None,
    ) -> None:
        self.calibration = calibration
        self.config = config or ReaderConfig()
        self.trump = trump
        self.sitting_out = sitting_out
        self._winner_of = winner_of
        self.tricks: list[list[tuple[str, str]]] = []  # finished tricks, (seat, card) in order
        self._trick = _Trick(leader=leader)
        self._tracks: dict[str, _Track] = {}  # card name -> where and how it was seen
        self._occupied: dict[str, deque[tuple[float, bool]]] = {}  # seat -> frames busy?
        self._played_cards: set[str] = set()  # cards of earlier tricks of this hand
        self._history: list[list[_Play]] = []  # those tricks' plays, as ``tricks``
        self._raw_seen: dict[str, float] = {}
        self._warned_hand: set[tuple[str, str]] = set()
        self._now = 0.0
        #: (time, x, y, name, confidence) of the boxes read surely in the last ``weak_after``
        self._sure_seen: deque[tuple[float, float, float, str, float]] = deque()

    # ---- the public face ---------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s for s in SEATS if s != self.sitting_out)

    @property
    def current_trick(self) -> list[tuple[str, str]]:
        return [(p.seat, p.card) for p in self._trick.plays]

    @property
    def leader(self) -> str | None:
        return self._trick.leader

    def set_leader(self, seat: str) -> None:
        """The table session's word on who leads the trick now being played."""
        self._trick.leader = seat

    def set_contract(self, trump: str | None, sitting_out: str | None = None) -> None:
        """Trump and the lone maker's partner, once bidding has settled them."""
        self.trump, self.sitting_out = trump, sitting_out

    def new_hand(self, leader: str | None = None, *, trump: str | None = None,
                 sitting_out: str | None = None) -> None:
        """Forget the last hand (its cards may all be played again) and start afresh.

        The table session calls this when bidding ends: a turn-up shown in the
        dealer's zone during bidding must not count as the first card played.
        """
        self.trump, self.sitting_out = trump, sitting_out
        self.tricks = []
        self._trick = _Trick(leader=leader)
        self._tracks.clear()
        self._occupied.clear()
        self._played_cards = set()
        self._history = []
        self._raw_seen.clear()
        self._warned_hand.clear()

    def all_tricks(self) -> list[list[tuple[str, str]]]:
        """Finished tricks plus the one on the table, if any card of it is down."""
        return self.tricks + ([self.current_trick] if self._trick.plays else [])

    def feed(self, t: float, detections: Iterable[Any]) -> list[VisionEvent]:
        """One frame at time ``t`` (seconds, increasing); returns the events it settles."""
        cfg = self.config
        self._now = t
        events: list[VisionEvent] = []
        boxes = [Detection.coerce(d) for d in detections]
        # each box's centre on the table, mapped once for the weak-read filter and grouping
        points = self.calibration.to_table(np.array([d.centre for d in boxes]).reshape(-1, 2))
        boxes, points = self._unless_read_surely(t, boxes, points)
        sightings = self._group(t, boxes, points)
        low = [d for d in boxes if d.confidence < cfg.min_confidence and d.card != FACE_DOWN]
        by_card: dict[str, list[_CardSighting]] = {}
        for s in sightings:
            by_card.setdefault(s.card, []).append(s)
        for card, found in by_card.items():
            # A euchre deck has one card of each name: of several places a name is read
            # in at once, the one where that card already lay (else the surest) is it.
            track = self._tracks.get(card)
            if track is not None and track.anchors:
                known = track  # (named for the key function: a narrowed local)
                s = min(found, key=lambda x: (known.distance(x.table), -x.score))
                if self._misreads_trick_card(known, s):
                    continue
                if known.distance(s.table) <= cfg.cluster_radius:
                    self._note_trick_card(card, t)  # (a false box far away is not it)
                surest = max(found, key=lambda x: x.score)
                if (surest.score >= s.score + _SURER_ELSEWHERE
                        and card not in self._played_cards | self._trick.cards()):
                    # A card not played yet, read far more surely somewhere else than
                    # where its name has lain: the old place is another card misread
                    # (a TC's corner read TS at 0.7 held the TS, read at 0.98 when it
                    # came down, out of its own seat). Two such frames move it there.
                    s = surest
            else:
                s = max(found, key=lambda x: x.score)
                self._note_trick_card(card, t)
            if track is None:
                self._tracks[card] = track = _Track(
                    card=card, first_seen=t, last_seen=t, rest_start=t, came=t, points=s.table)
            track.observe(t, s.table, s.score, cfg)
            for name, value in s.alternatives.items():
                track.alternatives[name] = track.alternatives.get(name, 0.0) + value
            if track.shadow_of is not None and card in EUCHRE_CARDS:
                self._note_rival(track)
        low_seats = self._seats_of(low)
        self._note_occupancy(t, sightings, low_seats)
        self._note_gathered(t, sightings, low_seats)
        events += self._check_cleared(t)
        if len(self.tricks) < TRICKS_PER_HAND:  # (after the fifth trick the hand is over)
            events += self._settle_seats(t)
        self._forget(t)
        return events

    def finish(self, t: float) -> list[VisionEvent]:
        """The video ended: a complete trick still on the table counts as played."""
        events: list[VisionEvent] = []
        if self._trick.plays and (self._trick.complete or len(self.tricks) == TRICKS_PER_HAND - 1):
            events += self._clear(t)
        return events

    # ---- per frame: corner boxes -> cards -> seats --------------------------------------
    def _group(self, t: float, detections: list[Detection], points: np.ndarray
               ) -> list[_CardSighting]:
        """The frame's face boxes grouped into card sightings; ``points`` are the boxes'
        centres on the table, row for row."""
        cfg = self.config
        kept = [i for i, d in enumerate(detections)
                if d.card != FACE_DOWN and d.confidence >= cfg.min_confidence]
        if not kept:
            return []
        usable = [detections[i] for i in kept]
        centres = np.array([d.centre for d in usable], dtype=np.float64)
        table = points[kept]
        order = sorted(range(len(usable)), key=lambda i: -usable[i].confidence)
        groups: list[list[int]] = []
        for i in order:
            for g in groups:
                if (len(g) < 4 and usable[g[0]].card == usable[i].card
                        and np.linalg.norm(table[g[0]] - table[i]) <= cfg.cluster_radius):
                    g.append(i)
                    break
            else:
                groups.append([i])
        out = []
        for g in groups:
            score = 1.0 - math.prod(1.0 - min(usable[i].confidence, 0.999) for i in g)
            seat = self.calibration.zones.seat_at(table[g].mean(axis=0))
            alternatives: dict[str, float] = {}
            for i in g:
                name = usable[i].alternative
                if name is not None:
                    alternatives[name] = max(alternatives.get(name, 0.0),
                                             usable[i].alternative_confidence)
            out.append(_CardSighting(card=usable[g[0]].card, score=score, pixels=centres[g],
                                     table=table[g], seat=seat, alternatives=alternatives))
        return out

    def _unless_read_surely(self, t: float, boxes: list[Detection], points: np.ndarray
                            ) -> tuple[list[Detection], np.ndarray]:
        """The boxes and their table points, less the weak ones (named under ``weak_box``)
        that give another name than the one read most surely on the same card in the last
        ``weak_after`` seconds.
        A far card read at 0.45 on both corners, frame after frame and never more surely,
        is read in the end (rendered hand 11031: North's JD, in a harsh tablet view, was
        asked for when its trick was taken in); but where a card is read surely now and
        then, a weak read of another name in between (a JC read 0.9 at times, and 0.45 JC
        on one corner against 0.44 JS on the other between) would only make a fight of it.
        A weak read agreeing with the sure ones still counts: it is more of the same."""
        cfg = self.config
        weak: list[tuple[Detection, float, float]] = []
        for d, (x, y) in zip(boxes, points, strict=True):
            if d.confidence >= cfg.weak_box or d.card == FACE_DOWN:
                self._sure_seen.append((t, float(x), float(y), d.card, d.confidence))
            else:
                weak.append((d, float(x), float(y)))
        while self._sure_seen and self._sure_seen[0][0] < t - cfg.weak_after:
            self._sure_seen.popleft()
        dropped: set[int] = set()  # (ids of the boxes left out)
        for d, x, y in weak:
            read: dict[str, float] = {}  # names read surely on this card, summed
            for _t, sx, sy, card, confidence in self._sure_seen:
                if math.hypot(sx - x, sy - y) <= _SAME_CARD:
                    read[card] = read.get(card, 0.0) + confidence
            if read and max(read, key=lambda name: read[name]) != d.card:
                dropped.add(id(d))
        kept = [i for i, d in enumerate(boxes) if id(d) not in dropped]
        return [boxes[i] for i in kept], points[kept]

    def _note_trick_card(self, card: str, t: float) -> None:
        """A trick card counts as still on the table only when seen in two frames close
        together: one false box with its name must not hold the trick on the table."""
        previous = self._raw_seen.get(card)
        self._raw_seen[card] = t
        play = next((p for p in self._trick.plays if p.card == card), None)
        if play is not None and previous is not None and t - previous <= _PRESENCE_GAP:
            play.last_seen = t
            self._trick.last_seen = max(self._trick.last_seen, t)

    def _misreads_trick_card(self, track: _Track, sighting: _CardSighting) -> bool:
        """A card of the trick on the table read, away from where it lies, on the corners
        of another card of that trick still lying there: that other card misread, not this
        one moved. Left out, so the name does not follow the misreading (in a rendered
        hand, West's AS was taken back and East's AC, read AS in half its frames, kept the
        AS on the table: the 9C put in its place was taken for the next lead, and every
        later trick was shifted by one)."""
        if track.card not in self._trick.cards() or track.distance(
                sighting.table) <= self.config.corner_jump:
            return False
        for play in self._trick.plays:
            other = self._tracks.get(play.card)
            if (other is not None and other is not track and other.anchors
                    and self._now - other.last_seen <= _PRESENCE_GAP
                    and _all_near(sighting.table, other.anchors, _ON_CORNERS)):
                return True
        return False

    def _seats_of(self, boxes: list[Detection]) -> set[str]:
        """The seats whose zones these boxes lie in."""
        if not boxes:
            return set()
        pts = self.calibration.to_table(np.array([d.centre for d in boxes]))
        return {z for p in pts if (z := self.calibration.zones.seat_at(p)) is not None}

    def _note_occupancy(self, t: float, sightings: list[_CardSighting],
                        low_seats: set[str]) -> None:
        """Remember, frame by frame, which seats show *something* the reader cannot
        name yet: an unreadable card is still a card, and should be asked about.
        ``low_seats``: where the boxes too faint to name lie."""
        known = self._played_cards | self._trick.cards()
        seats = {s.seat for s in sightings if s.seat is not None and s.card not in known}
        seats |= low_seats
        horizon = t - self.config.ask_time
        for seat in SEATS:
            history = self._occupied.setdefault(seat, deque())
            history.append((t, seat in seats))
            while history and history[0][0] < horizon:
                history.popleft()

    def _note_gathered(self, t: float, sightings: list[_CardSighting],
                       low_seats: set[str]) -> None:
        """Latch when an unfinished trick's places have all been empty for a while: its
        cards were taken in, even those nobody could read. (A card read under another
        name, or too faintly to name, still keeps its place busy.) Every play sets
        ``places_busy``, so the clock runs from the trick's last card at the latest."""
        trick = self._trick
        if not trick.plays or trick.complete or trick.gathered:
            return
        places = {p.seat for p in trick.plays}
        if places & ({s.seat for s in sightings} | low_seats):
            trick.places_busy = t
        elif t - trick.places_busy >= self.config.gathered_time:
            trick.gathered = True

    def _mostly_occupied(self, seat: str, t: float) -> bool:
        history = self._occupied.get(seat)
        if not history or t - history[0][0] < 0.9 * self.config.ask_time:
            return False
        return sum(1 for _t, busy in history if busy) >= 0.6 * len(history)

    # ---- per frame: decisions -----------------------------------------------------------
    def _settle_seats(self, t: float) -> list[VisionEvent]:
        cfg = self.config
        events: list[VisionEvent] = []
        confirmed: list[tuple[float, str, _Track, float]] = []
        pending: dict[str, float] = {}  # seat -> earliest rest of a card still being read
        trick_cards = self._trick.cards()
        # Names read on the very corners of a trick card lying there are misreadings of it
        # (AC read as AS for a frame or two), not cards of their own. (A card put where a
        # card taken back lay is not: that one is gone.)
        present = [tr for c in trick_cards if (tr := self._tracks.get(c)) is not None
                   and t - tr.last_seen <= 0.5]
        for tr in self._tracks.values():
            if not tr.shadow and tr.card not in trick_cards:
                own = next((o for o in present if _overlaps(tr, o)), None)
                if own is not None:  # until the name is read somewhere else
                    tr.shadow, tr.shadow_of = True, own.card
            zone = self._seat_of(tr)
            if zone != tr.zone_seat:  # when a card came into a seat's zone orders the play
                tr.zone_seat, tr.zone_since = zone, tr.last_seen
        events += self._reread_on_the_table(t)
        trick_cards = self._trick.cards()
        for seat in SEATS:
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
                events += self._stray(seat, tracks, t)
                continue
            # Cards still being read here, for the order of play: seen twice at least and
            # not long ago (a hand may hide a card that is on its way in).
            viable = [tr for tr in self._tracks.values()
                      if tr.card in EUCHRE_CARDS and tr.card not in self._played_cards
                      and tr.card not in trick_cards and not tr.shadow
                      and t - tr.last_seen <= cfg.ask_time and tr.total >= _WELL_READ
                      and tr.zone_seat == seat]
            if viable and play is None and not self._asked(seat):
                # (a seat whose card was put to the players holds no one up: their answer
                # puts it in its turn, and the trick may be taken in before they tap)
                pending[seat] = min(tr.zone_since for tr in viable)
            # A card outside the euchre deck never competes with one inside it: a 9H that
            # sometimes reads 6H is a 9H. It is only reported when it holds the seat alone.
            euchre = [tr for tr in tracks if tr.card in EUCHRE_CARDS]
            best, runner_up = self._best(euchre, t)
            dominant = (best is not None and self._dominant(best, runner_up, t)
                        and not self._giving_way(best, euchre, t))
            due = False
            if best is not None and not dominant:
                # the name the reading settled on since the card stopped, which need not be
                # the one read most since it came into sight (read TC as it slid in, then TS)
                settled = max(euchre, key=lambda tr: tr.at_rest)
                due = self._due(seat, settled, euchre, play, t)
                if due:
                    best, runner_up = settled, self._runner_up(settled, euchre)
            if best is None or not (dominant or due):
                stray = self._stray(seat, tracks, t)
                events += stray
                if not stray:
                    self._maybe_ask(seat, euchre, tracks, t, events, played=play is not None)
                continue
            confidence = best.confidence(runner_up, cfg.weak_box)
            if due:
                confidence = min(confidence, 0.99 * cfg.sure_confidence)
            if best.card in self._played_cards:
                # One name holds the seat, but that card is already in an earlier trick:
                # one of the two reads is wrong. Read far more surely here, and with
                # another name read on the earlier card, the earlier one is (it takes that
                # name, put to the players); else both are put to the players.
                reread = self._reread_earlier(best, confidence)
                if not reread:
                    events += self._seen_twice(seat, best.card)
                    continue
                events += reread
            if (play is not None and not self._trick.complete
                    and best.rest_start <= play.last_seen):
                continue  # a replacement comes down after the played card went, not before
            if (play is not None and t - play.last_seen < cfg.takeback_gap
                    and best.frames(t, cfg) < 2 * cfg.min_frames):
                continue  # a lead beside a full trick must be seen well: it ends the trick
            if self._trick.complete and t - best.last_seen > _PRESENCE_GAP:
                # A card that ends a full trick (or replaces one of its cards) lies there
                # now: a name read for a few frames on the pile being swept up vanishes
                # with it (a JD read on a rendered hand's gathered trick, gone for a
                # second, was taken for the next lead and made a false renege).
                continue
            rivals = {tr.card: tr.total for tr in euchre if tr is not best}
            confirmed.append((best.zone_since, seat, best, confidence, rivals))
        def first(seat: str, came: float) -> tuple[float, int]:
            # Cards that came into their zones within a moment of each other (both hidden
            # by an arm while they were put down, say) are taken in the order of play.
            return (round(came / _SAME_MOMENT), self._turn_index(seat))

        for came, seat, track, confidence, rivals in sorted(
                confirmed, key=lambda c: first(c[1], c[0])):
            new_play = self._trick.play_of(seat) is None
            earlier = [s for s, r in pending.items() if s != seat and (
                r < came - _SAME_MOMENT or (r < came + _SAME_MOMENT
                                            and self._turn_index(s) < self._turn_index(seat)))]
            if new_play and earlier and t - track.rest_start < cfg.rest_time + cfg.order_hold:
                # Another seat's card came down first (or with it, and that seat's turn
                # comes first) and is still being read: wait for it, so the order of play
                # is the order the cards came down.
                continue
            events += self._accept(seat, track, confidence, t, rivals)
            pending.pop(seat, None)
        return events

    def _asked(self, seat: str) -> bool:
        """The players were asked to name this seat's card in the trick on the table (its
        card lies there; the answer puts it in its turn)."""
        return any(f"{kind}:{seat}" in self._trick.warned
                   for kind in (AMBIGUOUS, UNREADABLE, SEEN_TWICE))

    def _turn_index(self, seat: str) -> int:
        """How many turns from now this seat plays in the trick (0: its turn now)."""
        start = self._expected_seat() or self._trick.leader or seat
        return (SEATS.index(seat) - SEATS.index(start)) % 4

    def _rested(self, tr: _Track, t: float) -> bool:
        cfg = self.config
        return (t - tr.rest_start >= cfg.rest_time and tr.frames(t, cfg) >= cfg.min_frames
                and tr.evidence(t, cfg) >= cfg.accept_evidence)

    def _stray(self, seat: str, tracks: list[_Track], t: float) -> list[VisionEvent]:
        """A card from outside the euchre deck that holds the seat by itself."""
        strays = [tr for tr in tracks if tr.card not in EUCHRE_CARDS]
        stray, runner_up = self._best(strays, t)
        if stray is None or not self._dominant(stray, runner_up, t):
            return []
        return self._warn_once(NOT_EUCHRE, seat, stray.card,
                               f"The {_words(stray.card)} is not a euchre card; "
                               f"please take it out of {_SEAT_NAMES[seat]}'s place.")

    def _seat_of(self, track: _Track) -> str | None:
        """The seat whose zone the card lies in (the centre of the corners seen).

        A card lying across the diagonal between two zones (within ``_ACROSS_LINE``)
        belongs to the neighbouring seat when that seat has not played in this trick and
        either the zone's own seat has its card lying there already or, the zone's own
        seat not having played, it is the neighbour's turn (a card put where a card
        taken back lay stays the zone's own). (On a rendered tablet view North's 9H
        showed only its corner on East's side of the line for half a second: it was
        given to East, and East's own card, coming next, found East's place taken.)"""
        if not track.anchors:
            return None
        x, y = track.position
        point = (float(x), float(y))
        zones = self.calibration.zones
        seat = zones.seat_at(point)
        other = zones.seat_across(point, _ACROSS_LINE)
        if seat is None or other is None or track.card in self._trick.cards():
            return seat
        if other not in self.players or self._trick.play_of(other) is not None:
            return seat
        own = self._trick.play_of(seat)
        if own is not None:  # (its card gone: this may be the card put in its place)
            present = self._now - own.last_seen < self.config.takeback_gap
            return other if present else seat
        return other if self._expected_seat() == other else seat

    def _due(self, seat: str, track: _Track, names: list[_Track], play: _Play | None,
             t: float) -> bool:
        """Whether the seat's likeliest name, not yet dominant, is reported now: the
        reading has settled on it (no other name read here for ``_PRESENCE_GAP``), it
        leads ``lead`` times over, and the place has held a card for ``decide_time``
        (timed from the first of the names read on the same corners to stop: an AC read
        for half a second, then AS, stopped when the AC did). On rendered hands an AS read
        AC for five frames, then AS, waited 1.02 s for dominance (9005), a KC read KS
        the same way 1.34 s (9080); reported this way, at 0.86 and 0.84 s, with a
        question. Two names still read turn about are not settled: they are asked
        about (``ambiguous``), not guessed."""
        cfg = self.config
        if play is not None or not self._rested(track, t) or self._asked(seat):
            return False
        others = [tr for tr in names if tr is not track]
        if any(t - tr.last_seen < _PRESENCE_GAP
               or track.at_rest < cfg.lead * self._rival_weight(tr, track) * tr.at_rest
               for tr in others):
            return False
        since = min([track.rest_start] + [tr.rest_start for tr in self._tracks.values()
                     if tr is not track and tr.zone_seat == seat and tr.card in EUCHRE_CARDS
                     and _one_card(tr, track)])
        return t - since >= cfg.decide_time

    def _giving_way(self, track: _Track, names: list[_Track], t: float) -> bool:
        """Whether another name has taken this one's place on its very corners: read there
        now, in two frames or more and surely (``_WELL_READ``), since this name was last
        read. The reading is changing, so this name is not reported yet: the players would
        see a wrong card and then its correction (rendered hand 11079: East's TS, read TC
        as it slid in and for a moment after, then TS on both corners at 0.96, was reported
        TC, put right 0.75 s later)."""
        for other in names:
            if other is track or other.last_seen < t or not _one_card(other, track):
                continue
            since = [score for seen, score in other.observations if seen > track.last_seen]
            if len(since) >= 2 and sum(since) >= _WELL_READ:
                return True
        return False

    def _dominant(self, track: _Track, runner_up: float, t: float) -> bool:
        return self._rested(track, t) and track.total >= self.config.dominance * runner_up

    def _best(self, candidates: list[_Track], t: float) -> tuple[_Track | None, float]:
        if not candidates:
            return None, 0.0
        # Ranked by all the evidence since each name was first seen here, not a window:
        # a card that reads half JD, half JH must stay undecided however the frames fall.
        best = max(candidates, key=lambda tr: tr.total)
        return best, self._runner_up(best, candidates)

    def _runner_up(self, track: _Track, candidates: list[_Track]) -> float:
        """The evidence of the strongest rival to ``track`` among ``candidates``, each
        counted as :meth:`_rival_weight` says (so a played name read more can count for
        less than a name still to come read less)."""
        return max((tr.total * self._rival_weight(tr, track)
                    for tr in candidates if tr is not track), default=0.0)

    def _rival_weight(self, rival: _Track, track: _Track) -> float:
        """How much a rival name's evidence counts against a track's: a deck holds one
        card of each name, so a rival already played in an earlier trick, against a name
        still to come, counts for less (``played_weight``)."""
        if rival.card in self._played_cards and track.card not in self._played_cards:
            return self.config.played_weight
        return 1.0

    def _maybe_ask(self, seat: str, euchre: list[_Track], tracks: list[_Track], t: float,
                   events: list[VisionEvent], played: bool) -> None:
        """What stays uncertain is asked of the players, once per seat per trick."""
        cfg = self.config
        if played:
            return
        settled = [tr for tr in euchre if t - tr.rest_start >= cfg.ask_time
                   and tr.frames(t, cfg) >= cfg.min_frames
                   and tr.evidence(t, cfg) >= cfg.accept_evidence]
        if len(settled) >= 2:
            fighting = sorted(settled, key=lambda tr: -tr.evidence(t, cfg))[:2]
            doubts = self._trick.doubts.setdefault(seat, {})
            for tr in fighting:
                doubts[tr.card] = max(doubts.get(tr.card, 0.0), tr.total)
            names = " or the ".join(_words(tr.card) for tr in fighting)
            events += self._warn_trick(
                AMBIGUOUS, seat, f"Is {_SEAT_NAMES[seat]}'s card the {names}? Please tap it.")
            return
        if self._mostly_occupied(seat, t) and not any(self._rested(tr, t) for tr in tracks):
            events += self._warn_trick(
                UNREADABLE, seat,
                f"Cannot read {_SEAT_NAMES[seat]}'s card: straighten it or tap it in.")

    def _accept(self, seat: str, track: _Track, confidence: float, t: float,
                rivals: dict[str, float]) -> list[VisionEvent]:
        events: list[VisionEvent] = []
        trick = self._trick
        previous = trick.play_of(seat)
        several = len(trick.plays) > 1
        # A card put in place of one taken back comes while the trick's other cards
        # still lie there; once they have all been gone as long as a trick takes to be
        # cleared, a card in a seat that played starts the next trick. (A rendered lone
        # hand: North's card unread, the trick was taken in and West led the next one a
        # second later, taken for West's card replaced: two tricks wrong.)
        others_gone = several and previous is not None and all(
            t - p.last_seen >= self.config.clear_time for p in trick.plays if p.seat != seat)
        if not trick.complete and (
                (trick.gathered and (several or previous is None))
                or (several and t - trick.last_seen >= self.config.gathered_time)
                or others_gone):
            # The places of this unfinished trick's cards have all been empty for a while
            # (or none of its several cards has been seen for as long: the next lead may
            # come down where one of them lay, or the others went long before this card
            # came) and this card is not its lone card's
            # replacement: the trick was taken in with cards nobody could read. Record it
            # as it stands, ask the players for each missing card, and let this card start
            # the next trick (else every later card would count as a card taken back, and
            # the rest of the hand be lost).
            events += self._clear(t)
            trick, previous = self._trick, None
        if (trick.complete and previous is not None and track.came < trick.completed_at
                and t - previous.last_seen < self.config.takeback_gap):
            # A name that already lay in this seat before the trick was full, while the
            # seat's own card still lies there, is not the next lead (that comes down
            # after the trick is full) but something on or by that card read wrongly.
            track.shadow = True
            return events
        if trick.complete:
            gap = self.config.takeback_gap
            others = [p for p in trick.plays if p.seat != seat]
            if (previous is None or t - previous.last_seen < gap
                    or not any(t - p.last_seen < gap for p in others)):
                # A new card rests while a full trick lies uncleared (its player's own card
                # still there), or after all the trick's cards went: the trick is over and
                # this card leads the next one. Only a card whose own went while the rest
                # of the trick stayed is a replacement.
                events += self._clear(t)
                trick, previous = self._trick, None
            elif self._being_gathered(trick, seat):
                # The full trick's other cards have moved since it filled: its winner is
                # sweeping it up, and a name read on the moving pile is a misreading of
                # one of its cards, not a card taken back and replaced (on rendered hands
                # such reads made one wrong trick and, once the true card came, a second).
                track.shadow = True
                return events
        if len(self.tricks) >= TRICKS_PER_HAND:
            # The hand's five tricks are in: a card seen now is no play (on rendered lone
            # hands, the partner who sat out laid a hand down and made a sixth trick).
            return events
        if previous is not None:
            events.append(ReaderWarning(
                kind=CARD_REPLACED, seat=seat, t=t,
                message=f"{_SEAT_NAMES[seat]} took back the {_words(previous.card)} and "
                        f"played the {_words(track.card)} instead."))
            previous.card, previous.t, previous.confidence = track.card, t, confidence
            previous.last_seen, previous.rivals, previous.track = t, dict(rivals), track
            return events + self._played(seat, track.card, confidence, t)
        expected = self._expected_seat()
        if expected is not None and seat != expected and not self._asked(expected):
            why = (f"{_SEAT_NAMES[seat]} sits out this lone hand"
                   if seat == self.sitting_out else f"it was {_SEAT_NAMES[expected]}'s turn")
            events.append(ReaderWarning(
                kind=OUT_OF_TURN, seat=seat, t=t,
                message=f"{_SEAT_NAMES[seat]} played the {_words(track.card)} out of turn "
                        f"({why})."))
        if trick.leader is None:
            trick.leader = seat
        # The record keeps the order the cards came down. A card read late (a hard index,
        # a hand over it) that plainly lay there before cards already reported goes in
        # its place, not at the end.
        play = _Play(seat=seat, card=track.card, t=t, confidence=confidence, last_seen=t,
                     came=self._came_down(seat, track), rivals=dict(rivals), track=track,
                     doubted=seat in trick.doubts)
        for name, total in trick.doubts.get(seat, {}).items():  # (read long enough ago to
            if name != track.card:  # have left the window the rivals above come from)
                play.rivals[name] = max(play.rivals.get(name, 0.0), total)
        place = len(trick.plays)
        while place > 0 and trick.plays[place - 1].came > play.came + _LATE_READ:
            place -= 1
        trick.plays.insert(place, play)
        events += self._played(seat, track.card, confidence, t)
        if not trick.complete and {p.seat for p in trick.plays} >= set(self.players):
            trick.complete, trick.completed_at = True, t
            events.append(TrickComplete(t=t))
        return events

    def _being_gathered(self, trick: _Trick, seat: str) -> bool:
        """The full trick's other cards have moved (or gone from sight) since it filled.

        A corrected revoke takes back one card while the others lie still; gathering
        moves them all. One other card moving may be a nudge, so it takes two (every
        other card, when a lone hand's trick has fewer).
        """
        others = [p for p in trick.plays if p.seat != seat]
        moved = 0
        for play in others:
            track = self._tracks.get(play.card)
            if track is None or track.rest_start > trick.completed_at:
                moved += 1
        return moved >= min(2, len(others))

    def _came_down(self, seat: str, track: _Track) -> float:
        """When the card just read came down, for its place in the order of play: its
        own arrival, or that of another name read well on its corners since this trick
        began and read until this name came (a QC read QS for seconds came down when the
        QS was first seen). A false box that once fell on it does not count. A card that
        moved within its seat's zone since it came there (slid about, or swept up with a
        trick it was read too late for) came down when it came into the zone: on a
        rendered hand North's AC, in doubt against the AS until the trick was gathered,
        was put last for moving then."""
        came = track.came
        if track.zone_seat == seat:
            came = min(came, max(track.zone_since, self._trick.started))
        since = track.came - self.config.takeback_gap  # (longer gone: a card taken back)
        for other in self._tracks.values():
            if (other is not track and other.zone_seat == seat and other.total >= _WELL_READ
                    and other.came >= self._trick.started
                    and ((other.last_seen >= since and _overlaps(other, track))
                         or _on_the_spot(track, other))):
                # (read on the very spot where the other name was read, however long
                # ago: the same card, unread for a while, not one put in its place; on a
                # rendered hand West's QH went unread for 1.6 s and came back as QD, and
                # was put after North's card, which came down later)
                came = min(came, other.came)
        return came

    def _played(self, seat: str, card: str, confidence: float, t: float) -> list[VisionEvent]:
        """A card now stands in the trick's record (a new play or a replacement): the trick
        was seen now and is not taken in, and the event goes out, with a question when the
        card was read on thin evidence (the players confirm or fix it with a tap, rather
        than the kiosk scoring, or calling a renege on, a guess)."""
        trick = self._trick
        trick.last_seen = t
        trick.gathered, trick.places_busy = False, t
        events: list[VisionEvent] = [
            CardPlayed(seat=seat, card=card, t=t, confidence=confidence)]
        if confidence < self.config.sure_confidence:
            events.append(ReaderWarning(
                kind=UNSURE, seat=seat, t=t,
                message=f"Is {_SEAT_NAMES[seat]}'s card the {_words(card)}? The camera is "
                        "not sure: tap it if it is another card."))
        return events

    def _expected_seat(self) -> str | None:
        trick = self._trick
        if trick.leader is None:
            return None
        seat = trick.leader
        played = {p.seat for p in trick.plays}
        for _ in range(4):
            if seat not in played and seat != self.sitting_out:
                return seat
            seat = SEATS[(SEATS.index(seat) + 1) % 4]
        return None

    def _check_cleared(self, t: float) -> list[VisionEvent]:
        trick = self._trick
        if not trick.plays or t - trick.last_seen < self.config.clear_time:
            return []
        if trick.complete:
            return self._clear(t)
        if t - trick.last_seen < self.config.ask_time or len(trick.plays) < 2:
            return []  # one card gone may be a lead taken back: wait for what comes
        return self._warn_trick(OCCLUDED, None,
                                "Cannot see the cards of this trick: is something in the way?")

    def _clear(self, t: float, incomplete: bool = False) -> list[VisionEvent]:
        events: list[VisionEvent] = []
        trick = self._trick
        played = [p.seat for p in trick.plays]
        for seat in self.players:
            if seat not in played:
                events.append(ReaderWarning(
                    kind=MISSING_CARD, seat=seat, t=t,
                    message=f"The trick was taken in without a card from {_SEAT_NAMES[seat]}; "
                            "please tap the card that was played."))
        plays = [(p.seat, p.card) for p in trick.plays]
        self.tricks.append(plays)
        self._history.append(trick.plays)
        for p in trick.plays:  # what else each card was read as, while it lay there
            for name, value in (p.track.alternatives.items() if p.track else ()):
                p.rivals[name] = max(p.rivals.get(name, 0.0), value)
            if p.track is not None and p.track.anchors:
                p.where = tuple(float(v) for v in p.track.position)
            p.track = None
        self._played_cards |= {card for _seat, card in plays}
        next_leader = self._next_leader(plays)
        self._trick = _Trick(leader=next_leader, started=t)
        self._tracks = {k: tr for k, tr in self._tracks.items()
                        if tr.card not in self._played_cards and not tr.shadow}
        self._occupied.clear()
        events.append(TrickCleared(t=t))
        return events

    def _next_leader(self, plays: list[tuple[str, str]]) -> str | None:
        if len(plays) < len(self.players):
            return None
        if self._winner_of is not None:
            return self._winner_of(plays)
        if self.trump is None:
            return None
        return trick_winner(plays, self.trump)

    def _warn_trick(self, kind: str, seat: str | None, message: str) -> list[VisionEvent]:
        key = f"{kind}:{seat}"
        if key in self._trick.warned:
            return []
        self._trick.warned.add(key)
        return [ReaderWarning(kind=kind, message=message, seat=seat, t=self._now)]

    def _warn_once(self, kind: str, seat: str, card: str, message: str) -> list[VisionEvent]:
        if (kind, card) in self._warned_hand:
            return []
        self._warned_hand.add((kind, card))
        return [ReaderWarning(kind=kind, message=message, seat=seat, t=self._now)]

    def _note_rival(self, track: _Track) -> None:
        """A name read on the corners of a card of the trick on the table is what that card
        may be instead: remember its evidence with the play."""
        play = next((p for p in self._trick.plays if p.card == track.shadow_of), None)
        if play is not None:
            play.rivals[track.card] = max(play.rivals.get(track.card, 0.0), track.total)

    def _reread_earlier(self, track: _Track, confidence: float) -> list[VisionEvent]:
        """A card of an earlier trick is read again, here ``_SURER_ELSEWHERE`` more surely
        than it was read there: the earlier card was misread (a TH read 9H at 0.68, then
        the 9H read at 0.92 when it came down). When another name was read on the earlier
        card, and that card is neither played nor on the table, the earlier card takes
        that name (``CardReread``, and the players are asked to check it) and this name
        is free for the card now down. Otherwise nothing changes ([]): both are asked.

        On 150 rendered hands, of 7 cards read twice, the 4 read that much more surely the
        second time were right the second time; of the other 3, the first read was right.
        """
        card = track.card
        found = next(((number, p) for number, plays in enumerate(self._history, start=1)
                      for p in plays if p.card == card), None)
        if found is None:
            return []
        number, earlier = found
        if earlier.where is not None and track.anchors and math.dist(
                track.position, earlier.where) <= _SAME_PLACE:
            # where the earlier card lay: the same card still lying there (its trick was
            # taken for raked in too soon), not a second card of that name
            return []
        if earlier.doubted:
            # The earlier card was in doubt between two names (the players were asked):
            # read as surely here, this name is this card's, and the earlier one is the
            # other name it was read as (on a rendered tablet hand North's AS, half read
            # AC, was taken for the AC; the AC, read clearly in the next trick, was put to
            # the players as read twice, and both tricks were wrong).
            if confidence < max(earlier.confidence, self.config.sure_confidence):
                return []
        elif confidence < earlier.confidence + _SURER_ELSEWHERE:
            return []
        taken = self._played_cards | self._trick.cards()
        rivals = [(total, name) for name, total in earlier.rivals.items()
                  if name in EUCHRE_CARDS and name not in taken and name != card
                  and not self._lies_on_table(name)]
        if not rivals:
            return []
        total, name = max(rivals)
        # how sure: this name's share of what else was read on that card (it is a guess
        # among those, and the players are asked)
        earlier.card = name
        earlier.confidence = round(total / sum(v for v, _n in rivals), 3)
        earlier.rivals = {n: v for n, v in earlier.rivals.items() if n != name}
        self.tricks[number - 1] = [(p.seat, p.card) for p in self._history[number - 1]]
        self._played_cards = (self._played_cards - {card}) | {name}
        seat = earlier.seat
        return [
            CardReread(trick=number, seat=seat, card=name, was=card, t=self._now,
                       confidence=earlier.confidence),
            ReaderWarning(
                kind=UNSURE, seat=seat, t=self._now, trick=number,
                message=f"The camera now reads {_SEAT_NAMES[seat]}'s card in trick {number} "
                        f"as the {_words(name)}, not the {_words(card)} (that card came "
                        "later): tap it if it is another card."),
        ]

    def _reread_on_the_table(self, t: float) -> list[VisionEvent]:
        """A card of the trick on the table whose name has given way, on its very corners,
        to another name read far more (``reread`` times its evidence, resting there, and
        read there since before the first name went: not a card put in its place) was
        misread when it came down: it takes that name now (``CardPlayed`` for its seat
        again, which the session takes as a correction, with a question when unsure)
        rather than when the first name has been gone long enough to count as a card
        taken back (rendered hand 8088: East's KS, read KC for five frames as it came
        down and then KS for four seconds, was put right only as the trick was gathered).
        """
        cfg = self.config
        events: list[VisionEvent] = []
        taken = self._played_cards | self._trick.cards()
        for play in self._trick.plays:
            own = self._tracks.get(play.card)
            if own is None:
                continue
            rivals = [tr for tr in self._tracks.values()
                      if tr is not own and tr.card in EUCHRE_CARDS and tr.card not in taken
                      and t - tr.last_seen <= _PRESENCE_GAP and self._rested(tr, t)
                      and ((tr.shadow and tr.shadow_of == play.card)
                           or (tr.came <= own.last_seen + _SAME_MOMENT
                               and _one_card(tr, own)))]
            if not rivals:
                continue
            rival = max(rivals, key=lambda tr: tr.total)
            if rival.total < cfg.reread * own.total:
                continue
            confidence = rival.confidence(own.total, cfg.weak_box)
            play.rivals[play.card] = max(play.rivals.get(play.card, 0.0), own.total)
            play.rivals.pop(rival.card, None)
            play.card, play.confidence, play.track = rival.card, confidence, rival
            play.last_seen = t
            rival.shadow, rival.shadow_of = False, None
            own.shadow, own.shadow_of = True, rival.card
            taken = self._played_cards | self._trick.cards()
            events += self._played(play.seat, rival.card, confidence, t)
        return events

    def _lies_on_table(self, card: str) -> bool:
        """Whether a card of this name is being read on the table now, as itself."""
        track = self._tracks.get(card)
        return track is not None and not track.shadow and track.total >= _WELL_READ

    def _seen_twice(self, seat: str, card: str) -> list[VisionEvent]:
        """Ask about a card read again after it was played: here, and where it was read."""
        if (SEEN_TWICE, card) in self._warned_hand:
            return []
        self._warned_hand.add((SEEN_TWICE, card))
        self._trick.warned.add(f"{SEEN_TWICE}:{seat}")  # this seat's card is put to them
        earlier = next(((number, s) for number, plays in enumerate(self.tricks, start=1)
                        for s, c in plays if c == card), None)
        if earlier is None:  # (not in a trick taken in: nothing earlier to check)
            return [ReaderWarning(
                kind=SEEN_TWICE, seat=seat, t=self._now,
                message=f"The {_words(card)} was already played this hand; "
                        f"please check {_SEAT_NAMES[seat]}'s card.")]
        number, other = earlier
        where = f"{_SEAT_NAMES[other]}'s card in trick {number}"
        return [
            ReaderWarning(
                kind=SEEN_TWICE, seat=seat, t=self._now,
                message=f"The {_words(card)} was already read as {where}; "
                        f"please check {_SEAT_NAMES[seat]}'s card."),
            ReaderWarning(
                kind=SEEN_TWICE, seat=other, t=self._now, trick=number,
                message=f"{_SEAT_NAMES[seat]}'s card reads as the {_words(card)}, which was "
                        f"read as {where}: please check that card too."),
        ]

    def _forget(self, t: float) -> None:
        horizon = self.config.forget_time
        self._tracks = {k: tr for k, tr in self._tracks.items() if t - tr.last_seen <= horizon}


def _words(card: str) -> str:
    """A detector's card name in plain words ('JH' -> 'jack of hearts') for a message."""
    try:
        return Card.parse(card).words
    except ValueError:
        return card


def _overlaps(a: _Track, b: _Track, reach: float = _ON_CORNERS) -> bool:
    """Whether name ``a`` is mostly read on the corners of card ``b`` (one card, read
    two ways), judged on the corners where ``a`` is read most."""
    return bool(a.anchors) and _all_near(a.main_corners(), b.anchors, reach)


def _one_card(a: _Track, b: _Track) -> bool:
    """Whether names ``a`` and ``b`` are read on one card, either mostly on the other's
    corners (a name read on one corner of a card read on both is still that card)."""
    return _overlaps(a, b) or _overlaps(b, a)


def _on_the_spot(a: _Track, b: _Track) -> bool:
    """Whether name ``a`` is read exactly where name ``b`` was (within ``_SAME_PLACE``):
    where ``b``'s corners lay, or where it was last seen (a card still sliding in when it
    was last read has no resting corners there yet)."""
    spots = [*b.anchors, *b.points]
    return bool(a.anchors) and _all_near(a.main_corners(), spots, _SAME_PLACE)


def _all_near(points: Iterable[Sequence[float]], spots: Sequence[Sequence[float]],
              reach: float) -> bool:
    """Whether every point lies within ``reach`` of one of the spots (x, y first)."""
    return all(any(math.hypot(p[0] - q[0], p[1] - q[1]) <= reach for q in spots)
               for p in points)


def trick_winner(plays: Sequence[tuple[str, str]], trump: str) -> str:
    """The seat that wins a trick (plays in order, ``(seat, card)``), by the rules engine.

    >>> trick_winner([("N", "AS"), ("E", "9S"), ("S", "JC"), ("W", "KS")], "S")
    'S'
    >>> trick_winner([("N", "AH"), ("E", "KH"), ("S", "9C"), ("W", "JH")], "S")
    'N'
    """
    from kiosk.rules.cards import Card, Seat, Suit
    from kiosk.rules.tricks import trick_winner as rules_trick_winner

    seat = rules_trick_winner([(Seat(s), Card.parse(c)) for s, c in plays], Suit.parse(trump))
    return seat.value
