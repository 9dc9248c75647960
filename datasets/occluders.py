"""Hands and fingers drawn over the cards.

Players' fingers cover card corners while they play and pick up tricks; the detector
must still find the corner that shows, and must not call a covered index. A hand here is
a palm ellipse with a few finger capsules in a skin tone, softly shaded.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

Rng = np.random.Generator

_SKIN = np.array(
    [[255, 220, 190], [235, 190, 160], [200, 150, 110], [160, 110, 75], [110, 70, 45],
     [80, 50, 35]],
    dtype=np.float32,
)


def draw_hand(canvas: np.ndarray, rng: Rng, fingers_only: bool = False) -> np.ndarray:
    """Draw a hand (or just fingers) entering from a random edge; returns its mask (bool)."""
    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    scale = rng.uniform(0.07, 0.16) * w  # finger length
    edge = rng.integers(4)
    along = rng.uniform(0.1, 0.9)
    reach = rng.uniform(0.15, 0.55)
    if edge == 0:
        wrist, direction = (along * w, -0.1 * h), math.pi / 2
    elif edge == 1:
        wrist, direction = (1.1 * w, along * h), math.pi
    elif edge == 2:
        wrist, direction = (along * w, 1.1 * h), -math.pi / 2
    else:
        wrist, direction = (-0.1 * w, along * h), 0.0
    direction += rng.uniform(-0.6, 0.6)
    dx, dy = math.cos(direction), math.sin(direction)
    palm = (wrist[0] + dx * reach * w, wrist[1] + dy * reach * h)
    thickness = max(3, int(scale * rng.uniform(0.22, 0.32)))
    if not fingers_only:
        # the arm from the edge to the palm, and the palm itself
        cv2.line(mask, _pt(wrist), _pt(palm), 255, int(scale * 1.1))
        axes = (int(scale * 0.9), int(scale * 0.75))
        cv2.ellipse(mask, _pt(palm), axes, math.degrees(direction), 0, 360, 255, -1)
    count = int(rng.integers(1, 5)) if fingers_only else int(rng.integers(3, 6))
    spread = rng.uniform(0.2, 0.5)
    for k in range(count):
        a = direction + (k - (count - 1) / 2) * spread
        base = (palm[0] + math.cos(a) * scale * 0.6, palm[1] + math.sin(a) * scale * 0.6)
        length = scale * rng.uniform(0.7, 1.2)
        tip = (base[0] + math.cos(a) * length, base[1] + math.sin(a) * length)
        if fingers_only:
            base = palm
        cv2.line(mask, _pt(base), _pt(tip), 255, thickness)
        cv2.circle(mask, _pt(tip), thickness // 2, 255, -1)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.2)
    tone = _SKIN[rng.integers(len(_SKIN))] * rng.uniform(0.8, 1.1)
    shade = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), thickness) * 0.35 + 0.65
    colour = tone[None, None, :] * shade[:, :, None]
    alpha = soft[:, :, None]
    canvas *= 1.0 - alpha
    canvas += colour * alpha
    return soft > 0.5


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))
