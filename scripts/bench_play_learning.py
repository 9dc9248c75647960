"""Learning during play: how the kiosk reads a deck it never saw after 1, 2, 4, 8 hands.

    python scripts/bench_play_learning.py                          # both held-out decks
    python scripts/bench_play_learning.py --rendered kde-standard --hands 1 2 4 8 12
    python scripts/bench_play_learning.py --rendered kde-standard --starts deep  # torch


Rendered photos of decks no network saw (``datasets.cards_art.held_out_decks``): the
"hands" are rendered table shots (``datasets.layouts.render_table_shots``, seed+2: never
the enrolment pool's or the judge's), three shots a hand (about twenty cards, as a hand
shows), read in tiles at full resolution as the kiosk reads a calibrated table's play
area. Each shot's boxes go to :class:`kiosk.vision.decks.play_learning.PlayLearning` as the
kiosk's camera thread hands them in, each card's own place standing for its seat's zone;
the hand is then settled as the table session settles one: a card whose every box read
one same wrong name is *corrected* by the players (it teaches nothing), any other card
is accepted (read right, or asked and answered). After each hand the learner refits and
the detector reads with what it adopted. Judged on 30 other shots of the deck (seed 0),
from no profile and from a profile learnt from one layout at set-up (``--starts
layout``), or learnt deeply from it (``--starts deep``, where torch is installed: play
then learns the profile's network deeply between hands,
:data:`kiosk.vision.decks.play_learning.PLAY_DEEP`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from datasets.reading_score import ReadingScore  # noqa: E402
from kiosk.vision.cards.detector import Detector  # noqa: E402
from kiosk.vision.decks.deck_profile import DeckProfile  # noqa: E402
from kiosk.vision.decks.enrolment import iou, learn_deck, read_layout  # noqa: E402
from kiosk.vision.decks.play_learning import PLAY_DEEP, PlayLearning  # noqa: E402
from kiosk.vision.pipeline import READ_CONFIDENCE  # noqa: E402

SHOTS_A_HAND = 3
#: the targets with a profile (issue 45), printed beside the figures
TARGET_FOUND, TARGET_FALSE, TARGET_SWAPS = 0.97, 0.1, 0.005


def read_in_tiles(detector: Detector, image: Any, confidence: float | None = None) -> list[Any]:
    return detector.detect(image, min_scale=1.0, confidence=confidence)


def judge(detector: Detector, held: Sequence[tuple[Any, Any]]) -> dict[str, Any]:
    score = ReadingScore()
    for image, labels in held:
        score.add(labels, [(d.card, d.box) for d in read_in_tiles(detector, image)])
    return score.summary()


def play_hand(detector: Detector, learner: PlayLearning, number: int, shots: Sequence[Any]
              ) -> tuple[int, int, int]:
    """One hand's shots through the learner; returns (accepted, corrected, patches added)."""
    names: dict[str, list[str]] = {}
    for shot in shots:
        boxes = read_in_tiles(detector, shot.image, READ_CONFIDENCE)
        seen = []
        for d in boxes:
            owner = max(shot.labels, key=lambda label: iou(label[1], d.box), default=None)
            if owner is None or iou(owner[1], d.box) < 0.4:
                continue
            seen.append((owner[0], d.card, d.box))  # the card's place is its "seat"
            names.setdefault(owner[0], []).append(d.card)
        learner.look(number, shot.image, seen)
    accepted, corrected = [], []
    for card, read in names.items():
        top, count = Counter(read).most_common(1)[0]
        if top != card and count == len(read):
            corrected += [(card, card), (card, top)]
        else:
            accepted.append((card, card))
    added = learner.settle(number, accepted, corrected)
    return len(accepted), len(corrected) // 2, added


def run_deck(detector: Detector, deck: str, args: argparse.Namespace) -> dict[str, Any]:
    from datasets.layouts import render_layout, render_table_shots

    held = [(s.image, s.truth()) for s in render_table_shots(deck, args.seed, args.judge_shots)]
    hands = render_table_shots(deck, args.seed + 2, max(args.hands) * SHOTS_A_HAND)
    layout = read_layout(detector, render_layout(deck, args.seed + 100).image, "layout")
    starts: dict[str, DeckProfile | None] = {}
    if "none" in args.starts:
        starts["no profile"] = None
    if "layout" in args.starts:
        starts["layout profile"] = learn_deck(detector, [layout.photo])
    if {"deep", "deep-layer"} & set(args.starts):
        from kiosk.vision.decks.deep_enrolment import learn_deck_deeply

        started = time.monotonic()
        deep = learn_deck_deeply(detector, [layout.photo])
        print(f"{deck}: learnt deeply from the layout in {time.monotonic() - started:.0f} s",
              flush=True)
        if "deep" in args.starts:
            starts["deep layout"] = deep
        if "deep-layer" in args.starts:  # the same profile, play refitting its last layer
            starts["deep, layer"] = deep
    out: dict[str, Any] = {}
    for start, profile in starts.items():
        detector.use_deck(profile)
        learner = PlayLearning(detector.namer, profile,  # type: ignore[arg-type]
                               deep=None if start == "deep, layer" else PLAY_DEEP)
        rows = {"0": judge(detector, held)}
        show_row(deck, start, 0, rows["0"], "")
        for number in range(1, max(args.hands) + 1):
            chunk = hands[(number - 1) * SHOTS_A_HAND : number * SHOTS_A_HAND]
            accepted, corrected, added = play_hand(detector, learner, number, chunk)
            started = time.monotonic()
            learnt = learner.refit()
            took = time.monotonic() - started
            if learnt is not None:
                detector.use_deck(learnt)
            if number in args.hands:
                rows[str(number)] = judge(detector, held)
                last = learner.refits[-1] if learner.refits else None
                note = (f"accepted {accepted}, corrected {corrected}, pool {learner.cards} "
                        f"cards; refits adopted {sum(r.adopted for r in learner.refits)} of "
                        f"{len(learner.refits)}"
                        + (f" (last check {last.before}->{last.after} of {last.checked}"
                           + (f", network; no card {last.nothing_before}->"
                              f"{last.nothing_after}" if last.deep else "")
                           + f", {took:.0f} s)"
                           if last else ""))
                show_row(deck, start, number, rows[str(number)], note)
        out[start] = rows
    detector.use_deck(None)
    return out


def show_row(deck: str, start: str, hands: int, row: dict[str, Any], note: str) -> None:
    print(f"{deck:>15} | {start:>14} | {hands:>5} | {row['found']:.3f} | "
          f"{row['false_per_image']:.3f} | {row['swaps']:.3f} | {note}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rendered", nargs="*", default=["kde-standard", "kde-nicu-white"])
    parser.add_argument("--hands", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--judge-shots", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--starts", nargs="+",
                        choices=["none", "layout", "deep", "deep-layer"],
                        default=["none", "layout"],
                        help="what play starts from: no profile, a quick profile from one "
                             "layout, or a deep one (needs torch), learning deeply in play "
                             "or (deep-layer) refitting its last layer only")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    detector = Detector(threads=args.threads)
    print(f"{'deck':>15} | {'starting from':>14} | hands | found | false | swaps |")
    report = {deck: run_deck(detector, deck, args) for deck in args.rendered}
    print(f"{'target':>15} | {'':>14} | {'':>5} | {TARGET_FOUND} | {TARGET_FALSE} | "
          f"{TARGET_SWAPS} |")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
