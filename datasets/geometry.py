"""Placing cards on a flat table and looking at it from a camera.

A scene is drawn on a flat "table canvas" (what a camera straight overhead would see),
then one homography takes the canvas to the camera picture: a near-identity for the
overhead view, a trapezoid for a tablet standing at the table's edge. Keeping every
placement an affine matrix on the flat table keeps the label geometry exact: a corner
index box is four points, moved by the card's matrix, then by the view.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

Box = tuple[float, float, float, float]


def card_matrix(
    card_size: tuple[int, int], center: tuple[float, float], width: float, angle_deg: float
) -> np.ndarray:
    """2x3 affine matrix taking card-image pixels to canvas pixels.

    The card (``card_size`` = (w, h) of its image) is scaled to ``width`` canvas pixels,
    turned by ``angle_deg`` (counter-clockwise on screen) about its centre, and centred at
    ``center``.
    """
    w, h = card_size
    s = width / w
    a = math.radians(angle_deg)
    c, si = math.cos(a) * s, math.sin(a) * s
    # rotate about the card centre, y axis pointing down
    rot = np.array([[c, si], [-si, c]])
    offset = np.array(center) - rot @ np.array([w / 2, h / 2])
    return np.hstack([rot, offset[:, None]])


def transform_points(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 2x3 affine or 3x3 projective matrix to an (N, 2) array of points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    m = np.asarray(matrix, dtype=np.float64)
    if m.shape == (2, 3):
        return pts @ m[:, :2].T + m[:, 2]
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ m.T
    return homog[:, :2] / homog[:, 2:3]


def box_corners(box: Box) -> np.ndarray:
    """The four corners of an axis-aligned box, clockwise from top-left."""
    x1, y1, x2, y2 = box
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], dtype=np.float64)


def paste_rgba(canvas: np.ndarray, rgba: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Alpha-composite ``rgba`` onto the RGB float canvas (in place) through ``matrix``.

    Returns the pasted coverage (float 0..1, canvas-sized) so callers can update masks.
    """
    h, w = canvas.shape[:2]
    warped = cv2.warpAffine(
        rgba, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    canvas *= 1.0 - alpha
    canvas += warped[:, :, :3].astype(np.float32) * alpha
    return alpha[:, :, 0]


def view_homography(
    canvas_size: int, out_size: int, view: str, rng: np.random.Generator
) -> np.ndarray:
    """3x3 homography from the table canvas to the camera picture.

    ``overhead``: a square window of the canvas, slightly turned and skewed (a camera
    never hangs perfectly straight). ``oblique``: the canvas seen from a tablet at the
    near (bottom) edge: the far (top) side of the table is squeezed, the near side
    widened.
    """
    c = float(canvas_size)
    if view == "overhead":
        jitter = rng.uniform(-0.04, 0.04, size=(4, 2)) * c
        src = np.array([[0, 0], [c, 0], [c, c], [0, c]]) + jitter
    elif view == "oblique":
        inset = rng.uniform(0.12, 0.3) * c
        top = rng.uniform(0.0, 0.15) * c
        shift = rng.uniform(-0.08, 0.08) * c
        src = np.array(
            [[0, top], [c, top], [c - inset + shift, c], [inset + shift, c]], dtype=np.float64
        )
    else:
        raise ValueError(f"unknown view {view!r} (overhead or oblique)")
    dst = np.array([[0, 0], [out_size, 0], [out_size, out_size], [0, out_size]], dtype=np.float64)
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
