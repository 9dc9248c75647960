"""Decks: the deck profiles the director keeps, what each holds, and which table has which.

A volunteer's flow: one table learns the club's deck at set-up and offers it (or the
director uploads a file), the director names it and hands it to every table; each kiosk
picks it up at the start of its next game. A bad file is refused in one line on this
page and nothing is kept (kiosk.director.decks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.director import notices
from kiosk.director.deck_learning import ABOUT, can_learn
from kiosk.director.decks import DeckError, clean_name, table_words
from kiosk.director.views.layout import render
from kiosk.director.web import Request, Response, json_response, redirect
from kiosk.rules.cards import EUCHRE_DECK, Card

if TYPE_CHECKING:
    from kiosk.director.app import App

#: the photos a deck is learnt from
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


def holds(cards: Sequence[str]) -> str:
    """What a profile learnt, in the words the Decks page uses: the cards the enrolment
    photos showed (the others read as the shipped networks read them).

    >>> holds([str(c) for c in EUCHRE_DECK] + ["5H", "5D"])
    'All 24 euchre cards and 2 fives'
    >>> holds([str(c) for c in EUCHRE_DECK if str(c) not in ("KD", "AS")] + ["5C"])
    '22 of the 24 euchre cards (not the king of diamonds or the ace of spades) and 1 five'
    >>> holds(["JC", "JS", "QC"])
    '3 of the 24 euchre cards'
    """
    pack = [str(c) for c in EUCHRE_DECK]
    known = [c for c in pack if c in cards]
    fives = sum(1 for c in cards if c[:1] == "5")
    if len(known) == len(pack):
        words = f"All {len(pack)} euchre cards"
    else:
        words = f"{len(known)} of the {len(pack)} euchre cards"
        missing = [Card.parse(c).words for c in pack if c not in known]
        if len(missing) <= 3:
            words += f" (not the {' or the '.join(missing)})"
    return words + (f" and {fives} five{'s' if fives != 1 else ''}" if fives else "")


def learn(app: App, request: Request) -> Response:
    """Learn a deck deeply from a layout photo (kiosk.director.deck_learning)."""
    cannot = can_learn()
    if cannot:
        return _back(app, problem=cannot, anchor="#learn")
    photo = request.files().get("photo")
    if photo is None or not photo.data:
        return _back(app, problem="Choose the photo of the pack laid out in the grid.",
                     anchor="#learn")
    suffix = Path(photo.filename or "").suffix.lower()
    if suffix not in PHOTO_SUFFIXES:
        return _back(app, problem=f"{photo.filename or 'That file'} is not a photo "
                     "(a .jpg or .png is).", anchor="#learn")
    name = clean_name(request.form().get("name", "")) or "The club's deck"
    busy = app.deck_learning.start(photo.data, suffix, name)
    if busy:
        return _back(app, problem=busy, anchor="#learn")
    return _back(app, f"Learning {name!r} from the photo: {ABOUT}. Reload this page to see "
                 "when it is ready.", anchor="#learn")


def show(app: App, request: Request, fmt: str | None = None) -> Response:
    decks = app.decks.listing()
    handed = app.decks.assignments()
    if fmt:
        return json_response({"decks": decks,
                              "tables": {str(t): a for t, a in sorted(handed.items())}})
    tables = [int(r["table_no"]) for r in app.director.tables()]
    for deck in decks:
        deck["holds"] = holds(deck["cards"])
    return render(
        app, request, "decks.html", "Decks", "decks",
        decks=decks, tables=tables, handed=handed,
        learning=app.deck_learning.now, cannot_learn=can_learn(), learning_about=ABOUT,
        done=notices.said(app.director.secret, request.query, "done"),
        problem=notices.said(app.director.secret, request.query, "problem"),
    )


def _back(app: App, done: str = "", problem: str = "", anchor: str = "") -> Response:
    name, text = ("problem", problem) if problem else ("done", done)
    return redirect(f"/decks?{notices.query(app.director.secret, name, text)}{anchor}")


def upload(app: App, request: Request) -> Response:
    """The upload form: a profile file and the name the director gives it."""
    upload = request.files().get("profile")
    if upload is None or not upload.data:
        return _back(app, problem="Choose a deck profile file (.npz) to upload.")
    name = request.form().get("name", "") or _stem(upload.filename)
    try:
        added = app.decks.add(upload.data, name, "uploaded", app.who(request))
    except DeckError as problem:
        return _back(app, problem=f"{upload.filename or 'That file'} was not kept. {problem}")
    if not added.new:
        return _back(app, f"That profile is already kept here, as {added.name!r}.",
                     anchor=f"#deck-{added.id}")
    return _back(app, f"Kept {added.name!r}. Hand it to the tables below.",
                 anchor=f"#deck-{added.id}")


def hand(app: App, request: Request, deck: int) -> Response:
    """Hand a deck to every table, or to the ticked ones."""
    form = request.form()
    chosen = None if form.get("to") == "every" else sorted(
        int(m.group(1)) for k in form if (m := re.fullmatch(r"table-(\d{1,4})", k)))
    try:
        tables = app.decks.hand(int(deck), chosen, app.who(request))
    except DeckError as problem:
        return _back(app, problem=str(problem), anchor=f"#deck-{deck}")
    which = "every table" if chosen is None else table_words(tables)
    return _back(app, f"Handed to {which}: each kiosk reads with it from the start of its next "
                 "game.", anchor=f"#deck-{deck}")


def take_back(app: App, request: Request, table: int) -> Response:
    try:
        name = app.decks.take_back(int(table), app.who(request))
    except DeckError as problem:
        return _back(app, problem=str(problem))
    return _back(app, f"{name!r} taken back from table {table}: its kiosk returns to the deck it "
                 "had before, at the start of its next game.", anchor="#handed")


def rename(app: App, request: Request, deck: int) -> Response:
    try:
        name = app.decks.rename(int(deck), request.form().get("name", ""), app.who(request))
    except DeckError as problem:
        return _back(app, problem=str(problem), anchor=f"#deck-{deck}")
    return _back(app, f"Renamed {name!r}.", anchor=f"#deck-{deck}")


def remove(app: App, request: Request, deck: int) -> Response:
    try:
        name = app.decks.remove(int(deck), app.who(request))
    except DeckError as problem:
        return _back(app, problem=str(problem))
    return _back(app, f"{name!r} is no longer kept; any table that had it returns to the deck it "
                 "had before, at the start of its next game.")


def _stem(filename: str) -> str:
    """The name a file suggests: "bicycle-jumbo.npz" -> "bicycle-jumbo".

    >>> _stem("C:\\\\decks\\\\bicycle-jumbo.npz"), _stem("")
    ('bicycle-jumbo', '')
    """
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-4] if base.lower().endswith(".npz") else base
