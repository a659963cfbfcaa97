"""A DH scenario (TOML, see `scenarios/template.toml`) read into the initial state, with every problem
named in Japanese: the map, the two sides, the characters and their powers as data, reinforcements
(増援) and the campaign options. Defaults are `state.Options`' and `state.Power`'s, named in HELP."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from engine.rules.dh.board import Grid, parse_range
from engine.rules.dh.effects import CATALOGUE
from engine.rules.dh.state import (
    ACTIVE,
    COUNTER,
    FIELD,
    PASSIVE,
    STATS,
    STYLES,
    Character,
    CostSpec,
    DHState,
    EffectSpec,
    Options,
    Power,
    Reinforcement,
    Side,
)
from engine.ruleset import RulesetError

_STYLE_WORDS = {word: style for style, word in STYLES.items()} | {style: style for style in STYLES}
_STAT_WORDS = {word: stat for stat, word in STATS.items()} | {stat: stat for stat in STATS}
COSTS = ("体力", "精神", "攻撃力", "防御力", "死亡")
TARGETS = ("敵", "味方", "全員", "自分")
COUNTERS = ("被攻撃", "敵侵入")


def _fail(text: str) -> RulesetError:
    return RulesetError(f"シナリオ: {text}")


def _int(table: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(f"{where}の {key} は0以上の整数にしてください（{value!r}）")
    return value


def _grid(data: Mapping[str, Any]) -> Grid:
    table = data.get("map", {})
    rows = str(table.get("rows", "ABCDE"))
    columns = _int(table, "columns", "map", 7)
    walls = [str(w) for w in table.get("walls", ["A4", "C4", "E4"])]
    grid = Grid(rows, columns, frozenset())
    for wall in walls:
        if not grid.contains(wall):
            raise _fail(f"壁 {wall} はMAP（{rows[0]}～{rows[-1]} × 1～{columns}）の外です")
    return Grid(rows, columns, frozenset(walls))


def _squares(grid: Grid, items: Any, where: str) -> list[str]:
    squares = [str(item) for item in items or ()]
    for square in squares:
        if not grid.open(square):
            raise _fail(f"{where}の {square} はMAPの外か壁です")
    return squares


def _sides(data: Mapping[str, Any], grid: Grid) -> list[Side]:
    items = data.get("sides", [])
    if len(items) != 2:
        raise _fail("陣営（[[sides]]）はちょうど2つにしてください")
    sides = [
        Side(
            str(item["name"]),
            [str(t) for t in item.get("trips", [])],
            _squares(grid, item.get("zone"), "zone"),
        )
        for item in items
    ]
    if sides[0].name == sides[1].name:
        raise _fail("2つの陣営に同じ名前はつけられません")
    first = data.get("game", {}).get("first", sides[0].name)
    if first not in (side.name for side in sides):
        raise _fail(f"先手の陣営 {first} は sides にありません")
    return sides if sides[0].name == first else sides[::-1]


def _effect(item: Mapping[str, Any], where: str) -> EffectSpec:
    kind = str(item.get("kind", ""))
    if kind not in CATALOGUE:
        raise _fail(f"{where}の効果 {kind!r} はありません（{'、'.join(CATALOGUE)}）")
    stat = str(item.get("stat", ""))
    if kind == "能力値増減" and stat not in _STAT_WORDS:
        raise _fail(f"{where}の能力値増減には stat（攻撃力・防御力・精神・移動力）が要ります")
    value = item.get("value", 0)
    if not isinstance(value, int):
        raise _fail(f"{where}の効果の value は整数にしてください")
    return EffectSpec(kind, value, _STAT_WORDS.get(stat, ""), _int(item, "turns", where, 0))


def _cost(item: Mapping[str, Any], where: str) -> CostSpec:
    kind = str(item.get("kind", ""))
    if kind not in COSTS:
        raise _fail(f"{where}の消費制約 {kind!r} はありません（{'、'.join(COSTS)}）")
    return CostSpec(kind, _int(item, "value", where, 0))


def _power(item: Mapping[str, Any], owner: str) -> Power:
    where = f"{owner}の能力「{item.get('name', '')}」"
    style = _STYLE_WORDS.get(str(item.get("style", ACTIVE)))
    if style is None:
        raise _fail(f"{where}のスタイルはアクティブ・パッシブ・カウンター・フィールドのどれかです")
    known = {f.name for f in fields(Power)}
    extra = set(item) - known
    if extra:
        raise _fail(f"{where}に知らない項目があります: {'、'.join(sorted(extra))}")
    power = Power(**{**item, "style": style, "effects": [], "costs": []})
    power.effects = [_effect(e, where) for e in item.get("effects", ())]
    power.costs = [_cost(c, where) for c in item.get("costs", ())]
    if parse_range(power.range) is None:
        raise _fail(f"{where}の範囲 {power.range!r} が読めません（同マス・隣接n・半径n・周囲n・MAP全体）")
    if power.target not in TARGETS:
        raise _fail(f"{where}の対象 {power.target!r} は 敵・味方・全員・自分 のどれかです")
    if power.style == COUNTER and power.counter not in COUNTERS:
        raise _fail(f"{where}のカウンター条件は 被攻撃・敵侵入 のどちらかです")
    for key in ("activation", "success", "rest", "wait", "targets"):
        _int(item, key, where, getattr(power, key))
    return power


def _character(item: Mapping[str, Any], grid: Grid, sides: list[Side]) -> Character:
    name = str(item.get("name", "")).strip()
    if not name or any(ch in name for ch in " 　:：、,/[]"):
        raise _fail(f"キャラクター名 {name!r} には空白や「:」「、」「/」「[]」を使えません")
    side = str(item.get("side", ""))
    if side not in (s.name for s in sides):
        raise _fail(f"{name}の陣営 {side} は sides にありません")
    reserve = bool(item.get("reserve", False))
    square = None if reserve else str(item.get("square", ""))
    if square is not None and not grid.open(square):
        raise _fail(f"スタメン {name} の初期配置 {square!r} はMAPの外か壁です")
    hp = _int(item, "hp", name, 1)
    return Character(
        name,
        side,
        str(item.get("gender", "")),
        _int(item, "attack", name, 0),
        _int(item, "defense", name, 0),
        hp,
        _int(item, "mind", name, 0),
        _int(item, "fs", name, 0),
        hp,
        square,
        starter=not reserve,
        entered=None if reserve else 0,
        powers=[_power(p, name) for p in item.get("powers", ())],
    )


def _characters(data: Mapping[str, Any], grid: Grid, sides: list[Side]) -> dict[str, Character]:
    characters: dict[str, Character] = {}
    placed: dict[str, str] = {}
    for item in data.get("characters", ()):
        character = _character(item, grid, sides)
        if character.name in characters:
            raise _fail(f"キャラクター {character.name} が2人います")
        if character.square in placed:
            raise _fail(
                f"初期配置では1マスに1人です（{character.square}: {placed[character.square]}と{character.name}）"
            )
        if character.square:
            placed[character.square] = character.name
        characters[character.name] = character
    return characters


def _options(data: Mapping[str, Any]) -> Options:
    table = dict(data.get("options", {}))
    known = {f.name for f in fields(Options)}
    extra = set(table) - known
    if extra:
        raise _fail(f"options に知らない項目があります: {'、'.join(sorted(extra))}")
    return Options(**table)


def _reinforcements(data: Mapping[str, Any], grid: Grid, sides: list[Side]) -> list[Reinforcement]:
    found = []
    for item in data.get("reinforcements", ()):
        side = str(item.get("side", ""))
        if side not in (s.name for s in sides):
            raise _fail(f"増援の陣営 {side} は sides にありません")
        zone = _squares(grid, item.get("zone"), "増援の zone")
        if not zone:
            raise _fail("増援には zone（配置するマス）が要ります")
        found.append(Reinforcement(side, _int(item, "turn", "増援", 1), _int(item, "count", "増援", 1), zone))
    return found


def initial_state(data: Mapping[str, Any]) -> DHState:
    grid = _grid(data)
    sides = _sides(data, grid)
    state = DHState(
        grid.rows,
        grid.columns,
        sorted(grid.walls),
        sides,
        _characters(data, grid, sides),
        _options(data),
        _reinforcements(data, grid, sides),
        dp={side.name: 0 for side in sides},
    )
    budget = state.options.stat_budget
    for c in state.characters.values():
        total = c.attack + c.defense + c.hp + c.mind + c.fs
        if budget and total > budget:
            raise _fail(
                f"{c.name}のステータス合計{total}が上限{budget}を超えています（攻撃力+防御力+体力+精神+FS）"
            )
    if not any(c.starter for c in state.characters.values()):
        raise _fail("スタメンがいません")
    return state


__all__ = ["COSTS", "COUNTERS", "FIELD", "PASSIVE", "TARGETS", "initial_state"]
