"""The Decks page learns a deck from a layout photo on the director's laptop, in a
process of its own, and keeps what it learnt like any other deck.

The learning here is ``kiosk enrol`` without ``--deep`` (seconds, not minutes): the same
process, photo and keeping as the deep one, which ``tests/vision/test_deep_enrolment.py``
checks on its own."""

from __future__ import annotations

import sys
import urllib.parse

import cv2
import httpx
import pytest

from datasets import cards_art
from kiosk.director.app import App
from kiosk.director.deck_learning import DeckLearning
from kiosk.director.views import decks as decks_view
from tests.director.decks import decks
from tests.director.helpers import Answer, Client

DECK = "kde-standard"
#: the quick learning (seconds): the same process, photo and keeping as the deep one
QUICK = [sys.executable, "-m", "kiosk", "enrol"]

pytestmark = pytest.mark.skipif(
    DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
    reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed",
)


def _said(answer: Answer) -> str:
    assert answer.status == 303, (answer.status, answer.text[:300])
    query = urllib.parse.urlsplit(answer.header("location") or "").query
    words = urllib.parse.parse_qs(query)
    return (words.get("problem") or words.get("done") or [""])[0]


def _send_photo(client: Client, data: bytes, filename: str, name: str) -> Answer:
    request = httpx.Request("POST", "http://x/decks/learn",
                            data={"csrf": client.csrf(), "name": name},
                            files={"photo": (filename, data, "image/png")})
    return client.request("POST", "/decks/learn", request.read(),
                          {"Content-Type": request.headers["content-type"]})


def test_a_layout_photo_is_learnt_and_kept(tournament: Client, app: App,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.layout_images import layout_image

    monkeypatch.setattr(decks_view, "can_learn", lambda: None)
    jobs = app.deck_learning = DeckLearning(app.decks, QUICK)
    ok, png = cv2.imencode(".png", layout_image(DECK, 7))
    assert ok
    line = _said(_send_photo(tournament, png.tobytes(), "layout.png", "Club deck"))
    assert line.startswith("Learning 'Club deck' from the photo")
    # a second photo while the first is learnt waits its turn
    if jobs.now is not None and jobs.now.state == "learning":
        assert "still being learnt" in _said(
            _send_photo(tournament, png.tobytes(), "layout.png", "Other"))
    assert jobs.worker is not None
    jobs.worker.join(400)
    assert jobs.now is not None and jobs.now.state == "done", jobs.now
    assert "All 26 cards seen" in jobs.now.line and "Kept as 'Club deck'" in jobs.now.line
    [deck] = decks(tournament)
    assert deck["name"] == "Club deck" and deck["source"] == "learnt here"
    assert len(deck["cards"]) == 26
    page = tournament.soup("/decks")
    shown = page.select_one("#learning")
    assert shown is not None and "Learnt Club deck" in shown.get_text(" ", strip=True)


def test_what_is_no_photo_is_one_line(tournament: Client, app: App,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decks_view, "can_learn", lambda: None)
    app.deck_learning = DeckLearning(app.decks, QUICK)
    assert _said(_send_photo(tournament, b"%PDF-1.4", "rules.pdf", "x")) == (
        "rules.pdf is not a photo (a .jpg or .png is).")
    answer = _send_photo(tournament, b"not an image", "layout.jpg", "Broken")
    assert _said(answer).startswith("Learning 'Broken'")
    jobs = app.deck_learning
    assert jobs.worker is not None
    jobs.worker.join(300)
    assert jobs.now is not None and jobs.now.state == "failed"
    assert "\n" not in jobs.now.line and "layout.jpg" in jobs.now.line
    assert decks(tournament) == []


def test_a_laptop_without_the_training_extras_says_so(
        tournament: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decks_view, "can_learn",
                        lambda: "This laptop cannot learn a deck from a photo: it needs")
    assert _said(_send_photo(tournament, b"x", "layout.png", "x")).startswith(
        "This laptop cannot learn a deck from a photo")
    assert tournament.soup("/decks").select_one("#cannot-learn") is not None
