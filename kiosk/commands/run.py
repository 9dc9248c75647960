"""`kiosk run [--camera N | --video FILE]`: the table kiosk.

With neither option it plays the bundled demo hand, so the README's main
command shows the whole loop (set-up, bidding, the hand, the score, the game
end) on any machine. Full screen on a Raspberry Pi or an Android tablet,
windowed on a desktop (override with --fullscreen / --windowed).

The game lives in a journal (SQLite): start the kiosk again after a crash or
a pulled plug and it resumes the hand where it was.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from kiosk.cli import UsageError

DEFAULT_DIR = Path("var/kiosk")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, metavar="N", help="read the table from camera N")
    source.add_argument("--video", metavar="FILE", help="read the table from a video file")
    parser.add_argument("--journal", metavar="FILE",
                        help="the game's journal (default: var/kiosk/table.sqlite3, "
                             "or var/kiosk/demo.sqlite3 for the demo)")
    parser.add_argument("--new-game", action="store_true",
                        help="put the journal's game aside and start a new one")
    parser.add_argument("--outbox", metavar="FILE", default=str(DEFAULT_DIR / "outbox.sqlite3"),
                        help="results waiting for the director (default: %(default)s)")
    screen = parser.add_mutually_exclusive_group()
    screen.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None,
                        help="fill the screen (the default on a Raspberry Pi or a tablet)")
    screen.add_argument("--windowed", dest="fullscreen", action="store_false",
                        help="run in a window (the default on a desktop)")
    parser.add_argument("--size", default="1280x800", metavar="WxH",
                        help="window size on a desktop (default: %(default)s)")
    parser.add_argument("--demo-pace", type=float, default=1.0, metavar="X",
                        help="demo speed: pauses are multiplied by X (default: 1)")
    parser.add_argument("--verbose", action="store_true", help="show Kivy's log on the console")


def is_kiosk_device() -> bool:
    """A Raspberry Pi or an Android tablet: the screen is the kiosk's own."""
    if "ANDROID_ARGUMENT" in os.environ:
        return True
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def _archive(journal: Path) -> None:
    """Keep an old game next to the new one: a journal is never deleted."""
    if journal.exists():
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(journal) + suffix)
            if part.exists():
                shutil.move(str(part), str(journal.with_name(f"{journal.stem}-{stamp}"
                                                               f"{journal.suffix}{suffix}")))


def run(args: argparse.Namespace) -> int:
    demo = args.camera is None and args.video is None
    try:
        width, height = (int(v) for v in str(args.size).lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {args.size!r} is not WIDTHxHEIGHT, like 1280x800") from None

    capture = source = None
    if not demo:
        from kiosk.table.feed import FeedError, open_capture

        try:
            capture, source = open_capture(camera=args.camera, video=args.video)
        except FeedError as problem:
            raise UsageError(str(problem)) from None

    journal = Path(args.journal or DEFAULT_DIR / ("demo.sqlite3" if demo else "table.sqlite3"))
    if args.new_game:
        _archive(journal)

    from kiosk.table.outbox import Outbox
    from kiosk.table.session import TableSession

    outbox = Outbox(args.outbox)
    frames = journal.parent / "frames"
    session = TableSession.open(journal, outbox=outbox, frames_dir=frames)
    if demo and session.phase == "confirmed":
        _archive(journal)  # the last demo game is over: play a new one
        session = TableSession.open(journal, outbox=outbox, frames_dir=frames)
    if session.phase == "confirmed" and not session.submitted:
        session.submit()
    outbox.start()

    fullscreen = is_kiosk_device() if args.fullscreen is None else args.fullscreen
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if not args.verbose:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")  # still written to ~/.kivy/logs
    from kivy.config import Config

    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("kivy", "exit_on_escape", "0" if fullscreen else "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")

    from kiosk.app.demo import DemoDriver, start_demo
    from kiosk.app.main import KioskApp
    from kiosk.app.presenter import TablePresenter
    from kiosk.table.feed import FrameFeed

    presenter = TablePresenter(session, camera=not demo)
    driver = None
    feed = None
    if demo:
        start_demo(session)
        driver = DemoDriver(session, pace=args.demo_pace)
    else:
        feed = FrameFeed(capture, str(source), is_video=args.video is not None)
    try:
        KioskApp(presenter, demo=driver, feed=feed).run()
    finally:
        outbox.stop()
    return 0
