"""The fives' question on the kiosk: put to both teams when the 5s and the kiosk's score
differ, one tap to answer, then the game's own screen again."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.app import fives
from kiosk.app.demo import DemoDriver, start_demo
from kiosk.app.presenter import TablePresenter
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup


@pytest.fixture
def presenter(tmp_path: Path) -> TablePresenter:
    p = TablePresenter(TableSession.open(tmp_path / "j.sqlite3"))
    start_demo(p.session, deal=True, setup=TableSetup(
        tournament="Club", table=1, round=1, team_ns="Ann & Bob", team_ew="Cy & Di",
        profile="alberta55", points_to_win=10, minutes=0))
    driver = DemoDriver(p.session, pace=0.01, autoplay=False)
    for _ in range(300):
        driver.tick(0.01)
    p.next_hand()
    return p


def test_a_difference_is_asked_before_the_next_bids(presenter: TablePresenter) -> None:
    assert presenter.screen == "bidding"
    kiosk = presenter.session.scores
    presenter.session.see_markers({"NS": kiosk["NS"], "EW": kiosk["EW"] + 1})
    assert presenter.screen == "fives"
    view = presenter.fives.view()
    assert view is not None
    assert view.question == (f"Your fives show {kiosk['EW'] + 1}; the kiosk has "
                             f"{kiosk['EW']} for Cy & Di: which is right?")
    assert presenter.fives.answer(0)  # "The kiosk: N"
    assert presenter.screen == "bidding"
    assert presenter.message == f"Then move Cy & Di's fives to show {kiosk['EW']}."


def test_our_fives_keeps_it_for_the_director(presenter: TablePresenter) -> None:
    kiosk = presenter.session.scores
    presenter.session.see_markers({"NS": kiosk["NS"] + 2, "EW": kiosk["EW"]})
    assert presenter.fives.answer(1)  # "Our fives: N"
    assert presenter.screen == "bidding"
    [kept] = presenter.session.game_result()["markers"]
    assert (kept["team"], kept["fives"], kept["kiosk"], kept["answer"]) == (
        "Ann & Bob", kiosk["NS"] + 2, kiosk["NS"], "fives")
    assert "tells the director" in presenter.message


def test_fives_that_agree_leave_the_game_alone(presenter: TablePresenter) -> None:
    kiosk = presenter.session.scores
    presenter.session.see_markers({"NS": kiosk["NS"], "EW": kiosk["EW"]})
    assert presenter.screen == "bidding" and presenter.fives.view() is None
    assert not presenter.fives.answer(0)


def test_the_examples_in_the_docstrings() -> None:
    import doctest

    assert doctest.testmod(fives).failed == 0


def test_the_voice_puts_the_question_once(presenter: TablePresenter) -> None:
    from kiosk.app.speech import Speech

    said: list[tuple[str, bool]] = []
    speech = Speech(presenter.session, lambda text, alert: said.append((text, alert)),
                    screen=lambda: presenter.screen, teams=presenter.teams)
    speech.catch_up()
    kiosk = presenter.session.scores
    presenter.session.see_markers({"NS": kiosk["NS"], "EW": kiosk["EW"] + 2})
    speech.update()
    speech.update()
    assert said == [(f"Cy & Di's fives show {kiosk['EW'] + 2}; the kiosk has {kiosk['EW']}: "
                     "which is right?", True)]
