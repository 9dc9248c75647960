"""The voice for low-vision players: what is said (as text), one sentence at a time,
at the rate the players set, and the audio espeak-ng makes of it."""

from __future__ import annotations

import shutil
import subprocess
import time
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from kiosk.app.demo import DemoDriver, start_demo
from kiosk.app.presenter import TablePresenter
from kiosk.app.speech import Speech
from kiosk.app.voice import Voice, VoiceSettings, espeak_command, phonemes
from kiosk.rules.cards import Seat
from kiosk.table.session import TableSession
from kiosk.vision.events import CardPlayed, ReaderWarning, WarningKind, face


def play_demo(session: TableSession) -> None:
    start_demo(session, deal=True)
    driver = DemoDriver(session, pace=0.01, autoplay=False)
    for _ in range(300):
        driver.tick(0.01)


def spoken_hand(tmp_path: Path, language: str) -> list[tuple[str, bool]]:
    session = TableSession.open(tmp_path / f"{language}.sqlite3")
    said: list[tuple[str, bool]] = []
    speech = Speech(session, lambda text, alert: said.append((text, alert)), language,
                    teams=lambda: {"NS": "Ann & Bob", "EW": "Cy & Di"})
    session.subscribe(lambda _s: speech.update())
    play_demo(session)
    return said


def test_each_card_each_trick_and_the_score_are_said_once(tmp_path: Path) -> None:
    said = [text for text, _alert in spoken_hand(tmp_path, "en")]
    assert said[:5] == ["East, ace of spades.", "South, nine of spades.", "West, king of spades.",
                        "North, queen of spades.", "Trick 1 to East."]
    cards = [t for t in said if t.count(",") == 1 and " of " in t]
    assert len(cards) == 20 and len(set(cards)) == 20  # each card once
    assert [t for t in said if t.startswith("Trick ")] == [
        "Trick 1 to East.", "Trick 2 to East.", "Trick 3 to North.", "Trick 4 to West.",
        "Trick 5 to West."]
    assert said[-1] in ("Score: Ann & Bob 0, Cy & Di 1.", "Game over. Ann & Bob 0, Cy & Di 1.")
    assert not any(c in t for t in said for c in ("AS", "9S", "KS"))  # never a card code


def test_french_for_canadian_clubs(tmp_path: Path) -> None:
    said = [text for text, _alert in spoken_hand(tmp_path, "fr")]
    assert said[:5] == ["Est, as de pique.", "Sud, neuf de pique.", "Ouest, roi de pique.",
                        "Nord, dame de pique.", "Pli 1 pour Est."]
    assert any(t.startswith("Pointage : Ann & Bob 0, Cy & Di 1") or t.startswith(
        "Partie terminée") for t in said)


def test_only_alerts_while_the_players_are_asked_to_tap(tmp_path: Path) -> None:
    from tests.table.conftest import make_setup

    session = TableSession.open(tmp_path / "j.sqlite3")
    session.configure(make_setup())
    session.start_game("N")
    screen = ["live"]
    said: list[tuple[str, bool]] = []
    speech = Speech(session, lambda text, alert: said.append((text, alert)),
                    screen=lambda: screen[0])
    session.subscribe(lambda _s: speech.update())
    session.see_turn_up("9H")
    session.bid("pass"), session.bid("pass"), session.bid("order")
    screen[0] = "correction"  # a player is fixing a card
    session.feed(CardPlayed(Seat.E, face("AS"), 1.0, 0.9))
    session.feed(ReaderWarning(WarningKind.OCCLUDED, "An arm hides the cards.", Seat.S, 2.0))
    assert said == [("An arm hides the cards.", True)]
    screen[0] = "live"
    session.feed(CardPlayed(Seat.S, face("9S"), 3.0, 0.9))
    assert said[-1] == ("South, nine of spades.", False)
    assert ("East, ace of spades.", False) not in said  # not said later either


class SlowSpeaker:
    """Stands in for espeak-ng: each sentence takes 50 ms; records when each ran."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float, str]] = []

    def __call__(self, command: Sequence[str]) -> None:
        began = time.monotonic()
        time.sleep(0.05)
        self.spans.append((began, time.monotonic(), command[-1]))


def test_never_two_sentences_at_once_and_a_backlog_gives_way() -> None:
    speaker = SlowSpeaker()
    voice = Voice(VoiceSettings(enabled=True), run=speaker)
    sentences = [f"Card {i}." for i in range(8)]
    for text in sentences:
        voice.say(text)
    voice.say("Renege: West did not follow suit.", alert=True)
    voice.wait()
    spans = sorted(speaker.spans)
    assert all(a_end <= b_start
               for (_s, a_end, _t), (b_start, _e, _u) in zip(spans, spans[1:], strict=False))
    said = [text for _b, _e, text in speaker.spans]
    assert "Renege: West did not follow suit." in said  # an alert is never dropped
    # the first sentence may already be on its way; of the rest, the newest three are said
    assert said[-4:] == [*sentences[-3:], "Renege: West did not follow suit."]
    assert said[:-4] in ([], sentences[:1])


def test_nothing_is_said_while_the_voice_is_off() -> None:
    speaker = SlowSpeaker()
    voice = Voice(VoiceSettings(enabled=False), run=speaker)
    voice.say("West, queen of hearts.")
    voice.wait()
    assert speaker.spans == []


def test_the_players_switch_the_voice_and_set_its_rate_and_it_is_kept(tmp_path: Path) -> None:
    from tests.table.conftest import make_setup

    commands: list[list[str]] = []
    path = tmp_path / "voice.json"
    session = TableSession.open(tmp_path / "j.sqlite3")
    session.configure(make_setup())
    p = TablePresenter(session, voice_path=path, voice_runner=lambda c: commands.append(list(c)))
    assert p.voice.settings.words() == "Voice: off"
    p.voice.switch()
    p.voice.faster(-1)
    p.voice.speak_in("fr")
    p.voice.voice.wait()
    assert VoiceSettings.load(path) == VoiceSettings(enabled=True, language="fr", rate=125)
    assert commands[-1] == ["espeak-ng", "-v", "fr-fr", "-s", "125", "--",
                            "Ouest, dame de cœur."]
    again = TablePresenter(TableSession.open(tmp_path / "j.sqlite3"), voice_path=path)
    assert again.voice.settings.words() == "Voice: on, Français, slow speed"
    path.write_text("{not json")
    assert VoiceSettings.load(path) == VoiceSettings()


needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (scripts/install-system-"
                                         "packages.sh installs it)")


def _samples(path: Path) -> tuple[np.ndarray, int]:
    with wave.open(str(path)) as wav:
        frames = wav.readframes(wav.getnframes())
        return np.frombuffer(frames, np.int16).astype(np.float32), wav.getframerate()


def _utterances(samples: np.ndarray, rate: int) -> int:
    """Stretches of sound separated by 0.5 s or more of silence."""
    window = rate // 50  # 20 ms
    energy = np.array([np.abs(samples[i:i + window]).mean()
                       for i in range(0, len(samples) - window, window)])
    loud = energy > max(200.0, 0.05 * energy.max())
    count, quiet = 0, 25
    for frame_loud in loud:
        if frame_loud and quiet >= 25:
            count += 1
        quiet = 0 if frame_loud else quiet + 1
    return count


@needs_espeak
@pytest.mark.slow
def test_the_audio_says_each_event_once_in_the_right_words_at_the_set_rate(
        tmp_path: Path) -> None:
    said = [text for text, _alert in spoken_hand(tmp_path, "en")][:5]  # trick 1
    durations = {}
    for rate in (100, 210):
        settings = VoiceSettings(enabled=True, rate=rate)
        total = 0.0
        for i, text in enumerate(said):
            wav = tmp_path / f"{rate}-{i}.wav"
            subprocess.run(espeak_command(text, settings, wav=wav), check=True, timeout=60)
            samples, sample_rate = _samples(wav)
            assert _utterances(samples, sample_rate) == 1, text  # one utterance an event
            total += len(samples) / sample_rate
        durations[rate] = total
    assert durations[100] > 1.5 * durations[210]  # the rate the players set is heard
    # the words: what espeak-ng says for the sentence is what it says for the card's name
    for sentence, name, seat in zip(said[:4], ("ace of spades", "nine of spades",
                                               "king of spades", "queen of spades"),
                                    ("East", "South", "West", "North"), strict=True):
        assert phonemes(name) in phonemes(sentence) and phonemes(seat) in phonemes(sentence)
    french = [text for text, _alert in spoken_hand(tmp_path, "fr")][0]
    assert phonemes("as de pique", "fr") in phonemes(french, "fr")


def test_a_kiosk_without_espeak_stays_silent_and_says_why(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng to be found
    session = TableSession.open(tmp_path / "j.sqlite3")
    p = TablePresenter(session, voice_path=tmp_path / "voice.json")
    assert not p.voice.available
    p.voice.switch()
    p.voice.try_it()  # espeak-ng cannot be started: nothing is raised, nothing is lost
    p.voice.voice.wait()
    assert p.voice.voice.spoken == ["West, queen of hearts."]
