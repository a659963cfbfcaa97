"""The state of a DysTopiA session: character sheets, emotions (BP), back handouts, the scene, the last
check of each character (for チャンスメイク and 起死回生) and the requests waiting for an answer.

Every type here is a plain dataclass with `to_dict`/`from_dict` of its own JSON form, so that the
referee can store a step's state and fold it again byte for byte.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

BASE_STATS = ("肉体", "集中", "反射", "知識", "幸運")
_PARTICLES = "にへをの"
SCENES = ("オープニング", "ドラマ", "クライマックス", "エンディング")
START_C = 18  # 初期のC値
START_F = 5  # 初期のF値
MAX_STRENGTH = 10  # 各コネクションに最大10点
MAX_TOTAL = 21  # 感情の強度の合計上限値
MAX_CONNECTIONS = 6  # コネクションは6枠
BAREHANDED = "素手"
PLAIN_CLOTHES = "一般服"
DOWN = "戦闘不能"


class DystopiaError(ValueError):
    """A command or a sheet the rules cannot take; the message is Japanese, for the answer."""


def _build(cls: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class Skill:
    name: str
    kind: str = ""  # 種別（秘 = 同クラス2つのときだけ取得できる）
    timing: str = ""
    target: str = ""
    range: str = ""
    price: str = ""  # 代償
    cost: int = 0  # コスト
    sl: int = 0
    cls: str = ""  # the class the skill belongs to
    auto: bool = False  # 「自」：種族の自動取得スキル


@dataclass
class Item:
    name: str
    price: int = 0


@dataclass
class Connection:
    to: str
    emotion: str = ""
    strength: int = 0
    used: bool = False  # 使用された感情（切った感情）


@dataclass
class Sheet:
    name: str
    owner: str = ""  # the player's trip (◆…), "" = anyone
    npc: bool = False
    cl: int = 1
    race: str = ""
    classes: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)  # 肉体… and hit stats / 行動値 the sheet has
    hp: int = 0
    hp_max: int = 0
    durability: int = 0  # 耐久値（不撓不屈で回復する値）
    mp: int = 0
    mp_max: int = 0
    c: int = START_C
    f: int = START_F
    overrides: dict[str, dict[str, int]] = field(default_factory=dict)  # 判定名 → {"C": n, "F": n}
    skills: list[Skill] = field(default_factory=list)
    weapons: list[Item] = field(default_factory=list)
    armor: list[Item] = field(default_factory=list)
    accessories: list[Item] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    money: int = 0
    connections: list[Connection] = field(default_factory=list)
    bonus: dict[str, int] = field(default_factory=dict)  # ボーナスポイントの割り振り
    race_stats: dict[str, int] = field(default_factory=dict)  # 種族の基本能力値（あれば作成チェック）
    other: dict[str, int] = field(default_factory=dict)  # その他補正（基本能力値の式の最後の項）
    slots: int = 0  # スキル取得枠（0 = 確かめない）
    effects: list[str] = field(default_factory=list)  # 掛かっている効果・バッドステータス
    counters: dict[str, int] = field(default_factory=dict)
    row: str = ""
    down: bool = False  # [戦闘不能状態]
    dead: bool = False  # とどめ：死亡（PCはキャラロスト）
    locked: bool = (
        False  # from the scenario, or changed by play: a player's re-post changes only sheet_fields
    )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sheet:
        sheet: Sheet = _build(cls, data)
        sheet.skills = [_build(Skill, s) for s in data.get("skills", [])]
        for name in ("weapons", "armor", "accessories", "items"):
            setattr(sheet, name, [_build(Item, i) for i in data.get(name, [])])
        sheet.connections = [_build(Connection, c) for c in data.get("connections", [])]
        return sheet

    def connection(self, to: str) -> Connection | None:
        return next((c for c in self.connections if c.to == to), None)

    def strength_to(self, to: str) -> int:
        found = self.connection(to)
        return found.strength if found else 0

    @property
    def bp(self) -> int:
        """The BP the sheet can still spend: the strengths of its unused emotions."""
        return sum(c.strength for c in self.connections if not c.used)

    @property
    def emotion_total(self) -> int:
        return sum(c.strength for c in self.connections)


@dataclass
class Handout:
    """A back handout (裏ハンドアウト): its text stays in the state; the thread sees its commitment
    until it is published with its key."""

    owner: str
    text: str
    key: str = ""  # hex, made when the session opens
    commitment: str = ""
    published: bool = False
    known_by: list[str] = field(default_factory=list)
    barred_scene: int = -1  # the owner lost an investigation in this scene: no showing it (茶番判定の防止)


@dataclass
class CheckRecord:
    """The last check of a character: what チャンスメイク re-rolls and 起死回生 adds to."""

    number: int
    actor: str
    stat: str
    modifier: int
    target: int | None
    c: int
    f: int
    dice: list[int]
    total: int
    chance_made: bool = False
    revived: bool = False  # 起死回生 used on it
    opponent: str = ""  # an opposed check: the other side
    opponent_total: int = 0
    opponent_grade: int = 0
    passive: bool = False  # this record is the passive side of an opposed check
    handout: str = ""  # the opposed check of an investigation: the owner of the handout at stake


@dataclass
class Request:
    """A handout request waiting for an answer (同意／拒否)."""

    kind: str  # "show" (1: the owner shows), "investigate" (2), "pass" (3: passing on a known handout)
    asker: str
    answerer: str
    handout: str  # the owner of the handout
    vetoed: bool = False


@dataclass
class Combat:
    """The count-based turn order (the shared page's default): counts start a round at 行動値."""

    round: int = 1
    counts: dict[str, int] = field(default_factory=dict)
    move_changes: dict[str, list[int]] = field(default_factory=dict)  # 移動コストの変更（サブ・メイン両方）


# What a player's re-post of a sheet already in play may change (the scenario's sheet_fields): the
# sheet's description, never HP, MP, 耐久値, BP and emotions, money, CL, stats or C値/F値.
SHEET_FIELDS = (
    "種族",
    "クラス",
    "スキル",
    "自動スキル",
    "武器",
    "防具",
    "装飾",
    "アイテム",
    "スキル取得枠",
    "ボーナス",
    "種族能力値",
    "その他補正",
    "行",
)


@dataclass
class Options:
    title: str = "DysTopiA"
    dice: int = 3  # 判定のダイス：3D6
    short_session: bool = False  # 感情ロールを1D10で
    emotion_rolls: int = 6  # 感情ロールの回数（各PC）
    todome: bool = True  # とどめを刺す を許す
    start_cl: int = 1
    npc_handouts: bool = False  # NPCにも裏ハンドアウトのルールを使う
    max_total: int = MAX_TOTAL  # 感情の強度の合計上限値（特に修正がなければ21）
    tie_stat: str = "敏捷"  # 同じカウントのときに比べる能力値（次にPCが先）
    sheet_fields: list[str] = field(default_factory=lambda: list(SHEET_FIELDS))
    # Readings the seed allows two of (the default first: the bot's reading before they were options).
    bonus_partial_warning: bool = False  # ボーナスポイントを振り切っていない：違反（false）／注意だけ（true）
    fixed_cf_wins: bool = True  # 固定したC値/F値：他の効果の値より優先（true）／最低C・最高Fに含める（false）
    futou_refuse_above: bool = (
        False  # HPが耐久値以上の不撓不屈：感情を切って回復なし（false）／受け付けない（true）
    )
    combat_effect_timing: bool = (
        False  # 「戦闘中～」の効果：いつも残す（false）／解除タイミングが書いてあれば解除（true）
    )
    evade_todome: bool = False  # 戦闘不能中の絶対回避：受け付けない（false）／とどめを無効にできる（true）


@dataclass
class State:
    options: Options = field(default_factory=Options)
    sheets: dict[str, Sheet] = field(default_factory=dict)
    handouts: dict[str, Handout] = field(default_factory=dict)
    committed: bool = False
    scene: str = "オープニング"
    scene_number: int = 0  # 0: the opening before the GM's first シーン
    emotion_open: bool = False
    emotion_allowed: list[str] = field(default_factory=list)  # the PCs the GM allowed (empty: all)
    emotion_left: dict[str, int] = field(default_factory=dict)
    pending_raise: dict[str, list[Any]] = field(default_factory=dict)  # pc → [to, roll]
    last_checks: dict[str, CheckRecord] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    checks_made: int = 0
    combat: Combat | None = None
    todome_last: str = ""  # whom the step's last command killed with とどめ (evade_todome: it may 絶対回避)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["sheets"] = {name: sheet.to_dict() for name, sheet in self.sheets.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        state: State = _build(cls, data)
        state.options = _build(Options, data.get("options", {}))
        state.sheets = {n: Sheet.from_dict(s) for n, s in data.get("sheets", {}).items()}
        state.handouts = {n: _build(Handout, h) for n, h in data.get("handouts", {}).items()}
        state.last_checks = {n: _build(CheckRecord, r) for n, r in data.get("last_checks", {}).items()}
        state.requests = [_build(Request, r) for r in data.get("requests", [])]
        combat = data.get("combat")
        state.combat = _build(Combat, combat) if combat else None
        return state

    def copy(self) -> State:
        return State.from_dict(self.to_dict())

    def sheet(self, name: str) -> Sheet:
        if name not in self.sheets and name[-1:] in _PARTICLES and name[:-1] in self.sheets:
            name = name[:-1]  # `ダメージ ユイに 8` `とどめ ユイを`: the particle after the name
        try:
            return self.sheets[name]
        except KeyError:
            known = "、".join(self.sheets) or "なし"
            raise DystopiaError(f"「{name}」というキャラクターはいません（いるもの：{known}）") from None
