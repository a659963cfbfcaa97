"""The inputs the property tests (test_hostile_properties.py) found, kept as explicit cases."""

from __future__ import annotations

import pytest

from engine.referee.isolation import INTERNAL_ERROR
from tests.engine.referee.test_hostile_properties import play
from tests.referee_harness import GM_TRIP, PureGame, posted


@pytest.mark.parametrize("game_id", ["guess", "naval", "dh", "nijiyabou", "battle-royale"])
def test_a_pause_and_a_resume_in_the_same_gm_post_are_answered_not_raised(game_id: str) -> None:
    """Found for every clocked game: the resume at the very moment of the pause made the clock raise
    ScheduleError inside the GM command (an internal error since the referee's isolation), and then
    refused it, leaving the game paused; the two read together now leave the clock as it was."""
    game = PureGame(game_id)
    game.poll()
    decided = game.poll([game.post("停止\n再開", "GM", GM_TRIP)], minutes=1)
    echo = "\n".join(posted(decided))
    assert "停止しました" in echo and "再開しました" in echo and "より後に" not in echo
    assert INTERNAL_ERROR not in echo
    assert game.store.game_status(game_id) == "running"
    game.close()
    play(game_id, [(("GM", GM_TRIP), "停止\n再開\n再開\n状態")])
