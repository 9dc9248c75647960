"""`kiosk standings --rules PROFILE [FILE|-]`: rank teams from game results (CONTRACTS.md).

Reads `{"games": [...]}` and prints `{"standings": [...]}` with the profile's
tie-breaks.  Bad input: one line on standard error, exit status 2.
"""

from __future__ import annotations

import argparse
import json

from kiosk.cli import UsageError
from kiosk.commands.common import add_profile_and_input, profile_from, read_text
from kiosk.rules.record import JsonTextError, decode_json
from kiosk.rules.standings import StandingsError, standings_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_profile_and_input(parser, "game results")


def run(args: argparse.Namespace) -> int:
    profile = profile_from(args.rules)
    text = read_text(args.file)
    try:
        data = decode_json(text)
    except JsonTextError as problem:
        raise UsageError(str(problem)) from None
    try:
        print(json.dumps(standings_json(data, profile.name), indent=2))
    except StandingsError as problem:
        raise UsageError(str(problem)) from None
    return 0
