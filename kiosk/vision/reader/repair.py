"""Repairing misreads across the hand: a card of an earlier trick read again, and a card
of the trick on the table whose name gave way on its very corners.

- A card already played in an earlier trick, read again ``SURER_ELSEWHERE`` more surely
  (or, when the players were asked which of two names the earlier card was, at least as
  surely and surely enough not to be asked about), with another name not played yet read
  on the earlier card: the earlier card was misread, and takes the other name
  (:class:`~kiosk.vision.events.CardReread`, with an ``unsure`` question); else both
  cards are put to the players (``seen_twice``). tests/reader/test_earlier_misread.
- A trick card whose name gives way, on its very corners, to another name read
  ``reread`` times as much since before the first went was misread as it came down: it
  takes that name at once. tests/reader/test_in_time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.vision.reader.config import (
    PRESENCE_GAP,
    SAME_MOMENT,
    SAME_PLACE,
    SURER_ELSEWHERE,
    WELL_READ,
    ReaderConfig,
)
from kiosk.vision.reader.hand import Hand
from kiosk.vision.reader.track import Track, one_card
from kiosk.vision.reader.trick import TableTrick, TrickCard


def lies_on_table(card: str, tracks: Mapping[str, Track]) -> bool:
    """Whether a card of this name is being read on the table now, as itself."""
    track = tracks.get(card)
    return track is not None and not track.shadow and track.total >= WELL_READ


def note_rival(track: Track, trick: TableTrick) -> None:
    """A name read on the corners of a card of the trick on the table is what that card
    may be instead: remember its evidence with the play."""
    play = next((p for p in trick.plays if p.card == track.shadow_of), None)
    if play is not None:
        play.rivals[track.card] = max(play.rivals.get(track.card, 0.0), track.total)


@dataclass(frozen=True)
class Reread:
    """An earlier card found misread: its trick (1 = the hand's first), its play, the
    name it takes instead and how surely (that name's share of what else was read on it:
    a guess among those, and the players are asked)."""

    trick: int
    play: TrickCard
    name: str
    confidence: float


def earlier_misread(track: Track, confidence: float, hand: Hand, trick: TableTrick,
                    tracks: Mapping[str, Track], cfg: ReaderConfig) -> Reread | None:
    """The earlier card that was misread when ``track``'s name, already played, is read
    again here with ``confidence``, or None when nothing changes (both are asked about).
    Decides only: :func:`apply_reread` makes the change.

    On 150 rendered hands, of 7 cards read twice, the 4 read that much more surely the
    second time were right the second time; of the other 3, the first read was right."""
    card = track.card
    found = hand.find(card)
    if found is None:
        return None
    number, earlier = found
    if earlier.where is not None and track.anchors and math.dist(
            track.position, earlier.where) <= SAME_PLACE:
        # where the earlier card lay: the same card still lying there (its trick was
        # taken for raked in too soon), not a second card of that name
        return None
    if earlier.doubted:
        # The earlier card was in doubt between two names (the players were asked): read
        # as surely here, this name is this card's, and the earlier one is the other name
        # it was read as.
        if confidence < max(earlier.confidence, cfg.sure_confidence):
            return None
    elif confidence < earlier.confidence + SURER_ELSEWHERE:
        return None
    taken = hand.played | trick.cards()
    rivals = [(total, name) for name, total in earlier.rivals.items()
              if name in EUCHRE_NAMES and name not in taken and name != card
              and not lies_on_table(name, tracks)]
    if not rivals:
        return None
    total, name = max(rivals)
    return Reread(trick=number, play=earlier, name=name,
                  confidence=round(total / sum(v for v, _n in rivals), 3))


def apply_reread(reread: Reread, hand: Hand) -> str:
    """The earlier card takes its new name; returns the name it had."""
    earlier = reread.play
    was = earlier.card
    earlier.card = reread.name
    earlier.confidence = reread.confidence
    earlier.rivals = {n: v for n, v in earlier.rivals.items() if n != reread.name}
    hand.played = (hand.played - {was}) | {reread.name}
    return was


def rival_on_corners(play: TrickCard, own: Track, tracks: Mapping[str, Track], taken: set[str],
                     t: float, cfg: ReaderConfig) -> Track | None:
    """The name read far more (``reread`` times its evidence, resting there, and read
    there since before the first name went: not a card put in its place) on the very
    corners of a trick card, which that card then takes; or None."""
    rivals = [tr for tr in tracks.values()
              if tr is not own and tr.card in EUCHRE_NAMES and tr.card not in taken
              and t - tr.last_seen <= PRESENCE_GAP and tr.rested(t, cfg)
              and ((tr.shadow and tr.shadow_of == play.card)
                   or (tr.came <= own.last_seen + SAME_MOMENT and one_card(tr, own)))]
    if not rivals:
        return None
    rival = max(rivals, key=lambda tr: tr.total)
    if rival.total < cfg.reread * own.total:
        return None
    return rival


def retake_misread(trick: TableTrick, tracks: Mapping[str, Track], played: set[str], t: float,
                   cfg: ReaderConfig) -> list[TrickCard]:
    """The trick cards that take the name read far more on their very corners since they
    came down (:func:`rival_on_corners`), each changed in place: it keeps what its old name
    was read as among its rivals, and the old name is taken for a misreading of it now."""
    changed: list[TrickCard] = []
    taken = played | trick.cards()
    for play in trick.plays:
        own = tracks.get(play.card)
        if own is None:
            continue
        rival = rival_on_corners(play, own, tracks, taken, t, cfg)
        if rival is None:
            continue
        confidence = rival.confidence(own.total, cfg.weak_box)
        play.rivals[play.card] = max(play.rivals.get(play.card, 0.0), own.total)
        play.rivals.pop(rival.card, None)
        play.card, play.confidence, play.track = rival.card, confidence, rival
        play.last_seen = t
        rival.shadow, rival.shadow_of = False, None
        own.shadow, own.shadow_of = True, rival.card
        taken = played | trick.cards()
        changed.append(play)
    return changed
