"""Following each card name from frame to frame: a frame's sightings of a name added to
its track, where that card already lay (a euchre deck has one card of each name), and
the trick's cards kept on the table while they are seen.
"""

from __future__ import annotations

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.vision.reader.config import ON_CORNERS, PRESENCE_GAP, SURER_ELSEWHERE, ReaderConfig
from kiosk.vision.reader.frame import CardSighting
from kiosk.vision.reader.repair import note_rival
from kiosk.vision.reader.track import Track, all_near, overlaps
from kiosk.vision.reader.trick import TableTrick


class Tracks:
    """Every card name seen on the table lately, by name."""

    def __init__(self, config: ReaderConfig) -> None:
        self.config = config
        self.by_card: dict[str, Track] = {}  # card name -> where and how it was seen
        self._raw_seen: dict[str, float] = {}  # card name -> the last frame it was read

    def clear(self) -> None:
        self.by_card.clear()
        self._raw_seen.clear()

    def keep(self, played: set[str]) -> None:
        """A trick was taken in: forget its cards (and what was read on their corners)."""
        self.by_card = {k: tr for k, tr in self.by_card.items()
                        if tr.card not in played and not tr.shadow}

    def forget(self, t: float) -> None:
        """Forget the names not seen for ``forget_time``."""
        horizon = self.config.forget_time
        self.by_card = {k: tr for k, tr in self.by_card.items() if t - tr.last_seen <= horizon}

    def shadow_corner_reads(self, trick_cards: set[str], t: float) -> None:
        """Names read on the very corners of a trick card lying there are misreadings of it
        (AC read as AS for a frame or two), not cards of their own, until the name is read
        somewhere else. (A card put where a card taken back lay is not: that one is gone.)"""
        present = [tr for c in trick_cards if (tr := self.by_card.get(c)) is not None
                   and t - tr.last_seen <= 0.5]
        for tr in self.by_card.values():
            if not tr.shadow and tr.card not in trick_cards:
                own = next((o for o in present if overlaps(tr, o)), None)
                if own is not None:
                    tr.shadow, tr.shadow_of = True, own.card

    def follow(self, card: str, found: list[CardSighting], t: float, trick: TableTrick,
               played: set[str]) -> None:
        """Add this frame's sightings of one name to its track. A euchre deck has one card
        of each name: of several places a name is read in at once, the one where that card
        already lay (else the surest) is it."""
        cfg = self.config
        track = self.by_card.get(card)
        if track is not None and track.anchors:
            known = track  # (named for the key function: a narrowed local)
            s = min(found, key=lambda x: (known.distance(x.table), -x.score))
            if self._misreads_trick_card(known, s, trick, t):
                return
            if known.distance(s.table) <= cfg.cluster_radius:
                self._note_trick_card(card, t, trick)  # (a false box far away is not it)
            surest = max(found, key=lambda x: x.score)
            if (surest.score >= s.score + SURER_ELSEWHERE
                    and card not in played | trick.cards()):
                # A card not played yet, read far more surely somewhere else than where
                # its name has lain: the old place is another card misread (a TC's
                # corner read TS). Two such frames move it there
                # (tests/reader/test_name_elsewhere).
                s = surest
        else:
            s = max(found, key=lambda x: x.score)
            self._note_trick_card(card, t, trick)
        if track is None:
            self.by_card[card] = track = Track(
                card=card, first_seen=t, last_seen=t, rest_start=t, came=t, points=s.table)
        track.observe(t, s.table, s.score, cfg)
        for name, value in s.alternatives.items():
            track.alternatives[name] = track.alternatives.get(name, 0.0) + value
        if track.shadow_of is not None and card in EUCHRE_NAMES:
            note_rival(track, trick)

    def _note_trick_card(self, card: str, t: float, trick: TableTrick) -> None:
        """A trick card counts as still on the table only when seen in two frames close
        together: one false box with its name must not hold the trick on the table."""
        previous = self._raw_seen.get(card)
        self._raw_seen[card] = t
        play = next((p for p in trick.plays if p.card == card), None)
        if play is not None and previous is not None and t - previous <= PRESENCE_GAP:
            play.last_seen = t
            trick.last_seen = max(trick.last_seen, t)

    def _misreads_trick_card(self, track: Track, sighting: CardSighting, trick: TableTrick,
                             now: float) -> bool:
        """A card of the trick on the table read, away from where it lies, on the corners
        of another card of that trick still lying there: that other card misread, not this
        one moved. Left out, so the name does not follow the misreading
        (tests/reader/test_takeback_misread)."""
        if track.card not in trick.cards() or track.distance(
                sighting.table) <= self.config.corner_jump:
            return False
        for play in trick.plays:
            other = self.by_card.get(play.card)
            if (other is not None and other is not track and other.anchors
                    and now - other.last_seen <= PRESENCE_GAP
                    and all_near(sighting.table, other.anchors, ON_CORNERS)):
                return True
        return False
