"""Render the detector's fixture scenes (tests/vision/fixtures/): run once, commit the output.

    .venv/bin/python tests/vision/make_fixtures.py

Each fixture is a designed table (which cards, where) drawn with the generator's own
pieces, so the expected answer is known exactly: ``present`` lists every card on the
table, ``must_find`` the cards whose index shows clearly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from datasets import photometric  # noqa: E402
from datasets.geometry import view_homography  # noqa: E402
from datasets.scenes import Placement, Table, view_labels  # noqa: E402
from datasets.surfaces import felt, laminate, wood  # noqa: E402

OUT = Path(__file__).resolve().parent / "fixtures"
SIZE = 480

FIXTURES = {
    "trick_felt.jpg": (felt, "anglo", "overhead", [
        ("JH", (240, 120), -5), ("9S", (360, 240), 80), ("AD", (240, 360), 175),
        ("TC", (120, 240), -95),
    ]),
    "score_wood.jpg": (wood, "bellot", "overhead", [
        ("KS", (150, 150), 10), ("QD", (330, 160), -15), ("5H", (170, 350), 0),
        ("back", (190, 420), 90), ("9C", (360, 360), 30),
    ]),
    "tablet_laminate.jpg": (laminate, "simplistic", "oblique", [
        ("AS", (250, 200), 0), ("JD", (420, 300), 90), ("TH", (300, 430), 180),
        ("QC", (120, 330), -90),
    ]),
}  # fmt: skip


def render(name: str, seed: int) -> dict[str, list[str]]:
    surface, deck, view, cards = FIXTURES[name]
    rng = np.random.default_rng(seed)
    canvas = SIZE if view == "overhead" else int(SIZE * 1.2)
    table = Table(surface(canvas, rng).clip(0, 255).astype(np.float32))
    for card, (x, y), angle in cards:
        table.add_card(Placement(card, deck, (float(x), float(y)), 130.0, angle), rng, 0.0)
    homography = np.eye(3) if view == "overhead" else view_homography(canvas, SIZE, view, rng)
    image = cv2.warpPerspective(table.canvas, homography, (SIZE, SIZE))
    labels = view_labels(table, cv2.warpPerspective(
        table.ids, homography, (SIZE, SIZE), flags=cv2.INTER_NEAREST), homography)
    image = photometric.camera(image, rng)
    cv2.imwrite(str(OUT / name), cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                [cv2.IMWRITE_JPEG_QUALITY, 90])
    faces = sorted({label.card for label in labels} - {"back"})
    return {"present": sorted({c for c, _, _ in cards}), "must_find": faces}


def main() -> int:
    OUT.mkdir(exist_ok=True)
    expected = {name: render(name, seed) for seed, name in enumerate(FIXTURES)}
    (OUT / "scenes.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(json.dumps(expected))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
