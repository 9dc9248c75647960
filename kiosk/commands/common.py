"""Input helpers every sub-command shares: reading a file or standard input, a rule profile.

Each turns a problem into a one-line `UsageError`, so no command shows a
traceback for a missing file or a misspelt profile.
"""

from __future__ import annotations

import argparse
import sys

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
