"""Measure a screen as rendered against the accessibility bar (docs/accessibility.md).

Run on the live widget tree and a screenshot of it: every tap target's size,
every text's capital height (measured on the font's own rendering), the
contrast of every text and suit symbol against the pixels actually behind it,
card codes and empty boxes in running text, and "tap" prompts with nothing
to tap. Each finding is one sentence naming the widget.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kiosk.app import bar
from kiosk.app.palette import contrast, over

SUITS = "\u2660\u2663\u2665\u2666"
CARD_CODE = re.compile(r"\b[9TJQKA][CDHS]\b")
_MARKUP = re.compile(r"\[/?[a-z_]+(?:=[^\]]*)?\]")
_SPAN = re.compile(r"\[color=(#[0-9a-fA-F]{6})\](.*?)\[/color\]")
_FONT_SPAN = re.compile(r"\[font=([^\]]+)\](.*?)\[/font\]")
_TAP_PROMPT = re.compile(r"\btap\b[^.]*\b(card|it|place)\b", re.IGNORECASE)
SYMBOL_FONTS = ("DejaVuSans",)


@dataclass(frozen=True)
class Finding:
    rule: str  # 'target', 'text size', 'contrast', 'card code', 'empty box', 'tap prompt',
    #: 'off screen'
    what: str  # the widget, in words

    def __str__(self) -> str:
        return f"{self.rule}: {self.what}"


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown(widget: Any) -> bool:
    """Drawn on the window: attached, not hidden by its own or an ancestor's opacity,
    and not squeezed to nothing."""
    if widget.get_root_window() is None or widget.width < 2 or widget.height < 2:
        return False
    return all(getattr(node, "opacity", 1) > 0.01 for node in _lineage(widget))


def _lineage(widget: Any) -> Iterator[Any]:
    """The widget and each of its ancestors up to the window."""
    node = widget
    while node is not None:
        yield node
        parent = node.parent
        node = None if parent is node else parent


def _off_screen(w: Any, picture: np.ndarray) -> bool:
    """Part of the widget lies outside the window (a layout that overflowed)."""
    x0, y0 = w.to_window(w.x, w.y)
    height, width = picture.shape[:2]
    return bool(x0 < -1 or y0 < -1 or x0 + w.width > width + 1 or y0 + w.height > height + 1)


def _spills(w: Any) -> bool:
    """The words take more room than their box: a sentence that grew past the lines it
    was given runs over whatever lies below it. Half a line of slack: a large numeral's
    line is taller than its glyph, which fits. A label that shortens its words with an
    ellipsis has chosen to."""
    texture = getattr(w, "texture_size", None)
    if not texture or getattr(w, "shorten", False):
        return False
    slack = 0.5 * float(getattr(w, "font_size", 0))
    return bool(texture[1] > w.height + slack or texture[0] > w.width + 2
                or _lines_cut(w))


def _lines_cut(w: Any) -> bool:
    """A label held to `max_lines` whose words wrap to more: Kivy draws only some of
    the lines, so the players read half a sentence."""
    most = int(getattr(w, "max_lines", 0) or 0)
    if not most or getattr(w, "markup", False) or w.text_size[0] is None:
        return False
    from kivy.core.text import Label as CoreLabel

    whole = CoreLabel(text=w.text, font_size=w.font_size, font_name=w.font_name,
                      bold=w.bold, text_size=(w.text_size[0], None), halign=w.halign)
    whole.refresh()
    return len(whole._cached_lines) > most


def plain_text(text: str) -> str:
    return _MARKUP.sub("", text)


def audit(screen: Any, picture: np.ndarray) -> list[Finding]:
    """Everything on `screen` that misses the bar. `picture`: the window as an RGB(A)
    array, top row first (what Window.screenshot saves)."""
    findings: list[Finding] = []
    height = picture.shape[0]
    cards_to_tap = False
    prompts: list[str] = []
    for w in walk(screen):
        if not shown(w):
            continue
        name = _name(w)
        tappable = hasattr(w, "on_release") or _is_text_field(w)
        if (tappable or bool(getattr(w, "text", ""))) and _off_screen(w, picture):
            findings.append(Finding("off screen", f"{name} is drawn outside the window"))
        if tappable and not w.disabled:
            short = min(w.width, w.height)
            if short < bar.mm(bar.TARGET_MM) - 0.5:
                findings.append(Finding("target", f"{name} is {short / bar.PX_PER_MM:.1f} mm"))
            if hasattr(w, "card") and hasattr(w, "caption"):
                cards_to_tap = True
        text = getattr(w, "text", None)
        if not isinstance(text, str) or not text.strip() or not hasattr(w, "font_size"):
            continue
        words = plain_text(text) if getattr(w, "markup", False) else text
        if _is_text_field(w):
            continue  # typed by the players: sized as text, checked below as a target
        cap = float(w.font_size) * cap_height(w.font_name)
        if cap < bar.mm(bar.CAP_MM) - 0.5 and not getattr(w, "annotation", False):
            findings.append(Finding("text size", f"{name} has {cap / bar.PX_PER_MM:.1f} mm "
                                                 "capitals"))
        if CARD_CODE.search(words):
            findings.append(Finding("card code", f"{name} says {words!r}"))
        if _spills(w):
            findings.append(Finding("overflow", f"{name}'s words spill out of their box"))
        findings += _empty_boxes(w, text, name)
        findings += _contrast(w, text, name, picture, height)
        if _TAP_PROMPT.search(words) and not tappable:  # a button's own words are its target
            prompts.append(words)
    if prompts and not cards_to_tap:
        findings += [Finding("tap prompt", f"{p!r}, with no card to tap") for p in prompts]
    return findings


def _name(w: Any) -> str:
    text = plain_text(str(getattr(w, "text", "") or ""))
    card = getattr(w, "card", "")
    label = text or (f"card {card}" if card else "") or getattr(w, "caption", "")
    return f"{type(w).__name__} {label[:40]!r}"


def _is_text_field(w: Any) -> bool:
    from kivy.uix.textinput import TextInput

    return isinstance(w, TextInput)


_CAPS: dict[str, float] = {}


def cap_height(font_name: str) -> float:
    """The font's capital height as a fraction of its size, measured on an 'H' it draws."""
    if font_name not in _CAPS:
        from kivy.core.text import Label as CoreLabel

        label = CoreLabel(text="H", font_size=200, font_name=font_name)
        label.refresh()
        texture = label.texture
        pixels = np.frombuffer(texture.pixels, np.uint8).reshape(
            texture.height, texture.width, 4)
        rows = np.flatnonzero(pixels[:, :, 3].max(axis=1) > 128)
        _CAPS[font_name] = (rows.max() - rows.min() + 1) / 200 if rows.size else 0.0
    return _CAPS[font_name]


def _empty_boxes(w: Any, text: str, name: str) -> list[Finding]:
    """A suit symbol drawn in a font without it prints as an empty box."""
    if not any(s in text for s in SUITS) or getattr(w, "font_name", "") in SYMBOL_FONTS:
        return []
    outside = _FONT_SPAN.sub("", text) if getattr(w, "markup", False) else text
    if any(s in outside for s in SUITS):
        return [Finding("empty box", f"{name} draws a suit symbol in {w.font_name}")]
    return []


def _contrast(w: Any, text: str, name: str, picture: np.ndarray,
              height: int) -> list[Finding]:
    """Each ink of the text (its colour, and each markup colour) against the colour
    most of the label's box shows on the screen."""
    background = _background(w, picture, height)
    if background is None:
        return []
    opacity = _opacity(w)
    base = tuple(w.disabled_color if getattr(w, "disabled", False) and hasattr(
        w, "disabled_color") else w.color)
    inks: list[tuple[tuple[float, ...], str]] = []
    rest = text
    if getattr(w, "markup", False):
        for colour, span in _SPAN.findall(text):
            rgb = tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
            inks.append(((*rgb, base[3] if len(base) > 3 else 1), plain_text(span)))
        rest = plain_text(_SPAN.sub("", text))
    if rest.strip():
        inks.append((base, rest))
    findings = []
    for ink, words in inks:
        alpha = (ink[3] if len(ink) > 3 else 1.0) * opacity
        seen = over((*ink[:3], alpha), background)
        ratio = contrast(seen, background)
        symbol_only = all(c in SUITS or c.isspace() for c in words)
        need = bar.SYMBOL_CONTRAST if symbol_only else bar.TEXT_CONTRAST
        if ratio < need - 0.05:
            findings.append(Finding("contrast", f"{name}: {words.strip()[:20]!r} at "
                                                f"{ratio:.2f}:1 (needs {need}:1)"))
    return findings


def _opacity(w: Any) -> float:
    """The opacity the widget is drawn with: its own times each ancestor's."""
    return math.prod(float(getattr(node, "opacity", 1)) for node in _lineage(w))


def _background(w: Any, picture: np.ndarray, height: int) -> tuple[float, ...] | None:
    """The most common colour in the widget's box on the screen (the text covers less)."""
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = x0 + w.width, y0 + w.height
    left, right = max(0, int(x0)), min(picture.shape[1], int(x1))
    top, bottom = max(0, int(height - y1)), min(height, int(height - y0))
    if right - left < 2 or bottom - top < 2:
        return None
    box = picture[top:bottom, left:right, :3].reshape(-1, 3).astype(np.int32) // 4
    codes = (box[:, 0] << 12) | (box[:, 1] << 6) | box[:, 2]  # 64 levels a channel
    code = int(np.argmax(np.bincount(codes, minlength=1 << 18)))
    mode = np.array([code >> 12, (code >> 6) & 63, code & 63]) * 4 + 2
    return tuple(float(c) / 255 for c in mode)
