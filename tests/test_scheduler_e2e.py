"""The whole bot on the local board, in both dialects: one answer per command post, and nothing twice."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from board.tripcode import display_trip
from engine.rules import REGISTRY
from scheduler import BotConfig, GameConfig, Runner, load_config
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard, check_dice_line, write_config

POLL = 1.0


def test_the_bot_trip_is_the_one_the_board_computes() -> None:
    assert display_trip(BOT_NAME) == f"◆{BOT_TRIP}"


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_dice_post_gets_exactly_one_reply_within_the_poll_interval(
    board: LocalBoard, tmp_path: Path, dialect: str
) -> None:
    config = write_config(
        tmp_path / "bot.toml",
        tmp_path / "bot.sqlite",
        board.url(dialect),
        poll_seconds=POLL,
        idle_seconds=POLL,
    )
    bot, games = load_config(config)
    runner = Runner(bot, games, REGISTRY)
    runner.start()
    try:
        board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()))  # the commitment post
        numbers = []
        for message in ("dice2d47=", "全角でも　ｄｉｃｅ３ｄ６＝", "1D100<=50 判定\ndice10d9999="):
            numbers.append(board.post(message, dialect=dialect))
            # How fast is `python -m bench pipeline`'s to say; here only that the answer comes.
            board.wait_for(lambda: board.replies_to(numbers[-1]), timeout=60)
        board.wait_polls(3)  # more polls: nothing is answered twice
    finally:
        runner.stop()

    first, second, third = (board.replies_to(n) for n in numbers)
    assert len(first) == len(second) == len(third) == 1
    check_dice_line(first[0].split("\n")[1], 2, 47)
    check_dice_line(second[0].split("\n")[1], 3, 6)
    bcdice, many = third[0].split("\n")[1:3]
    assert bcdice.startswith("(1D100<=50) ＞ ") and bcdice.endswith(("成功", "失敗"))
    check_dice_line(many, 10, 9999)
    own = [p for p in board.posts() if p.trip == BOT_TRIP]
    assert len(own) == 4  # the commitment post and three answers, nothing else


def test_the_bot_never_answers_itself_nor_posts_from_before_it_joined(
    board: LocalBoard, tmp_path: Path
) -> None:
    early = board.post("参加前のダイス dice1d6=")
    time.sleep(1.1)
    runner = Runner(
        BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"),
        [GameConfig("g", "dice", board.url(), 0.5, 0.5)],
        REGISTRY,
    )
    runner.start()
    try:
        board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()))
        impostor = board.post("dice1d6=", name=BOT_NAME)  # the bot's own name and trip: its own post
        late = board.post("dice1d6=")
        board.wait_for(lambda: board.replies_to(late))
        board.wait_polls(3)
    finally:
        runner.stop()
    assert board.replies_to(early) == [] and board.replies_to(impostor) == []
    assert len(board.replies_to(late)) == 1


def test_a_restart_answers_what_came_while_the_bot_was_down_once(board: LocalBoard, tmp_path: Path) -> None:
    bot, game = (
        BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"),
        GameConfig("g", "dice", board.url(), 0.5, 0.5),
    )
    runner = Runner(bot, [game], REGISTRY)
    runner.start()
    board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()))
    runner.stop()
    missed = board.post("dice2d6=")
    again = Runner(bot, [game], REGISTRY)
    again.start()
    try:
        board.wait_for(lambda: board.replies_to(missed))
        board.wait_polls(3)
    finally:
        again.stop()
    assert len(board.replies_to(missed)) == 1
    assert len([p for p in board.posts() if p.trip == BOT_TRIP]) == 2
