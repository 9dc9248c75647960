"""Text typed by people or posted by kiosks, made safe to show and fair to compare.

Why: names reach the director from many keyboards. "Zoé" typed on a phone
may arrive decomposed (e + combining accent), an apostrophe may be curly, a
name pasted from a chat may carry a zero-width space, and a right-to-left
override turns the rest of a line of the game page backwards. Two names
that look the same must be the same name, and no name may rearrange the
page around it. So every name is *cleaned* when it comes in (NFC, no
control or formatting characters, single spaces) and *folded* when names
are compared (compatibility forms, case and quote marks ignored).
"""

from __future__ import annotations

import unicodedata

#: quote marks that look like the keyboard's ' and " (compared as those)
QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'",
    "\u00b4": "'", "\u0060": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
})


def _shown(ch: str) -> bool:
    """A character that may stand in a name: not a control, format (bidi, zero-width),
    private-use, unassigned or surrogate code point."""
    return unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cn", "Cs")


def clean(text: str, limit: int | None = None) -> str:
    """A name or sentence as it is stored and shown: NFC, only visible characters, one
    space between words, at most `limit` characters.

    >>> clean("Zoe\\u0301  &\\u200b Ann\\u202e")
    'Zoé & Ann'
    >>> clean("line\\none\\ttab")
    'line one tab'
    """
    text = unicodedata.normalize("NFC", str(text))
    text = "".join(ch if _shown(ch) else (" " if ch in "\t\n\r\v\f" else "") for ch in text)
    text = " ".join(text.split())
    return text if limit is None else text[:limit].rstrip()


def fold(name: str) -> str:
    """A name as it is compared: cleaned, compatibility forms and quote marks alike,
    without case or extra spaces.

    >>> fold("  Ann  &  bob ")
    'ann & bob'
    >>> fold("Zoe\\u0301 & O\\u2019Neil") == fold("ZOÉ & o'neil\\u200b")
    True
    """
    text = unicodedata.normalize("NFKC", clean(name)).translate(QUOTES)
    return " ".join(text.split()).casefold()
