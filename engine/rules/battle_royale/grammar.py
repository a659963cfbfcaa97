"""Dice templates of the 都道府県バトロワ as players post them (seed 000, 使用ダイス一覧):

    【通常戦闘ダイス】
    基準『東京』
    基準側の人数が多い為、勝利＋1
    dice1d5=

A template is a 【name】 heading followed (on the same line or the next ones, up to the next heading) by a
`diceNdM=` command; 基準『』 and a 勝利＋1 / 敗北＋1 line are read when present. NFKC-tolerant; quoted
lines are skipped. The engine then checks the template against the die the rules need.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from parser.bbs_dice import BbsDice, BbsDiceError, find_bbs_dice, is_quote, normalize

_HEADING = regex.compile(r"【([^】\n]{1,40})】")
_BASE = regex.compile(r"基準\s*[『「]([^』」\n]{0,40})[』」]")
_VARIANT = regex.compile(r"(勝利|敗北)\s*\+\s*1")
# A table line of the template, `1.勝利`, `1～4.勝利`, `5-6.敗北` (NFKC; the seed writes ～ and .).
_OPTION = regex.compile(
    r"^\s*([0-9]{1,4})\s*(?:[～~〜\-ー−]\s*([0-9]{1,4}))?\s*[.．、:：]\s*(\S.{0,40}?)\s*$"
)


@dataclass(frozen=True)
class DieTemplate:
    table: str  # the name inside 【】, NFKC
    base: str | None  # the name inside 基準『』 (None when the template has no 基準 line)
    variant: str | None  # "勝利+1" / "敗北+1" when a note line says so
    count: int | None  # N of diceNdM= (None when the command was out of range)
    sides: int | None
    line: int  # 0-based line of the heading
    error: str | None = None  # why the dice command cannot be rolled (Japanese)
    options: tuple[tuple[int, int, str], ...] = ()  # the table lines pasted with it: (low, high, text)


def heading_of(line: str) -> str | None:
    """The name inside a line's 【】 heading (NFKC), or None."""
    match = _HEADING.search(normalize(line))
    return match[1].strip() if match else None


def find_die_templates(body: str) -> list[DieTemplate]:
    """Every template of a post, in order; headings without a dice command are plain text, not templates."""
    lines = body.split("\n")
    starts: list[tuple[int, str]] = []
    for number, raw in enumerate(lines):
        if is_quote(raw):
            continue
        match = _HEADING.search(normalize(raw))
        if match:
            starts.append((number, match[1].strip()))
    templates: list[DieTemplate] = []
    for index, (start, name) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
        block = "\n".join("" if is_quote(raw) else raw for raw in lines[start:end])
        dice = find_bbs_dice(block)
        if not dice:
            continue
        flat = normalize(block)
        base = _BASE.search(flat)
        variant = _VARIANT.search(flat)
        first = dice[0]
        templates.append(
            DieTemplate(
                table=name,
                base=base[1].strip() if base else None,
                variant=f"{variant[1]}+1" if variant else None,
                count=first.count if isinstance(first, BbsDice) else None,
                sides=first.sides if isinstance(first, BbsDice) else None,
                line=start,
                error=first.reason if isinstance(first, BbsDiceError) else None,
                options=_options(flat),
            )
        )
    return templates


def _options(block: str) -> tuple[tuple[int, int, str], ...]:
    """The table lines of a template block (`1～4.勝利` → (1, 4, "勝利")), in order."""
    found = []
    for text in block.split("\n"):
        match = _OPTION.match(text)
        if match is not None:
            low = int(match[1])
            found.append((low, int(match[2]) if match[2] else low, match[3]))
    return tuple(found)
