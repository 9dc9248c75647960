"""One device flooding the director (issue 59): half-sent requests and live streams held
by one client leave the kiosks' posts and the director's pages getting through; streams
end by themselves; a burst of commits reaches every open page at once. Every flood here
targets 127.0.0.1 only, is bounded in count and time, and stops by itself."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from kiosk.director import live, server
from kiosk.director.app import App
from kiosk.director.limits import CONNECTIONS_PER_CLIENT, ClientConnections
from kiosk.director.live import Changes
from tests.director.helpers import Client, pair, result, setup_form

#: the attacker: another loopback address, so it is not the director's own computer
ATTACKER = "127.0.0.66"


def head_of(url: str) -> tuple[str, int]:
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    return host, int(port)


def half_sent(url: str, count: int) -> list[socket.socket]:
    """`count` connections from the attacker's address, each holding half a request head."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(head_of(url), timeout=5, source_address=(ATTACKER, 0))
        with contextlib.suppress(OSError):  # refused at once: closed under us
            s.sendall(b"GET /sheet HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        socks.append(s)
    return socks


def refused(s: socket.socket) -> bool:
    """Was this connection told it is one too many (or closed)?"""
    s.settimeout(0.5)
    try:
        answer = s.recv(4096)
    except TimeoutError:
        return False  # still held open by the server, waiting for the rest of the head
    except OSError:
        return True
    return answer == b"" or answer.startswith(b"HTTP/1.1 429")


@pytest.fixture
def small_server(app: App, monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    """A director whose global cap is 120 connections (the flood needs no thousands to
    reach it) and whose half-sent heads are cut after 2 s; six teams set up."""
    app.connections = ClientConnections(total=120, reserve=40)
    monkeypatch.setattr(server, "HEAD_SECONDS", 2.0)
    public = app.public_url
    with server.serve_in_thread(app) as url:
        app.public_url = public
        with Client(app, url) as client:
            assert client.post_form("/setup", setup_form()).status == 303
            yield client


def test_half_sent_requests_from_one_device_leave_room_for_everyone(
    small_server: Client,
) -> None:
    client = small_server
    kiosk = pair(client, 1)
    began = time.monotonic()
    socks = half_sent(client.url, 200)  # beyond the global cap of 120, from one device
    try:
        turned_away = sum(refused(s) for s in socks)
        assert turned_away >= 200 - CONNECTIONS_PER_CLIENT
        assert client.get("/api/v1/health").status == 200
        assert kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4]), "k").status == 200
        assert client.get("/sheet").status == 200  # the director's own page
        assert client.device("10.1.2.88").get("/standings").status == 200  # a player's phone
        time.sleep(2.5)  # the heads it kept are cut off after HEAD_SECONDS
        assert all(refused(s) for s in socks)
    finally:
        for s in socks:
            s.close()
    assert time.monotonic() - began < 20


def test_a_head_that_never_ends_is_cut_at_its_limit(client: Client) -> None:
    s = socket.create_connection(head_of(client.url), timeout=5, source_address=(ATTACKER, 0))
    try:
        s.sendall(b"GET /sheet HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for k in range(server.MAX_HEAD // 100 + 10):
            try:
                s.sendall(b"X-Pad-%05d: " % k + b"y" * 86 + b"\r\n")
            except OSError:
                break  # cut off
        answer = s.recv(4096)
        assert answer.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400")) or answer == b""
    finally:
        s.close()
    assert client.get("/api/v1/health").status == 200


def half_sent_from(url: str, sources: list[str], each: int) -> list[socket.socket]:
    socks = []
    for source in sources:
        for _ in range(each):
            s = socket.create_connection(head_of(url), timeout=5, source_address=(source, 0))
            with contextlib.suppress(OSError):
                s.sendall(b"GET /sheet HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
    return socks


def test_many_devices_flooding_together_leave_room_for_kiosks_and_the_laptop(
    small_server: Client,
) -> None:
    client = small_server
    code = client.get("/tables.json").json()["tables"][0]["code"]
    # a kiosk on its own address, known to the director once it has used its token
    with httpx.Client(timeout=10, transport=httpx.HTTPTransport(
            local_address="127.0.0.77")) as wire:
        kiosk_client = Client(client.app, client.url, http=wire)
        token = kiosk_client.post_json("/api/v1/pair", {"code": code}).json()["token"]
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        assert kiosk_client.get("/api/v1/table", headers).status == 200
        socks = half_sent_from(client.url, [f"127.0.0.{50 + k}" for k in range(5)], 30)
        try:  # 150 held or refused: the director's 120 are full
            stranger = socket.create_connection(head_of(client.url), timeout=5,
                                                source_address=("127.0.0.99", 0))
            stranger.sendall(b"GET /standings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert stranger.recv(100).startswith(b"HTTP/1.1 503")
            stranger.close()
            body = result(1, ["Ann & Bob", "Cy & Di"], [10, 4])
            posted = kiosk_client.post_json("/api/v1/results", body, headers | {
                "Idempotency-Key": "k"})
            assert posted.status == 200  # the known kiosk still gets through
            assert client.get("/sheet").status == 200  # and the laptop
        finally:
            for s in socks:
                s.close()


def open_stream(url: str, forwarded: str) -> tuple[socket.socket, bytes]:
    """A raw /events request as the device `forwarded` (test server only); its first bytes."""
    s = socket.create_connection(head_of(url), timeout=5)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: "
              + forwarded.encode() + b"\r\n\r\n")
    return s, s.recv(400)


def test_live_streams_are_capped_per_device_and_end_by_themselves(
    tournament: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "STREAM_SECONDS", 1.5)
    kiosk = pair(tournament, 1)
    opened = [open_stream(tournament.url, "10.7.7.7") for _ in range(live.STREAMS_PER_CLIENT + 12)]
    try:
        heads = [first.split(b"\r\n")[0] for _s, first in opened]
        assert heads.count(b"HTTP/1.1 200 OK") == live.STREAMS_PER_CLIENT
        assert heads.count(b"HTTP/1.1 429 Too Many Requests") == 12
        phone, first = open_stream(tournament.url, "10.1.2.88")  # another device: its own share
        assert first.startswith(b"HTTP/1.1 200")
        phone.close()
        assert kiosk.post(result(1, ["Ann & Bob", "Cy & Di"], [10, 4]), "k").status == 200
        ended = 0
        deadline = time.monotonic() + 5
        for s, first in opened:
            if not first.startswith(b"HTTP/1.1 200"):
                continue
            data = first
            while b"0\r\n\r\n" not in data and time.monotonic() < deadline:
                try:
                    chunk = s.recv(4096)
                except TimeoutError:
                    break
                if not chunk:
                    break
                data += chunk
            ended += b"0\r\n\r\n" in data or not data
        assert ended == live.STREAMS_PER_CLIENT  # each stream ended by itself
    finally:
        for s, _first in opened:
            s.close()
    deadline = time.monotonic() + 3
    while tournament.app.streams.count() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tournament.app.streams.count() == 0  # every slot given back


def events(url: str, stop: threading.Event) -> queue.Queue[str]:
    """The data lines of one /events stream, as they arrive, until `stop`."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        with httpx.Client(timeout=httpx.Timeout(5, read=1.0)) as http, http.stream(
            "GET", url + "/events"
        ) as stream:
            iterator = stream.iter_lines()
            while not stop.is_set():
                try:
                    line = next(iterator)
                except httpx.ReadTimeout:
                    continue
                except (StopIteration, httpx.HTTPError):
                    return
                if line.startswith("data:"):
                    lines.put(line[5:].strip())

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_the_last_of_a_burst_of_changes_reaches_the_page_at_once(tournament: Client) -> None:
    kiosks = [pair(tournament, t) for t in (1, 2, 3)]
    stop = threading.Event()
    seen = events(tournament.url, stop)
    try:
        seen.get(timeout=5)  # the version the page starts from
        late = 0
        with ThreadPoolExecutor(6) as pool:
            for burst in range(30):
                calls = [(k, f"b{burst}-{i}") for i, k in enumerate(kiosks * 2)]
                list(pool.map(lambda c: c[0].client.post_json(
                    "/api/v1/calls", {"hand": 1}, c[0].headers(c[1])), calls))
                final = str(tournament.app.director.version())
                got, deadline = "", time.monotonic() + 1.0
                while got != final and time.monotonic() < deadline:
                    try:
                        got = seen.get(timeout=max(0.01, deadline - time.monotonic()))
                    except queue.Empty:
                        break
                late += got != final
        assert late == 0, f"{late} of 30 bursts reached the page only later"
    finally:
        stop.set()


def test_a_wait_begun_after_a_commit_returns_at_once() -> None:
    changes = Changes()
    seen = changes.tick
    changes.notify()  # lands between the version's read and the wait

    async def waited() -> float:
        began = time.monotonic()
        await changes.wait(seen, 5.0)
        return time.monotonic() - began

    assert asyncio.run(waited()) < 0.5
