"""A game's thread at start: a game id the database already holds on another thread is refused (a GM
reusing an old database, or an old configuration with a new thread URL, for a new table would
otherwise play the old game on there — no opening, 【受付 ピリオド4】 first); a game that moved to its
next thread (次スレ) goes on there; a fresh database, or another id, opens a new game."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from board.admin import open_thread
from engine.config import ConfigError
from engine.rules import REGISTRY
from scheduler import ThreadBot
from scraper.fetch import make_session
from tests.bot_harness import BOT_TRIP
from tests.test_scheduler_periods import GM, Game

TABLES = ("threads", "games", "outbox", "posts", "game_log")


def bot_on(game: Game, url: str, game_id: str = "guess") -> ThreadBot:
    config = replace(game.config, id=game_id, thread=url)
    return ThreadBot(config, game.bot_config, game.store, make_session(), game.clock, registry=REGISTRY)


def new_thread(game: Game, title: str = "数当てスレ 新卓") -> tuple[str, str]:
    key = open_thread(game.board.data, "test", title, "新しい卓です")
    return key, game.config.thread.replace(game.board.key, key)


def rows(game: Game) -> dict[str, int]:
    return {table: game.store.db[table].count for table in TABLES}


def bot_posts_in(game: Game, key: str) -> list[str]:
    held, game.board.key = game.board.key, key
    try:
        return [p.body for p in game.board.posts() if p.trip == BOT_TRIP]
    finally:
        game.board.key = held


def test_a_game_id_held_on_another_thread_is_refused_with_the_ways_out_and_nothing_stored(
    tmp_path: Path,
) -> None:
    game = Game(tmp_path)
    try:
        game.tick()  # the opening, in the first thread
        first = game.bot.ref
        key, url = new_thread(game)
        before = rows(game)
        with pytest.raises(ConfigError) as refused:
            bot_on(game, url)
        message = str(refused.value)
        assert "guess" in message and first.read_url in message  # the game, the thread it is on
        assert "id" in message and "database" in message  # the two ways out
        assert rows(game) == before
        assert [t.id for t in game.store.threads_of_game("guess")] == [first.id]
        assert bot_posts_in(game, key) == []
        # the old game is untouched: its own thread still runs it
        assert bot_on(game, game.config.thread).ref == first
        # and the same thread named by another path (したらば's) is still that thread
        assert bot_on(game, game.board.url("shitaraba")).ref.key == first.key
    finally:
        game.close()


def test_the_same_id_is_refused_after_the_old_game_finished_too(tmp_path: Path) -> None:
    game = Game(tmp_path)
    try:
        game.tick()
        game.store.set_game_status("guess", "finished")
        _, url = new_thread(game)
        with pytest.raises(ConfigError, match="guess"):
            bot_on(game, url)
    finally:
        game.close()


def test_a_game_that_moved_to_its_next_thread_goes_on_there_from_the_first_threads_config(
    tmp_path: Path,
) -> None:
    game = Game(tmp_path)
    try:
        game.tick()
        key, url = new_thread(game, "数当てスレ その2")
        game.clock.at("20:10:00")
        game.post(f"次スレ {url}", name=GM)
        game.tick()
        assert game.bot.ref.key == key
        # a restart with the configuration unchanged (it names the first thread), and one whose
        # GM wrote the next thread in: both play on in the newest thread
        restarted = bot_on(game, game.config.thread)
        assert restarted.ref.key == key
        assert bot_on(game, url).ref.key == key
        game.bot = restarted
        game.board.key = key
        game.clock.at("20:20:00")
        game.post("＜予想＞77", name="ボブ")
        game.tick()
        assert "＜予想＞77" in game.last()
    finally:
        game.close()


def test_a_fresh_database_or_another_id_opens_a_new_game(tmp_path: Path) -> None:
    game = Game(tmp_path)
    try:
        game.tick()
        opening = game.bot_posts()
        assert len(opening) == 1 and opening[0].startswith("【数当て 開始】")
        key, url = new_thread(game)
        game.bot = bot_on(game, url, game_id="guess2")  # the same database, another id
        game.tick()
        posts = bot_posts_in(game, key)
        # a new game's opening, with a secret of its own — not the old game's receipt
        assert len(posts) == 1 and posts[0].startswith("【数当て 開始】") and posts[0] != opening[0]
    finally:
        game.close()


def test_another_id_on_a_thread_the_database_holds_for_a_game_is_refused(tmp_path: Path) -> None:
    game = Game(tmp_path)
    try:
        game.tick()
        before = rows(game)
        with pytest.raises(ConfigError) as refused:
            bot_on(game, game.config.thread, game_id="guess2")  # the old table's URL, a new id
        message = str(refused.value)
        assert "guess2" in message and "guess" in message.replace("guess2", "")
        assert game.bot.ref.read_url in message and "thread" in message and "database" in message
        assert rows(game) == before and len(game.bot_posts()) == 1
    finally:
        game.close()
