"""Camera and lighting effects: gradients, glare, shadows, colour cast, blur, noise, JPEG.

Synthetic-only detectors are known to fail on real photos; the cure that costs nothing
is to make the synthetic pictures harder than real ones. Every effect here is drawn at
random strength and applied to an RGB float32 image in 0..255.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import cv2
import numpy as np

Rng = np.random.Generator


def light_gradient(img: np.ndarray, rng: Rng) -> np.ndarray:
    """Uneven room light: brightness falling off linearly across the picture."""
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    t = (x * np.cos(angle) + y * np.sin(angle)) / max(h, w)
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    lo = rng.uniform(0.45, 0.95)
    return np.asarray(img * (lo + (1.0 - lo) * t)[:, :, None])


def glare(img: np.ndarray, rng: Rng) -> np.ndarray:
    """A soft bright spot, as a lamp reflected in glossy cards."""
    h, w = img.shape[:2]
    mask: np.ndarray = np.zeros((h, w), np.float32)
    centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    axes = (int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.03, 0.2) * h))
    cv2.ellipse(mask, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(axes) * 0.5 + 1)
    strength = rng.uniform(60, 200)
    return np.asarray(img + (mask * strength)[:, :, None])


def shadow(img: np.ndarray, rng: Rng) -> np.ndarray:
    """A soft dark polygon: the shadow of a head, arm or the tablet."""
    h, w = img.shape[:2]
    mask: np.ndarray = np.zeros((h, w), np.float32)
    pts = rng.uniform(-0.2, 1.2, size=(int(rng.integers(3, 7)), 2)) * (w, h)
    cv2.fillPoly(mask, [pts.astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(5, 30))
    return np.asarray(img * (1.0 - mask * rng.uniform(0.2, 0.6))[:, :, None])


def colour_cast(img: np.ndarray, rng: Rng) -> np.ndarray:
    """White balance, contrast, saturation and gamma of a cheap camera, or grey scale."""
    out: np.ndarray
    if rng.random() < 0.12:
        grey = img @ np.array([0.299, 0.587, 0.114], np.float32)
        out = np.repeat(grey[:, :, None], 3, axis=2)
    else:
        out = img * rng.uniform(0.75, 1.25, size=3).astype(np.float32)
        grey = out.mean(axis=2, keepdims=True)
        out = grey + (out - grey) * rng.uniform(0.5, 1.4)
    mean = out.mean()
    out = mean + (out - mean) * rng.uniform(0.6, 1.3) + rng.uniform(-40, 40)
    gamma = rng.uniform(0.7, 1.4)
    return np.asarray(255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma)


def blur(img: np.ndarray, rng: Rng) -> np.ndarray:
    """Defocus or motion blur."""
    if rng.random() < 0.6:
        return np.asarray(cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6)))
    length = int(rng.integers(3, 8))
    kernel: np.ndarray = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    kernel = (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32)
    return np.asarray(cv2.filter2D(img, -1, kernel))


#: the range of the sensor noise's strength, drawn first by :func:`sensor_noise`
#: (``lab/naming_bound.py`` reads the draw to know how much a picture's noise hides)
NOISE_SIGMA = (2.0, 14.0)


def sensor_noise(img: np.ndarray, rng: Rng) -> np.ndarray:
    """Gaussian read noise plus a little brightness-dependent shot noise."""
    sigma = rng.uniform(*NOISE_SIGMA)
    noise = rng.normal(0, 1, img.shape).astype(np.float32)
    return np.asarray(img + noise * (sigma * (0.5 + img / 510.0)))


def jpeg(img_u8: np.ndarray, rng: Rng) -> np.ndarray:
    """Round-trip through JPEG at a random quality (blocking and ringing artefacts)."""
    quality = int(rng.integers(25, 90))
    ok, buf = cv2.imencode(".jpg", img_u8, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED) if ok else None
    return img_u8 if decoded is None else np.asarray(decoded)


#: the camera's effects by name, in the order :func:`camera` applies them
EFFECTS = ("light", "shadow", "glare", "colour", "blur", "noise", "jpeg")


def check_effects(names: Collection[str]) -> None:
    """Raise ValueError naming the first of ``names`` that is not one of :data:`EFFECTS`."""
    unknown = sorted(set(names) - set(EFFECTS))
    if unknown:
        raise ValueError(f"unknown camera effect {unknown[0]!r} ({', '.join(EFFECTS)})")


def camera(img: np.ndarray, rng: Rng, without: Collection[str] = ()) -> np.ndarray:
    """Every effect above, each with its own probability; returns uint8 RGB.

    ``without`` names effects (:data:`EFFECTS`) to leave out. Their random draws are
    still made, so every other effect comes out exactly as it would have: the
    difference is what the effects left out cost a reader of the picture
    (``models/evaluate.py --without``).
    """
    check_effects(without)

    def apply(name: str, effect: Callable[[np.ndarray, Rng], np.ndarray],
              image: np.ndarray) -> np.ndarray:
        done = effect(image, rng)
        return image if name in without else done

    if rng.random() < 0.7:
        img = apply("light", light_gradient, img)
    if rng.random() < 0.4:
        img = apply("shadow", shadow, img)
    if rng.random() < 0.3:
        img = apply("glare", glare, img)
    img = apply("colour", colour_cast, img)
    if rng.random() < 0.6:
        img = apply("blur", blur, img)
    if rng.random() < 0.8:
        img = apply("noise", sensor_noise, img)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        out = apply("jpeg", jpeg, out)
    return out
