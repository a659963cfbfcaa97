"""The order lifecycle of games that run on the clock, as pure functions over posts and stored orders.

- A post's order lines are parsed by the ruleset's grammar; each accepted order belongs to the
  period its post was written in (the post's own board date), so an order written after the
  deadline goes to the next period.
- Within a period, the last order with the same key wins (`Ruleset.order_key`): the earlier one is
  superseded. The cancel word withdraws the author's orders of the period; the ready word marks the
  author ready (every player ready may end the period early).
- A receipt after each poll lists what was accepted, in canonical form, and what was rejected, with
  the reason; reminders name the players who have sent nothing; the period's report carries the
  orders the missing-order policy assumed, the period's key, and the next period's commitment.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from engine.report import Block, Report, anchor, heading, line, report
from engine.ruleset import Order, OrderText, Rejection, Ruleset, read_line_of
from store.records import OrderRecord


@dataclass(frozen=True)
class ReadOrder:
    """One order line read from a post: the row the store keeps (its receipt's id is given when it is
    stored), the typed command the grammar read it into (None for a refused line), and the ruleset's
    word on it for the receipt. The command is the one the row's canonical form reads back as
    (`Ruleset.parse_line`), so a poll that read the line carries it on, and a later poll — a restart
    too — reads the same command from the stored row."""

    row: OrderRecord
    command: Any = None
    note: str = ""

    @property
    def accepted(self) -> bool:
        return self.row.status == "accepted"

    def refused(self, reason: str) -> ReadOrder:
        """The order refused after reading (by `check`, or a ruleset's `void`), with why."""
        return replace(self, row=replace(self.row, status="rejected", reason=reason))


@dataclass(frozen=True)
class PostReading:
    orders: tuple[ReadOrder, ...] = ()
    cancelled: bool = False  # the post holds the cancel word
    ready: bool = False  # the post holds the ready word
    ready_refused: bool = False  # ...and a refused line too: the period is not closed early on it
    ready_ignored: str = ""  # why a 準備完了 does not count (not a player's, no early close here)
    nothing_cancelled: bool = False  # the cancel word, with no order of the writer's to withdraw
    unread: str = ""  # why the post was not read to its end (its budget), for the receipt


def read_post(
    ruleset: Ruleset,
    *,
    game_id: str,
    thread_id: str,
    post: int,
    author: str,
    written_at: str | None,
    body: str,
    period: int,
    cancel_words: Sequence[str],
    ready_words: Sequence[str],
    is_word,
    is_quote,
    state: Any = None,
) -> PostReading:
    """The orders, cancel and ready words of one post (quoted lines are never orders), read with the
    running period's `state` when the ruleset reads with it (`ReadsWithState`), within the
    post's budget: a line written again counts once, and reading stops after `MAX_ORDER_LINES` order
    lines or `MAX_POST_LINES` lines (the receipt says from which line on nothing was read)."""
    found: list[ReadOrder] = []
    cancelled = ready = False

    def row(
        number: int, text: str, player: str, canonical: str, key: str, status: str, why: str = ""
    ) -> OrderRecord:
        where = (game_id, thread_id, post, number, author, player, period, text.strip())
        return OrderRecord(*where, canonical, key, status, why, written_at)

    seen: set[str] = set()
    lines = body.split("\n", MAX_POST_LINES)
    unread = _unread(MAX_POST_LINES, POST_LINES_CUT) if len(lines) > MAX_POST_LINES else ""
    for number, text in enumerate(lines[:MAX_POST_LINES]):
        if text.strip() in seen or is_quote(text):
            continue
        seen.add(text.strip())
        if len(found) == MAX_ORDER_LINES:
            unread = _unread(number, ORDER_LINES_CUT) if text.strip() else unread
            if unread:
                break
            continue
        if is_word(text, cancel_words):
            cancelled = True
            continue
        if is_word(text, ready_words):
            ready = True
            continue
        parsed = read_line_of(ruleset, state, text)
        if parsed is None:
            continue
        if isinstance(parsed, Rejection):
            found.append(ReadOrder(row(number, text, author, parsed.text, "", "rejected", parsed.reason)))
            continue
        assert isinstance(parsed, OrderText)
        player = parsed.player or author
        key = ruleset.order_key(Order(post, number, author, player, parsed.command, parsed.canonical))
        found.append(ReadOrder(row(number, text, player, parsed.canonical, key, "accepted"), parsed.command))
    return PostReading(tuple(found), cancelled, ready, unread=unread)


MAX_POST_LINES = 1000  # lines of a post read at all: no board takes a longer post
MAX_ORDER_LINES = 40  # order lines of one post taken: more than any side's units, bounded for a flood
ORDER_LINES_CUT = f"命令は1つの書き込みに{MAX_ORDER_LINES}行まで"
POST_LINES_CUT = f"1つの書き込みで読むのは{MAX_POST_LINES}行まで"


def readable(body: str) -> str:
    """The part of a post any reader looks at: its first `MAX_POST_LINES` lines."""
    return "\n".join(body.split("\n", MAX_POST_LINES)[:MAX_POST_LINES])


def _unread(number: int, why: str) -> str:
    return f"{number + 1}行目から後は読んでいません（{why}。続きは次の書き込みに）"


def receipt(
    period_of: Mapping[int, int],
    readings: Sequence[tuple[int, PostReading]],
    current: int,
    deadline: datetime | None,
    over: bool = False,
) -> Report | None:
    """One post for everything read in a poll: accepted orders, cancellations, rejections (`over`: the
    game has ended, so the receipt names no period)."""
    accepted: list[Block] = []
    rejected: list[Block] = []
    for post, reading in readings:
        later = period_of[post] > current
        suffix = f"（ピリオド{period_of[post]}分）" if later else ""
        if reading.cancelled:
            accepted.append(line(anchor(post), f" 取消: ピリオド{period_of[post]}の命令を取り消しました"))
        if reading.nothing_cancelled:
            accepted.append(line(anchor(post), f" 取消: ピリオド{period_of[post]}に取り消す命令はありません"))
        for order in reading.orders:
            if order.accepted:
                note = f"（{order.note}）" if order.note else ""
                accepted.append(line(anchor(post), f" {order.row.canonical}{suffix}{note}"))
            else:
                rejected.append(line(anchor(post), f" {order.row.text} → {order.row.reason}"))
        if reading.ready:
            accepted.append(line(anchor(post), " 準備完了"))
        if reading.unread:
            rejected.append(line(anchor(post), f" {reading.unread}"))
        if reading.ready_refused:
            rejected.append(line(anchor(post), f" 準備完了 → {READY_REFUSED}"))
        if reading.ready_ignored:
            rejected.append(line(anchor(post), f" 準備完了 → {reading.ready_ignored}"))
    if not accepted and not rejected:
        return None
    when = f"（締切 {deadline_text(deadline)}）" if deadline else ""
    title = "受付（ゲームは終了しています）" if over else f"受付 ピリオド{current}{when}"
    blocks: list[Block] = [heading(title), *accepted]
    if rejected:
        blocks += [line("受け付けられなかった命令:"), *rejected]
    return report(*blocks, kind="receipt")


GAME_OVER = "ゲームは終了しているため、命令は実行されません"
READY_REFUSED = (
    "受け付けられなかった行があるため準備完了にしていません（直してからもう一度 準備完了 と書いてください）"
)
READY_NO_EARLY = "このスレは締切の時刻に更新します（準備完了での早期更新はありません）"
READY_NO_PLAYERS = (
    "このゲームは参加者が決まっていないため、準備完了での早期更新はありません（締切の時刻に更新します）"
)
READY_IGNORED = (
    "準備完了を数えるのは、このピリオドに命令を出すプレイヤーだけです（名前欄のトリップで見分けます）"
)


def reminder(period: int, deadline: datetime, missing: Iterable[str]) -> Report:
    names = "、".join(missing)
    return report(
        heading(f"締切のお知らせ ピリオド{period}"),
        line(f"締切は {deadline_text(deadline)} です"),
        line(f"まだ命令がない人: {names}"),
        kind="reminder",
    )


def deadline_text(moment: datetime) -> str:
    return moment.strftime("%m/%d %H:%M").lstrip("0")


def effective_orders(rows: Iterable[OrderRecord]) -> list[OrderRecord]:
    """The orders that count, in posting order: accepted ones, the last of each key."""
    latest: dict[str, OrderRecord] = {}
    for row in sorted((r for r in rows if r.status == "accepted"), key=lambda r: (r.post, r.line)):
        latest[row.order_key] = row
    return sorted(latest.values(), key=lambda r: (r.post, r.line))


def resolution_report(
    period: int,
    inner: Report,
    *,
    key_hex: str,
    assumed: Sequence[tuple[str, str]],
    next_period: int | None,
    next_deadline: datetime | None,
    next_commitment: str | None,
    redo: bool = False,
) -> Report:
    """The period's report: the ruleset's, framed with the missing-order policy and the keys."""
    title = f"ピリオド{period} 更新" + ("（再処理）" if redo else "")
    blocks: list[Block] = [heading(title)]
    if assumed:
        blocks.append(
            line("命令がなかった人: " + "、".join(f"{player}（{text}）" for player, text in assumed))
        )
    blocks += list(inner.blocks)
    blocks.append(line(f"鍵 ピリオド{period}: {key_hex}"))
    if next_period is not None and next_commitment is not None:
        when = f" 締切 {deadline_text(next_deadline)}" if next_deadline else ""
        blocks.append(line(f"次 ピリオド{next_period}{when} 鍵のハッシュ(SHA-256): {next_commitment}"))
    return report(*blocks, kind="resolution", **inner.meta)


def opening_report(
    name: str,
    period: int,
    deadline: datetime | None,
    commitment: str,
    schedule: str,
    *,
    secret_commitment: str | None = None,
    rules: Sequence[str] = (),
    players: Sequence[str] | None = None,
    orders: Sequence[str] = (),
    view: Sequence[Block] = (),
) -> Report:
    """The post that opens a game on the clock: what it is played by, who plays and how to order,
    the starting position when the game shows one (`view`: a board's map), when periods end, and the
    commitments of the first key and of the secret dice."""
    when = f" 締切 {deadline_text(deadline)}" if deadline else ""
    blocks: list[Block] = [
        heading(f"{name} 開始"),
        line(f"更新: {schedule}"),
        *([line("設定: " + "／".join(rules))] if rules else []),
        *([line("参加: " + "、".join(players))] if players else []),
        *(line(text) for text in orders),
        line("ヘルプ と書くと命令の書き方を、ヘルプ全文 と書くとルール全文を返します"),
        line(f"ピリオド{period}{when} 鍵のハッシュ(SHA-256): {commitment}"),
    ]
    if secret_commitment is not None:
        blocks.append(secret_commitment_line(secret_commitment))
    blocks += view  # last: when the board splits a long opening, its head and keys stay in one post
    return report(*blocks, kind="opening")


RULES_SECRET_HASH = "秘密のダイスの鍵のハッシュ(SHA-256)"
RULES_SECRET_KEY = "秘密のダイスの鍵"


def secret_commitment_line(digest: str) -> Block:
    """The hash of the key of a ruleset's secret dice (a hidden mastermind), published at the start."""
    return line(f"{RULES_SECRET_HASH}: {digest}")


def finish_blocks(secret_key: bytes, unrun: Sequence[tuple[int, str]] = ()) -> list[Block]:
    """The game is over: the secret dice's key, checkable against its hash (threadgm verify does), and
    the orders taken for a period that will not come (`unrun`: post number, order), which do not run."""
    blocks: list[Block] = [
        heading("ゲーム終了"),
        line(f"{RULES_SECRET_KEY}: {secret_key.hex()}（最初に公開したハッシュと照合できます）"),
    ]
    if unrun:
        blocks.append(line("次のピリオド分として受け付けた命令は、ゲーム終了のため実行されません:"))
        blocks += [line(anchor(post), f" {order}") for post, order in unrun]
    return blocks


__all__ = [
    "RULES_SECRET_HASH",
    "RULES_SECRET_KEY",
    "PostReading",
    "ReadOrder",
    "deadline_text",
    "effective_orders",
    "finish_blocks",
    "opening_report",
    "read_post",
    "receipt",
    "reminder",
    "resolution_report",
    "secret_commitment_line",
]
