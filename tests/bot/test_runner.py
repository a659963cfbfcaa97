"""`threadgm run`'s process: the games on the poll loop, and the game page beside them when [web]
asks for it (none otherwise)."""

from __future__ import annotations

from pathlib import Path

import requests

from engine.config import BotConfig, GameConfig, WebConfig
from engine.rules import REGISTRY
from scheduler import Runner
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard


def test_the_runner_serves_the_game_page_it_was_asked_for(board: LocalBoard, tmp_path: Path) -> None:
    bot = BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite", web=WebConfig(port=0))
    runner = Runner(bot, [GameConfig("ダイス卓<b>", "dice", board.url(), 0.5, 0.5)], REGISTRY)
    runner.start()
    try:
        board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()))
        page = requests.get(f"{runner.page.url}/", timeout=10)
        assert page.status_code == 200
        assert "ダイス卓&lt;b&gt;" in page.text and "ダイス卓<b>" not in page.text
        assert requests.post(f"{runner.page.url}/", timeout=10).status_code == 405
    finally:
        runner.stop()


def test_without_web_no_page_is_served(board: LocalBoard, tmp_path: Path) -> None:
    runner = Runner(
        BotConfig(name=BOT_NAME, database=tmp_path / "b.sqlite"),
        [GameConfig("g", "dice", board.url())],
        REGISTRY,
    )
    try:
        assert runner.page is None
    finally:
        runner.stop()
