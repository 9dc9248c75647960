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
  earlier trick is read again, ``SURER_ELSEWHERE`` more surely than it was
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

The parts, each one job and testable alone:

- :mod:`.frame`: what was seen in a frame (boxes coerced, weak reads filtered, corner
  boxes grouped into one sighting per card, each in a seat's zone);
- :mod:`.track`: the evidence per card name (where it rests, how long, how surely);
- :mod:`.zones`: seat-zone geometry (a card across the line goes by the turn of play)
  and which seats have shown something for a while;
- :mod:`.table_fit`: where a table nobody calibrated really lies, from where the cards of
  complete tricks rest (a tablet standing a little off the view's default);
- :mod:`.naming`: the naming decision, a frozen :class:`~.naming.Verdict` with no side
  effects;
- :mod:`.trick`: a trick's life (its order of play, taken back, taken in, gathered,
  cleared);
- :mod:`.hand` and :mod:`.repair`: the tricks taken in, and misreads repaired across the
  hand;
- :mod:`.coordinator`: :class:`TrickReader`, which runs each frame through them.

Warnings carry facts (seat, cards, tricks); :mod:`kiosk.vision.wording` says them in
words. The tricky cases each part handles are pinned by the tests in ``tests/reader``,
each named after its case, most of them over recorded detection streams.

The reader knows nothing of bidding or scoring: the rules engine, fed by the
table session, decides whether a card proves a renege.

>>> from kiosk.vision.camera.calibration import Calibration
>>> reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N")
>>> north_card = [{"card": "JH", "confidence": 0.9, "box": [45, 20, 50, 25]}]
>>> events = [e for i in range(10) for e in reader.feed(i / 10, north_card)]
>>> [(e.kind, e.seat, e.card) for e in events]
[('card_played', <Seat.N: 'N'>, Card.parse('JH'))]
"""

from __future__ import annotations

from kiosk.rules.cards import EUCHRE_NAMES
from kiosk.vision.cards.classes import FACE_DOWN
from kiosk.vision.cards.detection import Detection
from kiosk.vision.events import WarningKind
from kiosk.vision.reader.config import ReaderConfig
from kiosk.vision.reader.coordinator import TrickReader

EUCHRE_CARDS = EUCHRE_NAMES

# Warning codes (``ReaderWarning.kind``) this reader raises.
AMBIGUOUS = WarningKind.AMBIGUOUS
UNREADABLE = WarningKind.UNREADABLE
SEEN_TWICE = WarningKind.SEEN_TWICE
NOT_EUCHRE = WarningKind.NOT_EUCHRE
OUT_OF_TURN = WarningKind.OUT_OF_TURN
CARD_REPLACED = WarningKind.CARD_REPLACED
MISSING_CARD = WarningKind.MISSING_CARD
OCCLUDED = WarningKind.OCCLUDED
UNSURE = WarningKind.UNSURE

__all__ = [
    "AMBIGUOUS", "CARD_REPLACED", "EUCHRE_CARDS", "FACE_DOWN", "MISSING_CARD", "NOT_EUCHRE",
    "OCCLUDED", "OUT_OF_TURN", "SEEN_TWICE", "UNREADABLE", "UNSURE", "Detection",
    "ReaderConfig", "TrickReader",
]
