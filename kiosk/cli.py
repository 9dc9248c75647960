"""The `kiosk` command: one entry point, one module per sub-command.

Each sub-command lives in its own module under `kiosk/commands/`, exposing
`add_arguments(parser)` and `run(args) -> int`. Modules are imported only when
their command runs, so `kiosk score-hand` never loads OpenCV or Kivy.

Every command reports bad input as one line on standard error and exits with
status 2 (`UsageError`); it never shows a traceback to the user.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: command name -> (module under kiosk.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("run", "start the table kiosk (no camera: plays the bundled demo hand)"),
    "score-hand": ("score_hand", "score one hand record (JSON) under a rule profile"),
    "standings": ("standings", "rank teams from game results under a rule profile"),
    "egn": ("egn", "replay, read or write games in Euchre Game Notation (EGN)"),
    "detect": ("detect", "find the cards in image files"),
    "enrol": ("enrol", "learn a table's own deck from photos (a deck profile)"),
    "read-video": ("read_video", "read a recorded hand from video"),
    "read-table": ("read_table", "read the turn-up and each side's 5s from a table's stills"),
    "mat": ("mat", "write a printable play mat with calibration markers"),
    "director": ("director", "start the director's master score sheet server"),
}


class UsageError(Exception):
    """Input the command cannot use; its message is the one line the user sees."""


DESCRIPTION = "Euchre table kiosk: reads, referees and scores the game."


def build_parser(prog: str = "kiosk", commands: dict[str, tuple[str, str]] = COMMANDS,
                 description: str = DESCRIPTION) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in commands.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return dispatch(argv)


def dispatch(argv: Sequence[str] | None = None, prog: str = "kiosk",
             commands: dict[str, tuple[str, str]] = COMMANDS,
             package: str = "kiosk.commands", description: str = DESCRIPTION) -> int:
    """Run one sub-command: ``commands`` names its module under ``package``. The
    development tools (``python -m devtools``) run theirs the same way."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if not args_in or args_in[0] in {"-h", "--help"} or args_in[0] not in commands:
        parser = build_parser(prog, commands, description)
        if args_in and args_in[0] not in {"-h", "--help"}:
            print(f"{prog}: unknown command {args_in[0]!r} (try: {prog} --help)",
                  file=sys.stderr)
            return 2
        parser.print_help()
        return 0 if args_in else 2
    name = args_in[0]
    module_name, help_text = commands[name]
    module = importlib.import_module(f"{package}.{module_name}")
    parser = argparse.ArgumentParser(prog=f"{prog} {name}", description=help_text)
    module.add_arguments(parser)
    args = parser.parse_args(args_in[1:])
    try:
        return int(module.run(args))
    except UsageError as problem:
        print(f"{prog} {name}: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`kiosk detect ... | head`): not an error of ours.
        # Point stdout at /dev/null so the interpreter's final flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
