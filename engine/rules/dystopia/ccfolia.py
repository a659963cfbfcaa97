"""ココフォリア's clipboard character JSON (what web character sheets export) as a sheet: pasted in a
post, it adds or updates the poster's PC like a 【キャラシート】 block.

The format: `{"kind": "character", "data": {"name", "status": [{"label", "value", "max"}],
"params": [{"label", "value"}], "commands", …}}`. Status HP/MP (and 耐久値) give the resources;
params give the stats, CL, C値/F値; every other label is listed as not read. Connections, skills and
equipment are not in the format: an update keeps the connections the sheet had.

`scenario_table` writes such a sheet as the `[[pcs]]` (or `[[npcs]]`) table of a scenario file, for
`threadgm import-character dystopia FILE`.
"""

from __future__ import annotations

import json
from typing import Any

from engine.rules.dystopia.model import DystopiaError, Sheet
from engine.rules.dystopia.sheets import EXTRA_STATS, fill_defaults, nfkc, number

_RESOURCES = {"HP": ("hp", "hp_max"), "MP": ("mp", "mp_max")}
_PARAMS = {"CL": "cl", "C値": "c", "F値": "f", "耐久値": "durability"}
BASE_LABELS = ("肉体", "集中", "反射", "知識", "幸運")


def ccfolia_data(body: str) -> dict[str, Any] | None:
    """The character JSON a post holds (the whole post, or from its first `{`), or None."""
    text = body.strip()
    start = text.find("{")
    if start < 0 or '"kind"' not in text:
        return None
    try:
        data = json.loads(text[start:])
    except json.JSONDecodeError:
        return None
    if (
        not isinstance(data, dict)
        or data.get("kind") != "character"
        or not isinstance(data.get("data"), dict)
    ):
        return None
    return data["data"]


def _status(sheet: Sheet, entry: dict[str, Any], skipped: list[str]) -> None:
    label = nfkc(str(entry.get("label", ""))).strip().upper()
    if label in _RESOURCES:
        now, most = _RESOURCES[label]
        setattr(sheet, now, number(entry.get("value", 0), label))
        setattr(sheet, most, number(entry.get("max", entry.get("value", 0)), label))
    elif label == "耐久値":
        sheet.durability = number(entry.get("value", 0), label)
    elif label:
        skipped.append(label)


def _param(sheet: Sheet, entry: dict[str, Any], skipped: list[str]) -> None:
    label = nfkc(str(entry.get("label", ""))).strip()
    value = entry.get("value", "")
    if label in BASE_LABELS or label in EXTRA_STATS:
        sheet.stats[label] = number(value, label)
    elif label.upper() in _PARAMS:
        setattr(sheet, _PARAMS[label.upper()], number(value, label))
    elif label:
        skipped.append(label)


def ccfolia_sheet(data: dict[str, Any], owner: str) -> tuple[Sheet, list[str]]:
    """The sheet, and the labels that were not read."""
    name = nfkc(str(data.get("name", ""))).strip()
    if not name:
        raise DystopiaError("ココフォリアのキャラクターに name がありません")
    sheet, skipped = Sheet(name=name, owner=owner), []
    for entry in data.get("status") or []:
        if isinstance(entry, dict):
            _status(sheet, entry, skipped)
    for entry in data.get("params") or []:
        if isinstance(entry, dict):
            _param(sheet, entry, skipped)
    return fill_defaults(sheet), skipped


def scenario_table(sheet: Sheet, skipped: list[str]) -> str:
    """The sheet as a scenario's `[[pcs]]` table (`[[npcs]]` without an owner), values the JSON did
    not hold left out so that the scenario's defaults apply; the labels not read as a comment."""
    lines = ["[[pcs]]" if sheet.owner else "[[npcs]]", f"name = {_toml(sheet.name)}"]
    if sheet.owner:
        lines.append(f"owner = {_toml(sheet.owner)}")
    if sheet.stats:
        lines.append("stats = { " + ", ".join(f"{_toml(k)} = {v}" for k, v in sheet.stats.items()) + " }")
    defaults = Sheet(name=sheet.name)
    for key in ("cl", "hp", "hp_max", "durability", "mp", "mp_max", "c", "f"):
        value = getattr(sheet, key)
        if value != getattr(defaults, key):
            lines.append(f"{key} = {value}")
    if skipped:
        lines.append("# 読まなかった項目: " + "、".join(skipped).replace("\n", " "))
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and non-ASCII text stays readable."""
    return json.dumps(text, ensure_ascii=False)
