"""The kiosk's colours, and the contrast they must keep (WCAG 2.2, docs/accessibility.md).

Suit inks come in two strengths: dark inks for a white card face, light inks for
the dark buttons and the felt, so that a red diamond never sits on a blue button.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

#: the screen's background, the felt, the gold of a highlight
BACKGROUND: RGBA = (0.07, 0.09, 0.11, 1)
FELT: RGBA = (0.05, 0.33, 0.2, 1)
GOLD: RGBA = (1.0, 0.8, 0.15, 1)
#: dark inks, on a white card face. Two-colour pack: red and black.
#: Four-colour: clubs green, diamonds blue.
INK: RGBA = (0.08, 0.08, 0.1, 1)
RED: RGBA = (0.8, 0.05, 0.1, 1)
GREEN: RGBA = (0.0, 0.5, 0.15, 1)
BLUE: RGBA = (0.05, 0.25, 0.8, 1)
#: light inks, on the dark buttons
LIGHT: dict[str, RGBA] = {
    "ink": (1.0, 1.0, 1.0, 1),
    "red": (1.0, 0.55, 0.55, 1),
    "green": (0.45, 0.92, 0.5, 1),
    "blue": (0.6, 0.75, 1.0, 1),
}


def suit_colour(suit: str, four_colour: bool = False) -> RGBA:
    """Ink for a suit on a white card: red/black, or the four-colour pack."""
    if four_colour:
        return {"C": GREEN, "D": BLUE, "H": RED, "S": INK}[suit]
    return RED if suit in ("H", "D") else INK


def suit_light(suit: str, four_colour: bool = False) -> RGBA:
    """Ink for a suit on a dark button: the same hue, light enough to read."""
    if four_colour:
        return LIGHT[{"C": "green", "D": "blue", "H": "red", "S": "ink"}[suit]]
    return LIGHT["red"] if suit in ("H", "D") else LIGHT["ink"]


def luminance(rgb: tuple[float, ...]) -> float:
    """Relative luminance of an sRGB colour (components 0..1), as WCAG defines it."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(float(c)) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG contrast ratio of two colours, 1 to 21.

    >>> round(contrast((1, 1, 1), (0, 0, 0)), 1)
    21.0
    """
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(ink: tuple[float, ...], background: tuple[float, ...]) -> tuple[float, float, float]:
    """An ink with its alpha laid over an opaque background."""
    alpha = float(ink[3]) if len(ink) > 3 else 1.0
    r, g, b = (alpha * float(i) + (1 - alpha) * float(k) for i, k in zip(ink[:3], background[:3],
                                                                        strict=True))
    return (r, g, b)


def hex_colour(rgb: tuple[float, ...]) -> str:
    """'#rrggbb' for Kivy markup."""
    return "#{:02x}{:02x}{:02x}".format(*(int(max(0, min(1, v)) * 255 + 0.5) for v in rgb[:3]))
