"""Pairing a kiosk with the director: read the table's QR code, or type its code.

The director's Tables page shows, per table, a QR code holding
`https://SERVER/pair?table=3&code=K7P2QX&fp=<SHA-256 of its certificate>` and
the same six-character code in large letters. The fingerprint is pinned
(kiosk.table.pinning) before the code is sent, so the token comes only from,
and results go only to, the director whose certificate that is. The kiosk's
camera reads the QR code (OpenCV's detector, no extra dependency) or a
player types the code (a plain-HTTP director only: a typed code carries no
fingerprint); either way the kiosk posts the code to the director once and
gets the table's token back, which it hands to its outbox
(`Outbox.configure(server, token)`, which keeps the pin).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kiosk.table import pinning
from kiosk.table.director_problem import DirectorFault, DirectorProblem
from kiosk.table.outbox import Transport, urllib_transport


class PairingError(DirectorProblem):
    """Pairing did not work."""


@dataclass(frozen=True)
class Invite:
    """What a QR code or a typed code says: where the director is and the one-time code."""

    server: str
    code: str
    table: int | None = None
    #: the SHA-256 fingerprint of the director's certificate ('' for a plain-HTTP director)
    fingerprint: str = ""

    @classmethod
    def parse(cls, text: str) -> Invite:
        """Read the QR code's text (the pairing URL, or JSON with server/table/code).

        >>> Invite.parse("http://10.0.0.5:8555/pair?table=3&code=K7P2QX")
        Invite(server='http://10.0.0.5:8555', code='K7P2QX', table=3, fingerprint='')
        >>> Invite.parse("https://10.0.0.5:8556/pair?table=3&code=K7P2QX&fp=AB12").fingerprint
        'ab12'
        >>> Invite.parse('{"server": "http://h:1", "code": "ABCDEF"}').code
        'ABCDEF'
        """
        text = text.strip()
        if text.startswith("{"):
            try:
                data = json.loads(text)
                return cls(
                    str(data["server"]).rstrip("/"),
                    str(data["code"]),
                    int(data["table"]) if data.get("table") is not None else None,
                )
            except (ValueError, KeyError, TypeError):
                raise PairingError(DirectorFault.NOT_A_CODE) from None
        parts = urllib.parse.urlsplit(text)
        query = dict(urllib.parse.parse_qsl(parts.query))
        if parts.scheme not in ("http", "https") or not parts.netloc or "code" not in query:
            raise PairingError(DirectorFault.NOT_A_CODE)
        table = query.get("table")
        return cls(
            f"{parts.scheme}://{parts.netloc}",
            query["code"],
            int(table) if table and table.isdigit() else None,
            pinning.normalize(query.get("fp", "")),
        )


@dataclass(frozen=True)
class Pairing:
    """The result of pairing: give `server` and `token` to `Outbox.configure`."""

    server: str
    table: int
    token: str
    tournament: str | None = None
    fingerprint: str = ""


def pair_from_qr_image(frame: Any) -> Invite | None:
    """Find a pairing QR code in a camera frame (BGR or grey numpy array); None if none.

    OpenCV's QR reader misses some codes on a noisy grey frame that it reads
    at once from the same frame thresholded, and its ArUco-based twin finds
    others still; one miss means the director walks to the table again, so
    each attempt below is tried until one gives a pairing code. A photo of
    the director's screen may show several tables' codes: the first readable
    pairing code wins.
    """
    for text in _qr_texts(frame):
        try:
            return Invite.parse(text)
        except PairingError:
            continue
    return None


def _qr_texts(frame: Any) -> Iterator[str]:
    """Every text the QR readers find in the frame, cheapest attempt first."""
    import cv2

    try:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        _, binary = cv2.threshold(
            cv2.GaussianBlur(grey, (3, 3), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
        )
        for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
            for image in (grey, binary):
                text, _points, _ = detector.detectAndDecode(image)
                if text:
                    yield text
            ok, decoded, _points, _ = detector.detectAndDecodeMulti(grey)
            if ok:
                yield from (t for t in decoded if t)
    except cv2.error:
        return


def redeem(invite: Invite, transport: Transport | None = None, timeout: float = 10.0) -> Pairing:
    """Exchange the invite's one-time code for the table's token."""
    send = transport or urllib_transport
    body = json.dumps({"code": invite.code}).encode()
    if invite.fingerprint:
        try:
            pinning.pin(invite.server, invite.fingerprint)
        except ValueError:
            raise PairingError(DirectorFault.BAD_FINGERPRINT) from None
    try:
        status, raw = send(
            invite.server + "/api/v1/pair", body, {"Content-Type": "application/json"}, timeout
        )
    except (OSError, ValueError) as problem:
        raise PairingError(DirectorFault.UNREACHABLE, server=invite.server,
                           detail=str(problem)) from None
    try:
        answer = json.loads(raw.decode("utf-8") or "{}")
    except ValueError:
        answer = {}
    if status != 200 or "token" not in answer:
        reason = answer.get("error") if isinstance(answer, dict) else None
        raise PairingError(DirectorFault.SAID_NO, detail=str(reason or ""), status=status)
    if invite.table is not None and answer["table"] != invite.table:
        raise PairingError(DirectorFault.OTHER_TABLE)
    return Pairing(
        invite.server,  # the address this kiosk actually reached
        int(answer["table"]),
        str(answer["token"]),
        answer.get("tournament"),
        invite.fingerprint,
    )


def pair_with_code(server: str, code: str, transport: Transport | None = None) -> Pairing:
    """Pair with the code typed on the kiosk; `server` as shown on the director's page."""
    if "://" not in server:
        server = "http://" + server
    return redeem(Invite(server.rstrip("/"), code), transport)
