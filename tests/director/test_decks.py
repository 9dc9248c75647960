"""The Decks page and the kiosks' deck calls: one table's deck profile, kept by the
director and handed to the tables that play the same deck (docs/director-api.md).

Every call goes over real HTTP to the live server; uploads are built as a browser sends
them. A bad file is refused in one line and nothing is stored.
"""

from __future__ import annotations

import base64
import hashlib
import json
import urllib.parse
from pathlib import Path

import numpy as np
import pytest

from kiosk.director.app import App
from kiosk.director.decks import DeckError, Decks
from kiosk.vision.decks.deck_profile import VERSION
from tests.director.decks import decks, profile_bytes, upload, zip_bomb
from tests.director.helpers import Answer, Client, Kiosk, pair
from tests.director.test_hostile import raw


def said(answer: Answer) -> str:
    """The one line the Decks page shows after a form (its redirect says it)."""
    assert answer.status == 303, (answer.status, answer.text[:300])
    query = urllib.parse.urlsplit(answer.header("location") or "").query
    words = urllib.parse.parse_qs(query)
    return (words.get("problem") or words.get("done") or [""])[0]


def deck_of(kiosk: Kiosk) -> dict[str, object] | None:
    answer = kiosk.client.get("/api/v1/deck", kiosk.headers())
    assert answer.status == 200, answer.text
    deck = answer.json()["deck"]
    return None if deck is None else dict(deck)


# -- the page ----------------------------------------------------------------


def test_an_uploaded_profile_is_kept_named_and_shows_what_it_holds(
        tournament: Client, tmp_path: Path) -> None:
    data = profile_bytes(tmp_path, photos=4)
    assert said(upload(tournament, data, "Club's Bicycle jumbo")).startswith(
        "Kept \"Club's Bicycle jumbo\"")
    [deck] = decks(tournament)
    assert deck["name"] == "Club's Bicycle jumbo" and deck["cards"] == ["JC", "JS", "QC"]
    assert deck["photos"] == 4 and deck["source"] == "uploaded" and deck["tables"] == []
    assert deck["digest"] == hashlib.sha256(data).hexdigest() and deck["size"] == len(data)
    card = tournament.soup("/decks").select_one(f"#deck-{deck['id']}")
    assert card is not None and card.h3 is not None
    assert card.h3.get_text() == "Club's Bicycle jumbo"
    holds = card.select_one(".holds")
    assert holds is not None
    assert "3 of the 24 euchre cards, learnt from 4 photos." in holds.get_text()
    # the same bytes again are the same deck, under its first name
    assert "already kept here, as \"Club's Bicycle jumbo\"" in said(upload(tournament, data, "x"))
    assert len(decks(tournament)) == 1


def test_a_deck_without_a_name_takes_the_files(tournament: Client, tmp_path: Path) -> None:
    upload(tournament, profile_bytes(tmp_path, deck=""), filename="C:\\cards\\kem-jumbo.npz")
    assert decks(tournament)[0]["name"] == "kem-jumbo"


def test_handed_to_every_table_and_taken_back_from_one(
        tournament: Client, tmp_path: Path) -> None:
    data = profile_bytes(tmp_path)
    upload(tournament, data, "Club's Bicycle jumbo")
    deck_id = decks(tournament)[0]["id"]
    one, two = pair(tournament, 1), pair(tournament, 2)
    assert deck_of(one) is None
    words = said(tournament.post_form(f"/decks/{deck_id}/hand", {"to": "every"}))
    assert words.startswith("Handed to every table")
    assert decks(tournament)[0]["tables"] == [1, 2, 3]
    got = deck_of(two)
    assert got is not None and got["name"] == "Club's Bicycle jumbo"
    assert got["digest"] == hashlib.sha256(data).hexdigest() and got["file"] == "/api/v1/deck/file"
    rows = tournament.soup("/decks").select("#tables tbody tr")
    assert [r.select("td")[1].get_text() for r in rows] == ["Club's Bicycle jumbo"] * 3

    assert "taken back from table 2" in said(
        tournament.post_form("/decks/tables/2/take-back", {}))
    assert deck_of(two) is None and deck_of(one) is not None
    assert decks(tournament)[0]["tables"] == [1, 3]
    changes = [r["what"] for r in tournament.get("/audit.json").json()["audit"]]
    assert "Deck \"Club's Bicycle jumbo\" taken back from table 2" in changes
    assert "Deck \"Club's Bicycle jumbo\" handed to tables 1, 2 and 3" in changes


def test_handed_to_the_ticked_tables_only(tournament: Client, tmp_path: Path) -> None:
    upload(tournament, profile_bytes(tmp_path), "House deck")
    deck_id = decks(tournament)[0]["id"]
    said(tournament.post_form(f"/decks/{deck_id}/hand",
                              {"to": "chosen", "table-1": "on", "table-3": "on"}))
    assert decks(tournament)[0]["tables"] == [1, 3]
    assert "Tick the tables" in said(tournament.post_form(f"/decks/{deck_id}/hand",
                                                          {"to": "chosen"}))
    assert "There is no table 9" in said(tournament.post_form(
        f"/decks/{deck_id}/hand", {"to": "chosen", "table-9": "on"}))


def test_a_newer_deck_replaces_the_tables_and_a_forgotten_one_is_taken_back(
        tournament: Client, tmp_path: Path) -> None:
    upload(tournament, profile_bytes(tmp_path, deck="old"), "Old deck")
    upload(tournament, profile_bytes(tmp_path, deck="new"), "New deck")
    new, old = (d["id"] for d in decks(tournament))  # newest first
    kiosk = pair(tournament, 1)
    tournament.post_form(f"/decks/{old}/hand", {"to": "every"})
    tournament.post_form(f"/decks/{new}/hand", {"to": "chosen", "table-1": "on"})
    assert (deck_of(kiosk) or {})["name"] == "New deck"
    assert said(tournament.post_form(f"/decks/{new}/name", {"name": "  Club  deck "})) == (
        "Renamed 'Club deck'.")
    assert (deck_of(kiosk) or {})["name"] == "Club deck"
    tournament.post_form(f"/decks/{new}/remove", {})
    assert deck_of(kiosk) is None
    assert [d["name"] for d in decks(tournament)] == ["Old deck"]


def test_a_deck_handed_out_before_the_tournament_is_set_up(
        client: Client, tmp_path: Path) -> None:
    upload(client, profile_bytes(tmp_path), "House deck")
    answer = client.post_form(f"/decks/{decks(client)[0]['id']}/hand", {"to": "every"})
    assert said(answer) == "Set up the tournament first: a deck is handed to its tables."


# -- hostile and mistaken uploads: one line, nothing stored -------------------


@pytest.mark.parametrize(("content", "line"), [
    (b"PK\x03\x04 not really", "Not a deck profile: the file is not a .npz."),
    (b"<html>a web page</html>", "Not a deck profile: the file is not a .npz."),
    (b"\0" * (3584 * 1024),
     "The file is too large for a deck profile (3.5 MB; a profile is under 3.0 MB)."),
])
def test_a_file_that_is_no_profile_is_refused_in_one_line(
        tournament: Client, content: bytes, line: str) -> None:
    assert said(upload(tournament, content, "x", filename="cards.npz")) == (
        f"cards.npz was not kept. {line}")
    assert decks(tournament) == []


def test_a_zip_that_would_unpack_to_gigabytes_is_refused(tournament: Client) -> None:
    words = said(upload(tournament, zip_bomb(), "x", filename="bomb.npz"))
    assert words == ("bomb.npz was not kept. Not a deck profile: the file unpacks to far "
                     "more than one holds.")
    assert decks(tournament) == []


def test_a_profile_learnt_on_other_networks_is_refused(tournament: Client,
                                                       tmp_path: Path) -> None:
    words = said(upload(tournament, profile_bytes(tmp_path, network="0" * 64), "x"))
    assert words == ("deck.npz was not kept. This deck profile was learnt with other card "
                     "networks than this version's: enrol the deck again with this version.")
    assert decks(tournament) == []


def test_a_profile_of_another_format_version_says_enrol_again(
        tournament: Client, tmp_path: Path) -> None:
    old = tmp_path / "old.npz"
    np.savez(old, header=np.array(json.dumps({"version": 1, "heads": {}})))
    assert said(upload(tournament, old.read_bytes(), "x")) == (
        "deck.npz was not kept. Deck profile has format version 1, this kiosk reads "
        f"{VERSION}: enrol the deck again.")
    assert decks(tournament) == []


@pytest.mark.parametrize("body", [
    b"--XY\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc",  # cut off
    b"no parts at all",
    b"--XY\r\n" * 500 + b"--XY--\r\n",  # more parts than any form of ours
])
def test_a_mangled_upload_is_an_out_of_date_form(tournament: Client, body: bytes) -> None:
    answer = tournament.request("POST", "/decks", body,
                                {"Content-Type": "multipart/form-data; boundary=XY"})
    assert answer.status == 403 and "out of date" in answer.text
    assert decks(tournament) == []


def test_a_body_past_the_doors_limit_is_refused_before_it_is_read(tournament: Client) -> None:
    # only the head is sent: the answer comes before any of the 5 MB would
    host = urllib.parse.urlsplit(tournament.url).netloc.encode()
    head = (b"POST /decks HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: multipart/form-data;"
            b" boundary=XY\r\nContent-Length: " + str(5 * 1024 * 1024).encode() + b"\r\n\r\n")
    answer = raw(tournament.url, head)
    assert answer.startswith(b"HTTP/1.1 413") and b"too large (at most 4 MB)" in answer
    assert decks(tournament) == []


def test_an_upload_without_the_pages_csrf_token_stores_nothing(
        tournament: Client, tmp_path: Path) -> None:
    answer = upload(tournament, profile_bytes(tmp_path), "x", csrf="forged")
    assert answer.status == 403 and "out of date" in answer.text
    phone = tournament.device("10.1.2.77")
    answer = upload(phone, profile_bytes(tmp_path), "x", csrf="")
    assert answer.status == 401
    assert phone.get("/decks").status == 303  # to the sign-in page
    assert decks(tournament) == []


def test_an_empty_upload_asks_for_a_file(tournament: Client) -> None:
    assert said(upload(tournament, b"", "x")) == "Choose a deck profile file (.npz) to upload."


# -- the kiosks' calls ----------------------------------------------------------


def test_the_file_is_downloaded_by_its_digest(tournament: Client, tmp_path: Path) -> None:
    data = profile_bytes(tmp_path)
    upload(tournament, data, "House deck")
    kiosk = pair(tournament, 3)
    missing = kiosk.client.get("/api/v1/deck/file", kiosk.headers())
    assert missing.status == 404 and "no deck profile" in missing.json()["error"]
    tournament.post_form(f"/decks/{decks(tournament)[0]['id']}/hand", {"to": "every"})
    answer = kiosk.client.get("/api/v1/deck/file", kiosk.headers())
    digest = hashlib.sha256(data).hexdigest()
    assert answer.status == 200 and answer.body == data
    assert answer.header("etag") == f'"{digest}"'
    again = kiosk.client.get("/api/v1/deck/file",
                             kiosk.headers() | {"If-None-Match": f'"{digest}"'})
    assert again.status == 304 and again.body == b""
    # the page says which kiosks have fetched it
    handed = tournament.get("/decks.json").json()["tables"]
    assert handed["3"]["fetched_at"] is not None and handed["1"]["fetched_at"] is None
    rows = tournament.soup("/decks").select("#tables td.fetched")
    assert [r.get_text()[:14] for r in rows] == ["not yet: at it", "not yet: at it",
                                                 "fetched it at "]
    upload(tournament, profile_bytes(tmp_path, deck="other"), "Other deck")
    other = next(d["id"] for d in decks(tournament) if d["name"] == "Other deck")
    tournament.post_form(f"/decks/{other}/hand", {"to": "chosen", "table-3": "on"})
    assert tournament.get("/decks.json").json()["tables"]["3"]["fetched_at"] is None
    assert tournament.get("/api/v1/deck").status == 401  # a kiosk's call: its token


def test_a_kiosk_offers_the_deck_it_learnt(tournament: Client, tmp_path: Path) -> None:
    kiosk = pair(tournament, 2)
    data = profile_bytes(tmp_path, deck="table 2")
    body = {"name": "Table 2's deck", "profile": base64.b64encode(data).decode()}
    answer = kiosk.client.post_json("/api/v1/deck", body, kiosk.headers())
    assert answer.status == 200, answer.text
    assert answer.json() | {"deck_id": 0} == {
        "acknowledged": True, "deck_id": 0, "name": "Table 2's deck",
        "digest": hashlib.sha256(data).hexdigest(), "new": True}
    [deck] = decks(tournament)
    assert deck["source"] == "table 2"
    page = tournament.soup("/decks").select_one(f"#deck-{deck['id']} .holds")
    assert page is not None and "Offered by the kiosk at table 2" in page.get_text()
    # the director passes it to the others
    tournament.post_form(f"/decks/{deck['id']}/hand", {"to": "every"})
    assert (deck_of(pair(tournament, 1)) or {})["name"] == "Table 2's deck"
    assert kiosk.client.post_json("/api/v1/deck", body, kiosk.headers()).json()["new"] is False


@pytest.mark.parametrize(("body", "status", "error"), [
    ({"name": "x"}, 422, "send {"),
    ({"profile": "not base64!"}, 422, "the profile is not base64"),
    ({"profile": base64.b64encode(b"junk").decode()}, 422,
     "Not a deck profile: the file is not a .npz."),
])
def test_a_kiosks_offer_that_is_no_profile_is_refused(
        tournament: Client, body: dict[str, str], status: int, error: str) -> None:
    kiosk = pair(tournament, 1)
    answer = kiosk.client.post_json("/api/v1/deck", body, kiosk.headers())
    assert answer.status == status and error in answer.json()["error"]
    assert decks(tournament) == []


def test_an_offer_needs_a_paired_kiosk(tournament: Client, tmp_path: Path) -> None:
    body = {"profile": base64.b64encode(profile_bytes(tmp_path)).decode()}
    answer = tournament.post_json("/api/v1/deck", body, {"Authorization": "Bearer nope"})
    assert answer.status == 401
    assert decks(tournament) == []


# -- the store alone ---------------------------------------------------------


def test_the_store_refuses_what_it_cannot_hand(app: App, tmp_path: Path) -> None:
    store = Decks(app.director.db)
    added = store.add(profile_bytes(tmp_path), "", "uploaded", "Director")
    assert added.new and added.name == "Club's Bicycle jumbo"  # the profile's own name
    with pytest.raises(DeckError, match="Set up the tournament first"):
        store.hand(added.id, None, "Director")
    with pytest.raises(DeckError, match="no longer kept"):
        store.hand(added.id + 1, [1], "Director")
    with pytest.raises(DeckError, match="has no deck from the director"):
        store.take_back(1, "Director")
    with pytest.raises(DeckError, match="Type a name"):
        store.rename(added.id, "   ", "Director")
    assert store.for_table(1) is None and store.file_for_table(1) is None


def test_a_name_or_file_name_in_markup_is_shown_as_typed(
        tournament: Client, tmp_path: Path) -> None:
    upload(tournament, profile_bytes(tmp_path), "<script>alert(1)</script>")
    page = tournament.get("/decks").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    answer = upload(tournament, b"junk", "x", filename="<img src=x onerror=alert(1)>.npz")
    shown = tournament.get(answer.header("location") or "").text
    assert "<img src=x" not in shown and "&lt;img src=x onerror=alert(1)&gt;.npz" in shown


def test_the_director_keeps_a_bounded_number_of_decks(app: App, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kiosk.director.decks.MAX_DECKS", 2)
    store = Decks(app.director.db)
    for name in ("one", "two"):
        store.add(profile_bytes(tmp_path, deck=name), name, "table 1", "table 1 kiosk")
    with pytest.raises(DeckError, match="2 decks are kept already: forget one"):
        store.add(profile_bytes(tmp_path, deck="three"), "three", "table 1", "table 1 kiosk")
    assert store.add(profile_bytes(tmp_path, deck="one"), "x", "uploaded", "Director").new is False
