"""Scenarios of the 都道府県バトロワ: the roster, its regions and the season options, read from TOML and
checked with messages a GM can act on. The 47-prefecture default ships as package data
(`engine/rules/battle_royale/scenarios/prefectures_47.toml`); a scenario without `prefectures` uses its roster.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.rules.battle_royale.state import Options, Prefecture
from engine.ruleset import unknown_keys

DEFAULT_SCENARIO = "prefectures_47.toml"

_SECTIONS: dict[str, dict[str, tuple[str, type, Any]]] = {
    # section -> key -> (Options field, type, check) ; check is a range tuple or a set of strings
    "options": {
        "renumber_after_dead_picks": ("renumber_after_dead_picks", int, (0, 1000)),
        "summary_every": ("summary_every", int, (0, 1000)),
        "battles_per_period": ("battles_per_period", int, (1, 100)),
        "surprise_equal_groups": ("surprise_equal_groups", str, {"plain", "group"}),
        "infight_mutual": ("infight_mutual", str, {"pair", "group"}),
    },
    "mastermind": {
        "enabled": ("mastermind", bool, None),
        "lives": ("mastermind_lives", int, (1, 99)),
        "camp_die": ("mastermind_camp_die", int, (1, 20)),
        "death_costs_life": ("mastermind_death_costs_life", bool, None),
        "collaborators_add_wins": ("mastermind_collaborators_add_wins", bool, None),
        "collaborators_count_as_defeats": ("mastermind_collaborators_count_as_defeats", bool, None),
        "final_alliance": ("mastermind_final_alliance", str, {"reconcile", "reroll"}),
        "final_escape": ("mastermind_final_escape", str, {"reroll", "mastermind_flees"}),
        "final_mutual": ("mastermind_final_mutual", str, {"reroll", "all_fall"}),
    },
    "revival": {
        "enabled": ("revival", bool, None),
        "representatives": ("revival_representatives", int, (1, 10)),
    },
    "tag_match": {
        "enabled": ("tag_match", bool, None),
        "ally_inapplicable": ("tag_ally_inapplicable", str, {"reroll", "escape"}),
    },
}
_TOP_KEYS = {"title", "prefectures", "regions", *_SECTIONS}
_PREF_KEYS = {"name", "code", "region"}
_MAX_NAME = 20


class ScenarioError(ValueError):
    """A scenario the rules cannot play; `problems` lists every issue found, in Japanese."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("シナリオに誤りがあります:\n" + "\n".join(f"・{p}" for p in problems))


@dataclass(frozen=True)
class Scenario:
    roster: tuple[Prefecture, ...]
    options: Options


def parse_scenario_toml(text: str) -> dict[str, Any]:
    """TOML text → scenario dict (checked later by `build_scenario`)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError([f"TOMLとして読めません（{exc}）"]) from exc


@lru_cache(maxsize=1)
def _default_data() -> dict[str, Any]:
    text = (resources.files("engine.rules.battle_royale") / "scenarios" / DEFAULT_SCENARIO).read_text(
        encoding="utf-8"
    )
    return parse_scenario_toml(text)


def default_scenario() -> dict[str, Any]:
    """The shipped 47-prefecture scenario as a fresh dict."""
    return copy.deepcopy(_default_data())


def build_scenario(data: dict[str, Any]) -> Scenario:
    """Check a scenario dict and turn it into a roster and options; every problem is reported at once."""
    if not isinstance(data, dict):
        raise ScenarioError(["シナリオは表（TOMLのテーブル）でなければなりません"])
    problems: list[str] = []
    problems += unknown_keys(data, _TOP_KEYS)
    values: dict[str, Any] = {}
    title = data.get("title", Options.title)
    if not isinstance(title, str) or not title.strip():
        problems.append("title は空でない文字列にしてください")
    else:
        values["title"] = title.strip()
    for section, spec in _SECTIONS.items():
        values.update(_read_section(data.get(section, {}), section, spec, problems))
    roster = _read_roster(data, problems)
    options = Options(**values)
    if roster:
        _check_combination(roster, options, problems)
    if problems:
        raise ScenarioError(problems)
    return Scenario(tuple(roster), options)


def _read_section(
    section_data: Any, section: str, spec: dict[str, tuple[str, type, Any]], problems: list[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not isinstance(section_data, dict):
        problems.append(f"[{section}] は表にしてください")
        return out
    problems += unknown_keys(section_data, spec, f"[{section}] ")
    for key, value in section_data.items():
        if key not in spec:
            continue
        target, kind, check = spec[key]
        if kind is bool:
            if not isinstance(value, bool):
                problems.append(f"[{section}] {key} は true か false にしてください（指定: {value!r}）")
                continue
        elif kind is int:
            low, high = check
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                problems.append(f"[{section}] {key} は{low}～{high}の整数にしてください（指定: {value!r}）")
                continue
        elif not isinstance(value, str) or value not in check:
            problems.append(
                f"[{section}] {key} は {' か '.join(sorted(check))} にしてください（指定: {value!r}）"
            )
            continue
        out[target] = value
    return out


def _read_roster(data: dict[str, Any], problems: list[str]) -> list[Prefecture]:
    raw = data.get("prefectures")
    if raw is None:
        raw = _default_data()["prefectures"]  # read only: never changed here
    if not isinstance(raw, list) or not raw:
        problems.append("prefectures は [[prefectures]] の並び（1件以上）にしてください")
        return []
    roster: list[Prefecture] = []
    seen_names: set[str] = set()
    seen_codes: set[str] = set()
    for index, entry in enumerate(raw, start=1):
        read = _read_prefecture(index, entry, problems)
        if read is None:
            continue
        prefecture, code = read
        if prefecture.name in seen_names:
            problems.append(f"都道府県名「{prefecture.name}」が二度あります")
        if code in seen_codes:
            problems.append(f"code「{code}」が二度あります（{prefecture.name}）")
        seen_names.add(prefecture.name)
        seen_codes.add(code)
        roster.append(prefecture)
    regions = data.get("regions")
    if regions is not None:
        roster = _apply_regions(roster, regions, problems)
    return roster


def _read_prefecture(index: int, entry: Any, problems: list[str]) -> tuple[Prefecture, str] | None:
    """One [[prefectures]] entry, with its code as written (duplicates are told apart before stripping)."""
    where = f"{index}番目の [[prefectures]]"
    if not isinstance(entry, dict):
        problems.append(f"{where} は表にしてください")
        return None
    problems += unknown_keys(entry, _PREF_KEYS, f"{where} ")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(f"{where} に name（都道府県名）がありません")
        return None
    name = name.strip()
    if len(name) > _MAX_NAME or any(ch in name for ch in "『』\n"):
        problems.append(
            f"{where} の name「{name}」は{_MAX_NAME}文字以内で『』や改行を含まない名前にしてください"
        )
        return None
    code = entry.get("code", f"{index:02d}")
    if not isinstance(code, str) or not code.strip():
        problems.append(f"{where}（{name}）の code は文字列にしてください")
        return None
    region = entry.get("region", "")
    if not isinstance(region, str):
        problems.append(f"{where}（{name}）の region は文字列にしてください")
        return None
    return Prefecture(name, code.strip(), region.strip()), code


def _apply_regions(roster: list[Prefecture], regions: Any, problems: list[str]) -> list[Prefecture]:
    """`[regions]` regroups the roster: 地区名 = ["都道府県", ...]; every listed name must exist once."""
    if not isinstance(regions, dict):
        problems.append('[regions] は 地区名 = ["都道府県", ...] の表にしてください')
        return roster
    names = {p.name for p in roster}
    region_of: dict[str, str] = {}
    for region, members in regions.items():
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            problems.append(f"[regions] {region} は都道府県名の並びにしてください")
            continue
        for member in members:
            if member not in names:
                problems.append(f"[regions] {region} の「{member}」は参加都道府県にありません")
            elif member in region_of:
                problems.append(f"「{member}」が地区 {region_of[member]} と {region} の両方にあります")
            else:
                region_of[member] = region
    return [Prefecture(p.name, p.code, region_of.get(p.name, p.region)) for p in roster]


def _check_combination(roster: list[Prefecture], options: Options, problems: list[str]) -> None:
    if options.tag_match and (options.mastermind or options.revival):
        problems.append("タッグマッチは黒幕・地区復活と同時には使えません（どれか一つにしてください）")
    entrants = len(roster)
    if options.revival:
        missing = [p.name for p in roster if not p.region]
        if missing:
            problems.append(f"地区復活には全員の地区（region）が必要です: {'、'.join(missing[:10])}")
        sizes: dict[str, int] = {}
        for p in roster:
            sizes[p.region] = sizes.get(p.region, 0) + 1
        entrants = sum(min(n, options.revival_representatives) for n in sizes.values())
    if entrants < 2:
        problems.append(f"参加者（地区復活では各地区の代表）が2名以上必要です（今は{entrants}名）")
    elif options.mastermind and entrants < 3:
        problems.append(f"黒幕ありには3名以上の参加者が必要です（今は{entrants}名）")
    elif options.tag_match and entrants < 3:
        problems.append(f"タッグマッチには3名以上の参加者が必要です（今は{entrants}名）")
