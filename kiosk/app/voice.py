"""The kiosk's voice: espeak-ng, one sentence at a time, at a rate the players set.

Sentences wait in a queue and a single worker speaks them, so two are never heard
at once. When the queue grows (the camera read a whole trick while the first card
was still being said), plain sentences give way to the newest and alerts are
kept. The settings live beside the table's journal (`voice.json`), not in the game:
a player may turn the voice on or slow it down at any time.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

#: reading rates a player can choose, words a minute (espeak-ng's own default is 175)
RATES = (100, 125, 150, 175, 210)
SPEEDS = dict(zip(RATES, ("slowest", "slow", "normal", "fast", "fastest"), strict=True))
LANGUAGES = {"en": "English", "fr": "Français"}
#: espeak-ng's voice for each language
VOICES = {"en": "en-gb", "fr": "fr-fr"}
#: at most this many plain sentences wait; older ones give way
BACKLOG = 3


@dataclass(frozen=True)
class VoiceSettings:
    enabled: bool = False
    language: str = "en"
    rate: int = 150

    @classmethod
    def load(cls, path: Path) -> VoiceSettings:
        """The saved settings, or the defaults when there are none (or they are damaged)."""
        try:
            data = json.loads(path.read_text())
            settings = cls(enabled=bool(data["enabled"]), language=str(data["language"]),
                           rate=int(data["rate"]))
        except (OSError, ValueError, KeyError, TypeError):
            return cls()
        if settings.language not in LANGUAGES or settings.rate not in RATES:
            return cls()
        return settings

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self)))

    def faster(self, by: int) -> VoiceSettings:
        """The next rate up (`by=1`) or down (`by=-1`), within `RATES`.

        >>> VoiceSettings(rate=150).faster(1).rate, VoiceSettings(rate=100).faster(-1).rate
        (175, 100)
        """
        index = max(0, min(len(RATES) - 1, RATES.index(self.rate) + by))
        return replace(self, rate=RATES[index])

    def words(self) -> str:
        """The settings in plain words, for the set-up screen's button."""
        if not self.enabled:
            return "Voice: off"
        return f"Voice: on, {LANGUAGES[self.language]}, {SPEEDS[self.rate]} speed"


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None


def espeak_command(text: str, settings: VoiceSettings, wav: Path | None = None) -> list[str]:
    """The espeak-ng command that says `text` (into `wav` instead, when given).

    >>> espeak_command("West, queen of hearts.", VoiceSettings(rate=125))
    ['espeak-ng', '-v', 'en-gb', '-s', '125', '--', 'West, queen of hearts.']
    """
    command = ["espeak-ng", "-v", VOICES[settings.language], "-s", str(settings.rate)]
    if wav is not None:
        command += ["-w", str(wav)]
    return [*command, "--", text]


def phonemes(text: str, language: str = "en") -> str:
    """espeak-ng's phonemes for `text` (what it would say, as it would say it)."""
    done = subprocess.run(["espeak-ng", "-q", "-x", "-v", VOICES[language], "--", text],
                          capture_output=True, text=True, check=True, timeout=30)
    return " ".join(done.stdout.split())


def _espeak(command: Sequence[str]) -> None:
    """Run espeak-ng until the sentence is said; a kiosk without it stays silent (the
    voice screen says why) rather than failing."""
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(list(command), check=False, timeout=60, capture_output=True)


class Voice:
    """Speaks sentences one at a time on a worker thread."""

    def __init__(self, settings: VoiceSettings,
                 run: Callable[[Sequence[str]], Any] | None = None) -> None:
        self.settings = settings
        self._run = run or _espeak
        #: (sentence, is an alert) waiting to be said, oldest first
        self._waiting: list[tuple[str, bool]] = []
        self._ready = threading.Condition()
        self._closing = False
        self._thread: threading.Thread | None = None
        #: every sentence handed to espeak-ng, in order (shown in tests and logs)
        self.spoken: list[str] = []

    def say(self, text: str, alert: bool = False) -> None:
        """Queue a sentence; when more than `BACKLOG` plain ones wait, the oldest goes."""
        if not self.settings.enabled:
            return
        with self._ready:
            self._waiting.append((text, alert))
            plain_ones = [w for w in self._waiting if not w[1]]
            for old in plain_ones[:-BACKLOG]:
                self._waiting.remove(old)
            self._ready.notify()
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._speak_all, name="voice", daemon=True)
            self._thread.start()

    def _speak_all(self) -> None:
        while True:
            with self._ready:
                while not self._waiting and not self._closing:
                    self._ready.wait()
                if not self._waiting:
                    return  # closing, and all said
                text, _alert = self._waiting.pop(0)
            self.spoken.append(text)
            self._run(espeak_command(text, self.settings))  # returns when it is said

    def silence(self) -> None:
        """Drop whatever still waits (the players are asked to tap)."""
        with self._ready:
            self._waiting.clear()

    def wait(self, timeout: float = 60.0) -> None:
        """Until everything queued is said (tests, and a clean stop)."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            with self._ready:
                self._closing = True
                self._ready.notify()
            thread.join(timeout)
        with self._ready:
            self._closing = False
        self._thread = None
