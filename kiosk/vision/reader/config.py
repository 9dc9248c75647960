"""The trick reader's settings: timings in seconds, distances in table units.

The play area is the unit square. The figures were tuned on rendered hands read by the
trained model (``scripts/bench_reader.py``); the tests under ``tests/reader`` pin the
cases each one is for.
"""

from __future__ import annotations

from dataclasses import dataclass

#: seconds between two sightings of a card for them to count as it being there
PRESENCE_GAP = 0.35
#: cards that came to rest less than this apart (seconds) are ordered by turn
SAME_MOMENT = 0.3
#: a card reported late goes before a card already reported only when it came into its
#: zone this much earlier (seconds): plainly first, not a near tie
LATE_READ = 1.0
#: evidence (summed scores) that makes a name more than a stray box: a card being read
WELL_READ = 0.8
#: a name not yet played, read this much more surely (score) in another place than where
#: it has lain, is followed there
SURER_ELSEWHERE = 0.2
#: a card read within this distance (table units) of where a card of an earlier trick lay
#: is taken for that same card, still lying there
SAME_PLACE = 0.02
#: a card whose centre lies this near (table units) the diagonal between two seats' zones
#: may be either seat's: the turn of play decides
ACROSS_LINE = 0.04
#: how near a name read must lie to another card's corners to be read on that card
ON_CORNERS = 0.03
#: two corner indices of one card lie this near each other (table units) at the most
SAME_CARD = 0.12


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
    #: second fell from 22 to 17, for 0.03 more questions a hand; tests/reader/test_in_time)
    decide_time: float = 0.8
    lead: float = 1.5
    #: a card of the trick on the table whose name, on its very corners, has given way
    #: to another read this many times as much takes that name (misread as it came down)
    reread: float = 1.5
    #: the evidence of a name already played this hand, where it is the runner-up to a
    #: name still to come (tests/reader/test_played_name)
    played_weight: float = 0.5
    #: a box named under this confidence (the detector's operating point for one picture;
    #: the pipeline passes boxes from ``pipeline.READ_CONFIDENCE`` up) is a weak read: it
    #: does not count where another name was read more surely on the same card (within
    #: ``SAME_CARD``) in the last ``weak_after`` seconds
    weak_box: float = 0.5
    weak_after: float = 0.75
