"""Rendered videos of whole euchre hands, with the ground truth written beside them.

Why: the trick reader must be proven on what it will meet at a table (cards
slid in, hands passing over them, a card nudged or taken back, glare, tricks
gathered and turned face down) long before anyone films real hands. This tool
takes a hand record (CONTRACTS), scripts the physical play of it, and renders
it from an overhead camera or a tablet at South's edge.

It reuses the detector's scene code (``datasets.cards_art`` faces and corner
index boxes, ``datasets.surfaces``, ``datasets.photometric``), so the boxes it
writes are exactly the labels the detector was trained on, and it is
deterministic by seed.

Three layers, each usable alone:

- :func:`script_hand`: record -> :class:`Scene` (keyframed cards, hands, glare;
  the truth: when each card came to rest, when each trick was turned);
- :class:`SceneRenderer`: scene -> frame pictures and the visible corner boxes
  per frame (occluded or glared corners are left out);
- :func:`oracle_stream`: visible boxes + injected detector noise (missed boxes
  and frames, jitter, false boxes, mislabels) -> a detection stream, the same
  JSON shape as a recorded one.

Layout in *table coordinates* (the play area as the unit square, North at the
top) matches ``kiosk.vision.camera.calibration``: cards come to rest in their seat's
zone, trick piles and the 5s score markers lie in the band along the edges.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.camera_pose import CameraPose
from datasets.hand_script import (
    CARD_W,
    EUCHRE,
    MARGIN,
    VIEW_SIZES,
    Glare,
    Key,
    Rng,
    Scene,
    Track,
    Tricks,
    contract_of,
    random_hand,
    score_markers,
    script_hand,
)
from devtools.oracle import OracleNoise, noisify

__all__ = ["EUCHRE", "VIEW_SIZES", "Glare", "Key", "Look", "Scene", "SceneRenderer", "Track",
           "Tricks", "contract_of", "frame_times", "oracle_stream", "random_hand",
           "render_hand", "score_markers", "script_hand", "table_corners", "truth_of",
           "truth_path"]


# ---- the camera -------------------------------------------------------------------------
def table_corners(view: str, size: tuple[int, int], rng: Rng,
                  pose: CameraPose | None = None) -> np.ndarray:
    """Pixel positions of the table square's corners NW, NE, SE, SW for a camera;
    ``pose`` moves them after the draws (:mod:`datasets.camera_pose`), so a seed renders
    the same table without one."""
    w, h = size
    if view == "overhead":
        inset = rng.uniform(0.0, 0.05, size=(4, 2))
        base = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.float64)
        signs = np.array([(1, 1), (-1, 1), (-1, -1), (1, -1)])
        corners = base + signs * inset
    elif view == "tablet":
        from kiosk.vision.camera.calibration import TABLET_CORNERS

        corners = np.array(TABLET_CORNERS) + rng.uniform(-0.03, 0.03, size=(4, 2))
    else:
        raise ValueError(f"unknown view {view!r}")
    if pose is not None:
        corners = pose.place(corners, aspect=w / h)
    return corners * (w, h)


@dataclass(frozen=True)
class Look:
    """The light and camera of one video (kept for every frame of it)."""

    deck: str
    surface: str
    seed: int
    glare_strength: float
    blur: float
    noise: float


class SceneRenderer:
    """Draws a scene frame by frame and lists the corner boxes a perfect detector would see."""

    def __init__(self, scene: Scene, view: str, seed: int, size: tuple[int, int] | None = None,
                 mat: bool = False, deck: str | None = None,
                 pose: CameraPose | None = None) -> None:
        from datasets import cards_art, surfaces

        rng = np.random.default_rng(seed)
        self.scene, self.view = scene, view
        self.size = size or VIEW_SIZES[view]
        decks = cards_art.table_decks()
        if not decks:
            raise RuntimeError("no card decks installed (gnome-cards-data)")
        self.deck = deck or decks[int(rng.integers(len(decks)))]
        self.pose = pose
        self.corners = table_corners(view, self.size, rng, pose)
        w, h = self.size
        per_unit = max(float(np.linalg.norm(self.corners[2] - self.corners[3])),
                       float(np.linalg.norm(self.corners[1] - self.corners[2])))
        self.canvas_size = int(min(1100, max(400, per_unit * (1 + 2 * MARGIN))))
        cs = self.canvas_size
        self.px_per_unit = cs / (1 + 2 * MARGIN)
        table_to_frame = cv2.getPerspectiveTransform(
            np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32),
            self.corners.astype(np.float32))
        canvas_to_table = np.array([[1 / self.px_per_unit, 0, -MARGIN],
                                    [0, 1 / self.px_per_unit, -MARGIN], [0, 0, 1]])
        self.canvas_to_frame = table_to_frame @ canvas_to_table
        self.table_to_frame = table_to_frame
        surface_name = list(surfaces.SURFACES)[int(rng.integers(len(surfaces.SURFACES)))]
        self.background = np.clip(surfaces.SURFACES[surface_name](cs, rng), 0, 255).astype(
            np.float32)
        if mat:
            self._draw_mat()
        self.markers = score_markers(rng)
        self.look = Look(deck=self.deck, surface=surface_name, seed=seed,
                         glare_strength=float(rng.uniform(150, 260)),
                         blur=float(rng.uniform(0.4, 1.0)), noise=float(rng.uniform(1.5, 4)))
        self._light = self._lighting(rng)
        self._noise = [rng.normal(0, self.look.noise, (h, w, 3)).astype(np.float32)
                       for _ in range(5)]
        self._skin = np.array([[235, 190, 160], [200, 150, 110], [160, 110, 75],
                               [110, 70, 45]], np.float32)[int(rng.integers(4))]
        self._art: dict[str, np.ndarray] = {}

    # -- static parts
    def _draw_mat(self) -> None:
        from kiosk.vision.camera.mat import render_mat

        side = int(self.px_per_unit)
        mat = render_mat(side).astype(np.float32)[:, :, ::-1]  # BGR -> RGB
        o = int(round(MARGIN * self.px_per_unit))
        self.background[o:o + side, o:o + side] = mat[: self.canvas_size - o,
                                                      : self.canvas_size - o]

    def _lighting(self, rng: Rng) -> np.ndarray:
        from datasets import photometric

        w, h = self.size
        ones = np.ones((h, w, 3), np.float32) * 200.0
        lit = photometric.light_gradient(ones, rng) if rng.random() < 0.7 else ones
        if rng.random() < 0.4:
            lit = photometric.shadow(lit, rng)
        gain = lit / 200.0
        cast = rng.uniform(0.85, 1.15, size=3).astype(np.float32)
        return gain * cast * rng.uniform(0.7, 1.15)

    def _card_art(self, card: str) -> np.ndarray:
        if card not in self._art:
            from datasets import cards_art

            face = cards_art.load_card(self.deck, card)
            width = max(8, int(CARD_W * self.px_per_unit * 2))
            height = int(round(face.shape[0] * width / face.shape[1]))
            self._art[card] = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
        return self._art[card]

    # -- geometry
    def _card_matrix(self, art_size: tuple[int, int], key: Key) -> np.ndarray:
        """2x3 affine: card-art pixels -> canvas pixels for a card at ``key``."""
        w, h = art_size
        s = CARD_W * self.px_per_unit / w
        a = math.radians(key.angle)
        c, si = math.cos(a) * s, math.sin(a) * s
        rot = np.array([[c, si], [-si, c]])
        centre = np.array([(key.x + MARGIN) * self.px_per_unit,
                           (key.y + MARGIN) * self.px_per_unit])
        offset = centre - rot @ np.array([w / 2, h / 2])
        return np.hstack([rot, offset[:, None]])

    def state(self, t: float) -> tuple[list[tuple[Track, Key]], list[tuple[Track, Key]],
                                      list[Glare]]:
        cards = [(tr, k) for tr in self.markers + self.scene.cards
                 if (k := tr.at(t)) is not None]
        cards.sort(key=lambda item: item[0].z)
        hands = [(tr, k) for tr in self.scene.hands if (k := tr.at(t)) is not None]
        glares = [g for g in self.scene.glares if g.t0 <= t < g.t1]
        return cards, hands, glares

    def boxes(self, t: float) -> list[dict[str, Any]]:
        """Corner boxes visible at ``t`` in frame pixels: what a perfect detector reports."""
        from datasets import cards_art

        cards, hands, glares = self.state(t)
        out = []
        w, h = self.size
        polys = []
        for tr, key in cards:
            face = cards_art.load_card(self.deck, tr.card or "back")
            m = self._card_matrix((face.shape[1], face.shape[0]), key)
            polys.append(_transform(m, np.array([(0, 0), (face.shape[1], 0),
                                                 (face.shape[1], face.shape[0]),
                                                 (0, face.shape[0])], np.float64)))
        for i, (tr, key) in enumerate(cards):
            label = (tr.card or "back") if key.face_up else "back"
            face = cards_art.load_card(self.deck, tr.card or "back")
            m = self._card_matrix((face.shape[1], face.shape[0]), key)
            boxes = cards_art.index_boxes(self.deck, label) or _default_index_boxes(face.shape)
            for box in boxes:
                x1, y1, x2, y2 = box
                quad = _transform(m, np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)],
                                              np.float64))
                centre = quad.mean(axis=0)
                if label != "back" and any(_inside(centre, polys[j])
                                           for j in range(i + 1, len(cards))):
                    continue
                if label != "back" and any(_under_hand(centre, hk, self.px_per_unit)
                                           for _tr, hk in hands):
                    continue
                table_pt = centre / self.px_per_unit - MARGIN
                if label != "back" and any(math.dist(table_pt, (g.x, g.y)) < g.radius
                                           for g in glares):
                    continue
                fq = _transform(self.canvas_to_frame, quad)
                bx1, by1 = fq.min(axis=0)
                bx2, by2 = fq.max(axis=0)
                if bx1 < 0 or by1 < 0 or bx2 > w or by2 > h:
                    continue
                out.append({"card": label, "box": [round(float(v), 1)
                                                   for v in (bx1, by1, bx2, by2)]})
        return out

    def frame(self, t: float, index: int = 0) -> np.ndarray:
        """The picture at ``t`` (BGR uint8, as a camera gives it)."""
        cards, hands, glares = self.state(t)
        canvas = self.background.copy()
        for tr, key in cards:
            art = self._card_art(tr.card if key.face_up and tr.card else "back")
            _paste(canvas, art, self._card_matrix((art.shape[1], art.shape[0]), key))
        for _tr, key in hands:
            self._draw_hand(canvas, key)
        for g in glares:
            self._draw_glare(canvas, g)
        w, h = self.size
        img = cv2.warpPerspective(canvas, self.canvas_to_frame, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        img *= self._light
        img += self._noise[index % len(self._noise)]
        if self.look.blur > 0.3:  # after the noise: a camera's own denoising softens it too
            img = cv2.GaussianBlur(img, (0, 0), self.look.blur)
        picture: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)[:, :, ::-1].copy()
        return picture

    def _draw_hand(self, canvas: np.ndarray, key: Key) -> None:
        s = self.px_per_unit
        cs = self.canvas_size
        parts = _hand_parts(key)
        pts = np.array([p for a, b, _r in parts for p in (a, b)]) + MARGIN
        pad = max(r for _a, _b, r in parts) + 0.01
        x0, y0 = np.clip(((pts.min(axis=0) - pad) * s).astype(int), 0, cs)
        x1, y1 = np.clip(((pts.max(axis=0) + pad) * s).astype(int) + 1, 0, cs)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for (ax, ay), (bx, by), r in parts:
            p = (int((ax + MARGIN) * s) - x0, int((ay + MARGIN) * s) - y0)
            q = (int((bx + MARGIN) * s) - x0, int((by + MARGIN) * s) - y0)
            cv2.line(mask, p, q, 255, max(2, int(2 * r * s)))
            cv2.circle(mask, q, max(1, int(r * s)), 255, -1)
        alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.0)
        roi = canvas[y0:y1, x0:x1]
        shade = 0.75 + 0.25 * alpha
        roi *= 1 - alpha[:, :, None]
        roi += (self._skin[None, None, :] * shade[:, :, None]) * alpha[:, :, None]

    def _draw_glare(self, canvas: np.ndarray, g: Glare) -> None:
        s = self.px_per_unit
        r = int(g.radius * s * 1.6)
        cx, cy = int((g.x + MARGIN) * s), int((g.y + MARGIN) * s)
        y0, y1 = max(0, cy - r), min(canvas.shape[0], cy + r)
        x0, x1 = max(0, cx - r), min(canvas.shape[1], cx + r)
        if y1 <= y0 or x1 <= x0:
            return
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        d = np.hypot(xx - cx, yy - cy) / max(g.radius * s, 1)
        spot = np.clip(1.3 - d, 0, 1) ** 1.5
        canvas[y0:y1, x0:x1] += (spot * self.look.glare_strength)[:, :, None]


def _hand_parts(key: Key) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """Capsules (from, to, radius) in table units: arm, palm, fingers toward the centre.

    The arm comes in from the nearest table edge; the same shapes are drawn and
    tested for occlusion, so the truth and the picture agree.
    """
    px, py = key.x, key.y
    dx, dy = px - 0.5, py - 0.5
    if abs(dx) > abs(dy):
        wrist = (1.3 if dx > 0 else -0.3, py + dy * 0.2)
    else:
        wrist = (px + dx * 0.2, 1.3 if dy > 0 else -0.3)
    ux, uy = px - wrist[0], py - wrist[1]
    n = math.hypot(ux, uy) or 1.0
    ux, uy = ux / n, uy / n
    parts = [(wrist, (px, py), 0.045), ((px - ux * 0.02, py - uy * 0.02), (px, py), 0.05)]
    for k in range(4):
        a = math.atan2(uy, ux) + (k - 1.5) * 0.25
        tip = (px + math.cos(a) * 0.085, py + math.sin(a) * 0.085)
        parts.append(((px, py), tip, 0.011))
    return parts


def _under_hand(point_canvas: np.ndarray, key: Key, px_per_unit: float) -> bool:
    p = point_canvas / px_per_unit - MARGIN
    return any(_seg_dist(p, np.array(a), np.array(b)) < r for a, b, r in _hand_parts(key))


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    u = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-12), 0, 1))
    return float(np.linalg.norm(p - (a + u * ab)))


def _inside(point: np.ndarray, poly: np.ndarray) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32), (float(point[0]), float(point[1])),
                                False) > 0


def _transform(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    out: np.ndarray
    if m.shape == (2, 3):
        out = pts @ m[:, :2].T + m[:, 2]
        return out
    hom = np.hstack([pts, np.ones((len(pts), 1))]) @ m.T
    out = hom[:, :2] / hom[:, 2:3]
    return out


def _default_index_boxes(shape: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """Where a corner index usually is, for a face whose index the art loader could not find."""
    h, w = shape[:2]
    return ((int(0.03 * w), int(0.03 * h), int(0.17 * w), int(0.24 * h)),
            (int(0.83 * w), int(0.76 * h), int(0.97 * w), int(0.97 * h)))


def _paste(canvas: np.ndarray, rgba: np.ndarray, m: np.ndarray) -> None:
    """Alpha-composite an RGBA card through a 2x3 matrix, warping only its bounding box."""
    h, w = rgba.shape[:2]
    quad = _transform(m, np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64))
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shifted = m.copy()
    shifted[:, 2] -= (x0, y0)
    warped = cv2.warpAffine(rgba, shifted, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    roi = canvas[y0:y1, x0:x1]
    roi *= 1.0 - alpha
    roi += warped[:, :, :3].astype(np.float32) * alpha


# ---- detector noise (the oracle lives in the kiosk so ``read-video`` can use it) -----------
def oracle_stream(frames: Sequence[tuple[float, Sequence[dict[str, Any]]]], rng: Rng,
                  size: tuple[int, int], noise: OracleNoise | None = None
                  ) -> list[dict[str, Any]]:
    """Perfect per-frame boxes made imperfect: a detection stream with known failure rates."""
    noisy = noisify([boxes for _t, boxes in frames], rng, size, noise or OracleNoise())
    return [{"t": round(float(t), 4), "detections": dets}
            for (t, _boxes), dets in zip(frames, noisy, strict=True)]


# ---- whole videos -----------------------------------------------------------------------
#: added to a hand's seed for its kitty's draws, so the play keeps its own draws
KITTY_SEED = 104729


def frame_times(duration: float, fps: float) -> Iterator[float]:
    n = int(math.ceil(duration * fps))
    for i in range(n):
        yield i / fps


def truth_of(scene: Scene, renderer: SceneRenderer, fps: float, frames: list[Any]
             ) -> dict[str, Any]:
    """The ground truth JSON written beside a video."""
    return {
        "record": scene.record,
        "view": renderer.view,
        "fps": fps,
        "size": list(renderer.size),
        "seed": renderer.look.seed,
        "deck": renderer.deck,
        "surface": renderer.look.surface,
        "leader": scene.leader,
        "trump": scene.trump,
        "sitting_out": scene.sitting_out,
        "table_corners": [[round(float(v), 2) for v in p] for p in renderer.corners],
        "plays": scene.plays,
        "clears": scene.clears,
        "events": scene.events,
        "duration": round(scene.duration, 3),
        "frames": frames,
    }


def render_hand(record: dict[str, Any], out: str | Path | None, *, seed: int = 0,
                view: str = "overhead", fps: float = 12.0, size: tuple[int, int] | None = None,
                mat: bool = False, tricks: Tricks | None = None, pixels: bool = True,
                kitty: bool = False, deck: str | None = None, until: float | None = None,
                pose: CameraPose | None = None) -> dict[str, Any]:
    """Render a hand record to ``out`` (.mp4 or .avi) and write ``out`` + ``.truth.json``.

    With ``pixels=False`` only the truth (with its per-frame boxes) is made: the
    oracle benchmark needs no pictures. ``kitty`` puts the deal's kitty and the bidding
    before the play (:mod:`datasets.kitty`; the truth's ``kitty``); without it a seed
    renders as it always did. ``deck`` picks the card art; ``until`` stops the video
    after that many seconds; ``pose`` stands the camera off its view's default place
    (:mod:`datasets.camera_pose`; the truth's ``pose``). Returns the truth.
    """
    rng = np.random.default_rng(seed)
    scene = script_hand(record, rng, tricks or Tricks())
    kitty_truth = None
    if kitty:
        from datasets.kitty import add_kitty

        kitty_truth = add_kitty(scene, np.random.default_rng(seed + KITTY_SEED))
    renderer = SceneRenderer(scene, view, seed=seed + 7919, size=size, mat=mat, deck=deck,
                             pose=pose)
    writer = None
    if pixels and out is not None:
        out = Path(out)
        fourcc = cv2.VideoWriter.fourcc(*("MJPG" if out.suffix == ".avi" else "mp4v"))
        writer = cv2.VideoWriter(str(out), fourcc, fps, renderer.size)
        if not writer.isOpened():
            raise RuntimeError(f"cannot write video {out}")
    frames = []
    try:
        duration = scene.duration if until is None else min(until, scene.duration)
        for i, t in enumerate(frame_times(duration, fps)):
            frames.append(renderer.boxes(t))
            if writer is not None:
                writer.write(renderer.frame(t, i))
    finally:
        if writer is not None:
            writer.release()
    truth = truth_of(scene, renderer, fps, frames)
    if pose is not None:
        truth["pose"] = {"shift": list(pose.shift), "scale": pose.scale, "turn": pose.turn}
    if kitty_truth is not None:
        truth["kitty"] = kitty_truth.to_json()
    if out is not None:
        truth_path(out).write_text(json.dumps(truth, separators=(",", ":")) + "\n",
                                   encoding="utf-8")
    return truth


def truth_path(video: str | Path) -> Path:
    video = Path(video)
    return video.with_name(video.stem + ".truth.json")
