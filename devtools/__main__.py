"""``python -m devtools COMMAND``: the development tools, run as ``kiosk``'s commands are
(one line on standard error and status 2 for input they cannot use)."""

from __future__ import annotations

import sys

from kiosk.cli import dispatch

#: command name -> (module under devtools, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "render-hand": ("render_hand", "render a video of a hand record being played"),
    "read-video": ("read_video", "kiosk read-video, with the oracle detector beside the model"),
    "run": ("run", "kiosk run, with the oracle detector beside the model"),
}


def main(argv: list[str] | None = None) -> int:
    return dispatch(argv, prog="python -m devtools", commands=COMMANDS, package="devtools",
                    description="Development tools for the euchre table kiosk (not shipped).")


if __name__ == "__main__":
    sys.exit(main())
