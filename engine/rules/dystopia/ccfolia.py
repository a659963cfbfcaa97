"""ココフォリア's clipboard character JSON (what web character sheets export) as a sheet patch: pasted in
a post, it adds or updates the poster's PC like a 【キャラシート】 block.

The format: `{"kind": "character", "data": {"name", "initiative", "status": [{"label", "value",
"max"}], "params": [{"label", "value"}], "commands", …}}`. Status HP/MP (and 耐久値) give the resources;
`initiative` the 行動値; params the stats, CL, C値/F値, and a stat's ボーナス, 種族能力値 or その他補正
(`肉体ボーナス`, `種族肉体`, `その他補正:肉体`…); every other label is listed as not read. Connections,
skills and equipment are not in the format: an update keeps those the sheet had.

The clipboard holds one long line, which no board takes: a post may carry it split over as many lines
as the board needs, anywhere (inside a string too) — the line breaks are dropped before reading.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.rules.dystopia.sheets import (
    EXTRA_STATS,
    STAT_TABLES,
    Patch,
    character_name,
    number,
    text_value,
)
from engine.rules.dystopia.state import BASE_STATS, DystopiaError

_RESOURCES = {"HP": ("hp", "hp_max"), "MP": ("mp", "mp_max")}
_PARAMS = {"CL": "cl", "C値": "c", "F値": "f", "耐久値": "durability"}
_STAT = "|".join(BASE_STATS)
_PART = "|".join(STAT_TABLES)
_PART_OF_STAT = re.compile(
    rf"^(?:(?P<p1>{_PART}|種族)[\s:・(（]*(?P<s1>{_STAT})[)）]?|(?P<s2>{_STAT})[\s:・(（]*(?P<p2>{_PART}|種族)[)）]?)$"
)
_DECODER = json.JSONDecoder(strict=False)


def _decode(text: str) -> Any:
    start = text.find("{")
    if start < 0:
        return None
    try:
        return _DECODER.raw_decode(text, start)[0]
    except (json.JSONDecodeError, RecursionError):  # nested past the decoder's depth: not a sheet
        return None


def ccfolia_data(body: str) -> dict[str, Any] | None:
    """The character JSON a post holds (from its first `{`, over any number of lines), or None."""
    joined = "".join(body.split("\n"))
    if '"kind"' not in joined:
        return None
    for text in (joined, body.strip()):
        data = _decode(text)
        if isinstance(data, dict) and data.get("kind") == "character" and isinstance(data.get("data"), dict):
            return data["data"]
    return None


_CHARACTER_START = re.compile(r'\{\s*"kind"\s*:\s*"character"')


def looks_cut(body: str) -> bool:
    """A post that starts a ココフォリア character JSON that does not parse (cut short, say)."""
    return bool(_CHARACTER_START.search("".join(body.split("\n")))) and ccfolia_data(body) is None


def _entries(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    found = data.get(key)
    if found is None:
        return []
    if not isinstance(found, list) or not all(isinstance(entry, dict) for entry in found):
        raise DystopiaError(f"ココフォリアのキャラクターの {key} が項目の一覧ではありません")
    return found


def _status(patch: Patch, entry: dict[str, Any], skipped: list[str]) -> None:
    label = text_value(entry.get("label", ""), "status の label").upper()
    if label in _RESOURCES:
        now, most = _RESOURCES[label]
        patch[now] = number(entry.get("value", 0), label)
        patch[most] = number(entry.get("max", entry.get("value", 0)), f"{label}の最大")
    elif label == "耐久値":
        patch["durability"] = number(entry.get("value", 0), label)
    elif label:
        skipped.append(label)


def _param(patch: Patch, entry: dict[str, Any], skipped: list[str]) -> None:
    label = text_value(entry.get("label", ""), "params の label")
    value = entry.get("value", "")
    part = _PART_OF_STAT.match(label)
    if label in BASE_STATS or label in EXTRA_STATS:
        patch.setdefault("stats", {})[label] = number(value, label)
    elif label.upper() in _PARAMS:
        patch[_PARAMS[label.upper()]] = number(value, label)
    elif part:
        which, stat = part["p1"] or part["p2"], part["s1"] or part["s2"]
        attribute = "race_stats" if which in ("種族", "種族能力値") else STAT_TABLES[which]
        patch.setdefault(attribute, {})[stat] = number(value, label)
    elif label:
        skipped.append(label)


def ccfolia_patch(data: dict[str, Any]) -> tuple[Patch, list[str]]:
    """The fields the character JSON gives, and the labels that were not read."""
    if not text_value(data.get("name", ""), "name"):
        raise DystopiaError("ココフォリアのキャラクターに name がありません")
    patch: Patch = {"name": character_name(data["name"])}
    skipped: list[str] = []
    if data.get("initiative") is not None:
        patch["stats"] = {"行動値": number(data["initiative"], "initiative（行動値）")}
    for entry in _entries(data, "status"):
        _status(patch, entry, skipped)
    for entry in _entries(data, "params"):
        _param(patch, entry, skipped)
    return patch, skipped
