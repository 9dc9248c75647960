"""What the kiosk says aloud for a low-vision player, in English or French.

Each card read ("West, queen of hearts"), each trick's winner, the score after each
hand and every alert, once each: like the narrator, every fact has a key and a key
is spoken once, so the whole session can be looked at after every change. While
the screen waits for the players to tap (bidding, a correction, the set-up), only
alerts are spoken: a voice must not talk over a decision. No audio here: the
sentences go to a `Voice` (kiosk.app.voice), and are tested as text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kiosk.app.twin_question import twin_pair
from kiosk.app.voice import Voice, VoiceSettings, espeak_available
from kiosk.app.words import notice_words, plain
from kiosk.rules.cards import Card, Seat
from kiosk.table.phases import Phase
from kiosk.table.session import TableSession

#: screens where the players are asked to tap: only alerts are spoken there
ASKS_FOR_TAP = frozenset({"setup", "rules", "pairing", "voice", "bidding", "correction",
                          "calibration", "deck"})


@dataclass(frozen=True)
class Phrasebook:
    """The words of one language."""

    seats: dict[str, str]
    ranks: dict[str, str]
    suits: dict[str, str]
    of: str  # 'queen OF hearts'
    trick_to: str  # 'Trick {n} to {seat}'
    score: str  # 'Score: {a} {x}, {b} {y}'
    renege: str  # 'Renege: {seat} did not follow suit'
    notice: str  # a camera notice: the English text, or a pointer to the screen
    game_over: str
    fives: str = "{team}'s fives show {fives}; the kiosk has {kiosk}: which is right?"
    #: before a renege is called: a card it depends on may be its same-colour twin
    twin: str = "Which card did {seat} play in trick {n}: the {a} or the {b}?"

    def card(self, code: str) -> str:
        card = Card.parse(code)
        return f"{self.ranks[str(card)[0]]} {self.of} {self.suits[str(card)[1]]}"


ENGLISH = Phrasebook(
    seats={str(seat): seat.words for seat in Seat},
    ranks={"9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"},
    suits={"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
    of="of", trick_to="Trick {n} to {seat}.", score="Score: {a} {x}, {b} {y}.",
    renege="Renege: {seat} did not follow suit.", notice="{text}",
    game_over="Game over. {a} {x}, {b} {y}.")
FRENCH = Phrasebook(
    seats={"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"},
    ranks={"9": "neuf", "T": "dix", "J": "valet", "Q": "dame", "K": "roi", "A": "as"},
    suits={"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"},
    of="de", trick_to="Pli {n} pour {seat}.", score="Pointage : {a} {x}, {b} {y}.",
    renege="Renonce : {seat} n'a pas fourni.", notice="Attention : voyez l'écran.",
    game_over="Partie terminée. {a} {x}, {b} {y}.",
    fives="Les cinq de {team} montrent {fives} ; le kiosque a {kiosk} : lequel est juste ?",
    twin="Quelle carte {seat} a-t-il jouée au pli {n} : {a} ou {b} ?")
PHRASEBOOKS = {"en": ENGLISH, "fr": FRENCH}

Say = Callable[[str, bool], None]  # (sentence, is an alert)


class Speech:
    """Turns the session's new facts into sentences for a voice."""

    def __init__(self, session: TableSession, say: Say, language: str = "en",
                 screen: Callable[[], str] = lambda: "live",
                 teams: Callable[[], dict[str, str]] | None = None) -> None:
        self.session = session
        self.say = say
        self.words = PHRASEBOOKS[language]
        self.screen = screen
        self.teams = teams or (lambda: {"NS": "North-South", "EW": "East-West"})
        self._said: set[tuple[object, ...]] = set()
        self.enabled = True

    def _speak(self, key: tuple[object, ...], sentence: str, alert: bool = False) -> None:
        if key in self._said:
            return
        self._said.add(key)
        if self.enabled and (alert or self.screen() not in ASKS_FOR_TAP):
            self.say(sentence, alert)

    def catch_up(self) -> None:
        """Mark everything already in the session as said (a voice switched on mid-game
        starts from now, not from the first card)."""
        enabled, self.enabled = self.enabled, False
        try:
            self.update()
        finally:
            self.enabled = enabled

    def update(self) -> None:
        """Speak every fact of the session not spoken yet, in the order of play."""
        s, w = self.session, self.words
        hand = s.hand
        teams = self.teams()
        if hand is not None and hand.view is not None:
            n, view = hand.number, hand.view
            for t, trick in enumerate(view.tricks, start=1):
                for seat, card in trick.cards:
                    self._speak(("card", n, t, seat, card),
                                f"{w.seats[str(seat)]}, {w.card(str(card))}.")
                if trick.winner is not None:
                    self._speak(("won", n, t), w.trick_to.format(
                        n=t, seat=w.seats[str(trick.winner)]))
            for notice in s.notices:
                if notice.hand == n:
                    self._speak(("notice", notice.seq),
                                w.notice.format(text=plain(notice_words(notice))), alert=True)
            asked = hand.suggestion if hand.suggestion is not None and hand.suggestion.twin \
                else None
            if asked is not None:  # a renege is never said before its cards are settled
                a, b = twin_pair(asked)
                self._speak(("twin", n, asked.trick, asked.seat), w.twin.format(
                    seat=w.seats[str(asked.seat)], n=asked.trick, a=w.card(str(a)),
                    b=w.card(str(b))), alert=True)
            elif view.renege is not None:
                self._speak(("renege", n), w.renege.format(
                    seat=w.seats[str(view.renege.seat)]), alert=True)
        for d in s.markers.open():  # the players' 5s and the kiosk's score differ
            self._speak(("fives", d.seq, str(d.side)), w.fives.format(
                team=teams[str(d.side)], fives=d.fives, kiosk=min(d.kiosk, 10)), alert=True)
        scores = s.scores
        numbers = {"a": teams["NS"], "x": scores["NS"], "b": teams["EW"], "y": scores["EW"]}
        if hand is not None and s.phase == Phase.HAND_OVER:
            self._speak(("score", hand.number), w.score.format(**numbers))
        if s.phase in (Phase.GAME_OVER, Phase.CONFIRMED):
            self._speak(("game_over",), w.game_over.format(**numbers))


class TableVoice:
    """The voice of one table: its settings (kept in `path`), the speaker and what it says.
    The voice screen's buttons call these methods; `on_change` redraws the screens."""

    SAMPLE = {"en": "West, queen of hearts.", "fr": "Ouest, dame de cœur."}

    def __init__(self, session: TableSession, path: Path | None,
                 screen: Callable[[], str], teams: Callable[[], dict[str, str]],
                 on_change: Callable[[], None] = lambda: None,
                 run: Callable[[Sequence[str]], Any] | None = None) -> None:
        self.path = path
        self.settings = VoiceSettings.load(path) if path is not None else VoiceSettings()
        self.voice = Voice(self.settings, run=run)
        #: whether this kiosk can speak at all (espeak-ng installed, or a runner given)
        self.available = run is not None or espeak_available()
        self.speech = Speech(session, self.voice.say, self.settings.language, screen, teams)
        self.speech.catch_up()  # a restarted kiosk does not say the game again
        self.on_change = on_change
        self._screen = screen
        session.subscribe(lambda _s: self.update())

    def update(self) -> None:
        if self._screen() in ASKS_FOR_TAP:
            self.voice.silence()
        self.speech.update()

    def _set(self, settings: VoiceSettings) -> None:
        if settings.enabled and not self.settings.enabled:
            self.speech.catch_up()  # from now on, not from the first card
        self.settings = settings
        self.voice.settings = settings
        self.speech.words = PHRASEBOOKS[settings.language]
        if self.path is not None:
            settings.save(self.path)
        self.on_change()

    def switch(self) -> None:
        """The large switch: on, or off."""
        self._set(replace(self.settings, enabled=not self.settings.enabled))

    def speak_in(self, language: str) -> None:
        self._set(replace(self.settings, language=language))
        self.try_it()

    def faster(self, by: int) -> None:
        self._set(self.settings.faster(by))
        self.try_it()

    def try_it(self) -> None:
        """Say a sample sentence at the chosen rate (the voice screen's own button)."""
        self.voice.say(self.SAMPLE[self.settings.language], True)
