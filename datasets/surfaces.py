"""Procedural table surfaces: felt, wood grain, laminate, cloth weave, patterned tablecloths.

Why procedural: no photo library is needed, every texture is reproducible from the
random generator, and the variety (colour, scale, pattern) is what teaches the detector
to ignore the table. Each function returns an RGB float32 image in 0..255.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Rng = np.random.Generator


def _noise(size: int, scale: float, rng: Rng) -> np.ndarray:
    """Smooth value noise in 0..1: random values on a coarse grid, resized up."""
    cells = max(2, int(size / max(scale, 1.0)))
    small = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _colour(rng: Rng, lo: int = 0, hi: int = 255) -> np.ndarray:
    return rng.uniform(lo, hi, size=3).astype(np.float32)


def felt(size: int, rng: Rng) -> np.ndarray:
    """Card-table felt: one saturated colour with fine fibre noise."""
    base = rng.choice(
        np.array([[30, 110, 50], [20, 60, 120], [120, 25, 30], [40, 40, 40], [90, 30, 90]])
    ).astype(np.float32) + rng.uniform(-25, 25, 3).astype(np.float32)
    fibre = rng.normal(0, 1, (size, size)).astype(np.float32)
    fibre = cv2.GaussianBlur(fibre, (0, 0), 0.8) * rng.uniform(6, 16)
    mottle = (_noise(size, size / 6, rng) - 0.5) * rng.uniform(10, 30)
    return np.asarray(base + (fibre + mottle)[:, :, None])


def wood(size: int, rng: Rng) -> np.ndarray:
    """Wood grain: warped rings along one direction, light or dark stain."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
    angle = rng.uniform(0, np.pi)
    u = x * np.cos(angle) + y * np.sin(angle)
    warp = _noise(size, size / 3, rng) * rng.uniform(1.5, 4.0)
    rings = np.sin((u * rng.uniform(15, 60) + warp) * 2 * np.pi) * 0.5 + 0.5
    streaks = _noise(size, rng.uniform(2, 6), rng)
    light = _colour(rng, 90, 230) * np.array([1.0, 0.75, 0.5], np.float32)
    dark = light * rng.uniform(0.45, 0.75)
    t = (0.7 * rings + 0.3 * streaks)[:, :, None]
    return np.asarray(dark + (light - dark) * t)


def laminate(size: int, rng: Rng) -> np.ndarray:
    """Plain laminate or painted surface with a faint speckle."""
    base = _colour(rng, 40, 250)
    speckle = rng.normal(0, rng.uniform(2, 8), (size, size)).astype(np.float32)
    return base + speckle[:, :, None]


def cloth(size: int, rng: Rng) -> np.ndarray:
    """Woven cloth: a fine crossing thread pattern."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(2.5, 7)
    weave = np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)
    base = _colour(rng, 30, 230)
    return np.asarray(base + (weave * rng.uniform(8, 25))[:, :, None])


def tablecloth(size: int, rng: Rng) -> np.ndarray:
    """Patterned tablecloth: gingham, stripes, polka dots or a checkerboard."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    a, b = _colour(rng), _colour(rng)
    period = rng.uniform(12, 70)
    kind = rng.integers(4)
    if kind == 0:  # gingham: mix of two stripe directions
        t = (((x // period) % 2) + ((y // period) % 2)) / 2
    elif kind == 1:  # stripes at an angle
        angle = rng.uniform(0, np.pi)
        t = ((x * np.cos(angle) + y * np.sin(angle)) // period) % 2
    elif kind == 2:  # polka dots
        cx, cy = (x % period) - period / 2, (y % period) - period / 2
        t = (cx**2 + cy**2 < (period * rng.uniform(0.15, 0.35)) ** 2).astype(np.float32)
    else:  # checkerboard
        t = ((x // period + y // period) % 2).astype(np.float32)
    t = cv2.GaussianBlur(t.astype(np.float32), (0, 0), 0.7)[:, :, None]
    return np.asarray(a + (b - a) * t)


SURFACES: dict[str, Callable[[int, Rng], np.ndarray]] = {
    "felt": felt,
    "wood": wood,
    "laminate": laminate,
    "cloth": cloth,
    "tablecloth": tablecloth,
}


def random_surface(size: int, rng: Rng) -> np.ndarray:
    """A square table surface of a random kind, RGB float32."""
    name = list(SURFACES)[rng.integers(len(SURFACES))]
    return np.asarray(np.clip(SURFACES[name](size, rng), 0, 255).astype(np.float32))
