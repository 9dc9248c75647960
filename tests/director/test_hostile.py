"""Hostile and broken input against the real uvicorn server: refused with a 4xx and one
plain sentence, nothing stored, the server still answering (issue 42)."""

from __future__ import annotations

import json
import socket
import time
import urllib.parse
from pathlib import Path

import pytest

from kiosk.director import guard, server
from kiosk.table.outbox import Outbox
from tests.director.helpers import Client, Kiosk, game_at, pair, result, setup_form


def one_sentence(answer_text: str) -> str:
    """The error a client gets: one line, no traceback."""
    message = json.loads(answer_text)["error"]
    assert "\n" not in message and "Traceback" not in message and len(message) < 300
    return str(message)


def still_answering(client: Client) -> None:
    assert client.get("/api/v1/health").json()["ok"] is True


def raw(url: str, data: bytes, read: bool = True, timeout: float = 10.0) -> bytes:
    """Bytes straight onto the socket (what urllib and httpx refuse to send)."""
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(data)
        if not read:
            return b""
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks) and b"content-length" not in b"".join(
                chunks
            ).lower():
                break
        return b"".join(chunks)


# -- scores the rule book cannot produce --------------------------------------


@pytest.mark.parametrize("points", [[10, 10], [5, 3], [0, 0]])
def test_an_impossible_score_from_a_kiosk_is_refused_and_not_stored(
    tournament: Client, points: list[int]
) -> None:
    kiosk = pair(tournament, 1)
    answer = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], points), f"k{points}")
    assert answer.status == 422
    message = one_sentence(answer.text)
    assert "target" in message or "tie" in message.lower()
    game = game_at(tournament, 1, 1)
    assert (game["posts"], game["status"]) == (0, "waiting")
    still_answering(tournament)


def test_a_6_5_win_by_points_in_a_7_point_event_is_refused(client: Client) -> None:
    assert client.post_form("/setup", setup_form(points_to_win="7")).status == 303
    kiosk = pair(client, 1)
    answer = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [6, 5]), "a")
    assert answer.status == 422 and "7 points" in one_sentence(answer.text)
    on_time = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [6, 5], time_up=True), "b")
    assert on_time.json()["status"] == "counted"  # stopped by the time limit: as it stood
    assert kiosk.post(result(2, ["Ann & Bob", "Gus & Hal"], [11, 3]), "c").status == 422
    assert kiosk.post(result(2, ["Ann & Bob", "Gus & Hal"], [7, 7]), "d").status == 422


def test_a_tie_counts_only_on_time_and_only_where_the_book_scores_ties(client: Client) -> None:
    client.post_form("/setup", setup_form(profile="ssc"))
    kiosk = pair(client, 1)
    tie = result(1, ["Ann & Bob", "Cy & Di"], [6, 6])
    assert kiosk.post(tie, "a").status == 422  # not on time
    assert kiosk.post(tie | {"time_up": True}, "b").json()["status"] == "counted"
    assert game_at(client, 1, 1)["sheet_points"] == [6, 6]


def test_alberta55_refuses_a_tie_even_on_time(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    answer = kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [7, 7], time_up=True), "a")
    assert answer.status == 422 and "tie" in one_sentence(answer.text).lower()


def test_the_correction_form_is_checked_like_a_post(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 7]), "k")
    for form in (
        {"points_a": "10", "points_b": "10"},
        {"points_a": "5", "points_b": "3"},
        {"points_a": "0", "points_b": "0"},
        {"points_a": "8", "points_b": "10", "void": "on"},
    ):
        answer = tournament.post_form(
            "/game/1/1/correct", form | {"who": "Marg", "why": "testing"}
        )
        assert answer.status == 422 and 'id="problem"' in answer.text
    assert game_at(tournament, 1, 1)["points"] == [10, 7]
    page = tournament.soup(tournament.get("/game/1/1").headers.get("location") or "/game/1/1")
    assert page.select_one("#correct input[name=ended_by]") is not None
    timed = tournament.post_form(
        "/game/1/1/correct",
        {"points_a": "6", "points_b": "5", "ended_by": "time", "who": "Marg", "why": "clock"},
    )
    assert timed.status == 303 and "problem" not in (timed.header("Location") or "")
    game = game_at(tournament, 1, 1)
    assert (game["sheet_points"], game["ended_by"]) == ([6, 5], "time")
    assert "(time)" in tournament.soup("/sheet").select_one("#master").text
    changes = tournament.get("/audit.json").json()["audit"]
    assert "(was 10-7)" in changes[0]["what"]


def test_a_refused_result_is_final_for_the_outbox(tournament: Client, tmp_path: Path) -> None:
    kiosk = pair(tournament, 1)
    box = Outbox(tmp_path / "o.sqlite3", server=tournament.url, token=kiosk.token)
    key = box.submit({"game_id": "g", "round": 1, "teams": ["Ann & Bob", "Cy & Di"],
                      "points": [10, 10]})
    assert box.flush().rejected == 1
    item = box.item(key)
    assert item is not None and item.state == "rejected" and item.answer["status"] == 422
    box.close()


# -- request handling -----------------------------------------------------------


def test_json_nested_100000_deep_is_a_400_not_a_500(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    body = b"[" * 100_000 + b"]" * 100_000
    answer = kiosk.client.request("POST", "/api/v1/results", body, kiosk.headers("deep"))
    assert answer.status == 400 and "nested too deeply" in one_sentence(answer.text)
    pair_answer = tournament.request("POST", "/api/v1/pair", b'{"a":' * 50_000)
    assert pair_answer.status == 400
    assert tournament.app.last_error == []
    still_answering(tournament)


@pytest.mark.parametrize("length", [b"-1", b"abc"])
def test_a_bad_content_length_gets_a_4xx(live_server: str, client: Client, length: bytes) -> None:
    host = urllib.parse.urlsplit(live_server).netloc.encode()
    answer = raw(live_server, b"POST /api/v1/pair HTTP/1.1\r\nHost: " + host
                 + b"\r\nContent-Length: " + length + b"\r\n\r\n{}")
    assert answer.startswith(b"HTTP/1.1 400")
    still_answering(client)


def test_a_body_over_the_limit_is_refused_before_it_is_read(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    host = urllib.parse.urlsplit(tournament.url).netloc.encode()
    head = (b"POST /api/v1/results HTTP/1.1\r\nHost: " + host + b"\r\nAuthorization: Bearer "
            + kiosk.token.encode() + b"\r\nContent-Length: 999999999\r\n\r\n")
    answer = raw(tournament.url, head)
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"too large" in answer


def test_a_chunked_body_is_read(tournament: Client) -> None:
    kiosk = pair(tournament, 1)
    body = json.dumps(result(1, ["Ann & Bob", "Cy & Di"], [10, 4])).encode()
    host = urllib.parse.urlsplit(tournament.url).netloc.encode()
    request = (b"POST /api/v1/results HTTP/1.1\r\nHost: " + host
               + b"\r\nAuthorization: Bearer " + kiosk.token.encode()
               + b"\r\nIdempotency-Key: chunked\r\nContent-Type: application/json"
               + b"\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
               + f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n")
    answer = raw(tournament.url, request)
    assert answer.startswith(b"HTTP/1.1 200") and b'"counted"' in answer


def test_a_stalled_body_times_out_and_frees_the_server(
    tournament: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "BODY_PIECE_SECONDS", 0.5)
    host = urllib.parse.urlsplit(tournament.url).netloc.encode()
    began = time.monotonic()
    answer = raw(tournament.url, b"POST /api/v1/pair HTTP/1.1\r\nHost: " + host
                 + b"\r\nContent-Length: 100\r\n\r\n{\"co")
    assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - began < 5
    still_answering(tournament)


def test_half_sent_heads_do_not_hold_the_server(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "HEAD_SECONDS", 1.0)
    host, port = urllib.parse.urlsplit(client.url).netloc.split(":")
    socks = [socket.create_connection((host, int(port)), timeout=5) for _ in range(150)]
    try:
        for s in socks:
            s.sendall(b"GET /sheet HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        began = time.monotonic()
        still_answering(client)
        assert time.monotonic() - began < 2
        time.sleep(1.5)
        closed = sum(1 for s in socks if s.recv(1) == b"")
        assert closed == 150  # each one cut off after HEAD_SECONDS
    finally:
        for s in socks:
            s.close()


def test_a_header_too_long_is_refused(client: Client) -> None:
    answer = client.get("/api/v1/health", {"X-Junk": "x" * 10_000})
    assert answer.status == 431 and "too long" in one_sentence(answer.text)


def test_another_host_name_is_refused_before_any_page(client: Client) -> None:
    answer = client.get("/setup", {"Host": "evil.example"})
    assert answer.status == 400
    assert "csrf" not in answer.text and "host" in answer.text
    api = client.get("/api/v1/health", {"Host": "evil.example:8555"})
    assert api.status == 400 and "host name" in one_sentence(api.text)
    assert client.get("/api/v1/health", {"Host": "10.1.2.3:8555"}).status == 200  # public URL


def test_every_answer_carries_the_security_headers(client: Client) -> None:
    for path in ("/setup", "/api/v1/health", "/static/director.css", "/nope"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"], path


def test_pages_have_no_inline_script_or_style(tournament: Client) -> None:
    pair(tournament, 1).post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4]), "k")
    for path in ("/sheet", "/tables", "/game/1/1", "/print", "/setup", "/standings"):
        soup = tournament.soup(path)
        assert all(s.get("src") for s in soup.select("script")), path
        assert not soup.select("style") and not soup.select("[style]"), path
        assert not [t for t in soup.find_all(True) if any(a.startswith("on") for a in t.attrs)]


# -- the director's sign-in ------------------------------------------------------


def test_the_open_redirect_stays_on_this_server(tournament: Client) -> None:
    phone = tournament.device("10.1.2.88")
    page = phone.soup("/login?next=/%5Cevil.example/phish")
    assert page.select_one('input[name="next"]')["value"] == "/sheet"
    for target in ("/\\evil.example/phish", "//evil.example", "http://evil.example/",
                   "/%5Cevil.example", "/sheet\r\nX: y"):
        signed = phone.post_form("/login", {"pin": tournament.app.director.pin,
                                            "next": target}, csrf=False)
        assert signed.status == 303 and signed.header("Location") == "/sheet", target
    good = phone.post_form("/login", {"pin": tournament.app.director.pin, "next": "/tables"},
                           csrf=False)
    assert good.header("Location") == "/tables"


def sign_in(client: Client, remote: str) -> Client:
    phone = client.device(remote)
    answer = phone.post_form("/login", {"pin": client.app.director.pin, "next": "/tables"},
                             csrf=False)
    assert answer.status == 303
    cookies = answer.headers.get_list("set-cookie")
    phone.cookies = "; ".join(c.split(";")[0] for c in cookies)
    return phone


def test_each_device_has_its_own_session_that_signs_out(tournament: Client) -> None:
    phone, tablet = sign_in(tournament, "10.1.2.88"), sign_in(tournament, "10.1.2.89")
    assert phone.cookies != tablet.cookies
    assert phone.get("/tables").status == 200 and tablet.get("/tables").status == 200
    assert len(tournament.get("/devices.json").json()["sessions"]) == 2
    assert phone.post_form("/logout", {}).status == 303
    assert phone.get("/tables").status == 303  # back to the sign-in page
    assert tablet.get("/tables").status == 200  # the other device is still signed in
    assert phone.post_form("/tables/1/revoke", {"csrf": tablet.csrf()}).status == 401


def test_the_laptop_signs_a_device_out(tournament: Client) -> None:
    phone = sign_in(tournament, "10.1.2.88")
    [session] = tournament.get("/devices.json").json()["sessions"]
    assert session["address"] == "10.1.2.88"
    assert tournament.post_form(f"/devices/{session['id']}/revoke", {}).status == 303
    assert phone.get("/tables").status == 303
    assert tournament.get("/devices.json").json()["sessions"] == []


def test_a_session_expires(tournament: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    phone = sign_in(tournament, "10.1.2.88")
    later = time.time() + 13 * 3600
    monkeypatch.setattr(tournament.app.sessions, "clock", lambda: later)
    assert phone.get("/tables").status == 303


def test_a_guesser_waits_but_the_director_signs_in(tournament: Client) -> None:
    pin = tournament.app.director.pin
    wrong = "000000" if pin != "000000" else "111111"
    guesser = tournament.device("10.9.9.9")
    answers = [guesser.post_form("/login", {"pin": wrong}, csrf=False).status for _ in range(6)]
    assert answers == [403] * 5 + [429]
    locked = guesser.post_form("/login", {"pin": pin}, csrf=False)
    assert locked.status == 429 and "Try again in" in locked.text  # not even checked
    director = sign_in(tournament, "10.1.2.88")  # another device: not locked out
    assert director.get("/tables").status == 200
    # the director's known phone, even on the guesser's own address, has its own count
    known = tournament.device("10.9.9.9", director.cookies.split("; ")[1])
    assert known.post_form("/login", {"pin": pin}, csrf=False).status == 303
    lockouts = tournament.get("/devices.json").json()["lockouts"]
    assert [entry["key"] for entry in lockouts] == ["address:10.9.9.9"]
    # kept on disk: a restart does not forgive the guesser
    from kiosk.director.sessions import Sessions

    assert Sessions(tournament.app.director.db, "x").wait_seconds("address:10.9.9.9") > 0
    tournament.post_form("/devices/forgive", {})
    assert guesser.post_form("/login", {"pin": pin}, csrf=False).status == 303


# -- live updates --------------------------------------------------------------


def test_a_server_sent_event_arrives_within_a_second_of_a_post(tournament: Client) -> None:
    kiosk: Kiosk = pair(tournament, 1)
    with tournament.http.stream("GET", tournament.url + "/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next(lines).startswith("retry:")
        while not next(lines).startswith("data:"):
            pass  # the version the page starts from
        posted = time.monotonic()
        assert kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4]), "sse").status == 200
        for line in lines:
            if line.startswith("data:"):
                break
        latency = time.monotonic() - posted
    print(f"SSE latency after the acknowledgement: {latency * 1000:.0f} ms")
    assert latency < 1.0
