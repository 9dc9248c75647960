"""`kiosk read-video VIDEO [options]`: read a recorded hand and print its record (CONTRACTS).

Prints one JSON object: the hand record the camera saw (``tricks`` filled in,
``bids`` built from the options: what the players would tap) and, under
``"result"``, the rules engine's verdict (the ``score-hand`` output, reneges
included). ``"warnings"`` lists what the reader asked the players about.

Without ``--turn-up`` the record needs one anyway (CONTRACTS makes it
required): an unplayed card of another suit is put there and the contract is
written as named in round two; give ``--turn-up`` when it is known.

``--detections FILE`` reads a recorded detection stream instead of running any
detector. The development tools add detectors of their own (``python -m devtools
read-video --detector oracle``: a rendered video's ground truth with a detector's
usual failures injected, for trying the reader without a trained model).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kiosk.cli import UsageError
from kiosk.commands.common import load_deck, table_detector
from kiosk.rules.cards import EUCHRE_DECK, Seat, Suit

#: the euchre cards as a record names them, clubs first
EUCHRE = [str(card) for card in EUCHRE_DECK]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", metavar="VIDEO", help="video file of one hand")
    parser.add_argument("--rules", metavar="PROFILE", default="tournament",
                        help="rule profile for the verdict (default: tournament)")
    parser.add_argument("--dealer", metavar="SEAT", help="the dealer (N, E, S or W)")
    parser.add_argument("--trump", metavar="SUIT", help="trump suit (C, D, H or S)")
    parser.add_argument("--maker", metavar="SEAT", help="the seat that made trump")
    parser.add_argument("--alone", action="store_true", help="the maker went alone")
    parser.add_argument("--turn-up", metavar="CARD", help="the turned-up card, if known")
    parser.add_argument("--calibration", metavar="FILE", help="a saved table calibration")
    parser.add_argument("--view", choices=("overhead", "tablet"), default="overhead",
                        help="camera view when there is no calibration (default: overhead)")
    parser.add_argument("--detector", default="model", metavar="NAME",
                        help="'model' (the exported card detector)")
    parser.add_argument("--detections", metavar="FILE",
                        help="read a recorded detection stream (JSON) instead of the video")
    parser.add_argument("--deck", metavar="DECK",
                        help="read with this deck profile (kiosk enrol; --detector model)")
    parser.add_argument("--save-detections", metavar="FILE",
                        help="also write the detector's boxes per frame as a detection stream "
                             "(JSON, replayable with --detections)")


def _seat(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    try:
        return str(Seat.parse(value))
    except ValueError:
        raise UsageError(f"{what} must be N, E, S or W, not {value!r}") from None


def _suit(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return str(Suit.parse(value))
    except ValueError:
        raise UsageError(f"--trump must be C, D, H or S, not {value!r}") from None


def build_bids(dealer: str, trump: str | None, maker: str | None, alone: bool,
               turn_up: str) -> list[dict[str, Any]]:
    """The bidding the options describe: passes up to the maker, then the maker's call.

    >>> build_bids("N", "H", "S", False, "9H")
    [{'seat': 'E', 'call': 'pass'}, {'seat': 'S', 'call': 'order', 'alone': False}]
    >>> [b["call"] for b in build_bids("N", "C", "E", True, "9H")]
    ['pass', 'pass', 'pass', 'pass', 'name']
    """
    if trump is None or maker is None:
        return []
    order = [str(seat) for seat in Seat.parse(dealer).left.clockwise()]
    before = order[: order.index(maker)]
    if turn_up[1] == trump:
        return [{"seat": s, "call": "pass"} for s in before] + [
            {"seat": maker, "call": "order", "alone": alone}]
    bids: list[dict[str, Any]] = [{"seat": s, "call": "pass"} for s in order]
    bids += [{"seat": s, "call": "pass"} for s in before]
    bids.append({"seat": maker, "call": "name", "suit": trump, "alone": alone})
    return bids


def kitty_turn_up(events: Sequence[tuple[float, Any]]) -> str | None:
    """The turn-up the camera read on the dealer's kitty (its last reading), if any."""
    from kiosk.vision.events import KittyChange, KittySeen

    shown = [e for _t, e in events if isinstance(e, KittySeen) and e.change == KittyChange.SHOWN]
    return str(shown[-1].card) if shown else None


def guess_turn_up(tricks: list[list[str]], trump: str | None) -> str:
    """An unplayed card of another suit than trump, standing in for an unknown turn-up."""
    seen = {p.split(":")[1] for trick in tricks for p in trick}
    for card in EUCHRE:
        if card not in seen and card[1] != trump:
            return card
    return next(c for c in EUCHRE if c not in seen)


#: a detector the development tools add by name: (the video, the arguments) -> detector
OtherDetector = Callable[[Path, argparse.Namespace], Any]


def run(args: argparse.Namespace, others: Mapping[str, OtherDetector] | None = None) -> int:
    """Read the video; ``others``: detectors by name beside the model (devtools')."""
    from kiosk.vision.brief import HandBrief
    from kiosk.vision.camera.calibration import Calibration, CalibrationError
    from kiosk.vision.pipeline import (
        load_stream,
        read_stream,
        read_video,
        stream_calibration,
    )

    dealer = _seat(args.dealer, "--dealer")
    maker = _seat(args.maker, "--maker")
    trump = _suit(args.trump)
    if (trump is None) != (maker is None):
        raise UsageError("--trump and --maker go together")
    if args.alone and maker is None:
        raise UsageError("--alone needs --trump and --maker")
    turn_up = None
    if args.turn_up:
        turn_up = args.turn_up.strip().upper().replace("10", "T")
        if turn_up not in EUCHRE:
            raise UsageError(f"--turn-up must be a euchre card such as 9H, not {args.turn_up!r}")
    from kiosk.commands.common import profile_from

    profile = profile_from(args.rules)
    dealt_by = None if dealer is None else Seat.parse(dealer)
    brief = HandBrief.from_contract(dealt_by, None if trump is None else Suit.parse(trump),
                                    None if maker is None else Seat.parse(maker), args.alone)
    calibration = None
    if args.calibration:
        try:
            calibration = Calibration.load(args.calibration)
        except CalibrationError as problem:
            raise UsageError(str(problem)) from None
    video = Path(args.video)
    if args.detections:
        try:
            stream = load_stream(args.detections)
        except (OSError, ValueError) as problem:
            raise UsageError(f"cannot read detections {args.detections}: {problem}") from None
        reading = read_stream(stream["frames"], calibration or stream_calibration(stream),
                              brief=brief)
    else:
        if not video.is_file():
            raise UsageError(f"cannot open video {video}: no such file")
        detector = _detector(args.detector, video, args, load_deck(args.deck), others or {})
        seen: list[dict[str, Any]] | None = [] if args.save_detections else None
        reading = read_video(video, detector, calibration=calibration, view=args.view,
                             brief=brief, record=seen, dealer=dealt_by)
        if seen is not None:
            _save_stream(args.save_detections, video, args.view, reading.calibration, seen)
    tricks = reading.tricks_json()
    record = _record(dealer, trump, maker, args.alone, turn_up or kitty_turn_up(reading.events),
                     tricks)
    record["result"] = _verdict(record, profile)
    record["warnings"] = [w.to_json() for w in reading.warnings]
    print(json.dumps(record, indent=2))
    return 0


def _record(dealer: str | None, trump: str | None, maker: str | None, alone: bool,
            turn_up: str | None, tricks: list[list[str]]) -> dict[str, Any]:
    dealer = dealer or "N"
    turn_up = turn_up or guess_turn_up(tricks, trump)
    return {"dealer": dealer, "turn_up": turn_up,
            "bids": build_bids(dealer, trump, maker, alone, turn_up), "tricks": tricks}


def _verdict(record: dict[str, Any], profile: Any) -> dict[str, Any] | None:
    """The score-hand output, or the reason there is none (no contract, an impossible read)."""
    from kiosk.rules.record import HandRecord, HandRecordError
    from kiosk.rules.scoring import score_hand

    if not record["bids"]:
        return None
    try:
        return score_hand(HandRecord.from_json(record), profile).to_json()
    except (HandRecordError, ValueError) as problem:
        return {"error": str(problem)}


def _save_stream(path: str, video: Path, view: str, calibration: Any,
                 frames: list[dict[str, Any]]) -> None:
    """Write the boxes the detector gave, frame by frame, as a detection stream that
    ``--detections`` replays (the detector saw what it sees without saving: the play
    area, in tiles)."""
    from kiosk.vision.camera.frames import video_fps
    from kiosk.vision.pipeline import save_stream

    try:
        save_stream(path, frames, calibration, view=view, fps=video_fps(video),
                    video=video.name)
    except OSError as problem:
        raise UsageError(f"cannot write {path}: {problem}") from None


def _detector(name: str, video: Path, args: argparse.Namespace, deck: Any,
              others: Mapping[str, OtherDetector]) -> Any:
    if name in others:
        return others[name](video, args)
    if name == "model":
        return table_detector(deck)
    raise UsageError(f"unknown detector {name!r} ({' or '.join(['model', *others])})")
