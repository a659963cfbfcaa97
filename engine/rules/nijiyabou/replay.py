"""`threadgm verify` with the scenario: every season of a thread recomputed from what the thread
shows, and compared with the report the bot posted.

- The orders of a season are the lines the bot's receipts accepted (`>>N 東京：内政`, the note
  dropped; a line marked （ピリオドN分） belongs to that season), by the authors of those posts; a 取消
  withdraws its author's earlier lines of that season; of one slot the last line counts
  (`receipts.order_key`), as the bot takes them.
- The GM's settings are the bot's echoes (「設定しました: PATH=VALUE（ピリオドNから）」), applied
  before that season.
- The dice are the season's key, published in its report (its hash is checked by `verify`).
- An order is a GM's when its author has one of the GMs' trips (given, or else those of the posts the
  bot answered in the GM's voice, 【GM】).
- A thread with a GM's 巻き戻し or 無効 is not replayed (the thread does not show which orders the
  redo took); the note says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import regex

from engine.rng import SeededSource
from engine.rules.nijiyabou.receipts import order_key
from engine.ruleset import Author, Order, OrderText, Ruleset, ThreadAudit

_RECEIPT = regex.compile(r"^【受付 ピリオド(\d+)")
_LINE = regex.compile(r"^>>(\d+) ([^（]+?)(?:（ピリオド(\d+)分）)?(?:（.*）)?$")
_CANCEL = regex.compile(r"^>>(\d+) 取消: ピリオド(\d+)の命令を取り消しました$")
_SET = regex.compile(r"設定しました: ([^=\s]+)=(.*)（ピリオド(\d+)から）$")
_REPORT = regex.compile(r"^【ピリオド(\d+) 更新】$")
_KEY = regex.compile(r"^鍵 ピリオド(\d+): ([0-9a-f]{64})$")
_UNSAFE = ("巻き戻しました", "無効にしました")
_ANCHOR = regex.compile(r">>(\d+)")


@dataclass
class _Thread:
    orders: dict[int, list[Order]] = field(default_factory=dict)
    settings: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    reports: dict[int, list[str]] = field(default_factory=dict)
    gm_posts: set[int] = field(default_factory=set)  # posts the bot answered as the GM's
    keys: dict[int, bytes] = field(default_factory=dict)
    unsafe: bool = False


def _read(ruleset: Ruleset, thread: Sequence[tuple[int, str, str, bool]]) -> _Thread:
    authors = {number: author for number, author, _, _ in thread}
    found = _Thread()
    open_report: int | None = None
    for _, _, body, by_bot in thread:
        if not by_bot:
            continue
        lines = [text.strip() for text in body.split("\n")]
        if (head := _REPORT.match(lines[0])) is not None:
            open_report = int(head[1])
            found.reports[open_report] = []
        if open_report is not None:
            for text in lines:
                if (key := _KEY.match(text)) is not None:
                    found.keys[int(key[1])] = bytes.fromhex(key[2])
                    open_report = None
                    break
                found.reports[open_report].append(text)
            continue
        found.unsafe |= any(text.startswith("【GM】") and any(w in text for w in _UNSAFE) for text in lines)
        if any(text.startswith("【GM】") for text in lines):
            found.gm_posts |= {int(n) for n in _ANCHOR.findall(lines[0])}
        for text in lines:
            if (setting := _SET.search(text)) is not None:
                found.settings.setdefault(int(setting[3]), []).append((setting[1], setting[2]))
        if (receipt := _RECEIPT.match(lines[0])) is not None:
            _receipt(ruleset, int(receipt[1]), lines, authors, found)
    return found


def _receipt(
    ruleset: Ruleset, period: int, lines: list[str], authors: dict[int, str], found: _Thread
) -> None:
    for text in lines[1:]:
        if text == "受け付けられなかった命令:":
            break
        if (cancel := _CANCEL.match(text)) is not None:
            post, season = int(cancel[1]), int(cancel[2])
            author = authors.get(post, "")
            kept = found.orders.get(season, [])
            found.orders[season] = [o for o in kept if not (o.author == author and o.post < post)]
            continue
        match = _LINE.match(text)
        if match is None:
            continue
        parsed = ruleset.parse_line(match[2])
        if not isinstance(parsed, OrderText):
            continue
        post = int(match[1])
        author = authors.get(post, "")
        season = int(match[3]) if match[3] else period
        found.orders.setdefault(season, []).append(
            Order(post, len(found.orders.get(season, ())), author, author, parsed.command, parsed.canonical)
        )


def _effective(orders: list[Order]) -> list[Order]:
    last = {order_key(order): order for order in orders}
    return [order for order in orders if last[order_key(order)] is order]


def _shown(lines: Sequence[str]) -> list[str]:
    """Lines as compared: a board's table cells are apart by a full-width space, the plain text's by
    a space."""
    return [" ".join(text.replace("\u3000", " ").split()) for text in lines if text.strip()]


def replay(
    ruleset: Ruleset,
    thread: Sequence[tuple[int, str, str, bool]],
    scenario: Mapping[str, Any],
    gm_trips: Sequence[str] | None = None,
) -> ThreadAudit:
    found = _read(ruleset, thread)
    authors = {number: author for number, author, _, _ in thread}
    inferred = (Author.of(authors[n]).trip for n in found.gm_posts if n in authors)
    gms = set(gm_trips) if gm_trips is not None else {trip for trip in inferred if trip}
    if found.unsafe:
        return ThreadAudit(0, 0, ("GMの巻き戻しか無効があるため、季節の結果は命令から再計算していません",))
    state = ruleset.initial_state(scenario)
    checked = matched = 0
    problems: list[str] = []
    for period in sorted(found.reports):
        if period not in found.keys or period != checked + 1:
            break  # a season without its key (or after a gap) cannot be recomputed, nor what follows
        for path, value in found.settings.get(period, ()):
            state = ruleset.set_value(state, path, value)
        orders = [
            replace(o, gm=Author.of(o.author).trip in gms) for o in _effective(found.orders.get(period, []))
        ]
        state, inner = ruleset.resolve(state, orders, SeededSource(found.keys[period]))
        again = _shown(inner.plain.split("\n"))
        posted = _shown(found.reports[period][1:])
        posted = [text for text in posted if not text.startswith("命令がなかった人: ")]
        checked += 1
        if posted == again:
            matched += 1
            continue
        first = next((i for i, (a, b) in enumerate(zip(posted, again, strict=False)) if a != b), None)
        at = min(len(posted), len(again)) if first is None else first
        shown = posted[at] if at < len(posted) else "（なし）"
        computed = again[at] if at < len(again) else "（なし）"
        problems.append(
            f"ピリオド{period}の結果が命令からの再計算と一致しません（投稿「{shown}」／再計算「{computed}」）"
        )
    return ThreadAudit(checked, matched, tuple(problems))
