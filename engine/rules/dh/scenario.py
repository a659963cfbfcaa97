"""A DH scenario (TOML, see `scenarios/template.toml`) read into the initial state, with every problem
named in Japanese: the map, the two sides, the characters and their powers as data, reinforcements
(増援) and the campaign options. Defaults are `state.Options`' and `state.Power`'s, named in HELP."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import regex

from engine.rules.dh.effects import CATALOGUE
from engine.rules.dh.geometry import Grid, parse_range
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
from engine.rules.dh.submission import SECOND_LINE
from engine.ruleset import RulesetError, as_written, tables_of, unknown_keys

_STYLE_WORDS = {word: style for style, word in STYLES.items()} | {style: style for style in STYLES}
_STAT_WORDS = {word: stat for stat, word in STATS.items()} | {stat: stat for stat in STATS}
COSTS = ("体力", "精神", "攻撃力", "防御力", "死亡")
TARGETS = ("敵", "味方", "全員", "自分")
COUNTERS = ("被攻撃", "敵侵入")
CHOICES: dict[str, tuple[str, ...]] = {"second_line": SECOND_LINE}  # options naming one of a few readings


# Every key the reader takes, table by table ([[characters.powers]] and [options]: their dataclass's
# fields): a key not here would be a GM's typo run on the default.
_KEYS = {
    "": ("map", "sides", "game", "characters", "options", "reinforcements"),
    "map": ("rows", "columns", "walls"),
    "game": ("first", "open"),
    "sides": ("name", "trips", "zone"),
    "characters": (
        "name", "side", "gender", "attack", "defense", "hp", "mind", "fs", "reserve", "square", "powers",
    ),
    "reinforcements": ("side", "turn", "count", "zone"),
    "effects": ("kind", "stat", "value", "turns"),
    "costs": ("kind", "value"),
}  # fmt: skip


def _unknown(data: Mapping[str, Any]) -> list[str]:
    """A message for each key of the scenario, at any level, that the reader does not take."""
    problems = unknown_keys(data, _KEYS[""])
    problems += unknown_keys(data.get("map"), _KEYS["map"], "[map]")
    problems += unknown_keys(data.get("game"), _KEYS["game"], "[game]")
    # phase_minutes is known here so that _options says what became of it
    options = (*(f.name for f in fields(Options)), "phase_minutes")
    problems += unknown_keys(data.get("options"), options, "[options]")
    for name in ("sides", "characters", "reinforcements"):
        for number, item in enumerate(tables_of(data.get(name)), start=1):
            of = f"（{item['name']}）" if "name" in item else ""
            problems += unknown_keys(item, _KEYS[name], f"[[{name}]] {number}番目{of}")
    for character in tables_of(data.get("characters")):
        for power in tables_of(character.get("powers")):
            where = f"{character.get('name', '')}の能力「{power.get('name', '')}」"
            problems += unknown_keys(power, [f.name for f in fields(Power)], where)
            for name in ("effects", "costs"):
                for number, item in enumerate(tables_of(power.get(name)), start=1):
                    problems += unknown_keys(item, _KEYS[name], f"{where}の {name} {number}番目")
    return problems


def _fail(text: str) -> RulesetError:
    return RulesetError(f"シナリオ: {text}")


def _tables(data: Any, key: str, where: str = "") -> list[Mapping[str, Any]]:
    """`[[key]]` as a list of tables (a scenario of another shape is refused, naming the key)."""
    items = data.get(key, ()) if isinstance(data, Mapping) else ()
    if not isinstance(items, list | tuple) or not all(isinstance(item, Mapping) for item in items):
        raise _fail(f"{where}{key} は表の並び（[[{key}]] や {{ kind = … }} の並び）にしてください")
    return list(items)


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    table = data.get(key, {})
    if not isinstance(table, Mapping):
        raise _fail(f"[{key}] は表にしてください")
    return table


def _name(value: Any) -> str:
    """A name as lines will name it: the grammar reads every line in NFKC (`ＫＡＩ` = `KAI`, `ロボⅡ` =
    `ロボII`, `ｶｲ` = `カイ`), so a scenario's names are kept in that form or they could never be ordered
    or targeted."""
    return unicodedata.normalize("NFKC", str(value)).strip()


def _distinct(names: list[tuple[str, str]], what: str, twice: str = "が2つあります") -> None:
    """Two names (as written) that NFKC makes one are refused, with both spellings."""
    seen: dict[str, str] = {}
    for written, name in names:
        if name in seen:
            first = seen[name]
            same = f"「{first}」と「{written}」" if first != written else f"「{written}」"
            raise _fail(f"{what}{same}{twice}（全角・半角を同じに読むと どちらも「{name}」）")
        seen[name] = written


def _int(table: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(f"{where}の {key} は0以上の整数にしてください（{value}）")
    return value


def _grid(data: Mapping[str, Any]) -> Grid:
    table = _table(data, "map")
    rows = str(table.get("rows", "ABCDE"))
    if not regex.fullmatch(r"[A-Z]{1,26}", rows) or len(set(rows)) != len(rows):
        raise _fail(f"map の rows は A～Z の違う文字の並びにしてください（{rows}）")
    columns = _int(table, "columns", "map", 7)
    if not 1 <= columns <= 99:
        raise _fail(f"map の columns は1～99にしてください（{columns}）")
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


def _trips(item: Mapping[str, Any]) -> list[str]:
    """Who submits for a side: each `名前◆TRIP` or `◆TRIP` (a bare name is refused: anyone can take a
    name on a board; only a trip says who posted)."""
    trips = item.get("trips", [])
    if not isinstance(trips, list) or not all(isinstance(t, str) for t in trips):
        raise _fail(f"陣営 {item.get('name', '')} の trips は文字列の並びにしてください")
    for trip in trips:
        if not trip.partition("◆")[2].strip():
            raise _fail(
                f"陣営 {item.get('name', '')} の提出者「{trip}」にトリップがありません"
                "（名前だけでは誰でも名乗れます。threadgm trip '名前#キー' の出す 名前◆トリップ を書いてください）"
            )
    return [trip.strip() for trip in trips]


def _sides(data: Mapping[str, Any], grid: Grid) -> list[Side]:
    items = _tables(data, "sides")
    if len(items) != 2:
        raise _fail("陣営（[[sides]]）はちょうど2つにしてください")
    sides = [
        Side(_name(item.get("name", "")), _trips(item), _squares(grid, item.get("zone"), "zone"))
        for item in items
    ]
    if not all(side.name for side in sides):
        raise _fail("陣営には name が要ります")
    if sides[0].name == sides[1].name:
        raise _fail("2つの陣営に同じ名前はつけられません（全角・半角は同じに読みます）")
    first = _name(_table(data, "game").get("first", sides[0].name))
    if first not in (side.name for side in sides):
        raise _fail(f"先手の陣営 {first} は sides にありません")
    return sides if sides[0].name == first else sides[::-1]


def _effect(item: Mapping[str, Any], where: str) -> EffectSpec:
    kind = str(item.get("kind", ""))
    if kind not in CATALOGUE:
        raise _fail(f"{where}の効果 {as_written(kind)} はありません（{'、'.join(CATALOGUE)}）")
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
        raise _fail(f"{where}の消費制約 {as_written(kind)} はありません（{'、'.join(COSTS)}）")
    return CostSpec(kind, _int(item, "value", where, 0))


def _power(item: Mapping[str, Any], owner: str) -> Power:
    where = f"{owner}の能力「{item.get('name', '')}」"
    style = _STYLE_WORDS.get(str(item.get("style", ACTIVE)))
    if style is None:
        raise _fail(f"{where}のスタイルはアクティブ・パッシブ・カウンター・フィールドのどれかです")
    power = Power(**{**item, "name": _name(item.get("name", "")), "style": style, "effects": [], "costs": []})
    power.effects = [_effect(e, where) for e in _tables(item, "effects", where)]
    power.costs = [_cost(c, where) for c in _tables(item, "costs", where)]
    if parse_range(power.range) is None:
        raise _fail(
            f"{where}の範囲 {as_written(power.range)} が読めません（同マス・隣接n・半径n・周囲n・MAP全体）"
        )
    if power.target not in TARGETS:
        raise _fail(f"{where}の対象 {as_written(power.target)} は 敵・味方・全員・自分 のどれかです")
    if power.style == COUNTER and power.counter not in COUNTERS:
        raise _fail(f"{where}のカウンター条件は 被攻撃・敵侵入 のどちらかです")
    for key in ("activation", "success", "rest", "wait", "targets"):
        _int(item, key, where, getattr(power, key))
    return power


def _character(item: Mapping[str, Any], grid: Grid, sides: list[Side]) -> Character:
    written = str(item.get("name", "")).strip()
    name = _name(written)
    if not name or any(ch in name for ch in " :、,/[]") or any(not ch.isprintable() for ch in name):
        raise _fail(f"キャラクター名「{written}」には空白や「:」「、」「/」「[]」を使えません")
    if name[0] in ">・-*●○◎◇" or regex.fullmatch(r"[A-Za-z][0-9]+", name):
        # a line's anchor or list mark is read before the name; a square's name is read as a square
        raise _fail(f"キャラクター名「{written}」は「>」や「・」で始められず、マスの名前（C4）にもできません")
    side = _name(item.get("side", ""))
    if side not in (s.name for s in sides):
        raise _fail(f"{name}の陣営 {side} は sides にありません")
    reserve = item.get("reserve", False)
    if not isinstance(reserve, bool):  # bool("false") is True: a quoted word would bench a starter
        raise _fail(f"{name}の reserve は true か false にしてください（{as_written(reserve)}）")
    square = None if reserve else str(item.get("square", ""))
    if square is not None and not grid.open(square):
        raise _fail(f"スタメン {name} の初期配置 {as_written(square)} はMAPの外か壁です")
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
        powers=_powers(_tables(item, "powers", name), name),
    )


def _powers(items: Any, owner: str) -> list[Power]:
    powers = [_power(item, owner) for item in items]
    _distinct(
        [(str(item.get("name", "")), power.name) for item, power in zip(items, powers, strict=True)],
        f"{owner}の能力",
    )
    return powers


def _characters(data: Mapping[str, Any], grid: Grid, sides: list[Side]) -> dict[str, Character]:
    characters: dict[str, Character] = {}
    placed: dict[str, str] = {}
    items = _tables(data, "characters")
    _distinct(
        [(str(item.get("name", "")).strip(), _name(item.get("name", ""))) for item in items],
        "キャラクター",
        "が2人います",
    )
    for item in items:
        character = _character(item, grid, sides)
        if character.square in placed:
            raise _fail(
                f"初期配置では1マスに1人です（{character.square}: {placed[character.square]}と{character.name}）"
            )
        if character.square:
            placed[character.square] = character.name
        characters[character.name] = character
    return characters


def _options(data: Mapping[str, Any]) -> Options:
    table = dict(_table(data, "options"))
    if "phase_minutes" in table:
        raise _fail(
            "options の phase_minutes はなくなりました（制限時間は締切まで：ボットの schedule で決まります）"
        )
    defaults = Options()
    for key, value in table.items():
        default = getattr(defaults, key)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise _fail(f"options の {key} は true か false にしてください（{value}）")
        elif isinstance(default, int):
            _int(table, key, "options")
        elif isinstance(default, str):
            if value not in CHOICES.get(key, ()):
                raise _fail(f"options の {key} は {'・'.join(CHOICES[key])} のどれかです（{value}）")
        elif not (
            isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise _fail(f"options の {key} は整数の並びにしてください（{value}）")
        elif any(not 0 <= v <= 100 for v in value):
            raise _fail(f"options の {key} は0～100の並びにしてください（{value}）")
    return Options(**table)


def _reinforcements(data: Mapping[str, Any], grid: Grid, sides: list[Side]) -> list[Reinforcement]:
    found = []
    for item in _tables(data, "reinforcements"):
        side = _name(item.get("side", ""))
        if side not in (s.name for s in sides):
            raise _fail(f"増援の陣営 {side} は sides にありません")
        zone = _squares(grid, item.get("zone"), "増援の zone")
        if not zone:
            raise _fail("増援には zone（配置するマス）が要ります")
        found.append(Reinforcement(side, _int(item, "turn", "増援", 1), _int(item, "count", "増援", 1), zone))
    return found


def _open(data: Mapping[str, Any]) -> bool:
    value = _table(data, "game").get("open", False)
    if not isinstance(value, bool):
        raise _fail(f"[game] の open は true か false にしてください（{value}）")
    return value


def initial_state(data: Mapping[str, Any]) -> DHState:
    problems = _unknown(data)
    if problems:
        raise RulesetError("\n".join(problems))
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
        open=_open(data),
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
