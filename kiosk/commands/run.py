"""`kiosk run [--camera N | --video FILE]`: the table kiosk.

With neither option it plays the bundled demo hand, so the README's main
command shows the whole loop (set-up, bidding, the hand, the score, the game
end) on any machine. Its first hand is the bundled video of that hand
(kiosk/assets/demo-hand.mp4) read through the real vision pipeline, with the
detector kiosk.table.camera picks (the trained model when it is good enough,
else none, and the hand is played from its script); the bids are scripted
taps. Full screen on a Raspberry Pi or an Android tablet, windowed on a desktop
(override with --fullscreen / --windowed).

With no screen at all (Linux, no DISPLAY or WAYLAND_DISPLAY, not a Pi or a
tablet), or with --headless, it says so in one line, plays on a virtual
screen (Xvfb) it starts itself, tells the game on the console, saves each
screen as a picture (var/kiosk/screens/) and stops when the game ends: the
demo is then a one-hand game whose two teams agree by themselves.

The game lives in a journal (SQLite): start the kiosk again after a crash or
a pulled plug and it resumes the hand where it was.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.cli import UsageError

if TYPE_CHECKING:
    from kiosk.table.camera import Fallback

DEFAULT_DIR = Path("var/kiosk")
#: the bundled demo hand as a video (kiosk/assets/README.md), read through the vision pipeline
DEMO_VIDEO = Path(__file__).resolve().parents[1] / "assets" / "demo-hand.mp4"


#: the card detectors a kiosk knows (the development tools add their own)
DETECTORS = ("auto", "model", "none")


def add_arguments(parser: argparse.ArgumentParser,
                  detectors: tuple[str, ...] = DETECTORS) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, metavar="N", help="read the table from camera N")
    source.add_argument("--video", metavar="FILE", help="read the table from a video file")
    parser.add_argument("--detector", choices=detectors, default="auto",
                        help="card detector: the trained model, or none (tap the cards); "
                             "auto picks the model when it is good enough (default: auto)")
    parser.add_argument("--deck", metavar="DECK",
                        help="read with this table's deck profile (kiosk enrol)")
    parser.add_argument("--learn", action=argparse.BooleanOptionalAction, default=True,
                        help="keep learning the table's deck from the cards each hand "
                             "accepted (never from a card the players corrected); "
                             "--no-learn reads with the set-up profile alone (default: on)")
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
    parser.add_argument("--headless", action="store_true",
                        help="no screen: play on a virtual screen (Xvfb), tell the game on "
                             "the console, save each screen as a picture, stop at the end "
                             "(the default on Linux when there is no DISPLAY)")
    parser.add_argument("--screens", metavar="DIR", default=str(DEFAULT_DIR / "screens"),
                        help="where --headless saves the screens (default: %(default)s)")
    parser.add_argument("--size", default="1280x800", metavar="WxH",
                        help="window size on a desktop (default: %(default)s)")
    parser.add_argument("--demo-pace", type=float, default=1.0, metavar="X",
                        help="demo speed: pauses are multiplied by X (default: 1)")
    parser.add_argument("--keyboard", choices=("auto", "on", "off"), default="auto",
                        help="the on-screen keyboard for the text fields: on a touch-only "
                             "screen there is no other way to type a name (default: auto, "
                             "on a Raspberry Pi or a tablet)")
    parser.add_argument("--verbose", action="store_true", help="show Kivy's log on the console")


def keyboard_mode(choice: str, kiosk_device: bool) -> str | None:
    """Kivy's `keyboard_mode` for `--keyboard`: the docked keyboard (with a USB keyboard
    still typing), or None to leave Kivy's own setting (a Pi's config.ini may set it).

    >>> keyboard_mode("auto", kiosk_device=True), keyboard_mode("off", kiosk_device=True)
    ('systemanddock', 'system')
    >>> keyboard_mode("auto", kiosk_device=False) is None
    True
    """
    if choice == "on" or (choice == "auto" and kiosk_device):
        return "systemanddock"
    return "system" if choice == "off" else None


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


def _say(line: str) -> None:
    print(line, flush=True)


def run(args: argparse.Namespace, fallback: Fallback | None = None) -> int:
    """The kiosk; ``fallback``: a detector for when the model is not used (the
    development tools' oracle, kiosk.table.camera)."""
    demo = args.camera is None and args.video is None
    try:
        width, height = (int(v) for v in str(args.size).lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {args.size!r} is not WIDTHxHEIGHT, like 1280x800") from None
    if args.demo_pace <= 0:
        raise UsageError("--demo-pace must be above 0, like 0.1 for ten times faster")
    from kiosk.app.headless import NoVirtualScreen, VirtualScreen, screenless

    headless = args.headless or screenless(kiosk_device=is_kiosk_device())

    load_model = _model_loader(args.deck)  # a bad profile is refused before any window
    # The picture: a camera, a video, or for the demo the bundled video of its hand.
    from kiosk.table.feed import FeedError, open_capture

    video = args.video
    if demo and args.detector != "none" and DEMO_VIDEO.is_file():
        video = str(DEMO_VIDEO)
    capture = source = None
    if video is not None or args.camera is not None:
        try:
            capture, source = open_capture(camera=args.camera, video=video)
        except FeedError as problem:
            if not demo:
                raise UsageError(str(problem)) from None
            video = None  # the bundled video will not play here: the scripted demo
    choice = None
    if capture is not None:
        from kiosk.table.camera import choose_detector

        try:
            choice = choose_detector(video, args.detector, load_model, fallback)
        except ValueError as problem:
            raise UsageError(str(problem)) from None
        if demo and choice.detector is None:
            capture.release()
            capture, choice = None, None  # no detector can read the demo video
            _say("No card detector can read the demo's video here: the demo hand is "
                 "played from its script.")

    virtual = None
    if headless:
        where = "--headless" if args.headless else "no DISPLAY"
        what = "the demo" if demo else f"{source}"
        _say(f"No screen here ({where}): playing {what} on a virtual screen, telling the "
             f"game below and saving each screen in {args.screens}/.")
        try:
            virtual = VirtualScreen.start(width, height)
        except NoVirtualScreen as problem:
            raise UsageError(str(problem)) from None
        # a plain `kill` must still stop the virtual screen (the finally below)
        signal.signal(signal.SIGTERM, lambda *_a: sys.exit(143))
    try:
        return _play(args, demo=demo, headless=headless, size=(width, height),
                     capture=capture, source=source, video=video, choice=choice)
    finally:
        if capture is not None:
            capture.release()
        if virtual is not None:
            virtual.stop()


def _play(args: argparse.Namespace, *, demo: bool, headless: bool, size: tuple[int, int],
          capture: Any, source: str | None, video: str | None, choice: Any) -> int:
    session, outbox, journal = _open_table(args, demo=demo, headless=headless)
    _configure_kivy(args, headless=headless, size=size)

    from kiosk.app import words
    from kiosk.app.demo import DEMO_SETUP, DemoDriver, start_demo
    from kiosk.app.main import KioskApp
    from kiosk.app.narrator import Narrator
    from kiosk.app.presenter import TablePresenter

    presenter = TablePresenter(session, camera=capture is not None,
                               voice_path=journal.parent / "voice.json")
    if not demo and session.started_at is None:
        presenter.fetch_seating()  # a paired table's teams and rules, before the first deal
    if choice is not None:
        presenter.detector = words.detector_short(choice)
        _say(words.detector_line(choice))
    driver = None
    feed = None
    if demo:
        setup = DEMO_SETUP
        if headless:
            setup = replace(DEMO_SETUP, points_to_win=1)  # one hand: a game that ends soon
        start_demo(session, setup=setup)
        driver = DemoDriver(session, pace=args.demo_pace, confirm=headless,
                            camera_hands=frozenset({1}) if capture is not None else frozenset())
    if capture is not None:
        feed = _feed(session, presenter, capture, str(source), video, choice,
                     pace=args.demo_pace if demo else 1.0,
                     hold=demo or not headless,  # nobody bids in a headless replay
                     learn=args.learn)
    if headless:
        Narrator(session).update()
        if not demo and session.setup is None:
            _say("This table is not set up, and nobody can tap it here: the picture is read, "
                 "but no game is kept. Set the table up on a screen first.")
    stop_when = _stop_when(session, feed, demo=demo) if headless else None
    app = KioskApp(presenter, demo=driver, feed=feed,
                   shots_dir=Path(args.screens) if headless else None,
                   on_shot=lambda name, path: _say(f"Screen '{name}' saved: {path}"),
                   stop_when=stop_when)
    try:
        app.run()
    finally:
        outbox.stop()
        learning = getattr(getattr(feed, "reader", None), "learning", None)
        if learning is not None:
            learning.finish()
    if headless:
        _say("Done." if stop_when is None or stop_when() else "Stopped before the end.")
    return 0


def _open_table(args: argparse.Namespace, *, demo: bool, headless: bool
                ) -> tuple[Any, Any, Path]:
    """The table's session (its journal reopened, or a new game), its outbox started, and
    the journal's path."""
    from kiosk.table.outbox import Outbox
    from kiosk.table.session import TableSession

    journal = Path(args.journal or DEFAULT_DIR / ("demo.sqlite3" if demo else "table.sqlite3"))
    outbox_path = Path(args.outbox)
    if demo and headless and not args.journal:
        # An unattended demo starts afresh each time, and its results go nowhere.
        scratch = DEFAULT_DIR / "headless"
        scratch.mkdir(parents=True, exist_ok=True)
        journal, outbox_path = scratch / "demo.sqlite3", scratch / "outbox.sqlite3"
        for old in (journal, outbox_path):
            for suffix in ("", "-wal", "-shm"):
                Path(str(old) + suffix).unlink(missing_ok=True)
    if args.new_game:
        _archive(journal)

    outbox = Outbox(outbox_path)
    frames = journal.parent / "frames"
    session = TableSession.open(journal, outbox=outbox, frames_dir=frames)
    if demo and session.phase == "confirmed":
        _archive(journal)  # the last demo game is over: play a new one
        session = TableSession.open(journal, outbox=outbox, frames_dir=frames)
    if session.phase == "confirmed" and not session.submitted:
        session.submit()
    outbox.start()
    return session, outbox, journal


def _configure_kivy(args: argparse.Namespace, *, headless: bool, size: tuple[int, int]) -> None:
    """Kivy's window, keyboard and logging set for this start, before its app is imported."""
    fullscreen = (is_kiosk_device() if args.fullscreen is None else args.fullscreen)
    fullscreen = fullscreen and not headless
    width, height = size
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if not args.verbose:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")  # still written to ~/.kivy/logs
    from kivy.config import Config

    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("kivy", "exit_on_escape", "0" if fullscreen else "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    mode = keyboard_mode(args.keyboard, is_kiosk_device())
    if mode is not None:
        Config.set("kivy", "keyboard_mode", mode)
        Config.set("kivy", "keyboard_layout", "qwerty")


def _stop_when(session: Any, feed: Any, *, demo: bool) -> Callable[[], bool] | None:
    """When an unattended run ends: a demo once its game is confirmed, a video once it
    has been read to its end (None: when the window closes)."""
    if demo:
        def confirmed() -> bool:
            return bool(session.phase == "confirmed")
        return confirmed
    if feed is not None:
        ended: Callable[[], bool] = feed.ended.is_set
        return ended
    return None


def _feed(session: Any, presenter: Any, capture: Any, source: str, video: str | None,
          choice: Any, pace: float, hold: bool, learn: bool = True) -> Any:
    """The frame feed, its reader following the session's hand (kiosk.table.camera)."""
    from kiosk.table.camera import CameraLink, HandFollower
    from kiosk.table.feed import FrameFeed, null_reader

    reader: Any = null_reader
    follower = None
    if choice is not None and choice.detector is not None:
        from kiosk.vision.pipeline import FramePipeline

        calibration = None if hold else _saved_calibration(session)  # the demo finds its mat
        pipeline = FramePipeline(choice.detector, calibration=calibration,
                                 view=_view_of(video, calibration))
        view = _view_of(video, calibration)
        follower = HandFollower(
            pipeline,
            rebuild=lambda cal: FramePipeline(choice.detector, calibration=cal, view=view),
            learning=_learning_in_play(session, choice.detector, learn))
        reader = follower
        if choice.name == "model":  # a stand-in (devtools' oracle) serves truth, no 5s
            follower.marker_watch = _marker_watch(session, follower, choice.detector, view)
        presenter.camera_setup.camera_view = view
        presenter.camera_setup.on_saved = follower.recalibrate
        presenter.deck_setup.detector = choice.detector
        presenter.camera_setup.detector = choice.detector
        presenter.deck_setup.table_known()  # a table set up before this start
    feed = FrameFeed(capture, source, reader=reader, is_video=video is not None,
                     hold=hold and video is not None, pace=pace)
    CameraLink(session, presenter, feed, follower, from_start=video is not None).update()
    return feed


def _marker_watch(session: Any, follower: Any, detector: Any, view: str) -> Any:
    """The players' 5s read once a hand (kiosk.table.marker_watch) with the trick
    reader's calibration, the counts recorded on the UI thread."""
    from kiosk.table.marker_watch import MarkerWatch
    from kiosk.vision.camera.calibration import Calibration

    def calibration_of(frame: Any) -> Any:
        size = (int(frame.shape[1]), int(frame.shape[0]))
        saved = getattr(follower.pipeline, "calibration", None)
        return saved.scaled(size) if saved is not None else Calibration.default(view, size)

    def recorded(counts: Any) -> None:
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: session.see_markers(counts))

    watch = MarkerWatch(detector, calibration_of, recorded)
    session.subscribe(watch.follow)
    return watch


def _learning_in_play(session: Any, detector: Any, wanted: bool) -> Any:
    """The table's deck learnt on during play (kiosk.table.deck_learning), where the
    detector can learn and the players did not turn it off (``--no-learn``)."""
    from kiosk.table.deck_learning import TableDeckLearning

    if not wanted or not TableDeckLearning.usable(detector):
        return None
    from kiosk.app.deck_setup import deck_path
    from kiosk.app.words import learning_words

    return TableDeckLearning(detector, lambda: deck_path(session),
                             say=lambda note: _say(learning_words(note)))


def _view_of(video: str | None, calibration: Any) -> str:
    """How the camera looks at the table: a rendered video says so beside it."""
    if calibration is not None:
        return str(calibration.view)
    if video is not None:
        from kiosk.table.camera import truth_beside

        truth = truth_beside(video)
        if truth is not None:
            import json

            return str(json.loads(truth.read_text(encoding="utf-8")).get("view", "overhead"))
    return "overhead"


def _model_loader(deck: str | None) -> Any:
    """What loads the trained detector, with the deck profile ``deck`` when one is given
    (checked here, so a missing or foreign profile is one line, not a silent fallback)."""
    if deck is None:
        return None
    from kiosk.commands.common import load_deck
    from kiosk.vision.cards.detector import Detector, threads_beside_the_screen

    profile = load_deck(deck)
    return lambda: Detector(threads=threads_beside_the_screen(), deck=profile)


def _saved_calibration(session: Any) -> Any:
    """This table's saved calibration (the calibration screen writes it), if any."""
    from kiosk.table.calibration import load_for_table

    return load_for_table(session)
