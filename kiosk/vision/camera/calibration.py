"""Where each seat's cards land in the picture: table calibration and seat zones.

Everything downstream of the detector works in *table coordinates*: the play
area seen from above as the unit square, North's edge at ``y = 0``, East's at
``x = 1``, South's at ``y = 1``, West's at ``x = 0`` (CONTRACTS: seats
clockwise). A calibration is one homography from picture pixels to that square,
so an overhead camera and a tablet standing at South's edge are the same code:
only the homography differs.

Three ways to get it, in the order a table tries them:

1. the printed play mat (``kiosk mat``): four ArUco markers at the mat's
   corners, found in the picture, give the homography exactly;
2. four taps on the screen at the play area's corners (NW, NE, SE, SW);
3. the default for the view (CONTRACTS ``read-video``): overhead, the picture
   is the table; tablet, a fixed trapezoid with North's side far away.

A calibration is saved per table as JSON and checked at start: if the markers
are no longer where they were, the camera moved and the kiosk says so instead
of reading cards into the wrong seats.

>>> cal = Calibration.default("overhead", (640, 480))
>>> [cal.zones.seat_at(p) for p in cal.to_table([(320, 100), (520, 240), (320, 380), (100, 240)])]
['N', 'E', 'S', 'W']
>>> cal.zones.seat_at(cal.to_table([(320, 240)])[0]) is None   # the very centre is no one's
True
>>> Calibration.from_json(cal.to_json()).to_json() == cal.to_json()
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.rules.cards import Seat

#: The picture views CONTRACTS names for ``read-video``.
VIEWS = ("overhead", "tablet")

#: ArUco dictionary of the printed mat; 4x4 bits are the easiest to find when small.
MAT_DICTIONARY = "DICT_4X4_50"
#: marker id -> table coordinates of the marker's centre on the mat (NW, NE, SE, SW).
#: Ids are distinct per corner so a mat that lies rotated is still read the right way up.
MAT_MARKERS: dict[int, tuple[float, float]] = {
    0: (0.05, 0.05),
    1: (0.95, 0.05),
    2: (0.95, 0.95),
    3: (0.05, 0.95),
}
#: marker side as a share of the mat side: small, so the markers stay out of the zones.
MAT_MARKER_SIZE = 0.07

#: Default tablet view: table corners NW, NE, SE, SW as shares of the picture size.
#: The near (South) edge runs along the bottom of the picture, the far edge is narrower.
TABLET_CORNERS: tuple[tuple[float, float], ...] = (
    (0.22, 0.08), (0.78, 0.08), (1.02, 0.98), (-0.02, 0.98),
)

#: A printed corner index's length in table units (about 2 cm on a 75 cm play area).
INDEX_UNITS = 0.027
#: Table units kept around the seat zones when looking at the play area (a card lying
#: across a zone's edge).
PLAY_AREA_MARGIN = 0.08

#: How far (pixels, as a share of the picture diagonal) markers may drift
#: before the camera counts as moved.
MOVED_TOLERANCE = 0.01


class CalibrationError(ValueError):
    """A calibration that cannot be made or read; the message says why."""


def _facing(dx: float, dy: float, across: bool) -> str:
    """The seat on the table's vertical axis (N, S: ``across`` the table from top to
    bottom) or its horizontal one (W, E) that an offset from the centre points to."""
    if across:
        return "N" if dy < 0 else "S"
    return "W" if dx < 0 else "E"


@dataclass(frozen=True)
class SeatZones:
    """The four seat zones in table coordinates.

    A card belongs to the seat whose edge is nearest to it as seen from the
    centre (the diagonals split the square), and only between ``inner`` and
    ``outer`` (Chebyshev distance from the centre): the very centre is
    ambiguous, and the band along the edges holds what is not played (the
    player's arms, the tricks taken, the score markers, the dealer's kitty).

    >>> z = SeatZones()
    >>> z.seat_at((0.5, 0.25)), z.seat_at((0.75, 0.55)), z.seat_at((0.5, 0.97))
    ('N', 'E', None)
    """

    inner: float = 0.04
    outer: float = 0.37

    def seat_at(self, point: Sequence[float]) -> str | None:
        dx, dy = float(point[0]) - 0.5, float(point[1]) - 0.5
        r = max(abs(dx), abs(dy))
        if not self.inner <= r <= self.outer:
            return None
        return _facing(dx, dy, across=abs(dy) >= abs(dx))

    def seat_across(self, point: Sequence[float], margin: float) -> str | None:
        """The neighbouring seat when ``point`` lies within ``margin`` of the diagonal
        between two zones (a card laid across the line: its corners say little of whose
        it is), else None.

        >>> z = SeatZones()
        >>> z.seat_across((0.62, 0.40), 0.04), z.seat_across((0.5, 0.25), 0.04)
        ('N', None)
        """
        seat = self.seat_at(point)
        dx, dy = float(point[0]) - 0.5, float(point[1]) - 0.5
        if seat is None or abs(abs(dx) - abs(dy)) > margin:
            return None
        return _facing(dx, dy, across=seat in ("W", "E"))

    def polygon(self, seat: Seat | str, steps: int = 1) -> np.ndarray:
        """The zone's outline in table coordinates (for drawing it)."""
        o, i = self.outer, self.inner
        # N zone as a trapezoid between the inner and outer squares, rotated per seat.
        base = np.array([(-o, -o), (o, -o), (i, -i), (-i, -i)], dtype=np.float64)
        # (quarter turns from North's, clockwise)
        turns = tuple(Seat).index(seat if isinstance(seat, Seat) else Seat.parse(seat))
        for _ in range(turns):
            base = np.stack([-base[:, 1], base[:, 0]], axis=1)
        return base + 0.5

    def to_json(self) -> dict[str, float]:
        return {"inner": self.inner, "outer": self.outer}


@dataclass(frozen=True)
class Calibration:
    """Picture pixels -> table coordinates, plus what is needed to check it later.

    ``homography`` maps homogeneous pixel coordinates to table coordinates.
    ``markers`` keeps the pixel centres of the mat markers seen when it was made
    (empty for taps and defaults), so ``check`` can tell a moved camera.
    """

    image_size: tuple[int, int]
    homography: np.ndarray
    view: str = "overhead"
    source: str = "default"
    markers: dict[int, tuple[float, float]] = field(default_factory=dict)
    zones: SeatZones = field(default_factory=SeatZones)

    # ---- making one -------------------------------------------------------------------
    @classmethod
    def default(cls, view: str, image_size: tuple[int, int]) -> Calibration:
        """CONTRACTS' seats from the picture's edges, for a camera nobody calibrated."""
        w, h = image_size
        if view == "overhead":
            corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        elif view == "tablet":
            corners = [(x * w, y * h) for x, y in TABLET_CORNERS]
        else:
            raise CalibrationError(f"unknown view {view!r} (choose overhead or tablet)")
        return cls.from_corners(corners, image_size, view=view, source="default")

    @classmethod
    def from_corners(
        cls, corners: Sequence[Sequence[float]], image_size: tuple[int, int],
        view: str = "overhead", source: str = "taps",
    ) -> Calibration:
        """The four-tap fallback: the play area's corners NW, NE, SE, SW in pixels."""
        pts = np.asarray(corners, dtype=np.float64)
        if pts.shape != (4, 2):
            raise CalibrationError("four corners are needed: NW, NE, SE, SW")
        target = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.float64)
        return cls(image_size=(int(image_size[0]), int(image_size[1])),
                   homography=_homography(pts, target), view=view, source=source)

    @classmethod
    def from_image(cls, image: np.ndarray, view: str = "overhead") -> Calibration:
        """Find the play mat's markers in a picture; CalibrationError if too few are seen."""
        found = find_marker_corners(image)
        known = {i: c for i, c in found.items() if i in MAT_MARKERS}
        if len(known) < 2:
            raise CalibrationError(
                f"found {len(known)} of the mat's 4 markers; is the whole mat in the picture?")
        # Every corner of every marker seen: two markers already give eight points.
        ids = sorted(known)
        src = np.concatenate([known[i] for i in ids])
        dst = np.concatenate([marker_corners(i) for i in ids])
        h, w = image.shape[:2]
        return cls(image_size=(w, h), homography=_homography(src, dst), view=view,
                   source="mat",
                   markers={i: (float(c[:, 0].mean()), float(c[:, 1].mean()))
                            for i, c in known.items()})

    # ---- using one --------------------------------------------------------------------
    def to_table(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Pixel points (n x 2) -> table coordinates (n x 2)."""
        return _apply(self.homography, np.asarray(points, dtype=np.float64).reshape(-1, 2))

    def to_image(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Table coordinates (n x 2) -> pixels (n x 2), for drawing zones."""
        inverse = np.linalg.inv(self.homography)
        return _apply(inverse, np.asarray(points, dtype=np.float64).reshape(-1, 2))

    def zone_outlines(self) -> dict[str, np.ndarray]:
        """Each seat's zone as a pixel polygon, for the calibration screen to draw."""
        return {str(seat): self.to_image(self.zones.polygon(seat)) for seat in Seat}

    def play_area_box(self, margin: float = PLAY_AREA_MARGIN) -> tuple[int, int, int, int]:
        """The pixel rectangle (x1, y1, x2, y2) around the seat zones plus ``margin`` table
        units (a card lying across a zone's edge): the only part of the picture where
        played cards count, so the detector need not look elsewhere."""
        reach = self.zones.outer + margin
        lo, hi = 0.5 - reach, 0.5 + reach
        corners = self.to_image([(lo, lo), (hi, lo), (hi, hi), (lo, hi)])
        w, h = self.image_size
        x1, y1 = np.floor(corners.min(axis=0)).astype(int)
        x2, y2 = np.ceil(corners.max(axis=0)).astype(int)
        return max(0, int(x1)), max(0, int(y1)), min(w, int(x2)), min(h, int(y2))

    def index_pixels(self) -> float:
        """How long a card's printed index (about 2 cm, ``INDEX_UNITS``) looks at the
        middle of the play area, in pixels: tells the detector how finely to look."""
        return INDEX_UNITS * self.pixels_per_unit((0.5, 0.5), INDEX_UNITS / 2)

    def pixels_per_unit(self, at: Sequence[float], step: float = 0.01) -> float:
        """Picture pixels per table unit at table point ``at``, along the direction the
        picture shrinks most (measured over ``step`` units either side)."""
        u, v = float(at[0]), float(at[1])
        down = self.to_image([(u, v - step), (u, v + step)])
        across = self.to_image([(u - step, v), (u + step, v)])
        shortest = min(np.linalg.norm(down[1] - down[0]), np.linalg.norm(across[1] - across[0]))
        return float(shortest) / (2 * step)

    def seat_at_pixel(self, x: float, y: float) -> str | None:
        return self.zones.seat_at(self.to_table([(x, y)])[0])

    def scaled(self, image_size: tuple[int, int]) -> Calibration:
        """The same table for a picture of another size (a camera's other resolution)."""
        sx = self.image_size[0] / image_size[0]
        sy = self.image_size[1] / image_size[1]
        scale = np.diag([sx, sy, 1.0])
        markers = {i: (x / sx, y / sy) for i, (x, y) in self.markers.items()}
        return Calibration(image_size=image_size, homography=self.homography @ scale,
                           view=self.view, source=self.source, markers=markers, zones=self.zones)

    def check(self, image: np.ndarray) -> CalibrationCheck:
        """Is the camera where it was? Only a mat calibration can tell; others say unknown."""
        if not self.markers:
            return CalibrationCheck(moved=None, shift=0.0, found=0,
                                    message="no markers saved: cannot check the camera")
        found = find_markers(image)
        h, w = image.shape[:2]
        if (w, h) != self.image_size:
            return self.scaled((w, h)).check(image)
        common = [i for i in self.markers if i in found]
        if len(common) < 2:
            return CalibrationCheck(moved=True, shift=float("inf"), found=len(common),
                                    message="the mat's markers are not in view: "
                                            "was the camera or the mat moved?")
        shift = max(float(np.hypot(found[i][0] - self.markers[i][0],
                                   found[i][1] - self.markers[i][1])) for i in common)
        tolerance = MOVED_TOLERANCE * float(np.hypot(w, h))
        moved = shift > tolerance
        message = (f"the camera or the mat moved ({shift:.0f} px): calibrate again"
                   if moved else "the camera is where it was")
        return CalibrationCheck(moved=moved, shift=shift, found=len(common), message=message)

    # ---- saving -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "image_size": list(self.image_size),
            "homography": [[float(v) for v in row] for row in self.homography],
            "view": self.view,
            "source": self.source,
            "markers": {str(i): list(c) for i, c in sorted(self.markers.items())},
            "zones": self.zones.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        try:
            h = np.asarray(data["homography"], dtype=np.float64)
            size = data["image_size"]
            zones = data.get("zones", {})
            return cls(
                image_size=(int(size[0]), int(size[1])), homography=h.reshape(3, 3),
                view=str(data.get("view", "overhead")), source=str(data.get("source", "taps")),
                markers={int(i): (float(c[0]), float(c[1]))
                         for i, c in data.get("markers", {}).items()},
                zones=SeatZones(inner=float(zones.get("inner", SeatZones.inner)),
                                outer=float(zones.get("outer", SeatZones.outer))),
            )
        except (KeyError, TypeError, ValueError) as problem:
            raise CalibrationError(f"not a table calibration: {problem}") from problem

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as problem:
            raise CalibrationError(f"cannot read calibration {path}: {problem}") from problem
        return cls.from_json(data)


@dataclass(frozen=True)
class CalibrationCheck:
    """The start-up check: ``moved`` is None when the calibration cannot be checked."""

    moved: bool | None
    shift: float
    found: int
    message: str


def draw_zones(image: np.ndarray, calibration: Calibration) -> np.ndarray:
    """A copy of the picture with the seat zones and their letters drawn on it, so the
    players can check that each card lands inside its own seat's zone."""
    import cv2

    out = image.copy()
    colours = {"N": (60, 60, 230), "E": (60, 200, 60), "S": (230, 120, 40), "W": (40, 200, 230)}
    for seat, poly in calibration.zone_outlines().items():
        cv2.polylines(out, [np.round(poly).astype(np.int32)], True, colours[seat], 2,
                      cv2.LINE_AA)
        cx, cy = poly.mean(axis=0)
        cv2.putText(out, seat, (int(cx) - 8, int(cy) + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                    colours[seat], 2, cv2.LINE_AA)
    return out


def find_marker_corners(image: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco markers of the mat's dictionary in a picture: id -> 4 x 2 pixel corners
    (top-left, top-right, bottom-right, bottom-left of the printed marker)."""
    import cv2  # OpenCV stays out of import time for tools that only load JSON

    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MAT_DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, params)
    corners, ids, _rejected = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(marker_id): np.asarray(quad, dtype=np.float64).reshape(4, 2)
            for quad, marker_id in zip(corners, ids.ravel(), strict=True)}


def find_markers(image: np.ndarray) -> dict[int, tuple[float, float]]:
    """ArUco markers of the mat's dictionary in a picture: id -> pixel centre."""
    return {i: (float(c[:, 0].mean()), float(c[:, 1].mean()))
            for i, c in find_marker_corners(image).items()}


def marker_corners(marker_id: int) -> np.ndarray:
    """The printed corners of a mat marker in table coordinates (TL, TR, BR, BL)."""
    cx, cy = MAT_MARKERS[marker_id]
    r = MAT_MARKER_SIZE / 2
    return np.array([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)])


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Least-squares homography (DLT) from >= 4 point pairs; numpy only."""
    if len(src) < 4:
        raise CalibrationError("at least four points are needed")
    # Hartley normalisation: pixel coordinates in the hundreds make the SVD ill-conditioned.
    mean = src.mean(axis=0)
    scale = np.sqrt(2.0) / max(float(np.mean(np.hypot(*(src - mean).T))), 1e-9)
    norm = np.array([[scale, 0, -scale * mean[0]], [0, scale, -scale * mean[1]], [0, 0, 1]])
    src = _apply(norm, src)
    rows = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    _, s, vt = np.linalg.svd(np.asarray(rows, dtype=np.float64))
    if s[-2] < 1e-9 * s[0]:
        raise CalibrationError("the corners are degenerate (three in a line?)")
    h: np.ndarray = vt[-1].reshape(3, 3) @ norm
    normalised: np.ndarray = h / h[2, 2]
    return normalised


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    homogeneous: np.ndarray = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    points: np.ndarray = homogeneous[:, :2] / homogeneous[:, 2:3]
    return points
