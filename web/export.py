"""A game's whole history as wiki markup, ready to paste into the game's wiki page (atwiki, PukiWiki,
Markdown): the game and its thread, then one section per period — the orders it took, the results as
the thread was told them (the period's `Report`, folded again from the log), and the standings after
it (the 状態 report). An immediate game has no periods of orders: each answer the bot posted is a
section of its own: the post it answers (who wrote what), then the answer's lines as posted.
"""

from __future__ import annotations

import re

from engine.config import GameConfig
from engine.referee import GameSetup
from poster.wiki import Dialect, heading_line, plain_line, render_wiki, table_lines, tidy
from store.db import Store
from store.reads import sent_posts
from store.records import OutboxRecord
from web.history import Period, periods, thread_of

ANCHORS = re.compile(r"(?:>>[0-9]{1,6}\s*)+")  # an answer's first line: the posts it answers (>>5 >>6)


def export(store: Store, config: GameConfig, setup: GameSetup, dialect: Dialect) -> str:
    ruleset = setup.ruleset
    thread = thread_of(store, config)
    lines = [
        heading_line(f"{ruleset.NAME}（{config.id}）", 1, dialect),
        _line(f"スレッド: {thread.read_url}", dialect),
    ]
    if ruleset.immediate:
        for post in sent_posts(store, setup.id, ("answer",)):
            lines += _answer(store, post, dialect)
        return tidy(lines)
    for period in periods(setup, thread, store):
        lines += _period(period, setup, dialect)
    return tidy(lines)


def _period(period: Period, setup: GameSetup, dialect: Dialect) -> list[str]:
    lines = ["", heading_line(f"ピリオド{period.number}", 2, dialect), heading_line("命令", 3, dialect)]
    if period.orders:
        rows = [
            (f">>{o.post}", o.player if o.player == o.author else f"{o.player}（{o.author}）", o.canonical)
            for o in period.orders
        ]
        lines += table_lines(rows, ("書き込み", "プレイヤー", "命令"), dialect)
    else:
        lines.append(_line("なし", dialect))
    lines += ["", heading_line("結果", 3, dialect)]
    if period.report is not None:
        lines.append(render_wiki(period.report, dialect, level=4).rstrip("\n"))
    lines += ["", heading_line("状況", 3, dialect)]
    lines.append(render_wiki(setup.ruleset.status(period.state), dialect, level=4).rstrip("\n"))
    return lines


def _answer(store: Store, post: OutboxRecord, dialect: Dialect) -> list[str]:
    """One answer with the posts it answers (its first line's >>N anchors) before it."""
    body = post.body.split("\n")
    first = body[0].strip()
    numbers = [int(n) for n in re.findall(r"[0-9]+", first)] if ANCHORS.fullmatch(first) else []
    answered = [found for n in numbers if (found := store.post(post.thread_id, n)) is not None]
    if not answered:
        return ["", heading_line(body[0], 2, dialect), *(_line(text, dialect) for text in body[1:])]
    lines = [""]
    for found in answered:
        who = f"{found.name}◆{found.trip}" if found.trip else found.name
        lines += [heading_line(f">>{found.number} {who}", 2, dialect)]
        lines += [_line(f"> {text}", dialect) for text in found.body.split("\n")]
    lines += [_line("返答:", dialect), *(_line(text, dialect) for text in body[1:])]
    return lines


def _line(text: str, dialect: Dialect) -> str:
    return plain_line(text, dialect)
