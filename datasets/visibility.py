"""Measure what survives overlap on a euchre table: whole cards or their corner indices?

    python -m datasets.visibility --scenes 300

For every face card drawn in the generated scenes (before the camera), it counts whether
at least MIN_VISIBLE of the *whole card* still shows, and whether *one of its corner
indices* shows as much as a label needs (MIN_VISIBLE of its box and of its print), both
against the whole card or index, also any part off the table's edge. A detector can only
be trained on, and be asked for, what shows: the larger share decides which box to label
(models/README.md).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from datasets.cards_art import usable_decks
from datasets.classes import BACK
from datasets.occluders import draw_hand
from datasets.scenes import MIN_VISIBLE, Table, _layout, shows_on_table
from datasets.surfaces import random_surface


def measure(scenes: int, size: int = 384, seed0: int = 5_000_000) -> dict[str, float]:
    """Share of face cards whose whole body / one index shows (>= MIN_VISIBLE)."""
    decks = usable_decks()
    whole = index = either = total = 0
    for seed in range(seed0, seed0 + scenes):
        rng = np.random.default_rng(seed)
        card_w = math.exp(rng.uniform(math.log(55), math.log(230)))
        chosen = [decks[int(i)] for i in rng.choice(len(decks), 2, replace=False)]
        table = Table(random_surface(size, rng))
        for placement in _layout(rng, size, card_w, chosen):
            table.add_card(placement, rng)
        for _ in range(int(rng.integers(0, 3))):
            table.cover(draw_hand(table.canvas, rng, fingers_only=rng.random() < 0.5))
        body_now = np.bincount(table.card_ids.ravel(), minlength=len(table.cards))
        region_now = np.bincount(table.ids.ravel(), minlength=len(table.regions))
        ink_now = np.bincount(table.ink_ids.ravel(), minlength=len(table.regions))
        for k, (card, regions, drawn) in enumerate(table.cards):
            if k == 0 or card == BACK or not regions:
                continue
            total += 1
            w = body_now[k] >= MIN_VISIBLE * drawn
            i = any(shows_on_table(table, r, region_now, ink_now) for r in regions)
            whole += w
            index += i
            either += w or i
    return {
        "face_cards": total,
        "whole_card_visible": round(float(whole) / total, 3),
        "an_index_visible": round(float(index) / total, 3),
        "either_visible": round(float(either) / total, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=300)
    args = parser.parse_args(argv)
    print(measure(args.scenes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
