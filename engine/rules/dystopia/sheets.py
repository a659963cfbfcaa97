"""Character sheets: from the scenario's `[[pcs]]`/`[[npcs]]` tables, and from a `【キャラシート】` block of
`項目: 値` lines that a player posts under their trip (adds or updates that player's sheet).

The weapon and armour slots left empty are filled with 素手 and 一般服 (the seed's rule).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from engine.rules.dystopia.model import (
    BAREHANDED,
    BASE_STATS,
    PLAIN_CLOTHES,
    START_C,
    START_F,
    Connection,
    DystopiaError,
    Item,
    Sheet,
    Skill,
)

SHEET_HEADING = "【キャラシート】"
EXTRA_STATS = ("近接", "射撃", "魔術", "行動値", "敏捷")
SCENARIO_KEYS = {
    *("name", "owner", "cl", "race", "classes", "stats", "hp", "hp_max", "durability", "mp", "mp_max"),
    *("c", "f", "overrides", "skills", "weapons", "armor", "accessories", "items", "money"),
    *("connections", "bonus", "race_stats", "slots", "row", "handout"),
}
_SKILL_FIELDS = ("name", "kind", "timing", "target", "range", "price", "cost", "sl", "cls")
_INT_FIELDS = {"CL": "cl", "HP": "hp", "耐久値": "durability", "MP": "mp", "C値": "c", "F値": "f"}
_TEXT_FIELDS = {"名前": "name", "種族": "race", "行": "row"}
_ITEM_FIELDS = {"武器": "weapons", "防具": "armor", "装飾": "accessories", "アクセサリー": "accessories"}


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def number(text: Any, what: str) -> int:
    """An integer written in full or half width, with an optional sign."""
    value = nfkc(str(text)).strip().replace("−", "-")
    if not value.lstrip("+-").isdigit():
        raise DystopiaError(f"{what}は整数で書いてください（{text}）")
    return int(value)


def _item(data: Any) -> Item:
    if isinstance(data, Mapping):
        return Item(str(data["name"]), number(data.get("price", 0), "価格"))
    return Item(str(data))


def _skill(data: Mapping[str, Any]) -> Skill:
    return Skill(
        name=str(data["name"]),
        kind=str(data.get("kind", "")),
        timing=str(data.get("timing", "")),
        target=str(data.get("target", "")),
        range=str(data.get("range", "")),
        price=str(data.get("price", "")),
        cost=number(data.get("cost", 0), "コスト"),
        sl=number(data.get("sl", 0), "SL"),
        cls=str(data.get("class", data.get("cls", ""))),
        auto=bool(data.get("auto", False)),
    )


def fill_defaults(sheet: Sheet) -> Sheet:
    """素手 and 一般服 when nothing is equipped; every base stat present."""
    if not sheet.weapons:
        sheet.weapons = [Item(BAREHANDED)]
    if not sheet.armor:
        sheet.armor = [Item(PLAIN_CLOTHES)]
    for stat in BASE_STATS:
        sheet.stats.setdefault(stat, 0)
    return sheet


def scenario_sheet(data: Mapping[str, Any], *, npc: bool) -> Sheet:
    """One `[[pcs]]` or `[[npcs]]` table of the scenario."""
    if "name" not in data:
        raise DystopiaError("キャラクターに name がありません")
    unknown = sorted(set(data) - SCENARIO_KEYS)
    if unknown:
        raise DystopiaError(
            f"{data['name']}の項目 {'、'.join(unknown)} はありません（{'、'.join(sorted(SCENARIO_KEYS))}）"
        )
    stats = {nfkc(k): number(v, k) for k, v in dict(data.get("stats", {})).items()}
    hp, mp = number(data.get("hp", 0), "HP"), number(data.get("mp", 0), "MP")
    sheet = Sheet(
        name=nfkc(str(data["name"])).strip(),
        owner=str(data.get("owner", "")).strip(),
        npc=npc,
        cl=number(data.get("cl", 1), "CL"),
        race=str(data.get("race", "")),
        classes=[str(c) for c in data.get("classes", [])],
        stats=stats,
        hp=hp,
        hp_max=number(data.get("hp_max", hp), "HP最大"),
        durability=number(data.get("durability", 0), "耐久値"),
        mp=mp,
        mp_max=number(data.get("mp_max", mp), "MP最大"),
        c=number(data.get("c", START_C), "C値"),
        f=number(data.get("f", START_F), "F値"),
        overrides={
            nfkc(k): {nfkc(a).upper(): int(b) for a, b in dict(v).items()}
            for k, v in dict(data.get("overrides", {})).items()
        },
        skills=[_skill(s) for s in data.get("skills", [])],
        weapons=[_item(i) for i in data.get("weapons", [])],
        armor=[_item(i) for i in data.get("armor", [])],
        accessories=[_item(i) for i in data.get("accessories", [])],
        items=[_item(i) for i in data.get("items", [])],
        money=number(data.get("money", 0), "所持金"),
        connections=[
            Connection(nfkc(str(c["to"])), str(c.get("emotion", "")), number(c.get("strength", 0), "強度"))
            for c in data.get("connections", [])
        ],
        bonus={nfkc(k): number(v, k) for k, v in dict(data.get("bonus", {})).items()},
        race_stats={nfkc(k): number(v, k) for k, v in dict(data.get("race_stats", {})).items()},
        slots=number(data.get("slots", 0), "スキル取得枠"),
        row=str(data.get("row", "")),
    )
    return fill_defaults(sheet)


# -- the 【キャラシート】 block ------------------------------------------------------------------------


def is_sheet_post(body: str) -> bool:
    return any(nfkc(line).strip() == nfkc(SHEET_HEADING) for line in body.split("\n"))


def _pairs(body: str) -> list[tuple[str, str]]:
    lines = [nfkc(line).strip() for line in body.split("\n")]
    start = lines.index(nfkc(SHEET_HEADING)) + 1
    pairs: list[tuple[str, str]] = []
    for text in lines[start:]:
        if not text:
            continue
        key, sep, value = text.partition(":")
        if not sep:
            raise DystopiaError(f"キャラシートの行は「項目: 値」で書いてください（{text}）")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _sheet_skill(value: str, *, auto: bool) -> Skill:
    parts = [p.strip() for p in value.split("/")]
    data: dict[str, Any] = dict(zip(_SKILL_FIELDS, parts, strict=False))
    if "sl" in data:
        data["sl"] = str(data["sl"]).upper().removeprefix("SL")
    data["class"] = data.pop("cls", "")
    data["cost"] = data.get("cost") or 0
    data["sl"] = data.get("sl") or 0
    return _skill({**data, "auto": auto})


def _sheet_items(value: str) -> list[Item]:
    items = []
    for part in filter(None, (p.strip() for p in value.replace("、", ",").split(","))):
        if part == "なし":
            continue
        name, _, price = part.rpartition(" ")
        items.append(Item(name, number(price, "価格")) if name and price.isdigit() else Item(part))
    return items


def _sheet_connection(value: str) -> Connection:
    parts = [p.strip() for p in value.split("/")]
    if len(parts) != 3:
        raise DystopiaError(f"コネクションは「相手/感情/強度」で書いてください（{value}）")
    return Connection(parts[0], parts[1], number(parts[2], "感情の強度"))


def _sheet_override(sheet: Sheet, value: str) -> None:
    """`判定別: 回避/F/3` (C, F, C固定, F固定): a per-check C値/F値."""
    parts = [p.strip() for p in value.split("/")]
    if len(parts) != 3 or parts[1].upper() not in ("C", "F", "C固定", "F固定"):
        raise DystopiaError(f"判定別は「判定名/C か F（C固定・F固定）/値」で書いてください（{value}）")
    sheet.overrides.setdefault(parts[0], {})[parts[1].upper()] = number(parts[2], parts[1])


_LIST_KEYS = {
    "スキル": lambda sheet, value: sheet.skills.append(_sheet_skill(value, auto=False)),
    "自動スキル": lambda sheet, value: sheet.skills.append(_sheet_skill(value, auto=True)),
    "アイテム": lambda sheet, value: sheet.items.extend(_sheet_items(value)),
    "コネクション": lambda sheet, value: sheet.connections.append(_sheet_connection(value)),
    "判定別": _sheet_override,
}


def _apply_pair(sheet: Sheet, key: str, value: str) -> None:
    if key in _TEXT_FIELDS:
        setattr(sheet, _TEXT_FIELDS[key], value)
    elif key.upper() in _INT_FIELDS:
        setattr(sheet, _INT_FIELDS[key.upper()], number(value, key))
    elif key in BASE_STATS or key in EXTRA_STATS:
        sheet.stats[key] = number(value, key)
    elif key == "クラス":
        sheet.classes = [c.strip() for c in value.replace("、", "/").split("/") if c.strip()]
    elif key in _LIST_KEYS:
        _LIST_KEYS[key](sheet, value)
    elif key in _ITEM_FIELDS:
        getattr(sheet, _ITEM_FIELDS[key]).extend(_sheet_items(value))
    elif key == "所持金":
        sheet.money = number(value.removesuffix("ND"), key)
    elif key == "スキル取得枠":
        sheet.slots = number(value, key)
    else:
        raise DystopiaError(f"キャラシートの項目「{key}」は使えません")


def posted_sheet(body: str, owner: str) -> Sheet:
    """The sheet a `【キャラシート】` post describes, owned by its author's trip."""
    sheet = Sheet(name="", owner=owner)
    for key, value in _pairs(body):
        _apply_pair(sheet, key, value)
    if not sheet.name:
        raise DystopiaError("キャラシートに「名前: …」がありません")
    sheet.hp_max, sheet.mp_max = sheet.hp, sheet.mp
    return fill_defaults(sheet)
