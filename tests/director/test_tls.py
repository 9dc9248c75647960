"""Kiosks and the director over TLS with the director's own certificate (issue 59): the QR
code carries its fingerprint, the kiosk pins it, nothing secret crosses plain HTTP from
another device, and the laptop and the players' pages stay on plain HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kiosk.director.app import App
from kiosk.director.server import serve_in_thread
from kiosk.director.tls import Certificate, ensure_certificate
from kiosk.table import pinning
from kiosk.table.outbox import Outbox
from kiosk.table.pairing import Invite, PairingError, redeem
from tests.director.helpers import Client, game_at, result, setup_form


@pytest.fixture
def certificate(tmp_path: Path) -> Certificate:
    return ensure_certificate(tmp_path / "tls", {"127.0.0.1", "localhost"})


@pytest.fixture
def secured(app: App, certificate: Certificate) -> Iterator[Client]:
    """A director with its TLS listener; six teams set up from the laptop (plain HTTP)."""
    with serve_in_thread(app, certificate=certificate) as url, Client(app, url) as laptop:
        assert laptop.post_form("/setup", setup_form()).status == 303
        yield laptop


def qr_text(laptop: Client, table: int) -> str:
    tables = laptop.get("/tables.json").json()["tables"]
    return str(next(t["pairing_url"] for t in tables if t["table_no"] == table))


def test_the_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    first = ensure_certificate(tmp_path, {"10.0.0.5"})
    again = ensure_certificate(tmp_path, {"10.0.0.5", "other"})
    assert first.fingerprint == again.fingerprint and len(first.fingerprint) == 64
    assert first.keyfile.stat().st_mode & 0o077 == 0  # the key is the director's alone


def test_a_kiosk_pairs_by_the_qr_code_and_posts_over_tls(
    secured: Client, certificate: Certificate, tmp_path: Path
) -> None:
    invite = Invite.parse(qr_text(secured, 1))
    assert invite.server.startswith("https://") and invite.fingerprint == certificate.fingerprint
    paired = redeem(invite)
    assert paired.fingerprint == certificate.fingerprint
    box = Outbox(tmp_path / "o.sqlite3")
    box.configure(paired.server, paired.token)  # takes the pin pairing made
    assert box.config()["fingerprint"] == certificate.fingerprint
    box.submit(result(1, ["Ann & Bob", "Cy & Di"], [10, 4], game_id="g1", table=1))
    assert box.flush().acknowledged == 1
    assert game_at(secured, 1, 1)["status"] == "counted"
    box.close()
    again = Outbox(tmp_path / "o.sqlite3")  # a restart: the pin holds again from the file
    assert pinning.pinned(paired.server) == certificate.fingerprint
    again.close()


def test_a_server_with_another_certificate_gets_nothing(
    secured: Client, tmp_path: Path
) -> None:
    invite = Invite.parse(qr_text(secured, 1))
    forged = Invite(invite.server, invite.code, invite.table, "ab" * 32)
    with pytest.raises(PairingError, match="not the director"):
        redeem(forged)
    # the code was never sent, so the real kiosk still pairs with it
    assert redeem(invite).table == 1


def test_nothing_secret_crosses_plain_http_from_another_device(secured: Client) -> None:
    kiosk = secured.device("10.1.2.50")
    code = secured.get("/tables.json").json()["tables"][0]["code"]
    answer = kiosk.post_json("/api/v1/pair", {"code": code})
    assert answer.status == 403 and "TLS" in answer.json()["error"]
    phone = secured.device("10.1.2.88")
    login = phone.get("/login")
    assert login.status == 307 and (login.header("location") or "").startswith("https://")
    assert phone.post_form("/login", {"pin": secured.app.director.pin}, csrf=False).status == 403
    assert phone.get("/standings").status == 200  # the players' page stays on plain HTTP
    assert phone.get("/api/v1/health").status == 200
    assert secured.get("/tables").status == 200  # the laptop itself needs no TLS


def test_a_phone_signs_in_over_tls_with_a_cookie_kept_off_plain_http(secured: Client) -> None:
    with httpx.Client(verify=False, timeout=30) as http:
        answer = http.post(secured.app.secure_url + "/login",
                           data={"pin": secured.app.director.pin, "next": "/tables"},
                           headers={"X-Forwarded-For": "10.1.2.88"})
    assert answer.status_code == 303
    cookies = answer.headers.get_list("set-cookie")
    assert cookies and all("secure" in c.lower() for c in cookies)
