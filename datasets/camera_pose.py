"""A camera standing off its view's default place, for rendered hands.

Why: a kiosk with no calibration reads seats from the view's default table corners
(``kiosk.vision.camera.calibration.TABLET_CORNERS``), and the renderer only jitters those by
3 % of the frame, so a benchmark never sees a tablet on its stand a little off to one
side, nearer or farther, turned a few degrees, the table not centred. A pose moves the
rendered table's corners after the renderer's own draws, so a hand rendered without
one is exactly the hand it always was.

The pose acts on the corners as shares of the frame: ``scale`` (nearer > 1, farther
< 1) and ``turn`` (degrees, clockwise in the picture) about the frame's centre, as
zooming and rolling a camera do, then ``shift`` (shares of the frame's width and
height) as panning and tilting it roughly do.

>>> pose = CameraPose.parse("x=0.08,turn=6")
>>> pose, pose.tag
(CameraPose(shift=(0.08, 0.0), scale=1.0, turn=6.0), 'x0.08-t6')
>>> [round(float(v), 3) for v in pose.place(np.array([[0.5, 0.5], [1.0, 0.5]]))[1]]
[1.077, 0.552]
>>> CameraPose.parse("random", rng=np.random.default_rng(0)).tag
'x0.022-y-0.037-s0.908-t-5.802'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: the reach of ``random``: shift (share of the frame), scale (either way), turn (degrees)
RANDOM_SHIFT, RANDOM_SCALE, RANDOM_TURN = 0.08, 0.1, 6.0


class PoseError(ValueError):
    """A pose that cannot be read; the message says why."""


@dataclass(frozen=True)
class CameraPose:
    """How the camera stands off its view's default place (see the module's docstring)."""

    shift: tuple[float, float] = (0.0, 0.0)
    scale: float = 1.0
    turn: float = 0.0

    def place(self, corners: np.ndarray, aspect: float = 1.0) -> np.ndarray:
        """Corners (n x 2, shares of the frame) as this camera sees them, in a frame
        ``aspect`` times as wide as it is high (the turn is a true one in pixels)."""
        a = math.radians(self.turn)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        stretch = np.array([aspect, 1.0])
        centred = (np.asarray(corners, dtype=np.float64) - 0.5) * stretch * self.scale
        placed: np.ndarray = (centred @ rot.T) / stretch + 0.5 + np.asarray(self.shift)
        return placed

    @property
    def tag(self) -> str:
        """A short name for file names: only what differs from the default place."""
        parts = [f"{key}{_short(value)}" for key, value, default in (
            ("x", self.shift[0], 0.0), ("y", self.shift[1], 0.0), ("s", self.scale, 1.0),
            ("t", self.turn, 0.0)) if value != default]
        return "-".join(parts) or "default"

    @classmethod
    def parse(cls, text: str, rng: np.random.Generator | None = None) -> CameraPose:
        """``x=0.08,y=-0.05,scale=1.1,turn=6`` (any of them), or ``random``: drawn from
        ``rng`` within ``RANDOM_*`` (a tablet on a stand a little off, every way at once)."""
        if text.strip() == "random":
            if rng is None:
                raise PoseError("a random pose needs a random generator")
            x, y = rng.uniform(-RANDOM_SHIFT, RANDOM_SHIFT, size=2)
            return cls(shift=(_round(x), _round(y)),
                       scale=_round(1 + rng.uniform(-RANDOM_SCALE, RANDOM_SCALE)),
                       turn=_round(rng.uniform(-RANDOM_TURN, RANDOM_TURN)))
        values = {"x": 0.0, "y": 0.0, "scale": 1.0, "turn": 0.0}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            if key.strip() not in values:
                raise PoseError(f"unknown pose part {key!r} (x, y, scale, turn or random)")
            try:
                values[key.strip()] = float(value)
            except ValueError as problem:
                raise PoseError(f"pose part {part!r} is not a number") from problem
        if values["scale"] <= 0:
            raise PoseError("a pose's scale must be above 0")
        return cls(shift=(values["x"], values["y"]), scale=values["scale"],
                   turn=values["turn"])


def _round(value: float) -> float:
    return round(float(value), 3)


def _short(value: float) -> str:
    return f"{value:g}"
