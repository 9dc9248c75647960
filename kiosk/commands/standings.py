"""`kiosk standings --rules PROFILE [FILE|-]`: rank teams from game results (CONTRACTS.md).

Reads `{"games": [...]}` and prints `{"standings": [...]}` with the profile's
tie-breaks.  Bad input: one line on standard error, exit status 2.
"""

from __future__ import annotations

import argparse
import json

from kiosk.cli import UsageError
from kiosk.commands.common import profile_from, read_text
from kiosk.rules.profiles import PROFILES
from kiosk.rules.record import json_limit_exceeded
from kiosk.rules.standings import StandingsError, standings_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
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
        help="game results (JSON); '-' or nothing reads standard input",
    )


def run(args: argparse.Namespace) -> int:
    profile = profile_from(args.rules)
    text = read_text(args.file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as problem:
        raise UsageError(
            f"not valid JSON: {problem.msg} (line {problem.lineno}, column {problem.colno})"
        ) from None
    except (ValueError, RecursionError) as problem:
        raise UsageError(f"not valid JSON: {json_limit_exceeded(problem)}") from None
    try:
        print(json.dumps(standings_json(data, profile.name), indent=2))
    except StandingsError as problem:
        raise UsageError(str(problem)) from None
    return 0
