"""Twin swaps injected into recorded detections: the trick reader and the table's renege
check (kiosk.table.twins) against a deck that reads a card as its same-colour twin.

    .venv/bin/python scripts/bench_twins.py                       # 24 hands, both ways
    .venv/bin/python scripts/bench_twins.py --twin-swaps random:0.14
    .venv/bin/python scripts/bench_twins.py --detections runs/bench-reader   # model boxes

The hands are those of ``scripts/bench_reader.py`` (its plans, seeds and renderer). Their
detections are recorded once (the scene's corner boxes with the oracle's detector noise,
cached under ``--out`` as ``hand-*.oracle.json``), or taken from the model's boxes a
``bench_reader.py --detector model`` run saved (``--detections DIR``). Into each stream
twin swaps are injected, deterministic by the hand's seed:

- ``random:P``: each box of a euchre card named as its same-colour twin with chance P
  (the jack of clubs as the jack of spades, a heart as the diamond of its rank);
- ``systematic``: one card a hand, drawn from the cards played, named as its twin in
  every box: a deck's *sure* confusion, which no vote of frames sets right.

The stream is read as the kiosk reads it; the players answer the reader's questions (one
tap each: the card that lies there), then the table's: a renege that would vanish if one
of its cards were its twin is first put to them (kiosk.table.twins), never flagged on the
camera's word alone. Figures: tricks exact (as read, after the reader's questions, after
the twin questions too), questions a hand (the reader's and the twin questions), and
renege flags the truth does not hold: as the kiosk flagged them before the twin questions
and after.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import bench_reader as br  # noqa: E402

from devtools.oracle import OracleDetector, OracleNoise  # noqa: E402
from kiosk.rules.cards import EUCHRE_NAMES, Card, Seat  # noqa: E402
from kiosk.rules.record import HandRecord, SeatCard  # noqa: E402
from kiosk.table.twins import renege_questions, twin_of  # noqa: E402
from kiosk.vision.brief import HandBrief  # noqa: E402
from kiosk.vision.camera.calibration import Calibration  # noqa: E402
from kiosk.vision.pipeline import load_stream, read_stream, stream_calibration  # noqa: E402

#: added to a hand's seed for its swaps, so the hand, its noise and its swaps keep their
#: own draws
SWAP_SEED = 6363
PROFILE = "tournament"


def parse_swaps(text: str) -> tuple[str, float]:
    """``random:0.14`` or ``systematic`` as (kind, share of reads).

    >>> parse_swaps("random:0.14"), parse_swaps("systematic")
    (('random', 0.14), ('systematic', 1.0))
    """
    kind, _, share = text.partition(":")
    if kind == "systematic" and not share:
        return kind, 1.0
    if kind == "random":
        try:
            value = float(share)
        except ValueError:
            value = -1.0
        if 0.0 <= value <= 1.0:
            return kind, value
    raise ValueError(f"--twin-swaps {text!r}: 'random:P' (P from 0 to 1) or 'systematic'")


def swapper(kind: str, share: float, seed: int, record: dict[str, Any]
            ) -> tuple[Callable[[str], str], str | None]:
    """How each box's name is read under the swaps, and the card a systematic swap
    always reads as its twin (None for random swaps)."""
    rng = np.random.default_rng(seed + SWAP_SEED)
    if kind == "systematic":
        played = sorted(p.split(":")[1] for trick in record["tricks"] for p in trick)
        always = str(rng.choice(played))
        return (lambda name: twin_name(name) if name == always else name), always
    return (lambda name: twin_name(name) if name in EUCHRE_NAMES and rng.random() < share
            else name), None


def twin_name(name: str) -> str:
    """A detector's card name read as its same-colour twin's ('JC' -> 'JS')."""
    return str(twin_of(Card.parse(name)))


def inject(frames: list[dict[str, Any]], read_as: Callable[[str], str]
           ) -> list[dict[str, Any]]:
    """The frames with each box's name as ``read_as`` reads it (a runner-up name the
    detector gave, if it is the new name, becomes the old one)."""
    out = []
    for frame in frames:
        boxes = []
        for d in frame["detections"]:
            if isinstance(d, dict):
                new = read_as(d["card"])
                d = {**d, "card": new}
            else:  # compact [card, confidence, x1, y1, x2, y2, (alternative, confidence)]
                new = read_as(d[0])
                alternative = d[6] if len(d) > 6 else None
                d = [new, *d[1:6]] + ([] if alternative is None else
                                      [d[0] if alternative == new else alternative, *d[7:]])
            boxes.append(d)
        out.append({**frame, "detections": boxes})
    return out


def recorded(job: dict[str, Any], truth: dict[str, Any]
             ) -> tuple[list[dict[str, Any]], Calibration]:
    """The hand's recorded detections and the calibration they were read with: the
    model's saved boxes (``--detections``), else the oracle's, recorded once."""
    if job.get("detections"):
        stream = load_stream(_saved(job["detections"], job, ".model.json"))
        return stream["frames"], stream_calibration(stream)
    path = Path(job["truth"]).with_name(Path(job["truth"]).name.replace(".truth.json",
                                                                        ".oracle.json"))
    if path.exists():
        frames = json.loads(path.read_text(encoding="utf-8"))["frames"]
    else:
        detector = OracleDetector(truth["frames"], tuple(truth["size"]), seed=job["seed"],
                                  noise=OracleNoise.level(job["noise"]))
        frames = [{"t": i / truth["fps"], "detections": detector.detect()}
                  for i in range(len(truth["frames"]))]
        path.write_text(json.dumps({"frames": frames}, separators=(",", ":")),
                        encoding="utf-8")
    return frames, Calibration.default(truth["view"], tuple(truth["size"]))


def _saved(folder: str, job: dict[str, Any], suffix: str) -> Path:
    """A file a ``bench_reader.py --detector model`` run kept for this hand."""
    found = sorted(Path(folder).glob(f"hand-{job['seed']:04d}-{job['view']}*{suffix}"))
    if not found:
        raise SystemExit(f"no hand-{job['seed']:04d}-{job['view']}*{suffix} in {folder}")
    return found[0]


def flat(tricks: list[list[str]]) -> list[SeatCard]:
    """``[["N:9C", ...], ...]`` as the referee's (seat, card) plays."""
    plays = []
    for trick in tricks:
        for play in trick:
            seat, card = play.split(":")
            plays.append((Seat.parse(seat), Card.parse(card)))
    return plays


def twin_answers(record: dict[str, Any], want: list[list[str]], tricks: list[list[str]],
                 settled: set[tuple[int, str]]) -> tuple[list[list[str]], int]:
    """The tricks after the players answered the table's twin questions, one at a time
    (each answer may settle or raise the next), and how many they were asked."""
    asked = 0
    deal = HandRecord.from_json(dict(record, tricks=[]))
    told = {(trick, Seat.parse(seat)) for trick, seat in settled}
    while True:
        questions = renege_questions(PROFILE, deal.dealer, deal.turn_up, deal.bids,
                                     flat(tricks), settled=told)
        if not questions:
            return tricks, asked
        q = questions[0]
        told.add((q.trick, q.seat))
        tricks = br.answered(want, tricks, {(q.trick - 1, str(q.seat))})
        asked += 1


def read_one(job: dict[str, Any]) -> dict[str, Any]:
    truth = json.loads(Path(job["truth"]).read_text(encoding="utf-8"))
    record = truth["record"]
    frames, calibration = recorded(job, truth)
    kind, share = job["swaps"]
    read_as, always = swapper(kind, share, job["seed"], record)
    brief = HandBrief.from_json({"leader": truth["leader"], "trump": truth["trump"],
                                 "sitting_out": truth["sitting_out"]})
    reading = read_stream(inject(frames, read_as), calibration, brief=brief)
    want, got = record["tricks"], reading.tricks_json()
    asked = br.asked_seats(reading.events)
    places = br.answered_places(reading.events)
    after = br.answered(want, got, places)
    settled = {(k + 1, seat) for k, seat in places}
    final, twin_questions = twin_answers(record, want, after, settled)
    true, _ = br.verdict(record, want)
    flagged_as_read, _ = br.verdict(record, got)
    flagged_before, _ = br.verdict(record, after)
    flagged, _ = br.verdict(record, final)

    def exact(tricks: list[list[str]]) -> int:
        return sum(1 for a, b in zip(want, tricks, strict=False) if a == b)

    return {"seed": job["seed"], "view": job["view"], "noise": job["noise"],
            "always": always, "tricks": max(len(want), len(got)), "exact_read": exact(got),
            "exact_after_reader": exact(after), "exact": exact(final),
            "reader_questions": len(asked), "twin_questions": twin_questions,
            "asked_why": sorted(str(w.kind) for w in reading.warnings
                                if w.kind in br.QUESTIONS and w.seat is not None),
            "true_reneges": len(true),
            "false_flags_as_read": len(flagged_as_read - true),
            "false_flags_before": len(flagged_before - true),
            "false_flags": len(flagged - true), "missed_flags": len(true - flagged),
            "want": want if final != want else None, "got": final if final != want else None}


def summarize(kind: str, share: float, rows: list[dict[str, Any]]) -> dict[str, Any]:
    hands = max(len(rows), 1)
    tricks = sum(r["tricks"] for r in rows)

    def total(key: str) -> int:
        return int(sum(r[key] for r in rows))

    return {
        "swaps": kind if kind == "systematic" else f"random:{share}", "hands": len(rows),
        "tricks": tricks, "exact_as_read": total("exact_read"),
        "exact_after_reader_questions": total("exact_after_reader"),
        "exact_after_answers": total("exact"),
        "exact_pct": round(100.0 * total("exact") / max(tricks, 1), 2),
        "questions_per_hand": round((total("reader_questions") + total("twin_questions"))
                                    / hands, 2),
        "twin_questions_per_hand": round(total("twin_questions") / hands, 2),
        "true_reneges": total("true_reneges"),
        # from the cards as read, and once the players answered the reader's questions:
        # as the kiosk flagged before it put a renege's twins to the players
        "false_renege_flags_as_read": total("false_flags_as_read"),
        "false_renege_flags_without_twin_questions": total("false_flags_before"),
        "false_renege_flags": total("false_flags"),
        "missed_renege_flags": total("missed_flags"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=24)
    parser.add_argument("--seed", type=int, default=63000)
    parser.add_argument("--fps", type=float, default=12.0)
    parser.add_argument("--twin-swaps", action="append", default=None, metavar="KIND",
                        help="'random:P' or 'systematic' (repeatable; default both, "
                             "random:0.14 and systematic)")
    parser.add_argument("--detections", default=None, metavar="DIR",
                        help="read the model's boxes a bench_reader.py --detector model run "
                             "saved in DIR (hand-*.model.json) instead of the oracle's")
    parser.add_argument("--out", default=str(ROOT / "runs" / "bench-twins"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        modes = [parse_swaps(s) for s in (args.twin_swaps or ["random:0.14", "systematic"])]
    except ValueError as problem:
        parser.error(str(problem))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [hand | {"dir": str(out), "fps": args.fps, "streams": True,
                    "detections": args.detections}
            for hand in br.set_plans(args.hands, args.seed)]
    started = time.time()
    if args.detections:  # the model's boxes lie beside the videos that run rendered
        jobs = [job | {"truth": str(_saved(args.detections, job, ".truth.json"))}
                for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            jobs = list(pool.map(br.render, jobs))
    print(f"{len(jobs)} hands ready in {time.time() - started:.0f} s -> {out}",
          file=sys.stderr)
    summaries = []
    for kind, share in modes:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            rows = list(pool.map(read_one, [job | {"swaps": (kind, share)} for job in jobs]))
        summary = summarize(kind, share, rows)
        summaries.append(summary)
        print(json.dumps(summary, indent=2))
        for r in rows:
            if r["got"] is not None:
                print(f"  seed {r['seed']} {r['view']} {r['noise']} (always {r['always']}): "
                      f"want {r['want']}\n      got {r['got']}", file=sys.stderr)
        tag = summary["swaps"].replace(":", "-")
        (out / f"rows-{tag}.json").write_text(json.dumps(rows, indent=1))
    (out / "summary.json").write_text(json.dumps(summaries, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
