"""Printed card indices drawn from typefaces and suit outlines, not from any deck's art.

Why: the naming network learnt the training decks' look rather than the symbols' shapes
(a real deck left out of training loses 16-24 points of naming). A deck's index is a
rank glyph over a suit symbol; the rank is some typeface's letter or figure and the suit
is one of four outlines that every deck draws a little differently. Drawing indices from
hundreds of typefaces (Debian's font packages) and from many drawings of each suit
(the suit glyphs of the fonts that have them, and outlines drawn here with random
proportions) shows the network shapes in far more styles than twenty decks do, at the
cost of a few microseconds a patch, so two cores can draw millions.

Two steps, so the camera-patch drawing needs no fonts where it runs:

1. :func:`pack_masks` (where the fonts are): each usable typeface's rank glyphs and each
   suit glyph, as ink masks (grey, 0 paper .. 255 ink) of a fixed height, PNG-encoded.
2. :func:`compose` (anywhere): one card index from a rank mask and a suit (a font's or a
   drawn one), inked in the suit's colour on a card's paper, with the card's edge near
   it: an RGBA region and the index's box in it, in the form
   ``lab/episodic_features.region_patch`` turns into a camera patch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

#: the rank as printed, for each rank letter of the classes
PRINTED_RANK = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8",
                "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
#: the filled suit symbols (U+2660 spade, U+2663 club, U+2665 heart, U+2666 diamond)
SUIT_CHARS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666"}
#: glyph masks are rendered this tall (pixels) before cropping to their ink
RENDER_PX = 64
#: fonts whose names say they are no typeface for text (icons, math symbols, dingbats)
NOT_TEXT = ("symbol", "math", "dingbat", "emoji", "icon", "awesome", "music", "braille")
RED = ("H", "D")


def _characters(path: Path) -> set[int]:
    """The code points the font at ``path`` draws (none when fontTools cannot read it)."""
    from fontTools.ttLib import TTFont

    try:
        with TTFont(str(path), fontNumber=0, lazy=True) as font:
            return set(font.getBestCmap() or {})
    except Exception:  # a font file fontTools cannot read is simply not used
        return set()


def _ink_mask(path: Path, text: str) -> np.ndarray | None:
    """``text`` in the font at ``path``, cropped to its ink (None: no ink)."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.truetype(str(path), RENDER_PX)
    except OSError:
        return None
    canvas = Image.new("L", (RENDER_PX * 3, RENDER_PX * 2), 0)
    ImageDraw.Draw(canvas).text((RENDER_PX // 2, RENDER_PX // 3), text, fill=255, font=font)
    mask = np.asarray(canvas)
    ys, xs = np.nonzero(mask > 40)
    if len(ys) < 20:
        return None
    return mask[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].copy()


def font_files(roots: Sequence[Path] = (Path("/usr/share/fonts"),)) -> list[Path]:
    """Every TrueType/OpenType file under ``roots``, one per file name, sorted."""
    seen: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in (".ttf", ".otf") and path.name not in seen:
                seen[path.name] = path
    return [seen[k] for k in sorted(seen)]


def pack_masks(fonts: Sequence[Path]) -> dict[str, np.ndarray]:
    """The rank and suit ink masks of ``fonts``: PNG bytes concatenated (``*_png``) with
    each mask's end (``*_ends``), its rank letter or suit letter (``*_label``) and its
    font's number (``*_font``); the font names in ``fonts``."""
    blobs: dict[str, list[bytes]] = {"rank": [], "suit": []}
    labels: dict[str, list[str]] = {"rank": [], "suit": []}
    font_of: dict[str, list[int]] = {"rank": [], "suit": []}
    names: list[str] = []
    for path in fonts:
        lower = path.name.lower()
        if any(word in lower for word in NOT_TEXT):
            continue
        drawn = _characters(path)
        needs = {"rank": "0123456789AJQK", "suit": "".join(SUIT_CHARS.values())}
        kinds = [(kind, table) for kind, table in (("rank", PRINTED_RANK), ("suit", SUIT_CHARS))
                 if {ord(c) for c in needs[kind]} <= drawn]
        number = len(names)
        added = False
        for kind, table in kinds:
            masks = {label: _ink_mask(path, text) for label, text in table.items()}
            if any(m is None for m in masks.values()):
                continue
            for label, mask in masks.items():
                assert mask is not None
                ok, png = cv2.imencode(".png", mask, [cv2.IMWRITE_PNG_COMPRESSION, 9])
                if ok:
                    blobs[kind].append(png.tobytes())
                    labels[kind].append(label)
                    font_of[kind].append(number)
                    added = True
        if added:
            names.append(path.name)
    out: dict[str, np.ndarray] = {"fonts": np.asarray(names)}
    for kind in ("rank", "suit"):
        out[f"{kind}_png"] = np.frombuffer(b"".join(blobs[kind]), np.uint8)
        out[f"{kind}_ends"] = np.cumsum([len(b) for b in blobs[kind]]).astype(np.int64)
        out[f"{kind}_label"] = np.asarray(labels[kind])
        out[f"{kind}_font"] = np.asarray(font_of[kind], np.int32)
    return out


class GlyphMasks:
    """Packed masks decoded once: rank masks by rank letter, suit masks by suit letter."""

    def __init__(self, packed: dict[str, np.ndarray] | Path):
        data = dict(np.load(packed)) if isinstance(packed, Path) else packed
        self.fonts = [str(f) for f in data["fonts"]]
        self.ranks: dict[str, list[np.ndarray]] = {}
        self.suits: dict[str, list[np.ndarray]] = {}
        for kind, table in (("rank", self.ranks), ("suit", self.suits)):
            png, ends = data[f"{kind}_png"], data[f"{kind}_ends"]
            starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
            for label, a, b in zip(data[f"{kind}_label"], starts, ends, strict=True):
                mask = cv2.imdecode(png[a:b], cv2.IMREAD_GRAYSCALE)
                table.setdefault(str(label), []).append(mask)


# --------------------------------------------------------------------- drawn suit outlines


def _diamond(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    side = canvas.shape[0]
    cx = side / 2
    waist = rng.uniform(0.28, 0.42) * side
    bow = rng.uniform(-0.06, 0.08)  # curved sides (in or out)
    top, bottom = 0.05 * side, 0.95 * side
    mid = (top + bottom) / 2
    t = np.linspace(0, 1, 24)
    bulge = 1 + bow * np.sin(np.pi * t)
    upper = np.stack([cx + waist * t * bulge, top + (mid - top) * t], 1)
    lower = np.stack([cx + waist * (1 - t) * bulge, mid + (bottom - mid) * t], 1)
    right = np.vstack([upper, lower])
    left = right[::-1].copy()
    left[:, 0] = 2 * cx - left[:, 0]
    cv2.fillPoly(canvas, [np.vstack([right, left]).astype(np.int32)], 255)
    return canvas


def _heart(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    side = canvas.shape[0]
    cx = side / 2
    radius = rng.uniform(0.21, 0.27) * side
    spread = rng.uniform(0.75, 1.0) * radius
    lobe_y = 0.05 * side + radius
    tip_y = rng.uniform(0.85, 0.95) * side
    for sign in (-1, 1):
        cv2.circle(canvas, (int(cx + sign * spread), int(lobe_y)), int(radius), 255, -1)
    shoulder = lobe_y + radius * rng.uniform(0.1, 0.5)
    cv2.fillPoly(canvas, [np.asarray([
        (cx - spread - radius * 0.97, lobe_y), (cx + spread + radius * 0.97, lobe_y),
        (cx + spread + radius * 0.6, shoulder), (cx, tip_y),
        (cx - spread - radius * 0.6, shoulder)], np.int32)], 255)
    return canvas


def _stem(canvas: np.ndarray, rng: np.random.Generator, from_y: float, foot_y: float) -> None:
    """A stem from ``from_y`` down to a flared foot at ``foot_y`` (a spade's or a club's)."""
    side = canvas.shape[0]
    cx = side / 2
    stem_w = rng.uniform(0.05, 0.12) * side
    foot = rng.uniform(0.15, 0.3) * side
    cv2.fillPoly(canvas, [np.asarray([
        (cx - stem_w / 2, from_y), (cx + stem_w / 2, from_y),
        (cx + foot, foot_y), (cx - foot, foot_y)], np.int32)], 255)


def _spade(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    side = canvas.shape[0]
    body = np.ascontiguousarray(_heart(canvas, rng)[::-1])  # the point up, the lobes down
    _stem(body, rng, 0.6 * side, 0.99 * side)
    body = cv2.resize(body, (side, int(side * 0.9)))
    return np.vstack([body, np.zeros((side - body.shape[0], side), np.uint8)])


def _club(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    side = canvas.shape[0]
    cx = side / 2
    radius = rng.uniform(0.17, 0.22) * side
    apart = rng.uniform(0.95, 1.25) * radius
    top_y = 0.04 * side + radius
    for x, y in ((cx, top_y), (cx - apart * 1.05, top_y + apart * 1.05),
                 (cx + apart * 1.05, top_y + apart * 1.05)):
        cv2.circle(canvas, (int(x), int(y)), int(radius), 255, -1)
    # the middle between the lobes, filled
    cv2.circle(canvas, (int(cx), int(top_y + apart * 0.9)), int(radius * 0.6), 255, -1)
    _stem(canvas, rng, top_y + apart, 0.96 * side)
    return canvas


_DRAWERS = {"D": _diamond, "H": _heart, "S": _spade, "C": _club}


def drawn_suit(suit: str, rng: np.random.Generator, height: int = RENDER_PX) -> np.ndarray:
    """One suit symbol drawn from circles and polygons with random proportions: an ink
    mask ``height`` tall. The club's three lobes and the spade's point, the heart's
    notch and the diamond's corners are what each is drawn by."""
    if suit not in _DRAWERS:
        raise ValueError(f"no suit {suit!r}")
    side = height * 8  # drawn at 8x and shrunk, for smooth edges
    canvas = _DRAWERS[suit](np.zeros((side, side), np.uint8), rng)
    small = cv2.resize(canvas, (height, height), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(small > 40)
    return small[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].copy()


# ------------------------------------------------------------------------------ composing


def _resized(mask: np.ndarray, height: float, width_factor: float = 1.0) -> np.ndarray:
    h, w = mask.shape
    new_h = max(2, int(round(height)))
    new_w = max(2, int(round(w * new_h / h * width_factor)))
    return cv2.resize(mask, (new_w, new_h), interpolation=cv2.INTER_AREA)


def _inks(suit: str, dark_paper: bool, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(paper, ink) RGB colours for a suit's index, 0..255."""
    if dark_paper:
        paper = rng.uniform(0, 60, 3)
        if suit in RED:
            ink = np.array([rng.uniform(180, 255), rng.uniform(0, 120), rng.uniform(0, 90)])
        else:  # gold, silver or white on a dark card
            ink = (np.array([rng.uniform(190, 255), rng.uniform(150, 230), rng.uniform(40, 200)])
                   if rng.random() < 0.6 else np.full(3, rng.uniform(180, 255)))
        return paper, ink
    paper = np.full(3, rng.uniform(205, 255)) - rng.uniform(0, 25, 3) * (rng.random() < 0.4)
    if suit in RED:
        ink = np.array([rng.uniform(150, 240), rng.uniform(0, 60), rng.uniform(0, 70)])
    else:
        tone = rng.uniform(0, 60)
        ink = np.array([tone, tone, tone + rng.uniform(0, 50) * (rng.random() < 0.3)])
    return paper, ink


def _laid_out(rank_img: np.ndarray, suit_img: np.ndarray, rank_h: float,
              rng: np.random.Generator) -> np.ndarray:
    """The rank over the suit (or, now and then, beside it, as a few decks print it), a
    small random gap between: one ink mask."""
    (rh, rw), (sh, sw) = rank_img.shape, suit_img.shape
    if rng.random() < 0.15:
        gap = int(rank_h * rng.uniform(0.05, 0.25))
        h, w = max(rh, sh), rw + gap + sw
        ink = np.zeros((h, w), np.uint8)
        ink[(h - rh) // 2: (h - rh) // 2 + rh, :rw] = rank_img
        ink[(h - sh) // 2: (h - sh) // 2 + sh, rw + gap:] = suit_img
        return ink
    gap = int(rank_h * rng.uniform(0.05, 0.3))
    h, w = rh + gap + sh, max(rw, sw)
    ink = np.zeros((h, w), np.uint8)
    ink[:rh, (w - rw) // 2: (w - rw) // 2 + rw] = rank_img
    ink[rh + gap:, (w - sw) // 2: (w - sw) // 2 + sw] = suit_img
    return ink


def compose(masks: GlyphMasks, card: str, rng: np.random.Generator,
            drawn_share: float = 0.4) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """One printed index of ``card`` (e.g. "JC"): an RGBA region and the index's box in
    it (x1, y1, x2, y2), with the card's corner near the index and the table beyond it
    transparent."""
    rank, suit = card[0], card[1]
    rank_mask = masks.ranks[rank][int(rng.integers(len(masks.ranks[rank])))]
    if rng.random() < drawn_share or suit not in masks.suits:
        suit_mask = drawn_suit(suit, rng)
    else:
        suit_mask = masks.suits[suit][int(rng.integers(len(masks.suits[suit])))]
    rank_h = 40.0
    rank_img = _resized(rank_mask, rank_h, math.exp(rng.uniform(-0.2, 0.2)))
    suit_img = _resized(suit_mask, rank_h * rng.uniform(0.55, 0.95),
                        math.exp(rng.uniform(-0.1, 0.1)))
    ink = _laid_out(rank_img, suit_img, rank_h, rng)
    h, w = ink.shape
    if rng.random() < 0.25:  # bolder or thinner strokes than the font's
        kernel = np.ones((2, 2), np.uint8)
        ink = cv2.dilate(ink, kernel) if rng.random() < 0.6 else cv2.erode(ink, kernel)
    # the region: 1.2 index widths either side, one height above and below (as
    # episodic_features.index_region cuts a deck's art)
    pad_x, pad_y = int(1.2 * w), int(1.0 * h)
    region_h, region_w = h + 2 * pad_y, w + 2 * pad_x
    dark = rng.random() < 0.15
    paper, colour = _inks(suit, dark, rng)
    rgb = np.empty((region_h, region_w, 3), np.float32)
    rgb[:] = paper
    alpha = np.zeros((region_h, region_w), np.float32)
    alpha[pad_y: pad_y + h, pad_x: pad_x + w] = ink.astype(np.float32) / 255
    rgb = rgb * (1 - alpha[..., None]) + colour * alpha[..., None]
    # the card's edge: left of and above the index by 0.2-0.9 of its width, corner rounded
    card = np.zeros((region_h, region_w), np.uint8)
    edge_x = max(0, int(pad_x - w * rng.uniform(0.2, 0.9)))
    edge_y = max(0, int(pad_y - h * rng.uniform(0.1, 0.6)))
    # rounded, but never so far that the corner's curve cuts into the index
    radius = min(int(w * rng.uniform(0.2, 0.8)), max(pad_x - edge_x, pad_y - edge_y))
    cv2.rectangle(card, (edge_x + radius, edge_y), (region_w, region_h), 255, -1)
    cv2.rectangle(card, (edge_x, edge_y + radius), (region_w, region_h), 255, -1)
    cv2.circle(card, (edge_x + radius, edge_y + radius), radius, 255, -1)
    if rng.random() < 0.5:  # the card's other corner: its edge on the right
        card = card[:, ::-1]
    rgba = np.dstack([np.clip(rgb, 0, 255), card.astype(np.float32)]).astype(np.uint8)
    rgba = np.ascontiguousarray(rgba)
    box = (float(pad_x), float(pad_y), float(pad_x + w), float(pad_y + h))
    return rgba, box
