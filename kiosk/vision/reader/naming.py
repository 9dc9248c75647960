"""The naming decision: which name holds a seat, how surely, and whether it is reported
now. Pure: it reads tracks and the trick and returns a frozen :class:`Verdict`; asking
the players, repairing the hand and recording the play are the coordinator's.

A name must beat every other name read in the seat ``dominance`` times over, counting all
it was seen since it appeared (so a card that reads half JD, half JH is asked about, never
guessed). A reading that has *settled* on one name (no other read there for a moment)
leading ``lead`` times over does not wait for that: ``decide_time`` after its place
stopped it is reported with a question. A name outside the euchre deck never outvotes one
inside it (a 9H misread as 6H is a 9H); it is reported only when it holds a place alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.rules.cards import EUCHRE_NAMES, Seat
from kiosk.vision.reader.config import PRESENCE_GAP, WELL_READ, ReaderConfig
from kiosk.vision.reader.track import Track, one_card
from kiosk.vision.reader.trick import TableTrick, TrickCard


@dataclass(frozen=True)
class Verdict:
    """A name that holds a seat now: the track, how surely, against what."""

    track: Track
    #: the strongest rival's evidence, weighed (:func:`rival_weight`)
    runner_up: float
    confidence: float
    #: reported before it dominates, because the reading settled on it (with a question)
    due: bool
    #: every other euchre name read in the seat, with its evidence
    rivals: Mapping[str, float]


def rival_weight(rival: Track, track: Track, played: set[str], cfg: ReaderConfig) -> float:
    """How much a rival name's evidence counts against a track's: a deck holds one card of
    each name, so a rival already played in an earlier trick, against a name still to
    come, counts for less (``played_weight``)."""
    if rival.card in played and track.card not in played:
        return cfg.played_weight
    return 1.0


def runner_up(track: Track, candidates: Iterable[Track], played: set[str],
              cfg: ReaderConfig) -> float:
    """The evidence of the strongest rival to ``track`` among ``candidates``, each counted
    as :func:`rival_weight` says (so a played name read more can count for less than a
    name still to come read less)."""
    return max((tr.total * rival_weight(tr, track, played, cfg)
                for tr in candidates if tr is not track), default=0.0)


def best(candidates: list[Track], played: set[str], cfg: ReaderConfig
         ) -> tuple[Track | None, float]:
    """The name read most since it was first seen here, and its runner-up's evidence.

    Ranked by all the evidence since each name was first seen here, not a window: a card
    that reads half JD, half JH must stay undecided however the frames fall."""
    if not candidates:
        return None, 0.0
    top = max(candidates, key=lambda tr: tr.total)
    return top, runner_up(top, candidates, played, cfg)


def dominant(track: Track, rival: float, t: float, cfg: ReaderConfig) -> bool:
    """Rested, and read ``dominance`` times as much as its rival."""
    return track.rested(t, cfg) and track.total >= cfg.dominance * rival


def giving_way(track: Track, names: Iterable[Track], t: float) -> bool:
    """Whether another name has taken this one's place on its very corners: read there
    now, in two frames or more and surely (``WELL_READ``), since this name was last read.
    The reading is changing, so this name is not reported yet: the players would see a
    wrong card and then its correction (tests/reader/test_giving_way)."""
    for other in names:
        if other is track or other.last_seen < t or not one_card(other, track):
            continue
        since = [score for seen, score in other.observations if seen > track.last_seen]
        if len(since) >= 2 and sum(since) >= WELL_READ:
            return True
    return False


def due(seat: Seat, track: Track, names: list[Track], play: TrickCard | None, trick: TableTrick,
        tracks: Iterable[Track], played: set[str], t: float, cfg: ReaderConfig) -> bool:
    """Whether the seat's likeliest name, not yet dominant, is reported now: the reading
    has settled on it (no other name read here for ``PRESENCE_GAP``), it leads ``lead``
    times over, and the place has held a card for ``decide_time`` (timed from the first of
    the names read on the same corners to stop: an AC read for half a second, then AS,
    stopped when the AC did; tests/reader/test_in_time). Two names still read turn about
    are not settled: they are asked about (``ambiguous``), not guessed."""
    if play is not None or not track.rested(t, cfg) or trick.asked(seat):
        return False
    others = [tr for tr in names if tr is not track]
    if any(t - tr.last_seen < PRESENCE_GAP
           or track.at_rest < cfg.lead * rival_weight(tr, track, played, cfg) * tr.at_rest
           for tr in others):
        return False
    since = min([track.rest_start] + [tr.rest_start for tr in tracks
                 if tr is not track and tr.zone_seat == seat and tr.card in EUCHRE_NAMES
                 and one_card(tr, track)])
    return t - since >= cfg.decide_time


def decide(seat: Seat, euchre: list[Track], play: TrickCard | None, trick: TableTrick,
           tracks: Iterable[Track], played: set[str], t: float, cfg: ReaderConfig
           ) -> Verdict | None:
    """The euchre name that holds ``seat`` now (``euchre``: the names read there), or None
    while no name does."""
    top, rival = best(euchre, played, cfg)
    if top is None:
        return None
    is_dominant = dominant(top, rival, t, cfg) and not giving_way(top, euchre, t)
    is_due = False
    if not is_dominant:
        # the name the reading settled on since the card stopped, which need not be the
        # one read most since it came into sight (read TC as it slid in, then TS)
        settled = max(euchre, key=lambda tr: tr.at_rest)
        is_due = due(seat, settled, euchre, play, trick, tracks, played, t, cfg)
        if not is_due:
            return None
        top, rival = settled, runner_up(settled, euchre, played, cfg)
    confidence = top.confidence(rival, cfg.weak_box)
    if is_due:
        confidence = min(confidence, 0.99 * cfg.sure_confidence)
    return Verdict(track=top, runner_up=rival, confidence=confidence, due=is_due,
                   rivals={tr.card: tr.total for tr in euchre if tr is not top})


def stray(tracks: list[Track], played: set[str], t: float, cfg: ReaderConfig) -> Track | None:
    """A card from outside the euchre deck that holds the seat by itself."""
    strays = [tr for tr in tracks if tr.card not in EUCHRE_NAMES]
    top, rival = best(strays, played, cfg)
    if top is None or not dominant(top, rival, t, cfg):
        return None
    return top


def fighting(euchre: list[Track], t: float, cfg: ReaderConfig) -> list[Track]:
    """The two names that have both settled in a seat, surest first (the players are
    asked which it is), or [] when fewer than two have."""
    settled = [tr for tr in euchre if t - tr.rest_start >= cfg.ask_time
               and tr.frames(t, cfg) >= cfg.min_frames
               and tr.evidence(t, cfg) >= cfg.accept_evidence]
    if len(settled) < 2:
        return []
    return sorted(settled, key=lambda tr: -tr.evidence(t, cfg))[:2]


def waits(verdict: Verdict, play: TrickCard | None, trick: TableTrick, t: float, cfg: ReaderConfig
          ) -> bool:
    """Whether a name that holds a seat waits before it is played."""
    top = verdict.track
    if play is not None and not trick.complete and top.rest_start <= play.last_seen:
        return True  # a replacement comes down after the played card went, not before
    if (play is not None and t - play.last_seen < cfg.takeback_gap
            and top.frames(t, cfg) < 2 * cfg.min_frames):
        return True  # a lead beside a full trick must be seen well: it ends the trick
    # A card that ends a full trick (or replaces one of its cards) lies there now: a name
    # read for a few frames on the pile being swept up vanishes with it
    # (tests/reader/test_trick_taken_in).
    return trick.complete and t - top.last_seen > PRESENCE_GAP
