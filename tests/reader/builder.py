"""Synthetic detection streams for the trick reader's tests: a tiny stage script.

Cards slide in from a seat's edge and rest in its zone; each visible card
yields its two corner-index boxes. Scenes can hide cards (a hand or arm over
them), wash them out (glare), mislabel a share of their boxes, lower their
confidence (an unreadable card), take a card back, and gather a trick. Noise
(missed boxes, jitter, false boxes) comes from the kiosk's oracle.

This is how the JSON fixtures under ``fixtures/`` were recorded
(``record_fixtures.py``); the tests read the JSON, so a change here does not
silently change what they check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from devtools.oracle import OracleNoise, noisify
from kiosk.vision.camera.calibration import Calibration
from kiosk.vision.events import VisionEvent
from kiosk.vision.reader import TrickReader

#: a hand-written script's line: one box, seen from ``start`` until ``stop`` (seconds)
ScriptLine = tuple[float, float, dict[str, Any]]


def play_script(reader: TrickReader, script: list[ScriptLine], end: float,
                fps: float = 12.0) -> list[VisionEvent]:
    """Feed the reader one frame at a time up to ``end``, each frame holding the boxes
    whose lines cover its time: the shortest way to stage one tricky moment exactly."""
    events: list[VisionEvent] = []
    for frame in range(int(end * fps)):
        t = frame / fps
        events += reader.feed(t, [box for start, stop, box in script if start <= t < stop])
    return events


AXIS = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}


@dataclass
class Placed:
    """One physical card: where it rests and when it is on the table."""

    seat: str
    card: str
    t_in: float
    t_rest: float
    rest: tuple[float, float]
    t_out: float = math.inf
    out_to: tuple[float, float] | None = None
    labels: list[tuple[float, float, str, float]] = field(default_factory=list)  # t0, t1, label, p
    confidence: tuple[float, float] | None = None
    shifts: list[tuple[float, float, float]] = field(default_factory=list)  # t, dx, dy

    def position(self, t: float) -> tuple[float, float] | None:
        at = self._position(t)
        if at is None:
            return None
        for t0, dx, dy in self.shifts:
            u = min(max((t - t0) / 0.25, 0.0), 1.0)  # a nudge takes a quarter second
            at = (at[0] + dx * u, at[1] + dy * u)
        return at

    def _position(self, t: float) -> tuple[float, float] | None:
        if t < self.t_in or t >= self.t_out + 0.5:
            return None
        ax, ay = AXIS[self.seat]
        start = (0.5 + ax * 0.55, 0.5 + ay * 0.55)
        if t < self.t_rest:
            u = (t - self.t_in) / max(self.t_rest - self.t_in, 1e-9)
            u = u * u * (3 - 2 * u)
            return (start[0] + (self.rest[0] - start[0]) * u,
                    start[1] + (self.rest[1] - start[1]) * u)
        if t < self.t_out:
            return self.rest
        target = self.out_to or start
        u = (t - self.t_out) / 0.5
        return (self.rest[0] + (target[0] - self.rest[0]) * u,
                self.rest[1] + (target[1] - self.rest[1]) * u)


class Stage:
    """A table scene over time, turned into per-frame detections."""

    def __init__(self, view: str = "overhead", size: tuple[int, int] = (480, 480),
                 fps: float = 12.0, seed: int = 0) -> None:
        self.view, self.size, self.fps, self.seed = view, size, fps, seed
        self.calibration = Calibration.default(view, size)
        self.cards: list[Placed] = []
        self.hidden: list[tuple[float, float, str | None]] = []  # t0, t1, seat (None: all)
        self.glares: list[tuple[float, float, str]] = []  # t0, t1, card
        self.extra: list[tuple[float, float, str, tuple[float, float], float]] = []
        self.rng = np.random.default_rng(seed)
        self.end = 0.0

    def play(self, seat: str, card: str, t: float, slide: float = 0.6,
             lateral: float = 0.0, depth: float = 0.22) -> Placed:
        ax, ay = AXIS[seat]
        lx, ly = -ay, ax
        rest = (0.5 + ax * depth + lx * lateral, 0.5 + ay * depth + ly * lateral)
        placed = Placed(seat, card, t, t + slide, rest)
        self.cards.append(placed)
        self.end = max(self.end, t + slide + 1.0)
        return placed

    def nudge(self, placed: Placed, t: float, dx: float, dy: float) -> None:
        placed.shifts.append((t, dx, dy))

    def take_back(self, placed: Placed, t: float) -> None:
        placed.t_out = t

    def gather(self, cards: list[Placed], t: float, winner: str) -> float:
        """Sweep the trick toward the winner; it turns face down (no more boxes) at +1.2 s."""
        ax, ay = AXIS[winner]
        for p in cards:
            p.t_out = t
            p.out_to = (0.5 + ax * 0.45, 0.5 + ay * 0.45)
        self.end = max(self.end, t + 3.0)
        return t + 1.2

    def hide(self, t0: float, t1: float, seat: str | None = None) -> None:
        """A hand or arm covers a seat's card (or, with no seat, every card)."""
        self.hidden.append((t0, t1, seat))

    def glare(self, t0: float, t1: float, card: str) -> None:
        self.glares.append((t0, t1, card))

    def box(self, t0: float, t1: float, label: str, at: tuple[float, float],
            confidence: float = 0.8) -> None:
        """A lone box (a stray card, a score marker) shown between t0 and t1."""
        self.extra.append((t0, t1, label, at, confidence))
        self.end = max(self.end, t1 + 0.5)

    # -- output
    def _corner_boxes(self, p: Placed, at: tuple[float, float], t: float) -> list[dict[str, Any]]:
        ax, ay = AXIS[p.seat]
        lx, ly = -ay, ax
        # the index corners lie along the card's diagonal, about 4 cm apart
        offsets = [(-0.030, -0.045), (0.030, 0.045)]
        label = p.card
        for t0, t1, other, share in p.labels:
            if t0 <= t < t1 and self.rng.random() < share:
                label = other
        out = []
        for u, v in offsets:
            x = at[0] + lx * u + ax * v
            y = at[1] + ly * u + ay * v
            cx, cy = self.calibration.to_image([(x, y)])[0]
            out.append({"card": label, "box": [cx - 5, cy - 7, cx + 5, cy + 7],
                        "confidence": p.confidence})
        return out

    def truth(self) -> list[tuple[float, list[dict[str, Any]]]]:
        frames = []
        for i in range(int(self.end * self.fps) + 1):
            t = i / self.fps
            boxes: list[dict[str, Any]] = []
            for p in self.cards:
                at = p.position(t)
                if at is None:
                    continue
                if any(t0 <= t < t1 and (seat is None or seat == p.seat)
                       for t0, t1, seat in self.hidden):
                    continue
                if any(t0 <= t < t1 and card == p.card for t0, t1, card in self.glares):
                    continue
                boxes += self._corner_boxes(p, at, t)
            for t0, t1, label, at, conf in self.extra:
                if t0 <= t < t1:
                    cx, cy = self.calibration.to_image([at])[0]
                    boxes.append({"card": label, "box": [cx - 5, cy - 7, cx + 5, cy + 7],
                                  "confidence": conf})
            frames.append((t, boxes))
        return frames

    def stream(self, noise: OracleNoise | None = None) -> list[dict[str, Any]]:
        """Per-frame detections in the recorded-stream shape, noise from the oracle."""
        truth = self.truth()
        noisy = noisify([b for _t, b in truth], np.random.default_rng(self.seed + 1), self.size,
                        noise or OracleNoise.level("typical"))
        frames = []
        for (t, boxes), dets in zip(truth, noisy, strict=True):
            fixed = [b for b in boxes if b.get("confidence") is not None]
            # boxes with a fixed confidence (a hard-to-read card) keep it
            for d in dets:
                match = next((b for b in fixed if b["card"] == d["card"]
                              and abs(b["box"][0] - d["box"][0]) < 8), None)
                if match is not None:
                    lo, hi = match["confidence"] if isinstance(match["confidence"], tuple) \
                        else (match["confidence"], match["confidence"])
                    d["confidence"] = round(float(self.rng.uniform(lo, hi)), 3)
            frames.append({"t": round(t, 4), "detections": [
                [d["card"], d["confidence"], *[round(v, 1) for v in d["box"]]] for d in dets]})
        return frames

    def fixture(self, name: str, about: str, play: dict[str, Any], expect: dict[str, Any],
                noise: OracleNoise | None = None) -> dict[str, Any]:
        return {"name": name, "about": about, "view": self.view, "size": list(self.size),
                "fps": self.fps, "play": play, "expect": expect,
                "frames": self.stream(noise)}


def trick(stage: Stage, plays: list[tuple[str, str]], start: float, gap: float = 1.2,
          winner: str | None = None, gather_after: float = 1.0) -> tuple[list[Placed], float]:
    """Play a trick seat by seat and gather it; returns the cards and the next free time."""
    placed = []
    t = start
    for seat, card in plays:
        placed.append(stage.play(seat, card, t))
        t += gap
    t_gather = t + gather_after
    stage.gather(placed, t_gather, winner or plays[0][0])
    return placed, t_gather + 2.6
