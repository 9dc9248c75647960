"""The kitty beside the dealer: its face-up card is the turn-up (read, never played), then
seen taken (carried off toward the dealer's edge) or turned down (gone where it lay, a
face-down card there since); the card then counts as out of play for every seat that
can no longer hold it.

Staged with hand-written frames on a 1000 x 1000 overhead picture (a pixel is a
thousandth of a table unit); North deals, so the kitty lies in North's band at
(0.80, 0.09), the turn-up's corner indices either side of it.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.cards import Card, Seat
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import CardPlayed, KittyChange, KittySeen, ReaderWarning
from kiosk.vision.reader import TrickReader

FPS = 10.0
KITTY = (0.80, 0.09)


def corners(card: str, at: tuple[float, float], conf: float = 0.9) -> list[dict[str, Any]]:
    """The two corner-index boxes of a face-up card lying across North's band at ``at``."""
    x, y = 1000 * at[0], 1000 * at[1]
    return [{"card": card, "confidence": conf, "box": [x - 55, y - 35, x - 40, y - 20]},
            {"card": card, "confidence": conf, "box": [x + 40, y + 20, x + 55, y + 35]}]


def back(at: tuple[float, float]) -> list[dict[str, Any]]:
    """A face-down card lying at ``at``, boxed whole."""
    x, y = 1000 * at[0], 1000 * at[1]
    return [{"card": "back", "confidence": 0.8, "box": [x - 60, y - 42, x + 60, y + 42]}]


def dealt(dealer: str = "N") -> TrickReader:
    reader = TrickReader(Calibration.default("overhead", (1000, 1000)))
    reader.new_deal(dealer)
    return reader


def run(reader: TrickReader, start: float, end: float, boxes: Any) -> list[Any]:
    """Frames from ``start`` to ``end`` seconds, each with ``boxes(t)``."""
    events = []
    for i in range(round(start * FPS), round(end * FPS)):
        t = i / FPS
        events += reader.feed(t, boxes(t))
    return events


def kitty_events(events: list[Any]) -> list[tuple[str, str, str]]:
    return [(e.change.value, str(e.seat), str(e.card)) for e in events if isinstance(e, KittySeen)]


def shown(reader: TrickReader, card: str = "9H") -> list[Any]:
    """The turn-up lies face up on the kitty for two seconds."""
    return run(reader, 0.0, 2.0, lambda t: corners(card, KITTY))


def test_the_turn_up_on_the_kitty_is_read_as_the_turn_up_and_never_played() -> None:
    reader = dealt()
    events = shown(reader)
    assert kitty_events(events) == [("shown", "N", "9H")]
    assert not [e for e in events if isinstance(e, (CardPlayed, ReaderWarning))]
    assert reader.all_tricks() == []


def test_a_card_in_the_band_is_no_turn_up_without_a_deal_nor_beside_another_seat() -> None:
    plain = TrickReader(Calibration.default("overhead", (1000, 1000)))
    assert kitty_events(shown(plain)) == []  # nobody said who deals
    east = dealt("E")
    assert kitty_events(shown(east)) == []  # North's band, East's deal


def test_two_names_fighting_on_the_kitty_are_not_guessed() -> None:
    reader = dealt()
    events = run(reader, 0.0, 2.0,
                 lambda t: corners("9H" if int(t * FPS) % 2 else "9D", KITTY))
    assert kitty_events(events) == []


def test_a_turn_up_carried_off_toward_the_dealer_was_taken() -> None:
    reader = dealt()
    events = shown(reader)

    def carried(t: float) -> list[dict[str, Any]]:
        if t < 2.4:  # slid toward North's edge, then lifted
            return corners("9H", (KITTY[0], KITTY[1] - 0.1 * (t - 2.0) / 0.4))
        return back(KITTY)  # the kitty's other cards show their backs

    events += run(reader, 2.0, 5.0, carried)
    assert kitty_events(events) == [("shown", "N", "9H"), ("taken", "N", "9H")]
    assert reader.out_of_play(reader.players[0]) == set()  # North, the dealer, holds it
    assert reader.out_of_play(reader.players[1]) == {"9H"}


def test_a_turn_up_gone_where_it_lay_with_a_back_seen_there_was_turned_down() -> None:
    reader = dealt()
    events = shown(reader)
    events += run(reader, 2.0, 2.5, lambda t: [])  # the dealer's hand over it
    events += run(reader, 2.5, 5.0, lambda t: back(KITTY))
    assert kitty_events(events) == [("shown", "N", "9H"), ("turned_down", "N", "9H")]
    assert all(reader.out_of_play(seat) == {"9H"} for seat in reader.players)


def test_a_hand_over_the_turn_up_for_a_moment_neither_takes_nor_turns_it() -> None:
    reader = dealt()
    events = shown(reader)
    events += run(reader, 2.0, 2.6, lambda t: [])  # a hand passes over it
    events += run(reader, 2.6, 3.2, lambda t: back(KITTY))  # (and over its corners)
    events += run(reader, 3.2, 6.0, lambda t: corners("9H", KITTY))
    assert kitty_events(events) == [("shown", "N", "9H")]


def test_a_hand_hiding_one_corner_is_not_the_turn_up_carried_off() -> None:
    """The middle of the corners read jumps when one is hidden; the corners do not."""
    reader = dealt()
    events = shown(reader)
    events += run(reader, 2.0, 3.0, lambda t: corners("9H", KITTY)[:1])
    events += run(reader, 3.0, 4.0, lambda t: corners("9H", KITTY)[1:])
    events += run(reader, 4.0, 6.0, lambda t: back(KITTY))
    assert kitty_events(events)[-1] == ("turned_down", "N", "9H")


def test_the_turn_up_turned_down_read_at_another_seat_is_put_to_the_players() -> None:
    """Nobody can play a turn-up turned down: read surely in East's zone, it is asked
    about (an ``unsure`` question), not played on the camera's word."""
    reader = dealt()
    shown(reader)
    run(reader, 2.0, 5.0, lambda t: back(KITTY))
    reader.new_hand("E", trump="S")
    east = (0.72, 0.5)
    events = run(reader, 5.0, 7.0, lambda t: corners("9H", east))
    played = [e for e in events if isinstance(e, CardPlayed)]
    assert [(str(e.seat), str(e.card)) for e in played] == [("E", "9H")]
    assert played[0].confidence < reader.config.sure_confidence
    assert any(isinstance(e, ReaderWarning) and e.kind == "unsure" for e in events)


def test_the_turn_up_taken_is_played_by_the_dealer_without_a_question() -> None:
    reader = dealt()
    shown(reader)
    reader.new_hand("N", trump="H", turn_up="9H", kept_by="N")  # the session's word
    north = (0.5, 0.28)
    events = run(reader, 2.0, 4.0, lambda t: corners("9H", north))
    assert [(str(e.seat), str(e.card)) for e in events
            if isinstance(e, CardPlayed)] == [("N", "9H")]
    assert not [e for e in events if isinstance(e, ReaderWarning)]


def test_the_sessions_word_on_the_turn_up_wins_over_what_the_camera_saw() -> None:
    reader = dealt()
    shown(reader)
    run(reader, 2.0, 5.0, lambda t: back(KITTY))  # the camera saw it turned down ...
    reader.new_hand("E", trump="H", turn_up="9H", kept_by="N")  # ... the bids: ordered up
    assert reader.out_of_play(reader.players[0]) == set()


def test_a_kitty_event_keeps_its_facts_through_the_journal() -> None:
    from kiosk.vision.events import event_from_json

    event = KittySeen(Seat.W, Card.parse("AD"), KittyChange.TURNED_DOWN, 12.5, 1.0)
    assert event_from_json(event.to_json()) == event


def test_the_turn_up_half_hidden_on_the_kitty_is_never_played_in_the_dealers_zone() -> None:
    """Rendered deal 30104, read by the model: North's hand over the kitty hides the
    nine of hearts' outer corner; its inner corner alone lies in North's zone. It is the
    turn-up still, not North's first card (the reader once played it, out of turn)."""
    inner, outer = (0.769, 0.146), (0.834, 0.079)

    def box(at: tuple[float, float]) -> dict[str, Any]:
        x, y = 1000 * at[0], 1000 * at[1]
        return {"card": "9H", "confidence": 0.97, "box": [x - 8, y - 12, x + 8, y + 12]}

    reader = dealt()
    events = run(reader, 0.0, 2.0, lambda t: [box(inner), box(outer)])
    reader.new_hand("E", trump="H")  # East ordered it up
    events += run(reader, 2.0, 4.0, lambda t: [box(inner)])
    assert kitty_events(events) == [("shown", "N", "9H")]
    assert not [e for e in events if isinstance(e, (CardPlayed, ReaderWarning))]
