"""A browser's file upload (``multipart/form-data``), read from a body already bounded.

Why here and not a dependency: the one form that sends a file (a deck profile on the
Decks page) needs its text fields (the CSRF token, the name) and one file's bytes,
exactly as sent; the guard has already capped the body, so a short, strict reader is
all it takes. Anything it cannot read is no fields at all, and the page says so.

>>> body = (b'--XY\\r\\nContent-Disposition: form-data; name="csrf"\\r\\n\\r\\nabc\\r\\n'
...         b'--XY\\r\\nContent-Disposition: form-data; name="profile"; filename="d.npz"\\r\\n'
...         b'Content-Type: application/octet-stream\\r\\n\\r\\n\\x00\\r\\n\\x01\\r\\n--XY--\\r\\n')
>>> form = parse(body, "multipart/form-data; boundary=XY")
>>> form.fields, form.files["profile"]
({'csrf': 'abc'}, Upload(filename='d.npz', data=b'\\x00\\r\\n\\x01'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message

#: a form with more parts than this is not the Decks page's
MAX_PARTS = 20


@dataclass(frozen=True)
class Upload:
    """One file as the browser sent it."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Form:
    fields: dict[str, str] = field(default_factory=dict)
    files: dict[str, Upload] = field(default_factory=dict)


def is_multipart(content_type: str) -> bool:
    return content_type.split(";")[0].strip().lower() == "multipart/form-data"


def _params(header: str) -> tuple[str, dict[str, str]]:
    """A header's value and its parameters (quoted or not), as the email package reads them."""
    message = Message()
    message["x"] = header
    params = message.get_params(header="x") or []
    value = params[0][0].lower() if params else ""
    return value, {k.lower(): str(message.get_param(k, header="x") or "") for k, _ in params[1:]}


def parse(body: bytes, content_type: str) -> Form:
    """The text fields and files of a ``multipart/form-data`` body (empty when unreadable)."""
    _kind, params = _params(content_type)
    boundary = params.get("boundary", "")
    if not boundary or len(boundary) > 200:
        return Form()
    delimiter = b"--" + boundary.encode("latin-1")
    pieces = body.split(delimiter)
    if len(pieces) < 3 or len(pieces) > MAX_PARTS + 2:
        return Form()
    form = Form()
    for piece in pieces[1:-1]:
        if not piece.startswith(b"\r\n") or not piece.endswith(b"\r\n"):
            return Form()
        head, sep, data = piece[2:-2].partition(b"\r\n\r\n")
        if not sep:
            return Form()
        headers = {}
        for line in head.decode("utf-8", errors="replace").split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        disposition, about = _params(headers.get("content-disposition", ""))
        name = about.get("name", "")
        if disposition != "form-data" or not name:
            continue
        if "filename" in about:
            form.files[name] = Upload(about["filename"][:200], data)
        else:
            form.fields[name] = data.decode("utf-8", errors="replace")
    return form
