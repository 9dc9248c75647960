"""What the reader puts to the players, and that a question holds no other card up."""

from __future__ import annotations

from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, ReaderWarning, event_from_json
from kiosk.vision.reader import AMBIGUOUS, SEEN_TWICE, TrickReader

BOX = {"N": [45, 20, 50, 25], "E": [75, 45, 80, 50], "S": [45, 75, 50, 80], "W": [20, 45, 25, 50]}
FPS = 10


def _sighting(card: str, seat: str) -> dict[str, object]:
    return {"card": card, "confidence": 0.9, "box": BOX[seat]}


def _run(
    reader: TrickReader,
    script: list[tuple[float, float, str, str]],
    seconds: float,
    start: float = 0.0,
) -> list[object]:
    """Feed frames from ``start``: each (t_in, t_out, seat, card) lies in its seat then."""
    events: list[object] = []
    for frame in range(int(start * FPS), int(seconds * FPS)):
        t = frame / FPS
        seen = [_sighting(card, seat) for t_in, t_out, seat, card in script if t_in <= t < t_out]
        events += reader.feed(t, seen)
    return events


def _read_twice(norths_card: str) -> tuple[TrickReader, list[ReaderWarning]]:
    """East's ace of clubs was read as the ace of spades in trick 1 (the classifier's most
    common slip); in trick 2 South plays the real ace of spades, after North's
    ``norths_card``."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="H")
    trick1 = [
        (0.5, 6.0, "N", "QH"),
        (1.5, 6.0, "E", "AS"),
        (2.5, 6.0, "S", "KH"),
        (3.5, 6.0, "W", "AH"),
    ]
    # North's queen of hearts loses to West's ace of hearts: West leads trick 2
    trick2 = [
        (8.0, 14.0, "W", "9C"),
        (9.0, 14.0, "N", norths_card),
        (10.0, 14.0, "E", "JC"),
        (11.0, 14.0, "S", "AS"),
    ]
    events = _run(reader, trick1 + trick2, 13.5)
    assert reader.all_tricks()[0] == [("N", "QH"), ("E", "AS"), ("S", "KH"), ("W", "AH")]
    return reader, [e for e in events if isinstance(e, ReaderWarning) and e.kind == SEEN_TWICE]


def test_a_card_read_twice_whose_twin_is_unseen_is_one_question_naming_both_places() -> None:
    """The pack holds one ace of spades, and the ace of clubs is still unseen: one of the
    two is the ace of clubs, misread. One question names both places, the earlier with its
    trick, so one tap fixes the one that is not the ace of spades (issue 63)."""
    _reader, twice = _read_twice("TC")
    assert [(str(w.seat), str(w.other_seat), w.other_trick, str(w.other)) for w in twice] == [
        ("S", "E", 1, "AC")]
    assert "trick 1" in twice[0].message and "East" in twice[0].message
    assert "ace of clubs" in twice[0].message
    # the earlier trick rides along in the journal's JSON form
    assert event_from_json(twice[0].to_json()) == twice[0]


def test_a_card_read_twice_whose_twin_was_played_puts_both_places_to_the_players() -> None:
    """North played the ace of clubs in trick 2: neither ace of spades can be it, and the
    reader cannot tell which read is wrong. It asks about South's card *and* about East's
    card in trick 1, naming that trick, so one tap can fix the earlier trick."""
    _reader, twice = _read_twice("AC")
    assert [(str(w.seat), w.trick) for w in twice] == [("S", None), ("E", 1)]
    assert "trick 1" in twice[1].message and "East" in twice[1].message
    assert event_from_json(twice[1].to_json()) == twice[1]
    assert twice[0].key != twice[1].key


def test_a_seat_put_to_the_players_does_not_hold_up_the_next_card() -> None:
    """East's card reads half ace of clubs, half ace of spades: the reader asks. South's
    king came down after it; the reader used to wait for East's name before reporting
    South's card (the order of play), so when the trick was raked in first, South's card
    was lost as well (a rendered hand did this). Once East's card is asked about, the
    answer puts it in its turn, and South's card is reported."""
    reader = TrickReader(Calibration.default("overhead", (100, 100)), leader="N", trump="H")
    events: list[object] = []
    for frame in range(int(6.5 * FPS)):
        t = frame / FPS
        seen = []
        if 0.5 <= t < 4.6:
            seen.append(_sighting("QC", "N"))
        if 1.0 <= t < 4.6:
            seen.append(_sighting("AC" if frame % 2 else "AS", "E"))
        if 2.4 <= t < 4.6:
            seen.append(_sighting("KC", "S"))
        events += reader.feed(t, seen)
    warned = [(e.kind, str(e.seat)) for e in events if isinstance(e, ReaderWarning)]
    # East's card lies there unnamed: South did not play out of turn
    assert warned == [(AMBIGUOUS, "E")]
    played = [(str(e.seat), str(e.card), e.t) for e in events if isinstance(e, CardPlayed)]
    assert [(seat, card) for seat, card, _t in played] == [("N", "QC"), ("S", "KC")]
    asked_at = next(e.t for e in events if isinstance(e, ReaderWarning))
    # reported as soon as East was asked about, not held until its name settles
    assert played[1][2] - asked_at <= 0.15
