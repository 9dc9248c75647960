"""Pairing from the camera: the QR code on the director's page, read by OpenCV."""

from __future__ import annotations

import io
import urllib.parse

import cv2
import numpy as np
import pytest
import segno

from kiosk.app.words import director_problem_words
from kiosk.director.auth import CODE_ALPHABET
from kiosk.director.views.tables import pairing_url
from kiosk.table.director_problem import DirectorFault
from kiosk.table.pairing import Invite, PairingError, pair_from_qr_image, pair_with_code, redeem
from tests.director.helpers import Client


def transport_into(client: Client):  # type: ignore[no-untyped-def]
    """The kiosk's transport, sent to the live server as a kiosk at 10.1.2.60 would."""
    kiosk = client.device("10.1.2.60")

    def send(url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        path = urllib.parse.urlsplit(url).path
        response = kiosk.request("POST", path, body, headers)
        return response.status, response.body

    return send


def qr_photo(text: str, angle: float = 12.0) -> np.ndarray:
    """The QR code as a camera might see it: smaller, turned, on a grey table, a little noisy."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=6, border=4)
    qr = cv2.imdecode(np.frombuffer(out.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)
    canvas = np.full((720, 960), 120, np.uint8)
    y, x = 150, 300
    canvas[y : y + qr.shape[0], x : x + qr.shape[1]] = qr
    turn = cv2.getRotationMatrix2D((480, 360), angle, 0.9)
    canvas = cv2.warpAffine(canvas, turn, (960, 720), borderValue=120)
    noise = np.random.default_rng(7).normal(0, 6, canvas.shape)
    return cv2.cvtColor(np.clip(canvas + noise, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def test_the_tables_page_qr_code_pairs_a_kiosk_through_the_camera(tournament: Client) -> None:
    row = tournament.get("/tables.json").json()["tables"][1]
    url = pairing_url(tournament.app.public_url, row["table_no"], row["code"])
    invite = pair_from_qr_image(qr_photo(url))
    assert invite == Invite("http://10.1.2.3:8555", row["code"], 2)
    pairing = redeem(invite, transport_into(tournament))
    assert pairing.table == 2 and pairing.server == "http://10.1.2.3:8555"
    assert tournament.app.director.authenticate(pairing.token) == 2


def test_a_code_opencvs_first_reader_misses_on_a_noisy_frame_still_pairs() -> None:
    """CI once drew table 2's code MAD6Q4: plain QRCodeDetector reads nothing from that photo."""
    url = pairing_url("http://10.1.2.3:8555", 2, "MAD6Q4")
    assert pair_from_qr_image(qr_photo(url)) == Invite("http://10.1.2.3:8555", "MAD6Q4", 2)


@pytest.mark.parametrize("seed", range(4))
def test_every_table_code_pairs_whatever_code_and_tilt_it_draws(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(10):
        code = "".join(rng.choice(list(CODE_ALPHABET), 6))
        table = int(rng.integers(1, 41))
        url = pairing_url("http://10.1.2.3:8555", table, code)
        photo = qr_photo(url, angle=float(rng.uniform(-30, 30)))
        assert pair_from_qr_image(photo) == Invite("http://10.1.2.3:8555", code, table), url


def test_the_page_shows_the_same_url_as_an_svg_qr_code(tournament: Client) -> None:
    soup = tournament.soup("/tables")
    cards = soup.select(".card")
    assert len(cards) == 3
    assert cards[0].select_one(".qr svg") is not None
    code = cards[0].select_one(".code").text
    assert code == tournament.get("/tables.json").json()["tables"][0]["code"]


def test_a_frame_without_a_qr_code_gives_none() -> None:
    assert pair_from_qr_image(np.full((480, 640, 3), 90, np.uint8)) is None


def test_a_foreign_qr_code_is_not_an_invite() -> None:
    assert pair_from_qr_image(qr_photo("https://example.org/menu", angle=0)) is None


def test_typing_the_code_pairs_too(tournament: Client) -> None:
    code = tournament.get("/tables.json").json()["tables"][2]["code"]
    typed = f"{code[:3].lower()}-{code[3:]}"
    pairing = pair_with_code("10.1.2.3:8555", typed, transport_into(tournament))
    assert pairing.table == 3 and pairing.server == "http://10.1.2.3:8555"
    with pytest.raises(PairingError, match="already used"):
        pair_with_code("10.1.2.3:8555", code, transport_into(tournament))


def test_an_unreachable_director_is_said_plainly() -> None:
    def refuse(url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        raise ConnectionRefusedError("refused")

    with pytest.raises(PairingError) as unreachable:
        pair_with_code("http://10.1.2.3:8555", "ABCDEF", refuse)
    assert unreachable.value.fault is DirectorFault.UNREACHABLE
    assert director_problem_words(unreachable.value) == (
        "Cannot reach the director at http://10.1.2.3:8555: refused")
