"""A card read now and then as its same-colour twin (issue 63): the pack holds each card
once, and a twin's doubt is put to the players only where the trick's winner hangs on it
(a renege hanging on it is the table's question: tests/table/test_twin_renege.py).

Every card here is read at 0.7, and the doubted one as its twin in one frame of five: its
confidence (0.7 x 0.8) falls under the 0.6 at which the reader asks."""

from __future__ import annotations

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning
from kiosk.vision.reader import UNSURE, TrickReader

BOX = {"N": [45, 20, 50, 25], "E": [75, 45, 80, 50], "S": [45, 75, 50, 80], "W": [20, 45, 25, 50]}
FPS = 10
TWIN = {"C": "S", "S": "C", "H": "D", "D": "H"}


def _run(reader: TrickReader, script: list[tuple[float, float, str, str]], seconds: float,
         doubted: str, start: float = 0.0) -> list[object]:
    """Feed frames: each (t_in, t_out, seat, card) lies in its seat then; ``doubted``'s
    card is read as its twin in every fifth frame."""
    events: list[object] = []
    for frame in range(int(start * FPS), int(seconds * FPS)):
        t = frame / FPS
        seen = []
        for t_in, t_out, seat, card in script:
            if t_in <= t < t_out:
                name = card[0] + TWIN[card[1]] if card == doubted and frame % 5 == 0 else card
                seen.append({"card": name, "confidence": 0.7, "box": BOX[seat]})
        events += reader.feed(t, seen)
    return events


def _trick(start: float, plays: list[tuple[str, str]]) -> list[tuple[float, float, str, str]]:
    return [(start + i, start + 6.0, seat, card) for i, (seat, card) in enumerate(plays)]


def _questions(events: list[object]) -> list[tuple[str | None, str, str]]:
    return [(str(e.seat), str(e.card), str(e.other)) for e in events
            if isinstance(e, ReaderWarning) and e.kind == UNSURE]


def _played(events: list[object]) -> list[tuple[str, str]]:
    return [(str(e.seat), str(e.card)) for e in events if isinstance(e, CardPlayed)]


SPADES = [("W", "TS"), ("N", "AS"), ("E", "9S"), ("S", "KS")]  # West leads


def test_a_twin_doubt_the_tricks_winner_hangs_on_is_asked_once_the_trick_is_full() -> None:
    """North's ace of spades, read as the ace of clubs now and then, wins the trick; the
    ace of clubs would lose it to South's king: the players are asked, once the trick is
    full."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="W", trump="H")
    events = _run(reader, _trick(0.5, SPADES), 6.0, doubted="AS")
    assert _played(events) == SPADES
    assert _questions(events) == [("N", "AS", "AC")]
    full = next(i for i, e in enumerate(events) if getattr(e, "kind", "") == "trick_complete")
    asked = next(i for i, e in enumerate(events) if isinstance(e, ReaderWarning))
    assert asked > full


def test_a_twin_doubt_no_verdict_hangs_on_is_not_asked() -> None:
    """East's nine of spades, read as the nine of clubs now and then: the nine of clubs
    would lose the trick all the same. Nothing is asked."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="W", trump="H")
    events = _run(reader, _trick(0.5, SPADES), 6.0, doubted="9S")
    assert _played(events) == SPADES
    assert _questions(events) == []


def test_a_twin_already_played_is_no_doubt() -> None:
    """The ace of clubs went in trick 1, so North's ace of spades in trick 2, read as the
    ace of clubs now and then, cannot be it: no question, though the winner would hang
    on it."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="W", trump="H")
    clubs = [("W", "AC"), ("N", "9C"), ("E", "TC"), ("S", "QC")]  # West wins: West leads
    spades = [("W", "TS"), ("N", "AS"), ("E", "9S"), ("S", "KS")]
    events = _run(reader, _trick(0.5, clubs) + _trick(9.0, spades), 15.0, doubted="AS")
    assert _played(events) == clubs + spades
    assert _questions(events) == []


def test_another_names_doubt_is_asked_at_once() -> None:
    """North's ace of spades read as the king of spades now and then: not its twin, so it
    is asked as it is reported, as before."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="W", trump="H")
    script = _trick(0.5, SPADES)
    events: list[object] = []
    for frame in range(int(6.0 * FPS)):
        t = frame / FPS
        seen = [{"card": "KH" if card == "AS" and frame % 5 == 0 else card,
                 "confidence": 0.7, "box": BOX[seat]}
                for t_in, t_out, seat, card in script if t_in <= t < t_out]
        events += reader.feed(t, seen)
    assert ("N", "AS", "None") in _questions(events)
    played = next(i for i, e in enumerate(events)
                  if isinstance(e, CardPlayed) and str(e.seat) == "N")
    asked = next(i for i, e in enumerate(events) if isinstance(e, ReaderWarning))
    assert asked == played + 1  # with its CardPlayed, not when the trick is full


def test_a_twin_on_one_corner_of_a_card_is_not_a_frame_of_its_own() -> None:
    """North's jack of spades shows three corners read JS and one read JC in every frame
    (a model reads a card's corners one by one). The pack holds one card there: each frame
    counts it as the jack of spades, so the jack of clubs is no rival, and nothing is
    asked (it used to count a whole frame, every frame: a fight, asked about)."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="H")
    corners = [([45, 20, 47, 22], "JS"), ([48, 23, 50, 25], "JS"), ([45, 23, 47, 25], "JS"),
               ([48, 20, 50, 22], "JC")]
    events: list[object] = []
    for frame in range(int(5.0 * FPS)):
        t = frame / FPS
        seen = [{"card": card, "confidence": 0.8, "box": box} for box, card in corners]
        events += reader.feed(t, seen if t >= 0.5 else [])
    assert _played(events) == [("N", "JS")]
    assert not [e for e in events if isinstance(e, ReaderWarning)]
