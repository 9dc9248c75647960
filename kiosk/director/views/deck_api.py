"""The kiosks' deck calls (docs/director-api.md, "Deck profiles").

A kiosk asks which profile its table has (small JSON, every game), and downloads the
file only when the digest differs from the one it keeps. A kiosk that learnt its own
deck offers it here, so the director can hand it to the others; it is checked as an
upload is, and refused with one line (422) when it cannot be used.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from kiosk.director.decks import DeckError
from kiosk.director.web import BadRequest, Request, Response, error_json, json_response

if TYPE_CHECKING:
    from kiosk.director.app import App

FILE_PATH = "/api/v1/deck/file"


def deck(app: App, request: Request, kiosk_table: int) -> Response:
    """{"deck": {...digest, name, cards...} | null}: this table's deck from the director."""
    about = app.decks.for_table(kiosk_table)
    return json_response({"table": kiosk_table,
                          "deck": None if about is None else about | {"file": FILE_PATH}})


def deck_file(app: App, request: Request, kiosk_table: int) -> Response:
    """The profile's bytes; ``If-None-Match`` with its digest answers 304."""
    found = app.decks.file_for_table(kiosk_table)
    if found is None:
        return error_json(404, "the director has handed no deck profile to this table")
    digest, data = found
    etag = f'"{digest}"'
    if request.headers.get("if-none-match", "").strip() == etag:
        return Response(b"", 304, headers={"ETag": etag})
    app.decks.fetched(kiosk_table, digest)
    return Response(data, 200, media_type="application/octet-stream",
                    headers={"ETag": etag, "X-Deck-Digest": digest})


def offer(app: App, request: Request, kiosk_table: int) -> Response:
    """{"name": "...", "profile": "<base64 .npz>"}: this table's own profile, offered."""
    try:
        body = request.json()
    except BadRequest as problem:
        return error_json(400, str(problem))
    if not isinstance(body, dict) or not isinstance(body.get("profile"), str):
        return error_json(422, 'send {"name": "...", "profile": "<the .npz, base64>"}')
    try:
        data = base64.b64decode(body["profile"], validate=True)
    except (binascii.Error, ValueError):
        return error_json(422, "the profile is not base64")
    name = str(body.get("name", ""))[:200] or f"Table {kiosk_table}'s deck"
    try:
        added = app.decks.add(data, name, f"table {kiosk_table}", f"table {kiosk_table} kiosk")
    except DeckError as problem:
        return error_json(422, str(problem))
    return json_response({"acknowledged": True, "deck_id": added.id, "name": added.name,
                          "digest": added.digest, "new": added.new})
