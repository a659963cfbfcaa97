"""Posts that made a game's code raise, through the bot on the local board: each is answered (never
the poll failing again and again), the next post is answered normally, a restart does not trip on the
stored post, and a resolution that raises holds its period until the GM changes something."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.referee.isolation import INTERNAL_ERROR
from engine.rules import REGISTRY
from engine.rules.guess.ruleset import GuessRuleset
from scheduler import ThreadBot
from scraper.fetch import make_session
from tests.test_scheduler_periods import GM, Game

# What a browser sends for digits cp932 cannot carry (፩ ᧚ 𐩀 𐹠): each raised ValueError in int().
POISON = ("＜予想＞&#4969;", "＜予想＞&#6618;", "＜予想＞&#68160;", "＜予想＞&#69216;")


@pytest.fixture
def game(tmp_path: Path):
    running = Game(tmp_path)
    yield running
    running.close()


def _answered_normally(game: Game, number: int, guess: int) -> bool:
    return any(f">>{number} ＜予想＞{guess}" in body for body in game.bot_posts())


def test_the_poison_posts_of_the_issue_are_answered_and_the_next_post_normally(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    poison = [game.post(text) for text in POISON]
    honest = game.post("＜予想＞42", name="ボブ")
    game.tick()
    receipt = game.bot_posts()[-1]
    for number in poison:  # refused with the reason, in the receipt
        assert f">>{number} ＜予想＞" in receipt and "は数字（0～9）で書いてください" in receipt
    assert _answered_normally(game, honest, 42)
    assert game.store.unhandled_posts(game.bot.thread_id) == []
    assert not any("Traceback" in body or "Error" in body for body in game.bot_posts())


def test_a_post_that_raises_is_answered_with_an_error_and_a_restart_does_not_trip_on_it(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = GuessRuleset.parse_line

    def poisoned(self, text: str):
        if "毒" in text:
            raise ValueError("invalid literal for int() with base 10: '፩'")
        return original(self, text)

    monkeypatch.setattr(GuessRuleset, "parse_line", poisoned)
    game.tick()
    game.clock.at("20:10:00")
    bad = game.post("＜予想＞毒")
    after = game.post("＜予想＞42", name="ボブ")
    game.tick()
    assert [chunk.split("\n", 1)[1] for chunk in game.board.replies_to(bad)] == [INTERNAL_ERROR]
    assert _answered_normally(game, after, 42)

    # A restart reads the store: the poison post is handled and answered; nothing is said twice.
    said = len(game.bot_posts())
    game.bot = ThreadBot(
        game.config, game.bot_config, game.store, make_session(), game.clock, registry=REGISTRY
    )
    game.tick("20:11:00")
    assert len(game.bot_posts()) == said
    later = game.post("＜予想＞7")
    game.tick("20:12:00")
    assert _answered_normally(game, later, 7)
    assert len(game.board.replies_to(bad)) == 1


def test_a_resolution_that_raises_holds_the_period_until_the_gm_sets_something(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = GuessRuleset.resolve

    def failing(self, state, orders, source):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(GuessRuleset, "resolve", failing)
    game.tick()
    game.clock.at("20:10:00")
    game.post("＜予想＞42")
    game.tick()
    for moment in ("21:03:00", "21:04:00", "21:10:00"):
        game.tick(moment)
    held = [body for body in game.bot_posts() if "内部エラー" in body]
    assert len(held) == 1 and "ピリオド1" in held[0] and "設定" in held[0]
    assert not any("ピリオド1 更新" in body for body in game.bot_posts())

    monkeypatch.setattr(GuessRuleset, "resolve", original)  # the fault is mended
    game.tick("21:20:00")
    assert not any("ピリオド1 更新" in body for body in game.bot_posts())  # still held: no retry loop
    game.post("設定 scores.アリス=0", name=GM)
    game.tick("21:21:00")
    assert any(body.startswith("【ピリオド1 更新】") for body in game.bot_posts())
