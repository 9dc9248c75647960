"""Learning a deck deeply on the director's laptop, from a kiosk's layout photo.

Why here: deep enrolment (``kiosk enrol --deep``) learns the naming network itself, a
minute or two of torch, which a Raspberry Pi at a table may not have and the director's
laptop usually does. The director uploads the photo of the pack laid in the set-up grid
(the one a kiosk's *Learn this deck* screen takes), names the deck, and the profile learnt
from it joins the Decks page, to be handed to every table like any other.

The learning runs as its own process (``python -m kiosk enrol --deep``): the director
imports the rules engine and nothing of the kiosk's vision (ARCHITECTURE.md), a crash or
a lack of memory there cannot take the master sheet down, and the sheet's event loop is
never held. One deck is learnt at a time; its state is kept here for the page to show.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from kiosk.director.decks import LEARNT_HERE, DeckError, Decks

#: the most a learning may take before it is stopped (seconds)
MOST_SECONDS = 600.0
#: what a learning is said to take, for the page
ABOUT = "about two minutes"


def can_learn() -> str | None:
    """Why this laptop cannot learn a deck deeply, in one plain line; None when it can."""
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("onnx") is None:
        return ("This laptop cannot learn a deck from a photo: it needs the kiosk's training "
                "extras (pip install 'kiosk[train]'). A table's kiosk can still learn its "
                "deck and send it here.")
    return None


@dataclass(frozen=True)
class Learning:
    """The deck being learnt, or the last one learnt."""

    name: str
    started: float
    state: str  #: "learning", "done" or "failed"
    line: str = ""  #: what the learning said (its last line), for the page


class DeckLearning:
    """One deep learning at a time, in a process of its own (see the module's docstring);
    what it learns is kept in ``decks``. ``command``: the learning's command line, without
    its photo and output (default ``python -m kiosk enrol --deep``)."""

    def __init__(self, decks: Decks, command: list[str] | None = None) -> None:
        self._decks = decks
        self._command = command or [sys.executable, "-m", "kiosk", "enrol", "--deep"]
        self._lock = threading.Lock()
        self._now: Learning | None = None
        #: the thread of the last learning started (tests wait on it)
        self.worker: threading.Thread | None = None

    @property
    def now(self) -> Learning | None:
        with self._lock:
            return self._now

    def start(self, photo: bytes, suffix: str, name: str) -> str | None:
        """Start learning ``name`` from a layout photo; why it cannot start, or None."""
        with self._lock:
            if self._now is not None and self._now.state == "learning":
                return f"{self._now.name!r} is still being learnt: wait for it to finish."
            self._now = Learning(name, time.time(), "learning")
        folder = Path(tempfile.mkdtemp(prefix="deck-learning-"))
        image = folder / f"layout{suffix}"
        image.write_bytes(photo)
        self.worker = threading.Thread(target=self._learn, args=(folder, image, name),
                                       daemon=True, name="deck-learning")
        self.worker.start()
        return None

    def _learn(self, folder: Path, image: Path, name: str) -> None:
        out = folder / "deck.npz"
        try:
            done = subprocess.run([*self._command, "--layout", str(image), "-o", str(out),
                                   "--name", name], capture_output=True, text=True,
                                  timeout=MOST_SECONDS, check=False)
            said = (done.stdout.strip() or done.stderr.strip()).splitlines()
            line = said[-1] if said else ""
            if out.is_file():  # written: a complete pack (0) or the cards that are right (1)
                kept = self._kept(out.read_bytes(), name)
                self._finish(name, "done", f"{line} {kept}".strip())
            else:
                self._finish(name, "failed", line or "The learning stopped without a word.")
        except subprocess.TimeoutExpired:
            self._finish(name, "failed", "The learning took too long and was stopped.")
        except Exception as problem:  # the sheet must go on whatever the learning did
            self._finish(name, "failed", f"The learning failed: {problem}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _kept(self, data: bytes, name: str) -> str:
        """Keep the learnt profile among the director's decks; a sentence for the page."""
        try:
            added = self._decks.add(data, name, LEARNT_HERE, "Director")
        except DeckError as problem:
            return f"It was not kept: {problem}"
        return f"Kept as {added.name!r}: hand it to the tables below."

    def _finish(self, name: str, state: str, line: str) -> None:
        with self._lock:
            started = self._now.started if self._now is not None else time.time()
            self._now = Learning(name, started, state, line)
