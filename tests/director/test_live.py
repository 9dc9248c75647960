"""The real server on a loopback port, a real headless Chromium, a kiosk's real outbox.

The master sheet and the players' standings open in the browser must show a
kiosk's result by themselves (server-sent events; polling where the browser
has no EventSource), and the QR code as Chromium draws it must pair a kiosk
through OpenCV, as the kiosk's camera would.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from kiosk.director.app import App
from kiosk.table.outbox import Outbox
from kiosk.table.pairing import pair_from_qr_image, redeem
from tests.director.helpers import Client, pair, setup_form

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.slow


@pytest.fixture
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def test_the_open_master_sheet_updates_after_a_kiosk_posts(
    app: App, client: Client, live_server: str, browser: Any, tmp_path: Path
) -> None:
    app.poll_seconds = 0.5
    assert client.post_form("/setup", setup_form()).status == 303
    kiosk = pair(client, 1)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(live_server + "/sheet")
    first_row = page.locator('#master tr[data-team="Ann & Bob"]')
    assert first_row.locator("td.cell .pts").first.inner_text() == "–"  # not in yet
    assert page.locator("#progress").inner_text().startswith("0 of 9")

    box = Outbox(tmp_path / "outbox.sqlite3", server=live_server, token=kiosk.token)
    box.submit(
        {
            "game_id": "spring/r1/t1",
            "round": 1,
            "table": 1,
            "teams": ["Ann & Bob", "Cy & Di"],
            "points": [11, 6],
            "hands": [],
        }
    )
    assert box.flush().acknowledged == 1  # over real HTTP

    # locator waits, not wait_for_function: the page's CSP forbids evaluating strings
    page.locator("#progress", has_text="1 of 9").wait_for(timeout=15_000)
    assert first_row.locator("td.cell .pts").first.inner_text() == "10"
    cy = page.locator('#master tr[data-team="Cy & Di"] td.cell').first
    assert cy.locator(".pts").inner_text() == "6"
    assert "L" in (cy.get_attribute("class") or "")
    page.screenshot(path=str(tmp_path / "sheet.png"), full_page=True)
    box.close()


def test_chromiums_qr_code_pairs_a_kiosk_through_opencv(
    client: Client, live_server: str, browser: Any
) -> None:
    client.post_form("/setup", setup_form())
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(live_server + "/tables")
    shot = page.locator("#table-2 .qr").screenshot()
    frame = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_COLOR)
    invite = pair_from_qr_image(frame)
    assert invite is not None and invite.table == 2 and invite.server == live_server
    pairing = redeem(invite)  # real HTTP to the live server
    request = urllib.request.Request(
        live_server + "/api/v1/table", headers={"Authorization": f"Bearer {pairing.token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert json.load(response)["table"] == 2
    page.reload()
    assert "Paired" in page.locator("#table-2").inner_text()


def test_the_set_up_form_in_a_browser(app: App, live_server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(live_server + "/")
    assert page.url.endswith("/setup")
    page.fill("#name", "Thursday Club")
    page.check('input[name="profile"][value="ssc"]')
    page.fill("#entrants", "Ann & Bob\nCy & Di\nEd & Flo\nGus & Hal")
    page.click("button[type=submit]")
    page.wait_for_url("**/seating?done=setup")
    assert page.locator("h2").first.inner_text() == "Game 1"
    assert page.locator("table").first.locator("tbody tr, tr").count() >= 2
    settings = app.director.settings()
    assert settings is not None and settings.profile == "ssc" and settings.tables == 2


def _post_first_game(client: Client, tmp_path: Path) -> None:
    kiosk = pair(client, 1)
    box = Outbox(tmp_path / "outbox.sqlite3", server=client.url, token=kiosk.token)
    box.submit({"game_id": "spring/r1/t1", "round": 1, "table": 1,
                "teams": ["Ann & Bob", "Cy & Di"], "points": [10, 6], "hands": []})
    assert box.flush().acknowledged == 1
    box.close()


def test_the_players_standings_page_updates_live_on_a_phone(
    client: Client, live_server: str, browser: Any, tmp_path: Path
) -> None:
    assert client.post_form("/setup", setup_form()).status == 303
    phone = browser.new_page(viewport={"width": 390, "height": 844},
                             extra_http_headers={"X-Forwarded-For": "10.1.2.99"})
    problems: list[str] = []
    phone.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    phone.goto(live_server + "/")
    assert phone.url.endswith("/standings")  # players land on the standings
    assert [a.inner_text() for a in phone.locator("header nav a").all()] == [
        "Standings", "Master sheet", "Seating"]  # no director links
    phone.locator("#stamp", has_text="Live").wait_for(timeout=5_000)
    began = time.monotonic()
    _post_first_game(client, tmp_path)
    phone.locator("#standings").wait_for(timeout=5_000)
    print(f"standings page updated {1000 * (time.monotonic() - began):.0f} ms after the post")
    assert "Ann & Bob" in phone.locator("#standings tbody tr").first.inner_text()
    assert problems == []  # no CSP violation, no script error
    phone.screenshot(path=str(tmp_path / "standings-phone.png"), full_page=True)


def test_a_browser_without_eventsource_polls(
    app: App, client: Client, live_server: str, browser: Any, tmp_path: Path
) -> None:
    app.poll_seconds = 0.5
    assert client.post_form("/setup", setup_form()).status == 303
    page = browser.new_page()
    page.add_init_script("delete window.EventSource;")
    page.goto(live_server + "/sheet")
    assert "every few seconds" in page.locator("#stamp").inner_text()
    _post_first_game(client, tmp_path)
    page.locator("#progress", has_text="1 of 9").wait_for(timeout=10_000)
    stamp = page.locator("#stamp").inner_text()
    assert stamp.startswith("Updated at") and "every few seconds" in stamp  # still says it polls


def test_the_decks_page_in_a_browser(client: Client, live_server: str, browser: Any,
                                     tmp_path: Path) -> None:
    """A volunteer uploads the club's deck, hands it to every table, takes one back, and
    a bad file is refused in one line; the kiosk at table 2 then finds the deck."""
    from tests.director.decks import WHOLE_PACK, profile_bytes

    client.post_form("/setup", setup_form())
    good = tmp_path / "bicycle-jumbo.npz"
    good.write_bytes(profile_bytes(tmp_path, photos=5, cards=WHOLE_PACK))
    bad = tmp_path / "holiday.npz"
    bad.write_bytes(b"<html>not a deck</html>")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("dialog", lambda dialog: dialog.accept())  # the take-back's "are you sure?"
    page.goto(live_server + "/decks")
    assert page.locator("#no-decks").is_visible()

    page.set_input_files("#profile", str(bad))
    page.click("#upload button[type=submit]")
    page.wait_for_url("**/decks?problem=*")
    assert page.locator(".notice.bad").inner_text() == (
        "holiday.npz was not kept. Not a deck profile: the file is not a .npz.")
    assert page.locator(".card.deck").count() == 0

    page.set_input_files("#profile", str(good))
    page.fill("#deck-name", "Club's Bicycle jumbo")
    page.click("#upload button[type=submit]")
    page.wait_for_url("**/decks?done=*")
    card = page.locator(".card.deck")
    assert card.locator("h3").inner_text() == "Club's Bicycle jumbo"
    assert "All 24 euchre cards and 2 fives, learnt from 5 photos." in card.locator(
        ".holds").inner_text()

    card.locator("button.every").click()
    page.wait_for_url("**/decks?done=Handed*")
    assert card.locator(".has").inner_text() == "Handed to tables 1, 2, 3."
    assert page.locator('#tables tr[data-table="2"] td').nth(1).inner_text() == (
        "Club's Bicycle jumbo")

    page.locator('#tables tr[data-table="2"] button').click()
    page.wait_for_url("**/decks?done=*taken+back*")
    assert "none" in page.locator('#tables tr[data-table="2"] td').nth(1).inner_text()
    assert card.locator(".has").inner_text() == "Handed to tables 1, 3."

    kiosk = pair(client, 1)
    answer = kiosk.client.get("/api/v1/deck", kiosk.headers())
    assert answer.json()["deck"]["name"] == "Club's Bicycle jumbo"
    assert kiosk.client.get("/api/v1/deck/file", kiosk.headers()).status == 200
    page.reload()
    fetched = page.locator('#tables tr[data-table="1"] td.fetched').inner_text()
    assert fetched.startswith("fetched it at")
    page.screenshot(path=str(tmp_path / "decks.png"), full_page=True)  # docs/director-decks.png
