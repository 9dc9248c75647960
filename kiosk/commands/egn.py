"""`kiosk egn replay|read|write`: games in Euchre Game Notation (CONTRACTS.md).

- ``replay FILE.egn``: each deal's trick winners and score change by the kiosk's rules
  engine, under the ruleset the file names, as one JSON array;
- ``read FILE.egn``: one hand record a deal (JSON Lines), with what a record cannot
  hold (annotations, the game's metadata) under ``"egn"``;
- ``write [FILE]``: hand records (JSON Lines) in, one EGN 1.4 game out.

``--rules BOOK`` names the rule book a file's ruleset is laid over (the tournament
book by default): EGN names house rules, not what a renege costs.  Bad input: one
line naming the problem (its JSON path, or the rule and the deal) on standard error,
exit status 2, nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from kiosk.cli import UsageError
from kiosk.commands.common import profile_from, read_text
from kiosk.egn.game import DealNotes, EgnGame
from kiosk.egn.notation import EgnError
from kiosk.egn.records import game_of_records, records_of_game
from kiosk.egn.replay import replay_game
from kiosk.egn.ruleset import DEFAULT_BASE, EgnRuleset
from kiosk.rules.cards import Seat
from kiosk.rules.profiles import PROFILES, RuleProfile
from kiosk.rules.record import HandRecord, HandRecordError, JsonTextError, decode_json

SEAT_NAMES = [seat.words for seat in Seat]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    books = ", ".join(sorted(PROFILES))
    for name, help_text, source in (
        ("replay", "trick winners and score changes of an EGN game", "FILE.egn"),
        ("read", "an EGN game as hand records, one a line", "FILE.egn"),
        ("write", "hand records (JSON Lines) as one EGN 1.4 game", "FILE"),
    ):
        action = sub.add_parser(name, help=help_text, description=help_text)
        action.add_argument("--rules", metavar="BOOK", default=DEFAULT_BASE,
                            help=f"the rule book under the file's ruleset ({books};"
                                 f" default {DEFAULT_BASE})")
        if name == "write":
            action.add_argument("file", nargs="?", default="-", metavar=source,
                                help="hand records, one a line; '-' or nothing: standard input")
            action.add_argument("--title", help="the game's title")
            action.add_argument("--players", metavar="N,E,S,W",
                                help="the four players' names, North first")
        else:
            action.add_argument("file", metavar=source, help="an EGN file")


def run(args: argparse.Namespace) -> int:
    base = profile_from(args.rules)
    try:
        if args.action == "write":
            print(json.dumps(_write(args, base), indent=2))
            return 0
        game = EgnGame.from_json(_json(read_text(args.file)))
        if args.action == "replay":
            print(json.dumps([deal.to_json() for deal in replay_game(game, base)]))
        else:
            lines = []
            for index, (record, notes) in enumerate(records_of_game(game, base)):
                egn = notes.to_json() | ({"metadata": game.metadata} if index == 0 else {})
                lines.append(json.dumps(record.to_json() | {"egn": egn}))
            print("\n".join(lines))
    except EgnError as problem:
        raise UsageError(str(problem)) from None
    return 0


def _json(text: str) -> Any:
    try:
        return decode_json(text)
    except JsonTextError as problem:
        raise UsageError(str(problem)) from None


def _write(args: argparse.Namespace, base: RuleProfile) -> dict[str, Any]:
    hands: list[tuple[HandRecord, DealNotes | None]] = []
    metadata: dict[str, Any] | None = None
    for number, line in enumerate(read_text(args.file).splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = decode_json(line)
            record = HandRecord.from_json(data)
        except (JsonTextError, HandRecordError) as problem:
            raise UsageError(f"line {number}: {problem}") from None
        extra = data.get("egn")
        notes = None if extra is None else DealNotes.from_json(extra, f"line {number}: egn")
        if metadata is None and isinstance(extra, dict) and "metadata" in extra:
            if not isinstance(extra["metadata"], dict):
                raise UsageError(f"line {number}: egn.metadata is an object")
            metadata = dict(extra["metadata"])
        hands.append((record, notes))
    if not hands:
        raise UsageError("no hand records to write")
    if metadata is None:
        metadata = {"players": SEAT_NAMES, "initialScore": [0, 0],
                    "ruleset": EgnRuleset.of_profile(base).to_json()}
    if args.title is not None:
        metadata["title"] = args.title
    if args.players is not None:
        names = [name.strip() for name in args.players.split(",")]
        if len(names) != 4 or not all(names):
            raise UsageError("--players: four names, North first, between commas")
        metadata["players"] = names
    return game_of_records(hands, metadata, base).to_json()
