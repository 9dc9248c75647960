"""How well ``kiosk read-table`` reads the turn-up and each side's 5s, on rendered stills.

Games to ten are played out as scores (``datasets.marker_stills.game_scores``); after
every hand one still of the table is rendered in each view (overhead, and a tablet at
South's edge), one camera over one table for the whole game
(``datasets.table_stills.TableCamera``), in the decks no network was trained on
(``datasets.cards_art.HELD_OUT_DECKS``, alternating by game): each side's 5s at the score,
the next deal's kitty beside its dealer (the deal passing left), its turn-up face up, or
turned down in a share of the stills (``--turned-down``). Each game's stills are read in
order by the command's own reader (:class:`kiosk.commands.read_table.TableStills`, a new
one a game, as one ``kiosk read-table`` run over one game's photos), with the view's
default calibration as the command reads without ``--calibration``, or the table's true
corners (``--calibration saved``).

Prints: the turn-up read right, wrong and not read (null) on the stills whose kitty shows
it, and a turn-up read on a kitty turned down (false); each side's count read right,
wrong and not read; the time a still takes to read.

    nice -n 10 .venv/bin/python scripts/bench_read_table.py --hands 50 [--seed 62]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets import cards_art  # noqa: E402
from datasets.marker_stills import game_scores, random_places  # noqa: E402
from datasets.table_stills import Kitty, TableCamera  # noqa: E402
from kiosk.commands.read_table import TableStills  # noqa: E402
from kiosk.rules.cards import EUCHRE_NAMES, Team  # noqa: E402
from kiosk.vision.camera.calibration import Calibration  # noqa: E402

VIEWS = ("overhead", "tablet")
DEALERS = "NESW"


def run(hands: int, seed: int, turned_down: float, detector: Any, saved: bool,
        log: Any = None, keep: Path | None = None) -> dict[str, Any]:
    """Render and read ``hands`` hands' stills in both views; the tallies."""
    rng = np.random.default_rng(seed)
    decks = cards_art.held_out_decks()
    names = sorted(EUCHRE_NAMES)
    tally = {"stills": 0, "shown": 0, "turn_up_right": 0, "turn_up_wrong": 0,
             "turn_up_null": 0, "down": 0, "turn_up_false": 0, "sides": 0, "right": 0,
             "wrong": 0, "null": 0, "reading_s": 0.0}
    misses: list[dict[str, Any]] = []
    done = game = 0
    while done < hands:
        deck = decks[game % len(decks)]
        places = random_places(rng)
        colours = ["HD", "CS"]
        rng.shuffle(colours)
        suits = {side: (colours[i][0], colours[i][1]) for i, side in enumerate(("NS", "EW"))}
        tables = {}
        for view in VIEWS:
            camera = TableCamera(deck, view, int(rng.integers(1 << 30)))
            h, w = camera.renderer.size[1], camera.renderer.size[0]
            calibration = (Calibration.from_corners(camera.corners, (w, h), view=view)
                           if saved else None)
            tables[view] = (camera, TableStills(detector, view=view, saved=calibration))
        first_dealer = int(rng.integers(4))
        for number, score in enumerate(game_scores(rng)):
            if done >= hands:
                break
            done += 1
            kitty = Kitty(DEALERS[(first_dealer + number) % 4],
                          names[int(rng.integers(len(names)))],
                          face_up=bool(rng.random() >= turned_down))
            for view, (camera, table) in tables.items():
                still_seed = int(rng.integers(1 << 30))
                image = camera.still(score, places, suits, still_seed, kitty=kitty)
                began = time.perf_counter()
                reading = table.read(image)
                tally["reading_s"] += time.perf_counter() - began
                tally["stills"] += 1
                wanted = kitty.card if kitty.face_up else None
                if kitty.face_up:
                    tally["shown"] += 1
                    outcome = ("right" if reading.turn_up == kitty.card else
                               "null" if reading.turn_up is None else "wrong")
                    tally[f"turn_up_{outcome}"] += 1
                else:
                    tally["down"] += 1
                    tally["turn_up_false"] += reading.turn_up is not None
                missed = [] if reading.turn_up == wanted else ["turn_up"]
                for side in Team:
                    count = reading.score[side]
                    tally["sides"] += 1
                    outcome = ("right" if count == score[str(side)] else
                               "null" if count is None else "wrong")
                    tally[outcome] += 1
                    if outcome != "right":
                        missed.append(str(side))
                if missed:
                    miss = {"hand": done, "game": game, "in_game": number + 1, "view": view,
                            "deck": deck, "seed": still_seed,
                            "missed": missed, "kitty": [kitty.dealer, kitty.card,
                                                       kitty.face_up],
                            "turn_up": reading.turn_up, "score": score,
                            "read": {str(s): n for s, n in reading.score.items()}}
                    misses.append(miss)
                    if keep is not None:
                        keep.mkdir(parents=True, exist_ok=True)
                        name = f"h{done:03d}-{view}-{'-'.join(missed)}.png"
                        cv2.imwrite(str(keep / name), image)
                    if log is not None:
                        print("  miss:", json.dumps(miss), file=log, flush=True)
        game += 1
    tally["games"] = game
    tally["misses"] = misses
    return tally


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / max(whole, 1):.1f} %)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--seed", type=int, default=62)
    parser.add_argument("--turned-down", type=float, default=0.25,
                        help="share of stills whose kitty's top card is turned down")
    parser.add_argument("--calibration", choices=("default", "saved"), default="default",
                        help="the view's default calibration (as kiosk read-table reads "
                             "without --calibration; the default) or the table's corners")
    parser.add_argument("--keep", type=Path, help="write the stills read wrong here")
    args = parser.parse_args(argv)
    if args.hands < 1 or not 0 <= args.turned_down <= 1:
        print("--hands must be 1 or more and --turned-down between 0 and 1", file=sys.stderr)
        return 2
    if not cards_art.held_out_decks():
        print("no held-out card decks installed (scripts/install-system-packages.sh)",
              file=sys.stderr)
        return 2
    from kiosk.vision.cards.detector import Detector

    started = time.time()
    t = run(args.hands, args.seed, args.turned_down, Detector(threads=1),
            args.calibration == "saved", log=sys.stdout, keep=args.keep)
    print(f"{args.hands} hands ({t['games']} games), {t['stills']} stills (overhead and "
          f"tablet), decks {', '.join(cards_art.held_out_decks())}, calibration "
          f"{args.calibration}, seed {args.seed}, {time.time() - started:.0f} s")
    print(f"turn-up face up: read right {share(t['turn_up_right'], t['shown'])}, wrong "
          f"{t['turn_up_wrong']}, null {t['turn_up_null']}; turned down: a turn-up read on "
          f"{t['turn_up_false']} of {t['down']}")
    print(f"5s: count read right {share(t['right'], t['sides'])} sides; wrong {t['wrong']}, "
          f"null {t['null']}")
    print(f"reading: {1000 * t['reading_s'] / max(t['stills'], 1):.0f} ms a still")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
