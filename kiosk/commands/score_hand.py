"""`kiosk score-hand --rules PROFILE [FILE|-]`: score one hand record (CONTRACTS.md).

Prints the verdict as one JSON object.  Input that cannot be a hand, a
missing file, bad JSON or an unknown profile: one line on standard error,
exit status 2, nothing on standard output.
"""

from __future__ import annotations

import argparse
import json

from kiosk.cli import UsageError
from kiosk.commands.common import add_profile_and_input, profile_from, read_text
from kiosk.rules.record import HandRecordError, load_hand_record
from kiosk.rules.scoring import score_hand


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_profile_and_input(parser, "hand record")


def run(args: argparse.Namespace) -> int:
    profile = profile_from(args.rules)
    text = read_text(args.file)
    try:
        result = score_hand(load_hand_record(text), profile)
    except HandRecordError as problem:
        raise UsageError(str(problem)) from None
    print(json.dumps(result.to_json(), indent=2))
    return 0
