"""A post's budget: a line written again counts once, a post's orders and GM commands are capped (the
rest refused in one line saying from where), and ヘルプ全文 is written once per thread a period."""

from __future__ import annotations

import pytest

from engine.clock.periods import MAX_ORDER_LINES, MAX_POST_LINES
from engine.referee.gm import MAX_GM_COMMANDS
from engine.referee.posts import MAX_HELP_ANSWERS
from store.changes import Log, SaveOrders
from store.records import OrderRecord
from tests.referee_harness import GM_TRIP, PureGame, posted


@pytest.fixture
def guess():
    game = PureGame("guess", 'players = ["アリス", "ボブ"]\nrounds = 3\n')
    game.poll()  # the opening
    yield game
    game.close()


def _saved(decided) -> list[OrderRecord]:
    return [row for c in decided.changes if isinstance(c, SaveOrders) for row in c.rows]


def _logged(decided, kind: str) -> list[Log]:
    return [c for c in decided.changes if isinstance(c, Log) and c.kind == kind]


def test_an_order_written_twenty_times_in_a_post_counts_once(guess: PureGame) -> None:
    decided = guess.poll([guess.post("\n".join(["＜予想＞40"] * 20), "アリス")], minutes=1)
    assert [row.canonical for row in _saved(decided)] == ["＜予想＞40"]
    (receipt,) = posted(decided)
    assert receipt.count("＜予想＞40") == 1


def test_a_post_is_read_up_to_its_order_cap_and_the_receipt_says_from_where(guess: PureGame) -> None:
    body = "\n".join(f"＜予想＞{n}" for n in range(1, MAX_ORDER_LINES + 11)) + "\n準備完了"
    decided = guess.poll([guess.post(body, "アリス")], minutes=1)
    assert len(_saved(decided)) == MAX_ORDER_LINES
    receipt = "\n".join(posted(decided))
    assert (
        f"{MAX_ORDER_LINES + 1}行目から後は読んでいません（命令は1つの書き込みに{MAX_ORDER_LINES}行まで"
        in receipt
    )
    assert _logged(decided, "ready") == []  # not read to its end: no early close on it


def test_lines_past_the_post_cap_are_never_read(guess: PureGame) -> None:
    body = "\n".join(["雑談"] * MAX_POST_LINES + ["＜予想＞7"])
    decided = guess.poll([guess.post("＜予想＞5\n" + body, "アリス")], minutes=1)
    assert [row.canonical for row in _saved(decided)] == ["＜予想＞5"]
    assert f"{MAX_POST_LINES + 1}行目から後は読んでいません" in "\n".join(posted(decided))


def test_a_gm_command_written_twenty_times_is_carried_out_once(guess: PureGame) -> None:
    decided = guess.poll([guess.post("\n".join(["延長 10分"] * 20), "GM", GM_TRIP)], minutes=1)
    assert len(_logged(decided, "extend")) == 1
    assert "\n".join(posted(decided)).count("延長") == 1


def test_a_post_carries_out_at_most_its_cap_of_gm_commands(guess: PureGame) -> None:
    body = "\n".join(f"設定 scores.アリス={n}" for n in range(MAX_GM_COMMANDS + 5))
    decided = guess.poll([guess.post(body, "GM", GM_TRIP)], minutes=1)
    assert len(_logged(decided, "set")) == MAX_GM_COMMANDS
    assert f"{MAX_GM_COMMANDS + 1}行目から後は実行していません" in "\n".join(posted(decided))


def test_the_full_help_is_written_once_per_thread_a_period_whoever_asks(guess: PureGame) -> None:
    posts = [guess.post("ヘルプ全文", f"名無し{n}") for n in range(10)]
    decided = guess.poll(posts, minutes=1)
    texts = "\n".join(posted(decided))
    assert texts.count("【数当て】") == 1  # the HELP's own heading: the whole text, once
    answers = _logged(decided, "help_full") + _logged(decided, "help")
    assert len(answers) == 1 + MAX_HELP_ANSWERS
    assert "への返信で書き込みました" in texts
    later = guess.poll([guess.post("ヘルプ全文", "名無し0")], minutes=1)
    assert posted(later) == []  # the same period: nothing more
