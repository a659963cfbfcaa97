"""A 準備完了 listed in the receipt is one that counts toward closing the period early; one that
cannot — the schedule closes no period early, or the game lists no players, so nothing closes it
early — is answered with why, not listed as if it would (issue 25: a receipt is a promise)."""

from __future__ import annotations

from dataclasses import replace

from engine.clock.periods import READY_NO_EARLY, READY_NO_PLAYERS
from engine.clock.schedule import parse_schedule
from tests.referee_harness import SCHEDULE, PureGame, open_scenario, posted


def _ready(game: PureGame, name: str = "名無し", trip: str | None = None) -> str:
    game.poll()
    receipt, *_update = posted(game.poll([game.post("準備完了", name, trip)]))
    game.close()
    return receipt


def test_a_ready_where_no_player_is_listed_is_answered_that_nothing_closes_early() -> None:
    for game_id in ("battle-royale", "guess"):
        assert _ready(PureGame(game_id)).endswith(f">>2 準備完了 → {READY_NO_PLAYERS}")


def test_a_ready_on_a_schedule_without_early_close_says_the_deadline_stands() -> None:
    game = PureGame(
        "guess", open_scenario("guess").replace("players = []", 'players = ["アリス◆AAAAAAAAAA"]')
    )
    game.setup = replace(game.setup, schedule=parse_schedule({**SCHEDULE, "early": False}))
    assert _ready(game, "アリス", "AAAAAAAAAA").endswith(f">>2 準備完了 → {READY_NO_EARLY}")


def test_a_listed_players_ready_is_taken() -> None:
    game = PureGame(
        "guess", open_scenario("guess").replace("players = []", 'players = ["アリス◆AAAAAAAAAA"]')
    )
    assert _ready(game, "アリス", "AAAAAAAAAA").endswith(">>2 準備完了")  # and the period closes
