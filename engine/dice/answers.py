"""The answers of plain dice: every dice command of a post answered at once, verifiably.

A post's dice come from the period of the post's own date (the JST day, as the board stamped it) and
from streams named after the thread and the post: the i-th command of post N in thread KEY rolls
with purpose `KEY/N/i`. Anyone holding the day's key can recompute every face from the thread alone.

A secret command (BCDice's `S` prefix) rolls with a key of its own instead, `HMAC-SHA256(seed,
"secret|GAME|KEY/N/i")`, so publishing the day's key does not reveal it; the answer shows only that a
secret roll was made and the SHA-256 of that key. Revealing it (the GM's 公開 >>N) publishes the key
and the result, and anyone can check both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from engine.dice.post import answer_post
from engine.keys import PrefixedSource, RoutedSource, commitment, purpose_prefix
from engine.report import Report, heading, line, report
from engine.rng import SeededSource

SECRET_LABEL = "シークレット"
REVEAL_HEADING = "シークレットダイス公開"


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
