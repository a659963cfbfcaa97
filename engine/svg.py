"""The small SVG vocabulary the games' pictures are drawn with (`Ruleset.picture`), on the standard
library's `xml.etree.ElementTree`: it escapes every text and attribute it writes, so a name from a
post can never become markup, and it needs nothing installed. Also the tile grid of Japan's 47
prefectures that the battle royale and にじ野望 maps share (a game may not import another game).
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping

SVG_NS = "http://www.w3.org/2000/svg"
# Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/FFFF): shown as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
FONT = "'Noto Sans CJK JP', 'Noto Sans JP', sans-serif"


def clean(text: object) -> str:
    """Text safe to put in an XML document (the escaping itself is ElementTree's)."""
    return _NOT_XML.sub("\ufffd", str(text))


def document(width: float, height: float, title: str) -> ET.Element:
    """An empty picture with its accessible title."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": _num(width),
            "height": _num(height),
            "viewBox": f"0 0 {_num(width)} {_num(height)}",
            "font-family": FONT,
            "role": "img",
        },
    )
    ET.SubElement(root, "title").text = clean(title)
    return root


def add(parent: ET.Element, tag: str, text: str | None = None, **attributes: object) -> ET.Element:
    """A child element; attribute names use `_` for `-` (`font_size` → `font-size`)."""
    element = ET.SubElement(
        parent,
        tag,
        {
            name.rstrip("_").replace("_", "-"): _value(value)
            for name, value in attributes.items()
            if value is not None
        },
    )
    if text is not None:
        element.text = clean(text)
    return element


def group(parent: ET.Element, data: Mapping[str, object] | None = None, **attributes: object) -> ET.Element:
    """A `<g>` carrying `data-*` attributes (what the page's tests and scripts read the picture by)."""
    element = add(parent, "g", **attributes)
    for name, value in (data or {}).items():
        element.set(f"data-{name}", clean(value))
    return element


def to_string(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def wrap(text: str, width: float, size: float = 12) -> list[str]:
    """A line of text cut into lines that fit `width` pixels at font `size` (SVG text does not wrap;
    a wide or ambiguous character is counted a whole em, any other half)."""
    lines, current, used = [], "", 0.0
    for char in text:
        step = size if unicodedata.east_asian_width(char) in "WFA" else size / 2
        if current and used + step > width - 8:
            lines.append(current)
            current, used = "", 0.0
        current += char
        used += step
    return [*lines, current] if current or not lines else lines


def polygon(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _value(value: object) -> str:
    return _num(value) if isinstance(value, float) else clean(value)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


# -- Japan as tiles ---------------------------------------------------------------------------------

# (column, row) of each prefecture on a 14 × 10 grid: the islands' shape, one square per prefecture.
JAPAN_TILES: dict[str, tuple[int, int]] = {
    "北海道": (13, 0),
    "青森": (13, 1),
    "秋田": (12, 2), "岩手": (13, 2),
    "石川": (9, 3), "富山": (10, 3), "新潟": (11, 3), "山形": (12, 3), "宮城": (13, 3),
    "島根": (3, 4), "鳥取": (4, 4), "兵庫": (5, 4), "京都": (6, 4), "滋賀": (7, 4), "福井": (8, 4),
    "岐阜": (9, 4), "長野": (10, 4), "群馬": (11, 4), "栃木": (12, 4), "福島": (13, 4),
    "山口": (2, 5), "広島": (3, 5), "岡山": (4, 5), "大阪": (5, 5), "奈良": (6, 5), "三重": (7, 5),
    "愛知": (8, 5), "静岡": (9, 5), "山梨": (10, 5), "埼玉": (11, 5), "茨城": (12, 5),
    "佐賀": (0, 6), "福岡": (1, 6), "和歌山": (6, 6), "神奈川": (10, 6), "東京": (11, 6), "千葉": (12, 6),
    "長崎": (0, 7), "熊本": (1, 7), "大分": (2, 7), "愛媛": (3, 7), "香川": (4, 7),
    "鹿児島": (1, 8), "宮崎": (2, 8), "高知": (3, 8), "徳島": (4, 8),
    "沖縄": (0, 9),
}  # fmt: skip
JAPAN_COLUMNS, JAPAN_ROWS = 14, 10


def prefecture_key(name: str) -> str:
    """`東京都`, `大阪府`, `青森県`, `ｱｵﾓﾘ`-free full names → the tile table's short names."""
    text = unicodedata.normalize("NFKC", name).strip()
    if text in JAPAN_TILES:
        return text
    for suffix in ("都", "府", "県"):
        if text.endswith(suffix) and text[: -len(suffix)] in JAPAN_TILES:
            return text[: -len(suffix)]
    return text


def tile_positions(names: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Where each name goes: its prefecture's tile, or, for a name that is no prefecture (a GM's own
    roster), the next free square of the rows below the map, so that nothing is left out."""
    placed: dict[str, tuple[int, int]] = {}
    extra = 0
    for name in names:
        key = prefecture_key(name)
        if key in JAPAN_TILES and JAPAN_TILES[key] not in placed.values():
            placed[name] = JAPAN_TILES[key]
        else:
            placed[name] = (extra % JAPAN_COLUMNS, JAPAN_ROWS + 1 + extra // JAPAN_COLUMNS)
            extra += 1
    return placed


TILE = 56  # a tile's side, in pixels


def tile_map(
    title: str,
    tiles: Iterable[tuple[str, Iterable[str], str, Mapping[str, object]]],
    legend: Iterable[tuple[str, str]] = (),
    notes: Iterable[str] = (),
) -> str:
    """Japan as tiles: each `(name, lines under the name, fill colour, data-* attributes)`, then a
    legend of `(colour, meaning)` and lines of notes below."""
    entries = list(tiles)
    places = tile_positions(name for name, *_ in entries)
    rows = max([JAPAN_ROWS - 1, *(row for _, row in places.values())]) + 1
    legend, notes = list(legend), list(notes)
    width = JAPAN_COLUMNS * TILE + 8
    places_of_legend, x, line = [], 4, 0
    for fill, meaning in legend:
        size = 28 + 13 * len(meaning)
        if x + size > width and x > 4:
            x, line = 4, line + 1
        places_of_legend.append((fill, meaning, x, line))
        x += size
    legend_lines = line + 1 if legend else 0
    height = rows * TILE + 12 + 20 * (len(notes) + legend_lines)
    root = document(width, height + 8, title)
    for name, lines, fill, data in entries:
        column, row = places[name]
        x, y = 4 + column * TILE, 4 + row * TILE
        tile = group(root, {"name": name, **data}, **{"class": "tile"})
        add(tile, "rect", x=x + 1, y=y + 1, width=TILE - 2, height=TILE - 2, rx=4, fill=fill, stroke="#555")
        add(tile, "text", name, x=x + TILE / 2, y=y + 18, text_anchor="middle", font_size=12)
        for index, text in enumerate(lines):
            add(tile, "text", text, x=x + TILE / 2, y=y + 33 + 12 * index, text_anchor="middle", font_size=10)
    y = 4 + rows * TILE + 16
    for fill, meaning, x, line in places_of_legend:
        add(root, "rect", x=x, y=y + 20 * line - 11, width=12, height=12, fill=fill, stroke="#555")
        add(root, "text", meaning, x=x + 16, y=y + 20 * line, font_size=12)
    y += 20 * legend_lines
    for text in notes:
        add(root, "text", text, x=4, y=y, font_size=12, **{"class": "note"})
        y += 20
    return to_string(root)
