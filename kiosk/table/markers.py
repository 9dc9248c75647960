"""The players' own score board checked after each hand: what their 5s show against the
kiosk's score, and what the players said when the two differ.

Why a check at all: Alberta and general tables keep score with two 5s (alberta55.txt,
"10. MARKERS"), and a club trusts its cards more than a screen. When the camera reads a
side's 5s and they show another count than the kiosk's, neither is assumed right: the
players are asked, in plain words, which is. "The kiosk" settles it (they move their 5s);
"our fives" leaves it open, and every difference still open when the game ends goes to
the director with the game (kiosk.table.results, docs/director-api.md).

Two journal entries, replayed like every other (kiosk.table.entries):

- ``markers`` (:class:`~kiosk.table.entries.FivesRead`):
  ``{"hand": N, "fives": {"NS": 6, "EW": null}, "kiosk": {"NS": 7, "EW": 3}}``, a reading
  after ``N`` hands were scored (null: that side's 5s could not be read);
- ``markers_answer`` (:class:`~kiosk.table.entries.FivesAnswered`):
  ``{"hand": N, "side": "NS", "answer": "kiosk" | "fives"}``.

>>> book = MarkerBook()
>>> book.read(FivesRead(2, {Team.NS: 6, Team.EW: 3}, {Team.NS: 7, Team.EW: 3}), seq=5)
>>> [(d.side.value, d.fives, d.kiosk, d.answer) for d in book.open()]
[('NS', 6, 7, None)]
>>> book.answered(answer(book, Team.NS, "fives")[0])
>>> book.open(), [d.to_json() for d in book.unsettled()]
([], [{'hand': 2, 'side': 'NS', 'fives': 6, 'kiosk': 7, 'answer': 'fives'}])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from kiosk.rules.cards import Team
from kiosk.table.entries import FivesAnswered, FivesRead
from kiosk.vision.events import JsonObject

#: rule books whose players keep score with two 5s
MARKER_PROFILES = frozenset({"alberta55", "general"})
#: the most a pair of 5s can show
MARKER_TOP = 10
#: the players' answers: the kiosk's score is right, or their 5s are
ANSWERS = ("kiosk", "fives")


@dataclass(frozen=True)
class MarkerDispute:
    """One side's 5s showing another count than the kiosk's score after a hand."""

    hand: int  #: hands scored when the 5s were read
    side: Team
    fives: int  #: what the 5s showed
    kiosk: int  #: the kiosk's score for the side then
    seq: int  #: the reading's journal entry
    answer: str | None = None  #: None while nobody has answered

    def to_json(self) -> JsonObject:
        """The director's form (docs/director-api.md, ``markers``)."""
        return {"hand": self.hand, "side": str(self.side), "fives": self.fives,
                "kiosk": self.kiosk, "answer": self.answer}


@dataclass
class MarkerBook:
    """The readings and differences of one game, folded from its journal."""

    #: every reading: (hands scored, what the 5s showed per side, None: not read)
    readings: list[tuple[int, dict[Team, int | None]]] = field(default_factory=list)
    disputes: list[MarkerDispute] = field(default_factory=list)

    def read(self, reading: FivesRead, seq: int) -> None:
        """Fold in a reading of the 5s (journal entry ``seq``)."""
        hand, fives, kiosk = reading.hand, dict(reading.fives), reading.kiosk
        self.readings.append((hand, fives))
        # a new reading of the same hand replaces what was asked of it
        self.disputes = [d for d in self.disputes if d.hand != hand or d.answer]
        for side, count in fives.items():
            if count is not None and differs(count, kiosk[side]) and not any(
                    d.hand == hand and d.side == side for d in self.disputes):
                self.disputes.append(MarkerDispute(hand, side, count, kiosk[side], seq))

    def answered(self, given: FivesAnswered) -> None:
        """Fold in the players' answer for a side's open difference."""
        self.disputes = [replace(d, answer=given.answer)
                         if d.hand == given.hand and d.side == given.side
                         and d.answer is None else d
                         for d in self.disputes]

    def open(self) -> list[MarkerDispute]:
        """Differences nobody has answered yet, oldest first."""
        return [d for d in self.disputes if d.answer is None]

    def unsettled(self) -> list[MarkerDispute]:
        """Differences the players did not settle for the kiosk: the director's to see."""
        return [d for d in self.disputes if d.answer != "kiosk"]

    @property
    def seen(self) -> bool:
        """Whether the camera has read any side's 5s in this game."""
        return any(count is not None for _hand, fives in self.readings
                   for count in fives.values())


def differs(fives: int, kiosk: int) -> bool:
    """Whether 5s showing ``fives`` disagree with a score of ``kiosk`` (a pair shows at
    most ten, so a score past ten agrees with ten).

    >>> differs(6, 7), differs(10, 12), differs(7, 7)
    (True, False, False)
    """
    return fives != min(kiosk, MARKER_TOP)


def wanted(profile: str, book: MarkerBook) -> bool:
    """Whether this table's 5s are read: its rule book keeps score with them, or the
    camera has seen them anyway (a club that uses them under other rules).

    >>> wanted("alberta55", MarkerBook()), wanted("tournament", MarkerBook())
    (True, False)
    """
    return profile in MARKER_PROFILES or book.seen


def reading(fives: Mapping[Team | str, int | None], hands_scored: int,
            scores: Mapping[str, int]) -> FivesRead | None:
    """The entry for what the camera read of each side's 5s (None: could not read), with
    the kiosk's score of that moment; None when nothing was read."""
    counts = {Team(side): (None if n is None else int(n)) for side, n in fives.items()}
    if all(n is None for n in counts.values()):
        return None
    return FivesRead(hands_scored, counts, {side: int(scores[side]) for side in Team})


def answer(book: MarkerBook, side: Team | str, said: str) -> tuple[FivesAnswered, int]:
    """The entry for the players' answer on a side's open difference: ``kiosk`` (they
    move their 5s) or ``fives`` (it stays open, for the director), and the journal seq
    of the reading it answers; ValueError when there is no such answer or no open
    difference."""
    side = Team(side)
    if said not in ANSWERS:
        raise ValueError(f"unknown answer {said!r} (kiosk or fives)")
    waiting = [d for d in book.open() if d.side == side]
    if not waiting:
        raise ValueError(f"no open difference for {side}")
    return FivesAnswered(waiting[0].hand, side, said), waiting[0].seq
