"""Games played by the bot on the local board for the game page's tests, with time injected into
the board and the bot and each game's secret fixed, so that every run plays the same game: a short
naval war, a battle royale (東日本 or all 47 prefectures) and a 数当て with hostile names."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

from board.admin import ADMIN_CLIENT
from board.posting import PostingService, WriteForm, Written
from board.server import make_app
from board.storage import BoardStore
from engine.keys import JST
from engine.rules import REGISTRY
from scheduler import BotConfig, GameConfig, ThreadBot
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, LocalBoard
from tests.conftest import FIXTURES
from tests.scripted import scripted_server
from web.server import GamePage

START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
ALICE = "アリス#alice-key"  # ABC's player in naval_war.toml
BOB = "ボブ#bob-key"  # XYZ's
NAVAL = FIXTURES / "web" / "naval_war.toml"
EAST = ("北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島", "茨城")
HOSTILE = '<script>alert("名前")</script>'


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def open_board(data: Path, clock: Clock, title: str) -> LocalBoard:
    """The local board with the game's thread opened at a fixed moment (the same key every run)."""
    app = make_app(data, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""}, clock=clock)
    store = BoardStore(data)
    store.open("test", create=True)
    opened = PostingService(store, clock=lambda: START - timedelta(hours=1)).write(
        WriteForm("test", None, "", "", f"{title}の会場です", title), ADMIN_CLIENT
    )
    assert isinstance(opened, Written)
    server, script = scripted_server(app)
    return LocalBoard(data, server, script, opened.key)


class Played:
    """One game on its board, the bot that plays it, and (once asked) the game page beside it."""

    def __init__(self, tmp_path: Path, game_id: str, rules: str, title: str, **options: object) -> None:
        self.clock = Clock()
        self.board = open_board(tmp_path / "board", self.clock, title)
        self.config = GameConfig(game_id, rules, self.board.url(), **options)
        self.database = tmp_path / "bot.sqlite"
        self.store = Store(self.database)
        self.bot = ThreadBot(
            self.config, BotConfig(name=BOT_NAME), self.store, make_session(), self.clock, registry=REGISTRY
        )
        self.page: GamePage | None = None

    def post(self, text: str, name: str = "名無しさん", minutes: float = 1) -> int:
        self.clock.advance(minutes=minutes)
        return self.board.post(text, name=name)

    def tick(self, minutes: float = 0) -> None:
        self.clock.advance(minutes=minutes)
        self.bot.tick()

    def serve(self) -> GamePage:
        self.page = GamePage(self.store, [(self.config, self.bot.setup)]).start()
        return self.page

    def finished(self) -> bool:
        return self.store.game_status(self.config.id) == "finished"

    def close(self) -> None:
        if self.page is not None:
            self.page.close()
        self.board.close()
        self.store.close()


def naval(tmp_path: Path, periods: int = 2) -> Played:
    """The short naval war: ABC attacks a paired XYZ ship each period (both sink by period 2)."""
    game = Played(
        tmp_path,
        "naval",
        "naval",
        "海戦スレ",
        scenario=NAVAL,
        schedule={"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "0m"},
        dice=False,
        seed="web-naval-1",
    )
    game.tick()
    attacks = ["＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01", "＜攻撃＞ABC-DD-A-02、XYZ-DD-X-02"]
    for attack in attacks[:periods]:
        game.post(attack, name=ALICE, minutes=10)
        game.tick(minutes=1)
        game.clock.now = game.clock.now.replace(minute=1) + timedelta(hours=1)
        game.tick()
    return game


def battle_royale(
    tmp_path: Path,
    roster: tuple[str, ...] | None = EAST,
    periods: int | None = None,
    mastermind: bool = False,
) -> Played:
    """The automatic battle royale, two battles a period: to its end (`periods` None) or that many
    periods. `roster` None plays the packaged 47 prefectures; `mastermind` hides a 黒幕 among them."""
    scenario = tmp_path / "battle_royale.toml"
    if roster is None:
        text = (
            Path(__file__).resolve().parents[2] / "engine/rules/battle_royale/scenarios/prefectures_47.toml"
        ).read_text("utf-8")
        scenario.write_text(re.sub(r"(?m)^battles_per_period = \d+", "battles_per_period = 3", text), "utf-8")
    else:
        lines = ['title = "東日本バトロワ"', "", "[options]", "summary_every = 3", "battles_per_period = 2"]
        if mastermind:
            lines += ["", "[mastermind]", "enabled = true", "lives = 4"]
        for name in roster:
            lines += ["", "[[prefectures]]", f"name = {json.dumps(name, ensure_ascii=False)}"]
        scenario.write_text("\n".join(lines) + "\n", "utf-8")
    game = Played(
        tmp_path,
        "br",
        "battle-royale",
        "都道府県バトロワ",
        scenario=scenario,
        schedule={"interval": "10m", "anchor": "2026-12-01 20:10", "grace": "0m"},
        dice=False,
        seed="web-battle-royale",
    )
    game.tick()
    played = 0
    while not game.finished() and (periods is None or played < periods):
        played += 1
        assert played < 80, "the game did not end"
        game.tick(minutes=10)
    return game


def guess(tmp_path: Path) -> Played:
    """数当て where anyone plays: names and posts are free text, and dice are answered too."""
    scenario = tmp_path / "guess.toml"
    scenario.write_text("players = []\nsides = 100\nrounds = 3\n", "utf-8")
    game = Played(
        tmp_path,
        "guess",
        "guess",
        "数当てスレ",
        scenario=scenario,
        schedule={"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "0m"},
        dice=True,
        seed="web-guess",
    )
    game.tick()
    return game


def dice(tmp_path: Path) -> Played:
    """Plain dice: every answer is a step of its own, shown on the page as posted."""
    game = Played(tmp_path, "dice", "dice", "ダイススレ", seed="web-dice")
    game.tick()
    return game
