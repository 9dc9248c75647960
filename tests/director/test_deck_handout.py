"""A kiosk takes the deck profile the director handed to its table (kiosk.table.deck_handout),
over real HTTP to the live director: downloaded only when it changed, checked by the
kiosk's own detector, kept beside the table's calibration, read with at once, and said on
the deck set-up screen. A profile the kiosk cannot use leaves the table as it was; a
handout taken back returns the table to the deck it learnt itself.

The detector stands in for the real one (its networks are given), except in the last
test, where the real detector refuses a profile of other networks and keeps reading with
the one it had.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from kiosk.app.deck_setup import deck_path
from kiosk.app.presenter import TablePresenter
from kiosk.director.deck_check import shipped_networks
from kiosk.table.assignment import urllib_get
from kiosk.table.deck_handout import HandoutError, offer_deck
from kiosk.table.deck_keeping import learnt_here
from kiosk.table.outbox import Outbox
from kiosk.table.session import TableSession
from kiosk.table.setup import TableSetup
from kiosk.vision.cards.detector import ModelError
from kiosk.vision.decks.deck_profile import INDEX, SUIT, DeckProfile, Head, ProfileError
from tests.director.decks import decks, profile_bytes, upload
from tests.director.helpers import Client, pair


class StandInDetector:
    """Reads with a profile learnt on its own networks; refuses others and, as the real
    detector does, then reads without any."""

    def __init__(self, networks: dict[str, str]) -> None:
        self.networks = networks
        self.namer = SimpleNamespace(has_features=True)
        self._deck: DeckProfile | None = None

    @property
    def deck(self) -> DeckProfile | None:
        return self._deck

    def use_deck(self, profile: DeckProfile | None) -> None:
        if profile is not None and any(h.network != self.networks.get(n)
                                       for n, h in profile.heads.items()):
            self._deck = None
            raise ModelError("this deck profile was learnt with other networks than the "
                             "kiosk's: enrol the deck again")
        self._deck = profile


class Downloads:
    """The kiosk's GETs, counted by address."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __call__(self, url: str, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        self.urls.append(url)
        return urllib_get(url, headers, timeout)

    def files(self) -> int:
        return sum(u.endswith("/api/v1/deck/file") for u in self.urls)


@pytest.fixture
def table(tournament: Client, tmp_path: Path) -> Iterator[TablePresenter]:
    """Table 1's kiosk, paired with the live director, its detector a stand-in that runs
    the shipped networks."""
    kiosk = pair(tournament, 1)
    outbox = Outbox(tmp_path / "kiosk" / "outbox.sqlite3", server=tournament.url,
                    token=kiosk.token)
    session = TableSession.open(tmp_path / "kiosk" / "table.sqlite3", outbox=outbox)
    session.configure(TableSetup(tournament="Spring Fling", table=1, team_ns="A",
                                 team_ew="B", profile="alberta55", points_to_win=10,
                                 minutes=25))
    presenter = TablePresenter(session, camera=True)
    presenter.deck_setup.detector = StandInDetector(shipped_networks())
    yield presenter
    outbox.close()


def hand(director: Client, data: bytes, name: str) -> int:
    upload(director, data, name)
    deck = next(d for d in decks(director) if d["name"] == name)
    director.post_form(f"/decks/{deck['id']}/hand", {"to": "every"})
    return int(str(deck["id"]))


def own_profile(presenter: TablePresenter, networks: dict[str, str]) -> bytes:
    """The table learnt its own deck at set-up: kept, and read with."""
    heads = {n: Head(np.ones((4, 3), np.float32), np.zeros(3, np.float32),
                     ("JC", "JS", "none"), networks[n]) for n in (INDEX, SUIT)}
    profile = DeckProfile(heads, ("JC", "JS"), "table 1", 2, 40)
    path = deck_path(presenter.session)
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    profile.save(path)
    learnt_here(presenter.session)
    presenter.deck_setup.detector.use_deck(profile)
    presenter.deck_setup.handed("table")
    return path.read_bytes()


def test_the_handed_deck_is_taken_once_kept_and_said(
        table: TablePresenter, tournament: Client, tmp_path: Path) -> None:
    data = profile_bytes(tmp_path)
    deck_id = hand(tournament, data, "Club's Bicycle jumbo")
    fetched = Downloads()
    assert table.fetch_deck(get=fetched)
    setup = table.deck_setup
    assert setup.detector.deck is not None and setup.detector.deck.deck == "Club's Bicycle jumbo"
    kept = deck_path(table.session)
    assert kept is not None and kept.read_bytes() == data
    assert kept.name == "table-1-deck.npz" and kept.parent.name == "calibration"
    assert setup.view().in_use == "Handed out by the director: Club's Bicycle jumbo."
    assert fetched.files() == 1

    # the next game: asked again, nothing downloaded
    assert table.fetch_deck(get=fetched)
    assert fetched.files() == 1 and len(fetched.urls) == 3
    tournament.post_form(f"/decks/{deck_id}/name", {"name": "Club deck"})
    assert table.fetch_deck(get=fetched) and fetched.files() == 1
    assert setup.view().in_use == "Handed out by the director: Club deck."

    # a restart at this table reads with it, and says where it came from
    again = TablePresenter(table.session, camera=True)
    again.deck_setup.detector = StandInDetector(shipped_networks())
    again.deck_setup.on_table = lambda: None
    again.deck_setup.table_known()
    assert again.deck_setup.view().in_use == "Handed out by the director: Club deck."


def test_a_profile_the_kiosk_cannot_use_leaves_the_table_as_it_was(
        table: TablePresenter, tournament: Client, tmp_path: Path) -> None:
    # this kiosk runs other networks than the director's: its own deck was learnt on them
    theirs = {INDEX: "a" * 64, SUIT: "b" * 64}
    table.deck_setup.detector = StandInDetector(theirs)
    own = own_profile(table, theirs)
    before = table.deck_setup.detector.deck
    hand(tournament, profile_bytes(tmp_path), "Club's Bicycle jumbo")
    assert not table.fetch_deck()
    assert table.message == (
        "The director's deck (Club's Bicycle jumbo) was not used: this deck profile was "
        "learnt with other networks than the kiosk's: enrol the deck again. This table "
        "reads as before.")
    assert table.deck_setup.detector.deck is before
    path = deck_path(table.session)
    assert path is not None and path.read_bytes() == own
    assert table.deck_setup.view().in_use == "Learnt at this table (2 cards)."


def test_a_deck_taken_back_returns_the_table_to_its_own(
        table: TablePresenter, tournament: Client, tmp_path: Path) -> None:
    own = own_profile(table, shipped_networks())
    hand(tournament, profile_bytes(tmp_path), "House deck")
    assert table.fetch_deck()
    assert table.deck_setup.view().in_use == "Handed out by the director: House deck."
    tournament.post_form("/decks/tables/1/take-back", {})
    assert table.fetch_deck()
    path = deck_path(table.session)
    assert path is not None and path.read_bytes() == own
    deck = table.deck_setup.detector.deck
    assert deck is not None and deck.deck == "table 1"
    assert table.deck_setup.view().in_use == "Learnt at this table (2 cards)."


def test_a_deck_taken_back_from_a_table_without_its_own_reads_without_one(
        table: TablePresenter, tournament: Client, tmp_path: Path) -> None:
    hand(tournament, profile_bytes(tmp_path), "House deck")
    assert table.fetch_deck()
    tournament.post_form("/decks/tables/1/take-back", {})
    assert table.fetch_deck()
    path = deck_path(table.session)
    assert table.deck_setup.detector.deck is None and path is not None and not path.exists()
    assert table.deck_setup.view().in_use == (
        "This deck is not learnt yet.")


def test_what_the_players_learn_after_a_handout_is_not_fetched_over(
        table: TablePresenter, tournament: Client, tmp_path: Path) -> None:
    hand(tournament, profile_bytes(tmp_path), "House deck")
    assert table.fetch_deck()
    own = own_profile(table, shipped_networks())
    fetched = Downloads()
    assert table.fetch_deck(get=fetched) and fetched.files() == 0
    path = deck_path(table.session)
    assert path is not None and path.read_bytes() == own
    # a different deck handed out later is news, and comes
    hand(tournament, profile_bytes(tmp_path, deck="KEM"), "KEM jumbo")
    assert table.fetch_deck(get=fetched) and fetched.files() == 1
    assert table.deck_setup.view().in_use == "Handed out by the director: KEM jumbo."


def test_a_director_out_of_reach_changes_nothing(table: TablePresenter) -> None:
    def unreachable(url: str, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        raise OSError("connection refused")

    assert not table.fetch_deck(get=unreachable)
    assert table.message == "" and table.deck_setup.detector.deck is None


def test_an_unpaired_kiosk_asks_nobody(tmp_path: Path) -> None:
    session = TableSession.open(tmp_path / "table.sqlite3", outbox=Outbox(tmp_path / "o.sqlite3"))
    presenter = TablePresenter(session)
    presenter.deck_setup.detector = StandInDetector(shipped_networks())
    asked: list[str] = []
    assert not presenter.fetch_deck(get=lambda url, h, t: (asked.append(url), (200, b""))[1])
    assert asked == []
    session.outbox.close()


def test_the_table_offers_what_it_learnt_and_the_director_hands_it_on(
        table: TablePresenter, tournament: Client, tmp_path: Path) -> None:
    own_profile(table, shipped_networks())
    path = deck_path(table.session)
    assert path is not None
    config = table.session.outbox.config()
    assert offer_deck(config["server"], config["token"], path, "Table 1's deck") == (
        "Table 1's deck")
    [deck] = decks(tournament)
    assert deck["source"] == "table 1" and deck["cards"] == ["JC", "JS"]
    other = pair(tournament, 2)
    tournament.post_form(f"/decks/{deck['id']}/hand", {"to": "every"})
    answer = other.client.get("/api/v1/deck", other.headers())
    assert answer.json()["deck"]["name"] == "Table 1's deck"
    with pytest.raises(HandoutError, match="this kiosk is not paired"):
        offer_deck(config["server"], "not-a-token", path, "x")


def test_the_real_detector_refuses_other_networks_and_keeps_its_profile(
        table: TablePresenter) -> None:
    pytest.importorskip("onnxruntime")
    from kiosk.vision.cards.detector import Detector

    detector: Any = Detector(threads=1)
    if detector.namer is None or not detector.namer.has_features:
        pytest.skip("the shipped index classifier gives no features")
    fitting = DeckProfile({INDEX: detector.namer.head()}, deck="ours")
    setup = table.deck_setup
    setup.detector = detector
    setup.read_with(fitting)
    shipped = detector.namer.head()
    foreign = DeckProfile({INDEX: Head(shipped.weights, shipped.bias, shipped.classes,
                                       "another network")}, deck="theirs")
    with pytest.raises(ProfileError, match="enrol the deck again"):
        setup.read_with(foreign)
    assert detector.deck is fitting and detector.namer.deck_head is not None


def test_a_kiosk_paired_again_at_its_table_asks_for_its_deck(
        tournament: Client, tmp_path: Path) -> None:
    # the kiosk was cut off and paired again: its table is the same, its deck is news
    hand(tournament, profile_bytes(tmp_path), "House deck")
    tournament.post_form("/tables/1/revoke", {})
    code = next(t["code"] for t in tournament.get("/tables.json").json()["tables"]
                if t["table_no"] == 1)
    session = TableSession.open(tmp_path / "k" / "table.sqlite3",
                                outbox=Outbox(tmp_path / "k" / "outbox.sqlite3"))
    session.configure(TableSetup(tournament="Spring Fling", table=1, team_ns="A",
                                 team_ew="B", profile="alberta55", points_to_win=10,
                                 minutes=25))
    presenter = TablePresenter(session, camera=True)
    presenter.deck_setup.detector = StandInDetector(shipped_networks())
    presenter.deck_setup.table_known()  # a start at table 1, not paired yet: nobody asked
    assert presenter.deck_setup.detector.deck is None
    assert presenter.pair(tournament.url, code), presenter.message
    assert presenter.deck_setup.view().in_use == "Handed out by the director: House deck."
    session.outbox.close()
