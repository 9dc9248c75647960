"""The twin question in one tap (issue 63): before a renege is called on a card that may
be its same-colour twin, the two cards are shown and one tap on either answers; the
renege, or the game, follows. (The real app tapped under Xvfb: tests/app/ui_run.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app.presenter import TablePresenter
from kiosk.rules.cards import Card, Seat
from kiosk.table.referee import plays_of
from kiosk.table.session import TableSession
from kiosk.vision.events import CardPlayed, TrickCleared, face


@pytest.fixture
def asked(tmp_path: Path) -> TablePresenter:
    """East leads the ace of spades, South trumps with the queen of hearts and leads the
    nine of spades next: a renege, if each of those three cards is what the camera read."""
    from tests.table.conftest import make_setup

    s = TableSession.open(tmp_path / "j.sqlite3")
    p = TablePresenter(s)
    s.configure(make_setup("tournament"))
    s.start_game("N")
    s.see_turn_up("9H")
    s.bid("pass"), s.bid("pass"), s.bid("order")
    for t, (seat, card) in enumerate(plays_of("E AS", "S QH", "W KS", "N QS")):
        s.feed(CardPlayed(seat, card, t, 0.9))
    s.feed(TrickCleared(10))
    s.feed(CardPlayed(Seat.S, face("9S"), 11, 0.9))
    return p


def test_the_two_cards_are_put_to_the_players_before_any_renege(
        asked: TablePresenter) -> None:
    p = asked
    assert p.screen == "twin" and p.session.phase == "playing"  # no renege flagged yet
    v = p.twins.view()
    assert v is not None
    assert v.headline == "Which card did East play in trick 1?"
    assert v.question == "The ace of clubs or the ace of spades?"
    assert [(c.card, c.label) for c in v.choices] == [("AC", "Ace of clubs"),
                                                       ("AS", "Ace of spades")]
    assert "renege" in v.detail and "East's card" in v.detail


def test_one_tap_on_the_card_as_read_answers_and_the_next_card_is_asked(
        asked: TablePresenter) -> None:
    p = asked
    s = p.session
    assert p.twins.answer("AS")  # one tap: nothing more to confirm
    assert s.hand is not None and s.hand.fixed[(1, Seat.E)] == Card.parse("AS")
    asked_about = []
    while p.screen == "twin":  # each card the renege depends on, one tap each
        v = p.twins.view()
        assert v is not None
        asked_about.append((v.trick, v.seat))
        was = str(s.hand.suggestion.was) if s.hand.suggestion else ""
        assert p.twins.answer(was)
    assert (1, "E") not in asked_about and len(asked_about) == len(set(asked_about))
    assert p.screen == "renege" and s.phase == "renege"  # every card as read: flagged


def test_one_tap_on_the_twin_clears_the_renege(asked: TablePresenter) -> None:
    p = asked
    s = p.session
    assert p.twins.answer("AC")  # East led the ace of clubs: South had no club to follow
    assert s.hand is not None and (Seat.E, Card.parse("AC")) in s.hand.plays
    assert s.hand.view is not None and s.hand.view.renege is None
    assert p.screen == "live" and s.phase == "playing"
    assert p.message == ""


def test_a_tap_on_another_card_or_with_nothing_asked_does_nothing(
        asked: TablePresenter) -> None:
    p = asked
    assert not p.twins.answer("KD")
    assert p.screen == "twin"
    assert p.twins.answer("AS")
    while p.twins.asked() is not None:
        p.twins.answer(p.twins.asked().was)  # type: ignore[union-attr]
    assert not p.twins.answer("AS") and p.twins.view() is None


def test_neither_card_opens_the_correction_at_its_place(asked: TablePresenter) -> None:
    p = asked
    p.open("correction")
    p.select_slot(1, "E")  # what the screen's 'Neither of these' does
    assert p.screen == "correction" and p.selected == (1, Seat.E)
    assert p.pick_card("KC") is False  # a finished trick: what it changes is said first
    assert p.confirm_fix(True)
    assert p.session.hand is not None and (Seat.E, Card.parse("KC")) in p.session.hand.plays


def test_the_voice_asks_the_question_and_says_the_renege_only_once_it_stands(
        asked: TablePresenter) -> None:
    from kiosk.app.speech import Speech

    said: list[tuple[str, bool]] = []
    speech = Speech(asked.session, lambda text, alert: said.append((text, alert)))
    speech.update()
    assert ("Which card did East play in trick 1: the ace of clubs or the ace of spades?",
            True) in said
    assert not any(text.startswith("Renege") for text, _alert in said)
    while asked.twins.asked() is not None:
        asked.twins.answer(asked.twins.asked().was)  # type: ignore[union-attr]
        speech.update()
    assert said[-1] == ("Renege: South did not follow suit.", True)


def test_the_console_tells_the_question_and_the_renege_only_once_it_stands(
        asked: TablePresenter) -> None:
    from kiosk.app.narrator import Narrator

    lines: list[str] = []
    narrator = Narrator(asked.session, write=lines.append)
    narrator.update()
    assert ("  Asked: which card did East play in trick 1, the ace of spades or the ace of "
            "clubs?") in lines
    assert not any("Renege" in line for line in lines)
    while asked.twins.asked() is not None:
        asked.twins.answer(asked.twins.asked().was)  # type: ignore[union-attr]
    narrator.update()
    assert lines[-1] == "  Renege: South did not follow suit in trick 1."
