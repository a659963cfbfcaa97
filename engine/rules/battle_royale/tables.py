"""The dice tables of the 都道府県バトロワ (seed 000, 使用ダイス一覧) as data, and which battle table fits.

Every fixed table keeps the seed's name, sides, note line and face ranges, so a report can print it in the
thread's own template style. Tables whose faces depend on the game (selection over the survivor table,
drop-out counts, member picks, the mastermind's final battle) are built by the functions at the bottom.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Outcome words exactly as the seed prints them.
WIN, LOSE, ESCAPE, ALLY, MUTUAL = "勝利", "敗北", "逃走", "手を組む", "相打ち"
FRONT, SURPRISE = "正面", "奇襲"
SUCCESS, FAILURE = "成功", "失敗"
BATTLE_OUTCOMES = (WIN, LOSE, ESCAPE, ALLY, MUTUAL)


@dataclass(frozen=True)
class Face:
    """Faces low..high of a die lead to one outcome; `label` is what the table line shows."""

    low: int
    high: int
    outcome: str
    label: str = ""

    @property
    def text(self) -> str:
        span = str(self.low) if self.low == self.high else f"{self.low}～{self.high}"
        return f"{span}.{self.label or self.outcome}"


@dataclass(frozen=True)
class Table:
    """One die of the thread: its seed name (without 【】), sides, optional note lines and faces."""

    key: str
    name: str
    sides: int
    faces: tuple[Face, ...]
    note: str = ""
    count: int = 1

    def face(self, value: int) -> Face:
        for face in self.faces:
            if face.low <= value <= face.high:
                return face
        raise ValueError(f"{self.name}: face {value} is outside 1..{self.sides}")

    def outcome(self, value: int) -> str:
        return self.face(value).outcome

    @property
    def command(self) -> str:
        return f"dice{self.count}d{self.sides}="

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(face.text for face in self.faces)

    @property
    def spans(self) -> tuple[tuple[int, int, str], ...]:
        """The lines as (low, high, text), the form a pasted template's lines are read in."""
        return tuple((face.low, face.high, face.label or face.outcome) for face in self.faces)


def _faces(*spec: tuple[int, int, str]) -> tuple[Face, ...]:
    return tuple(Face(low, high, outcome) for low, high, outcome in spec)


def _check(table: Table) -> Table:
    """Tables are data typed by hand: make sure the ranges tile 1..sides exactly."""
    expected = 1
    for face in table.faces:
        if face.low != expected or face.high < face.low:
            raise ValueError(f"table {table.name} does not tile its faces at {face.low}")
        expected = face.high + 1
    if expected != table.sides + 1:
        raise ValueError(f"table {table.name} covers 1..{expected - 1}, not 1..{table.sides}")
    return table


GROUP_BIGGER_NOTE = "基準側の人数が多い為、勝利＋1"
GROUP_SMALLER_NOTE = "基準側の人数が少ない為、敗北＋1"

POLICY = _check(Table("policy", "戦闘方針ダイス", 3, _faces((1, 1, FRONT), (2, 2, FRONT), (3, 3, SURPRISE))))
NORMAL = _check(
    Table(
        "normal",
        "通常戦闘ダイス",
        5,
        _faces((1, 1, WIN), (2, 2, LOSE), (3, 3, ESCAPE), (4, 4, ALLY), (5, 5, MUTUAL)),
    )
)
SURPRISE_CHECK = _check(
    Table("surprise_check", "奇襲判定ダイス", 2, _faces((1, 1, SUCCESS), (2, 2, FAILURE)))
)
SURPRISE_ADVANTAGE = _check(
    Table(
        "surprise",
        "奇襲者（被奇襲者）有利ダイス",
        8,
        _faces((1, 4, WIN), (5, 6, LOSE), (7, 7, ALLY), (8, 8, ESCAPE)),
    )
)
GROUP_BIGGER = _check(
    Table(
        "group_bigger",
        "＜団体戦用＞戦闘ダイス",
        6,
        _faces((1, 2, WIN), (3, 3, LOSE), (4, 4, ESCAPE), (5, 5, ALLY), (6, 6, MUTUAL)),
        GROUP_BIGGER_NOTE,
    )
)
GROUP_SMALLER = _check(
    Table(
        "group_smaller",
        "＜団体戦用＞戦闘ダイス",
        6,
        _faces((1, 1, WIN), (2, 3, LOSE), (4, 4, ESCAPE), (5, 5, ALLY), (6, 6, MUTUAL)),
        GROUP_SMALLER_NOTE,
    )
)
GROUP_SURPRISE_BIGGER = _check(
    Table(
        "group_surprise_bigger",
        "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
        9,
        _faces((1, 5, WIN), (6, 7, LOSE), (8, 8, ALLY), (9, 9, ESCAPE)),
        GROUP_BIGGER_NOTE,
    )
)
GROUP_SURPRISE_SMALLER = _check(
    Table(
        "group_surprise_smaller",
        "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
        9,
        _faces((1, 4, WIN), (5, 7, LOSE), (8, 8, ALLY), (9, 9, ESCAPE)),
        GROUP_SMALLER_NOTE,
    )
)
GROUP_DROPOUT_CHECK = _check(
    Table(
        "group_dropout_check",
        "＜団体用＞脱落判定ダイス",
        2,
        _faces((1, 1, "いる"), (2, 2, "いない")),
        "団体勝利時、脱落者の有無を判定",
    )
)
GROUP_ESCAPE_CHECK = _check(
    Table(
        "group_escape_check",
        "＜団体用＞逃走判定ダイス",
        2,
        _faces((1, 1, SUCCESS), (2, 2, FAILURE)),
        "団体逃亡時、犠牲が出たか判定\n成功で脱落者ゼロ、失敗で脱落者の人数決めを行う",
    )
)
PAIR_AFTER_LOSS = _check(
    Table(
        "pair_after_loss",
        "＜二人組用＞敗北後ダイス",
        3,
        _faces((1, 1, "生存"), (2, 2, "死亡"), (3, 3, ALLY)),
        "二人組が敗北した時、死亡確定していない者に適用",
    )
)
INFIGHT = _check(
    Table(
        "infight",
        "仲間割れ判定ダイス",
        3,
        (Face(1, 1, "戦闘"), Face(2, 2, ALLY), Face(3, 3, "振り直し", "都道府県選択ダイスの振り直し")),
    )
)
INFIGHT_AFTER = _check(
    Table("infight_after", "仲間割れ戦闘後ダイス", 2, _faces((1, 1, "団体行動続行"), (2, 2, "団体の解散")))
)
REVIVAL = _check(Table("revival", "地区復活ダイス", 5, _faces((1, 4, FAILURE), (5, 5, SUCCESS))))
TAG_LOSS = _check(
    Table(
        "tag_loss",
        "タッグ敗北後ダイス",
        2,
        _faces((1, 1, "一人生存"), (2, 2, "全滅")),
        "敗北したチームは一人生存か全滅かを判定",
    )
)

# The tables a player may post by their seed name (the rest are built per situation below).
SEED_TABLES: tuple[Table, ...] = (
    POLICY,
    NORMAL,
    SURPRISE_CHECK,
    SURPRISE_ADVANTAGE,
    GROUP_BIGGER,
    GROUP_SMALLER,
    GROUP_SURPRISE_BIGGER,
    GROUP_SURPRISE_SMALLER,
    GROUP_DROPOUT_CHECK,
    GROUP_ESCAPE_CHECK,
    PAIR_AFTER_LOSS,
    INFIGHT,
    INFIGHT_AFTER,
    REVIVAL,
)
BATTLE_TABLES = (
    NORMAL,
    SURPRISE_ADVANTAGE,
    GROUP_BIGGER,
    GROUP_SMALLER,
    GROUP_SURPRISE_BIGGER,
    GROUP_SURPRISE_SMALLER,
)
SELECTION_NAMES = ("都道府県選択ダイス", "対戦都道府県選択ダイス")
# Dice the seed asks for in words only ("ダイスで決定") and the bot names itself, in the same style.
BOT_TABLE_NAMES = (
    "脱落者決定ダイス",
    "＜団体用＞脱落人数ダイス",
    "＜団体用＞敗北時脱落人数ダイス",
    "＜団体用＞逃走失敗時脱落人数ダイス",
    "地区代表選出ダイス",
    "地区復活者選出ダイス",
    "タッグ結成ダイス",
    "タッグ敗北後ダイス",
    "タッグ死亡者決定ダイス",
    "タッグ生存者決定ダイス",
    "黒幕決戦ダイス",
)
SECRET_TABLE_NAMES = ("黒幕決定ダイス", "黒幕陣営人数ダイス", "協力者決定ダイス")


def battle_table(surprise: bool, base_size: int, opponent_size: int) -> Table:
    """The seed's rule (3)–(5): equal sides fight on the plain table, otherwise the side of 基準 decides
    whether it is the 勝利＋1 or the 敗北＋1 group table (solo vs group and group vs group alike)."""
    if base_size == opponent_size:
        return SURPRISE_ADVANTAGE if surprise else NORMAL
    if base_size > opponent_size:
        return GROUP_SURPRISE_BIGGER if surprise else GROUP_BIGGER
    return GROUP_SURPRISE_SMALLER if surprise else GROUP_SMALLER


@lru_cache(maxsize=512)
def selection_table(entries: tuple[str, ...]) -> Table:
    """【都道府県選択ダイス】 over the current numbered table (entries already in display form)."""
    faces = tuple(Face(n, n, entry) for n, entry in enumerate(entries, start=1))
    return Table("select", "都道府県選択ダイス", len(entries), faces, count=2)


@lru_cache(maxsize=512)
def opponent_table(entries: tuple[str, ...]) -> Table:
    faces = tuple(Face(n, n, entry) for n, entry in enumerate(entries, start=1))
    return Table("select_opponent", "対戦都道府県選択ダイス", len(entries), faces)


def pick_table(key: str, name: str, candidates: tuple[str, ...], note: str = "") -> Table:
    """Members numbered for a pick (drop-outs, survivors, partners): faces show 『name』."""
    faces = tuple(Face(n, n, name_, f"『{name_}』") for n, name_ in enumerate(candidates, start=1))
    return Table(key, name, len(candidates), faces, note)


def count_table(key: str, name: str, low: int, high: int, note: str = "") -> Table:
    """How many drop out: faces 1..(high-low+1) stand for low..high people."""
    faces = tuple(Face(n, n, str(low + n - 1), f"{low + n - 1}人") for n in range(1, high - low + 2))
    return Table(key, name, high - low + 1, faces, note)


def camp_table(sides: int) -> Table:
    """黒幕陣営の人数 (season 1: dice1d5 → 4 = the mastermind and 3 collaborators)."""
    faces = tuple(Face(n, n, str(n), f"{n}人（協力者{n - 1}人）") for n in range(1, sides + 1))
    return Table("mm_camp", "黒幕陣営人数ダイス", sides, faces, "黒幕を含む陣営の人数")


def final_table(defeats: int, wins: int) -> Table:
    """【黒幕決戦ダイス】: the plain table, one 敗北 per remaining prefecture, one 勝利 per collaborator."""
    faces = list(NORMAL.faces)
    top = NORMAL.sides
    if defeats:
        faces.append(Face(top + 1, top + defeats, LOSE))
        top += defeats
    if wins:
        faces.append(Face(top + 1, top + wins, WIN))
        top += wins
    parts = [f"残り{defeats}都道府県につき敗北＋{defeats}"] if defeats else []
    if wins:
        parts.append(f"協力者{wins}人につき勝利＋{wins}")
    return _check(Table("final", "黒幕決戦ダイス", top, tuple(faces), "、".join(parts)))


def canonical_name(name: str) -> str:
    """A table name as players write it, reduced for comparison: NFKC, no brackets, spaces or ＜＞."""
    text = unicodedata.normalize("NFKC", name)
    return "".join(ch for ch in text if ch not in "【】[]<>()「」『』 \t\u3000")


_SUFFIXES = "都道府県"


def same_prefecture(given: str, name: str) -> bool:
    """Whether `given` names the prefecture `name` (both NFKC): as written, or with or without its
    都・道・府・県 (『岩手県』 for 岩手, 沖縄県 for 沖縄)."""
    if given == name:
        return True
    longer, shorter = (given, name) if len(given) > len(name) else (name, given)
    return bool(shorter) and longer[-1:] in _SUFFIXES and longer[:-1] == shorter
