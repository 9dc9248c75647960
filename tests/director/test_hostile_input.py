"""Hostile input from a device on the hall's Wi-Fi (issue 59): numbers too large, PIN
guesses sent together, look-alike and direction-changing names, a notice in a link,
posts without bound, results too large to take. Each is refused with one sentence or
mended, nothing is stored that should not be, and the server goes on answering."""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from kiosk.director import notices
from kiosk.director.posting import MAX_FRAMES, MAX_POSTS_PER_GAME
from kiosk.table.outbox import MAX_BODY, Outbox
from tests.director.helpers import Client, game_at, pair, result, setup_form
from tests.director.test_hostile import one_sentence, still_answering
from tests.director.test_outbox import Network

HUGE = 10**20
#: the characters that change the direction of the text after them
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
JPEG = base64.b64encode(b"\xff\xd8\xff\xe0evidence\xff\xd9").decode()


# -- numbers too large for the store -------------------------------------------------


def test_a_round_of_ten_to_the_twentieth_is_a_422(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    answer = kiosk.post(result(HUGE, ["Ann & Bob", "Cy & Di"], [10, 4]), "huge")
    assert answer.status == 422 and "round" in one_sentence(answer.text)
    call = kiosk.client.post_json("/api/v1/calls", {"hand": HUGE}, kiosk.headers("c"))
    assert call.status == 422 and "hand" in one_sentence(call.text)
    assert tournament.app.last_error == []
    still_answering(tournament)


@pytest.mark.parametrize("path", ["/frames/" + "9" * 20, "/game/" + "9" * 20 + "/1",
                                  "/game/1/" + "9" * 20 + ".json"])
def test_a_twenty_digit_number_in_an_address_is_a_404(tournament: Client, path: str) -> None:
    answer = tournament.get(path)
    assert answer.status == 404, answer.text[:200]
    assert tournament.app.last_error == []


def test_a_twenty_digit_call_answered_is_a_404(tournament: Client) -> None:
    answer = tournament.post_form("/calls/" + "9" * 20 + "/answer", {})
    assert answer.status == 404 and tournament.app.last_error == []


def test_a_correction_of_twenty_digits_is_said_not_crashed(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    answer = tournament.post_form("/game/1/1/correct", {"post_id": "9" * 20, "who": "M",
                                                        "why": "x"})
    assert answer.status == 422 and "whole numbers" in answer.text
    assert tournament.app.last_error == []


def nested_deck(levels: int = 100_000) -> bytes:
    """A deck profile whose JSON header nests `levels` deep."""
    text = "[" * levels + "]" * levels
    body = text.encode("utf-32-le")
    about = repr({"descr": f"<U{len(text)}", "fortran_order": False, "shape": ()}).encode()
    about += b" " * (63 - (10 + len(about)) % 64) + b"\n"
    member = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(about)) + about + body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.npy", member)
    return out.getvalue()


def test_a_deck_file_of_deeply_nested_json_is_refused_in_one_line(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    offer = {"name": "deep", "profile": base64.b64encode(nested_deck()).decode()}
    answer = kiosk.client.post_json("/api/v1/deck", offer, kiosk.headers())
    assert answer.status == 422 and "not a deck profile" in one_sentence(answer.text).lower()
    assert tournament.app.last_error == []


# -- the PIN lockout --------------------------------------------------------------------


def test_three_hundred_pins_sent_together_get_five_checked(tournament: Client) -> None:
    pin = tournament.app.director.pin
    wrong = "000000" if pin != "000000" else "111111"
    guesser = tournament.device("10.9.9.9")

    def guess(_: int) -> int:
        return guesser.post_form("/login", {"pin": wrong}, csrf=False).status

    with ThreadPoolExecutor(32) as pool:
        answers = list(pool.map(guess, range(300)))
    assert answers.count(403) == 5  # checked and wrong
    assert answers.count(429) == 295  # not checked
    assert guesser.post_form("/login", {"pin": pin}, csrf=False).status == 429


# -- names that look alike, names that turn the page around ------------------------------


def test_names_that_look_the_same_are_the_same(client: Client) -> None:
    teams = ["Zoe\u0301 & Ann", "Pat O\u2019Neil & Bo", "Cy\u200b & Di", "Ed & Flo"]
    assert client.post_form("/setup", setup_form(entrants="\n".join(teams))).status == 303
    kiosk = pair(client, 1)
    posted = kiosk.post(result(1, ["ZOÉ & Ann", "pat o'neil & bo"], [10, 4]), "a")
    assert posted.json()["status"] == "counted", posted.text
    kiosk2 = pair(client, 2)
    assert kiosk2.post(result(1, ["Cy & Di", "Ed & Flo"], [10, 4]), "b").json()[
        "status"] == "counted"
    names = [s["team"] for s in client.get("/standings.json").json()["standings"]]
    assert "Zoé & Ann" in names and "Cy & Di" in names  # stored composed, without the ZWSP
    twice = setup_form(entrants="Zoé & Ann\nZoe\u0301 & ann\nCy & Di")
    assert "listed twice" in client.post_form("/setup", twice).text


def test_a_right_to_left_override_is_stripped(client: Client) -> None:
    teams = ["Ann \u202e& Bob", "Cy & Di\u2066", "Ed & Flo", "Gus & Hal"]
    client.post_form("/setup", setup_form(entrants="\n".join(teams)))
    kiosk = pair(client, 1)
    kiosk.post(result(1, ["Ann & Bob", "Cy & Di\u202e"], [10, 4],
                      reneges=[{"seat": "S", "team": "Cy & Di", "penalty": "2\u202e to A"}]), "a")
    for path in ("/sheet", "/game/1/1", "/standings", "/print", "/audit"):
        text = client.get(path).text
        assert not any(ch in text for ch in BIDI), path
    assert game_at(client, 1, 1)["status"] == "counted"


@pytest.mark.parametrize("path", ["/game/1/1", "/seating", "/decks", "/devices", "/tables"])
def test_a_notice_in_a_link_is_shown_only_if_the_director_wrote_it(
    tournament: Client, path: str
) -> None:
    forged = "Your laptop has a virus. Call 555-0100"
    for name in ("problem", "done"):
        page = tournament.get(f"{path}?{name}=" + forged.replace(" ", "+"))
        assert forged not in page.text, path
    if path.startswith("/game/"):
        return  # a correction that fails is shown again with its problem, not redirected
    secret = tournament.app.director.secret
    signed = tournament.get(f"{path}?" + notices.query(secret, "done", "Kept it."))
    signed_problem = tournament.get(f"{path}?" + notices.query(secret, "problem", "Kept it."))
    assert "Kept it." in signed.text or "Kept it." in signed_problem.text


# -- nothing without bound ----------------------------------------------------------------


def test_a_kiosk_cannot_post_without_end_for_one_game(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    statuses = [kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, k % 10]), f"k{k}").status
                for k in range(MAX_POSTS_PER_GAME + 3)]
    assert statuses == [200] * MAX_POSTS_PER_GAME + [422] * 3
    assert game_at(tournament, 1, 1)["posts"] == MAX_POSTS_PER_GAME
    strays = [kiosk.post(result(50 + k, ["Ann & Bob", "Cy & Di"], [10, 4]), f"s{k}").status
              for k in range(MAX_POSTS_PER_GAME + 2)]
    assert strays.count(422) == 2  # rounds not on the schedule share one allowance


@pytest.mark.parametrize(
    ("renege", "said"),
    [
        ({"seat": "S", "trick": "two"}, "trick"),
        ({"seat": "S", "hand": HUGE}, "hand"),
        ({"seat": "Q"}, "seat"),
        ({"seat": "S", "team": "Nobody & Else"}, "team"),
        ({"seat": "S", "penalty": {"points": 2}}, "penalty"),
        ({"seat": "S", "frames": [{"image": base64.b64encode(b"<svg onload=x>").decode()}]},
         "image"),
        ({"seat": "S", "frames": [{"image": JPEG}] * (MAX_FRAMES + 1)}, "frames"),
    ],
)
def test_a_renege_report_is_checked(tournament: Client, renege: dict[str, Any],
                                    said: str) -> None:
    kiosk = pair(tournament, 1)
    answer = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4], reneges=[renege]), "r")
    assert answer.status == 422 and said in one_sentence(answer.text)
    assert game_at(tournament, 1, 1)["posts"] == 0


def test_a_legal_result_with_every_frame_at_its_largest_fits(tournament: Client) -> None:
    frame = "data:image/jpeg;base64," + base64.b64encode(
        b"\xff\xd8\xff" + b"\0" * (1_000_000 - 3)).decode()
    reneges = [{"seat": "S", "hand": h + 1, "trick": 1, "frames": [{"image": frame}] * 2}
               for h in range(MAX_FRAMES // 2)]
    hands = [{"record": {"tricks": [["E:AS", "S:9S", "W:KS", "N:TS"]] * 5}, "points": {}}] * 19
    body = result(1, ["Ann & Bob", "Cy & Di"], [10, 4], reneges=reneges, hands=hands)
    size = len(json.dumps(body).encode())
    assert size < MAX_BODY["result"]
    kiosk = pair(tournament, 1)
    assert kiosk.post(body, "big").json()["status"] == "counted"


# -- a result the director cannot take ------------------------------------------------------


def test_a_result_too_large_is_set_aside_and_the_next_game_goes(
    tournament: Client, tmp_path: Path
) -> None:
    net = Network(tournament)
    kiosk = pair(tournament, 1)
    box = Outbox(tmp_path / "o.sqlite3", server="http://10.1.2.3:8555", token=kiosk.token,
                 transport=net)
    frame = {"image": "data:image/jpeg;base64," + "A" * 1_900_000}
    poisoned = result(1, ["Ann & Bob", "Cy & Di"], [10, 4], game_id="g1", table=1,
                      reneges=[{"seat": "S", "frames": [frame] * 9}])
    big = box.submit(poisoned)
    nxt = box.submit(result(2, ["Ann & Bob", "Ed & Flo"], [10, 6], game_id="g2", table=1))
    box.flush()
    box.flush(force=True)
    refused, sent = box.item(big), box.item(nxt)
    assert refused is not None and refused.state == "rejected"
    assert "too large" in refused.answer["error"]
    assert sent is not None and sent.state == "acknowledged"
    assert box.counts()["pending"] == 0  # the director was told, once
    calls = tournament.get("/sheet.json").json()["calls"]
    assert [c["table_no"] for c in calls] == [1] and "too large" in calls[0]["note"]
    assert "too large" in tournament.soup("/sheet").select_one("#live").text
    box.close()


def test_a_refused_result_is_said_to_the_director(tournament: Client, tmp_path: Path) -> None:
    net = Network(tournament)
    kiosk = pair(tournament, 1)
    box = Outbox(tmp_path / "o.sqlite3", server="http://10.1.2.3:8555", token=kiosk.token,
                 transport=net)
    box.submit(result(1, ["Ann & Bob", "Cy & Di"], [5, 3], game_id="g1", table=1))
    box.flush()
    box.flush(force=True)
    [call] = tournament.get("/sheet.json").json()["calls"]
    assert "set aside" in call["note"] and call["round"] == 1
    box.close()
