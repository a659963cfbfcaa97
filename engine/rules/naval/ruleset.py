"""The naval combat rules (seed 002) as a periods ruleset: the adapter between the periods machinery
(`engine.ruleset`'s shape) and the pure naval core (`engine.rules.naval`).

- An order is the order of the island of its acting unit (`ABC-DD-A-01` → ABC): reminders and the
  missing-order policy count islands. Who may order an island's units is the scenario's
  `players = ["名前◆TRIP", ...]` of that island; an island without players takes orders from anyone.
- A unit carries out at most `orders_per_unit` orders a period (default 1), in posting order; void
  orders do not count (先行入力優先 is the order of processing). Every order line has a key of its
  own, so the machinery's "the last one with the same key wins" never drops an order; the core voids
  the orders past the limit and says so in the report, and the receipt warns of them (`remark`).
  A player rewrites orders with 取消.
- Units without orders hold (no order is assumed for an island that sent none).
- `verify_period` (`verify.py`) recomputes, from a period's key, the random numbers its result
  published.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import regex

from engine.report import Block, Report, heading, line, report, section, table
from engine.rng import RandomSource
from engine.rules.naval import api as naval
from engine.rules.naval import ending, foresight, verify
from engine.rules.naval.big_game import gc_paused, read_toml
from engine.rules.naval.grammar import (
    HEX_DIGITS,
    NavalOrder,
    NavalOrderError,
    ParsedOrder,
    parse_order,
    parse_orders_file,
    parse_randoms_file,
)
from engine.rules.naval.picture import picture as draw
from engine.rules.naval.state import (
    CATEGORY_NAMES,
    FIGHTER,
    TRANSPORT,
    IdLookup,
    Island,
    NavalState,
    canonical_ids,
    clone,
    unit_island,
    unit_key,
)
from engine.rules.naval.verify import PURPOSE, verify_report
from engine.ruleset import (
    ANYONE,
    AnnotatesReceipts,
    Author,
    ClockedRuleset,
    HoldsSeats,
    OfflineForms,
    Order,
    OrderText,
    Owners,
    Pictured,
    ReadsWithState,
    Rejection,
    RulesetError,
    Settable,
    Setting,
    ShowsOpening,
    VerifiesPeriods,
    may_act,
)
from parser.numbers import NotANumber, number_or_error, read_number

_ADAPTER_HELP = """
■このスレッドでの命令の受け付け
・命令は、その行で命令を与えるユニットの島の命令です（ABC-DD-A-01ならABC島）。
・シナリオで島にプレイヤー（名前◆トリップ）が決まっていれば、その島のユニットに命令できるのはそのプレイヤーだけです（トリップが合えば名前は問いません）。プレイヤーが決まっていない島のユニットには誰でも命令できます。
・書式の誤り、存在しないユニット、他の島のユニットへの命令は、受付の書き込みで「受け付けられなかった命令」として理由を示します。
・行頭のアンカー（>>12 ＜攻撃＞…）や、ルールページの例の書き方（1.ABC:＜攻撃＞…）も命令として読みます。ユニット名と命令の言葉（攻撃・迎撃・移動や＜…＞）を含むのに命令として読めない行には、理由と近い書き方（もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05）を返します。ユニット名のない行は雑談です。
・「→ 勝利」のような結果の行を写した行は命令として受け付けません（引用は行頭に＞を付けてください）。
・同じユニットへの2つ目以降の命令も受け付けますが、先の命令が実行されると（1ピリオドの回数 orders_per_unit に達すると）無効になります。受付ではそう書き添えます。書き直すときは「取消」でそのピリオドの自分の命令をすべて取り消してから書き直してください。
・いまの盤面のままなら無効になる命令（空母の＜攻撃＞、戦闘機を目標にした＜攻撃＞、同海域にいない目標、届かない目標、先に出撃していない戦闘機への＜インターセプト＞、1Hexを超える＜移動＞など）も受け付け、受付に「このままなら無効：理由」と書き添えます（ルールページの通り、そのような命令も入力されたものとして処理され、結果は無効です）。先の＜攻撃＞の対象になっているユニットの＜移動＞などには「このままなら強制敗戦A」、友軍の制海ユニットと同じHexにいる空母への＜攻撃＞には「このままなら強制敗戦B」と書き添えます。ユニット名の打ち間違いには、その島で1つに決まるときだけ「もしかして」で正しい名前を示します。
・命令のなかったユニットは何もせず、その場に留まります。
・締切を過ぎて書かれた命令は次のピリオドの命令になります。

■ゲームの終わり
ルールページは終わりを定めていないため、シナリオの [options] last_period のピリオド（threadgm new の書くシナリオでは10）の更新で終戦とし、最後の更新に各島の残りのユニットを載せます（last_period = 0 なら終わりを決めません）。
ユニットの残る島が1つ以下になったときも、それ以上命令を実行できないので終戦です（残った島の勝利）。

■乱数の検証
各島の乱数は、ピリオドの鍵で HMAC-SHA256(鍵, "naval/島名|0")、"…|1"… から1～100を棄却法で取り出した値です（A、B、C…の順）。
ピリオドの始めに鍵のハッシュ、更新時に鍵を公開します。threadgm verify でスレッドから誰でも再計算できます。"""

_HEX_VALUE = regex.compile(r"^\(?\s*([0-9]+)\s*[,、\s]\s*([0-9]+)\s*\)?$")
_ISLANDS_VALUE = regex.compile(r"[\s,、]+")
_NONE_WORDS = ("なし", "無し", "-", "none")


def island_owners(island: Island) -> Owners:
    """Who orders an island's units: the scenario's `players` of the island (`名前◆TRIP`, `◆TRIP` or
    a bare name); an island listed without players takes orders from anyone (HELP says so)."""
    return island.players or ANYONE


def _author_problem(state: NavalState, author: Author, island_code: str) -> str | None:
    island = state.islands.get(island_code)
    if island is None or may_act(author, island_owners(island)):
        return None
    return f"{author}は{island_code}島のプレイヤーではないため、{island_code}島のユニットには命令できません"


# --- settings (設定) -------------------------------------------------------------------------------


def _parse_hex(text: str) -> tuple[int, int]:
    match = _HEX_VALUE.match(unicodedata.normalize("NFKC", text).strip())
    if match is None:
        raise ValueError(f"座標「{text[:12]}」が読めません（例：5,6）")
    return tuple(number_or_error(match[i], what="座標", digits=HEX_DIGITS) for i in (1, 2))  # type: ignore[return-value]


def _parse_strength(text: str) -> int:
    strength = read_number(text, what="戦力")
    if isinstance(strength, NotANumber):
        raise ValueError(f"{strength.reason}（戦力は0以上の整数）")
    return strength


def _parse_islands(text: str) -> list[str]:
    value = unicodedata.normalize("NFKC", text).strip()
    if value.lower() in _NONE_WORDS:
        return []
    return [code.upper() for code in _ISLANDS_VALUE.split(value) if code]


SETTINGS: tuple[Setting, ...] = (
    Setting("units.<ユニット名>.hex", "艦船の位置（例：units.ABC-DD-A-01.hex=5,6）", _parse_hex),
    Setting("units.<ユニット名>.anti_air", "対空戦力（0以上の整数）", _parse_strength),
    Setting("units.<ユニット名>.anti_ship", "対艦戦力（0以上の整数）", _parse_strength),
    Setting(
        "islands.<島名>.permits_evacuation",
        "艦載機の退避を許可する島（例：ABC,XYZ。許可しないときは なし）",
        _parse_islands,
    ),
)
_PARSERS: dict[str, Callable[[str], Any]] = {
    setting.path.rsplit(".", 1)[1]: setting.parse for setting in SETTINGS
}


def _set_unit(state: NavalState, unit_text: str, field: str, raw: Any) -> NavalState:
    unit_id = canonical_ids(state.units).get(unit_key(unicodedata.normalize("NFKC", unit_text).upper()))
    if unit_id is None:
        raise ValueError(f"ユニット{unit_text}は存在しません")
    if field not in ("hex", "anti_air", "anti_ship"):
        raise ValueError(f"ユニットの {field} は設定できません（hex・anti_air・anti_ship）")
    value = _PARSERS[field](str(raw))
    new = clone(state)
    unit = new.units[unit_id]
    if field == "hex":
        if unit.category == FIGHTER:
            raise ValueError(f"{unit_id}は戦闘機なので位置は配属基地で決まります")
        if not new.on_map(value):
            raise ValueError(f"座標({value[0]},{value[1]})は地図（{new.width}×{new.height}）の外です")
        unit.hex = value
    else:
        if unit.category == TRANSPORT and value:
            raise ValueError(f"{unit_id}は輸送ユニットなので戦力は0です")
        setattr(unit, field, value)
    return new


def _set_island(state: NavalState, code_text: str, field: str, raw: Any) -> NavalState:
    code = unicodedata.normalize("NFKC", code_text).upper()
    if code not in state.islands:
        raise ValueError(f"島{code_text}はありません（{'、'.join(state.islands)}）")
    if field != "permits_evacuation":
        raise ValueError(f"島の {field} は設定できません（permits_evacuation）")
    guests = _PARSERS[field](str(raw))
    wrong = [guest for guest in guests if guest not in state.islands or guest == code]
    if wrong:
        raise ValueError(f"{'、'.join(wrong)}は{code}島以外の島ではありません")
    new = clone(state)
    new.islands[code].permits_evacuation = list(dict.fromkeys(guests))
    return new


# --- the ruleset ---------------------------------------------------------------------------------


def _where(state: NavalState, unit_id: str) -> str:
    unit = state.units[unit_id]
    if unit.category == FIGHTER:
        if unit.base is not None:
            return f"基地{unit.base}"
        return f"取り残し({unit.hex[0]},{unit.hex[1]})" if unit.hex else "取り残し"
    return f"({unit.hex[0]},{unit.hex[1]})" if unit.hex else "-"


class _CheckedScenario(dict):
    """A scenario table with the game the rules built from it, for the `initial_state` of this table."""

    def __init__(self, data: Mapping[str, Any], built: NavalState) -> None:
        super().__init__(data)
        self.built: NavalState | None = built


class NavalRuleset(
    ClockedRuleset[NavalState, ParsedOrder],
    AnnotatesReceipts[NavalState],
    HoldsSeats[NavalState],
    Settable[NavalState],
    ShowsOpening[NavalState],
    OfflineForms[NavalState],
    Pictured[NavalState],
    ReadsWithState[NavalState],
    VerifiesPeriods,
):
    ID = naval.ID
    NAME = naval.NAME
    HELP = naval.HELP + _ADAPTER_HELP
    SUMMARY = """\
1行に1命令（全角・半角どちらでも）。自島のユニットだけに命令できます。
＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05　攻撃するユニット、目標
＜インターセプト＞ABC-F-A-03、XYZ-F-X-07　迎撃する戦闘機、作戦行動中の敵戦闘機
＜移動＞ABC-DD-A-01、(5,6)　艦船の移動（艦載機の退避は ＜移動＞ABC-F-A-05、ABC）
取消 でそのピリオドの自分の命令を取り消し、準備完了 で早期更新に同意。"""
    settings: Sequence[Setting] = SETTINGS

    def picture(self, state: NavalState, result: Mapping[str, Any] | None = None) -> str:
        return draw(state, result)

    def parse_line(self, text: str) -> OrderText | Rejection | None:
        parsed = parse_order(text)
        if parsed is None:
            return None
        if isinstance(parsed, NavalOrderError):
            return Rejection(parsed.raw.strip(), parsed.reason)
        # The command is the canonical form's (what the stored order reads back as at the deadline):
        # a line's own spelling stays in the receipt, not in the period's report.
        command = replace(parsed, raw=parsed.canonical) if parsed.raw != parsed.canonical else parsed
        return OrderText(command, parsed.canonical, unit_island(parsed.unit))

    def read_line(self, state: NavalState | None, text: str) -> OrderText | Rejection | None:
        """`parse_line`, with the ids as the scenario writes them (`ABC-F-A-1` is ABC-F-A-01): the
        receipt names the units as the report will."""
        parsed = self.parse_line(text)
        if state is None or not isinstance(parsed, OrderText):
            return parsed
        command: NavalOrder = parsed.command
        known = state.units
        target = command.target
        if command.unit in known and (target is None or target in known or target in state.islands):
            return parsed
        ids = IdLookup(known, state.islands)
        unit = ids.get(command.unit) or command.unit
        target = (ids.get(command.target) or command.target) if command.target else None
        if (unit, target) == (command.unit, command.target):
            return parsed
        spelled = replace(command, unit=unit, target=target, raw="")
        return OrderText(replace(spelled, raw=spelled.canonical), spelled.canonical, parsed.player)

    def order_key(self, order: Order) -> str:
        # Unique per line: the core keeps a unit's first order and voids the others with the reason
        # (先行入力優先), which "the last one with the same key wins" would hide.
        return f"{order.post}/{order.line}"

    def initial_state(self, scenario: Mapping[str, Any]) -> NavalState:
        if isinstance(scenario, _CheckedScenario) and scenario.built is not None:
            built, scenario.built = scenario.built, None  # built by read_scenario from this table: once
            return built
        return naval.initial_state(dict(scenario))

    @gc_paused
    def read_scenario(self, text: str) -> dict[str, Any]:
        """The TOML table, once the rules have built its game: a scenario they cannot play is refused
        here, with why. The table carries the game built from it to the `initial_state` that follows
        (a 20,000-unit scenario is not built twice); the ruleset itself, shared by every poll worker,
        keeps nothing."""
        try:
            data = read_toml(text)
        except tomllib.TOMLDecodeError as error:  # in the words of Ruleset.read_scenario
            raise RulesetError(f"シナリオのTOMLが読めません：{error}") from error
        return _CheckedScenario(data, naval.initial_state(dict(data)))

    def read_orders(self, state: NavalState, text: str) -> list[Order]:
        """ORDERS.txt (`ISLAND:order` per line): every line becomes an order of that island, written
        by its first player, so the author checks of `resolve` apply as in the thread; a line that
        cannot be read stays in the list and gets its reason in the report."""
        orders = []
        for parsed in parse_orders_file(text):
            island = parsed.island or (unit_island(parsed.unit) if isinstance(parsed, NavalOrder) else "")
            players = state.islands[island].players if island in state.islands else []
            author = players[0] if players else island
            canonical = parsed.canonical if isinstance(parsed, NavalOrder) else parsed.raw
            orders.append(Order(0, len(orders), author, island, parsed, canonical))
        return orders

    def recorded_source(self, state: NavalState, text: str) -> RandomSource:
        """RANDOMS.txt: the published numbers of each island (`ABC: 50 12 88 …`, A first)."""
        return naval.recorded_randoms(state, parse_randoms_file(text))

    def remark(self, state: NavalState, order: Order, earlier: Sequence[Order]) -> str | None:
        command = order.command
        if not isinstance(command, NavalOrder):
            return None
        key = unit_key(command.unit)
        before = [o.command for o in earlier if isinstance(o.command, NavalOrder)]
        limit = state.options.orders_per_unit
        past_limit = None
        if sum(unit_key(o.unit) == key for o in before) >= limit:
            past_limit = f"{command.unit}の先の命令が{limit}回実行されれば、この命令は無効です"
        return foresight.warning(state, command, before, past_limit)

    def check(self, state: NavalState, order: Order) -> str | None:
        command = order.command
        if not isinstance(command, NavalOrder):
            return None
        island = unit_island(command.unit)
        problem = naval.check_order(state, command, island)
        if problem is not None:
            return problem.reason
        return _author_problem(state, order.by, island)

    @gc_paused
    def resolve(
        self, state: NavalState, orders: Sequence[Order], source: RandomSource
    ) -> tuple[NavalState, Report]:
        parsed: list[ParsedOrder] = []
        islands = state.islands
        for order in orders:
            command = order.command
            post = order.post or None
            if isinstance(command, NavalOrderError):
                parsed.append(command if command.post == post else replace(command, post=post))
                continue
            island = command.island or unit_island(command.unit)
            home = islands.get(island)  # an island listing no players lets anyone order
            problem = _author_problem(state, order.by, island) if home and home.players else None
            if problem is not None:
                parsed.append(NavalOrderError(order.canonical, problem, island, post=post))
            elif command.island == island and command.post == post:
                parsed.append(command)  # as read: a 10,000-order period copies none of them
            else:
                parsed.append(replace(command, island=island, post=post))
        new_state, outcome = naval.resolve(state, parsed, source)
        if ending.finished(new_state):
            outcome = outcome + report(*ending.final_blocks(new_state))
        return new_state, outcome

    def finished(self, state: NavalState) -> bool:
        return ending.finished(state)

    def players(self, state: NavalState) -> list[str] | None:
        return [code for code, island in state.islands.items() if island.players] or None

    def seats(self, state: NavalState) -> list[str]:
        return list(state.islands)

    def players_of(self, state: NavalState, author: str) -> list[str]:
        """The islands a post's author plays (for 準備完了: an island is ready when one of its players is)."""
        return [
            code
            for code, island in state.islands.items()
            if island.players and may_act(Author.of(author), island_owners(island))
        ]

    def owners(self, state: NavalState, thing: str) -> Owners:
        """An island's units are ordered by the island's players (`island_owners`)."""
        island = state.islands.get(thing)
        return island_owners(island) if island is not None else ()

    def set_value(self, state: NavalState, path: str, value: Any) -> NavalState:
        parts = path.split(".")
        if len(parts) == 3 and parts[0] == "units":
            return _set_unit(state, parts[1], parts[2], value)
        if len(parts) == 3 and parts[0] == "islands":
            return _set_island(state, parts[1], parts[2], value)
        known = "、".join(setting.path for setting in SETTINGS)
        raise ValueError(f"{path} は設定できません（設定できるもの: {known}）")

    def state_to_dict(self, state: NavalState) -> dict:
        return naval.state_to_dict(state)

    def state_from_dict(self, data: dict) -> NavalState:
        return naval.state_from_dict(data)

    def rules_in_force(self, state: NavalState) -> list[str]:
        options = state.options
        quotas = "自軍と他島の基地で共有" if options.evacuation_quotas == 1 else "自軍・他島の基地それぞれ"
        return [
            f"乱数 島ごとに{options.randoms_per_island}個",
            f"戦闘機の行動範囲{options.fighter_range}Hex",
            f"艦船の移動{options.move_range}Hex",
            f"1ユニットの命令は1ピリオド{options.orders_per_unit}回まで（無効は数えない）",
            f"退避の半数は{quotas}",
            f"ピリオド{options.last_period}で終戦"
            if options.last_period
            else "終戦はユニットの残る島が1つになったとき",
        ]

    def status(self, state: NavalState) -> Report:
        blocks: list[Block] = [heading(f"海戦 ピリオド{state.period}のユニット")]
        for code, island in state.islands.items():
            who = "、".join(island.players) if island.players else "誰でも命令可"
            rows = [
                (
                    unit.id,
                    CATEGORY_NAMES[unit.category],
                    _where(state, unit.id),
                    f"対空{unit.anti_air}/対艦{unit.anti_ship}",
                )
                for unit in state.units.values()
                if unit.island == code
            ]
            body: list[Block] = [table(rows)] if rows else [line("ユニットなし")]
            blocks.append(section(heading(f"{code}島（{who}）"), *body))
        for evacuation in state.evacuations:
            blocks.append(
                line(
                    f"退避待ち: 空母{evacuation.carrier}の艦載機{'、'.join(evacuation.fighters)}"
                    f"（ピリオド{evacuation.period + 1}に{evacuation.allowed - evacuation.used}機まで）"
                )
            )
        return report(*blocks, kind="status")

    def read_period(self, lines: Sequence[str]) -> dict[str, Any]:
        return verify.read_period(lines)

    def verify_period(self, key: bytes, result: Mapping[str, Any]) -> list[str]:
        return verify.verify_period(key, result)


RULESET = NavalRuleset()

__all__ = ["PURPOSE", "RULESET", "SETTINGS", "NavalRuleset", "island_owners", "verify_report"]
