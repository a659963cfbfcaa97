"""The seed's 使用ダイス一覧 read as tables: each template's heading, lines above the dice, options."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.conftest import shared_path

# How a template is written, in the seed and in the thread alike.
HEADING = re.compile(r"^【[^】]+】$")
DICE = re.compile(r"^dice(\d+)d(\d+)=(.*)$")
OPTION = re.compile(r"^(\d+)(?:[～〜](\d+))?\.(.+)$")

# The battle tables of the seed, as (heading, the "+1" line that tells the two same-named ones apart).
NORMAL = ("【通常戦闘ダイス】", None)
GROUP_MORE = ("【＜団体戦用＞戦闘ダイス】", "基準側の人数が多い為、勝利＋1")
GROUP_FEWER = ("【＜団体戦用＞戦闘ダイス】", "基準側の人数が少ない為、敗北＋1")
AMBUSH = ("【奇襲者（被奇襲者）有利ダイス】", None)
AMBUSH_MORE = ("【＜団体戦用＞奇襲者（被奇襲者）有利ダイス】", "基準側の人数が多い為、勝利＋1")
AMBUSH_FEWER = ("【＜団体戦用＞奇襲者（被奇襲者）有利ダイス】", "基準側の人数が少ない為、敗北＋1")
BATTLE_DICE = {key[0] for key in (NORMAL, GROUP_MORE, AMBUSH, AMBUSH_MORE)}
SEED_LIVES = 10  # seed line 173: 黒幕は、残機のようなものを１０持っている。


@dataclass(frozen=True)
class SeedTable:
    """One template of the seed's 使用ダイス一覧: heading, the lines above the dice line, the options."""

    name: str
    preamble: tuple[str, ...]
    count: int
    sides: int
    options: tuple[str, ...]
    line: int  # the seed's line number of the heading

    @property
    def modifier(self) -> str | None:
        return next((text for text in self.preamble if "＋1" in text), None)

    @property
    def label(self) -> str:
        return self.name + (f"（{self.modifier}）" if self.modifier else "")

    def option_line(self, face: int) -> int:
        """The seed's line number of the option that holds this face."""
        for offset, option in enumerate(self.options):
            low, high, _ = option_range(option)
            if low <= face <= high:
                return self.line + len(self.preamble) + 2 + offset
        return self.line


def option_range(option: str) -> tuple[int, int, str]:
    """'1～4.勝利' → (1, 4, '勝利')."""
    match = OPTION.match(option)
    assert match, option
    return int(match[1]), int(match[2] or match[1]), match[3]


def option_entries(options: tuple[str, ...] | list[str]) -> dict[int, str]:
    """Face → entry of a list of option lines."""
    entries: dict[int, str] = {}
    for option in options:
        low, high, entry = option_range(option)
        entries.update(dict.fromkeys(range(low, high + 1), entry))
    return entries


def seed_text() -> str:
    (path,) = sorted(shared_path("seeds").glob("000_*.txt"))
    return path.read_text(encoding="utf-8")


def parse_seed_tables(text: str) -> list[SeedTable]:
    """Every template of the 使用ダイス一覧 (blocks apart by blank lines, a 【…】 line and a dice line)."""
    lines = text.split("\n")
    start = lines.index("使用ダイス一覧")  # the catalogue's own heading line (sentences earlier mention it)
    tables, block = [], []
    for number, raw in enumerate([*lines[start:], ""], start=start + 1):
        if raw.strip():
            block.append((number, raw.strip()))
            continue
        if block and HEADING.match(block[0][1]) and any(DICE.match(text) for _, text in block):
            tables.append(table_of_block(block))
        block = []
    return tables


def table_of_block(block: list[tuple[int, str]]) -> SeedTable:
    (line, name), *rest = block
    texts = [text for _, text in rest]
    at = next(i for i, text in enumerate(texts) if DICE.match(text))
    dice = DICE.match(texts[at])
    assert dice
    return SeedTable(name, tuple(texts[:at]), int(dice[1]), int(dice[2]), tuple(texts[at + 1 :]), line)


class SeedBook:
    """The seed's tables, looked up by heading and +1 line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tables = parse_seed_tables(text)

    def get(self, name: str, modifier: str | None = None) -> SeedTable:
        found = [t for t in self.tables if t.name == name and t.modifier == modifier]
        assert len(found) == 1, f"the seed has {len(found)} tables {name} {modifier or ''}"
        return found[0]

    def posted(self, name: str, preamble: list[str]) -> SeedTable | None:
        """Which seed table a posted die claims to be: the heading, and the +1 line if it has one."""
        named = [t for t in self.tables if t.name == name]
        return next((t for t in named if t.modifier in preamble), None) or next(
            (t for t in named if t.modifier is None), None
        )
