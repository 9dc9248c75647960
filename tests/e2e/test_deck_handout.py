"""One table learns the club's deck, the director hands it to the others (issue 45).

End to end, with the real parts and real sockets: the director runs as `kiosk director`
in a subprocess on 127.0.0.1; each kiosk is the real table session, outbox, presenter and
card detector (no Kivy). The kiosk at table 1 pairs, reads the pack laid in the set-up
grid (a rendered layout of a deck no network trained on) and learns it, which offers it
to the director; the director hands it to every table on its Decks page, as its browser
would; the kiosk at table 2 pairs and reads with that deck at once, and says so.
"""

from __future__ import annotations

import re
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from devtools.director_process import http
from kiosk.app.presenter import TablePresenter
from kiosk.table.outbox import Outbox
from kiosk.table.session import TableSession

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from datasets import cards_art  # noqa: E402

DECK = "kde-standard"
pytestmark = [
    pytest.mark.slow,  # starts the director and two detectors
    pytest.mark.skipif(
        DECK not in cards_art.held_out_decks() or not cards_art.card_art_installed(),
        reason="card art (kdegames-card-data-kf5, rsvg-convert) not installed"),
]
TEAMS = ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal"]


def kiosk(folder: Path, server: str, code: str) -> TablePresenter:
    """A kiosk with its card detector, paired by the table's short code."""
    from kiosk.vision.cards.detector import Detector

    folder.mkdir()
    session = TableSession.open(folder / "journal.sqlite3",
                                outbox=Outbox(folder / "outbox.sqlite3", timeout=3.0))
    presenter = TablePresenter(session, camera=True)
    presenter.deck_setup.detector = Detector(threads=1)
    assert presenter.pair(server, code), presenter.message
    return presenter


def hand_to_every_table(director: Any, deck: int) -> None:
    """The Decks page's 'Hand to every table', as the director's browser sends it."""
    status, page = http("GET", director.url + "/decks")
    match = re.search(rb'name="csrf" value="([^"]+)"', page)
    assert status == 200 and match is not None
    body = urllib.parse.urlencode({"csrf": match.group(1).decode(), "to": "every"}).encode()
    status, _ = http("POST", f"{director.url}/decks/{deck}/hand", body,
                     {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200  # urllib follows the 303 back to the page


def test_one_table_learns_the_deck_and_the_director_hands_it_to_the_other(
        director: Any, tmp_path: Path) -> None:
    from tests.layout_images import layout_image

    director.post_setup({"name": "Deck Day", "profile": "alberta55", "format": "round_robin",
                         "entry": "teams", "entrants": "\n".join(TEAMS)})
    codes = {t["table_no"]: t["code"] for t in director.get_json("/tables.json")["tables"]}

    # -- table 1 lays its pack in the grid, reads it and learns it: the director has it
    first = kiosk(tmp_path / "table-1", director.url, codes[1])
    setup = first.deck_setup
    setup.frame = layout_image(DECK, 21)
    setup.read()
    assert setup.learn()
    assert setup.view().status.endswith("The director has it too, to hand to the other "
                                        "tables."), setup.view().status
    [deck] = director.get_json("/decks.json")["decks"]
    assert deck["source"] == "table 1" and len(deck["cards"]) == 26
    assert deck["name"] == "Table 1's deck" and deck["tables"] == []

    # -- the director hands it to every table
    hand_to_every_table(director, deck["id"])
    assert director.get_json("/decks.json")["decks"][0]["tables"] == [1, 2]

    # -- table 2 pairs and reads with table 1's deck at once
    second = kiosk(tmp_path / "table-2", director.url, codes[2])
    learnt = second.deck_setup.detector.deck
    assert learnt is not None and learnt.enrolled == setup.detector.deck.enrolled
    assert second.deck_setup.view().in_use == "Handed out by the director: Table 1's deck."
    kept = tmp_path / "table-2" / "calibration" / "table-2-deck.npz"
    assert kept.is_file()
    # and reads the same pack in its own camera's picture as a complete pack
    second.deck_setup.frame = setup.frame
    second.deck_setup.read()
    assert second.deck_setup.view().status.startswith("All 26 cards seen")
    first.session.outbox.close()
    second.session.outbox.close()
