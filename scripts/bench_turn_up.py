"""Benchmark the turn-up read from the kitty on rendered deals; prints the issue's figures.

    nice -n 10 .venv/bin/python scripts/bench_turn_up.py --hands 100 --detector model

Each hand is a random deal (seeds from 30000: no training set used them), rendered by
``datasets/handvideo.py`` with its kitty (``datasets/kitty.py``) from an overhead camera
or a tablet (alternating) in a deck held out of training (``cards_art.HELD_OUT_DECKS``,
alternating), and only the frames of the deal and bidding: from the deal to a few seconds
after the dealer took or turned the turn-up (or the first card, if sooner), leaving out
the still table between the first bid and the dealer's hand coming (``--every-frame``
keeps it). The frames go
through the kiosk's own pipeline (default calibration, the detector, the trick reader)
told of the deal as the kiosk tells it, and of the contract when the last bid is in.

Figures:
- the turn-up read right: the card the bidding screen offers when the first bid is tapped
  (as the table session takes it: ``KittySeen`` shown before any bid), against the truth;
  read wrong, and not read (the players tap it in);
- taken / turned down seen right (the kiosk weighs it against the bids), seen wrong (a
  false question about bids tapped right), not seen;
- cards the trick reader reported as played before the first card was (the kitty taken
  for a played card);
- taps for the bidding: before (the players tap the turn-up, then the bids) and after
  (the bids only when the camera read it; 'Not this card' and the card when it misread
  it; the card when it did not read it);
- seconds from the turn-up lying face up to the kiosk showing it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets import handvideo as hv  # noqa: E402
from datasets.cards_art import held_out_decks  # noqa: E402
from datasets.kitty import add_kitty  # noqa: E402
from devtools.oracle import OracleDetector, OracleNoise  # noqa: E402
from kiosk.vision.brief import HandBrief  # noqa: E402
from kiosk.vision.events import CardPlayed, KittyChange, KittySeen  # noqa: E402
from kiosk.vision.pipeline import (  # noqa: E402
    FramePipeline,
    compact_box,
    load_stream,
    save_stream,
    stream_calibration,
)
from kiosk.vision.reader import TrickReader  # noqa: E402

#: seconds of video read before and after the dealer's hand reached the turn-up
BEFORE_FATE = 1.5
AFTER_FATE = 4.5
#: JPEG quality each frame goes through (a camera's compression)
JPEG_QUALITY = 80


def plan(i: int, base_seed: int, decks: list[str]) -> dict[str, Any]:
    """Hand ``i``: its seed, view and held-out deck (every mix covered)."""
    return {"seed": base_seed + i, "view": ("overhead", "tablet")[i % 2],
            "deck": decks[(i // 2) % len(decks)]}


def read_hand(job: dict[str, Any]) -> dict[str, Any]:
    """Render one deal's frames and read them; the hand's row of figures."""
    seed, view = job["seed"], job["view"]
    record = hv.random_hand(np.random.default_rng(seed), renege_rate=0.03)
    scene = hv.script_hand(record, np.random.default_rng(seed), hv.Tricks())
    kitty = add_kitty(scene, np.random.default_rng(seed + hv.KITTY_SEED))
    size = tuple(round(v * job["scale"]) for v in hv.VIEW_SIZES[view])
    renderer = hv.SceneRenderer(scene, view, seed=seed + 7919, size=size, deck=job["deck"])
    end = min(kitty.fate_at + AFTER_FATE, kitty.play_starts + 2.0)
    # between the first bid and the dealer's hand coming, nothing on the table moves
    quiet = (kitty.first_bid_at + 0.5, kitty.fate_at - BEFORE_FATE)
    times = [t for t in hv.frame_times(end, job["fps"])
             if job["every_frame"] or not quiet[0] < t < quiet[1]]
    saved = Path(job["dir"]) / f"deal-{seed}-{view}.{job['detector']}.json"
    if job["replay"]:  # the boxes an earlier run saved, read again: reader changes only
        stream = load_stream(saved)
        pipeline = FramePipeline(None, calibration=stream_calibration(stream), view=view)
        frames = [(f["t"], f["detections"]) for f in stream["frames"]]
    else:
        if job["detector"] == "oracle":
            detector: Any = OracleDetector([renderer.boxes(t) for t in times], renderer.size,
                                           seed=seed, noise=OracleNoise.level("typical"))
        else:
            detector = model_detector()
        pipeline = FramePipeline(detector, view=view)
        frames = [(t, None) for t in times]
    pipeline.new_deal(kitty.dealer)
    told = False
    events: list[tuple[float, Any]] = []
    record_boxes: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i, (t, boxes) in enumerate(frames):
        if not told and t >= kitty.bidding_ends:  # the last bid is in: the contract
            told = True
            pipeline.new_hand(HandBrief.from_json({"leader": scene.leader, "trump": scene.trump,
                                                   "sitting_out": scene.sitting_out}))
        if boxes is not None:
            events += [(t, e) for e in replayed(pipeline, t, boxes)]
            continue
        image = renderer.frame(t, i)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else image
        events += [(t, e) for e in pipeline(image, t)]
        record_boxes.append({"t": round(t, 4), "detections": [
            compact_box(d) for d in pipeline.last_detections]})
    if not job["replay"]:
        save_stream(saved, record_boxes, pipeline.calibration, view=view, fps=job["fps"])
    wall = time.perf_counter() - started
    return score(job, kitty, record, events, len(times), wall)


def replayed(pipeline: FramePipeline, t: float, boxes: list[Any]) -> list[Any]:
    """One saved frame's boxes through the pipeline's reader (no picture, no detector)."""
    if pipeline.reader is None:
        assert pipeline.calibration is not None
        pipeline.reader = TrickReader(pipeline.calibration)
        if pipeline.dealer is not None:
            pipeline.reader.new_deal(pipeline.dealer)
        if pipeline.play.leader is not None:
            pipeline.new_hand(pipeline.play)
    return pipeline.reader.feed(t, boxes)


def score(job: dict[str, Any], kitty: Any, record: dict[str, Any],
          events: list[tuple[float, Any]], frames: int, wall: float) -> dict[str, Any]:
    """One hand's figures from the events read (see the module's docstring)."""
    shown = [(t, e) for t, e in events
             if isinstance(e, KittySeen) and e.change == KittyChange.SHOWN]
    # the table session takes the turn-up from the kitty until the first bid is tapped
    offered = [str(e.card) for t, e in shown if t <= kitty.first_bid_at]
    read = offered[-1] if offered else None
    fates = [e.change.value for _t, e in events
             if isinstance(e, KittySeen) and e.change != KittyChange.SHOWN]
    fate = fates[0] if fates else None
    bids = len(record["bids"])
    outcome = "right" if read == kitty.card else "not read" if read is None else "wrong"
    taps_after = bids + {"right": 0, "wrong": 2, "not read": 1}[outcome]
    early = [e for t, e in events if isinstance(e, CardPlayed) and t < kitty.play_starts]
    return {
        **{k: job[k] for k in ("seed", "view", "deck")},
        "dealer": kitty.dealer, "card": kitty.card, "read": read, "outcome": outcome,
        "latency": round(shown[0][0] - kitty.shown_at, 3) if offered else None,
        "fate": kitty.fate, "fate_read": fate,
        "fate_outcome": ("right" if fate == kitty.fate else "not seen" if fate is None
                         else "wrong"),
        "early_plays": [f"{e.seat}:{e.card}" for e in early],
        "taps_before": bids + 1, "taps_after": taps_after,
        "frames": frames, "wall_s": round(wall, 2),
    }


def model_detector() -> Any:
    """The kiosk's detector with the shipped models, on one thread (the machine is
    shared; the kiosk's frame thread has one core of its own)."""
    from kiosk.vision.cards.detector import Detector

    return Detector(threads=1)


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = max(len(rows), 1)

    def share(sel: list[dict[str, Any]], key: str, value: str) -> str:
        hits = sum(1 for r in sel if r[key] == value)
        return f"{hits}/{len(sel)} ({100.0 * hits / max(len(sel), 1):.1f} %)"

    by = {f"{key}={value}": share([r for r in rows if r[key] == value], "outcome", "right")
          for key in ("view", "deck", "fate") for value in sorted({r[key] for r in rows})}
    latencies = sorted(r["latency"] for r in rows if r["latency"] is not None)
    return {
        "hands": len(rows),
        "turn_up_read_right": share(rows, "outcome", "right"),
        "turn_up_read_wrong": share(rows, "outcome", "wrong"),
        "turn_up_not_read": share(rows, "outcome", "not read"),
        "turn_up_right_by": by,
        "taken_or_turned_down_seen_right": share(rows, "fate_outcome", "right"),
        "taken_or_turned_down_seen_wrong": share(rows, "fate_outcome", "wrong"),
        "taken_or_turned_down_not_seen": share(rows, "fate_outcome", "not seen"),
        "fate_right_by": {
            f"fate={value}": share([r for r in rows if r["fate"] == value], "fate_outcome",
                                   "right") for value in sorted({r["fate"] for r in rows})},
        "kitty_read_as_a_played_card": sum(len(r["early_plays"]) for r in rows),
        "bidding_taps_per_hand": {
            "before": round(sum(r["taps_before"] for r in rows) / n, 2),
            "after": round(sum(r["taps_after"] for r in rows) / n, 2)},
        "seconds_to_show": {
            "median": round(statistics.median(latencies), 2) if latencies else None,
            "max": latencies[-1] if latencies else None},
        "misses": [{k: r[k] for k in ("seed", "view", "deck", "dealer", "card", "read",
                                      "fate", "fate_read")}
                   for r in rows if r["outcome"] != "right" or r["fate_outcome"] != "right"],
        "frames": sum(r["frames"] for r in rows),
        "read_s_per_hand": round(sum(r["wall_s"] for r in rows) / n, 1),
        "outcomes": dict(Counter(r["outcome"] for r in rows)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=30000)
    parser.add_argument("--fps", type=float, default=8.0)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="render this many times larger (overhead 480x480, tablet "
                             "640x360 at 1)")
    parser.add_argument("--detector", choices=("model", "oracle"), default="model")
    parser.add_argument("--replay", action="store_true",
                        help="read again the boxes a run into the same --out saved (the "
                             "reader's figures after a change to it, in seconds)")
    parser.add_argument("--every-frame", action="store_true",
                        help="also read the frames between the first bid and the dealer's "
                             "hand coming (the table lies still then; skipped by default)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "runs" / "bench-turn-up"))
    args = parser.parse_args(argv)
    decks = held_out_decks()
    if not decks:
        parser.error("no held-out deck installed (datasets/cards_art.py HELD_OUT_DECKS)")
    jobs = [plan(i, args.seed, decks) | {"fps": args.fps, "scale": args.scale,
                                          "detector": args.detector,
                                          "every_frame": args.every_frame,
                                          "replay": args.replay, "dir": args.out}
            for i in range(args.hands)]
    Path(args.out).mkdir(parents=True, exist_ok=True)
    started = time.time()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        rows = list(pool.map(read_hand, jobs))
    summary = {"detector": args.detector, "replayed": args.replay, "fps": args.fps,
               "scale": args.scale, "seconds": round(time.time() - started), **summarize(rows)}
    out = Path(args.out)
    (out / "rows.json").write_text(json.dumps(rows, indent=1))
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
