"""The SVG vocabulary of the pictures: hostile text stays text, and the tile grid of Japan."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine import svg


def test_hostile_text_and_attributes_are_escaped_and_the_document_parses() -> None:
    root = svg.document(10, 10, "</title><script>alert(1)</script>")
    svg.add(root, "text", 'a<b>&"c"\x01\ud800', x=1.5)
    svg.group(root, {"name": '"><script>x</script>'})
    text = svg.to_string(root)
    assert "<script" not in text and "&lt;script&gt;" in text
    parsed = ET.fromstring(text)  # control characters and lone surrogates replaced: well-formed XML
    ns = {"s": svg.SVG_NS}
    assert parsed.find("s:text", ns).text == 'a<b>&"c"\ufffd\ufffd'
    assert parsed.find("s:g", ns).get("data-name") == '"><script>x</script>'


def test_every_prefecture_has_a_tile_of_its_own_and_full_names_find_theirs() -> None:
    assert len(svg.JAPAN_TILES) == 47 and len(set(svg.JAPAN_TILES.values())) == 47
    assert svg.prefecture_key("東京都") == "東京" and svg.prefecture_key("大阪府") == "大阪"
    assert svg.prefecture_key("ａｂｃ") == "abc"
    places = svg.tile_positions(["青森県", "月面", "青森", "北海道"])
    assert places["青森県"] == svg.JAPAN_TILES["青森"] and places["北海道"] == svg.JAPAN_TILES["北海道"]
    # a name that is no prefecture, and a second name for a tile already taken, go below the map
    assert places["月面"] == (0, svg.JAPAN_ROWS + 1) and places["青森"] == (1, svg.JAPAN_ROWS + 1)


def test_long_text_is_cut_into_lines_that_fit() -> None:
    text = "戦闘: " + "長い説明" * 40 + " abc"
    lines = svg.wrap(text, 200)
    assert "".join(lines) == text and len(lines) > 5
    assert all(sum(12 if ord(c) > 0x2000 else 6 for c in line) <= 192 for line in lines)
    assert svg.wrap("", 200) == [""] and svg.wrap("短い", 200) == ["短い"]
