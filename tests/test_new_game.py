"""A game is one folder and one registry line: a throwaway game written into a temporary folder is
registered and played through `threadgm adjudicate`, the bot on the local board, and `verify` — with no
other change anywhere."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import build
from engine.offline.verify import ThreadPost, verify_thread
from engine.rules import REGISTRY
from engine.ruleset import Registry
from poster.markup import render_body
from scheduler import BotConfig, GameConfig, ThreadBot
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.test_scheduler_periods import Clock

COIN = '''
"""コイン: each period every player calls ＜コイン＞表 or 裏; the coin is flipped from the period's key."""

from engine.report import heading, line, report
from engine.rng import SeededDice
from engine.ruleset import ClockedRuleset, OrderText, Rejection, VerifiesPeriods

FACES = ("表", "裏")


class CoinRuleset(ClockedRuleset, VerifiesPeriods):
    ID = "coin"
    NAME = "コイン"
    HELP = "【コイン】＜コイン＞表 か ＜コイン＞裏 と書く。当たった人に1点。"

    def initial_state(self, scenario):
        return {"scores": {}, "flips": 0}

    def state_to_dict(self, state):
        return {"scores": dict(state["scores"]), "flips": state["flips"]}

    def state_from_dict(self, data):
        return {"scores": dict(data["scores"]), "flips": data["flips"]}

    def parse_line(self, text):
        if not text.startswith("＜コイン＞"):
            return None
        call = text.removeprefix("＜コイン＞").strip()
        if call not in FACES:
            return Rejection(text, "表か裏で書いてください")
        return OrderText(call, f"＜コイン＞{call}")

    def resolve(self, state, orders, source):
        face = FACES[source.stream("coin").roll(2) - 1]
        scores = dict(state["scores"])
        for order in orders:
            if order.command == face:
                scores[order.player] = scores.get(order.player, 0) + 1
        new = {"scores": scores, "flips": state["flips"] + 1}
        return new, report(heading("コイン"), line(f"コイン: {face}"), kind="resolution", result={"face": face})

    def read_period(self, lines):
        return {"face": next((text[5:] for text in lines if text.startswith("コイン: ")), None)}

    def verify_period(self, key, result):
        face = FACES[SeededDice(key, "coin").roll(2) - 1]
        return [] if result["face"] == face else [f"コイン: {face} のはずが {result['face']}"]


RULESET = CoinRuleset()
'''


@pytest.fixture
def coin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """A registry of its own: every registered game and the new one (the one registry line)."""
    folder = tmp_path / "games" / "coin"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(textwrap.dedent(COIN), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "games"))
    yield Registry([*REGISTRY, importlib.import_module("coin").RULESET])
    sys.modules.pop("coin", None)


def test_adjudicate_runs_the_new_game(coin: Registry, tmp_path: Path) -> None:
    main = build(coin)
    orders = tmp_path / "ORDERS.txt"
    orders.write_text("アリス: ＜コイン＞表\nボブ: ＜コイン＞裏\n", "utf-8")
    saved = tmp_path / "state.json"
    scenario = tmp_path / "coin.toml"
    scenario.write_text("", "utf-8")
    result = CliRunner().invoke(
        main,
        [
            "adjudicate",
            "coin",
            "--scenario",
            str(scenario),
            "--orders",
            str(orders),
            "--seed",
            "3",
            "--save-state",
            str(saved),
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert '"face"' in result.output and saved.is_file()
    again = CliRunner().invoke(main, ["adjudicate", "coin", "--state", str(saved), "--orders", str(orders)])
    assert again.exit_code == 0, again.output
    assert again.output.startswith("【コイン】\nコイン: ")
    assert CliRunner().invoke(main, ["help", "coin"]).output.startswith("【コイン】")


def test_the_bot_plays_the_new_game_and_verify_recomputes_it(coin: Registry, tmp_path: Path) -> None:
    clock = Clock()
    board = LocalBoard.start(tmp_path / "board", clock=clock, title="コインスレ")
    store = Store(tmp_path / "bot.sqlite")
    schedule = {"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m"}
    config = GameConfig("coin", "coin", board.url(), schedule=schedule, dice=False)
    bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=coin)
    try:
        bot.tick()  # opens the game: 【コイン 開始】 with period 1's hash
        clock.at("20:10:00")
        board.post("＜コイン＞表", name="アリス")
        board.post("＜コイン＞横", name="ボブ")
        bot.tick()
        for at in ("21:03:00", "22:03:00"):
            clock.at(at)
            bot.tick()
        bodies = [p.body for p in board.posts() if p.trip == BOT_TRIP]
        assert bodies[0].startswith("【コイン 開始】")
        receipt = next(body for body in bodies if body.startswith("【受付 ピリオド1"))
        assert ">>3 ＜コイン＞表" in receipt and "表か裏で書いてください" in receipt
        assert sum(body.startswith("【ピリオド1 更新】") for body in bodies) == 1
        assert sum(body.startswith("【ピリオド2 更新】") for body in bodies) == 1
        shown = [ThreadPost(p.number, p.trip, p.date, p.body) for p in board.posts()]
        verified = verify_thread(board.key, shown, render_body, None, coin.by_name)
        assert verified.ok and (verified.periods_checked, verified.periods_matched) == (2, 2), (
            verified.summary()
        )
    finally:
        board.close()
        store.close()
