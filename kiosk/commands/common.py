"""Input helpers every sub-command shares: reading a file or standard input, a rule profile.

Each turns a problem into a one-line `UsageError`, so no command shows a
traceback for a missing file or a misspelt profile.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kiosk.cli import UsageError
from kiosk.rules.profiles import PROFILES, RuleProfile, get_profile


def read_text(path: str) -> str:
    """The text of a file, or of standard input for '-'; a `UsageError` if it can't be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as problem:
        raise UsageError(f"cannot read {path}: {problem.strerror or problem}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: not UTF-8 text") from None


def profile_from(name: str | None) -> RuleProfile:
    """The profile named by --rules, or a one-line `UsageError`."""
    if name is None:
        raise UsageError(f"--rules PROFILE is required ({', '.join(sorted(PROFILES))})")
    try:
        return get_profile(name)
    except ValueError as problem:
        raise UsageError(str(problem)) from None


def add_profile_and_input(parser: argparse.ArgumentParser, what: str) -> None:
    """`--rules PROFILE` and a `FILE` (or '-' for standard input) holding `what`."""
    parser.add_argument(
        "--rules",
        metavar="PROFILE",
        help=f"rule profile: {', '.join(sorted(PROFILES))}",
    )
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help=f"{what} (JSON); '-' or nothing reads standard input",
    )


def check_image_files(names: Sequence[str], what: str = "image file") -> None:
    """Every file exists and is of a kind OpenCV reads, before any is read (so a typo in
    the last name costs no work on the first); a one-line `UsageError` otherwise. `what`
    is the files' name in that line ("image file", "photo")."""
    import cv2

    article = "an" if what[0] in "aeiou" else "a"
    for name in names:
        if not Path(name).is_file():
            raise UsageError(f"no such {what}: {name}")
        if not cv2.haveImageReader(str(name)):
            raise UsageError(f"not {article} {what} OpenCV can read: {name}")


def read_image(name: str | Path, what: str = "image") -> Any:
    """The BGR picture in a file, or a one-line `UsageError` when it cannot be decoded;
    the image library's own warnings about a corrupt file are kept off the terminal."""
    import cv2

    with c_stderr_silenced():  # libjpeg prints its own warnings on corrupt files
        image = cv2.imread(str(name), cv2.IMREAD_COLOR)
    if image is None:
        raise UsageError(f"cannot decode {what} (corrupt?): {name}")
    return image


@contextlib.contextmanager
def c_stderr_silenced() -> Iterator[None]:
    """Send C-level writes to file descriptor 2 to /dev/null for a moment."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no real descriptor 2 (embedded use): nothing to silence
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def load_deck(path: str | None) -> Any:
    """The deck profile at ``path`` (``kiosk enrol``; None for None), or a one-line
    `UsageError` naming what is wrong with the file, before any model is loaded."""
    if path is None:
        return None
    from kiosk.vision.decks.deck_profile import DeckProfile, ProfileError

    try:
        return DeckProfile.load(path)
    except ProfileError as problem:
        raise UsageError(str(problem)) from None


def table_detector(deck: Any) -> Any:
    """The trained card detector as the kiosk runs it at the table (every core but one),
    reading with ``deck`` (a deck profile, or None); a model that cannot load, or a
    profile of other networks, is one line."""
    from kiosk.vision.cards.detector import Detector, ModelError, threads_beside_the_screen

    try:
        detector = Detector(threads=threads_beside_the_screen())
    except ModelError as problem:
        raise UsageError(f"cannot load the card detector: {problem}") from None
    try:
        detector.use_deck(deck)  # a profile of other networks: said as it is
    except ModelError as problem:
        raise UsageError(str(problem)) from None
    return detector
