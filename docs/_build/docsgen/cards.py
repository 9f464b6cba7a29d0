"""Card pictures: one SVG per card of spec/deck.yaml, drawn from the card's data alone.

Every picture is built from basic shapes, drawn like a hwatu card: a red edge (the red back paper
wraps round onto the face), a paper face, the month's plant outlined in black ink (August under its
evening sky), the month's number small in a corner for a newcomer, then the kind on top of it: a
bright carries 光 in a red circle (drawn as strokes, so it needs no CJK font), an animal its
animal, a ribbon a ribbon in the colour of its class (hong: red with writing, cheong: blue, cho and
December: plain red), a double junk a "2" in a circle, a bonus card its unit value. Junk cards show
the month's plant only. `back_svg` is the back, plain red. The output depends on the card data only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from gostop_conformance.spec import Card, counted

W, H = 60, 96
FONT = 'font-family="sans-serif" font-weight="bold"'

#: a short English month name
#: the card itself: red edge, paper face, black ink; the picture sits PICTURE_DY lower than drawn
EDGE, EDGE_DARK, PAPER, INK = "#c62828", "#7f1010", "#f6eedb", "#1b1b1b"
INK_COLOUR = INK
FACE_X, FACE_Y, PICTURE_DY = 3.0, 3.0, 5.0
MONTH_NAMES = {
    1: "January",
    2: "February",
    3: "March",
    4: "April",
    5: "May",
    6: "June",
    7: "July",
    8: "August",
    9: "September",
    10: "October",
    11: "November",
    12: "December",
}
RIBBON_COLOUR = {"hong": "#d32f2f", "cheong": "#1e88e5", "cho": "#d32f2f", "none": "#d32f2f"}
RIBBON_CLASS_TEXT = {
    "hong": "hong-dan (red ribbon with writing)",
    "cheong": "cheong-dan (blue ribbon)",
    "cho": "cho-dan (plain red ribbon)",
    "none": "December ribbon (plain red, no set)",
}


def n(x: float) -> str:
    """A compact, deterministic number."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(**kw: object) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{v if isinstance(v, str) else n(float(str(v)))}"' for k, v in kw.items())


def circle(cx: float, cy: float, r: float, **kw: object) -> str:
    return f"<circle{_attrs(cx=cx, cy=cy, r=r, **kw)}/>"


def ellipse(cx: float, cy: float, rx: float, ry: float, rot: float = 0, **kw: object) -> str:
    extra = f' transform="rotate({n(rot)} {n(cx)} {n(cy)})"' if rot else ""
    return f"<ellipse{_attrs(cx=cx, cy=cy, rx=rx, ry=ry, **kw)}{extra}/>"


def rect(x: float, y: float, w: float, h: float, **kw: object) -> str:
    return f"<rect{_attrs(x=x, y=y, width=w, height=h, **kw)}/>"


def poly(points: Iterable[tuple[float, float]], **kw: object) -> str:
    pts = " ".join(f"{n(x)},{n(y)}" for x, y in points)
    return f'<polygon points="{pts}"{_attrs(**kw)}/>'


def path(d: str, **kw: object) -> str:
    return f'<path d="{d}"{_attrs(**kw)}/>'


def flower(cx: float, cy: float, r: float, petal: str, centre: str, petals: int = 5, turn: float = 0) -> str:
    out = []
    for i in range(petals):
        a = turn + i * 360 / petals
        px = cx + r * 0.55 * math.sin(math.radians(a))
        py = cy - r * 0.55 * math.cos(math.radians(a))
        out.append(ellipse(px, py, r * 0.42, r * 0.6, a, fill=petal))
    out.append(circle(cx, cy, r * 0.28, fill=centre))
    return "".join(out)


def star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45, turn: float = 0) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        a = math.radians(turn + i * 180 / points)
        out.append((cx + rr * math.sin(a), cy - rr * math.cos(a)))
    return out


# ------------------------------------------------------------------------------ month motifs


#: the evening sky of every August card, lighter than the red edge (the picture is drawn 5 lower:
#: this covers the top of the face)
AUGUST_SKY = rect(-2, -8, 64, 80, fill="#f29a86", stroke="none")


def august_hill() -> str:
    out = path("M-2 90 L -2 81 Q 30 28 62 81 L 62 90 Z", fill="#1b1b1b")
    for x in range(10, 52, 6):
        out += path(f"M{x} 78 q 2 -14 {6 if x < 30 else -6} -22", fill="none", stroke="#c0ca33", stroke_width=1.2)
    return out


def motif(month: int, variant: str = "") -> str:
    """The month's plant, filling the picture area (y 6..80)."""
    if month == 1:  # pine
        return (
            rect(28, 50, 4, 30, fill="#6d4c41")
            + poly([(30, 14), (14, 38), (46, 38)], fill="#388e3c")
            + poly([(30, 26), (10, 54), (50, 54)], fill="#2e7d32")
            + poly([(30, 40), (8, 68), (52, 68)], fill="#1b5e20")
        )
    if month == 2:  # plum
        out = path("M6 78 Q 26 56 30 40 T 54 12", fill="none", stroke="#5d4037", stroke_width=3, stroke_linecap="round")
        for x, y in ((14, 66), (28, 50), (31, 30), (46, 20), (40, 44)):
            out += flower(x, y, 7, "#e53935", "#ffeb3b")
        return out
    if month == 3:  # cherry
        out = path("M4 30 Q 30 36 56 22", fill="none", stroke="#6d4c41", stroke_width=2.5)
        for x, y in ((12, 24), (24, 36), (38, 26), (50, 34), (18, 50), (34, 48), (46, 58), (26, 64)):
            out += flower(x, y, 8, "#f8bbd0", "#c2185b", turn=(x * 7) % 72)
        return out
    if month == 4:  # wisteria (black bush clover)
        out = ""
        for x, top, length in ((12, 8, 56), (24, 6, 64), (36, 8, 58), (48, 6, 66)):
            out += path(f"M{x} {top} q 3 {length / 2} -1 {length}", fill="none", stroke="#3e2723", stroke_width=1.2)
            for k in range(1, 8):
                drop = top + k * length / 8
                out += ellipse(x + (2.5 if k % 2 else -2.5), drop, 2, 4.2, 25 if k % 2 else -25, fill="#3e2723")
        return out
    if month == 5:  # iris
        out = ""
        for x, lean in ((14, -6), (22, -2), (32, 3), (42, 6), (50, 2)):
            out += poly([(x - 2.5, 80), (x + 2.5, 80), (x + lean, 30)], fill="#2e7d32")
        for x, y in ((16, 30), (40, 26)):
            out += ellipse(x - 3, y, 3, 7, -30, fill="#5e35b1") + ellipse(x + 3, y, 3, 7, 30, fill="#5e35b1")
            out += ellipse(x, y - 3, 2.5, 6, 0, fill="#7e57c2")
        return out
    if month == 6:  # peony
        return (
            ellipse(18, 62, 9, 4, -30, fill="#388e3c")
            + ellipse(42, 62, 9, 4, 30, fill="#388e3c")
            + ellipse(30, 70, 4, 9, 0, fill="#2e7d32")
            + circle(30, 46, 16, fill="#8e24aa")
            + flower(30, 46, 22, "#ab47bc", "#f3e5f5", petals=8)
            + circle(30, 46, 6, fill="#e1bee7")
        )
    if month == 7:  # bush clover (red)
        out = ""
        for dx, dy in ((0, 0), (14, 10), (-8, 16)):
            out += path(f"M{10 + dx} {80} Q {20 + dx} {40 + dy} {50 + dx / 2} {14 + dy}", fill="none", stroke="#558b2f", stroke_width=1.5)
            for k in range(6):
                t = (k + 1) / 7
                bx = (1 - t) ** 2 * (10 + dx) + 2 * (1 - t) * t * (20 + dx) + t * t * (50 + dx / 2)
                by = (1 - t) ** 2 * 80 + 2 * (1 - t) * t * (40 + dy) + t * t * (14 + dy)
                out += circle(bx + 2, by - 1, 2.2, fill="#c2185b") + ellipse(bx - 2, by + 2, 1.6, 3, 40, fill="#7cb342")
        return out
    if month == 8:  # pampas: the black hill and its grass under a red sky
        return AUGUST_SKY + august_hill()
    if month == 9:  # chrysanthemum
        return (
            ellipse(20, 68, 8, 3.5, -20, fill="#388e3c")
            + ellipse(40, 70, 8, 3.5, 20, fill="#388e3c")
            + flower(30, 42, 26, "#fbc02d", "#f57f17", petals=14)
            + circle(30, 42, 5, fill="#e65100")
        )
    if month == 10:  # maple
        out = path("M8 80 Q 24 50 52 10", fill="none", stroke="#6d4c41", stroke_width=1.5)
        for x, y, r, c in ((20, 56, 10, "#e65100"), (36, 30, 11, "#ef6c00"), (44, 56, 9, "#d84315"), (16, 26, 8, "#f4511e")):
            out += poly(star(x, y, r, 5, 0.5), fill=c)
        return out
    if month == 11:  # paulownia
        leaf = "#f9a825" if variant == "coloured" else "#263238"
        out = ""
        for x, y, rot in ((18, 58, -25), (42, 58, 25), (30, 64, 0)):
            out += ellipse(x, y, 11, 15, rot, fill=leaf, stroke="#000", stroke_width=0.6)
            out += path(f"M{x} {y - 12} L {x} {y + 12}", stroke="#90a4ae", stroke_width=0.8, fill="none")
        for k in range(5):
            out += circle(24 + k * 3, 28 - k * 3, 2.6, fill="#7e57c2")
            out += circle(26 + k * 3, 32 - k * 3, 2.2, fill="#b39ddb")
        return out
    if month == 12:  # willow and rain
        out = ""
        for x in (8, 18, 30, 42, 52):
            out += path(f"M{x} 6 q 6 24 -2 {46 + (x % 3) * 6}", fill="none", stroke="#2e7d32", stroke_width=1.6)
            out += ellipse(x + 1, 30 + (x % 4) * 5, 1.6, 4, 15, fill="#43a047")
        for x in range(6, 56, 9):
            out += path(f"M{x} 60 l -3 9", stroke="#0277bd", stroke_width=1)
        return out
    return ""


# ------------------------------------------------------------------------------ animals and brights


def bird(cx: float, cy: float, s: float, body: str, wing: str, forked: bool = False) -> str:
    tail = (
        [(cx + 7 * s, cy - 1 * s), (cx + 17 * s, cy - 6 * s), (cx + 12 * s, cy), (cx + 17 * s, cy + 5 * s), (cx + 7 * s, cy + 2 * s)]
        if forked
        else [(cx + 7 * s, cy - 2 * s), (cx + 15 * s, cy - 5 * s), (cx + 15 * s, cy + 3 * s)]
    )
    return (
        poly(tail, fill=body)
        + ellipse(cx, cy, 9 * s, 5 * s, -8, fill=body)
        + circle(cx - 8 * s, cy - 4 * s, 3.6 * s, fill=body)
        + poly([(cx - 11 * s, cy - 5 * s), (cx - 15 * s, cy - 3.5 * s), (cx - 11 * s, cy - 2.5 * s)], fill="#ffa000")
        + circle(cx - 9 * s, cy - 4.6 * s, 0.9 * s, fill="#fff")
        + ellipse(cx + 1.5 * s, cy - 2 * s, 6 * s, 2.6 * s, -25, fill=wing)
    )


def butterfly(cx: float, cy: float, s: float, colour: str) -> str:
    return (
        ellipse(cx - 4 * s, cy - 3 * s, 4 * s, 5 * s, -30, fill=colour)
        + ellipse(cx + 4 * s, cy - 3 * s, 4 * s, 5 * s, 30, fill=colour)
        + ellipse(cx - 3 * s, cy + 4 * s, 3 * s, 3.6 * s, 30, fill="#ffd54f")
        + ellipse(cx + 3 * s, cy + 4 * s, 3 * s, 3.6 * s, -30, fill="#ffd54f")
        + rect(cx - 0.8 * s, cy - 5 * s, 1.6 * s, 11 * s, fill="#212121")
    )


def animal(card: Card) -> str:
    m = card.month
    if m == 2:  # bush warbler
        return bird(34, 34, 1.2, "#7cb342", "#33691e")
    if m == 4:  # cuckoo in front of the moon
        return circle(38, 26, 13, fill="#ffcdd2", stroke="#fff", stroke_width=1) + bird(34, 28, 1.3, "#5d4037", "#3e2723")
    if m == 5:  # eight-plank bridge
        out = ""
        for k in range(3):
            out += rect(8 + k * 14, 40 + k * 8, 16, 7, fill="#8d6e63", stroke="#4e342e", stroke_width=0.8)
        return out
    if m == 6:  # butterflies
        return butterfly(18, 20, 1.2, "#1e88e5") + butterfly(44, 24, 1.0, "#43a047")
    if m == 7:  # wild boar
        out = ""
        for x in (22, 27, 37, 42):
            out += rect(x, 56, 3, 9, fill="#3e2723")
        return (
            out
            + ellipse(32, 52, 14, 8, 0, fill="#6d4c41")
            + ellipse(18, 50, 6.5, 5.5, 0, fill="#5d4037")
            + ellipse(12.5, 52, 2.4, 2, 0, fill="#3e2723")
            + circle(17, 48, 0.9, fill="#fff")
            + path("M46 48 q 4 -2 3 -6", fill="none", stroke="#3e2723", stroke_width=1.2)
        )
    if m == 8:  # geese
        return bird(18, 18, 0.6, "#212121", "#424242") + bird(32, 12, 0.6, "#212121", "#424242") + bird(44, 22, 0.6, "#212121", "#424242")
    if m == 9:  # sake cup
        return (
            poly([(16, 46), (44, 46), (38, 64), (22, 64)], fill="#c62828")
            + ellipse(30, 46, 14, 3.5, 0, fill="#ef5350")
            + rect(26, 64, 8, 5, fill="#b71c1c")
            + circle(30, 55, 4, fill="#fdd835")
        )
    if m == 10:  # deer
        out = ""
        for x in (25, 29, 36, 40):
            out += rect(x, 56, 2, 12, fill="#6d4c41")
        return (
            out
            + ellipse(33, 54, 12, 6, 0, fill="#a1887f")
            + poly([(22, 52), (26, 50), (22, 36), (18, 38)], fill="#a1887f")
            + ellipse(18, 35, 5, 3.2, -20, fill="#8d6e63")
            + path("M20 32 l -2 -8 m 1 4 l -4 -3 M22 32 l 3 -8 m -1 4 l 4 -3", fill="none", stroke="#4e342e", stroke_width=1.1)
        )
    if m == 12:  # swallow
        return bird(30, 40, 1.3, "#1a237e", "#283593", forked=True)
    return ""


def bright_picture(card: Card) -> str:
    m = card.month
    if m == 1:  # crane and sun
        return (
            circle(40, 26, 12, fill="#e53935")
            + path("M20 58 q -2 -16 6 -22", fill="none", stroke="#212121", stroke_width=2)
            + ellipse(24, 62, 11, 7, -15, fill="#fafafa", stroke="#212121", stroke_width=1)
            + circle(26, 35, 3, fill="#fafafa", stroke="#212121", stroke_width=0.8)
            + circle(26, 33.5, 1.3, fill="#e53935")
            + path("M20 68 l -2 10 M26 68 l 1 10", stroke="#212121", stroke_width=1)
        )
    if m == 3:  # curtain
        out = rect(8, 42, 44, 4, fill="#6d4c41")
        for k in range(6):
            out += rect(9 + k * 7, 46, 7, 26, fill="#c62828" if k % 2 == 0 else "#fafafa", stroke="#b71c1c", stroke_width=0.5)
        return out
    if m == 8:  # full moon over the hill
        return AUGUST_SKY + circle(28, 30, 16, fill="#fffde7", stroke=INK_COLOUR, stroke_width=0.8) + august_hill()
    if m == 11:  # phoenix
        return (
            poly([(38, 44), (58, 20), (52, 46)], fill="#43a047")
            + poly([(36, 48), (58, 40), (50, 58)], fill="#1e88e5")
            + ellipse(30, 46, 11, 7, -20, fill="#e53935")
            + circle(20, 36, 4.5, fill="#e53935")
            + poly([(16, 36), (11, 38), (16, 39)], fill="#fdd835")
            + ellipse(32, 42, 8, 3.5, -40, fill="#fdd835")
        )
    if m == 12:  # man with umbrella
        return (
            path("M14 40 A 16 16 0 0 1 46 40 Z", fill="#fbc02d", stroke="#f57f17", stroke_width=1)
            + path("M30 40 L 30 62", stroke="#5d4037", stroke_width=1.5)
            + circle(22, 48, 4, fill="#ffe0b2", stroke="#5d4037", stroke_width=0.6)
            + poly([(17, 53), (27, 53), (29, 74), (15, 74)], fill="#1a237e")
        )
    return ""


#: 光 as strokes in a 20 x 20 box
GWANG = "M10 2 L10 8 M5 3.5 L7 7 M15 3.5 L13 7 M3 9.5 L17 9.5 M8 9.5 Q8 15.5 3 18.5 M12 9.5 L12 16.5 Q12 18.5 14 18.5 L17.5 18.5 L17.5 16.3"


def bright_mark() -> str:
    return circle(46, 15, 9.5, fill="#d32f2f", stroke="#fff", stroke_width=1.2) + (
        f'<g transform="translate(38 7) scale(0.8)"><path d="{GWANG}" fill="none" stroke="#fff" '
        'stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"/></g>'
    )


def number_mark(text: str, fill: str = "#fff", ink: str = "#212121") -> str:
    return circle(46, 15, 8.5, fill=fill, stroke=ink, stroke_width=1.4) + (
        f'<text x="46" y="19" text-anchor="middle" {FONT} font-size="12" fill="{ink}" stroke="none">{text}</text>'
    )


def ribbon(card: Card) -> str:
    cls = card.ribbon_class or "none"
    colour = RIBBON_COLOUR[cls]
    out = poly([(11, 8), (24, 8), (24, 70), (17.5, 63), (11, 70)], fill=colour, stroke="#5d1010" if colour != "#1e88e5" else "#0d47a1")
    if cls == "hong":  # writing on the ribbon
        for y in (18, 31, 44):
            out += path(
                f"M14 {y} h7 M17.5 {y - 4} v9 M14.5 {y + 4} l2 -2 M20.5 {y + 4} l-2 -2", fill="none", stroke="#1b1b1b", stroke_width=1.3
            )
    return out


# ------------------------------------------------------------------------------ the card


def kind_text(card: Card) -> str:
    if card.kind == "ribbon":
        return "ribbon, " + RIBBON_CLASS_TEXT[card.ribbon_class or "none"]
    if card.kind == "double-junk":
        return "double junk (2 units)"
    if card.kind == "bonus":
        return f"bonus card ({counted(card.units, 'junk unit')}, no month)"
    return str(card.kind)


def describe(card: Card, month_names: dict[int, str]) -> str:
    """One line for alt and title texts."""
    if card.kind == "bonus":
        return f"{card.id}: {kind_text(card)}: {card.picture}"
    return f"{card.id}: {MONTH_NAMES[card.month]} ({month_names.get(card.month, '')}), {kind_text(card)}: {card.picture}"


def svg(card: Card, month_names: dict[int, str]) -> str:
    title = describe(card, month_names).replace("&", "&amp;").replace("<", "&lt;")
    if card.kind == "bonus":
        body = (
            poly(star(30, 42, 22, 5, 0.45), fill="#ffb300", stroke="#e65100", stroke_width=1)
            + f'<text x="30" y="50" text-anchor="middle" {FONT} font-size="22" fill="#b71c1c" stroke="none">{card.units}</text>'
            + number_mark(str(card.units), "#fff", "#e65100")
        )
        band = "bonus"
    else:
        if card.kind == "bright":
            body = (motif(card.month) if card.month != 8 else "") + bright_picture(card) + bright_mark()
            if card.month in (1, 3, 12):  # the picture covers the plant: show a little of it behind
                body = f'<g opacity="0.35">{motif(card.month)}</g>' + bright_picture(card) + bright_mark()
        elif card.kind == "animal":
            body = motif(card.month) + animal(card)
        elif card.kind == "ribbon":
            body = motif(card.month) + ribbon(card)
        elif card.kind == "double-junk":
            if card.month == 12:  # lightning
                body = (
                    rect(3, 3, 54, 78, fill="#37474f")
                    + motif(12)
                    + poly(
                        [(34, 8), (20, 40), (30, 40), (18, 76), (42, 32), (31, 32), (40, 8)],
                        fill="#ffca28",
                        stroke="#e65100",
                        stroke_width=1,
                    )
                )
            else:
                body = motif(card.month, "coloured")
            body += number_mark("2")
        else:
            body = motif(card.month)
        band = str(card.month)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img">'
        f"<title>{title}</title>"
        # the red edge: a hwatu card's red back paper wraps round onto its face
        + rect(0.5, 0.5, W - 1, H - 1, rx=5, fill=EDGE, stroke=EDGE_DARK, stroke_width=1)
        + rect(FACE_X, FACE_Y, W - 2 * FACE_X, H - 2 * FACE_Y, rx=2.5, fill=PAPER)
        + '<clipPath id="c">'
        + rect(FACE_X, FACE_Y, W - 2 * FACE_X, H - 2 * FACE_Y, rx=2.5)
        + "</clipPath>"
        # the picture, drawn for the area y 3..81, is centred on the face; every shape is outlined in
        # black ink unless it sets its own stroke
        + f'<g clip-path="url(#c)"><g transform="translate(0 {n(PICTURE_DY)})" stroke="{INK}" stroke-width="0.7" stroke-linejoin="round">'
        + body
        + "</g></g>"
        # the month's number on a scrap of paper, readable over any picture
        + rect(W - FACE_X - 3 - 3.9 * len(band), H - FACE_Y - 8, 3.9 * len(band) + 2, 7, rx=1.5, fill=PAPER, stroke="none")
        + f'<text x="{n(W - FACE_X - 2)}" y="{n(H - FACE_Y - 2.3)}" text-anchor="end" {FONT} font-size="6.5" '
        + f'fill="{INK}" stroke="none">{band}</text>'
        + "</svg>\n"
    )


def back_svg() -> str:
    """The back of a card (the stock, face down): plain red, as hwatu backs are."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img">'
        "<title>a card face down (the stock)</title>"
        + rect(1, 1, W - 2, H - 2, rx=5, fill="#b71c1c", stroke="#5d0f0f", stroke_width=2)
        + rect(5, 5, W - 10, H - 10, rx=3, fill="none", stroke="#e57373", stroke_width=1)
        + "</svg>\n"
    )
