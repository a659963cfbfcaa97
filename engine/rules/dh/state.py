"""The DH state and its JSON form: the map, the two sides, the characters with their powers and
states (状態), the fields on the map, the campaign options, whose phase it is, DP and the winner.

Phases are numbered 1, 2, 3… from the start: phase p is turn (p + 1) // 2, the 先手 side's phase when
p is odd and the 後手 side's when it is even. A timed state or a 能力休み ends at the start of a phase
(`until`: the first phase it no longer holds in; None: for good).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from engine.rules.dh.geometry import Grid

ACTIVE, PASSIVE, COUNTER, FIELD = "active", "passive", "counter", "field"
STYLES = {ACTIVE: "アクティブ", PASSIVE: "パッシブ", COUNTER: "カウンター", FIELD: "フィールド"}
STATS = {"attack": "攻撃力", "defense": "防御力", "hp": "体力", "mind": "精神", "move": "移動力"}


@dataclass
class EffectSpec:
    """One effect of a power: its kind (a name of the catalogue), value, stat and duration in turns
    (0: for good, or at once for effects without a duration)."""

    kind: str
    value: int = 0
    stat: str = ""
    turns: int = 0


@dataclass
class CostSpec:
    """A 消費制約: 体力, 精神, 攻撃力 or 防御力 paid by the user, or 死亡 (the user dies)."""

    kind: str
    value: int = 0


@dataclass
class Power:
    name: str
    style: str = ACTIVE
    activation: int = 100  # 発動率
    success: int = 100  # 成功率
    target: str = "敵"  # who may be a target: 敵 / 味方 / 全員 / 自分
    range: str = "同マス"
    all_in_range: bool = False  # every fitting character in range, not named targets
    targets: int = 1  # how many characters one use may name (対象はA、B)
    include_own: bool = True  # the range includes the user's own square
    empty_ok: bool = False  # 空撃ち可能
    mental: bool = False  # 精神攻撃: the 成功率 is read from the target's 精神
    gender: str = ""  # only targets of this 性別 (a restriction; empty: anyone)
    effects: list[EffectSpec] = field(default_factory=list)
    costs: list[CostSpec] = field(default_factory=list)
    rest: int = 1  # 能力休み: own phases the power cannot be used after use
    counter: str = (
        "被攻撃"  # when a waiting counter fires: 被攻撃 (normal-attacked) / 敵侵入 (an enemy enters)
    )
    wait: int = 1  # turns a counter waits (カウンター待受状態) / a field stays (0: for good)


@dataclass
class Status:
    """A state (状態) a character holds: a stat change, 特殊能力無効, ZoC無視, 行動不能, 戦線離脱,
    カウンター待受 (`power` names it)…"""

    kind: str
    value: int = 0
    stat: str = ""
    until: int | None = None
    power: str = ""
    source: str = ""


@dataclass
class Character:
    name: str
    side: str
    gender: str = ""
    attack: int = 0
    defense: int = 0
    hp: int = 1
    mind: int = 0
    fs: int = 0
    max_hp: int = 1
    square: str | None = None  # None: off the map (a reserve, 戦線離脱, dead)
    starter: bool = True  # スタメン (else a reserve, 増援)
    entered: int | None = None  # the phase it appeared on the map (0 for starters)
    alive: bool = True
    away: str | None = None  # the square a 戦線離脱 character returns to
    statuses: list[Status] = field(default_factory=list)
    powers: list[Power] = field(default_factory=list)
    rested: dict[str, int] = field(default_factory=dict)  # power → first phase it may be used again
    passive_done: bool = False


@dataclass
class Field:
    """A field placed by a power: its squares and until when it stays."""

    owner: str
    power: str
    squares: list[str]
    until: int | None = None


@dataclass
class Side:
    name: str
    trips: list[str] = field(default_factory=list)  # name◆trip / ◆trip of who may submit
    zone: list[str] = field(default_factory=list)  # the start zone


@dataclass
class Reinforcement:
    side: str
    turn: int
    count: int
    zone: list[str]
    done: bool = False


@dataclass
class Options:
    first_penalty: bool = False  # 先手ペナルティ
    half_hit: bool = False  # 半必中
    sure_hit: bool = False  # 必中
    dying: bool = True  # 瀕死: at 体力1 a character cannot move
    mental_rates: list[int] = field(default_factory=lambda: [100, 50, 25])  # 精神0, 1, 2 (3以上: 0)
    dp_per_kill: int = 1
    ally_death_mind: int = 1
    turn_limit: int = 8
    late_first: int = 1  # actions lost for the first second late
    late_per_minute: int = 1  # and for every further minute
    second_line: str = "void"  # another line for a character: void (default) / last (it replaces the first)
    zoc_cancels: bool = False  # a move whose every path crosses an enemy is cancelled (default: ZoC stops it)
    failed_activation_pays: bool = False  # a failed 発動判定 pays costs and 能力休み (default: no)
    move: int = 2
    stat_budget: int = 0  # 攻撃力+防御力+体力+精神+FS at most this at creation (0: no limit)


@dataclass
class DHState:
    rows: str
    columns: int
    walls: list[str]
    sides: list[Side]  # the 先手 side first
    characters: dict[str, Character]
    options: Options = field(default_factory=Options)
    reinforcements: list[Reinforcement] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    phase: int = 1
    started: bool = False  # the game-start step (passives of the starters) is done
    dp: dict[str, int] = field(default_factory=dict)
    winner: str | None = None  # a side's name, or 引き分け
    reason: str = ""
    # Seconds the side of this phase was late: the GM's 設定 late (an override, 0 included), or when
    # None, what `resolve_timed` measures from the lines' post times (`late_note` says from what).
    late: int | None = None
    late_note: str = ""
    open: bool = False  # [game] open: anyone submits for a side whose trips list nobody

    @property
    def grid(self) -> Grid:
        return Grid(self.rows, self.columns, frozenset(self.walls))

    @property
    def turn(self) -> int:
        return (self.phase + 1) // 2

    @property
    def acting(self) -> Side:
        return self.sides[(self.phase - 1) % 2]

    def side(self, name: str) -> Side:
        return next(side for side in self.sides if side.name == name)

    def enemy_of(self, side: str) -> str:
        return next(other.name for other in self.sides if other.name != side)

    def on_map(self) -> list[Character]:
        return [c for c in self.characters.values() if c.alive and c.square is not None]


def phase_label(phase: int) -> str:
    return f"第{(phase + 1) // 2}ターン{'先手' if phase % 2 else '後手'}"


def state_to_dict(state: DHState) -> dict[str, Any]:
    return asdict(state)


def _power(data: dict[str, Any]) -> Power:
    effects = [EffectSpec(**item) for item in data.get("effects", ())]
    costs = [CostSpec(**item) for item in data.get("costs", ())]
    return Power(**{**data, "effects": effects, "costs": costs})


def _character(data: dict[str, Any]) -> Character:
    statuses = [Status(**item) for item in data.get("statuses", ())]
    powers = [_power(item) for item in data.get("powers", ())]
    return Character(
        **{**data, "statuses": statuses, "powers": powers, "rested": dict(data.get("rested", {}))}
    )


def _options(data: dict[str, Any]) -> Options:
    """The options of a stored state; a key an older version kept and this one has dropped (the
    time limit, now the schedule's) is left out, so a game stored before still folds."""
    known = {f.name for f in fields(Options)}
    return Options(**{key: value for key, value in data.items() if key in known})


def state_from_dict(data: dict[str, Any]) -> DHState:
    data = copy.deepcopy(data)
    return DHState(
        **{
            **data,
            "sides": [Side(**item) for item in data["sides"]],
            "characters": {name: _character(item) for name, item in data["characters"].items()},
            "options": _options(data.get("options", {})),
            "reinforcements": [Reinforcement(**item) for item in data.get("reinforcements", ())],
            "fields": [Field(**item) for item in data.get("fields", ())],
            "dp": dict(data.get("dp", {})),
        }
    )


def clone(state: DHState) -> DHState:
    return copy.deepcopy(state)
