"""The sentence a page shows after a form was sent ("Kept the deck", "That PIN..."), signed.

Why: a view that redirects after a POST carries its sentence in the query
(`?problem=...`), and the page shows it in a red or green box. Unsigned,
anyone could send a link whose page shows *their* sentence in the
director's red box, on the players' public pages too. So the sentence goes
with an HMAC under the tournament's secret, and a page shows only a sentence
this server wrote.
"""

from __future__ import annotations

import hashlib
import hmac
import urllib.parse
from collections.abc import Mapping

#: a notice longer than this is cut (a page shows one sentence)
LIMIT = 300


def _mac(secret: str, name: str, text: str) -> str:
    message = f"notice:{name}:{text}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:32]


def query(secret: str, name: str, text: str) -> str:
    """The query string that carries `text` as the notice `name` ("problem", "done").

    >>> said("k", dict(urllib.parse.parse_qsl(query("k", "done", "Kept."))), "done")
    'Kept.'
    """
    text = text[:LIMIT]
    return urllib.parse.urlencode({name: text, "sig": _mac(secret, name, text)})


def said(secret: str, params: Mapping[str, str], name: str) -> str:
    """The notice `name` in a page's query if this server signed it, else ''.

    >>> said("k", {"problem": "Your laptop is hacked, call 555-0100"}, "problem")
    ''
    """
    text = params.get(name, "")[:LIMIT]
    mac = params.get("sig", "")
    return text if text and hmac.compare_digest(mac, _mac(secret, name, text)) else ""
