"""The plain dice ruleset: every dice command of every post answered at once, verifiably.

A post's dice come from the period of the post's own date (the JST day, as the board stamped it) and
from streams named after the thread and the post: the i-th command of post N in thread KEY rolls
with purpose `KEY/N/i`. Anyone holding the day's key can recompute every face from the thread alone.

A secret command (BCDice's `S` prefix) rolls with a key of its own instead, `HMAC-SHA256(seed,
"secret|GAME|KEY/N/i")`, so publishing the day's key does not reveal it; the answer shows only that a
secret roll was made and the SHA-256 of that key. Revealing it (the GM's 公開 >>N) publishes the key
and the result, and anyone can check both.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import date, datetime, timedelta, timezone

from engine.post_dice import answer_post
from engine.report import Report, heading, line, report
from engine.rng import Dice, RandomSource, SeededSource, commitment

ID = "dice"
NAME = "ダイス"
HELP = """\
【ダイス】
レスに書いたダイスコマンドにその場で答えます。
・dice2d47= のような BBS 形式（ダイス1～10個、面1～9999）
・2D6>=7、1D100<=50、3B6、choice[A,B,C] など BCDice の共通コマンド（行頭に書く。全角も可）
・【表の名前】とコマンドと「1.勝利」「5-6.敗北」のような出目の行を並べた表
出目はその日（日本時間）の鍵から決まり、鍵のハッシュは前日までに、鍵そのものは翌日に公開します。
threadgm verify でスレッドの全ての出目を誰でも再計算できます。"""

JST = timezone(timedelta(hours=9), "JST")


class PrefixedSource:
    """A source whose purposes all start with `prefix` (the thread and post a command stands in)."""

    def __init__(self, inner: RandomSource, prefix: str) -> None:
        self.inner = inner
        self.prefix = prefix

    def stream(self, purpose: str) -> Dice:
        return self.inner.stream(self.prefix + purpose)


def period_of(moment: datetime) -> str:
    """The period of plain dice threads: the JST day, `2026-11-29`."""
    return moment.astimezone(JST).date().isoformat()


def next_period(period: str) -> str:
    return (date.fromisoformat(period) + timedelta(days=1)).isoformat()


def period_end(period: str) -> datetime:
    return datetime.combine(date.fromisoformat(period) + timedelta(days=1), datetime.min.time(), JST)


def purpose_prefix(thread_key: str, number: int) -> str:
    return f"{thread_key}/{number}/"


SECRET_LABEL = "シークレット"
REVEAL_HEADING = "シークレットダイス公開"


class RoutedSource:
    """The period's streams, except the listed command indexes, which roll with keys of their own."""

    def __init__(self, default: RandomSource, routes: Mapping[str, RandomSource]) -> None:
        self.default = default
        self.routes = routes

    def stream(self, purpose: str) -> Dice:
        return self.routes.get(purpose, self.default).stream(purpose)


def secret_key(seed: bytes, game_id: str, thread_key: str, number: int, index: int) -> bytes:
    message = f"secret|{game_id}|{purpose_prefix(thread_key, number)}{index}"
    return hmac.new(seed, message.encode(), hashlib.sha256).digest()


def secret_label(number: int, index: int) -> str:
    return f"{SECRET_LABEL}{number}-{index}"


def answer(
    thread_key: str,
    number: int,
    body: str,
    key: bytes,
    secret_keys: Callable[[int], bytes] | None = None,
) -> Report | None:
    """The answer to post `number` of thread `thread_key` under the period key `key`, or None.

    With `secret_keys` (index → key), secret commands roll under their own keys and the answer
    carries each key's commitment; `Report.meta["secret"]` keeps the hidden texts for the reveal.
    """
    prefix = purpose_prefix(thread_key, number)
    public = PrefixedSource(SeededSource(key), prefix)
    found = answer_post(body, public)
    if found is None:
        return None
    hidden = found.meta.get("secret", {})
    if hidden and secret_keys is not None:
        routes = {str(i): PrefixedSource(SeededSource(secret_keys(i)), prefix) for i in hidden}
        found = answer_post(body, RoutedSource(public, routes))
        assert found is not None  # the same post, the same commands: only the dice differ
        notes = tuple(
            line(f"{secret_label(number, i)} 鍵のハッシュ(SHA-256): {commitment(secret_keys(i))}")
            for i in sorted(hidden)
        )
        found = replace(found, blocks=found.blocks + notes)
    return replace(found, reply_to=(number,))


def reveal(number: int, hidden: Mapping[int, str], keys: Mapping[int, bytes]) -> Report:
    """The post that opens post `number`'s secret rolls: each result and the key that made it."""
    blocks = [heading(REVEAL_HEADING)]
    for index in sorted(hidden):
        blocks.append(line(f"{secret_label(number, index)}:"))
        blocks.extend(line(text) for text in hidden[index].split("\n"))
        blocks.append(line(f"鍵 {secret_label(number, index)}: {keys[index].hex()}"))
    return report(*blocks, reply_to=(number,), kind="reveal")
