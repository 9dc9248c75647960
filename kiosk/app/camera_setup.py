"""The calibration screen's logic, without Kivy: find the mat, or four taps, then save.

Why: the trick reader puts a card in a seat by where it lies in the picture,
so each table's camera must be calibrated once (kiosk.vision.camera.calibration).
The printed mat's ArUco markers give it in one tap ("Find the mat"); without
the mat, the players tap the play area's four corners in the picture (North-
West, North-East, South-East, South-West). The seat zones are then drawn over
the picture so the players can check them before saving; the calibration is
kept per table (kiosk.table.calibration) and checked against the picture each
time the screen opens, so a camera knocked aside is noticed.

Coordinates here are the picture's own pixels (x right, y down); the screen
converts touches to them and draws what `view()` returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.table.calibration import calibration_path, load_for_table, save_for_table

CORNERS = ("North-West", "North-East", "South-East", "South-West")
Point = tuple[float, float]


@dataclass(frozen=True)
class CalibrationView:
    status: str  # what to do now, in plain words
    image_size: tuple[int, int] | None  # None: no picture yet
    taps: tuple[Point, ...]
    zones: dict[str, tuple[Point, ...]]  # seat -> outline in picture pixels
    can_save: bool
    warning: str  # the camera moved, or the mat was not found
    #: what to change about the camera for the cards to read (kiosk.vision.camera.camera_check)
    advice: tuple[str, ...] = ()


class CameraSetup:
    """One table's calibration in the making."""

    def __init__(self, session: Any, view: str = "overhead",
                 on_change: Callable[[], None] | None = None) -> None:
        self.session = session
        self.camera_view = view
        self.on_change = on_change or (lambda: None)
        #: told of each saved calibration (the camera's reader switches to it)
        self.on_saved: Callable[[Any], None] | None = None
        self.frame: Any = None  # the latest camera picture (BGR numpy), set by the app
        self.taps: list[Point] = []
        self.pending: Any = None  # a calibration made here, not saved yet
        self.saved: Any = None
        self.warning = ""
        self.note = ""
        #: the card detector, where the kiosk has one: the picture is checked with it
        self.detector: Any = None
        self.advice: tuple[str, ...] = ()

    def check_picture(self) -> None:
        """Measure the picture with the cards the detector finds in it: too small, blurred,
        dark or washed out is said in plain words (kiosk.vision.camera.camera_check). Nothing
        without a detector or a picture."""
        if self.detector is None or self.frame is None:
            self.advice = ()
            return
        from kiosk.vision.camera.camera_check import check_picture
        from kiosk.vision.cards.detector import FACE_DOWN

        found = [d.box for d in self.detector.detect(self.frame) if d.card != FACE_DOWN]
        self.advice = check_picture(self.frame, found).advice

    def opened(self) -> None:
        """The screen opened: load this table's calibration and check the camera with it."""
        self.taps, self.pending, self.note = [], None, ""
        self.saved = load_for_table(self.session)
        self.warning = ""
        if self.saved is not None and self.frame is not None:
            check = self.saved.check(self.frame)
            if check.moved:
                self.warning = f"Careful: {check.message}."
        self.check_picture()
        self.on_change()

    def view(self) -> CalibrationView:
        size = None
        if self.frame is not None:
            h, w = self.frame.shape[:2]
            size = (int(w), int(h))
        shown = self.pending or self.saved
        zones: dict[str, tuple[Point, ...]] = {}
        if shown is not None and size is not None:
            if tuple(shown.image_size) != size:
                shown = shown.scaled(size)
            zones = {seat: tuple((float(x), float(y)) for x, y in outline)
                     for seat, outline in shown.zone_outlines().items()}
        if size is None:
            status = "No camera picture yet: is the camera connected?"
        elif self.note:
            status = self.note
        elif len(self.taps) < 4 and (self.taps or shown is None):
            status = (f"Tap the {CORNERS[len(self.taps)]} corner of the play area "
                      f"({len(self.taps) + 1} of 4), or tap 'Find the mat'.")
        elif self.pending is not None:
            status = "Check that each seat's zone is where its player puts cards, then Save."
        else:
            status = ("This table's saved calibration: each seat's zone is drawn. Tap the "
                      "corners again or 'Find the mat' to change it.")
        return CalibrationView(status=status, image_size=size, taps=tuple(self.taps),
                               zones=zones, can_save=self.pending is not None,
                               warning=self.warning, advice=self.advice)

    def tap(self, x: float, y: float) -> None:
        """A tap on the picture at pixel (x, y): the next corner."""
        if self.frame is None:
            return
        if len(self.taps) >= 4:
            self.taps = []
        self.taps.append((float(x), float(y)))
        self.note = ""
        if len(self.taps) == 4:
            from kiosk.vision.camera.calibration import Calibration, CalibrationError

            h, w = self.frame.shape[:2]
            try:
                self.pending = Calibration.from_corners(self.taps, (w, h),
                                                        view=self.camera_view)
            except (CalibrationError, ValueError, ArithmeticError) as problem:
                self.note = f"Those four corners do not make a table ({problem}): tap again."
                self.taps = []
        self.on_change()

    def find_mat(self) -> None:
        """Look for the printed mat's four markers in the picture."""
        from kiosk.vision.camera.calibration import Calibration, CalibrationError

        if self.frame is None:
            return
        try:
            self.pending = Calibration.from_image(self.frame, view=self.camera_view)
            self.taps, self.warning = [], ""
            self.note = "Found the mat. Check each seat's zone, then Save."
        except CalibrationError as problem:
            self.note = f"The mat was not found: {problem}. Tap the four corners instead."
        self.on_change()

    def save(self) -> str:
        """Keep the new calibration for this table; returns the file it went to."""
        if self.pending is None:
            return ""
        path = save_for_table(self.session, self.pending)
        if self.on_saved is not None:
            self.on_saved(self.pending)
        self.saved, self.pending, self.taps, self.warning = self.pending, None, [], ""
        self.note = f"Saved for table {self.session.setup.table}. The camera reads with it."
        self.on_change()
        return str(path)

    @property
    def path(self) -> str:
        where = calibration_path(self.session)
        return "" if where is None else str(where)
