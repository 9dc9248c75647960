"""Record the reader's JSON fixtures (run from the repository root when a scene changes):

    .venv/bin/python tests/reader/record_fixtures.py

Scripted scenes come from ``builder.py``; the two whole hands are rendered
scenes from ``datasets/handvideo.py`` (their corner boxes, not pixels) with the
oracle's detector noise. Each fixture carries what the reader must find.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

from builder import Stage, trick  # noqa: E402

from devtools.oracle import OracleNoise  # noqa: E402

FIXTURES = HERE / "fixtures"


def scripted() -> list[dict[str, Any]]:
    out = []

    s = Stage(seed=1)
    trick(s, [("N", "JH"), ("E", "9H"), ("S", "AH"), ("W", "TD")], 0.5)
    out.append(s.fixture("clean-trick", "four cards, one after the other, then gathered",
                         {"leader": "N", "trump": "H"},
                         {"tricks": [["N:JH", "E:9H", "S:AH", "W:TD"]], "only_warnings": []}))

    s = Stage(seed=2)
    placed, _ = trick(s, [("E", "KS"), ("S", "QS"), ("W", "AS"), ("N", "9S")], 0.5)
    s.hide(1.2, 2.0, "E")          # East's own hand lingers over the card
    s.hide(2.2, 3.1, None)         # an arm across the table hides everything
    s.hide(3.6, 4.8, "S")          # a sleeve over South's card for over a second
    s.hide(4.9, 5.6, "W")
    out.append(s.fixture("arms-over-cards", "hands and arms hide cards, even all at once",
                         {"leader": "E", "trump": "C"},
                         {"tricks": [["E:KS", "S:QS", "W:AS", "N:9S"]], "only_warnings": []}))

    s = Stage(seed=3)
    placed, _ = trick(s, [("S", "TC"), ("W", "QC"), ("N", "KC"), ("E", "JC")], 0.5)
    s.glare(1.1, 1.5, "TC")        # glare on the card as it lands
    s.glare(2.0, 2.2, "TC")
    s.glare(3.3, 3.5, "KC")
    out.append(s.fixture("glare", "a lamp's glare washes out corners for a few frames",
                         {"leader": "S", "trump": "C"},
                         {"tricks": [["S:TC", "W:QC", "N:KC", "E:JC"]], "only_warnings": []}))

    s = Stage(seed=4)
    placed, _ = trick(s, [("W", "9D"), ("N", "TD"), ("E", "QD"), ("S", "KD")], 0.5)
    s.nudge(placed[0], 2.4, 0.03, 0.02)   # West's card knocked by North's hand
    s.nudge(placed[1], 4.0, -0.03, 0.0)
    out.append(s.fixture("nudged-cards", "cards pushed a little after they came to rest",
                         {"leader": "W", "trump": "S"},
                         {"tricks": [["W:9D", "N:TD", "E:QD", "S:KD"]], "only_warnings": []}))

    s = Stage(seed=5)
    s.play("N", "AS", 0.5)
    wrong = s.play("E", "9C", 1.7)
    s.take_back(wrong, 3.6)        # a revoke corrected before the trick is turned
    east = s.play("E", "TS", 4.8)
    south = s.play("S", "KS", 6.0)
    west = s.play("W", "QS", 7.2)
    s.gather([s.cards[0], east, south, west], 9.0, "N")
    out.append(s.fixture("take-back", "East plays 9C, takes it back and follows suit with TS",
                         {"leader": "N", "trump": "H"},
                         {"tricks": [["N:AS", "E:TS", "S:KS", "W:QS"]],
                          "warnings": ["card_replaced"], "only_warnings": ["card_replaced"],
                          "replaced": {"E": ["9C", "TS"]}}))

    s = Stage(seed=6)
    trick(s, [("E", "AD"), ("N", "9D"), ("S", "TD"), ("W", "JD")], 0.5)
    out.append(s.fixture("out-of-turn", "North leads, but East plays first",
                         {"leader": "N", "trump": "S"},
                         {"tricks": [["E:AD", "N:9D", "S:TD", "W:JD"]],
                          "warnings": ["out_of_turn"], "only_warnings": ["out_of_turn"]}))

    s = Stage(seed=7)
    _, t = trick(s, [("E", "JS"), ("S", "AS"), ("N", "KS")], 0.5, winner="E")
    trick(s, [("E", "JC"), ("S", "9S"), ("N", "TS")], t, winner="E")
    out.append(s.fixture("lone-hand", "East alone, West sits out: three cards a trick",
                         {"leader": "E", "trump": "S", "sitting_out": "W"},
                         {"tricks": [["E:JS", "S:AS", "N:KS"], ["E:JC", "S:9S", "N:TS"]],
                          "only_warnings": []}))

    s = Stage(seed=8)
    trick(s, [("N", "JS"), ("E", "AS"), ("S", "KS"), ("W", "9S")], 0.5, winner="N")
    out.append(s.fixture("lone-partner-plays", "North alone, but South plays a card too",
                         {"leader": "N", "trump": "S", "sitting_out": "S"},
                         {"tricks": [["N:JS", "E:AS", "S:KS", "W:9S"]],
                          "warnings": ["out_of_turn"], "only_warnings": ["out_of_turn"]}))

    s = Stage(seed=9)
    trick(s, [("S", "QH"), ("W", "KH"), ("N", "AH"), ("E", "9H")], 0.5)
    s.box(0.0, 12.0, "5C", (0.035, 0.72))          # the score markers, beside the table
    s.box(0.0, 12.0, "5D", (0.965, 0.28))
    s.box(2.2, 5.0, "6H", (0.25, 0.66))            # a stray 6 dropped in West's place
    out.append(s.fixture("not-euchre",
                         "a 6H lands in West's place; the 5s score markers do not count",
                         {"leader": "S", "trump": "D"},
                         {"tricks": [["S:QH", "W:KH", "N:AH", "E:9H"]],
                          "warnings": ["not_euchre"], "only_warnings": ["not_euchre"]}))

    s = Stage(seed=10)
    _, t = trick(s, [("N", "AH"), ("E", "KH"), ("S", "QH"), ("W", "9H")], 0.5, winner="N")
    s.play("N", "TH", t)
    s.play("E", "AH", t + 1.2)     # a second AH (another deck's card, or a misread)
    s.end += 4
    out.append(s.fixture("seen-twice", "AH comes down again in the next trick",
                         {"leader": "N", "trump": "C"},
                         {"tricks": [["N:AH", "E:KH", "S:QH", "W:9H"], ["N:TH"]],
                          "warnings": ["seen_twice"],
                          "only_warnings": ["seen_twice", "occluded"]}))

    s = Stage(seed=11)
    s.play("W", "JC", 0.5)
    hard = s.play("N", "QC", 1.7)
    hard.confidence = (0.05, 0.18)  # bent, face half hidden: the detector is unsure
    s.end = 7.0
    out.append(s.fixture("unreadable", "North's card is there but never read with confidence",
                         {"leader": "W", "trump": "D"},
                         {"tricks": [["W:JC"]], "warnings": ["unreadable"],
                          "only_warnings": ["unreadable"]}))

    s = Stage(seed=12)
    s.play("W", "JC", 0.5)
    torn = s.play("N", "JD", 1.7)
    torn.labels.append((0.0, 99.0, "JH", 0.5))  # half the boxes say JH, half JD
    s.end = 7.5
    out.append(s.fixture("ambiguous", "North's card reads as JD or JH: asked, not guessed",
                         {"leader": "W", "trump": "D"},
                         {"tricks": [["W:JC"]], "warnings": ["ambiguous"],
                          "only_warnings": ["ambiguous"]}))

    s = Stage(seed=13)
    first = [s.play("S", "9C", 0.5), s.play("W", "TC", 1.7), s.play("N", "JC", 2.9),
             s.play("E", "QC", 4.1)]
    s.gather(first, 6.8, "N")
    s.play("N", "AD", 5.6, slide=0.5, lateral=0.07, depth=0.15)  # leads before the rake-in
    s.play("E", "KD", 6.9)
    s.play("S", "QD", 8.1)
    s.play("W", "9D", 9.3)
    out.append(s.fixture("quick-lead", "the winner leads again before the trick is raked in",
                         {"leader": "S", "trump": "C"},
                         {"tricks": [["S:9C", "W:TC", "N:JC", "E:QC"],
                                     ["N:AD", "E:KD", "S:QD", "W:9D"]], "only_warnings": []}))

    s = Stage(view="tablet", size=(640, 360), seed=14)
    t = 0.5
    hands = [[("W", "9S"), ("N", "QS"), ("E", "KS"), ("S", "AS")],
             [("S", "JH"), ("W", "9H"), ("N", "TH"), ("E", "QH")]]
    for plays in hands:
        _, t = trick(s, plays, t, winner=plays[-1][0] if plays[0][0] == "W" else "S")
    out.append(s.fixture("tablet-harsh", "a tablet at South's edge, with a poor detector",
                         {"leader": "W", "trump": "H"},
                         {"tricks": [[f"{a}:{b}" for a, b in p] for p in hands],
                          # a poor detector's faint reads come with a question
                          "only_warnings": ["unsure"]}, noise=OracleNoise.level("harsh")))
    return out


def rendered() -> list[dict[str, Any]]:
    """Whole hands from the hand renderer's scenes (boxes only), with detector noise."""
    from datasets import handvideo as hv
    from devtools.oracle import noisify

    out = []
    for name, seed, view, alone, noise in [
        ("rendered-hand-tablet", 21, "tablet", False, "typical"),
        ("rendered-lone-hand-overhead", 22, "overhead", True, "harsh"),
    ]:
        record = hv.random_hand(np.random.default_rng(seed), alone=alone)
        tricky = hv.Tricks(takeback=0.15, nudge=0.2, pass_over=0.4, glare=0.2)
        truth = hv.render_hand(record, None, seed=seed, view=view, pixels=False, fps=10,
                               tricks=tricky)
        noisy = noisify(truth["frames"], np.random.default_rng(seed), tuple(truth["size"]),
                        OracleNoise.level(noise))
        frames = [{"t": round(i / truth["fps"], 4),
                   "detections": [[d["card"], d["confidence"], *d["box"]] for d in dets]}
                  for i, dets in enumerate(noisy)]
        kinds = sorted({e["kind"] for e in truth["events"]})
        allowed = ["card_replaced"] if "takeback" in kinds else []
        if noise == "harsh":
            allowed.append("unsure")  # a poor detector's faint reads come with a question
        out.append({"name": name, "about": f"a whole rendered hand ({', '.join(kinds)})",
                    "view": view, "size": truth["size"], "fps": truth["fps"],
                    "play": {"leader": truth["leader"], "trump": truth["trump"],
                             "sitting_out": truth["sitting_out"]},
                    "expect": {"tricks": record["tricks"], "only_warnings": allowed},
                    "record": {k: record[k] for k in ("dealer", "turn_up", "bids")},
                    "frames": frames})
    return out


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for fixture in scripted() + rendered():
        path = FIXTURES / f"{fixture['name']}.json"
        frames = fixture.pop("frames")
        head = json.dumps(fixture, indent=1)[:-2]
        body = ",\n".join(json.dumps(f, separators=(",", ":")) for f in frames)
        path.write_text(f'{head},\n "frames": [\n{body}\n]}}\n', encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(frames)} frames, {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
