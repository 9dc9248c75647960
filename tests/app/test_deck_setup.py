"""The deck set-up screen's logic: the layout read from the camera's picture, the pack
checked in plain words, the deck learnt, kept beside the table's calibration and read with.

The picture is a rendered layout of a deck no network trained on (``kde-standard``);
without its card art these tests are skipped.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.app.deck_setup import MISSING, SEEN, UNREAD, WRONG, deck_path, load_deck_for_table
from kiosk.app.presenter import TablePresenter
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from datasets import cards_art  # noqa: E402

DECK = "kde-standard"
pytestmark = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
    reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed",
)


@pytest.fixture(scope="module")
def detector():  # type: ignore[no-untyped-def]
    from kiosk.vision.cards.detector import Detector

    return Detector(threads=1)


@pytest.fixture
def presenter(tmp_path: Path, detector) -> TablePresenter:  # type: ignore[no-untyped-def]
    session = TableSession.open(tmp_path / "j.sqlite3")
    session.configure(TableSetup(tournament="T", table=3, team_ns="A", team_ew="B",
                                 profile="tournament", points_to_win=10, minutes=30))
    presenter = TablePresenter(session, camera=True)
    presenter.deck_setup.detector = detector
    detector.use_deck(None)
    return presenter


_LAYOUTS: dict[str, Any] = {}


def _layout(**options):  # type: ignore[no-untyped-def]
    """The layout photo, rendered once a module for each set of options (the same seed
    draws the same picture); each test gets its own copy to change."""
    from tests.layout_images import layout_image

    key = repr(sorted(options.items()))
    if key not in _LAYOUTS:
        _LAYOUTS[key] = layout_image(DECK, 21, **options)
    return _LAYOUTS[key].copy()


def test_the_pack_is_read_in_its_places_learnt_and_kept_for_the_table(
        presenter: TablePresenter, detector) -> None:  # type: ignore[no-untyped-def]
    setup = presenter.deck_setup
    setup.frame = _layout()
    presenter.open("deck")
    assert presenter.screen == "deck"
    v = setup.view()
    assert "Lay the 24 cards and the two fives" in v.status
    assert v.can_read and not v.can_learn and {p.state for p in v.places} == {UNREAD}
    assert v.places[0].words == "Nine of clubs" and v.places[-1].words == "A five"
    setup.read()
    v = setup.view()
    assert v.status.startswith("All 26 cards seen: a complete pack")
    assert {p.state for p in v.places} == {SEEN} and v.can_learn and v.advice == ()
    path = setup.learn()
    assert path == str(deck_path(presenter.session)) and path.endswith("table-3-deck.npz")
    assert detector.deck is not None and "Learnt this deck (26 cards)" in setup.view().status
    assert load_deck_for_table(presenter.session).enrolled == detector.deck.enrolled
    detector.use_deck(None)


def test_an_imperfect_pack_is_shown_in_its_places(presenter: TablePresenter) -> None:
    setup = presenter.deck_setup
    setup.frame = _layout(missing=["KD"], swapped={"AS": "6H"})
    presenter.open("deck")
    setup.read()
    v = setup.view()
    states = {p.words: p.state for p in v.places}
    assert states["King of diamonds"] == MISSING and states["Ace of spades"] == WRONG
    assert "the king of diamonds is missing" in v.status
    assert "the place of the ace of spades holds the six of hearts" in v.status
    assert "Put it right" in v.status and v.can_learn


def test_without_a_detector_the_screen_says_so(tmp_path: Path) -> None:
    session = TableSession.open(tmp_path / "j.sqlite3")
    presenter = TablePresenter(session, camera=False)
    presenter.open("deck")
    v = presenter.deck_setup.view()
    assert "no card detector that can learn a deck" in v.status
    assert not v.can_read and not v.can_learn
    presenter.deck_setup.read()  # nothing to read with: nothing happens
    assert presenter.deck_setup.learn() == ""


def test_learning_runs_behind_the_screen_and_a_second_tap_does_nothing(
        presenter: TablePresenter, detector) -> None:  # type: ignore[no-untyped-def]
    setup = presenter.deck_setup
    delivered: list[object] = []
    setup.deliver = delivered.append  # the app hands the result to its UI thread
    setup.frame = _layout()
    presenter.open("deck")
    setup.read()
    thread = setup.learn_soon()
    assert thread is not None
    v = setup.view()
    assert "Learning this deck" in v.status and not v.can_learn and not v.can_read
    assert setup.learn_soon() is None  # tapped again while learning
    thread.join(timeout=120)
    assert len(delivered) == 1 and setup.learning
    delivered[0]()  # on the UI thread
    assert not setup.learning and "Learnt this deck (26 cards)" in setup.view().status
    assert detector.deck is not None
    detector.use_deck(None)


def test_a_table_reads_with_the_deck_it_learnt_at_an_earlier_set_up(
        tmp_path: Path, detector) -> None:  # type: ignore[no-untyped-def]
    def table_three() -> TableSetup:
        return TableSetup(tournament="T", table=3, team_ns="A", team_ew="B",
                          profile="tournament", points_to_win=10, minutes=30)

    detector.use_deck(None)
    first = TableSession.open(tmp_path / "j.sqlite3")
    first.configure(table_three())
    presenter = TablePresenter(first, camera=True)
    presenter.deck_setup.detector = detector
    presenter.deck_setup.frame = _layout()
    presenter.deck_setup.read()
    assert presenter.deck_setup.learn()
    detector.use_deck(None)  # the kiosk starts again, a new game at the same table
    later = TableSession.open(tmp_path / "j2.sqlite3")
    again = TablePresenter(later, camera=True)
    again.deck_setup.detector = detector
    again.deck_setup.table_known()
    assert detector.deck is None  # no table yet
    later.configure(table_three())
    assert detector.deck is not None and len(detector.deck.enrolled) == 26
    detector.use_deck(None)
