"""Character sheets: from the scenario's `[[pcs]]`/`[[npcs]]` tables, and from a `【キャラシート】` block of
`項目: 値` lines that a player posts under their trip. A posted block is read as a *patch* — the fields
it names — which `apply_patch` lays over the sheet the character has (a post names what it changes and
keeps the rest); `sheet_posts` writes a sheet back as post-ready 【キャラシート】 blocks.

Every number goes through `number`, the project's one number reader (parser/numbers.py): NFKC (full and
half width alike), then an optional sign and ASCII digits only, at most `MAX_DIGITS` of them; anything
else is refused with the field's name.
The weapon and armour slots left empty are filled with 素手 and 一般服 (the seed's rule).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from engine.rules.dystopia.state import (
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
from engine.ruleset import unknown_keys
from parser.numbers import NotANumber, read_number

SHEET_HEADING = "【キャラシート】"
EXTRA_STATS = ("近接", "射撃", "魔術", "行動値", "敏捷")
MAX_DIGITS = 6  # no number on a sheet or in a command needs more
SCENARIO_KEYS = {
    *("name", "owner", "cl", "race", "classes", "stats", "hp", "hp_max", "durability", "mp", "mp_max"),
    *("c", "f", "overrides", "skills", "weapons", "armor", "accessories", "items", "money"),
    *("connections", "bonus", "race_stats", "other", "slots", "row", "handout"),
}
_SKILL_FIELDS = ("name", "kind", "timing", "target", "range", "price", "cost", "sl", "cls")
_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_STAT_VALUE = re.compile(rf"({'|'.join((*BASE_STATS, *EXTRA_STATS))})\s*[=:＝]?\s*([+-]?[0-9]+)")

# The sheet's labels: what a post writes, the Sheet attribute it sets.
INT_LABELS = {
    "CL": "cl",
    "耐久値": "durability",
    "C値": "c",
    "F値": "f",
    "所持金": "money",
    "スキル取得枠": "slots",
}
TEXT_LABELS = {"名前": "name", "種族": "race", "行": "row", "PL": "owner"}
ITEM_LABELS = {
    "武器": "weapons",
    "防具": "armor",
    "装飾": "accessories",
    "アクセサリー": "accessories",
    "アイテム": "items",
}
STAT_TABLES = {"ボーナス": "bonus", "種族能力値": "race_stats", "その他補正": "other"}
POOL_LABELS = {"HP": ("hp", "hp_max"), "MP": ("mp", "mp_max")}
LABELS: dict[str, str] = {  # attribute → its label, for messages and the scenario's sheet_fields
    **{attr: label for label, attr in (*INT_LABELS.items(), *TEXT_LABELS.items(), *STAT_TABLES.items())},
    **{attr: label for label, attr in ITEM_LABELS.items() if label != "アクセサリー"},
    "hp": "HP",
    "hp_max": "HP",
    "mp": "MP",
    "mp_max": "MP",
    "classes": "クラス",
    "skills": "スキル",
    "auto_skills": "自動スキル",
    "connections": "コネクション",
    "overrides": "判定別",
    "npc": "NPC",
}

Patch = dict[str, Any]  # Sheet attribute → value; "stats" is a table of the stats named; lists replace


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _shown(text: Any) -> str:
    value = str(text)
    return value if len(value) <= 16 else value[:16] + "…"


def number(text: Any, what: str) -> int:
    """An integer written in full or half width with an optional sign, read by the one number reader
    (ASCII digits after NFKC, at most MAX_DIGITS): DystopiaError naming the field otherwise."""
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise DystopiaError(f"{what}は整数で書いてください（{_shown(text)}）")
    found = read_number(str(text).replace("−", "-"), what=what, digits=MAX_DIGITS, signed=True)
    if isinstance(found, NotANumber):
        raise DystopiaError(found.reason)
    return found


def text_value(value: Any, what: str) -> str:
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise DystopiaError(f"{what}は文字で書いてください（{_shown(value)}）")
    return nfkc(str(value)).strip()


MAX_NAME = 24  # the grammar's `名前:` takes up to 24 characters, no space and no colon


def character_name(text: Any) -> str:
    """A character's name as the grammar can address it (`名前: 肉体判定`, `対決 名前 反射`)."""
    name = text_value(text, "名前")
    if not name:
        raise DystopiaError("キャラシートに「名前: …」がありません")
    if len(name) > MAX_NAME or any(c.isspace() or c == ":" for c in name):
        raise DystopiaError(f"名前は空白と「:」のない{MAX_NAME}文字までです（{_shown(name)}）")
    return name


def _item(data: Any) -> Item:
    if isinstance(data, Mapping):
        return Item(text_value(data.get("name", ""), "品名"), number(data.get("price", 0), "価格"))
    return Item(text_value(data, "品名"))


def _skill(data: Any) -> Skill:
    if not isinstance(data, Mapping):
        raise DystopiaError(f"スキルは表で書いてください（{_shown(data)}）")
    return Skill(
        name=text_value(data.get("name", ""), "スキル名"),
        kind=text_value(data.get("kind", ""), "種別"),
        timing=text_value(data.get("timing", ""), "タイミング"),
        target=text_value(data.get("target", ""), "対象"),
        range=text_value(data.get("range", ""), "射程"),
        price=text_value(data.get("price", ""), "代償"),
        cost=number(data.get("cost", 0), "コスト"),
        sl=number(data.get("sl", 0), "SL"),
        cls=text_value(data.get("class", data.get("cls", "")), "クラス"),
        auto=bool(data.get("auto", False)),
    )


def _table(data: Any, what: str) -> dict[str, int]:
    if not isinstance(data, Mapping):
        raise DystopiaError(f"{what}は表で書いてください（{_shown(data)}）")
    return {nfkc(str(k)).strip(): number(v, f"{what}の{k}") for k, v in data.items()}


def _list(data: Any, what: str) -> list[Any]:
    if not isinstance(data, list):
        raise DystopiaError(f"{what}は一覧で書いてください（{_shown(data)}）")
    return data


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
    """One `[[pcs]]` or `[[npcs]]` table of the scenario (locked: a player's re-post changes only the
    fields the scenario's sheet_fields allow)."""
    if "name" not in data:
        raise DystopiaError("キャラクターに name がありません")
    problems = unknown_keys(data, SCENARIO_KEYS, str(data["name"]))
    if problems:
        raise DystopiaError("\n".join(problems))
    hp, mp = number(data.get("hp", 0), "HP"), number(data.get("mp", 0), "MP")
    connections = []
    for link in _list(data.get("connections", []), "connections"):
        if not isinstance(link, Mapping):
            raise DystopiaError(f"コネクションは表で書いてください（{_shown(link)}）")
        to, emotion = text_value(link.get("to", ""), "相手"), text_value(link.get("emotion", ""), "感情")
        connections.append(Connection(to, emotion, number(link.get("strength", 0), "強度")))
    sheet = Sheet(
        name=character_name(data["name"]),
        owner=text_value(data.get("owner", ""), "owner"),
        npc=npc,
        cl=number(data.get("cl", 1), "CL"),
        race=text_value(data.get("race", ""), "race"),
        classes=[text_value(c, "classes") for c in _list(data.get("classes", []), "classes")],
        stats=_table(data.get("stats", {}), "stats"),
        hp=hp,
        hp_max=number(data.get("hp_max", hp), "HP最大"),
        durability=number(data.get("durability", 0), "耐久値"),
        mp=mp,
        mp_max=number(data.get("mp_max", mp), "MP最大"),
        c=number(data.get("c", START_C), "C値"),
        f=number(data.get("f", START_F), "F値"),
        overrides={
            nfkc(str(k)): {nfkc(str(a)).upper(): number(b, str(a)) for a, b in _table(v, str(k)).items()}
            for k, v in dict(data.get("overrides", {})).items()
        },
        skills=[_skill(s) for s in _list(data.get("skills", []), "skills")],
        weapons=[_item(i) for i in _list(data.get("weapons", []), "weapons")],
        armor=[_item(i) for i in _list(data.get("armor", []), "armor")],
        accessories=[_item(i) for i in _list(data.get("accessories", []), "accessories")],
        items=[_item(i) for i in _list(data.get("items", []), "items")],
        money=number(data.get("money", 0), "所持金"),
        connections=connections,
        bonus=_table(data.get("bonus", {}), "bonus"),
        race_stats=_table(data.get("race_stats", {}), "race_stats"),
        other=_table(data.get("other", {}), "other"),
        slots=number(data.get("slots", 0), "スキル取得枠"),
        row=text_value(data.get("row", ""), "row"),
        locked=True,
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
            raise DystopiaError(f"キャラシートの行は「項目: 値」で書いてください（{_shown(text)}）")
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
        items.append(Item(name, number(price, "価格")) if name and _INTEGER.fullmatch(price) else Item(part))
    return items


def _sheet_connection(value: str) -> Connection:
    parts = [p.strip() for p in value.split("/")]
    if len(parts) != 3:
        raise DystopiaError(f"コネクションは「相手/感情/強度」で書いてください（{_shown(value)}）")
    return Connection(parts[0], parts[1], number(parts[2], "感情の強度"))


def _sheet_override(overrides: dict[str, dict[str, int]], value: str) -> None:
    """`判定別: 回避/F/3` (C, F, C固定, F固定): a per-check C値/F値."""
    parts = [p.strip() for p in value.split("/")]
    if len(parts) != 3 or parts[1].upper() not in ("C", "F", "C固定", "F固定"):
        raise DystopiaError(
            f"判定別は「判定名/C か F（C固定・F固定）/値」で書いてください（{_shown(value)}）"
        )
    overrides.setdefault(parts[0], {})[parts[1].upper()] = number(parts[2], parts[1])


def stat_table(value: str, what: str) -> dict[str, int]:
    """`肉体+1 知識+1` / `肉体5、集中4` / `肉体=2`: a table of stats (ボーナス, 種族能力値, その他補正)."""
    found = {stat: number(amount, f"{what}の{stat}") for stat, amount in _STAT_VALUE.findall(value)}
    rest = _STAT_VALUE.sub("", value).replace("、", "").replace(",", "").replace("・", "").strip()
    if rest and rest != "なし":
        raise DystopiaError(f"{what}は「肉体+1 知識+1」のように書いてください（{_shown(value)}）")
    return found


def _pool(patch: Patch, label: str, value: str) -> None:
    """`HP: 30` (now and most) or `HP: 20/30`."""
    now, most = POOL_LABELS[label]
    first, sep, second = value.partition("/")
    patch[now] = number(first, label)
    patch[most] = number(second, f"{label}最大") if sep else patch[now]


def _yes(value: str, what: str) -> bool:
    if value in ("はい", "yes", "true", "1", "あり"):
        return True
    if value in ("いいえ", "no", "false", "0", "なし"):
        return False
    raise DystopiaError(f"{what}は「はい」か「いいえ」で書いてください（{_shown(value)}）")


def _apply_pair(patch: Patch, key: str, value: str) -> None:
    if key in TEXT_LABELS:
        patch[TEXT_LABELS[key]] = value
    elif key.upper() in POOL_LABELS:
        _pool(patch, key.upper(), value)
    elif key.upper() in INT_LABELS or key in INT_LABELS:
        label = key.upper() if key.upper() in INT_LABELS else key
        patch[INT_LABELS[label]] = number(value.removesuffix("ND") if label == "所持金" else value, key)
    elif key in BASE_STATS or key in EXTRA_STATS:
        patch.setdefault("stats", {})[key] = number(value, key)
    elif key in STAT_TABLES:
        patch[STAT_TABLES[key]] = stat_table(value, key)
    elif key == "クラス":
        patch["classes"] = [c.strip() for c in value.replace("、", "/").split("/") if c.strip()]
    elif key in ("スキル", "自動スキル"):
        field = "skills" if key == "スキル" else "auto_skills"
        patch.setdefault(field, []).append(_sheet_skill(value, auto=key == "自動スキル"))
    elif key in ITEM_LABELS:
        patch.setdefault(ITEM_LABELS[key], []).extend(_sheet_items(value))
    elif key == "コネクション":
        patch.setdefault("connections", []).append(_sheet_connection(value))
    elif key == "判定別":
        _sheet_override(patch.setdefault("overrides", {}), value)
    elif key == "NPC":
        patch["npc"] = _yes(value, key)
    else:
        raise DystopiaError(
            f"キャラシートの項目「{_shown(key)}」は使えません（ヘルプ全文の「キャラシート」）"
        )


def posted_patch(body: str) -> Patch:
    """The fields a `【キャラシート】` post names (a `名前` among them)."""
    patch: Patch = {}
    for key, value in _pairs(body):
        _apply_pair(patch, key, value)
    patch["name"] = character_name(patch.get("name", ""))
    return patch


def apply_patch(sheet: Sheet, patch: Patch) -> Sheet:
    """The sheet with the patch's fields laid over it: named stats replace those stats, named lists
    replace those lists (スキル and 自動スキル apart), everything not named is kept."""
    new = Sheet.from_dict(sheet.to_dict())
    for attribute, value in patch.items():
        if attribute == "stats":
            new.stats = {**new.stats, **value}
        elif attribute == "skills":
            new.skills = [*(s for s in new.skills if s.auto), *value]
        elif attribute == "auto_skills":
            new.skills = [*value, *(s for s in new.skills if not s.auto)]
        else:
            setattr(new, attribute, value)
    return fill_defaults(new)


def changed_labels(old: Sheet, new: Sheet) -> list[str]:
    """The labels of what differs between two versions of a sheet, once each."""
    before, after = old.to_dict(), new.to_dict()
    labels: list[str] = []
    for attribute in after:
        if attribute == "stats":
            names = [k for k in after["stats"] if before["stats"].get(k) != after["stats"][k]]
        elif attribute == "skills":
            names = [
                LABELS[kind]
                for kind, auto in (("skills", False), ("auto_skills", True))
                if [s for s in before["skills"] if s["auto"] == auto]
                != [s for s in after["skills"] if s["auto"] == auto]
            ]
        elif attribute in LABELS and before[attribute] != after[attribute]:
            names = [LABELS[attribute]]
        else:
            names = []
        labels += [n for n in names if n not in labels]
    return labels


def attribute_label(attribute: str, stat: str | None = None) -> str:
    return stat if attribute == "stats" and stat else LABELS.get(attribute, attribute)


# -- writing a sheet as posts (threadgm import-character) -------------------------------------------


def sheet_lines(sheet: Sheet, *, owner: str = "") -> list[str]:
    """The `項目: 値` lines of a sheet (without the heading), the values a fresh sheet has left out."""
    lines = [f"名前: {sheet.name}"]
    if owner:
        lines.append(f"PL: {owner}")
    lines.append(f"CL: {sheet.cl}")
    if sheet.race:
        lines.append(f"種族: {sheet.race}")
    if sheet.classes:
        lines.append(f"クラス: {'/'.join(sheet.classes)}")
    lines += [f"{stat}: {value}" for stat, value in sheet.stats.items()]
    for label, (now, most) in POOL_LABELS.items():
        value, top = getattr(sheet, now), getattr(sheet, most)
        if value or top:
            lines.append(f"{label}: {value}/{top}" if top != value else f"{label}: {value}")
    for attribute, label in (("durability", "耐久値"), ("c", "C値"), ("f", "F値"), ("money", "所持金")):
        if getattr(sheet, attribute) != getattr(Sheet(name=""), attribute):
            lines.append(f"{label}: {getattr(sheet, attribute)}")
    for label, attribute in STAT_TABLES.items():
        table = getattr(sheet, attribute)
        if table:
            signed = label != "種族能力値"
            lines.append(
                f"{label}: " + " ".join(f"{k}{v:+d}" if signed else f"{k}{v}" for k, v in table.items())
            )
    return lines


def sheet_posts(lines: list[str], *, max_lines: int, max_columns: int, max_chars: int) -> list[str]:
    """The lines as 【キャラシート】 posts within a board's limits: each post has the heading and the
    名前 line (a later post updates the sheet the first one registered). The lines of one item (all
    スキル lines, say) stay in one post, since a post's スキル replace the sheet's; a line too long is cut."""
    name, rest = lines[0], [text[:max_columns] for text in lines[1:]]
    head = [SHEET_HEADING, name]
    groups: list[list[str]] = []
    for text in rest:
        key = text.partition(":")[0]
        if groups and groups[-1][0].partition(":")[0] == key:
            groups[-1].append(text)
        else:
            groups.append([text])
    posts: list[list[str]] = [list(head)]
    for group in groups:
        current = posts[-1]
        fits = len(current) + len(group) <= max_lines and len("\n".join([*current, *group])) <= max_chars
        if not fits and len(current) > len(head):
            current = list(head)
            posts.append(current)
        current += group
    return ["\n".join(post) for post in posts]
